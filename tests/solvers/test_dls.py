"""Properties of solve_dls (damped least squares with Levenberg-Marquardt damping) and dls_batch.

What DLS promises along with every iterative solver (pose invariants, limits,
tolerance, reach and stretch rates, status, argument checks) is in
test_iterative.py, test_status.py, test_validation.py and
test_hostile_input.py; here is only what is DLS's own: it reaches what it can
reach, its error never grows, it comes to rest when asked again and again for a
target it cannot reach, and the batched version takes the same steps.
"""

from __future__ import annotations

import math
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from .solver_cases import (PI, STATUSES, Chain, angle_gap, assert_reported, assert_within_limits, assert_wrapped,
                           chains, convergence, coordinate_scale, points2, reference_fk, running_on)
from .test_iterative import clamp_start
from .test_validation import BAD_POINTS, GOOD_IK, _drop

from ikplayground.solvers import jacobian_loop, jit, solve_dls
from ikplayground.solvers import DEFAULT_DAMPING, MAX_STEP
from ikplayground.solvers import JIT_MIN_BATCH, SMALL_BATCH, dls_batch

FAST = settings(deadline=None, max_examples=150)
dampings = st.one_of(st.none(), st.just(0.0), st.floats(0.01, 5.0))


def start_error(chain) -> float:
    """Distance (px) from the end effector of the clamped starting pose to the target."""
    start = clamp_start(chain.angles, chain.limits)
    return math.hypot(*(chain.target - reference_fk(chain.root, start, chain.lengths)[-1]))


# ----------------------------------------------------------------------------
# Every call
# ----------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(chains(), st.integers(1, 30), dampings)
def test_the_error_never_grows_and_limits_always_hold(chain, iterations, damping):
    # A step that does not lower the error is rejected, so the answer is never worse than the start.
    sol = solve_dls(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                    limits=chain.limits, damping=damping)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    assert sol.error <= start_error(chain) + 1e-9 * scale
    assert_wrapped(sol.angles, chain.limits)
    if chain.limits is not None:
        assert_within_limits(sol.angles, chain.limits)
    end = reference_fk(chain.root, sol.angles, chain.lengths)[-1]
    assert math.isclose(sol.error, math.hypot(*(chain.target - end)), rel_tol=1e-9, abs_tol=1e-9 * scale)


@pytest.mark.slow
@FAST
@given(chains(), st.integers(1, 300), st.floats(0.0, 2.0), dampings)
def test_status_tells_why_the_steps_stopped_whatever_the_damping(chain, iterations, tolerance, damping):
    sol = solve_dls(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                    tolerance=tolerance, limits=chain.limits, damping=damping)
    assert_reported(sol, chain, iterations, tolerance)


@pytest.mark.slow
@FAST
@given(chains(), dampings)
def test_one_step_turns_no_joint_further_than_the_cap(chain, damping):
    start = clamp_start(chain.angles, chain.limits)
    sol = solve_dls(chain.root, chain.angles, chain.lengths, chain.target, iterations=1, tolerance=0.0,
                    limits=chain.limits, damping=damping)
    assert max(angle_gap(a, b) for a, b in zip(sol.angles, start)) <= MAX_STEP + 1e-12


def test_no_damping_given_means_the_default():
    args = dict(GOOD_IK, target=(70.0, -10.0), iterations=30)
    assert solve_dls(**args).error == solve_dls(**args, damping=DEFAULT_DAMPING).error
    assert solve_dls(**args).error != solve_dls(**args, damping=3.0).error


# ----------------------------------------------------------------------------
# Reachable targets
# ----------------------------------------------------------------------------


