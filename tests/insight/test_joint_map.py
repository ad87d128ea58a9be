"""The two-bone arm's joint-space map (insight/joint_map.py): its branches, frame, shading and picked poses."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.insight.joint_map import (MapFrame, apply_pose, branches, column_angles, limit_box, obstacle_mask,
                                            pose_from_map, row_angles, shade_rows)
from ikplayground.scene.build.build import make_ik_chain
from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import forward_kinematics, solve_two_bone
from ikplayground.solvers import wrap

coords = st.floats(-400, 400, allow_nan=False)
bones = st.floats(5, 300)
angles = st.floats(-math.pi, math.pi)


@settings(max_examples=100, deadline=None)
@given(root=st.tuples(coords, coords), target=st.tuples(coords, coords), l1=bones, l2=bones)
def test_branches_are_the_solvers_answers(root, target, l1, l2):
    up, down = branches(root, target, l1, l2)
    for (t1, t2), bend in ((up, 1), (down, -1)):
        sol = solve_two_bone(root, target, l1, l2, bend)
        assert (t1, t2) == (sol.theta1, sol.theta2)
    assert up[1] >= 0.0 and (down[1] <= 0.0 or down[1] == math.pi)


@settings(max_examples=100, deadline=None)
@given(t1=angles, t2=angles, x=st.floats(-50, 500), y=st.floats(-50, 500), w=st.floats(20, 600),
       h=st.floats(20, 600))
def test_to_map_and_back(t1, t2, x, y, w, h):
    frame = MapFrame(x, y, w, h)
    px, py = frame.to_map(t1, t2)
    assert frame.contains(float(px), float(py))
    back = frame.from_map(px, py)
    assert back[0] == pytest.approx(t1, abs=1e-9) and back[1] == pytest.approx(t2, abs=1e-9)


def test_map_orientation():
    frame = MapFrame(10.0, 20.0, 200.0, 100.0)
    assert frame.to_map(-math.pi, math.pi) == (10.0, 20.0)  # top-left: theta1 -pi, theta2 +pi (up is positive)
    assert frame.to_map(math.pi, -math.pi) == (210.0, 120.0)
    assert frame.to_map(0.0, 0.0) == (110.0, 70.0)
    assert [float(v) for v in frame.from_map(0.0, 500.0)] == [-math.pi, -math.pi]  # off the map: clipped
    t1, t2 = frame.to_map(np.array([0.0, 1.0]), np.array([0.5, -0.5]))  # arrays too
    assert t1.shape == t2.shape == (2,) and t2[0] < t2[1]


def test_limit_box():
    assert limit_box([(-math.pi, math.pi), (-math.pi, math.pi)]) is None
    assert limit_box([(-math.pi, math.pi), (-0.5, 1.0)]) == (-math.pi, math.pi, -0.5, 1.0)
    assert limit_box([(-2.0, 0.0), (-0.5, 1.0)]) == (-2.0, 0.0, -0.5, 1.0)


def test_rows_are_theta2_at_row_centres():
    frame = MapFrame(0.0, 0.0, 100.0, 8.0)
    for i, t2 in enumerate(row_angles(8)):
        assert frame.to_map(0.0, t2)[1] == pytest.approx(i + 0.5)


@settings(max_examples=100, deadline=None)
@given(l1=bones, l2=bones, share=st.floats(0.0, 1.0), rows=st.integers(2, 300))
def test_no_shade_within_reach(l1, l2, share, rows):
    distance = abs(l1 - l2) + share * (l1 + l2 - abs(l1 - l2))
    shade = shade_rows(l1, l2, distance, rows)
    assert shade.shape == (rows,) and not shade.any()


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(l1=bones, l2=bones, out=st.floats(0.5, 400), rows=st.integers(3, 300), inside=st.booleans())
def test_shade_out_of_reach_is_least_at_the_nearest_row(l1, l2, out, rows, inside):
    if inside:
        if abs(l1 - l2) < 1.0:
            return  # no hole to sit in
        distance = abs(l1 - l2) * (1 - min(out, 400) / 401)
    else:
        distance = l1 + l2 + out
    shade = shade_rows(l1, l2, distance, rows)
    assert shade.shape == (rows,)
    assert np.all(shade > 0.0) and np.all(shade <= 1.0) and shade.max() == 1.0
    t2 = row_angles(rows)
    reach = np.hypot(l1 + l2 * np.cos(t2), l2 * np.sin(t2))  # |end - root| by forward kinematics
    nearest = np.abs(reach - distance)
    assert np.argmin(shade) in np.flatnonzero(nearest <= nearest.min() * (1 + 1e-9) + 1e-9)
    # the nearest rows are the straight arm past full reach, the folded one inside the hole
    want = np.min(np.abs(t2)) if not inside else np.max(np.abs(t2))
    assert abs(t2[np.argmin(shade)]) == pytest.approx(want, abs=1e-12)


def arm(scene=None, **kw):
    scene = scene or Scene((1000.0, 800.0))
    kw.setdefault("rate_limit", None)
    chain = scene.add(make_ik_chain("two-bone", (500.0, 400.0), [-1.0, 1.2], [110.0, 90.0], (560.0, 330.0), **kw))
    scene.step()
    return scene, chain


def test_pose_from_map_clamps_into_the_limits():
    _, chain = arm(limits=[(-math.pi, math.pi), (-0.5, 1.0)])
    pose, end = pose_from_map(chain, 0.3, 2.0)
    np.testing.assert_allclose(pose, [0.3, 1.0])
    np.testing.assert_allclose(end, forward_kinematics((500.0, 400.0), [0.3, 1.0], [110.0, 90.0])[-1])
    pose, _ = pose_from_map(chain, math.pi + 0.5, -2.0)  # wrapped, then clamped
    np.testing.assert_allclose(pose, [wrap(math.pi + 0.5), -0.5])


@settings(max_examples=60, deadline=None)
@given(t1=angles, t2=angles)
def test_apply_pose_and_the_step_keeps_it(t1, t2):
    scene, chain = arm()
    note = apply_pose(scene, chain, t1, t2)
    assert note is None
    f = chain.fields
    fk = forward_kinematics(f["root"], [t1, t2], f["lengths"])
    np.testing.assert_allclose(f["target"], fk[-1], atol=1e-9)
    np.testing.assert_allclose(f["points"], fk, atol=1e-9)
    assert chain.mirror == (wrap(t2) < 0) or wrap(t2) == 0.0
    scene.step()
    # the solver's branch for that target is the pose (acos near 0 or pi loses digits: to 1e-6)
    assert abs(wrap(f["angles"][0] - t1)) < 1e-6 and abs(wrap(f["angles"][1] - t2)) < 1e-6
    np.testing.assert_allclose(f["points"], fk, atol=1e-4)
    assert chain.error < 1e-4


def test_apply_pose_sets_the_mirror_by_the_branch():
    scene, chain = arm()
    apply_pose(scene, chain, 0.2, -1.0)
    assert chain.mirror
    apply_pose(scene, chain, 0.2, 1.0)
    assert not chain.mirror
    apply_pose(scene, chain, 0.2, 0.0)  # straight: either branch, left as it was
    assert not chain.mirror


def test_apply_pose_notes_what_may_undo_it():
    scene, chain = arm(auto_bend=True)
    assert "auto bend" in apply_pose(scene, chain, 2.5, -1.0)
    scene, chain = arm(pole=(300.0, 300.0))
    assert "pole" in apply_pose(scene, chain, 0.0, 1.0)
    scene, chain = arm(softness=40.0)
    assert "soft" in apply_pose(scene, chain, 0.0, 0.1)
    assert apply_pose(scene, chain, 0.0, 1.5) is None
    scene = Scene((520.0, 800.0))  # the pose's end at x = 700 lies off this stage
    scene, chain = arm(scene)
    assert "off the stage" in apply_pose(scene, chain, 0.0, 0.0)
    assert chain.fields["target"][0] == 520.0


# --- obstacles on the map: the poses that put a bone inside a circle ------------------------------------------
def point_segment_distance(p, a, b) -> float:
    """The distance from ``p`` to the segment ``a``-``b`` (px), by the clamped projection, one point at a time."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    t = 0.0 if dd == 0.0 else min(max(((px - ax) * dx + (py - ay) * dy) / dd, 0.0), 1.0)
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


