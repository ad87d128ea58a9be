"""The batched solvers (the scene's hot path) agree row by row with the public single-chain calls."""

import math
from unittest.mock import patch

import numpy as np
import pytest

from ikplayground.solvers import ccd, fabrik, follow_snake, jacobian_loop, jit, solve_ccd, solve_fabrik, solve_two_bone
from ikplayground.solvers import METHODS, solve_jacobian, solve_jacobian_batch
from ikplayground.solvers import JIT_MIN_BATCH, ccd_batch, dls_batch, fabrik_batch, jacobian_batch, snake_batch
from ikplayground.solvers import two_bone_arrays

PI = math.pi


def gap(a, b):
    """Largest angular distance between two arrays of angles (radians)."""
    d = np.mod(np.asarray(a) - np.asarray(b) + PI, 2 * PI) - PI
    return float(np.max(np.abs(d))) if np.size(d) else 0.0


def random_group(rng, count, n, limited, near=True):
    roots = rng.uniform(-300, 300, (count, 2))
    lengths = rng.uniform(5, 60, (count, n))
    limits = np.empty((count, n, 2))
    limits[:] = (-PI, PI)
    if limited:
        half = np.radians(rng.uniform(0, 170, (count, n - 1)))
        limits[:, 1:, 0] = -half
        limits[:, 1:, 1] = half
    angles = rng.uniform(limits[..., 0], limits[..., 1])
    reach = lengths.sum(axis=1)
    direction = rng.uniform(-PI, PI, count)
    dist = reach * rng.uniform(0.0, 1.4 if near else 3.0, count)
    targets = roots + dist[:, None] * np.stack([np.cos(direction), np.sin(direction)], axis=1)
    iterations = rng.integers(1, 12, count)
    tolerance = rng.uniform(0.0, 2.0, count)
    return roots, angles, lengths, targets, iterations, tolerance, limits


@pytest.mark.parametrize("solver, batch", [(solve_ccd, ccd_batch), (solve_fabrik, fabrik_batch)],
                         ids=["ccd", "fabrik"])
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("n", [1, 2, 7])
@pytest.mark.parametrize("count", [3, 150], ids=["few", "many"])
def test_iterative_batch_rows_equal_single_calls(solver, batch, limited, n, count, backend):
    rng = np.random.default_rng(1000 * n + limited + count)
    roots, angles, lengths, targets, iterations, tolerance, limits = random_group(rng, count, n, limited)
    # the compiled kernels take limits (full circles when free): give them some to run on
    lim = limits if limited or backend == "numba" else None
    assert_rows_equal_single_calls(solver, batch, roots, angles, lengths, targets, iterations, tolerance, lim)


def assert_rows_equal_single_calls(solver, batch, roots, angles, lengths, targets, iterations, tolerance, lim):
    """Row k of the batched result is the single-chain call on row k (sweeps used exactly); returns the
    single-chain solutions."""
    before = [x.copy() for x in (roots, angles, lengths, targets)]
    a, error, used = batch(roots, angles, lengths, targets, iterations, tolerance, lim)
    for x, y in zip(before, (roots, angles, lengths, targets)):
        np.testing.assert_array_equal(x, y)  # inputs untouched
    singles = []
    for k in range(len(roots)):
        one = solver(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                     tolerance=float(tolerance[k]), limits=None if lim is None else lim[k])
        assert gap(a[k], one.angles) < 1e-7, k
        assert error[k] == pytest.approx(one.error, abs=1e-6), k
        assert used[k] == one.iterations, k
        singles.append(one)
    return singles


@pytest.mark.slow
@pytest.mark.parametrize("solver, batch", [(solve_ccd, ccd_batch), (solve_fabrik, fabrik_batch)],
                         ids=["ccd", "fabrik"])
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("count", [3, 60], ids=["few", "many"])
def test_batched_rows_stall_where_single_calls_do(solver, batch, limited, count, backend):
    """With budgets of up to 400 sweeps many chains stop early unreached (stalled, or straight toward a
    target out of reach); each stops after the same sweeps as alone."""
    rng = np.random.default_rng(4242 + limited + count)
    roots, angles, lengths, targets, _, tolerance, limits = random_group(rng, count, 4, limited)
    iterations = rng.integers(1, 400, count)
    # (not 0: whether an error lands on exactly 0.0 depends on how each path rounds)
    tolerance[::2] = 1e-6
    lim = limits if limited or backend == "numba" else None
    singles = assert_rows_equal_single_calls(solver, batch, roots, angles, lengths, targets, iterations,
                                             tolerance, lim)
    if count > 3:
        assert any(one.iterations < budget and not one.reached for one, budget in zip(singles, iterations))


