"""The walker in the real App: added from the New chain menu, driven with the arrow keys, drawn headless."""

from __future__ import annotations

import pytest

import numpy as np
import pygame

from ikplayground.scene.core.constants import SOLVER_LABELS
from tests.app.conftest import choose, frames, key_down, key_up, tap


def add_walker(app):
    choose(app, app.panel.new_chain, SOLVER_LABELS["walker"])
    tap(app, pygame.K_n, unicode="n")
    walker = app.scene.chains[-1]
    assert walker.is_walker and app.scene.selected is walker
    return walker


@pytest.mark.slow
def test_a_walker_from_the_menu_walks_where_the_arrow_keys_drive_it(app):
    walker = add_walker(app)
    assert app.panel.title.text == f"Walker #{walker.number}"
    assert {"legs", "step_threshold", "step_height", "walk_speed"} <= set(app.panel.params)
    app.apply("auto_walk", False)
    frames(app, 30)
    terrain = app.scene.terrain
    for key, sign in ((pygame.K_LEFT, -1.0), (pygame.K_RIGHT, 1.0)):
        x0 = float(walker.fields["body"][0])
        key_down(key)
        held = []
        for _ in range(90):
            before = walker.fields["foot"].copy()
            was = walker.fields["state"] < 0.5
            frames(app)
            f = walker.fields
            planted = f["state"] < 0.5
            held.append(np.hypot(*(f["foot"][was & planted] - before[was & planted]).T).max(initial=0.0))
            assert np.all(np.abs(f["foot"][planted, 1] - terrain.height_at(f["foot"][planted, 0])) <= 0.5)
        key_up(key)
        frames(app)
        assert sign * (float(walker.fields["body"][0]) - x0) > 60  # it walked that way
        assert max(held) <= 0.5  # and its planted feet stayed put
    # released: it slows to a stop and stands
    frames(app, 60)
    x = float(walker.fields["body"][0])
    frames(app, 10)
    assert float(walker.fields["body"][0]) == x


@pytest.mark.slow
def test_walkers_draw_headless_among_other_chains_and_in_a_crowd(app, tmp_path):
    add_walker(app)
    app.apply("legs", 8)
    frames(app, 20)
    app.save_screenshot(tmp_path / "w.png")
    assert (tmp_path / "w.png").stat().st_size > 0
    for _ in range(90):  # past the renderer's detail limit: the crowd's way
        app.scene.new_chain("walker" if len(app.scene.chains) % 3 else "ccd")
    frames(app, 5)
    app.apply("solver", "ccd")  # the selected walker becomes a CCD chain, and back
    frames(app, 2)
    app.apply("solver", "walker")
    frames(app, 2)
    assert app.scene.selected.is_walker


@pytest.mark.slow
def test_a_walker_with_three_bone_legs_walks_and_draws(app, tmp_path):
    walker = add_walker(app)
    app.apply("leg_bones", 3)
    walker = app.scene.selected
    assert walker.is_walker and walker.fields["lengths"].shape == (6, 3)
    assert app.panel.params["leg_bones"].slider.is_enabled
    x0 = float(walker.fields["body"][0])
    frames(app, 60)
    f = walker.fields
    assert float(f["body"][0]) != x0
    legs = f["points"].reshape(6, 4, 2)
    np.testing.assert_allclose(legs[:, -1], f["foot"], atol=0.5)  # every foot on its leg's tip
    app.save_screenshot(tmp_path / "w3.png")
    assert (tmp_path / "w3.png").stat().st_size > 0
    app.apply("leg_bones", 2)
    frames(app, 2)
    assert app.scene.selected.fields["lengths"].shape == (6, 2)
