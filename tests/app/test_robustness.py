"""The App poked at: squashed and huge windows, minimise, drags released outside,
held keys, solver switches mid-drag, every slider at both ends, failed saves and loads."""

from __future__ import annotations

import json
import math

import numpy as np
import pygame
import pytest

from ikplayground.app import app as app_module
from ikplayground.app import commands
from ikplayground.app.draw import chrome
from ikplayground.scene import STEP
from ikplayground.scene.core.constants import SOLVERS
from ikplayground.scene.core.settings import SETTINGS
from tests.app.conftest import (choose, ctrl, frames, hold, key_down, key_up, mouse_down, move_mouse, post,
                                press_button, select_solver, slide, tap)
from tests.scene.scene_cases import assert_scene_ok


def resize(app, size, k=2):
    post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
    frames(app, k)


def assert_on_stage(app):
    w, h = app.scene.stage
    for c in app.scene.chains:
        keep = ([c.fields["points"][0]] if c.is_snake else [c.fields["body"] * (1, 0)] if c.is_walker
                else [c.fields["root"], *c.fields["targets"]] if c.is_rig
                else list(c.fields["control"]) if c.is_path
                else [c.fields["root"], c.fields["target"]])  # a walker: its body's x
        for p in keep:
            assert 0 <= p[0] <= w and 0 <= p[1] <= h, (c.solver, p, (w, h))


# --- windows ------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("size", [(320, 240), (3840, 2160), (321, 2000), (2000, 241)])
def test_resizing_relays_out_the_panel_and_keeps_everything_on_stage(app, size):
    resize(app, size)
    w, h = app.screen.get_size()
    assert (w, h) == size
    panel = app.panel.rect
    assert panel.right == w and panel.height == h and 0 < panel.width <= w
    assert app.scene.stage == (w - app.panel.width, h - app_module.STATUS_HEIGHT)
    assert_on_stage(app)
    assert_scene_ok(app.scene)
    # the widgets are still there and still work after the new layout
    chain = select_solver(app, "ccd")
    slide(app, "iterations", 33)
    assert app.scene.selected.iterations == 33 and chain.solver == "ccd"


@pytest.mark.slow
def test_a_window_squashed_for_a_moment_gives_the_scene_back_as_it_was(app):
    frames(app, 30)  # let every chain settle on its target
    size = app.screen.get_size()
    roots = [c.anchor.copy() for c in app.scene.chains]
    targets = [c.fields["target"].copy() for c in app.scene.chains if not c.is_snake]
    resize(app, (320, 240))
    assert any(not np.array_equal(c.anchor, r) for c, r in zip(app.scene.chains, roots))
    resize(app, size)
    assert app.screen.get_size() == size
    for c, root in zip(app.scene.chains, roots):
        np.testing.assert_allclose(c.anchor, root, atol=1e-9)
    np.testing.assert_allclose([c.fields["target"] for c in app.scene.chains if not c.is_snake], targets, atol=1e-9)
    assert_scene_ok(app.scene)

@pytest.mark.slow
def test_a_squashed_window_scrolls_the_panel_instead_of_cutting_it_off(app):
    resize(app, (320, 240))
    content = app.panel.scroller.scrollable_container.get_relative_rect().height
    assert content > 240  # the rest of the panel is there, below, to scroll to
    assert app.panel.scroller.vert_scroll_bar is not None
    assert app.panel.load_button.get_relative_rect().bottom <= content


@pytest.mark.slow
def test_f2_hides_the_panel_and_gives_its_room_to_the_stage(app):
    tap(app, pygame.K_F2)
    assert not app.panel.visible and app.panel.width == 0
    assert app.scene.stage[0] == app.screen.get_width()
    tap(app, pygame.K_F2)
    assert app.panel.visible and app.scene.stage[0] == app.screen.get_width() - app.panel.width


@pytest.mark.slow
def test_minimised_it_keeps_stepping_without_drawing_and_draws_again_when_restored(app, monkeypatch):
    drawn = []
    real = app.draw
    monkeypatch.setattr(app, "draw", lambda: drawn.append(1) or real())
    post(pygame.WINDOWMINIMIZED)
    before = app.scene.steps
    frames(app, 5)
    assert app.scene.steps == before + 5
    assert drawn == []
    post(pygame.WINDOWRESTORED)
    frames(app, 2)
    assert len(drawn) == 2


