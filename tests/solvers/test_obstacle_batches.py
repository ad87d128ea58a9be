"""The batched CCD, FABRIK and Jacobian family with circle obstacles: each row is the single call on it (numpy and
numba backends)."""

import math
from functools import partial

import numpy as np
import pytest

from ikplayground.solvers import (METHODS, ccd_batch, clear_moves, fabrik_batch, forward_kinematics, jacobian_batch,
                                  jit, solve_ccd, solve_ccd_batch, solve_dls, solve_dls_batch, solve_fabrik,
                                  solve_fabrik_batch, solve_jacobian, solve_jacobian_batch)

from .obstacle_cases import kept_clear_failures
from .test_batched import gap, random_group



def family_engine(method):
    """:func:`jacobian_batch` with ``method``, called as :func:`ccd_batch` is."""
    def engine(roots, angles, lengths, targets, iterations, tolerance, limits=None, poles=None, obstacles=None):
        return jacobian_batch(roots, angles, lengths, targets, iterations, tolerance, limits, method, poles=poles,
                              obstacles=obstacles)
    return engine


PAIRS = {"ccd": (solve_ccd, ccd_batch, solve_ccd_batch), "fabrik": (solve_fabrik, fabrik_batch, solve_fabrik_batch),
         "dls": (solve_dls, family_engine("dls"), solve_dls_batch),
         **{m: (partial(solve_jacobian, method=m), family_engine(m), partial(solve_jacobian_batch, method=m))
            for m in METHODS if m != "dls"}}


def circles_among(rng, roots, angles, lengths, count):
    """``count`` circles (k, 3) px beside the start poses' bones of random rows (some touching, a few across)."""
    out = []
    for _ in range(count):
        k = int(rng.integers(len(roots)))
        pts = forward_kinematics(roots[k], angles[k], lengths[k])
        j = int(rng.integers(len(lengths[k])))
        a, b = pts[j], pts[j + 1]
        normal = np.array([-(b - a)[1], (b - a)[0]]) / max(float(np.hypot(*(b - a))), 1e-12)
        r = float(rng.uniform(3.0, 0.3 * lengths[k].sum() + 3.0))
        centre = a + rng.uniform() * (b - a) + (r + rng.uniform(-0.2 * r, 0.5 * r)) * rng.choice([-1.0, 1.0]) * normal
        out.append((centre[0], centre[1], r))
    return np.array(out)


