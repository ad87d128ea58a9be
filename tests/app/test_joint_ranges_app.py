"""Each joint's own range in the real App, driven by posted events: a chain's wedge edges dragged (with Show limits
on; a free joint's one knob at its seam), a two-bone arm's elbow limit; the status line names the joint and its
range; undo, a save and a load, and a mirror flip keep them exactly."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.app.draw.render import WEDGE_RADIUS
from ikplayground.scene import load_scene

from .conftest import check, ctrl, drag, frames, select_solver, tap


def knob(chain, joint: int, side: int) -> np.ndarray:
    """Where the knob on edge ``side`` (0: lo, 1: hi) of ``joint``'s wedge is drawn (home view: world = screen)."""
    f = chain.fields
    base = float(np.sum(f["angles"][:joint]))  # the bone before it's direction (0 for joint 0)
    a = base + float(f["limits"][joint, side])
    return f["points"][joint] + WEDGE_RADIUS * np.array([math.cos(a), math.sin(a)])


def paused_with(app, solver: str):
    """The default scene paused (Space), its chain of ``solver`` selected."""
    tap(app, pygame.K_SPACE)
    return select_solver(app, solver)


def test_dragging_a_chains_wedge_edge_sets_that_joints_bound_alone_and_undo_redo_restore_it(app):
    chain = paused_with(app, "ccd")
    check(app, app.panel.show_limits, True)
    f = chain.fields
    before = f["limits"].copy()
    joint = 3
    base = float(np.sum(f["angles"][:joint]))
    drag(app, knob(chain, joint, 1), f["points"][joint] + WEDGE_RADIUS * np.array([math.cos(base + 1.2),
                                                                                   math.sin(base + 1.2)]))
    assert f["limits"][joint, 1] == pytest.approx(1.2, abs=0.03)
    assert f["limits"][joint, 0] == before[joint, 0]
    np.testing.assert_array_equal(np.delete(f["limits"], joint, axis=0), np.delete(before, joint, axis=0))
    hi = round(math.degrees(f["limits"][joint, 1]))
    assert app.message == f"{chain.label}, joint {joint}: -45° to {hi}°"  # the status line names it
    after = f["limits"].copy()
    ctrl(app, pygame.K_z, "z")
    np.testing.assert_array_equal(f["limits"], before)
    assert app.message == f"Undid: joint {joint}'s range on {chain.label}"
    ctrl(app, pygame.K_y, "y")
    np.testing.assert_array_equal(f["limits"], after)


def test_without_show_limits_a_press_on_a_knobs_spot_leaves_the_ranges_alone(app):
    chain = paused_with(app, "fabrik")
    before = chain.fields["limits"].copy()
    spot = knob(chain, 2, 0)
    drag(app, spot, spot + (0.0, 25.0))
    np.testing.assert_array_equal(chain.fields["limits"], before)


def test_a_free_joints_one_knob_drags_a_range_out_of_it(app):
    chain = paused_with(app, "ccd")
    check(app, app.panel.show_limits, True)
    f = chain.fields
    assert f["limits"][0].tolist() == [-math.pi, math.pi]  # joint 0 turns freely: no wedge, one knob at its seam
    seam = f["points"][0] + WEDGE_RADIUS * np.array([-1.0, 0.0])  # pointing back along +x, joint 0's zero
    drag(app, seam, f["points"][0] + WEDGE_RADIUS * np.array([math.cos(-0.5), math.sin(-0.5)]))
    assert f["limits"][0, 0] == -math.pi and f["limits"][0, 1] == pytest.approx(-0.5, abs=0.04)
    assert app.message == f"{chain.label}, joint 0: -180° to {round(math.degrees(f['limits'][0, 1]))}°"
    frames(app, 3)
    assert f["angles"][0] <= f["limits"][0, 1] + 1e-12  # the solver keeps the new range


def test_asymmetric_ranges_are_saved_loaded_and_mirrored_exactly_by_a_flip(app, scene_file):
    chain = paused_with(app, "ccd")
    check(app, app.panel.show_limits, True)
    f = chain.fields
    for joint, side, to in ((1, 0, 0.0), (2, 1, -0.3), (5, 1, 2.9)):  # bounds turned to these (rad), one by one
        base = float(np.sum(f["angles"][:joint]))
        drag(app, knob(chain, joint, side), f["points"][joint] + 3 * WEDGE_RADIUS * np.array([math.cos(base + to),
                                                                                           math.sin(base + to)]))
        assert f["limits"][joint, side] == pytest.approx(to, abs=0.02)
    ranges = f["limits"].copy()
    assert not np.array_equal(ranges[1:], -ranges[1:, ::-1])  # asymmetric
    ctrl(app, pygame.K_s, "s")
    loaded = load_scene(scene_file).chains[app.scene.chains.index(chain)]
    np.testing.assert_allclose(loaded.fields["limits"], ranges, atol=1e-6)  # 4 decimals of a degree
    tap(app, pygame.K_h, unicode="h")  # the mirror flip
    np.testing.assert_array_equal(f["limits"][1:], -ranges[1:, ::-1])  # (lo, hi) -> (-hi, -lo)
    tap(app, pygame.K_h, unicode="h")
    np.testing.assert_array_equal(f["limits"], ranges)


def test_a_two_bone_arms_elbow_limit_keeps_its_knee_bending_one_way_and_shows_a_wedge(app):
    arm = select_solver(app, "two-bone")
    f = arm.fields
    check(app, app.panel.elbow_limit, True)
    lo, hi = f["limits"][1].tolist()
    assert (lo, hi) == (0.0, pytest.approx(math.radians(150.0)))  # a knee on the arm's bend side
    assert app.message == f"{arm.label}, elbow: 0° to 150°"
    app.scene.set_setting(arm, "rate_on", False)
    app.scene.set_setting(arm, "mirror", True)  # asks for the other bend: the knee's range wins
    reach = float(f["lengths"].sum())
    for k in range(40):  # the target round the root: every answer's elbow stays in the range
        a = 2 * math.pi * k / 40
        f["target"][:] = f["root"] + 0.7 * reach * np.array([math.cos(a), math.sin(a)])
        frames(app)
        assert lo <= f["angles"][1] <= hi
        assert arm.error <= 1e-6  # the other bend reaches what the asked-for one would
    knee = knob(arm, 1, 1)  # the selected arm's wedge, a knob on each edge
    assert app.screen.get_at((round(knee[0]), round(knee[1])))[:3] != app.screen.get_at((0, 0))[:3]
    check(app, app.panel.elbow_limit, False)
    assert f["limits"][1].tolist() == [-math.pi, math.pi]