# --- mouse ----------------------------------------------------------------------------------
def test_a_drag_released_outside_the_window_ends_when_the_mouse_comes_back_up(app):
    tap(app, pygame.K_SPACE)  # paused: only the input moves things
    chain = app.scene.chains[0]
    start = chain.fields["target"].copy()
    move_mouse(app, start)
    mouse_down(app, start)
    move_mouse(app, (-200, -300), buttons=(1, 0, 0))  # out of the window, button held
    assert tuple(chain.fields["target"]) == (0.0, 0.0)  # clamped to the stage corner
    post(pygame.WINDOWLEAVE)
    # released out there: no MOUSEBUTTONUP; the pointer comes back with the button up
    move_mouse(app, (400, 300), buttons=(0, 0, 0))
    assert app.drag is None
    assert tuple(chain.fields["target"]) == (0.0, 0.0)
    move_mouse(app, (500, 350), buttons=(0, 0, 0))
    assert tuple(chain.fields["target"]) == (0.0, 0.0)


@pytest.mark.slow
def test_losing_focus_ends_a_drag_and_lets_go_of_held_keys(app):
    chain = app.scene.chains[0]
    move_mouse(app, chain.fields["target"])
    mouse_down(app, chain.fields["target"])
    key_down(pygame.K_UP)
    frames(app)
    assert app.drag is not None and "throttle" in app.held
    post(pygame.WINDOWFOCUSLOST)
    frames(app)
    assert app.drag is None and app.held == set()


@pytest.mark.slow
def test_switching_the_solver_while_its_target_is_dragged(app):
    tap(app, pygame.K_SPACE)
    chain = select_solver(app, "ccd")
    p = chain.fields["target"].copy()
    move_mouse(app, p)
    mouse_down(app, p)
    choose(app, app.panel.solver, "FABRIK")
    fabrik = app.scene.selected
    assert fabrik.solver == "fabrik"
    move_mouse(app, p + (30, 20), buttons=(1, 0, 0))
    np.testing.assert_allclose(fabrik.fields["target"], p + (30, 20))
    choose(app, app.panel.solver, "two-bone")
    arm = app.scene.selected
    move_mouse(app, p + (10, 40), buttons=(1, 0, 0))
    np.testing.assert_allclose(arm.fields["target"], p + (10, 40))
    choose(app, app.panel.solver, "snake")  # no target to hold: the drag ends
    move_mouse(app, p + (60, 60), buttons=(1, 0, 0))
    assert app.drag is None
    assert_scene_ok(app.scene)


# --- keys held down ----------------------------------------------------------------------------
@pytest.mark.slow
def test_n_held_down_adds_chains_up_to_the_cap_then_says_so(app, monkeypatch):
    monkeypatch.setattr(commands, "CHAIN_CAP", 12)
    move_mouse(app, (300, 300))
    for _ in range(20):  # the first press and its auto-repeats: no KEYUP in between
        key_down(pygame.K_n, unicode="n")
    frames(app)
    assert len(app.scene.chains) == 12
    assert app.message_is_error and "12" in app.message
    key_up(pygame.K_n, unicode="n")
    frames(app)
    assert_scene_ok(app.scene)


@pytest.mark.slow
def test_n_held_down_spreads_its_chains_instead_of_piling_them_under_the_mouse(app):
    n0 = len(app.scene.chains)
    move_mouse(app, (300, 300))
    hold(app, pygame.K_n, 6, unicode="n")  # a press and five auto-repeats
    roots = [tuple(c.fields["root"]) for c in app.scene.chains[n0:]]
    assert len(roots) == 6
    assert roots[0] == (300.0, 300.0)  # the press: under the mouse
    assert len(set(roots)) == 6  # the repeats: each somewhere else
    tap(app, pygame.K_n, unicode="n")  # a new press: near the mouse, where nothing is yet
    root = app.scene.chains[-1].fields["root"]
    assert tuple(root) not in roots
    assert np.hypot(*(root - (300.0, 300.0))) < 150.0

@pytest.mark.slow
def test_a_held_toggle_key_acts_once_not_on_every_repeat(app):
    for _ in range(7):  # Space pauses when let go (held, a left drag pans instead)
        key_down(pygame.K_SPACE, unicode=" ")
    frames(app)
    assert not app.paused
    key_up(pygame.K_SPACE, unicode=" ")
    frames(app)
    assert app.paused
    for _ in range(4):
        key_down(pygame.K_F1)
    frames(app)
    assert app.show_help


