"""The camera in the real App: wheel, pan, F, Home, the saved view, edge markers, and N placing chains that work."""

from __future__ import annotations

import json

import numpy as np
import pygame
import pytest

from ikplayground.app.camera import STEP
from tests.app.conftest import (choose, click, ctrl, drag, frames, hold, key_down, key_up, move_mouse, post, tap)


def wheel(app, pos, notches: int) -> None:
    """The mouse at ``pos``, then the wheel turned ``notches`` (up: in)."""
    move_mouse(app, pos)
    post(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False, precise_x=0.0, precise_y=float(notches), which=0,
         touch=False)
    frames(app)


def pan(app, start, end, button: int = 3, steps: int = 4) -> None:
    """A drag of mouse ``button`` from ``start`` to ``end``."""
    move_mouse(app, start)
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=button)
    frames(app)
    held = tuple(int(b == button) for b in (1, 2, 3))
    for t in np.linspace(0.0, 1.0, steps + 1)[1:]:
        p = tuple(round(a + (b - a) * t) for a, b in zip(start, end))
        post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=held)
        frames(app)
    post(pygame.MOUSEBUTTONUP, pos=end, button=button)
    frames(app)


def screen_points(app, chain) -> np.ndarray:
    f = chain.fields
    pts = [f["points"]] + ([f["target"][None]] if chain.is_ik else [])
    return app.view.camera.to_screen(np.concatenate(pts))


@pytest.mark.slow
def test_the_wheel_zooms_keeping_the_world_point_under_the_mouse(app):
    mouse = (400, 300)
    move_mouse(app, mouse)
    under = app.world(mouse)
    wheel(app, mouse, 2)
    assert app.view.camera.zoom == pytest.approx(STEP ** 2)
    np.testing.assert_allclose(app.world(mouse), under, atol=1e-9)
    wheel(app, mouse, -3)
    assert app.view.camera.zoom == pytest.approx(1 / STEP)
    np.testing.assert_allclose(app.world(mouse), under, atol=1e-9)
    wheel(app, (1100, 300), 1)  # over the panel: no zoom
    assert app.view.camera.zoom == pytest.approx(1 / STEP)


@pytest.mark.slow
def test_a_target_drag_at_zoom_2_after_a_pan_moves_the_target_by_the_mouse_over_the_zoom(app):
    tap(app, pygame.K_SPACE)  # paused: only the drag moves the target
    chain = next(c for c in app.scene.chains if c.is_ik)
    app.view.camera.set_zoom(2.0)
    pan(app, (500, 400), (450, 380))  # right-button drag
    assert app.view.camera.zoom == 2.0
    start_world = chain.fields["target"].copy()
    grip = app.view.camera.to_screen(start_world)
    assert app.stage_rect.collidepoint(grip)
    delta = np.array((60.0, -40.0))
    drag(app, grip, grip + delta)
    np.testing.assert_allclose(chain.fields["target"], start_world + delta / 2.0, atol=0.51)
    assert app.drag is None


@pytest.mark.slow
def test_f_fits_every_chain_into_the_stage_and_home_resets(app):
    app.view.camera.set_zoom(4.0)
    app.view.camera.origin[:] = (-3000.0, 2000.0)
    frames(app)
    assert app.view.markers  # everything is off view: each has an edge marker
    tap(app, pygame.K_f, unicode="f")
    stage = app.stage_rect
    for chain in app.scene.chains:
        pts = screen_points(app, chain)
        assert (pts >= 0).all() and (pts[:, 0] <= stage.right).all() and (pts[:, 1] <= stage.bottom).all(), \
            chain.solver
    assert stage.right == app.screen.get_width() - app.panel.width  # the stage ends at the panel
    assert app.view.markers == []
    tap(app, pygame.K_HOME)
    assert app.view.camera.home


@pytest.mark.slow
def test_plus_and_minus_zoom_about_the_stage_centre(app):
    w, h = app.stage_rect.size
    centre = app.world((w / 2, h / 2))
    tap(app, pygame.K_EQUALS, unicode="=")
    assert app.view.camera.zoom == pytest.approx(STEP)
    tap(app, pygame.K_KP_MINUS)
    tap(app, pygame.K_MINUS, unicode="-")
    assert app.view.camera.zoom == pytest.approx(1 / STEP)
    np.testing.assert_allclose(app.world((w / 2, h / 2)), centre, atol=1e-9)


@pytest.mark.slow
def test_the_view_is_saved_with_the_scene_and_loaded_back(app, scene_file):
    wheel(app, (300, 300), 3)
    pan(app, (400, 400), (350, 420), button=2)
    state = app.view.camera.state()
    ctrl(app, pygame.K_s, "s")
    saved = json.loads(scene_file.read_text())
    assert saved["view"]["zoom"] == pytest.approx(state["zoom"], rel=1e-5)
    np.testing.assert_allclose(saved["view"]["origin"], state["origin"], atol=1e-3)
    tap(app, pygame.K_HOME)
    ctrl(app, pygame.K_o, "o")
    assert not app.message_is_error, app.message
    assert app.view.camera.zoom == pytest.approx(state["zoom"], rel=1e-5)
    np.testing.assert_allclose(app.view.camera.origin, state["origin"], atol=1e-3)
    del saved["view"]  # a file without it: the home view
    scene_file.write_text(json.dumps(saved))
    ctrl(app, pygame.K_o, "o")
    assert app.view.camera.home