@pytest.mark.slow
def test_two_bone_arrays_rows_equal_single_calls():
    rng = np.random.default_rng(5)
    roots = rng.uniform(-100, 100, (300, 2))
    targets = rng.uniform(-400, 400, (300, 2))
    l1 = rng.uniform(1, 200, 300)
    l2 = rng.uniform(1, 200, 300)
    bend = rng.choice([-1.0, 1.0], 300)
    knee, end, t1, t2, reached, scale = two_bone_arrays(roots, targets, l1, l2, bend)
    for k in range(300):
        one = solve_two_bone(tuple(roots[k]), tuple(targets[k]), float(l1[k]), float(l2[k]), int(bend[k]))
        np.testing.assert_allclose(knee[k], one.knee, atol=1e-9)
        np.testing.assert_allclose(end[k], one.end, atol=1e-9)
        assert gap(t1[k], one.theta1) < 1e-12 and gap(t2[k], one.theta2) < 1e-12
        assert bool(reached[k]) == bool(one.reached)
        assert scale[k] == one.scale == 1.0


def test_snake_batch_rows_equal_single_calls(backend):
    rng = np.random.default_rng(9)
    count, n = 200, 9
    lengths = rng.uniform(5, 50, (count, n))
    heading = rng.uniform(-PI, PI, count)
    bends = rng.uniform(-0.8, 0.8, (count, n))
    absolute = heading[:, None] + np.cumsum(bends, axis=1)
    steps = lengths[..., None] * np.stack([np.cos(absolute), np.sin(absolute)], axis=-1)
    points = np.concatenate([np.zeros((count, 1, 2)), np.cumsum(steps, axis=1)], axis=1)
    heads = points[:, 0] + rng.uniform(-15, 15, (count, 2))
    half = np.radians(rng.uniform(0, 90, count))
    out = snake_batch(points, heads, lengths, -half, half)
    for k in range(count):
        one = follow_snake(points[k], heads[k], lengths[k], (-half[k], half[k]))
        np.testing.assert_allclose(out[k], one, atol=1e-9)


@pytest.mark.parametrize("solver, batch", [("ccd", ccd_batch), ("dls", dls_batch)])
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
def test_the_compiled_kernels_are_what_runs_when_numba_is_there(solver, batch, limited, backend):
    rng = np.random.default_rng(3)
    roots, angles, lengths, targets, iterations, tolerance, limits = random_group(rng, JIT_MIN_BATCH, 5, limited)
    calls = []
    k = jit.kernels()
    if backend == "numba":
        real = getattr(k, solver)
        setattr(k, solver, lambda *args: calls.append(1) or real(*args))
        try:
            batch(roots, angles, lengths, targets, iterations, tolerance, limits if limited else None)
        finally:
            setattr(k, solver, real)
        # (free CCD chains stay on numpy; a free DLS group runs on the kernel with full circles)
        assert calls == ([1] if limited or solver == "dls" else [])
    else:
        assert k is None


@pytest.mark.parametrize("solver, batch", [(solve_ccd, ccd_batch), (solve_fabrik, fabrik_batch)],
                         ids=["ccd", "fabrik"])
def test_a_range_a_hair_short_of_the_circle_is_kept(solver, batch, backend):
    """[-pi, pi - 1 ulp] counts as the full circle (the angle wraps) but pi itself is outside it."""
    count = max(JIT_MIN_BATCH, 3)
    hi = np.nextafter(PI, 0.0)
    limits = np.tile(np.array([[0.0, 0.0], [-PI, hi]]), (count, 1, 1))
    roots = np.zeros((count, 2))
    angles = np.tile([0.0, PI], (count, 1))  # joint 1 starts on pi, just past hi
    lengths = np.ones((count, 2))
    targets = np.tile([-0.5, 0.0], (count, 1))  # folding back: the joint wants to be near pi
    iterations = np.full(count, 5)
    tolerance = np.zeros(count)
    a, _, _ = batch(roots, angles, lengths, targets, iterations, tolerance, limits)
    assert np.all(a[:, 1] <= hi) and np.all(a[:, 1] >= -PI)
    one = solver(roots[0], angles[0], lengths[0], targets[0], iterations=5, tolerance=0.0, limits=limits[0])
    assert -PI <= one.angles[1] <= hi