def group_among_circles(seed, count, n, limited):
    rng = np.random.default_rng(seed)
    roots, angles, lengths, targets, iterations, tolerance, limits = random_group(rng, count, n, limited)
    roots[:] = roots[0]  # (near each other, so the one set of circles lies among them all)
    iterations = rng.integers(1, 120, count)
    poles = roots + rng.uniform(-1.5, 1.5, (count, 2)) * lengths.sum(axis=1)[:, None]
    poles[::3] = np.nan
    return (roots, angles, lengths, targets, iterations, tolerance, limits, poles,
            circles_among(rng, roots, angles, lengths, int(rng.integers(2, 9))))


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("n", [2, 6])
@pytest.mark.parametrize("count", [3, 40], ids=["few", "many"])
def test_rows_with_obstacles_equal_single_calls(name, limited, n, count, backend):
    solver, batch, _ = PAIRS[name]
    roots, angles, lengths, targets, iterations, tolerance, limits, poles, obs = group_among_circles(
        31 * n + count + limited, count, n, limited)
    lim = limits if limited or backend == "numba" else None  # (the kernels take limited groups)
    before = [x.copy() for x in (roots, angles, lengths, targets, obs)]
    a, error, used = batch(roots, angles, lengths, targets, iterations, tolerance, lim, poles, obs)
    for x, y in zip(before, (roots, angles, lengths, targets, obs)):
        np.testing.assert_array_equal(x, y)  # inputs untouched
    changed = 0
    for k in range(count):
        one = solver(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                     tolerance=float(tolerance[k]), limits=None if lim is None else lim[k],
                     pole=None if np.isnan(poles[k, 0]) else poles[k], obstacles=obs)
        assert gap(a[k], one.angles) < 1e-7, k
        assert error[k] == pytest.approx(one.error, abs=1e-6), k
        assert used[k] == one.iterations, k
        start = angles[k] if lim is None else np.clip(angles[k], lim[k, :, 0], lim[k, :, 1])
        assert not kept_clear_failures(roots[k], start, a[k], lengths[k], obs), k
        changed += gap(one.angles, solver(roots[k], angles[k], lengths[k], targets[k], iterations=int(iterations[k]),
                                          tolerance=float(tolerance[k]), limits=None if lim is None else lim[k],
                                          pole=None if np.isnan(poles[k, 0]) else poles[k]).angles) > 1e-9
    assert count < 10 or changed  # (many: the circles changed some row's answer)


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("none", [None, np.zeros((0, 3))], ids=["None", "empty"])
def test_a_batch_without_obstacles_is_bit_for_bit_as_before(name, none, backend):
    _, batch, public = PAIRS[name]
    roots, angles, lengths, targets, iterations, tolerance, limits, poles, _ = group_among_circles(5, 30, 5, True)
    plain = batch(roots, angles, lengths, targets, iterations, tolerance, limits, poles)
    given = batch(roots, angles, lengths, targets, iterations, tolerance, limits, poles, none)
    for x, y in zip(plain, given):
        assert x.tobytes() == y.tobytes()
    one = public(roots, angles, lengths, targets, iterations=iterations, limits=limits, obstacles=none)
    two = public(roots, angles, lengths, targets, iterations=iterations, limits=limits)
    assert one.angles.tobytes() == two.angles.tobytes() and (one.iterations == two.iterations).all()


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_public_batch_checks_its_obstacles(name):
    _, _, public = PAIRS[name]
    with pytest.raises(ValueError, match=r"obstacles\[0\]: the radius"):
        public([[0, 0]], [[0.0]], [[10.0]], [[5, 5]], obstacles=[[1, 1, 0]])
    with pytest.raises(ValueError, match="obstacles: expected rows"):
        public([[0, 0]], [[0.0]], [[10.0]], [[5, 5]], obstacles=[1, 2, 3])
    sol = public([[0, 0]], [[0.0, 0.0]], [[50.0, 50.0]], [[0.0, 90.0]], iterations=60,
                 obstacles=[[50.0, 30.0, 20.0]])
    assert not kept_clear_failures((0, 0), [0.0, 0.0], sol.angles[0], [50.0, 50.0], [[50.0, 30.0, 20.0]])
    assert math.isfinite(sol.error[0])


def test_clear_moves_hold_back_the_same_rows_alike_on_numpy_and_compiled(monkeypatch):
    pytest.importorskip("numba")
    assert jit.kernels(wait=True) is not None
    rng = np.random.default_rng(12)
    roots, before, lengths, _, _, _, limits = random_group(rng, 40, 5, True)
    roots[:] = roots[0]
    obs = circles_among(rng, roots, before, lengths, 6)
    after = np.clip(before + rng.uniform(-0.4, 0.4, before.shape), limits[..., 0], limits[..., 1])
    runs = []
    for flag in ("0", "1"):
        monkeypatch.setenv("IKPLAYGROUND_JIT", flag)
        runs.append(clear_moves(roots, before, after, lengths, limits, obs))
    (numpy, held), (compiled, held_too) = runs
    assert held.tolist() == held_too.tolist() and 3 <= held.sum() < 40
    assert gap(numpy, compiled) < 1e-9
    for k in range(40):
        assert not kept_clear_failures(roots[k], before[k], numpy[k], lengths[k], obs), k
        if not held[k]:
            assert numpy[k].tobytes() == after[k].tobytes()