circles = st.lists(st.tuples(st.floats(-300, 300), st.floats(-300, 300), st.floats(8, 120)), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(root=st.tuples(st.floats(-100, 100), st.floats(-100, 100)), l1=st.floats(10, 200), l2=st.floats(10, 200),
       obstacles=circles, rows=st.integers(1, 24), cols=st.integers(1, 24))
def test_the_obstacle_mask_is_the_brute_force_check_of_every_cell(root, l1, l2, obstacles, rows, cols):
    mask = obstacle_mask(root, l1, l2, np.array(obstacles), rows, cols)
    assert mask.shape == (rows, cols) and mask.dtype == bool
    for i, t2 in enumerate(row_angles(rows).tolist()):
        for j, t1 in enumerate(column_angles(cols).tolist()):
            points = forward_kinematics(root, [t1, t2], [l1, l2]).tolist()
            gaps = [point_segment_distance((x, y), a, b) - r
                    for a, b in zip(points[:-1], points[1:]) for x, y, r in obstacles]
            if min(abs(g) for g in gaps) > 1e-9:  # (a bone touching a circle to rounding may go either way)
                assert mask[i, j] == (min(gaps) < 0.0), (i, j, t1, t2)


def test_the_mask_s_cells_are_the_map_s_and_a_far_or_no_obstacle_forbids_nothing():
    assert column_angles(4).tolist() == pytest.approx([-0.75 * math.pi, -0.25 * math.pi, 0.25 * math.pi,
                                                       0.75 * math.pi])
    frame = MapFrame(0.0, 0.0, 40.0, 40.0)
    px, py = frame.to_map(column_angles(4), row_angles(4))
    assert px.tolist() == [5.0, 15.0, 25.0, 35.0] and py.tolist() == [5.0, 15.0, 25.0, 35.0]  # the cells' centres
    assert not obstacle_mask((0.0, 0.0), 100.0, 80.0, np.zeros((0, 3)), 16).any()
    assert not obstacle_mask((0.0, 0.0), 100.0, 80.0, np.array([[500.0, 0.0, 300.0]]), 16).any()  # 20 px beyond
    assert obstacle_mask((0.0, 0.0), 100.0, 80.0, np.array([[0.0, 0.0, 10.0]]), 16).all()  # on the root: every pose


def test_a_circle_on_the_upper_bone_s_way_forbids_whole_columns():
    # a circle 60 px to the right of the root, within the upper bone's 100 px: theta1 near 0 is out, whatever theta2
    mask = obstacle_mask((0.0, 0.0), 100.0, 80.0, np.array([[60.0, 0.0, 10.0]]), 36)
    t1 = column_angles(36)
    near = np.abs(t1) < math.asin(10.0 / 60.0) - 0.01
    assert mask[:, near].all()
    assert not mask[:, np.abs(t1) > math.pi / 2].any()  # behind the root, the lower bone cannot reach it either
