"""solve_two_bone's soft reach and stretch, ``reached`` and ``scale`` with them, and
batches with every option.

The soft ease is written out again below from Spine's runtimes (IkConstraint.apply,
two bones, softness) to compare against.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import TwoBoneSolution, solve_two_bone
from ikplayground.solvers import two_bone_arrays

from .solver_cases import PI, angle_gap, bone_lengths, coordinate_scale, points2
from .test_two_bone import edge_angle_tolerance, edge_position_tolerance, hit_tolerance, polar

FAST = settings(deadline=None, max_examples=200)
RAYS = settings(deadline=None, max_examples=40)
bends = st.sampled_from([1, -1])
NAN = math.nan
short_bones = st.floats(0.5, 100.0)
softnesses = st.one_of(st.just(0.0), st.floats(0.0, 400.0))
stretches = st.one_of(st.just(1.0), st.floats(1.0, 3.0))


def eased(d: float, top: float, s: float) -> float:
    """Spine's soft reach: how far the end goes for a target ``d`` px away, with a
    maximum reach ``top`` and ``s`` px of softness (s = 0: a hard stop at ``top``)."""
    if d <= top - s:
        return min(d, top)
    if d >= top + s:
        return top
    sd = d - (top - s)
    p = min(1.0, sd / (2 * s)) - 1
    return d - (sd - s * (1 - p * p))


def expected(d, l1, l2, softness, stretch):
    """(distance of the end from the root, scale, largest d the end reaches) by the docstring's rules."""
    total = l1 + l2
    s = min(softness, total)
    top = stretch * total
    reach = eased(d, top, s)
    scale = min(max(reach / total, 1.0), stretch)
    return max(reach, abs(l1 - l2)), scale, top - s


def ray(root, angle, far, step=0.1):
    """Targets every ``step`` px from the root out to ``far`` px, and their distances."""
    targets = np.array([polar(root, d, angle) for d in np.arange(step, far, step)])
    return targets, np.hypot(*(targets - root).T)


def solve_each(root, targets, l1, l2, bend, batched, **options):
    """Knees, ends and scales for each target: one batched call or one call a target."""
    if batched:
        sol = solve_two_bone(root, targets, l1, l2, bend, **options)
        return sol.knee, sol.end, sol.scale
    sols = [solve_two_bone(tuple(root), tuple(t), l1, l2, bend, **options) for t in targets]
    return (np.array([s.knee for s in sols]), np.array([s.end for s in sols]), np.array([s.scale for s in sols]))


# ----------------------------------------------------------------------------
# Soft reach
# ----------------------------------------------------------------------------


@pytest.mark.slow
@RAYS
@given(points2, short_bones, short_bones, st.floats(0.01, 1.5), st.floats(-PI, PI), bends, st.booleans())
def test_soft_reach_along_a_ray_eases_the_end_out_to_full_reach(root, l1, l2, frac, angle, bend, batched):
    total, lo = l1 + l2, abs(l1 - l2)
    softness = frac * total  # (past the total length too: it counts as the total)
    s = min(softness, total)
    targets, d = ray(root, angle, total + s + 5.0)
    _, ends, scales = solve_each(root, targets, l1, l2, bend, batched, softness=softness)
    reach = np.hypot(*(ends - root).T)
    tol = 1e-9 * coordinate_scale(root, targets, total)
    assert np.all(scales == 1.0)
    # a 0.1 px step of the target moves the end no more than 0.1 px (slope <= 1), never 0.5
    assert np.max(np.hypot(*np.diff(ends, axis=0).T)) <= 0.1 + tol
    assert np.all(np.diff(reach) >= -tol)  # never back
    assert np.all(reach <= total + tol)  # never past full reach
    follows = (d >= lo) & (d <= total - s)
    np.testing.assert_allclose(reach[follows], d[follows], rtol=0, atol=tol)
    # the eased zone: short of the target (where the inner radius does not hold the end
    # there anyway), and at full reach from total + s on
    short = (d > total - s + 1e-3) & (d < total + s) & (d > lo + 1e-6 * total)
    assert np.all(reach[short] < d[short])
    np.testing.assert_allclose(reach[d >= total + s], total, rtol=0, atol=tol + edge_position_tolerance(
        root, targets[-1], l1, l2))


