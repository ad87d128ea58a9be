"""solve_two_bone's elbow limit: a knee's range on theta2, the other bend where it fits, else the elbow clamped
and the end as near the target as that elbow allows; the batch row by row; the mirror; bad ranges refused."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ikplayground.solvers import solve_two_bone, two_bone_arrays

from .solver_cases import PI, angle_gap, bone_lengths, coordinate_scale, points2
from .test_two_bone import edge_angle_tolerance, edge_position_tolerance

FAST = settings(deadline=None, max_examples=200)
bends = st.sampled_from([1, -1])


@st.composite
def ranges(draw):
    """An elbow range ``(lo, hi)`` rad: one-sided like a knee, two-sided, a single angle, or the whole circle."""
    kind = draw(st.sampled_from(["knee", "other knee", "any", "point", "free"]))
    if kind == "free":
        return (-PI, PI)
    if kind == "point":
        a = draw(st.floats(-PI, PI))
        return (a, a)
    lo, hi = sorted(draw(st.tuples(st.floats(-PI, PI), st.floats(-PI, PI))))
    if kind == "knee":
        return (max(lo, 0.0), max(hi, 0.0))
    if kind == "other knee":
        return (min(lo, 0.0), min(hi, 0.0))
    return (lo, hi)


def inside(a: float, lo: float, hi: float, slack: float = 1e-12) -> bool:
    return lo - slack <= a <= hi + slack or (abs(a) >= PI - slack and (lo <= -PI + slack or hi >= PI - slack))


def end_of(root, theta1, theta2, l1, l2) -> np.ndarray:
    knee = np.asarray(root, float) + l1 * np.array([math.cos(theta1), math.sin(theta1)])
    return knee + l2 * np.array([math.cos(theta1 + theta2), math.sin(theta1 + theta2)])


def reach_with(c, l1, l2) -> np.ndarray:
    """How far from the root the end lies with the elbow at ``c`` rad (any shape), px."""
    return np.sqrt(np.maximum(l1 * l1 + l2 * l2 + 2 * l1 * l2 * np.cos(c), 0.0))


@FAST
@given(points2, points2, bone_lengths, bone_lengths, bends, ranges())
def test_the_elbow_stays_in_its_range_and_the_pose_is_consistent(root, target, l1, l2, bend, limit):
    sol = solve_two_bone(root, target, l1, l2, bend, elbow_limit=limit)
    tol = 1e-9 * coordinate_scale(root, target, l1 + l2)
    assert inside(sol.theta2, *limit)
    assert -PI < sol.theta1 <= PI and -PI < sol.theta2 <= PI
    np.testing.assert_allclose(sol.knee, np.asarray(root) + l1 * np.array([math.cos(sol.theta1),
                                                                            math.sin(sol.theta1)]), atol=tol)
    np.testing.assert_allclose(sol.end, end_of(root, sol.theta1, sol.theta2, l1, l2), atol=tol)


@FAST
@given(points2, points2, bone_lengths, bone_lengths, bends, ranges())
def test_the_three_cases_exact_other_bend_and_clamped(root, target, l1, l2, bend, limit):
    free = solve_two_bone(root, target, l1, l2, bend, elbow_limit=(-PI, PI))  # free, by the limited call's path
    sol = solve_two_bone(root, target, l1, l2, bend, elbow_limit=limit)
    lo, hi = limit
    assume(min(abs(free.theta2 - lo), abs(free.theta2 - hi), abs(-free.theta2 - lo), abs(-free.theta2 - hi)) > 1e-9)
    tol = 1e-9 * coordinate_scale(root, target, l1 + l2)
    if inside(free.theta2, lo, hi, 0.0):  # the exact answer, bit for bit
        for got, want in zip(sol, free, strict=True):
            np.testing.assert_array_equal(got, want)
    elif inside(-free.theta2, lo, hi, 0.0):  # the other bend: the same end, the same reach
        other = solve_two_bone(root, target, l1, l2, -bend, elbow_limit=(-PI, PI))
        dist = math.hypot(*(np.asarray(target, float) - np.asarray(root, float)))
        atol = 1e-9
        if not abs(l1 - l2) + 1e-6 * (l1 + l2) < dist < (1 - 1e-6) * (l1 + l2):  # an edge: acos is ill-conditioned
            tol += edge_position_tolerance(root, target, l1, l2)
            atol += edge_angle_tolerance(l1, l2)
        np.testing.assert_allclose(sol.end, other.end, atol=tol)
        np.testing.assert_allclose(sol.knee, other.knee, atol=tol)
        assert angle_gap(sol.theta2, other.theta2) <= atol and sol.reached == free.reached
    else:  # clamped to a bound, the end on the ray toward the target, as near as any elbow in range gets
        assert sol.theta2 in (lo, hi) or (abs(sol.theta2) == PI and PI in (abs(lo), abs(hi)))
        assert not sol.reached
        d = np.asarray(target, float) - np.asarray(root, float)
        dist = float(np.hypot(*d))
        out = np.asarray(sol.end) - np.asarray(root, float)
        if dist > 0:
            assert abs(d[0] * out[1] - d[1] * out[0]) <= tol * max(dist, 1.0) and float(d @ out) >= -tol
        miss = float(np.hypot(*(np.asarray(sol.end) - np.asarray(target))))
        best = np.abs(dist - reach_with(np.linspace(lo, hi, 2001), l1, l2)).min()
        assert miss <= best + tol


@pytest.mark.parametrize("limit", [(-PI, PI), (-2 * PI / 3, PI), (-PI, 0.0)])
def test_a_range_holding_every_answer_changes_nothing_bit_for_bit(limit):
    rng = np.random.default_rng(5)
    roots = rng.uniform(-300, 300, (64, 2))
    targets = rng.uniform(-300, 300, (64, 2))
    l1, l2 = rng.uniform(20, 200, 64), rng.uniform(20, 200, 64)
    bend = np.where(rng.random(64) < 0.5, 1.0, -1.0)
    if limit[1] <= 0.0:
        bend[:] = -1.0  # every elbow on the range's side
    elif limit[0] > -PI:
        bend[:] = 1.0
    free = two_bone_arrays(roots, targets, l1, l2, bend)
    limited = two_bone_arrays(roots, targets, l1, l2, bend, elbow_limit=np.broadcast_to(limit, (64, 2)))
    for got, want in zip(limited, free, strict=True):
        np.testing.assert_array_equal(got, want)


def test_a_knee_takes_the_other_bend_and_a_narrow_range_clamps():
    # a 150 px reach of two 100 px bones: the elbow is +-1.4455 rad
    plus = solve_two_bone((0.0, 0.0), (150.0, 0.0), 100.0, 100.0, 1)
    knee = solve_two_bone((0.0, 0.0), (150.0, 0.0), 100.0, 100.0, -1, elbow_limit=(0.0, 2.6))
    assert knee.reached and knee.theta2 == pytest.approx(plus.theta2) and knee.knee == pytest.approx(plus.knee)
    narrow = solve_two_bone((0.0, 0.0), (150.0, 0.0), 100.0, 100.0, -1, elbow_limit=(0.3, 0.5))
    assert narrow.theta2 == 0.5 and not narrow.reached  # bent less than it should: the end overshoots
    assert narrow.end == pytest.approx((float(reach_with(0.5, 100.0, 100.0)), 0.0))
    folded = solve_two_bone((0.0, 0.0), (150.0, 0.0), 100.0, 100.0, 1, elbow_limit=(2.0, 2.5))
    assert folded.theta2 == 2.0 and folded.end == pytest.approx((float(reach_with(2.0, 100.0, 100.0)), 0.0))
    straight = solve_two_bone((0.0, 0.0), (400.0, 0.0), 100.0, 100.0, 1, elbow_limit=(0.2, 2.5))
    assert straight.theta2 == 0.2 and straight.end[1] == pytest.approx(0.0, abs=1e-12)  # as straight as it may


@settings(deadline=None, max_examples=100)
@given(st.lists(st.tuples(points2, points2, bone_lengths, bone_lengths, bends, ranges()), min_size=1, max_size=8),
       st.booleans())
def test_a_batch_equals_row_by_row_calls(rows, stretched):
    roots, targets, l1, l2, bend, limits = (np.array(col, dtype=float) for col in zip(*rows))
    options = dict(stretch=1.5, softness=10.0) if stretched else {}
    sol = solve_two_bone(roots, targets, l1, l2, bend, elbow_limit=limits, **options)
    for i in range(len(rows)):
        one = solve_two_bone(tuple(roots[i]), tuple(targets[i]), float(l1[i]), float(l2[i]), int(bend[i]),
                             elbow_limit=tuple(limits[i]), **options)
        tol = 1e-9 * coordinate_scale(roots[i], targets[i], 1.5 * (l1[i] + l2[i]))
        np.testing.assert_allclose(sol.end[i], one.end, rtol=0, atol=tol)
        np.testing.assert_allclose(sol.knee[i], one.knee, rtol=0, atol=tol)
        assert angle_gap(sol.theta2[i], one.theta2) <= 1e-12 and bool(sol.reached[i]) == bool(one.reached)
    # the scene's entry point gives the same arrays
    for got, want in zip(two_bone_arrays(roots, targets, l1, l2, bend, elbow_limit=limits, **options), sol,
                         strict=True):
        np.testing.assert_array_equal(got, want)


@FAST
@given(points2, points2, bone_lengths, bone_lengths, bends, ranges())
def test_the_mirrored_problem_gives_the_mirrored_answer(root, target, l1, l2, bend, limit):
    assume(math.dist(root, target) > 1e-6)  # a target on the root is an exact tie (docs/design.md, "Mirror flip")
    sol = solve_two_bone(root, target, l1, l2, bend, elbow_limit=limit)
    flip = np.array([-1.0, 1.0])
    image = solve_two_bone(np.asarray(root) * flip, np.asarray(target) * flip, l1, l2, -bend,
                           elbow_limit=(-limit[1], -limit[0]))
    tol = 1e-9 * coordinate_scale(root, target, l1 + l2)
    np.testing.assert_allclose(image.end, sol.end * flip, atol=tol)
    np.testing.assert_allclose(image.knee, sol.knee * flip, atol=tol)
    assert angle_gap(image.theta2, -sol.theta2) <= 1e-9 and image.reached == sol.reached


@pytest.mark.parametrize("limit", [(1.0, 0.5), (-4.0, 0.0), (0.0, 3.2), (0.0, math.nan), (0.0,), [[0, 1, 2]],
                                   "knee", (0.0, math.inf)])
@pytest.mark.parametrize("batched", [False, True])
def test_bad_elbow_limits_are_refused_naming_it(limit, batched):
    root = np.zeros((2, 2)) if batched else (0.0, 0.0)
    with pytest.raises((ValueError, TypeError), match="elbow_limit"):
        solve_two_bone(root, (150.0, 0.0), 100.0, 100.0, elbow_limit=limit)
