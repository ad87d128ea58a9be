"""solve_two_bone's pole: the knee bends to the pole's side of the root-target line.

Sides are read off the geometry (the sign of a cross product of the returned
positions, y down), never from the solver's bend formula.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ikplayground.solvers import solve_two_bone

from .solver_cases import PI, bone_lengths, points2
from .test_two_bone import polar, scale_of

FAST = settings(deadline=None, max_examples=200)
bends = st.sampled_from([1, -1])
NAN = math.nan


def assert_same(a, b):
    """Two solutions equal field by field, exactly."""
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def side(root, target, p) -> float:
    """Which side of the line from ``root`` through ``target`` the point ``p`` lies on,
    as a signed distance in px (the sign of the cross product (target - root) x (p - root));
    0 for a target on the root (no line)."""
    d = np.asarray(target, float) - np.asarray(root, float)
    v = np.asarray(p, float) - np.asarray(root, float)
    (dx, dy), (vx, vy) = d.tolist(), v.tolist()
    norm = math.hypot(dx, dy)
    if not norm:
        return 0.0
    cross = dx * vy - dy * vx  # (Python floats: exact 0 on the line; inf or nan past float range)
    if math.isfinite(cross):
        return cross / norm
    return dx / norm * vy - dy / norm * vx


@st.composite
def inside_the_annulus(draw):
    """root, target strictly inside the annulus (away from its edges), l1, l2."""
    root = draw(points2)
    l1, l2 = draw(bone_lengths), draw(bone_lengths)
    lo, hi = abs(l1 - l2), l1 + l2
    assume(hi - lo > 1e-2 * hi)
    target = polar(root, lo + draw(st.floats(0.05, 0.95)) * (hi - lo), draw(st.floats(-PI, PI)))
    return root, target, l1, l2


def off_the_line(root, target, along, across):
    """A pole ``along`` px down the root-target direction and ``across`` px off it (y down)."""
    d = np.asarray(target, float) - np.asarray(root, float)
    u = d / math.hypot(*d)
    return np.asarray(root, float) + along * u + across * np.array([-u[1], u[0]])


@FAST
@pytest.mark.slow
@given(inside_the_annulus(), st.floats(-2000.0, 2000.0),
       st.floats(1.0, 2000.0), st.sampled_from([1.0, -1.0]), bends)
def test_the_knee_lies_on_the_poles_side_whatever_the_bend(chain, along, away, sign, bend):
    root, target, l1, l2 = chain
    pole = off_the_line(root, target, along, sign * away)
    assert side(root, target, pole) * sign > 0  # (the pole is where it was put)
    sol = solve_two_bone(root, target, l1, l2, bend, pole=pole)
    knee_side = side(root, target, sol.knee)
    assert abs(knee_side) > 1e-6 * scale_of(root, target, l1, l2)
    assert math.copysign(1.0, knee_side) == sign
    # the chain still reaches the target; only the knee's side was chosen
    assert sol.reached
    assert math.hypot(*(sol.end - target)) <= 1e-6 * max(1.0, scale_of(root, target, l1, l2) / 10.0)


def test_a_pole_below_puts_the_knee_below_on_screen():
    # y down: the pole under the line root->target puts the knee under it too
    below = solve_two_bone((0.0, 0.0), (150.0, 0.0), 100.0, 100.0, 1, pole=(75.0, 40.0))
    above = solve_two_bone((0.0, 0.0), (150.0, 0.0), 100.0, 100.0, -1, pole=(75.0, -40.0))
    assert below.knee[1] > 0 > above.knee[1]


integer_points = st.tuples(st.integers(-500, 500), st.integers(-500, 500)).map(lambda p: np.array(p, float))
small_lengths = st.integers(1, 300).map(float)


@pytest.mark.slow
@FAST
@given(integer_points, integer_points, small_lengths, small_lengths, st.integers(-3, 3), bends)
def test_a_pole_on_the_line_leaves_the_bend_to_decide(root, target, l1, l2, k, bend):
    # integer coordinates, so the pole lies exactly on the line (k = 0: the root, 1: the target)
    pole = root + k * (target - root)
    assert_same(solve_two_bone(root, target, l1, l2, bend, pole=pole), solve_two_bone(root, target, l1, l2, bend))


@pytest.mark.slow
@FAST
@given(points2, points2, bone_lengths, bone_lengths, bends)
def test_a_target_on_the_root_leaves_the_bend_to_decide(root, pole, l1, l2, bend):
    assert_same(solve_two_bone(root, root, l1, l2, bend, pole=pole), solve_two_bone(root, root, l1, l2, bend))


@pytest.mark.slow
@FAST
@given(points2, points2, bone_lengths, bone_lengths, bends, st.booleans())
def test_a_pole_of_nans_is_no_pole(root, target, l1, l2, bend, as_array):
    pole = np.array([NAN, NAN]) if as_array else (NAN, NAN)
    assert_same(solve_two_bone(root, target, l1, l2, bend, pole=pole), solve_two_bone(root, target, l1, l2, bend))


def knee_sides_along(root, targets, l1, l2, bend, pole, batched):
    """(side of each knee, side of the pole) for each target, both as signed distances."""
    if batched:
        knees = solve_two_bone(root, targets, l1, l2, bend, pole=pole).knee
    else:
        knees = [solve_two_bone(tuple(root), tuple(t), l1, l2, bend, pole=tuple(pole)).knee for t in targets]
    return (np.array([side(root, t, k) for t, k in zip(targets, knees)]),
            np.array([side(root, t, pole) for t in targets]))


@pytest.mark.slow
@settings(deadline=None, max_examples=60)
@given(integer_points, integer_points, small_lengths, small_lengths, bends, st.booleans())
def test_the_knee_never_flips_while_the_target_moves_along_the_ray_through_the_pole(
        root, pole, l1, l2, bend, batched):
    q = pole - root
    assume(q.any())
    # steps of 1/64 of |q| out to past full reach; dyadic, so every target is exactly on the ray
    count = int(math.ceil(64 * 1.2 * (l1 + l2) / math.hypot(*q))) + 1
    targets = root + (np.arange(1, count + 1)[:, None] / 64.0) * q
    knees, poles = knee_sides_along(root, targets, l1, l2, bend, pole, batched)
    assert not poles.any()  # on the line every time
    bent = np.abs(knees) > 1e-9 * scale_of(root, pole, l1, l2)
    assume(bent.any())
    assert len(set(np.sign(knees[bent]))) == 1


@pytest.mark.slow
@settings(deadline=None, max_examples=60)
@given(points2, bone_lengths, bone_lengths, st.floats(-PI, PI), st.floats(-PI, PI), bends, st.booleans())
def test_along_any_line_through_the_pole_the_knee_keeps_to_the_poles_side(
        root, l1, l2, pole_angle, heading, bend, batched):
    lo, hi = abs(l1 - l2), l1 + l2
    assume(hi - lo > 1e-2 * hi)
    pole = polar(root, (lo + hi) / 2, pole_angle)
    steps = np.linspace(-1.5 * hi, 1.5 * hi, 301)  # across the pole, through the annulus
    targets = pole + steps[:, None] * np.array([math.cos(heading), math.sin(heading)])
    knees, poles = knee_sides_along(root, targets, l1, l2, bend, pole, batched)
    dist = np.hypot(*(targets - root).T)
    scale = scale_of(root, pole, l1, l2)
    # where the pole is clearly off the line and the knee clearly off it too (inside the annulus)
    clear = (np.abs(poles) > 1e-6 * scale) & (dist > lo + 1e-3 * hi) & (dist < hi * (1 - 1e-3))
    assume(clear.sum() >= 2)
    assert np.all(np.sign(knees[clear]) == np.sign(poles[clear]))


# ----------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------

GOOD = dict(root=(0.0, 0.0), target=(120.0, 30.0), l1=100.0, l2=80.0, bend=1)
GOOD_BATCH = dict(root=np.zeros((3, 2)), target=np.array([[120.0, 30.0], [10.0, 0.0], [500.0, 0.0]]),
                  l1=100.0, l2=80.0, bend=np.array([1, -1, 1]))


@pytest.mark.parametrize("batched", [False, True], ids=["single", "batch"])
@pytest.mark.parametrize(
    "pole",
    [
        pytest.param((1.0, 2.0, 3.0), id="3-vector"),
        pytest.param(5.0, id="scalar"),
        pytest.param("ab", id="string"),
        pytest.param((True, 0.0), id="bool"),
        pytest.param((NAN, 0.0), id="one-nan"),
        pytest.param((0.0, math.inf), id="inf"),
        pytest.param((2e300, 0.0), id="past-the-bound"),
        pytest.param(np.zeros((3, 2, 2)), id="3-D"),
        pytest.param(np.zeros((3, 3)), id="3-columns"),
    ],
)
def test_bad_poles_are_refused_naming_pole(pole, batched):
    with pytest.raises(ValueError, match="^pole"):
        solve_two_bone(**(GOOD_BATCH if batched else GOOD), pole=pole)


def test_a_pole_per_chain_must_match_the_batch():
    with pytest.raises(ValueError, match="pole.*do not broadcast"):
        solve_two_bone(**GOOD_BATCH, pole=np.zeros((2, 2)))


def test_a_batch_row_with_one_nan_is_refused_naming_pole():
    with pytest.raises(ValueError, match="^pole.*index \\(1, 0\\)"):
        solve_two_bone(**GOOD_BATCH, pole=np.array([[0.0, 5.0], [NAN, 5.0], [NAN, NAN]]))


@pytest.mark.parametrize("batched", [False, True], ids=["single", "batch"])
def test_huge_and_tiny_chains_in_one_batch_each_follow_their_pole(batched):
    # cross products of 1e299 px vectors overflow; the rescaling that avoids it must
    # not flush a short chain's cross product to zero in the same batch
    roots = np.zeros((4, 2))
    targets = np.array([[150.0, 0.0], [2.5e299, 2.5e299], [1e99, 1e99], [3e-5, 0.0]])
    # all to the right of root -> target, below it on screen (y down)
    poles = np.array([[75.0, 1e-3], [1e299, 9e299], [5e299, 9e299], [1e-5, 1e-300]])
    l1 = np.array([100.0, 2.5e299, 9e98, 2e-5])
    l2 = l1.copy()
    if batched:
        knees = solve_two_bone(roots, targets, l1, l2, 1, pole=poles).knee
    else:
        knees = [solve_two_bone(tuple(r), tuple(t), a, b, 1, pole=tuple(p)).knee
                 for r, t, a, b, p in zip(roots, targets, l1.tolist(), l2.tolist(), poles)]
    for root, target, knee in zip(roots, targets, knees):
        assert side(root, target, knee) > 0