@pytest.mark.slow
@FAST
@given(points2, bone_lengths, bone_lengths, softnesses, stretches, st.floats(0.0, 1.0), st.floats(-PI, PI), bends)
def test_the_end_goes_where_the_soft_and_stretched_reach_says(root, l1, l2, softness, stretch, frac, angle, bend):
    total = l1 + l2
    target = polar(root, frac * (stretch * total + 2 * softness + 10.0), angle)
    d = math.hypot(*(target - root))
    sol = solve_two_bone(root, target, l1, l2, bend, softness=softness, stretch=stretch)
    reach, scale, _ = expected(d, l1, l2, softness, stretch)
    assert sol.scale == pytest.approx(scale, rel=1e-12)
    tol = (1e-9 * coordinate_scale(root, target, stretch * total)
           + edge_position_tolerance(root, target, scale * l1, scale * l2))
    assert abs(math.hypot(*(sol.end - root)) - reach) <= tol
    if d > 1e-6 * total:  # on the ray toward the target
        u = (target - root) / d
        np.testing.assert_allclose(sol.end, root + reach * u, rtol=0, atol=tol)


# ----------------------------------------------------------------------------
# Stretch
# ----------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(points2, bone_lengths, bone_lengths, stretches, st.floats(0.0, 1.2), st.floats(-PI, PI), bends)
def test_stretched_bones_reach_every_target_within_stretch_times_their_length(
        root, l1, l2, stretch, frac, angle, bend):
    total, lo = l1 + l2, abs(l1 - l2)
    target = polar(root, frac * stretch * total, angle)
    d = math.hypot(*(target - root))
    sol = solve_two_bone(root, target, l1, l2, bend, stretch=stretch)
    assert 1.0 <= sol.scale <= stretch
    if d <= total:
        assert sol.scale == 1.0
    # both bones scaled alike
    scale = coordinate_scale(root, target, stretch * total)
    assert math.hypot(*(sol.knee - root)) == pytest.approx(sol.scale * l1, rel=1e-9, abs=1e-12 * scale)
    assert math.hypot(*(sol.end - sol.knee)) == pytest.approx(sol.scale * l2, rel=1e-9, abs=1e-12 * scale)
    if lo <= d <= stretch * total:
        assert sol.reached
        assert math.hypot(*(sol.end - target)) <= hit_tolerance(root, target, sol.scale * l1, sol.scale * l2)
    else:
        assert not sol.reached
    if d > stretch * total:  # straight, at the longest, toward the target
        assert sol.scale == stretch
        assert angle_gap(sol.theta2, 0.0) < edge_angle_tolerance(l1, l2)


@RAYS
@pytest.mark.slow
@given(points2, short_bones, short_bones, st.floats(0.0, 200.0), st.floats(1.0, 2.0), st.floats(-PI, PI), bends,
       st.booleans())
def test_soft_stretched_reach_along_a_ray_has_no_jump(root, l1, l2, softness, stretch, angle, bend, batched):
    total = l1 + l2
    targets, d = ray(root, angle, stretch * total + softness + 5.0, step=0.25)
    knees, ends, scales = solve_each(root, targets, l1, l2, bend, batched, softness=softness, stretch=stretch)
    tol = 1e-9 * coordinate_scale(root, targets, stretch * total)
    assert np.max(np.hypot(*np.diff(ends, axis=0).T)) <= 0.25 + tol
    assert np.all(np.diff(scales) >= 0) and np.all((scales >= 1) & (scales <= stretch))
    np.testing.assert_allclose(np.hypot(*(knees - root).T), scales * l1, rtol=1e-9, atol=tol)