@pytest.mark.slow
@settings(deadline=None, max_examples=300)
@given(st.data())
def test_reachable_targets_are_reached_without_limits(data):
    """A target some pose reaches is reached, from any start that does not lie on one line with it.

    Excluded, and why: every joint on the line through the end effector and the
    target (a bone pointing straight away from it, a straight chain with the
    target on its own line) is a pose where no joint turn moves the end
    effector along the error at first order, so the Jacobian step is zero; and
    targets within 1 px of the edge of the workspace, which only a straight (or
    fully folded) chain reaches, and which are approached ever more slowly.
    """
    n = data.draw(st.integers(1, 8))
    lengths = np.array(data.draw(st.lists(st.floats(5.0, 150.0), min_size=n, max_size=n)))
    start = np.array(data.draw(st.lists(st.floats(-PI, PI), min_size=n, max_size=n)))
    pose = np.array(data.draw(st.lists(st.floats(-PI, PI), min_size=n, max_size=n)))
    root = data.draw(points2)
    target = reference_fk(root, pose, lengths)[-1]
    reach = float(lengths.sum())
    inner = max(0.0, 2.0 * float(lengths.max()) - reach)
    assume(inner + 1.0 <= math.hypot(*(target - root)) <= reach - 1.0)
    pts = reference_fk(root, start, lengths)
    e = target - pts[-1]
    r = pts[-1] - pts[:-1]
    sines = np.abs(r[:, 0] * e[1] - r[:, 1] * e[0]) / (np.hypot(r[:, 0], r[:, 1]) * math.hypot(*e) + 1e-300)
    assume(sines.max() > 1e-3)
    sol = solve_dls(root, start, lengths, target, iterations=300, tolerance=0.5)
    assert sol.reached, sol


def benchmark_chains(seed: int, count: int):
    """The limited benchmark of scripts/convergence.py (3..10 bones, joints 1..n-1 within +-20..90
    degrees, targets a pose within the limits reaches, the start straight)."""
    return convergence().limited_chains(seed, count)


# Measured (seed 12, 300 chains, 100 steps, 0.5 px): every chain reached, in 5.56
# steps on average (13 at most); seeds 1, 2, 3 likewise (5.57, 5.81, 5.71 steps).
# CCD reaches about 0.81 of a similar set and FABRIK 0.88 (test_iterative.py).
def test_the_limited_benchmark_is_reached():
    sols = [solve_dls(root, start, lengths, target, iterations=100, tolerance=0.5, limits=limits)
            for root, start, lengths, target, limits in benchmark_chains(12, 300)]
    assert np.mean([s.reached for s in sols]) >= 0.95
    assert np.mean([s.iterations for s in sols]) <= 10.0


# ----------------------------------------------------------------------------
# Unreachable targets: coming to rest
# ----------------------------------------------------------------------------


def settle_steps(rng, limited: bool, most: int) -> int:
    """Solve (10 steps a call) again and again from the last answer toward one fixed target
    1.05..3 times the reach away; the number of calls until no joint moves 0.001 rad, or ``most + 1``."""
    n = int(rng.integers(2, 10))
    lengths = rng.uniform(20, 80, n)
    limits = None
    half = np.full(n, 1.0)
    if limited:
        half = np.full(n, PI)
        half[1:] = np.radians(rng.uniform(20, 90, n - 1))
        limits = np.stack([-half, half], axis=1)
    angles = rng.uniform(-half, half)
    direction = rng.uniform(-PI, PI)
    target = lengths.sum() * rng.uniform(1.05, 3.0) * np.array([math.cos(direction), math.sin(direction)])
    for step in range(1, most + 1):
        sol = solve_dls((0.0, 0.0), angles, lengths, target, iterations=10, limits=limits)
        moved = max(angle_gap(a, b) for a, b in zip(sol.angles, angles))
        angles = sol.angles
        if moved < 1e-3:
            return step
    return most + 1


# Measured (200 chains each, seed 3): free chains settle within 26 calls (median
# 7, 99th percentile 23), limited ones within 23; over seeds 1 and 2, at most 27
# (free) and 50 (limited).
@pytest.mark.slow
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
def test_a_chain_asked_again_and_again_for_an_unreachable_target_comes_to_rest(limited):
    rng = np.random.default_rng(3)
    steps = [settle_steps(rng, limited, 60) for _ in range(200)]
    assert max(steps) <= 60