def limited_group(rng, count, n):
    """``scripts/convergence.py``'s kind of chain, one bone count: a straight start, joint 0 free, joints
    1..n-1 within +-(20..90) degrees, and a target that a pose inside the limits reaches."""
    roots = rng.uniform(-200, 200, (count, 2))
    lengths = rng.uniform(20, 80, (count, n))
    limits = np.empty((count, n, 2))
    limits[:] = (-PI, PI)
    half = np.radians(rng.uniform(20, 90, (count, n - 1)))
    limits[:, 1:, 0] = -half
    limits[:, 1:, 1] = half
    pose = rng.uniform(limits[..., 0], limits[..., 1])
    absolute = np.cumsum(pose, axis=1)
    targets = roots + np.stack([(lengths * np.cos(absolute)).sum(1), (lengths * np.sin(absolute)).sum(1)], 1)
    return roots, np.zeros((count, n)), lengths, targets, limits


def held_group(rng, count):
    """Four bones whose joints 1..3 bend at most 0.2 rad, each with a target 30 px from its root that they
    cannot bend round to: every solve stalls, restarts and (the restarts doing no better) goes back."""
    roots = rng.uniform(-200, 200, (count, 2))
    lengths = np.tile([40.0, 30.0, 20.0, 10.0], (count, 1))
    limits = np.tile([[-PI, PI], [-0.2, 0.2], [-0.2, 0.2], [-0.2, 0.2]], (count, 1, 1))
    angles = rng.uniform(-0.2, 0.2, (count, 4))
    angles[:, 0] = rng.uniform(-PI, PI, count)
    direction = rng.uniform(-PI, PI, count)
    targets = roots + 30.0 * np.stack([np.cos(direction), np.sin(direction)], 1)
    return roots, angles, lengths, targets, limits


def one_sided_group(rng, count, n):
    """``scripts/convergence.py``'s one-sided (knee-like) kind of chain, one bone count: joint 0 free, joints 1..n-1
    within [0, a] or [-a, 0], a target a pose inside the limits reaches. The start lies inside the ranges, a
    hair off the straight pose on their bounds: a straight chain's first sweep lines it up with its target, and
    there which way round a joint turns is a tie that rounding breaks (docs/design.md)."""
    roots = rng.uniform(-200, 200, (count, 2))
    lengths = rng.uniform(20, 80, (count, n))
    limits = np.empty((count, n, 2))
    limits[:] = (-PI, PI)
    a = np.radians(rng.uniform(20, 150, (count, n - 1)))
    up = rng.random((count, n - 1)) < 0.5
    limits[:, 1:, 0] = np.where(up, 0.0, -a)
    limits[:, 1:, 1] = np.where(up, a, 0.0)
    pose = rng.uniform(limits[..., 0], limits[..., 1])
    absolute = np.cumsum(pose, axis=1)
    targets = roots + np.stack([(lengths * np.cos(absolute)).sum(1), (lengths * np.sin(absolute)).sum(1)], 1)
    start = limits[..., 0] + rng.uniform(0.01, 0.05, (count, n)) * (limits[..., 1] - limits[..., 0])
    start[:, 0] = rng.uniform(-PI, PI, count)
    return roots, start, lengths, targets, limits


def restarts_in(solves) -> int:
    """Run ``solves()``; the restarts the single-chain loops of CCD and FABRIK took meanwhile (a numpy or compiled
    row draws its own, unseen)."""
    taken = []
    spies = [patch.object(module, "restart_pose", lambda *args, _real=module.restart_pose: taken.append(1) or
                          _real(*args)) for module in (ccd, fabrik)]
    for spy in spies:
        spy.start()
    try:
        solves()
    finally:
        for spy in spies:
            spy.stop()
    return len(taken)


@pytest.mark.slow
@pytest.mark.parametrize("solver, batch", [(solve_ccd, ccd_batch), (solve_fabrik, fabrik_batch)],
                         ids=["ccd", "fabrik"])
