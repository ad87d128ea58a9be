"""Export to Spine in the real App: record with Ctrl+R, press the Keep page's Spine button, the file appears
beside the recording and the status line names it; its Spine forward kinematics lands on the recording."""

from __future__ import annotations

import json

import pygame
import pytest

from tests.app.conftest import click, ctrl, frames, rect_centre
from tests.scene.spine_fk import worst_error


def press(app, widget) -> None:
    click(app, rect_centre(widget))
    frames(app, 1)


@pytest.mark.slow
def test_the_spine_button_exports_the_last_recording_beside_it(app, scene_file):
    press(app, app.panel.tabs["keep"])
    press(app, app.panel.spine_button)
    assert "Nothing to export yet" in app.message
    ctrl(app, pygame.K_r)
    frames(app, 12)
    press(app, app.panel.spine_button)  # stops the recording first
    app.export.wait(60)
    assert not app.record.active
    out = app.record.path.with_name(app.record.path.stem + "-spine.json")
    assert out.exists(), app.message
    assert app.message.startswith(f"Exported to Spine JSON {out.name}: ") and " bones, " in app.message
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert len(doc["bones"]) > 1 + len(app.scene.chains)
    worst, checked = worst_error(doc, app.record.path)
    assert checked > 0 and worst <= 0.01
    press(app, app.panel.spine_button)  # again: the earlier export is replaced, not a -2 beside it
    app.export.wait(60)
    assert sorted(p.name for p in out.parent.glob("*-spine*.json")) == [out.name]
