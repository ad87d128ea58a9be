"""Jiggle bones in the real App, by posted events: the Jiggle slider on the selected chain, a drag, the Math page."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.insight.chain_view import math_overlay
from ikplayground.solvers import chain_points_batch
from tests.app.conftest import check, drag, frames, press_button, select_solver, slide, tap


def solved_points(chain) -> np.ndarray:
    f = chain.fields
    return chain_points_batch(f["root"][None], f["angles"][None], (f["lengths"] * f["scale"])[None])[0]


@pytest.mark.slow
def test_the_jiggle_slider_makes_the_dragged_chain_lag_its_solve_shows_on_the_math_page_and_undoes(app, tmp_path):
    ccd = select_solver(app, "ccd")
    frames(app, 20)
    assert "jiggle" in app.panel.params and app.panel.params["jiggle"].slider.visible
    slide(app, "jiggle", 0.2)
    assert ccd.fields["jiggle"][0] == pytest.approx(0.2)
    camera = app.view.camera
    target = ccd.fields["target"].copy()
    drag(app, camera.to_screen(target), camera.to_screen(target + (90.0, 50.0)), steps=4, release=False)
    assert np.abs(ccd.fields["points"] - solved_points(ccd)).max() > 1.0  # shown off its solve, lagging
    np.testing.assert_allclose(np.hypot(*np.diff(ccd.fields["points"], axis=0).T), ccd.fields["lengths"], atol=1e-6)
    press_button(app, app.panel.tabs["math"])
    assert app.panel.math_page.visible
    check(app, app.panel.show_math_box, True)
    assert app.math.shown
    roles = {p.role for p in math_overlay(ccd)}
    assert {"velocity", "ghost"} <= roles  # each joint's velocity, the rest pose
    frames(app, 2)
    app.save_screenshot(tmp_path / "jiggle.png")
    assert (tmp_path / "jiggle.png").stat().st_size > 0
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tuple(int(v) for v in camera.to_screen(
        target + (90.0, 50.0))), button=1))
    frames(app, 400)  # let go: it settles on its solve
    np.testing.assert_allclose(ccd.fields["points"], solved_points(ccd), atol=1e-3)
    for _ in range(4):  # undo the drag, then the slider
        if ccd.fields["jiggle"][0] == 1.0:
            break
        tap(app, pygame.K_z, pygame.KMOD_CTRL, unicode="\x1a")
    assert ccd.fields["jiggle"][0] == 1.0
    frames(app, 2)
    np.testing.assert_allclose(ccd.fields["points"], solved_points(ccd), atol=1e-9)
    assert not any(p.role == "velocity" for p in math_overlay(ccd))
    assert math.isfinite(ccd.error)