@pytest.mark.slow
def test_backspace_held_on_an_empty_scene_is_harmless(app):
    for _ in range(30):
        key_down(pygame.K_BACKSPACE)
    frames(app)
    assert app.scene.chains == [] and app.scene.selected is None
    assert "nothing to remove" in app.message.lower()
    frames(app, 3)


# --- every slider at both ends ------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_every_slider_at_both_ends_keeps_the_chain_sound(app, solver):
    select_solver(app, solver)
    for spec in SETTINGS:
        if not spec.applies(solver) or spec.kind in ("flag", "choice"):
            continue
        for value in (spec.span[0], spec.span[1], spec.span[0]):
            v = int(value) if spec.kind == "whole" else float(value)
            slide(app, spec.name, v, k=3)
            chain = app.scene.selected
            assert chain.solver == solver
            assert_scene_ok(app.scene)
            assert_on_stage(app)
    tap(app, pygame.K_n, unicode="n", k=2)  # and the scene goes on working
    assert_scene_ok(app.scene)


# --- saving and loading that fail -------------------------------------------------------------
@pytest.mark.slow
def test_a_save_with_a_directory_in_the_way_says_why_and_loses_nothing(app, tmp_path):
    blocked = tmp_path / "taken"
    blocked.mkdir()
    app.scene_path = blocked
    count = len(app.scene.chains)
    ctrl(app, pygame.K_s, "s")
    assert app.message_is_error and "Not saved" in app.message and "taken" in app.message
    assert blocked.is_dir() and list(blocked.iterdir()) == []
    assert len(app.scene.chains) == count
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]  # no temporary file left behind


@pytest.mark.slow
def test_a_save_into_a_missing_folder_says_why(app, tmp_path):
    app.scene_path = tmp_path / "no" / "such" / "folder" / "s.json"
    ctrl(app, pygame.K_s, "s")
    assert app.message_is_error and "Not saved" in app.message
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("text, place", [
    ('{"format": "ikplayground-scene", "version": 1, "chains": [{"solver": "ccd", "root": [1, 2], '
     '"lengths": [10, -5], "angles": [0, 0], "target": [3, 4]}]}', "chains[0].lengths[1]"),
    ('{"format": "ikplayground-scene", "version": 3, "chains": []}', "version"),
    ("[" * 5000, "nested"),
    ('{"format": "ikplayground-scene", "version": 1, "chains": [{"solver": "snake", "points": [[1e400, 0], [1, 1]]}]}',
     "1e400"),
])
@pytest.mark.slow
def test_loading_a_bad_file_shows_the_error_and_keeps_the_scene(app, tmp_path, text, place):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    app.scene_path = bad
    scene = app.scene
    before = [(c.id, c.solver, c.anchor.tolist(), c.fields["lengths"].tolist()) for c in scene.chains]
    ctrl(app, pygame.K_o, "o")
    assert app.scene is scene
    assert [(c.id, c.solver, c.anchor.tolist(), c.fields["lengths"].tolist()) for c in scene.chains] == before
    assert app.message_is_error and app.message.startswith("Not loaded: bad.json: ")
    assert place in app.message


@pytest.mark.slow
def test_the_error_box_draws_a_long_message_whole(app, monkeypatch):
    from ikplayground.app.draw.overlay import Fonts, wrap_text

    boxes = []
    monkeypatch.setattr(chrome, "draw_error", lambda surface, rect, message, fonts: boxes.append((rect, message)))
    app.say("x" * 50 + " " + "a long file error " * 20, error=True)
    frames(app)
    rect, message = boxes[-1]
    assert message == app.message and rect.width == app.stage_rect.width  # over the stage, above the strip
    lines = wrap_text(message, Fonts().body, rect.width - 40)
    assert len(lines) > 1
    assert "".join(lines).replace(" ", "") == message.replace(" ", "")


@pytest.mark.slow
def test_in_a_narrow_window_the_error_box_spans_the_panel_too(app, monkeypatch):
    boxes = []
    monkeypatch.setattr(chrome, "draw_error", lambda surface, rect, message, fonts: boxes.append(rect))
    resize(app, (320, 240))
    app.say("Not loaded: bad.json: chains[0].root[0]: must be a finite number", error=True)
    frames(app)
    assert app.stage_rect.width < chrome.ERROR_MIN_WIDTH
    assert boxes[-1].x == 0 and boxes[-1].width == 320


@pytest.mark.slow
def test_the_panel_add_button_respects_the_cap(app, monkeypatch):
    monkeypatch.setattr(commands, "CHAIN_CAP", 5)
    for _ in range(3):
        press_button(app, app.panel.add_button)
    assert len(app.scene.chains) == 5
    assert math.isfinite(app.step_ms)