# ----------------------------------------------------------------------------
# Arguments of its own
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-0.1, -1e-12, math.nan, math.inf, -math.inf, "abc", True, 1j, [0.5]])
def test_a_bad_damping_is_refused_by_name(value):
    with pytest.raises(ValueError, match="^damping"):
        solve_dls(**GOOD_IK, damping=value)


@pytest.mark.parametrize("value", _drop(BAD_POINTS, {"None"}))  # (None is no pole)
def test_a_bad_pole_is_refused_by_name(value):
    with pytest.raises(ValueError, match="^pole"):
        solve_dls(**GOOD_IK, pole=value)


@pytest.mark.parametrize("damping", [0, 0.0, 1e-300, 1e6, 1e300, np.float64(0.5)])
def test_any_finite_damping_from_zero_up_is_accepted(damping):
    chain = Chain(*(np.array(GOOD_IK[k], dtype=float) for k in ("root", "angles", "lengths", "target", "limits")))
    sol = solve_dls(**GOOD_IK, damping=damping)
    assert np.all(np.isfinite(sol.angles))
    assert sol.error <= start_error(chain)
    assert_reported(sol, chain, GOOD_IK["iterations"], GOOD_IK["tolerance"])


def test_a_pole_is_accepted():
    assert solve_dls(**GOOD_IK, pole=(0.0, 100.0)).status in STATUSES
    assert solve_dls(**GOOD_IK, pole=np.array([1, 2])).status in STATUSES


# ----------------------------------------------------------------------------
# dls_batch: the same steps, row by row
# ----------------------------------------------------------------------------


def random_group(rng, count, n, limited):
    """``count`` chains of ``n`` bones, targets from on the root to 3 times the reach away, budgets of 1..60
    steps, tolerances 0..2 px, dampings 0..2 (so rows end reached, unreached and out of reach)."""
    roots = rng.uniform(-300, 300, (count, 2))
    lengths = rng.uniform(5, 60, (count, n))
    limits = np.empty((count, n, 2))
    limits[:] = (-PI, PI)
    if limited:
        half = np.radians(rng.uniform(0, 170, (count, n - 1)))
        limits[:, 1:, 0] = -half
        limits[:, 1:, 1] = half
    angles = rng.uniform(limits[..., 0], limits[..., 1])
    direction = rng.uniform(-PI, PI, count)
    dist = lengths.sum(axis=1) * rng.uniform(0.0, 3.0, count)
    targets = roots + dist[:, None] * np.stack([np.cos(direction), np.sin(direction)], axis=1)
    iterations = rng.integers(1, 60, count)
    tolerance = rng.uniform(0.0, 2.0, count)
    damping = rng.uniform(0.0, 2.0, count)
    return roots, angles, lengths, targets, iterations, tolerance, limits if limited else None, damping


@pytest.mark.slow
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("n", [1, 2, 7])
@pytest.mark.parametrize("count", [SMALL_BATCH - 1, 150], ids=["few", "many"])
def test_batch_rows_equal_single_calls(limited, n, count, backend):
    rng = np.random.default_rng(100 * n + 10 * limited + count)
    roots, angles, lengths, targets, iterations, tolerance, limits, damping = random_group(rng, count, n, limited)
    before = [x.copy() for x in (roots, angles, lengths, targets)]
    a, error, used = dls_batch(roots, angles, lengths, targets, iterations, tolerance, limits, damping)
    for x, y in zip(before, (roots, angles, lengths, targets)):
        np.testing.assert_array_equal(x, y)  # inputs untouched
    statuses = set()
    for k in range(count):
        one = solve_dls(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                        tolerance=float(tolerance[k]), limits=None if limits is None else limits[k],
                        damping=float(damping[k]))
        assert max(angle_gap(x, y) for x, y in zip(a[k], one.angles)) <= 1e-9, k
        assert error[k] == pytest.approx(one.error, abs=1e-9), k
        assert used[k] == one.iterations, k
        statuses.add(one.status)
    if count > SMALL_BATCH:  # the rows end every way a solve can (free chains seldom stall short of the target)
        assert statuses >= {"reached", "out of reach", "iterations"} | ({"stalled"} if limited else set())