# ----------------------------------------------------------------------------
# reached: the end is on the target
# ----------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(points2, bone_lengths, bone_lengths, softnesses, stretches, st.floats(0.0, 1.0), st.floats(-PI, PI), bends)
def test_reached_says_whether_the_end_is_on_the_target(root, l1, l2, softness, stretch, frac, angle, bend):
    total, lo = l1 + l2, abs(l1 - l2)
    target = polar(root, frac * (stretch * total + 2 * softness + 10.0), angle)
    d = math.hypot(*(target - root))
    sol = solve_two_bone(root, target, l1, l2, bend, softness=softness, stretch=stretch)
    reach, _, farthest = expected(d, l1, l2, softness, stretch)
    assert sol.reached == (lo <= d <= farthest)
    miss = math.hypot(*(sol.end - target))
    if sol.reached:
        assert miss <= hit_tolerance(root, target, sol.scale * l1, sol.scale * l2)
    elif d - reach > 1e-6 * total:  # held short (of a target far enough past for rounding not to hide it)
        assert miss >= (d - reach) / 2


# ----------------------------------------------------------------------------
# Batches
# ----------------------------------------------------------------------------


@st.composite
def option_rows(draw):
    """root, target (out to past the stretched and softened reach), l1, l2, bend, pole
    (NaNs: no pole; the target: on the line; or anywhere), softness, stretch."""
    root, l1, l2 = draw(points2), draw(bone_lengths), draw(bone_lengths)
    softness, stretch = draw(softnesses), draw(stretches)
    target = polar(root, draw(st.floats(0.0, 1.0)) * (stretch * (l1 + l2) + 2 * softness + 10.0),
                   draw(st.floats(-PI, PI)))
    pole = draw(st.one_of(st.just(np.array([NAN, NAN])), st.just(target), points2))
    return root, target, l1, l2, draw(bends), pole, softness, stretch


@st.composite
def option_batches(draw):
    """The columns of 1 to 8 option_rows, as arrays."""
    rows = draw(st.lists(option_rows(), min_size=1, max_size=8))
    return tuple(np.array(column, dtype=float) for column in zip(*rows))


@pytest.mark.slow
@FAST
@given(option_batches(), st.booleans(), st.booleans())
def test_a_batch_with_options_equals_row_by_row_calls(batch, with_pole, scalar_options):
    roots, targets, l1, l2, bend, poles, softness, stretch = batch
    if scalar_options:  # one softness and stretch for all
        softness, stretch = float(softness[0]), float(stretch[0])
    options = dict(softness=softness, stretch=stretch, pole=poles if with_pole else None)
    sol = solve_two_bone(roots, targets, l1, l2, bend, **options)
    n = len(roots)
    assert sol.knee.shape == sol.end.shape == (n, 2)
    assert np.shape(sol.scale) == np.shape(sol.reached) == np.shape(sol.theta1) == (n,)
    for i in range(n):
        row = dict(softness=float(np.broadcast_to(softness, n)[i]), stretch=float(np.broadcast_to(stretch, n)[i]),
                   pole=tuple(poles[i].tolist()) if with_pole else None)
        one = solve_two_bone(tuple(roots[i].tolist()), tuple(targets[i].tolist()), float(l1[i]), float(l2[i]),
                             int(bend[i]), **row)
        assert_option_row_matches(sol, i, one, roots[i], targets[i], float(l1[i]), float(l2[i]), row)
    # the scene's entry point, with the same options, gives the same six arrays
    for got, want in zip(two_bone_arrays(roots, targets, l1, l2, bend, **options), sol, strict=True):
        np.testing.assert_array_equal(got, want)


def assert_option_row_matches(sol, i, one, root, target, l1, l2, row):
    """Row ``i`` equals the single call ``one`` to rounding (numpy's and math's functions differ
    by an ulp, which the law of cosines amplifies at the edges of the stretched annulus)."""
    d = math.hypot(*(np.asarray(target) - np.asarray(root)))
    reach, scale, _ = expected(d, l1, l2, row["softness"], row["stretch"])
    tol, atol = 1e-9 * coordinate_scale(root, target, scale * (l1 + l2)), 1e-12
    if min(abs(reach - scale * abs(l1 - l2)), abs(scale * (l1 + l2) - reach)) <= 1e-6 * scale * (l1 + l2):
        tol += edge_position_tolerance(root, target, scale * l1, scale * l2)
        atol += edge_angle_tolerance(l1, l2)
    np.testing.assert_allclose(sol.knee[i], one.knee, rtol=0, atol=tol)
    np.testing.assert_allclose(sol.end[i], one.end, rtol=0, atol=tol)
    assert angle_gap(sol.theta1[i], one.theta1) <= atol
    assert angle_gap(sol.theta2[i], one.theta2) <= atol
    assert bool(sol.reached[i]) == bool(one.reached)
    assert sol.scale[i] == pytest.approx(one.scale, rel=1e-12)


