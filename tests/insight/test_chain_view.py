"""The "Show the math" overlay geometry of a chain (insight/chain_view.py) on stepped scenes."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from ikplayground.insight.chain_view import (AT_END, GHOST_FADE, LABEL_GAP, SIDE_WORDS, error_line, ghost_pose,
                                             goal_points, limit_arcs, math_overlay, pole_side, pole_view, snake_view)
from ikplayground.insight.primitives import ROLES, Circle, Label, Polygon
from ikplayground.scene.build.build import make_ik_chain, make_snake, straight_snake
from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import forward_kinematics
from ikplayground.solvers import wrap


def direction(v):
    return math.atan2(v[1], v[0])


def gap(a, b):
    return abs(wrap(a - b))


def scene_with(solver, angles, lengths, target, steps=1, **kw):
    scene = Scene((1000.0, 800.0))
    chain = scene.add(make_ik_chain(solver, (500.0, 400.0), angles, lengths, target, **kw))
    for _ in range(steps):
        scene.step()
    return scene, chain


LIMITS = np.array([(-2.5, -0.5), (-0.3, 0.6), (-math.pi, math.pi), (-0.8, 0.2)])  # joint 2 free


@pytest.mark.parametrize("solver", ["ccd", "fabrik", "dls"])
def test_limit_arcs_span_each_range_about_the_parent_bone(solver):
    _, chain = scene_with(solver, [-1.5, 0.1, 0.4, -0.2], [50.0, 40.0, 30.0, 20.0], (560.0, 300.0), steps=4,
                          limits=LIMITS)
    f = chain.fields
    prims = limit_arcs(chain)
    arcs = [p for p in prims if p.role == "limit"]
    needles = [p for p in prims if p.role in ("needle", "needle_hot")]
    assert len(arcs) == len(needles) == 3  # the free joint 2 gets nothing
    absolute = np.cumsum(f["angles"])
    for arc, needle, i in zip(arcs, needles, (0, 1, 3)):
        parent = 0.0 if i == 0 else absolute[i - 1]
        centre = f["points"][i]
        radius = np.hypot(*(arc.points - centre).T)
        assert np.allclose(radius, radius[0]) and 0 < radius[0] <= 22.0
        assert gap(direction(arc.points[0] - centre), parent + LIMITS[i, 0]) < 1e-9
        assert gap(direction(arc.points[-1] - centre), parent + LIMITS[i, 1]) < 1e-9
        np.testing.assert_allclose(needle.points[0], centre)
        # the needle points along bone i: at the shown relative angle from the parent
        assert gap(direction(needle.points[1] - centre), parent + f["angles"][i]) < 1e-9
        assert gap(direction(needle.points[1] - centre), direction(f["points"][i + 1] - centre)) < 1e-9
        lo, hi = LIMITS[i]
        at_end = min(abs(f["angles"][i] - lo), abs(f["angles"][i] - hi)) <= AT_END
        assert needle.role == ("needle_hot" if at_end else "needle")


def test_a_needle_at_an_end_of_its_range_is_hot():
    lim = np.array([(-math.pi, math.pi), (-0.5, 0.5), (-0.5, 0.5)])
    _, chain = scene_with("ccd", [0.0, 0.5, 0.5 - AT_END / 2], [40.0] * 3, (620.0, 400.0), steps=0, limits=lim)
    roles = [p.role for p in limit_arcs(chain) if p.role != "limit"]
    assert roles == ["needle_hot", "needle_hot"]
    _, chain = scene_with("ccd", [0.0, 0.2, -0.5 + 2 * AT_END], [40.0] * 3, (620.0, 400.0), steps=0, limits=lim)
    assert [p.role for p in limit_arcs(chain) if p.role != "limit"] == ["needle", "needle"]
    # a chain that its limits hold short of a target behind it: some joint pinned, and that one is hot
    _, chain = scene_with("ccd", [0.0, 0.0, 0.0], [40.0] * 3, (430.0, 380.0), steps=30, limits=lim, rate_limit=None)
    hot = [p for p in limit_arcs(chain) if p.role == "needle_hot"]
    assert hot


def test_free_chains_get_no_limit_arcs():
    _, chain = scene_with("two-bone", [-1.0, 1.0], [110.0, 90.0], (560.0, 330.0))
    assert limit_arcs(chain) == []
    assert limit_arcs(straight_snake((300.0, 300.0), 0.0)) == []


def test_error_line_from_tip_to_target_with_its_length():
    _, chain = scene_with("fabrik", [-1.5, 0.0, 0.0], [40.0] * 3, (900.0, 100.0), steps=5)  # out of reach
    line, label = error_line(chain)
    f = chain.fields
    assert (line.role, label.role) == ("error", "error")
    np.testing.assert_allclose(line.points, [f["points"][-1], f["target"]])
    assert label.text == f"{chain.error:.1f} px"
    assert chain.error == pytest.approx(math.dist(f["points"][-1], f["target"]))
    mid = (f["points"][-1] + f["target"]) / 2
    assert math.dist(label.pos, mid) == pytest.approx(LABEL_GAP)
    assert label.pos[1] <= mid[1]  # its upper side
    assert abs(np.dot(label.pos - mid, f["target"] - f["points"][-1])) < 1e-9  # beside the middle, square to it


def test_no_error_line_on_the_target():
    _, chain = scene_with("two-bone", [-1.0, 1.0], [110.0, 90.0], (560.0, 330.0), rate_limit=None)
    assert chain.error < 0.05
    assert error_line(chain) == []


def test_ghost_only_while_the_shown_pose_lags_the_goal():
    scene, chain = scene_with("ccd", [-1.5, 0.0, 0.0, 0.0], [40.0] * 4, (380.0, 420.0), steps=1)  # 3 deg/step
    (ghost,) = ghost_pose(chain)
    f = chain.fields
    assert (ghost.role, ghost.fade) == ("ghost", GHOST_FADE)
    np.testing.assert_allclose(ghost.points, forward_kinematics(f["root"], f["goal"], f["lengths"]), atol=1e-9)
    assert np.max(np.abs(wrap_all(f["angles"] - f["goal"]))) > 0.01
    for _ in range(200):  # the rate limit catches up
        scene.step()
    assert ghost_pose(chain) == []
    _, chain = scene_with("ccd", [-1.5, 0.0, 0.0, 0.0], [40.0] * 4, (380.0, 420.0), steps=3, rate_limit=None)
    assert ghost_pose(chain) == []
    # Mix holds the shown pose short of the solver's answer: the ghost is the answer (goal)
    _, chain = scene_with("ccd", [-1.5, 0.0, 0.0, 0.0], [40.0] * 4, (380.0, 420.0), steps=3, rate_limit=None,
                          mix=0.5)
    (ghost,) = ghost_pose(chain)
    np.testing.assert_allclose(ghost.points, goal_points(chain))
    assert math.dist(ghost.points[-1], chain.fields["target"]) < 1.0


def test_the_ghost_of_a_stretched_arm_uses_its_scale():
    _, chain = scene_with("two-bone", [-1.0, 1.0], [110.0, 90.0], (760.0, 400.0), steps=1, stretch=1.5)
    assert chain.fields["scale"][0] == pytest.approx(1.3)
    (ghost,) = ghost_pose(chain)
    assert math.dist(ghost.points[-1], chain.fields["target"]) < 1e-6


def wrap_all(a):
    return (a + np.pi) % (2 * np.pi) - np.pi


def test_pole_side_sign():
    root, target = (100.0, 100.0), (200.0, 100.0)
    assert pole_side(root, target, (150.0, 150.0)) == 1  # below on screen (y down): right of rightward
    assert pole_side(root, target, (150.0, 50.0)) == -1
    assert pole_side(root, target, (300.0, 100.0)) == 0
    assert pole_side(root, root, (300.0, 100.0)) == 0
    assert pole_side((0.0, 0.0), (0.0, -10.0), (5.0, -5.0)) == 1  # facing up, +x is the right


@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls"])
@pytest.mark.parametrize("pole_y", [520.0, 280.0])
def test_pole_view_says_the_side_the_chain_bends_to(solver, pole_y):
    n = 2 if solver == "two-bone" else 4
    lengths = [110.0, 90.0] if n == 2 else [50.0] * 4
    # (a pole turns a joint at most POLE_TURN a solve, so a chain rolls over to its side over some steps: DLS's
    # first solve bends the other way here, and it is over by its 26th step, CCD by its 13th, FABRIK its 15th)
    _, chain = scene_with(solver, [-0.3] + [0.3] * (n - 1), lengths, (640.0, 400.0), steps=30, rate_limit=None,
                          pole=(570.0, pole_y), limits=np.tile([-math.pi, math.pi], (n, 1)))
    line, label = pole_view(chain)
    f = chain.fields
    assert (line.role, label.role) == ("pole", "pole")
    np.testing.assert_allclose(line.points, [(f["root"] + f["target"]) / 2, f["pole"]])
    side = 1 if pole_y > 400 else -1
    assert label.text == SIDE_WORDS[side] == ("bends right" if side == 1 else "bends left")
    # the chain's inner joints lie on that side of the root-target line (y down: +y is right of rightward)
    assert np.all(np.sign(f["points"][1:-1, 1] - 400.0) == side)


def test_pole_view_without_pole_or_on_the_line():
    _, chain = scene_with("ccd", [-1.5, 0.0, 0.0], [40.0] * 3, (560.0, 330.0))
    assert pole_view(chain) == []
    _, chain = scene_with("ccd", [-1.5, 0.0, 0.0], [40.0] * 3, (560.0, 400.0), pole=(700.0, 400.0))
    assert pole_view(chain)[1].text == "on the line: no side"


@pytest.mark.parametrize("limits", [(-math.radians(30), math.radians(30)), (-0.2, 0.6)])
def test_snake_wedges_hold_the_next_segment(limits):
    scene = Scene((1000.0, 800.0))
    snake = scene.add(make_snake(straight_snake((500.0, 400.0), 0.0, nodes=8).fields["points"], bend_limits=limits))
    scene.steer(True, 1)
    for _ in range(40):
        scene.step()
    pts = snake.fields["points"]
    prims = snake_view(snake)
    wedges = [p for p in prims if isinstance(p, Polygon)]
    assert len(wedges) == len(pts) - 2 and all(w.role == "wedge" for w in wedges)
    bends = []
    for k, w in enumerate(wedges, start=1):
        np.testing.assert_allclose(w.points[0], pts[k])
        before = direction(pts[k] - pts[k - 1])
        assert gap(direction(w.points[1] - pts[k]), before + limits[0]) < 1e-9
        assert gap(direction(w.points[-1] - pts[k]), before + limits[1]) < 1e-9
        # the next segment points inside the wedge
        bend = wrap(direction(pts[k + 1] - pts[k]) - before)
        assert limits[0] - 1e-9 <= bend <= limits[1] + 1e-9
        bends.append(bend)
    assert max(map(abs, bends)) > 0.05  # the turn bent it: the test saw a bent body
    (circle,) = [p for p in prims if isinstance(p, Circle)]
    assert (circle.role, circle.radius) == ("follow", 40.0)
    np.testing.assert_allclose(circle.centre, pts[0])
    assert math.dist(pts[0], pts[1]) == pytest.approx(40.0)
    (label,) = [p for p in prims if isinstance(p, Label)]
    assert (label.role, label.text) == ("follow", "40 px")


def test_math_overlay_by_solver():
    _, arm = scene_with("two-bone", [-1.0, 1.0], [110.0, 90.0], (900.0, 100.0), pole=(600.0, 200.0))
    roles = {p.role for p in math_overlay(arm)}
    assert {"reach", "guide", "angle", "error", "pole", "ghost"} <= roles <= set(ROLES)
    _, ccd = scene_with("ccd", [-1.5, 0.0, 0.0], [40.0] * 3, (900.0, 100.0))
    roles = {p.role for p in math_overlay(ccd)}
    assert {"limit", "error"} <= roles and not roles & {"reach", "angle", "wedge"}
    roles = {p.role for p in math_overlay(straight_snake((300.0, 300.0), 0.0))}
    assert roles == {"wedge", "follow"}
    for prim in math_overlay(arm) + math_overlay(ccd):
        for v in prim:
            if isinstance(v, np.ndarray):
                assert np.isfinite(v).all()


@pytest.mark.slow
def test_the_views_import_without_pygame():
    code = ("import sys\n"
            "import ikplayground.insight.chain_view, ikplayground.insight.joint_map\n"
            "print(sorted(m for m in sys.modules if m.startswith('pygame')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("leg_bones", [2, 3])
def test_a_walkers_view_is_each_legs_reach_about_its_hip_and_its_feet(leg_bones):
    from ikplayground.scene.build.walker_build import make_walker

    scene = Scene((1000.0, 800.0))
    walker = scene.add(make_walker((500.0, 400.0), leg_bones=leg_bones))
    for _ in range(40):
        scene.step()
    f = walker.fields
    legs = f["points"].reshape(-1, leg_bones + 1, 2)
    prims = math_overlay(walker)
    reach = [p for p in prims if isinstance(p, Circle) and p.role == "reach"]
    assert len(reach) == len(legs)
    for circle, leg, bones in zip(reach, legs, f["lengths"]):
        assert np.allclose(circle.centre, leg[0]) and circle.radius == pytest.approx(bones.sum())
        assert np.linalg.norm(leg[-1] - leg[0]) <= circle.radius + 1e-6  # the foot is within the reach
    feet = [p for p in prims if isinstance(p, Circle) and p.role in ("step_target", "step") and p.width > 0]
    planted = f["state"] < 0.5
    assert [p.role == "step_target" for p in feet] == planted.tolist() and planted.any()
    assert all(np.allclose(p.centre, foot) for p, foot in zip(feet, f["foot"]))
    (label,) = [p for p in prims if isinstance(p, Label) and p.role == "text"]  # (the velocity label aside)
    assert "reach" in label.text and label.pos[1] < legs[:, 0, 1].min()
