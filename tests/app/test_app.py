"""Headless tests of the real App, driven only by posted pygame / pygame_gui events.

Each test builds the App with the default scene (one two-bone, one CCD, one
FABRIK chain and one snake; the two-bone arm selected), posts the events a
person would cause, runs frames, and checks the scene, the panel and the files.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pygame
import pygame_gui
import pytest

from ikplayground import cli
from ikplayground.app import commands
from ikplayground.app.app import App
from ikplayground.scene.core.constants import SOLVER_LABELS, SOLVERS
from ikplayground.solvers import along_path
from tests.app.conftest import (check, choose, click, ctrl, drag, frames, inside, key_down, key_up, mouse_down,
                                mouse_up, move_mouse, post, press_button, rect_centre, select_solver, slide, tap,
                                wrapped)

IK_SOLVERS = ("two-bone", "ccd", "fabrik", "dls")


def chain_of(app, solver):
    return next(c for c in app.scene.chains if c.solver == solver)


def targets(app):
    return {c.id: c.fields["target"].copy() for c in app.scene.chains if not c.is_snake}


def anchors(app):
    return {c.id: c.anchor.copy() for c in app.scene.chains}


def empty_spot(app, clearance=60.0):
    """A stage point at least ``clearance`` px from every joint and target."""
    w, h = app.scene.stage
    pts = np.concatenate([c.fields["points"] for c in app.scene.chains]
                         + [c.fields["target"][None] for c in app.scene.chains if not c.is_snake])
    for x in np.linspace(20, w - 20, 25):
        for y in np.linspace(20, h - 20, 19):
            if np.hypot(*(pts - (x, y)).T).min() >= clearance:
                return np.array((round(x), round(y)), dtype=float)
    raise AssertionError("no empty spot on the stage")


# ==================================================================================
# Mouse: dragging targets and roots, selecting
# ==================================================================================
@pytest.mark.slow
@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_dragging_a_target_moves_it_by_the_drag_and_the_chain_reaches_it(app, solver):
    chain = chain_of(app, solver)
    chain.rate_limit = None
    before = targets(app)
    start = chain.fields["target"] + (3.0, -2.0)  # grab off-centre: the offset must be kept
    delta = np.array((-60.0, 40.0))
    drag(app, start, start + delta)
    assert app.scene.selected is chain
    assert app.drag is None
    np.testing.assert_allclose(chain.fields["target"], before[chain.id] + delta, atol=1e-9)
    for other, t in before.items():  # no other target moved
        if other != chain.id:
            np.testing.assert_array_equal(targets(app)[other], t)
    frames(app, 3)
    assert chain.error <= chain.tolerance + 1e-9
    assert math.dist(chain.fields["points"][-1], chain.fields["target"]) <= chain.tolerance + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_rate_limit_caps_every_joint_change_per_frame_while_dragging(app, solver):
    chain = chain_of(app, solver)
    assert chain.rate_limit is not None
    limit = math.radians(chain.rate_limit)
    start = chain.fields["target"].copy()
    end = chain.fields["root"] + (-150.0, -120.0)  # far round to the other side
    move_mouse(app, start)
    mouse_down(app, start)
    history = [chain.fields["angles"].copy()]
    for t in np.linspace(0, 1, 7)[1:]:
        move_mouse(app, start + (end - start) * t, buttons=(1, 0, 0))
        history.append(chain.fields["angles"].copy())
    mouse_up(app, end)
    history.append(chain.fields["angles"].copy())
    for _ in range(30):
        frames(app)
        history.append(chain.fields["angles"].copy())
    steps = np.abs(wrapped(np.diff(np.array(history), axis=0)))
    assert steps.max() <= limit + 1e-9
    assert steps.max() >= limit * 0.999  # it did move, as fast as allowed
    # with the limit off, the move back happens at once
    chain.rate_limit = None
    before = chain.fields["angles"].copy()
    drag(app, chain.fields["target"], start, steps=1)
    assert np.abs(wrapped(chain.fields["angles"] - before)).max() > limit * 2


@pytest.mark.slow
def test_dragging_a_target_past_the_stage_edge_keeps_it_inside(app):
    chain = chain_of(app, "ccd")
    start = chain.fields["target"].copy()
    w, h = app.scene.stage
    drag(app, start, (w + 250, 5), release=False)  # over the panel
    t = chain.fields["target"]
    assert inside(app.scene.stage, t)
    assert t[0] == pytest.approx(w)
    move_mouse(app, (-40, h + 300), buttons=(1, 0, 0))  # off the window's bottom-left
    t = chain.fields["target"]
    assert inside(app.scene.stage, t)
    assert t[0] == pytest.approx(0.0) and t[1] == pytest.approx(h)
    mouse_up(app, (-40, h + 300))
    frames(app, 5)
    assert inside(app.scene.stage, chain.fields["target"])


@pytest.mark.slow
def test_press_and_drag_on_empty_stage_moves_nothing(app):
    spot = empty_spot(app)
    t0, a0 = targets(app), anchors(app)
    selected = app.scene.selected
    drag(app, spot, spot + (80, 50))
    assert app.drag is None
    for cid, t in targets(app).items():
        np.testing.assert_array_equal(t, t0[cid])
    for cid, a in anchors(app).items():
        np.testing.assert_array_equal(a, a0[cid])
    assert app.scene.selected is selected


@pytest.mark.slow
def test_clicking_a_bone_of_another_chain_selects_it_and_the_panel_shows_it(app):
    chain = chain_of(app, "ccd")
    assert app.scene.selected is not chain
    tap(app, pygame.K_SPACE)  # paused: the bone stays where we click
    pts = chain.fields["points"]
    mid = (pts[3] + pts[4]) / 2
    root, target = chain.fields["root"].copy(), chain.fields["target"].copy()
    click(app, mid)
    assert app.scene.selected is chain
    assert app.panel.chain is chain
    assert app.panel.title.text == f"{SOLVER_LABELS['ccd']} #{chain.number}"
    assert app.panel.solver.selected_option[0] == SOLVER_LABELS["ccd"]
    # a click on a bone selects; it does not move anything
    np.testing.assert_array_equal(chain.fields["root"], root)
    np.testing.assert_array_equal(chain.fields["target"], target)
    # and another click selects the snake
    snake = chain_of(app, "snake")
    click(app, (snake.fields["points"][2] + snake.fields["points"][3]) / 2)
    assert app.scene.selected is snake and app.panel.chain is snake
    assert app.panel.title.text == f"snake #{snake.number}"


@pytest.mark.slow
@pytest.mark.parametrize("solver", ("two-bone", "ccd", "snake"))
def test_dragging_a_root_moves_the_whole_chain(app, solver):
    chain = chain_of(app, solver)
    tap(app, pygame.K_SPACE)  # paused, so only the drag moves it
    points = chain.fields["points"].copy()
    target = None if chain.is_snake else chain.fields["target"].copy()
    grab = chain.anchor.copy()
    delta = np.array((-50.0, -30.0))
    drag(app, grab, grab + delta)
    assert app.scene.selected is chain
    np.testing.assert_allclose(chain.fields["points"], points + delta, atol=1e-9)
    np.testing.assert_allclose(chain.anchor, grab + delta, atol=1e-9)
    if target is not None:
        np.testing.assert_allclose(chain.fields["target"], target + delta, atol=1e-9)


# ==================================================================================
# Keys
# ==================================================================================
@pytest.mark.slow
def test_n_adds_a_chain_at_the_mouse_selected(app):
    n = len(app.scene.chains)
    move_mouse(app, (300, 500))
    tap(app, pygame.K_n, unicode="n")
    assert len(app.scene.chains) == n + 1
    new = app.scene.chains[-1]
    assert new.solver == app.panel.new_solver
    np.testing.assert_allclose(new.anchor, (300, 500))
    assert app.scene.selected is new and app.panel.chain is new
    assert f"#{new.number}" in app.panel.title.text
    frames(app, 5)
    assert np.isfinite(new.fields["points"]).all()


@pytest.mark.slow
@pytest.mark.parametrize("leave", ["panel", "window"])
def test_n_with_the_mouse_off_the_stage_adds_at_a_free_spot(app, leave):
    others = np.concatenate([c.fields["points"] for c in app.scene.chains])
    count = len(app.scene.chains)
    mouse = (1100, 300)
    move_mouse(app, mouse)
    if leave == "window":
        post(pygame.WINDOWLEAVE)
        frames(app)
    tap(app, pygame.K_n, unicode="n")
    new = app.scene.chains[-1]
    assert app.scene.selected is new
    assert len(app.scene.chains) == count + 1
    assert inside(app.scene.stage, new.anchor)
    assert np.hypot(*(others - new.anchor).T).min() > 40.0  # clear of the other chains


@pytest.mark.slow
def test_backspace_removes_the_chain_added_last(app):
    kept = list(app.scene.chains)
    move_mouse(app, (250, 300))
    tap(app, pygame.K_n, unicode="n")
    added = app.scene.chains[-1]
    assert added not in kept
    tap(app, pygame.K_BACKSPACE, unicode="\b")
    assert app.scene.chains == kept
    assert app.scene.selected in kept
    assert app.panel.chain is app.scene.selected
    assert f"#{added.number}" in app.message


@pytest.mark.slow
def test_backspace_on_an_empty_scene_is_harmless(app):
    for _ in range(len(app.scene.chains)):
        tap(app, pygame.K_BACKSPACE, unicode="\b")
    assert app.scene.chains == []
    assert app.scene.selected is None and app.panel.chain is None
    assert app.panel.title.text == "No chain selected"
    for _ in range(3):
        tap(app, pygame.K_BACKSPACE, unicode="\b")
        assert app.running and app.scene.chains == []
        assert "nothing to remove" in app.message.lower()
    frames(app, 3)
    assert app.running


@pytest.mark.slow
def test_delete_removes_the_selected_chain(app):
    chain = select_solver(app, "fabrik")
    others = [c for c in app.scene.chains if c is not chain]
    tap(app, pygame.K_DELETE, unicode="\x7f")
    assert chain not in app.scene.chains
    assert app.scene.chains == others
    assert app.panel.chain is app.scene.selected


@pytest.mark.slow
def test_tab_cycles_the_selection(app):
    chains = list(app.scene.chains)
    start = chains.index(app.scene.selected)
    for k in range(1, 2 * len(chains) + 1):
        tap(app, pygame.K_TAB, unicode="\t")
        expected = chains[(start + k) % len(chains)]
        assert app.scene.selected is expected
        assert app.panel.chain is expected
        assert f"#{expected.number}" in app.panel.title.text


def knee_side(chain):
    root, knee, target = chain.fields["points"][0], chain.fields["points"][1], chain.fields["target"]
    d, k = target - root, knee - root
    return np.sign(d[0] * k[1] - d[1] * k[0])


@pytest.mark.slow
def test_m_flips_the_mirror_of_the_selected_two_bone_chain(app):
    chain = select_solver(app, "two-bone")
    chain.rate_limit = None
    frames(app)
    side = knee_side(chain)
    assert side != 0 and not chain.mirror
    tap(app, pygame.K_m, unicode="m")
    assert chain.mirror
    assert app.panel.mirror.is_checked
    frames(app)
    assert knee_side(chain) == -side  # the knee bends the other way
    tap(app, pygame.K_m, unicode="m", k=2)
    assert not chain.mirror and not app.panel.mirror.is_checked
    assert knee_side(chain) == side


@pytest.mark.slow
def test_m_on_a_chain_that_is_not_two_bone_changes_nothing(app):
    chain = select_solver(app, "ccd")
    bend = chain.fields["bend"].copy()
    tap(app, pygame.K_m, unicode="m")
    np.testing.assert_array_equal(chain.fields["bend"], bend)
    assert not chain_of(app, "two-bone").mirror
    assert "two-bone" in app.message


@pytest.mark.slow
def test_space_pauses_and_resumes(app):
    steps = app.scene.steps
    frames(app, 3)
    assert app.scene.steps == steps + 3
    tap(app, pygame.K_SPACE, unicode=" ")
    paused_at = app.scene.steps
    assert app.paused
    frames(app, 10)
    assert app.scene.steps == paused_at
    tap(app, pygame.K_SPACE, unicode=" ")
    assert not app.paused
    frames(app, 4)
    assert app.scene.steps == paused_at + 5


@pytest.mark.slow
def test_paused_scene_does_not_move(app):
    chain = chain_of(app, "ccd")
    tap(app, pygame.K_SPACE, unicode=" ")
    angles = chain.fields["angles"].copy()
    drag(app, chain.fields["target"], chain.fields["target"] + (-100, 0))
    np.testing.assert_array_equal(chain.fields["angles"], angles)
    tap(app, pygame.K_SPACE, unicode=" ", k=3)
    assert not np.array_equal(chain.fields["angles"], angles)


@pytest.mark.slow
def test_f1_toggles_help_and_esc_closes_help_and_never_quits(app):
    assert not app.show_help
    tap(app, pygame.K_F1)
    assert app.show_help
    tap(app, pygame.K_F1)
    assert not app.show_help
    tap(app, pygame.K_F1)
    assert app.show_help
    tap(app, pygame.K_ESCAPE, unicode="\x1b")
    assert not app.show_help
    assert app.running
    tap(app, pygame.K_ESCAPE, unicode="\x1b")
    assert app.running and "Ctrl+Q" in app.message  # nothing open: Esc says how to quit
    drawn = app.frames
    app.run(max_frames=drawn + 10)
    assert app.frames == drawn + 10  # the loop goes on


@pytest.mark.slow
def test_window_close_stops_the_app_with_nothing_unsaved(app):
    post(pygame.QUIT)
    frames(app)
    assert not app.running


@pytest.mark.slow
def test_up_held_drives_the_snake_forward_up_to_10_px_per_step(app):
    snake = chain_of(app, "snake")
    heading = float(snake.fields["heading"][0])
    forward = np.array((math.cos(heading), math.sin(heading)))
    head = snake.fields["points"][0].copy()
    speeds, moves = [], []
    key_down(pygame.K_UP)
    for _ in range(15):
        last = snake.fields["points"][0].copy()
        frames(app)
        speeds.append(float(snake.fields["speed"][0]))
        moves.append(snake.fields["points"][0] - last)
    np.testing.assert_allclose(speeds, [min(k, 10) for k in range(1, 16)])
    moves = np.array(moves)
    np.testing.assert_allclose(moves @ forward, speeds, atol=1e-9)  # straight ahead
    assert np.hypot(*moves.T).max() <= 10 + 1e-9
    assert (snake.fields["points"][0] - head) @ forward == pytest.approx(sum(speeds))
    # the body follows at its segment length
    np.testing.assert_allclose(np.hypot(*np.diff(snake.fields["points"], axis=0).T), snake.fields["lengths"])
    key_up(pygame.K_UP)
    frames(app)
    assert float(snake.fields["speed"][0]) == pytest.approx(8.0)  # released: x0.8
    frames(app, 30)
    assert float(snake.fields["speed"][0]) < 0.05


@pytest.mark.slow
def test_left_and_right_turn_the_snake_5_degrees_per_step(app):
    snake = chain_of(app, "snake")
    h0 = float(snake.fields["heading"][0])
    key_down(pygame.K_LEFT)
    frames(app, 6)
    assert float(wrapped(snake.fields["heading"][0] - h0)) == pytest.approx(math.radians(-30))
    key_up(pygame.K_LEFT)
    frames(app, 3)
    assert float(wrapped(snake.fields["heading"][0] - h0)) == pytest.approx(math.radians(-30))
    key_down(pygame.K_RIGHT)
    frames(app, 10)
    key_up(pygame.K_RIGHT)
    frames(app, 2)
    assert float(wrapped(snake.fields["heading"][0] - h0)) == pytest.approx(math.radians(20))


@pytest.mark.slow
def test_arrow_keys_steer_only_the_driven_snake(app):
    first = chain_of(app, "snake")
    move_mouse(app, (150, 120))
    choose(app, app.panel.new_chain, SOLVER_LABELS["snake"])
    tap(app, pygame.K_n, unicode="n")
    second = app.scene.chains[-1]
    assert second.is_snake and app.scene.selected is second
    h1, h2 = float(first.fields["heading"][0]), float(second.fields["heading"][0])
    key_down(pygame.K_RIGHT)
    frames(app, 4)
    key_up(pygame.K_RIGHT)
    frames(app)
    assert float(first.fields["heading"][0]) == pytest.approx(h1)
    assert float(wrapped(second.fields["heading"][0] - h2)) == pytest.approx(math.radians(20))


# ==================================================================================
# The panel: every widget changes the selected chain
# ==================================================================================
@pytest.mark.slow
@pytest.mark.parametrize(("old", "new"), [(a, b) for a in SOLVERS for b in SOLVERS if a != b])
def test_solver_dropdown_switches_the_solver_and_keeps_the_chain_anchored(app, old, new):
    chain = select_solver(app, old)
    tap(app, pygame.K_SPACE)  # paused: only the switch can move it
    anchor = chain.anchor.copy()
    count = len(app.scene.chains)
    choose(app, app.panel.solver, SOLVER_LABELS[new])
    now = app.scene.selected
    assert now.solver == new
    assert now in app.scene.chains and len(app.scene.chains) == count
    assert app.panel.chain is now
    assert app.panel.title.text == f"{SOLVER_LABELS[new]} #{now.number}"
    np.testing.assert_allclose(now.anchor, anchor, atol=1e-6)
    if chain.is_ik and now.is_ik:
        np.testing.assert_allclose(now.fields["target"], chain.fields["target"])
    tap(app, pygame.K_SPACE, k=20)  # it runs under its new solver
    assert np.isfinite(now.fields["points"]).all()
    if now.is_ik:
        np.testing.assert_allclose(now.fields["root"], anchor, atol=1e-6)


@pytest.mark.slow
def test_mirror_check_box_sets_the_mirror(app):
    chain = select_solver(app, "two-bone")
    assert app.panel.mirror.is_enabled
    check(app, app.panel.mirror, True)
    assert chain.mirror
    check(app, app.panel.mirror, False)
    assert not chain.mirror


@pytest.mark.slow
def test_mirror_check_box_real_click(app):
    chain = select_solver(app, "two-bone")
    frames(app)
    click(app, rect_centre(app.panel.mirror))
    frames(app)
    assert chain.mirror
    click(app, rect_centre(app.panel.mirror))
    frames(app)
    assert not chain.mirror


@pytest.mark.slow
@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_rate_check_box_and_slider(app, solver):
    chain = select_solver(app, solver)
    rate = app.panel.params["rate"]
    assert app.panel.rate_on.is_checked and rate.slider.is_enabled
    slide(app, "rate", 7.5)
    assert chain.rate_limit == pytest.approx(7.5)
    assert rate.value.text == "7.5 °/step"
    check(app, app.panel.rate_on, False)
    assert chain.rate_limit is None
    assert not rate.slider.is_enabled
    check(app, app.panel.rate_on, True)
    assert chain.rate_limit == pytest.approx(7.5)  # the slider's value comes back
    assert rate.slider.is_enabled
    assert rate.slider.get_current_value() == pytest.approx(7.5)


@pytest.mark.slow
def test_rate_slider_value_is_used_by_the_step(app):
    chain = select_solver(app, "ccd")
    slide(app, "rate", 1.0)
    drag(app, chain.fields["target"], chain.fields["root"] + (-150, -100))
    history = [chain.fields["angles"].copy()]
    for _ in range(10):
        frames(app)
        history.append(chain.fields["angles"].copy())
    steps = np.abs(wrapped(np.diff(history, axis=0)))
    assert steps.max() == pytest.approx(math.radians(1.0))


@pytest.mark.slow
def test_joint_limit_slider(app):
    chain = select_solver(app, "ccd")
    slide(app, "joint_limit", 20)
    assert chain.joint_limit == pytest.approx(20)
    np.testing.assert_allclose(chain.fields["limits"][1:], [[-math.radians(20), math.radians(20)]] * (chain.bones - 1))
    drag(app, chain.fields["target"], chain.fields["root"] + (-200, -50))
    frames(app, 20)
    assert np.abs(chain.fields["angles"][1:]).max() <= math.radians(20) + 1e-9


@pytest.mark.slow
def test_bend_range_slider_on_a_snake(app):
    snake = select_solver(app, "snake")
    slide(app, "bend_range", 50)
    np.testing.assert_allclose(snake.fields["bend_limits"], (-math.radians(50), math.radians(50)))
    assert app.panel.params["bend_range"].value.text == "50 °"


@pytest.mark.slow
@pytest.mark.parametrize("solver", ("ccd", "fabrik", "snake"))
def test_bones_slider(app, solver):
    chain = select_solver(app, solver)
    fixed = chain.fields["points"][0].copy()  # an IK chain's root; a snake's head
    slide(app, "bones", 12)
    now = app.scene.selected
    assert now.bones == 12
    assert now.solver == solver
    assert chain not in app.scene.chains and now in app.scene.chains
    np.testing.assert_allclose(now.fields["points"][0], fixed, atol=1e-6)
    frames(app, 5)
    assert np.isfinite(now.fields["points"]).all()
    slide(app, "bones", 3)
    assert app.scene.selected.bones == 3


@pytest.mark.slow
def test_bones_slider_on_a_two_bone_chain_does_nothing(app):
    chain = select_solver(app, "two-bone")
    assert not app.panel.params["bones"].slider.is_enabled
    slide(app, "bones", 6)
    assert app.scene.selected is chain and chain.bones == 2


@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_bone_length_slider(app, solver):
    chain = select_solver(app, solver)
    before = chain.fields["lengths"].copy()
    slide(app, "bone_length", 60)
    lengths = before * 60 / before.mean()  # every bone scaled alike: the mean is 60 px, the ratios kept
    np.testing.assert_allclose(chain.fields["lengths"], lengths, rtol=1e-12)
    pts = chain.fields["points"]
    if chain.is_path:  # its bones are arcs of its curve: each joint where the library lays it
        f = chain.fields
        np.testing.assert_allclose(pts, along_path(f["control"], lengths, start=float(f["start"][0])), atol=1e-6)
        return
    if chain.is_rig:  # each bone from its parent's end (the root for bone 0) to its own
        starts = pts[chain.fields["parents"].astype(int) + 1]
        np.testing.assert_allclose(np.hypot(*(pts[1:] - starts).T), lengths, atol=1e-6)
        return
    lines = pts.reshape(-1, 3, 2) if chain.is_walker else pts[None]
    np.testing.assert_allclose(np.hypot(*np.diff(lines, axis=1).transpose(2, 0, 1)), lengths.reshape(len(lines), -1),
                               atol=1e-6)


@pytest.mark.slow
def test_iterations_and_tolerance_sliders(app):
    chain = select_solver(app, "fabrik")
    slide(app, "iterations", 25)
    assert chain.iterations == 25
    assert app.panel.params["iterations"].value.text == "25"
    slide(app, "tolerance", 2.0)
    assert chain.tolerance == pytest.approx(2.0)
    assert app.panel.params["tolerance"].value.text == "2.0 px"


@pytest.mark.slow
def test_top_speed_and_turn_rate_sliders(app):
    snake = select_solver(app, "snake")
    slide(app, "max_speed", 15)
    assert float(snake.fields["max_speed"][0]) == pytest.approx(15)
    slide(app, "turn_rate", 10)
    assert float(snake.fields["turn_rate"][0]) == pytest.approx(math.radians(10))
    # and the snake drives with them
    key_down(pygame.K_UP)
    key_down(pygame.K_LEFT)
    h0 = float(snake.fields["heading"][0])
    frames(app, 20)
    key_up(pygame.K_UP)
    key_up(pygame.K_LEFT)
    assert float(snake.fields["speed"][0]) == pytest.approx(15)
    assert float(wrapped(snake.fields["heading"][0] - h0)) == pytest.approx(float(wrapped(math.radians(-200))))


@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_new_chain_selector_then_n(app, solver):
    choose(app, app.panel.new_chain, SOLVER_LABELS[solver])
    assert app.panel.new_solver == solver
    move_mouse(app, (420, 300))
    tap(app, pygame.K_n, unicode="n")
    new = app.scene.chains[-1]
    assert new.solver == solver
    assert app.scene.selected is new
    if new.is_walker:  # over the mouse, standing on the ground
        assert abs(new.fields["body"][0] - 420) < 5
    elif solver != "snake":
        np.testing.assert_allclose(new.fields["root"], (420, 300))
    frames(app, 5)
    assert np.isfinite(new.fields["points"]).all()


@pytest.mark.slow
def test_the_skin_is_the_selected_chain_s_own_and_there_is_no_global_switch(app):
    assert not hasattr(app.renderer, "skin") and "skin" not in commands.BY_NAME
    assert "#sprites" not in [el.object_ids[-1] for el in app.ui.get_sprite_group().sprites()
                              if getattr(el, "object_ids", None)]
    ccd = select_solver(app, "ccd")
    choose(app, app.panel.setting_rows.menus["skin"].menu, "lines")
    assert ccd.skin == "lines"
    assert [c.skin for c in app.scene.chains if c is not ccd and not c.is_snake] == ["sprite"] * 3


@pytest.mark.slow
def test_add_remove_and_help_buttons(app):
    n = len(app.scene.chains)
    press_button(app, app.panel.add_button)
    assert len(app.scene.chains) == n + 1
    added = app.scene.chains[-1]
    assert app.scene.selected is added and added.solver == app.panel.new_solver
    chain = select_solver(app, "fabrik")
    press_button(app, app.panel.remove_button)
    assert chain not in app.scene.chains and added in app.scene.chains
    assert len(app.scene.chains) == n
    press_button(app, app.panel.help_button)
    assert app.show_help
    press_button(app, app.panel.help_button)
    assert not app.show_help


@pytest.mark.slow
def test_real_click_on_the_add_button_adds_a_chain(app):
    n = len(app.scene.chains)
    targets_before = targets(app)
    centre = rect_centre(app.panel.add_button)
    move_mouse(app, centre)
    mouse_down(app, centre)
    mouse_up(app, centre, k=2)
    assert len(app.scene.chains) == n + 1
    assert app.scene.selected is app.scene.chains[-1]
    assert inside(app.scene.stage, app.scene.chains[-1].anchor)  # the mouse was on the panel: a free spot
    for cid, t in targets_before.items():  # the click reached no chain on the stage
        np.testing.assert_array_equal(targets(app)[cid], t)


@pytest.mark.slow
def test_remove_button_is_disabled_without_a_selection(app):
    for _ in range(len(app.scene.chains)):
        tap(app, pygame.K_BACKSPACE)
    assert not app.panel.remove_button.is_enabled
    press_button(app, app.panel.remove_button)
    assert app.running and app.scene.chains == []


@pytest.mark.slow
def test_save_and_load_buttons_use_the_path_field(app, tmp_path):
    path = tmp_path / "b.json"
    app.panel.path_entry.set_text(str(path))
    press_button(app, app.panel.save_button)
    doc = json.loads(path.read_text())
    assert doc["format"] == "ikplayground-scene"
    assert [c["solver"] for c in doc["chains"]] == [c.solver for c in app.scene.chains]
    solvers = [c.solver for c in app.scene.chains]
    move_mouse(app, (300, 300))
    tap(app, pygame.K_n, unicode="n")
    assert len(app.scene.chains) == len(solvers) + 1
    press_button(app, app.panel.load_button)
    assert [c.solver for c in app.scene.chains] == solvers
    assert "b.json" in app.message


JACOBIAN = ("transpose", "pseudo-inverse", "sdls")  # the family beside DLS: its rows but damping
EXPECTED_ENABLED = {
    # widget: solvers where it means something
    "mirror": {"two-bone"},
    "rate_on": {"two-bone", "ccd", "fabrik", "dls", *JACOBIAN, "snake", "walker", "rig"},
    "rate": {"two-bone", "ccd", "fabrik", "dls", *JACOBIAN, "snake", "walker", "rig"},
    "joint_limit": {"ccd", "fabrik", "dls", *JACOBIAN},
    "bend_range": {"snake"},
    "bones": {"ccd", "fabrik", "dls", *JACOBIAN, "snake", "rope", "path"},
    "bone_length": {"two-bone", "ccd", "fabrik", "dls", *JACOBIAN, "snake", "walker", "rig", "rope", "path"},
    "legs": {"walker"},
    "leg_bones": {"walker"},
    "step_threshold": {"walker"},
    "iterations": {"ccd", "fabrik", "dls", *JACOBIAN, "rig"},
    "tolerance": {"ccd", "fabrik", "dls", *JACOBIAN, "rig"},
    "damping": {"dls"},
    "mix": {"two-bone", "ccd", "fabrik", "dls", *JACOBIAN},
    "softness": {"two-bone"},
    "stretch": {"two-bone"},
    "max_speed": {"snake"},
    "turn_rate": {"snake"},
}
OFF_AT_FIRST = {"rate": {"snake", "walker"}}  # shown, but disabled until the flag it needs is on (a new one's: off)


@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_widgets_are_disabled_where_they_mean_nothing(app, solver):
    select_solver(app, solver)
    frames(app)
    panel = app.panel
    for name, solvers in EXPECTED_ENABLED.items():
        widget = getattr(panel, name) if name in ("mirror", "rate_on") else panel.params[name].slider
        assert widget.visible == (solver in solvers), name  # only the solver's own rows are shown
        assert widget.is_enabled == (solver in solvers - OFF_AT_FIRST.get(name, set())), name
    assert panel.solver.is_enabled and panel.remove_button.is_enabled


@pytest.mark.slow
@pytest.mark.parametrize("solver", ("two-bone", "snake"))
def test_events_of_meaningless_widgets_change_nothing(app, solver):
    chain = select_solver(app, solver)
    before = {k: v.copy() for k, v in chain.fields.items()}
    slide(app, "joint_limit", 10)
    if solver == "snake":
        slide(app, "iterations", 3)
        slide(app, "tolerance", 9.0)
        slide(app, "damping", 1.5)
        check(app, app.panel.mirror, True)
        check(app, app.panel.elbow_limit, True)
    else:
        slide(app, "bend_range", 5)
        slide(app, "max_speed", 25)
        slide(app, "turn_rate", 18)
    tap(app, pygame.K_SPACE)
    assert app.scene.selected is chain
    for k, v in before.items():
        if k in ("points", "angles", "error", "reached", "heading", "speed", "solve_us"):
            continue  # these move with the step
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)


@pytest.mark.slow
def test_disabled_panel_with_no_chain(app):
    for _ in range(len(app.scene.chains)):
        tap(app, pygame.K_BACKSPACE)
    for name in ("mirror", "rate_on", "solver"):
        assert not getattr(app.panel, name).is_enabled
    assert not any(p.slider.is_enabled for p in app.panel.params.values())
    for action, value in (("bones", 5), ("bone_length", 50), ("rate", 4.0)):
        slide(app, action, value)
    assert app.running and app.scene.chains == []


# ==================================================================================
# Text entry focus
# ==================================================================================
@pytest.mark.slow
def test_keys_typed_into_the_path_field_do_not_reach_the_scene(app):
    entry = app.panel.path_entry
    app.ui.set_focus_set(entry)
    assert entry.is_focused
    n = len(app.scene.chains)
    selected = app.scene.selected
    for key, char in ((pygame.K_n, "n"), (pygame.K_TAB, "\t"), (pygame.K_m, "m"), (pygame.K_SPACE, " "),
                      (pygame.K_BACKSPACE, "\b"), (pygame.K_DELETE, "\x7f")):
        tap(app, key, unicode=char)
    assert len(app.scene.chains) == n
    assert app.scene.selected is selected
    assert not app.paused
    assert not chain_of(app, "two-bone").mirror
    assert app.running
    # typed text lands in the field
    text = entry.get_text()
    post(pygame.TEXTINPUT, text="x")
    frames(app)
    assert "x" in entry.get_text() and len(entry.get_text()) == len(text) + 1
    # unfocused again, N adds
    app.ui.set_focus_set(None)
    tap(app, pygame.K_n, unicode="n")
    assert len(app.scene.chains) == n + 1


@pytest.mark.slow
def test_enter_in_the_path_field_sets_the_scene_path(app, tmp_path):
    entry = app.panel.path_entry
    path = tmp_path / "typed.json"
    entry.set_text(str(path))
    app.ui.set_focus_set(entry)
    tap(app, pygame.K_RETURN, unicode="\r", k=2)
    assert app.scene_path == path
    assert not app.panel.typing()  # Enter ends typing: keys reach the scene again
    ctrl(app, pygame.K_s, "\x13")
    assert path.exists()


@pytest.mark.slow
@pytest.mark.parametrize("key", ["save", "load"])
def test_ctrl_s_and_ctrl_o_while_typing_a_path_act_on_that_path(app, tmp_path, key):
    path = tmp_path / "typed while focused.json"
    if key == "load":  # a file with one chain fewer than the App shows
        other = tmp_path / "other.json"
        app.apply("save", other)
        path.write_bytes(other.read_bytes())
        app.scene.remove(app.scene.chains[-1])
        app.scene.remove(app.scene.chains[-1])
    n_file = len(app.scene.chains) + 2
    entry = app.panel.path_entry
    entry.set_text("")
    app.ui.set_focus_set(entry)
    post(pygame.TEXTINPUT, text=str(path))
    frames(app)
    ctrl(app, pygame.K_s if key == "save" else pygame.K_o, "\x13" if key == "save" else "\x0f")
    assert app.scene_path == path
    assert not app.panel.typing()
    if key == "save":
        assert path.exists() and path.name in app.message
    else:
        assert len(app.scene.chains) == n_file


# ==================================================================================
# Files
# ==================================================================================
@pytest.mark.slow
def test_ctrl_s_saves_and_ctrl_o_restores(app, scene_file):
    ctrl(app, pygame.K_s, "\x13")
    doc = json.loads(scene_file.read_text())
    assert doc["format"] == "ikplayground-scene"
    assert len(doc["chains"]) == len(app.scene.chains)
    saved = [(c.solver, c.bones, c.anchor.copy()) for c in app.scene.chains]
    saved_targets = [c.fields["target"].copy() for c in app.scene.chains if not c.is_snake]
    assert scene_file.name in app.message
    # change the scene: add, remove, move a target
    move_mouse(app, (300, 250))
    tap(app, pygame.K_n, unicode="n")
    chain = chain_of(app, "ccd")
    drag(app, chain.fields["target"], chain.fields["target"] + (-100, -100))
    select_solver(app, "fabrik")
    tap(app, pygame.K_DELETE)
    assert len(app.scene.chains) == len(saved)
    old_scene = app.scene
    ctrl(app, pygame.K_o, "\x0f")
    assert app.scene is not old_scene
    assert [(c.solver, c.bones) for c in app.scene.chains] == [(k, b) for k, b, _ in saved]
    for c, (_, _, anchor) in zip(app.scene.chains, saved):
        np.testing.assert_allclose(c.anchor, anchor, atol=1e-2)
    now_targets = [c.fields["target"] for c in app.scene.chains if not c.is_snake]
    np.testing.assert_allclose(now_targets, saved_targets, atol=1e-2)
    assert app.panel.chain is app.scene.selected
    assert app.drag is None
    # the loaded scene runs and can be dragged
    chain = chain_of(app, "ccd")
    t = chain.fields["target"].copy()
    drag(app, t, t + (20, 10))
    np.testing.assert_allclose(chain.fields["target"], t + (20, 10), atol=1e-9)


@pytest.mark.slow
def test_ctrl_o_of_a_broken_file_leaves_the_scene_untouched(app, scene_file):
    scene_file.write_text('{"format": "ikplayground-scene", "version": 1, "chains": [')
    scene = app.scene
    chains = list(scene.chains)
    ctrl(app, pygame.K_o, "\x0f")
    assert app.scene is scene and app.scene.chains == chains
    assert scene_file.name in app.message
    assert app.running


@pytest.mark.slow
def test_ctrl_o_of_a_missing_file_says_so(app, scene_file):
    scene = app.scene
    ctrl(app, pygame.K_o, "\x0f")
    assert app.scene is scene
    assert scene_file.name in app.message


@pytest.mark.slow
def test_ctrl_s_into_a_missing_folder_reports_and_keeps_running(app, tmp_path):
    path = tmp_path / "no" / "such" / "dir" / "x.json"
    app.panel.path_entry.set_text(str(path))
    press_button(app, app.panel.save_button)
    assert not path.exists()
    assert "x.json" in app.message
    assert app.running


@pytest.mark.slow
def test_plain_s_and_o_do_nothing(app, scene_file):
    scene = app.scene
    tap(app, pygame.K_s, unicode="s")
    tap(app, pygame.K_o, unicode="o")
    assert not scene_file.exists()
    assert app.scene is scene


# ==================================================================================
# Window
# ==================================================================================
@pytest.mark.slow
def test_resize_shrinks_the_stage_and_keeps_everything_inside(app):
    ccd = chain_of(app, "ccd")
    drag(app, ccd.fields["target"], (950, 100))
    post(pygame.VIDEORESIZE, size=(800, 600), w=800, h=600)
    frames(app)
    assert app.scene.stage == (800 - 300, 600 - 26)
    assert app.screen.get_size() == (800, 600)
    assert app.panel.rect.left == 500
    for _ in range(2):
        for c in app.scene.chains:  # IK roots and targets, snake heads
            assert inside(app.scene.stage, c.fields["points"][0])
            if not c.is_snake:
                assert inside(app.scene.stage, c.fields["target"])
        frames(app, 10)
    # the rebuilt panel still works
    n = len(app.scene.chains)
    press_button(app, app.panel.add_button)
    assert len(app.scene.chains) == n + 1
    assert inside(app.scene.stage, app.scene.chains[-1].anchor)


@pytest.mark.slow
def test_resize_below_the_minimum_is_clamped(app):
    post(pygame.VIDEORESIZE, size=(100, 100), w=100, h=100)
    frames(app, 2)
    w, h = app.screen.get_size()
    assert w >= 320 and h >= 240
    assert 0 < app.panel.width < 300  # the panel narrows in a small window
    assert app.scene.stage == (w - app.panel.width, h - 26)
    for c in app.scene.chains:  # IK roots and targets, snake heads
        assert inside(app.scene.stage, c.fields["points"][0])
        if not c.is_snake:
            assert inside(app.scene.stage, c.fields["target"])


# ==================================================================================
# Command line
# ==================================================================================
@pytest.mark.slow
def test_cli_headless_run_writes_a_screenshot(tmp_path):
    shot = tmp_path / "x.png"
    missing = tmp_path / "none.json"
    assert cli.main(["--headless", "--frames", "30", "--screenshot", str(shot), "--scene", str(missing)]) == 0
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 720)
    assert not missing.exists()


@pytest.mark.slow
def test_cli_loads_a_scene_file(tmp_path, scene_file):
    app = App(size=(1280, 720), realtime=False, scene_path=scene_file)
    try:
        select_solver(app, "snake")
        tap(app, pygame.K_DELETE)
        ctrl(app, pygame.K_s, "\x13")
    finally:
        app.close()
    shot = tmp_path / "y.png"
    assert cli.main(["--headless", "--frames", "5", "--size", "800x600", "--screenshot", str(shot),
                     "--scene", str(scene_file)]) == 0
    assert pygame.image.load(str(shot)).get_size() == (800, 600)


def test_cli_bad_scene_file_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    assert cli.main(["--headless", "--frames", "5", "--scene", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1
    assert "bad.json" in err
    assert out == ""


@pytest.mark.slow
def test_bones_slider_shows_the_rebuilt_chain_in_the_panel(app):
    select_solver(app, "ccd")
    slide(app, "bones", 9)
    now = app.scene.selected
    assert now.bones == 9
    assert app.panel.chain is now
    assert app.panel.title.text == f"CCD #{now.number}"


@pytest.mark.slow
def test_two_selection_changes_in_one_frame_leave_the_rate_limit_alone(app):
    select_solver(app, "dls")
    for _ in range(2):  # dls -> snake -> two-bone, both before the next frame
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=pygame.KMOD_NONE,
                                             unicode="\t", scancode=0))
    frames(app, 1)
    chain = app.scene.selected
    assert chain.solver == "two-bone"
    limits = []
    for _ in range(5):
        frames(app, 1)
        limits.append(chain.rate_limit)
    assert all(v is not None and abs(v - 3.0) < 1e-9 for v in limits)
    assert pygame.event.peek(pygame_gui.UI_CHECK_BOX_CHECKED) is False
    assert pygame.event.peek(pygame_gui.UI_CHECK_BOX_UNCHECKED) is False


@pytest.mark.slow
def test_clicking_a_check_box_label_ticks_it_like_the_box(app):
    """pygame_gui reacts only to the 18 px box; a user clicks the words next to it."""
    arm = select_solver(app, "two-bone")
    label = app.panel.mirror.text_label.rect
    assert not label.colliderect(app.panel.mirror.rect)
    click(app, label.center)
    frames(app)
    assert arm.mirror and app.panel.mirror.is_checked
    click(app, label.center)
    frames(app)
    assert not arm.mirror and not app.panel.mirror.is_checked
    ccd = select_solver(app, "ccd")
    click(app, app.panel.show_limits.text_label.rect.center)
    frames(app)
    assert ccd.show_limits and app.panel.show_limits.is_checked
    # a disabled box's label does nothing: mirror is for two-bone only
    select_solver(app, "ccd")
    click(app, label.center)
    frames(app)
    assert not app.panel.mirror.is_checked and not arm.mirror


@pytest.mark.slow
def test_a_label_click_on_a_hidden_panel_does_nothing(app):
    arm = select_solver(app, "two-bone")
    label = app.panel.mirror.text_label.rect.center
    tap(app, pygame.K_F2)
    assert not app.panel.visible
    click(app, label)
    frames(app)
    assert not arm.mirror


@pytest.mark.slow
def test_a_closed_app_leaves_nothing_of_its_ui_alive(scene_file):
    """A process that makes many Apps (this test suite) kept every closed App's panel and UI manager, about 30 MB
    each, through pygame_gui events cleared or left in SDL's queue: pygame-ce keeps such an event's dict."""
    import gc
    import weakref

    from tests.app.conftest import SIZE, started

    app = started(App(size=SIZE, realtime=False, scene_path=scene_file))
    pygame.event.post(pygame.event.Event(pygame.USEREVENT + 7, {"held": app.panel}))  # still queued at close
    ui = weakref.ref(app.ui)
    app.close()
    del app
    gc.collect()
    assert ui() is None