@pytest.mark.parametrize("options", [{}, dict(softness=np.zeros(3), stretch=np.ones(3), pole=np.full((3, 2), NAN))],
                         ids=["five-arguments", "options-that-change-nothing"])
def test_two_bone_arrays_without_options_gives_the_plain_answer_and_scale_one(options):
    roots = np.zeros((3, 2))
    targets = np.array([[150.0, 0.0], [500.0, 0.0], [0.0, 30.0]])
    l1 = np.array([100.0, 100.0, 80.0])
    *fields, scale = two_bone_arrays(roots, targets, l1, 100.0, np.array([1.0, -1.0, 1.0]), **options)
    sol = solve_two_bone(roots, targets, l1, 100.0, np.array([1, -1, 1]))
    for got, want in zip(fields, sol[:5], strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(scale, np.ones(3))


def test_scale_takes_the_batch_axis_of_any_argument():
    # lengths alone carry the batch axis: scale has it too
    knee, _, _, _, _, scale = two_bone_arrays(np.zeros(2), np.array([300.0, 0.0]), np.array([100.0, 100.0]),
                                              100.0, 1.0, stretch=np.array([1.0, 2.0]))
    assert knee.shape == (2, 2)
    np.testing.assert_array_equal(scale, [1.0, 1.5])
    _, _, _, _, _, scale = two_bone_arrays(np.zeros(2), np.array([300.0, 0.0]), 100.0, 100.0, np.array([1.0, -1.0]))
    np.testing.assert_array_equal(scale, [1.0, 1.0])


def test_a_hand_built_solution_of_five_fields_has_scale_one():
    sol = TwoBoneSolution(np.zeros(2), np.ones(2), 0.0, 0.0, True)
    assert sol.scale == 1.0
    assert TwoBoneSolution._fields[-1] == "scale"


# ----------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------

GOOD = dict(root=(0.0, 0.0), target=(120.0, 30.0), l1=100.0, l2=80.0, bend=1)
GOOD_BATCH = dict(root=np.zeros((3, 2)), target=np.array([[120.0, 30.0], [10.0, 0.0], [500.0, 0.0]]),
                  l1=100.0, l2=80.0, bend=np.array([1, -1, 1]))
BAD = [
    pytest.param("softness", -0.5, id="softness-negative"),
    pytest.param("softness", NAN, id="softness-nan"),
    pytest.param("softness", math.inf, id="softness-inf"),
    pytest.param("softness", True, id="softness-bool"),
    pytest.param("softness", "5", id="softness-string"),
    pytest.param("softness", 10**400, id="softness-huge-int"),
    pytest.param("softness", np.ones((3, 1)), id="softness-2-D"),
    pytest.param("stretch", 0.999, id="stretch-below-one"),
    pytest.param("stretch", 0.0, id="stretch-zero"),
    pytest.param("stretch", NAN, id="stretch-nan"),
    pytest.param("stretch", math.inf, id="stretch-inf"),
    pytest.param("stretch", True, id="stretch-bool"),
    pytest.param("stretch", np.array([1.0, 0.5, 2.0]), id="stretch-row-below-one"),
]


@pytest.mark.parametrize("batched", [False, True], ids=["single", "batch"])
@pytest.mark.parametrize(("name", "value"), BAD)
def test_bad_softness_and_stretch_are_refused_naming_them(name, value, batched):
    with pytest.raises(ValueError, match=f"^{name}: [^\\n]+$"):
        solve_two_bone(**(GOOD_BATCH if batched else GOOD), **{name: value})


@pytest.mark.parametrize(("name", "value"), [("softness", 0), ("softness", 1e300), ("stretch", 1), ("stretch", 1e300)])
def test_the_edges_of_softness_and_stretch_are_accepted(name, value):
    sol = solve_two_bone(**GOOD, **{name: value})
    assert np.all(np.isfinite(sol.end)) and math.isfinite(sol.scale)