@pytest.mark.parametrize("group", [limited_group, held_group, one_sided_group], ids=["limited", "held", "one-sided"])
@pytest.mark.parametrize("count", [3, 150], ids=["few", "many"])
def test_rows_equal_single_calls_through_restarts(solver, batch, group, count, backend):
    """Limited chains that stall, restart (up to RESTARTS times) and go on, or go back to the best pose a restart
    left: each row still equals the single-chain call, sweeps or passes included. (The few are three of the
    many that restart.)"""
    rng = np.random.default_rng(2011)
    roots, angles, lengths, targets, limits = group(rng, 150) if group is held_group else group(rng, 150, 7)
    iterations = rng.integers(1, 300, 150)
    tolerance = np.full(150, 0.5)
    tolerance[::3] = 1e-6
    args = [roots, angles, lengths, targets, iterations, tolerance, limits]

    def restarted(k):
        return restarts_in(lambda: solver(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                                          tolerance=float(tolerance[k]), limits=limits[k]))

    if count == 3:
        args = [x[[k for k in range(150) if restarted(k)][:3]] for x in args]
    taken = restarts_in(lambda: assert_rows_equal_single_calls(solver, batch, *args))
    assert taken >= (3 if count == 3 else 5)


@pytest.mark.parametrize("solver, batch", [(solve_ccd, ccd_batch), (solve_fabrik, fabrik_batch)],
                         ids=["ccd", "fabrik"])
@pytest.mark.parametrize("n", [2, 3, 6])
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("count", [3, 60], ids=["few", "many"])
def test_rows_with_poles_equal_single_calls(solver, batch, n, limited, count, backend):
    """Poles (a NaN row for none): two bones mirrored toward theirs after the solve, three or more stepped
    toward theirs as they solve; each row the single call with that pole."""
    rng = np.random.default_rng(77 + n + count + limited)
    roots, angles, lengths, targets, iterations, tolerance, limits = random_group(rng, count, n, limited)
    iterations = rng.integers(1, 60, count)
    poles = roots + rng.uniform(-1.5, 1.5, (count, 2)) * lengths.sum(axis=1)[:, None]
    poles[::4] = np.nan
    lim = limits if limited or backend == "numba" else None
    a, error, used = batch(roots, angles, lengths, targets, iterations, tolerance, lim, poles)
    for k in range(count):
        one = solver(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                     tolerance=float(tolerance[k]), limits=None if lim is None else lim[k],
                     pole=None if np.isnan(poles[k, 0]) else poles[k])
        assert gap(a[k], one.angles) < 1e-7, k
        assert error[k] == pytest.approx(one.error, abs=1e-6), k
        assert used[k] == one.iterations, k


@pytest.mark.slow
@pytest.mark.parametrize("count", [3, 150], ids=["few", "many"])
def test_fabrik_rows_keep_their_limits(count, backend):
    rng = np.random.default_rng(7 + count)
    roots, angles, lengths, targets, _, _, limits = random_group(rng, count, 6, True)
    limits[:, 0] = np.sort(rng.uniform(-PI, PI, (count, 2)), axis=1)  # a held root joint too
    a, _, _ = fabrik_batch(roots, angles, lengths, targets, rng.integers(1, 200, count), np.full(count, 1e-6),
                           limits)
    assert np.all(a >= limits[..., 0]) and np.all(a <= limits[..., 1])


# ----------------------------------------------------------------------------
# The Jacobian family (solvers/dls_batch.py's jacobian_batch, the engine of solve_jacobian_batch)
# ----------------------------------------------------------------------------

def jacobian_group(rng, count, case):
    """``count`` chains for ``jacobian_batch`` and the keywords of each row's single call: "free", "limited"
    (symmetric), "one-sided" (knee-like, budgets to 100 steps: restarts), "rest" (limited, a rest pose inside
    the limits, weights 0..0.5) or "poles" (two bones, mirrored, and five, stepped; a NaN row for none)."""
    n = 2 if case == "poles" and rng.random() < 0.5 else 5
    if case == "one-sided":
        roots, angles, lengths, targets, limits = one_sided_group(rng, count, n)
        iterations = rng.integers(1, 100, count)
        tolerance = np.full(count, 0.5)
    else:
        roots, angles, lengths, targets, iterations, tolerance, limits = random_group(rng, count, n,
                                                                                      case in ("limited", "rest"))
        if case == "free":
            limits = None
    rest = rng.uniform(limits[..., 0], limits[..., 1]) if case == "rest" else None
    poles = None
    if case == "poles":
        poles = roots + rng.uniform(-1.5, 1.5, (count, 2)) * lengths.sum(axis=1)[:, None]
        poles[::4] = np.nan
    return dict(roots=roots, angles=angles, lengths=lengths, targets=targets, iterations=iterations,
                tolerance=tolerance, limits=limits, rest=rest, rest_weight=rng.uniform(0.0, 0.5, count),
                poles=poles, damping=rng.uniform(0.0, 2.0, count))