@pytest.mark.slow
def test_the_bone_sprite_cache_keeps_to_its_byte_budget(app, monkeypatch):
    from ikplayground.app.draw import render

    monkeypatch.setattr(render, "SPRITE_CACHE_BYTES", 1_000_000)
    r = app.renderer
    for length in range(20, 200, 3):
        for angle in range(0, 360, 7):
            r.bone_sprite(length % 8, float(length), math.radians(angle))
    total = sum(s.get_width() * s.get_height() * 4 for s in r._sprites.values())
    assert total == r._sprite_bytes <= 1_000_000
    assert len(r._sprites) > 5  # it still caches
    newest = next(reversed(r._sprites))
    r.bone_sprite(*newest[:2], math.radians(newest[2]))  # a hit moves nothing out
    assert next(reversed(r._sprites)) == newest


@pytest.mark.slow
def test_panel_rebuilds_do_not_pile_up_in_pygame_gui(app):
    group = app.ui.get_sprite_group()
    resize(app, (880, 700), k=1)
    one_panel = len(group.sprites())  # the widgets of one panel (about 200: a row of the table is 4 to 6)
    for k in range(12):
        resize(app, (900 + 20 * k, 700), k=1)
    assert len(group.lostsprites) < 200  # cleared on every rebuild (each leaves ~90 rects)
    assert len(group.sprites()) == one_panel  # the old panel's widgets are gone


# --- drawing huge chains ---------------------------------------------------------------------
@pytest.mark.slow
def test_a_selected_chain_far_bigger_than_the_window_draws_only_what_shows(app, monkeypatch):
    """64 bones of 200 px reach 12,800 px: the halo under the selection must not be a surface that big."""
    from ikplayground.app.draw import render

    chain = select_solver(app, "ccd")
    slide(app, "bones", 64)
    slide(app, "bone_length", 200)
    chain = app.scene.selected
    assert chain.bones == 64 and np.ptp(chain.fields["points"], axis=0).max() > 2 * max(app.screen.get_size())
    sizes = []
    real_surface = pygame.Surface

    def recording_surface(size, *args, **kwargs):
        sizes.append(tuple(size))
        return real_surface(size, *args, **kwargs)

    monkeypatch.setattr(render.pygame, "Surface", recording_surface)
    screen = pygame.Surface(app.screen.get_size())
    app.renderer.draw_selection(screen, chain)
    monkeypatch.undo()
    w, h = screen.get_size()
    assert sizes and all(sw <= w and sh <= h for sw, sh in sizes), sizes
    # and the halo is still there: under the root, which is on the stage
    root = chain.fields["root"].astype(int)
    assert screen.get_at(tuple(root))[:3] != (0, 0, 0)


def test_visible_box_is_the_part_of_the_view_near_the_points():
    from ikplayground.app.draw.render import visible_box

    view = pygame.Rect(0, 0, 100, 50)
    assert visible_box(np.array([[-1e6, -1e9], [1e6, 1e9]]), 5, view) == view
    assert visible_box(np.array([[-1e6, 10.0], [20.0, 1e6]]), 5, view) == pygame.Rect(0, 5, 25, 45)
    assert visible_box(np.array([[10.0, 10.0], [20.0, 12.0]]), 5, view) == pygame.Rect(5, 5, 20, 12)
    assert visible_box(np.array([[500.0, 10.0]]), 5, view) is None
    assert visible_box(np.array([[10.0, -30.0]]), 5, view) is None
    assert visible_box(np.array([[10.0, 10.0], [np.nan, 5.0]]), 5, view) is None


# --- the stress test and the scene file ------------------------------------------------------
@pytest.mark.slow
def test_a_save_during_the_stress_test_is_refused_and_the_file_kept(app, tmp_path):
    path = tmp_path / "mine.json"
    app.scene_path = path
    count = len(app.scene.chains)
    ctrl(app, pygame.K_s, "s")
    mine = path.read_bytes()
    press_button(app, app.panel.stress_button)
    assert app.stress.count and len(app.scene.chains) == app.stress.count
    ctrl(app, pygame.K_s, "s")
    assert app.message_is_error and "stress test is on" in app.message and "mine.json" in app.message
    assert f'"{app.panel.stress_button.text}"' in app.message  # names the button as it reads now
    app.panel.path_entry.set_text(str(path))
    app.say("")
    press_button(app, app.panel.save_button)
    assert app.message_is_error and "stress test is on" in app.message
    assert path.read_bytes() == mine
    assert [p.name for p in tmp_path.iterdir()] == ["mine.json"]
    press_button(app, app.panel.stress_button)  # your scene back: now it saves
    assert not app.stress.on and len(app.scene.chains) == count
    app.scene.new_chain("ccd")
    ctrl(app, pygame.K_s, "s")
    assert not app.message_is_error and len(json.loads(path.read_text())["chains"]) == count + 1