def test_batch_default_damping_and_one_damping_for_all():
    rng = np.random.default_rng(5)
    roots, angles, lengths, targets, iterations, tolerance, limits, _ = random_group(rng, 40, 4, True)
    default = dls_batch(roots, angles, lengths, targets, iterations, tolerance, limits)
    scalar = dls_batch(roots, angles, lengths, targets, iterations, tolerance, limits, DEFAULT_DAMPING)
    rows = dls_batch(roots, angles, lengths, targets, iterations, tolerance, limits, np.full(40, DEFAULT_DAMPING))
    for got in (scalar, rows):
        for x, y in zip(default, got):
            np.testing.assert_array_equal(x, y)


ANY_FLOAT = st.floats(allow_nan=False, allow_infinity=False)
ANY_LENGTH = st.floats(min_value=0.0, exclude_min=True, allow_infinity=False)


def on_each_engine(*args) -> list:
    """``dls_batch(*args)`` on numpy, then on the compiled kernel where numba is: ``[(engine, result), ...]``."""
    out = []
    for engine in ("numpy", "numba") if jit.available() else ("numpy",):
        with running_on(engine):
            out.append((engine, dls_batch(*args)))
    return out


def assert_rows_equal(results, singles) -> None:
    """Each engine's row k is ``singles[k]`` to rounding, steps exactly."""
    for engine, (a, error, used) in results:
        for k, one in enumerate(singles):
            assert max(angle_gap(x, y) for x, y in zip(a[k], one.angles)) <= 1e-9, (engine, k)
            assert error[k] == pytest.approx(one.error, abs=1e-9), (engine, k)
            assert used[k] == one.iterations, (engine, k)


@settings(deadline=None, max_examples=200)
@pytest.mark.slow
@given(st.lists(ANY_FLOAT, min_size=4, max_size=4), st.lists(ANY_LENGTH, min_size=1, max_size=4),
       st.floats(-10.0, 10.0), st.sampled_from([0.0, 0.5, 1e6]), st.booleans())
def test_batch_rows_equal_single_calls_at_any_magnitude(coords, lengths, angle, damping, limited):
    """Whatever solve_dls accepts, the batch (numpy, and the compiled kernel) answers the same, finitely and quietly."""
    n = len(lengths)
    limits = np.array([[-PI, PI]] + [[-0.5, 0.5]] * (n - 1)) if limited else None
    start = clamp_start([angle] * n, limits)  # inside (-pi, pi] and the limits: both read it as it is
    try:
        one = solve_dls(coords[:2], start, lengths, coords[2:], iterations=12, tolerance=0.0, limits=limits,
                        damping=damping)
    except ValueError:
        return  # refused by name: test_hostile_input.py
    count = max(SMALL_BATCH + 1, JIT_MIN_BATCH)
    roots, angles, lens, targets = (np.tile(np.asarray(x, dtype=float), (count, 1))
                                    for x in (coords[:2], start, lengths, coords[2:]))
    lim = None if limits is None else np.tile(limits, (count, 1, 1))
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        results = on_each_engine(roots, angles, lens, targets, np.full(count, 12), np.zeros(count), lim, damping)
    for engine, (a, error, used) in results:
        assert np.all(np.isfinite(a)) and np.all(np.isfinite(error)), engine
        for k in range(count):
            assert max(angle_gap(x, y) for x, y in zip(a[k], one.angles)) <= 1e-9, engine
            assert error[k] == pytest.approx(one.error, rel=1e-12, abs=0.0), engine
            assert used[k] == one.iterations, engine