def single_jacobian(g, method, k):
    """Row ``k`` of the group ``g`` solved alone by ``solve_jacobian``."""
    lim, rest, poles = g["limits"], g["rest"], g["poles"]
    return solve_jacobian(g["roots"][k], g["angles"][k], g["lengths"][k], g["targets"][k], method=method,
                          iterations=int(g["iterations"][k]), tolerance=float(g["tolerance"][k]),
                          limits=None if lim is None else lim[k], rest=None if rest is None else rest[k],
                          rest_weight=float(g["rest_weight"][k]),
                          pole=None if poles is None or np.isnan(poles[k, 0]) else poles[k],
                          damping=float(g["damping"][k]) if method == "dls" else None)


CASES = ["free", "limited", "one-sided", "rest", "poles"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("count", [3, 60], ids=["few", "many"])
def test_jacobian_rows_equal_single_calls(method, case, count, backend):
    """Every method, with limits (restarts among them), a rest pose or poles: row k of ``jacobian_batch`` (rows
    one by one, numpy, or the compiled kernel) is ``solve_jacobian`` on row k, steps included."""
    rng = np.random.default_rng(1000 * METHODS.index(method) + 100 * CASES.index(case) + count)
    g = jacobian_group(rng, count, case)
    before = {k: v.copy() for k, v in g.items() if v is not None}
    taken = []
    real = jacobian_loop.restart_pose
    with patch.object(jacobian_loop, "restart_pose", lambda *args: taken.append(1) or real(*args)):
        singles = [single_jacobian(g, method, k) for k in range(count)]
    a, error, used = jacobian_batch(g["roots"], g["angles"], g["lengths"], g["targets"], g["iterations"],
                                    g["tolerance"], g["limits"], method,
                                    g["damping"] if method == "dls" else None, g["rest"], g["rest_weight"], g["poles"])
    for k, v in before.items():
        np.testing.assert_array_equal(v, g[k])  # inputs untouched
    for k, one in enumerate(singles):
        assert gap(a[k], one.angles) < 1e-7, k
        assert error[k] == pytest.approx(one.error, abs=1e-6), k
        assert used[k] == one.iterations, k
    if case == "one-sided" and count > 3:
        assert taken  # restarts were taken (and the rows still equal)


@pytest.mark.parametrize("method", METHODS)
def test_the_validated_batch_is_the_engine(method):
    rng = np.random.default_rng(12)
    g = jacobian_group(rng, 20, "rest")
    sol = solve_jacobian_batch(g["roots"], g["angles"], g["lengths"], g["targets"], method=method,
                               iterations=g["iterations"], tolerance=g["tolerance"], limits=g["limits"], rest=g["rest"],
                               rest_weight=g["rest_weight"], damping=g["damping"] if method == "dls" else None)
    a, error, used = jacobian_batch(g["roots"], g["angles"], g["lengths"], g["targets"], g["iterations"],
                                    g["tolerance"], g["limits"], method, g["damping"] if method == "dls" else None,
                                    g["rest"], g["rest_weight"])
    np.testing.assert_array_equal(sol.angles, a)
    np.testing.assert_array_equal(sol.error, error)
    np.testing.assert_array_equal(sol.iterations, used)
    for k in range(20):
        one = single_jacobian(g, method, k)
        assert sol.status[k] == one.status and bool(sol.reached[k]) == one.reached, k


@pytest.mark.parametrize("method", METHODS)
def test_the_jacobian_kernel_is_what_runs_when_numba_is_there(method, backend):
    rng = np.random.default_rng(4)
    g = jacobian_group(rng, JIT_MIN_BATCH, "limited")
    calls = []
    k = jit.kernels()
    if backend == "numba":
        real = k.dls
        k.dls = lambda *args: calls.append(1) or real(*args)
        try:
            jacobian_batch(g["roots"], g["angles"], g["lengths"], g["targets"], g["iterations"], g["tolerance"],
                           None, method)  # (free: full circles)
        finally:
            k.dls = real
        assert calls == [1]
    else:
        assert k is None
