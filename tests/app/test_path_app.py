"""The Path kind in the real App: added from the New chain menu with N, a handle dragged, the drag undone, drawn
headless."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.scene.core.constants import SOLVER_LABELS
from ikplayground.solvers import along_path
from tests.app.conftest import choose, drag, frames, press_button, tap


def screen(app, p):
    return app.view.camera.to_screen(np.asarray(p, dtype=float))


@pytest.mark.slow
def test_a_path_chain_from_the_menu_follows_a_dragged_handle_and_the_drag_undoes(app, tmp_path):
    choose(app, app.panel.new_chain, SOLVER_LABELS["path"])
    tap(app, pygame.K_n, unicode="n")
    chain = app.scene.chains[-1]
    assert chain.is_path and app.scene.selected is chain
    assert app.panel.title.text == f"Path #{chain.number}"
    assert {"path_start", "slide", "bones", "bone_length"} <= set(app.panel.params)
    frames(app, 5)
    control = chain.fields["control"].copy()
    points = chain.fields["points"].copy()
    goal = control[2] + 0.3 * (np.array(app.scene.stage) / 2 - control[2])  # toward the middle of the stage
    assert math.dist(goal, control[2]) > 20.0
    drag(app, screen(app, control[2]), screen(app, goal), steps=8)  # the third handle
    frames(app, 2)
    assert math.dist(chain.fields["control"][2], goal) < 2.0  # where the mouse let go (the screen's whole pixels)
    np.testing.assert_array_equal(chain.fields["control"][[0, 1, 3]], control[[0, 1, 3]])
    assert np.abs(chain.fields["points"] - points).max() > 5.0  # the chain moved with its curve
    np.testing.assert_allclose(chain.fields["points"], along_path(chain.fields["control"], chain.fields["lengths"]),
                               atol=1e-6)
    app.save_screenshot(tmp_path / "path.png")
    assert (tmp_path / "path.png").stat().st_size > 0
    tap(app, pygame.K_z, pygame.KMOD_CTRL, unicode="z")  # undo the handle's drag: one edit
    frames(app, 2)
    np.testing.assert_array_equal(chain.fields["control"], control)
    np.testing.assert_allclose(chain.fields["points"], points, atol=1e-9)


@pytest.mark.slow
def test_fit_view_and_the_math_page_take_a_path_chain_and_a_rope(app):
    for solver in ("path", "rope"):  # a rope has a target and no pole
        choose(app, app.panel.new_chain, SOLVER_LABELS[solver])
        tap(app, pygame.K_n, unicode="n")
    chain = next(c for c in app.scene.chains if c.is_path)
    app.scene.move_target(chain, (5.0, 5.0), "control:1")  # a handle in the stage's corner
    tap(app, pygame.K_f, unicode="f")  # fit view
    frames(app, 2)
    box = app.view.world_box()
    assert box is not None and box[0] <= 5.0 and box[1] <= 5.0
    for c in (chain, app.scene.chains[-1]):  # the Math page's numbers for a path chain and a rope
        app.scene.select(c)
        app.panel.sync(c)
        press_button(app, app.panel.tabs["math"], 2)
    assert app.scene.selected.is_rope