@st.composite
def dls_groups(draw):
    """``JIT_MIN_BATCH`` or more chains of one bone count, all limited or all free, targets anywhere (in reach
    or not), each with its own budget (1..30 steps), tolerance and damping; the starts clamped as the solvers
    clamp them. As dls_batch's arguments."""
    n = draw(st.integers(1, 8))
    limited = draw(st.booleans())
    extras = st.tuples(st.integers(1, 30), st.one_of(st.just(0.0), st.floats(0.0, 2.0)),
                       st.one_of(st.just(0.0), st.floats(0.01, 5.0), st.just(1e6)))
    drawn = draw(st.lists(st.tuples(chains(n, n, limited), extras), min_size=1, max_size=JIT_MIN_BATCH + 4))
    rows = [drawn[k % len(drawn)] for k in range(max(JIT_MIN_BATCH, len(drawn)))]
    cs = [chain for chain, _ in rows]
    iterations, tolerance, damping = (np.array(v) for v in zip(*(extra for _, extra in rows)))
    return (np.array([c.root for c in cs]), np.array([clamp_start(c.angles, c.limits) for c in cs]),
            np.array([c.lengths for c in cs]), np.array([c.target for c in cs]), iterations.astype(np.int64),
            tolerance, np.array([c.limits for c in cs]) if limited else None, damping)


@pytest.mark.slow
@FAST
@given(dls_groups())
def test_the_kernel_rows_equal_the_numpy_rows_and_single_calls(group):
    roots, angles, lengths, targets, iterations, tolerance, limits, damping = group
    singles = [solve_dls(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                         tolerance=float(tolerance[k]), limits=None if limits is None else limits[k],
                         damping=float(damping[k])) for k in range(len(roots))]
    assert_rows_equal(on_each_engine(*group), singles)


def lined_up_group(rng, count, n, limited):
    """Straight chains, half folded back at the middle joint, each with a target on its own line inside its
    reach: the Jacobian has no turn toward it (a null step), so the escape kicks the chain off the line."""
    roots = rng.uniform(-100, 100, (count, 2))
    lengths = rng.uniform(5, 50, (count, n))
    angles = np.zeros((count, n))
    angles[:, 0] = rng.uniform(-PI, PI, count)
    angles[::2, n // 2] = PI
    limits = None
    if limited:
        limits = np.tile([-PI, PI], (count, n, 1))
        limits[:, 1:] = (-PI, 3.0)  # the fold stays on its bound, and the kicks that would pass it are clamped
        angles[::2, n // 2] = -PI
    heading = angles[:, 0] + np.where(rng.integers(0, 2, count) == 1, PI, 0.0)
    dist = lengths.sum(axis=1) * rng.uniform(0.0, 0.99, count)
    targets = roots + dist[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=1)
    return roots, angles, lengths, targets, np.full(count, 5), np.zeros(count), limits, rng.uniform(0.0, 2.0, count)


@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
def test_rows_equal_single_calls_through_escapes(limited, backend):
    rng = np.random.default_rng(1986 + limited)
    group = lined_up_group(rng, 60, 6, limited)
    roots, angles, lengths, targets, iterations, tolerance, limits, damping = group
    real = jacobian_loop.escape
    found = []
    with patch.object(jacobian_loop, "escape", lambda *args: found.append(real(*args)) or found[-1]):
        singles = [solve_dls(roots[k], angles[k], lengths[k], targets[k], iterations=5, tolerance=0.0,
                             limits=None if limits is None else limits[k], damping=float(damping[k]))
                   for k in range(60)]
    assert sum(f is not None for f in found) >= 20  # escapes taken (and some tried in vain)
    assert_rows_equal([(backend, dls_batch(*group))], singles)


def test_an_escape_after_a_null_step_turns_no_joint_further_than_the_cap():
    """Found by hypothesis: a tiny null step, then a full 0.5 rad kick, passed the cap by 1e-12."""
    angles = np.array([4.0, 0.0, 0.0, 0.0, math.pi, 0.0])
    lengths = np.array([46.0, 1.0, 2.0, 15.0, 18.0, 47.0])
    start = clamp_start(angles, None)
    sol = solve_dls((0.0, 0.0), angles, lengths, (0.0, 0.0), iterations=1, tolerance=0.0, damping=0.0625)
    assert max(angle_gap(a, b) for a, b in zip(sol.angles, start)) <= MAX_STEP + 1e-12
