"""Export animation in the real App: the Keep page's button bakes the last recording into keyframes.

Recorded with Ctrl+R, exported by real clicks on the Keep page, read back with
``load_animation``; forward kinematics of the baked keyframes must give the
recording's joints.
"""

from __future__ import annotations

import pytest

import numpy as np
import pygame

from ikplayground.app.modes import export_mode
from ikplayground.scene.record.bake import load_animation
from ikplayground.solvers import forward_kinematics
from tests.app.conftest import click, ctrl, frames, rect_centre


def press(app, widget) -> None:
    """A real click on a panel widget; pygame_gui posts its event, which the next frame handles."""
    click(app, rect_centre(widget))
    frames(app, 1)


def export(app) -> None:
    """Click Export animation on the Keep page and wait for the bake to end."""
    if app.panel.page != "keep":
        press(app, app.panel.tabs["keep"])
    press(app, app.panel.export_button)
    app.export.wait(60)


@pytest.mark.slow
def test_export_bakes_every_chain_of_the_last_recording_and_the_keyframes_give_its_joints(app, scene_file):
    ctrl(app, pygame.K_r)
    frames(app, 29)
    export(app)  # stops the recording first
    assert not app.record.active
    out = app.record.path.with_name(app.record.path.stem + "-animation.json")
    assert out.exists(), app.message
    steps = app.record.steps
    assert steps >= 30
    assert app.message == f"Exported 5 tracks ({5 * steps} keyframes) to {out.name}"
    tracks = load_animation(out)
    assert [t.solver for t in tracks] == [c.solver for c in app.scene.chains]
    assert [t.name for t in tracks] == [c.tag for c in app.scene.chains] == [f"#{k}" for k in range(1, 6)]
    rows = {}
    with open(app.record.path, encoding="utf-8") as f:
        next(f)
        for line in f:
            step, chain, _solver, joint, _a, x, y, _tx, _ty, _name = line.rstrip("\n").split(",")
            rows.setdefault((int(step), int(chain)), []).append((float(x), float(y)))
    for k, track in enumerate(tracks):
        assert len(track.steps) == steps
        for i, step in enumerate(track.steps):
            joints = forward_kinematics(track.roots[i], np.radians(track.angles[i]), track.lengths)[1:]
            np.testing.assert_allclose(joints, rows[(int(step), k)], atol=1e-9)


@pytest.mark.slow
def test_selected_chain_only_bakes_one_track_for_the_selected_chain(app):
    ctrl(app, pygame.K_r)
    frames(app, 9)
    ctrl(app, pygame.K_r)
    press(app, app.panel.tabs["keep"])
    press(app, app.panel.export_selected_box)
    assert app.export.selected_only
    index = app.scene.chains.index(app.scene.selected)
    export(app)
    out = app.record.path.with_name(f"{app.record.path.stem}-chain{index}-animation.json")
    tracks = load_animation(out)
    assert [(t.chain, t.solver) for t in tracks] == [(index, app.scene.selected.solver)]
    assert f"1 track ({app.record.steps} keyframes)" in app.message


@pytest.mark.slow
def test_export_without_a_recording_says_to_record_first_and_writes_nothing(app, tmp_path):
    export(app)
    assert app.message_is_error and "record a run first (Ctrl+R)" in app.message
    assert not list(tmp_path.glob("*.json"))


@pytest.mark.slow
def test_an_unwritable_folder_is_one_error_line_and_the_app_goes_on(app, tmp_path, monkeypatch):
    ctrl(app, pygame.K_r)
    frames(app, 4)
    ctrl(app, pygame.K_r)
    csv_path = app.record.path
    monkeypatch.setattr(export_mode, "bake_recording", refused_write)  # as a folder that cannot be written
    export(app)
    assert app.message_is_error and app.message.startswith("Animation not exported")
    assert not list(csv_path.parent.glob("*-animation*.json"))
    frames(app, 3)
    assert app.running


@pytest.mark.slow
def test_the_keep_page_names_the_recording_going_on_then_the_last_one(app):
    press(app, app.panel.tabs["keep"])
    hint = app.panel.keep_page.hint
    assert hint.text.startswith("No recording yet")
    ctrl(app, pygame.K_r)
    frames(app, 4)
    name = app.record.path.name
    assert hint.text.startswith("Recording ") and name[:10] in hint.text and "steps" in hint.text
    ctrl(app, pygame.K_r)
    frames(app, 1)
    assert hint.text.startswith(f"Last recording ({app.record.steps} steps): ")


def refused_write(csv_path, rig, out, chain=None):
    """bake_recording as it fails in a folder that cannot be written."""
    raise PermissionError(13, "Permission denied")


@pytest.mark.slow
@pytest.mark.parametrize("there", ["a folder", "a file of the user's", "an earlier export"])
def test_an_export_replaces_only_an_earlier_export(app, there):
    ctrl(app, pygame.K_r)
    frames(app, 4)
    ctrl(app, pygame.K_r)
    csv_path = app.record.path
    first = csv_path.with_name(csv_path.stem + "-animation.json")
    if there == "a folder":
        first.mkdir()
    elif there == "a file of the user's":
        first.write_text("my notes\n")
    else:
        export(app)
        assert app.message.startswith("Exported") and first.is_file()
    before = None if first.is_dir() else first.read_bytes()
    mtime = None if first.is_dir() else first.stat().st_mtime_ns
    export(app)
    assert app.message.startswith("Exported"), app.message
    if there == "an earlier export":
        assert first.stat().st_mtime_ns >= mtime and first.is_file() and not first.with_name(
            first.stem + "-2.json").exists()
    else:
        assert first.with_name(first.stem + "-2.json").is_file()
        assert first.is_dir() if there == "a folder" else first.read_bytes() == before