@pytest.mark.slow
def test_a_load_during_the_stress_test_ends_it_and_keeps_the_file(app, tmp_path):
    path = tmp_path / "mine.json"
    app.scene_path = path
    app.scene.remove_last()
    kept = len(app.scene.chains)
    ctrl(app, pygame.K_s, "s")  # one chain fewer than the default scene in the file
    press_button(app, app.panel.stress_button)
    assert app.stress.on
    ctrl(app, pygame.K_o, "o")
    assert not app.stress.on and not app.panel.stress_on
    assert len(app.scene.chains) == kept
    frames(app, 5)
    assert len(app.scene.chains) == kept  # not driven as a stress scene
    press_button(app, app.panel.stress_button)  # a new stress test ...
    assert app.stress.on
    press_button(app, app.panel.stress_button)  # ... and back to the loaded scene
    assert not app.stress.on and len(app.scene.chains) == kept


@pytest.mark.slow
def test_a_stress_chain_turned_into_a_walker_walks_on_without_a_crash(app):
    press_button(app, app.panel.stress_button)
    assert app.stress.on
    app.apply("solver", "walker")  # the panel's solver menu, on the stress scene's selected chain
    assert app.scene.selected.solver == "walker"
    frames(app, 3)  # the stress test drives the other chains; the walker walks by itself
    assert app.stress.on and app.scene.selected.solver == "walker"


@pytest.mark.slow
def test_the_real_time_loop_never_runs_more_steps_than_the_frame_affords(app, monkeypatch):
    counted, shown = [], []
    real_step = app.scene.step
    monkeypatch.setattr(app.scene, "step", lambda: (counted.append(1), real_step())[1])
    monkeypatch.setattr(chrome, "draw_status", lambda surface, rect, facts, message, fonts: shown.append(facts))
    app.realtime = True  # as a user runs it: wall-clock time accrues (given to advance by hand here)
    app.step_ms, app.render_ms = 12.0, 8.0  # dear steps: one a frame fits
    app.advance(5 * STEP)
    assert len(counted) == 1 and app.given_up == pytest.approx(4 * STEP)
    app.draw()
    assert "slow motion" in shown[-1]
    counted.clear()
    app.step_ms, app.render_ms = 1.0, 4.0  # cheap steps: all that accrued catch up, nothing given up
    given = app.given_up
    app.advance(3 * STEP)
    assert len(counted) == 3 and app.given_up == given


class SlowClock:
    """A clock whose every frame took 200 ms (and whose FPS reads 5)."""

    def tick(self, *cap) -> int:
        return 200

    def get_fps(self) -> float:
        return 5.0


def test_a_new_scene_starts_its_clock_when_it_is_shown_so_its_making_is_not_caught_up(app, monkeypatch):
    app.realtime = True
    app.step_ms, app.render_ms = 1.0, 1.0  # cheap steps: five would be caught up if the clock ran on
    monkeypatch.setattr(app, "clock", SlowClock())  # each frame, and the making of the scene, 200 ms
    app.stress.start(300)
    counted = []
    real_step = app.scene.step
    monkeypatch.setattr(app.scene, "step", lambda: (counted.append(1), real_step())[1])
    given = app.given_up
    app.frame()  # its first frame shows it as made; then one step (its cost measured), not the 200 ms that passed
    assert counted == []
    app.frame()
    assert counted == [1] and app.step_ms > 0.0 and app.given_up == given
    app.frame()  # then the clock runs as ever: 200 ms is five steps' worth (the most a frame catches up)
    assert len(counted) - 1 + round((app.given_up - given) / STEP) == 5


def test_a_fixed_step_run_takes_one_step_a_frame_even_as_a_scene_is_shown(app, monkeypatch):
    assert not app.realtime  # (headless runs and tests: exactly one step a frame, so they are exact)
    app.stress.start(50)
    counted = []
    real_step = app.scene.step
    monkeypatch.setattr(app.scene, "step", lambda: (counted.append(1), real_step())[1])
    app.frame()
    app.frame()
    assert counted == [1, 1]