@pytest.mark.slow
def test_a_bad_view_is_refused_in_one_line_and_the_scene_stays(app, scene_file):
    ctrl(app, pygame.K_s, "s")
    doc = json.loads(scene_file.read_text())
    doc["view"] = {"origin": [0, 0], "zoom": 0}
    scene_file.write_text(json.dumps(doc))
    scene = app.scene
    wheel(app, (300, 300), 1)
    zoom = app.view.camera.zoom
    ctrl(app, pygame.K_o, "o")
    assert app.scene is scene and app.view.camera.zoom == zoom
    assert app.message_is_error and "\n" not in app.message
    assert "view.zoom: must be >= 0.05 (got 0)" in app.message


@pytest.mark.slow
def test_a_snake_out_of_view_gets_an_edge_marker_that_brings_it_back(app):
    snake = next(c for c in app.scene.chains if c.is_snake)
    head = snake.fields["points"][0]
    # zoomed in far from the snake: it is wholly out of view
    far = np.array((head[0] + 600.0 if head[0] < 490 else head[0] - 600.0, head[1]))
    app.view.camera.set_zoom(4.0)
    w, h = app.stage_rect.size
    app.view.camera.origin = far - np.array((w, h)) / 8.0
    frames(app)
    marked = {id(c): m for c, m in app.view.markers}
    assert id(snake) in marked
    x, y, _ = marked[id(snake)]
    assert app.stage_rect.collidepoint(x, y)
    click(app, (x, y))
    pts = screen_points(app, snake)
    stage = app.stage_rect
    inside = (pts[:, 0] >= 0) & (pts[:, 0] <= stage.right) & (pts[:, 1] >= 0) & (pts[:, 1] <= stage.bottom)
    assert inside.any()
    assert id(snake) not in {id(c) for c, _ in app.view.markers}


def _check_added(app, added):
    frames(app, 2)
    stage = app.stage_rect
    for c in added:
        assert c.status in ("reached", "iterating"), (c.solver, c.status)
        t = app.view.camera.to_screen(c.fields["target"])
        assert 0 <= t[0] <= stage.right and 0 <= t[1] <= stage.bottom, t
    roots = np.array([c.fields["root"] for c in app.scene.chains if c.is_ik])
    d = np.hypot(*(roots[:, None] - roots[None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert d.min() > 5.0


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["CCD", "FABRIK", "DLS", "Two-bone"])
def test_n_pressed_20_times_adds_chains_that_work_in_view(app, solver):
    choose(app, app.panel.new_chain, solver)
    n0 = len(app.scene.chains)
    move_mouse(app, (300, 300))
    for _ in range(20):
        tap(app, pygame.K_n, unicode="n")
    added = app.scene.chains[n0:]
    assert len(added) == 20
    _check_added(app, added)


@pytest.mark.slow
def test_n_held_at_zoom_fills_free_spots_in_view(app):
    wheel(app, (500, 400), -4)  # zoomed out
    n0 = len(app.scene.chains)
    move_mouse(app, (200, 150))
    hold(app, pygame.K_n, 20, unicode="n")  # a press and its auto-repeats
    added = app.scene.chains[n0:]
    assert len(added) == 20
    _check_added(app, added)


@pytest.mark.slow
def test_space_tapped_pauses_and_space_with_a_drag_pans_without_pausing(app):
    tap(app, pygame.K_SPACE, unicode=" ")
    assert app.paused
    tap(app, pygame.K_SPACE, unicode=" ")
    assert not app.paused
    before = app.view.camera.origin.copy()
    key_down(pygame.K_SPACE, unicode=" ")
    frames(app)
    targets = [c.fields["target"].copy() for c in app.scene.chains if c.is_ik]
    pan(app, (300, 200), (380, 260), button=1)
    key_up(pygame.K_SPACE, unicode=" ")
    frames(app)
    assert not app.paused
    np.testing.assert_allclose(app.view.camera.origin, before - (80, 60))
    assert app.drag is None
    assert len(targets) == sum(c.is_ik for c in app.scene.chains)


@pytest.mark.slow
def test_a_growing_window_grows_the_view_about_its_centre(app):
    w, h = app.stage_rect.size
    centre = app.world((w / 2, h / 2))
    post(pygame.VIDEORESIZE, size=(1600, 900), w=1600, h=900)
    frames(app, 2)
    w2, h2 = app.stage_rect.size
    assert w2 > w and h2 > h
    np.testing.assert_allclose(app.world((w2 / 2, h2 / 2)), centre, atol=1e-9)


@pytest.mark.slow
def test_a_race_starts_with_every_racer_and_its_target_in_view_and_ends_with_the_view_before(app):
    wheel(app, (300, 300), 2)
    before = app.view.camera.state()
    tap(app, pygame.K_r, unicode="r")
    assert app.race.on
    stage = app.stage_rect
    for chain in app.scene.chains:
        pts = screen_points(app, chain)
        assert (pts >= 0).all() and (pts[:, 0] <= stage.right).all() and (pts[:, 1] <= stage.bottom).all()
    tap(app, pygame.K_r, unicode="r")
    assert not app.race.on
    assert app.view.camera.state() == before


def test_edge_markers_of_a_crowd_do_not_pile_up():
    from ikplayground.app.camera import Camera
    from ikplayground.app.draw.view import MARKER_APART, out_of_view
    from ikplayground.scene import stress_scene

    scene = stress_scene(600, (980.0, 720.0))
    markers = out_of_view(scene.groups, Camera((400.0, 300.0), 6.0), (980, 720))
    assert 8 <= len(markers) <= 64
    xy = np.array([m[:2] for _, m in markers])
    d = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert d.min() >= MARKER_APART
    assert all(0 <= x <= 980 and 0 <= y <= 720 for x, y in xy.tolist())
