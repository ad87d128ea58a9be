"""The rope in the real App: added from the New chain menu with N, its end pinned and dragged, drawn headless."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.scene.core.constants import SOLVER_LABELS
from tests.app.conftest import choose, click, drag, frames, rect_centre, tap


def add_rope(app):
    choose(app, app.panel.new_chain, SOLVER_LABELS["rope"])
    tap(app, pygame.K_n, unicode="n")
    rope = app.scene.chains[-1]
    assert rope.is_rope and app.scene.selected is rope
    return rope


def screen(app, p):
    return app.view.camera.to_screen(np.asarray(p, dtype=float))


@pytest.mark.slow
def test_a_rope_from_the_menu_hangs_and_its_pinned_end_follows_a_drag(app, tmp_path):
    rope = add_rope(app)
    assert app.panel.title.text == f"Rope #{rope.number}"
    assert {"gravity", "rope_damping", "bones", "bone_length"} <= set(app.panel.params)
    box = app.panel.setting_rows.boxes["pin_end"]
    assert box.visible
    frames(app, 30)
    np.testing.assert_allclose(np.hypot(*np.diff(rope.fields["points"], axis=0).T), rope.fields["lengths"], atol=1e-6)
    click(app, rect_centre(box))  # the panel's "Pin end"
    assert rope.fields["pin_end"][0] == 1.0
    end = rope.fields["points"][-1].copy()
    goal = end + (-90.0, -60.0)
    drag(app, screen(app, end), screen(app, goal), steps=10)
    frames(app, 120)
    target = rope.fields["target"]
    assert math.dist(target, goal) < 2.0  # where the mouse let go (to the screen's whole pixels)
    assert math.dist(rope.fields["points"][-1], target) < 0.05
    np.testing.assert_allclose(np.hypot(*np.diff(rope.fields["points"], axis=0).T), rope.fields["lengths"], atol=1e-6)
    root = rope.fields["root"].copy()
    drag(app, screen(app, root), screen(app, root + (-40.0, 20.0)), steps=6)  # the root dragged
    frames(app, 5)
    assert math.dist(rope.fields["root"], root + (-40.0, 20.0)) < 2.0
    app.save_screenshot(tmp_path / "rope.png")
    assert (tmp_path / "rope.png").stat().st_size > 0
    tap(app, pygame.K_z, pygame.KMOD_CTRL, unicode="z")  # undo the root's move
    assert math.dist(rope.fields["root"], root) < 1e-9 or app.scene.selected is not rope
