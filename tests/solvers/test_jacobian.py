"""The Jacobian family, ``solve_jacobian``: transpose, pseudo-inverse, DLS and SDLS, a rest pose, a pole.

The promises (``ikplayground/solvers/jacobian*.py``, docs/design.md, issue 27):

- every method: the error never grows (no rest pose or pole), the limits hold, the angles are wrapped, the
  status tells why it stopped, and no step turns a joint past ``MAX_STEP``; "dls" is ``solve_dls`` itself;
- "pseudo-inverse", "dls" and "sdls" reach at least 95% of free reachable targets within 100 steps, and
  "transpose" never ends farther from its target than it started;
- with a rest pose, the poses that reach lie nearer it than without one in at least 90% of the cases, and
  the error stays within the tolerance while the rest pose pulls;
- the arguments of their own are checked by name.

What every iterative solver promises besides (statuses, hostile input, batches, poles, restarts, one-sided
limits, mirror images) is in test_iterative.py, test_status.py, test_batched.py, test_poles.py,
test_restarts.py, test_one_sided_limits.py and test_mirror_symmetry.py.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .solver_cases import (angle_gap, assert_reported, assert_within_limits, assert_wrapped, chains, convergence,
                           coordinate_scale, reference_fk)
from .test_iterative import clamp_start
from .test_validation import GOOD_IK

from ikplayground.solvers import MAX_STEP, METHODS, solve_dls, solve_jacobian, solve_jacobian_batch

FAST = settings(deadline=None, max_examples=100)
methods = st.sampled_from(METHODS)
each_method = pytest.mark.parametrize("method", METHODS)


def start_error(chain) -> float:
    """Distance (px) from the end effector of the clamped starting pose to the target."""
    start = clamp_start(chain.angles, chain.limits)
    return math.hypot(*(chain.target - reference_fk(chain.root, start, chain.lengths)[-1]))


# ----------------------------------------------------------------------------
# Every call
# ----------------------------------------------------------------------------


@FAST
@given(chains(), methods, st.integers(1, 60), st.floats(0.0, 2.0))
def test_the_error_never_grows_the_limits_hold_and_the_status_tells(chain, method, iterations, tolerance):
    sol = solve_jacobian(chain.root, chain.angles, chain.lengths, chain.target, method=method, iterations=iterations,
                         tolerance=tolerance, limits=chain.limits)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    assert sol.error <= start_error(chain) + 1e-9 * scale
    assert_wrapped(sol.angles, chain.limits)
    if chain.limits is not None:
        assert_within_limits(sol.angles, chain.limits)
    end = reference_fk(chain.root, sol.angles, chain.lengths)[-1]
    assert math.isclose(sol.error, math.hypot(*(chain.target - end)), rel_tol=1e-9, abs_tol=1e-9 * scale)
    assert_reported(sol, chain, iterations, tolerance)


@FAST
@given(chains(), methods)
def test_one_step_turns_no_joint_further_than_the_cap(chain, method):
    start = clamp_start(chain.angles, chain.limits)
    sol = solve_jacobian(chain.root, chain.angles, chain.lengths, chain.target, method=method, iterations=1,
                         tolerance=0.0, limits=chain.limits)
    assert max(angle_gap(a, b) for a, b in zip(sol.angles, start)) <= MAX_STEP + 1e-12


@FAST
@given(chains(), st.integers(1, 40), st.one_of(st.none(), st.floats(0.0, 3.0)), st.booleans())
def test_dls_is_solve_dls(chain, iterations, damping, pole):
    target_pole = None if not pole else chain.root + chain.reach * np.array([0.3, -0.8])
    one = solve_jacobian(chain.root, chain.angles, chain.lengths, chain.target, method="dls", iterations=iterations,
                         limits=chain.limits, damping=damping, pole=target_pole)
    other = solve_dls(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                      limits=chain.limits, damping=damping, pole=target_pole)
    np.testing.assert_array_equal(one.angles, other.angles)
    assert (one.error, one.iterations, one.status) == (other.error, other.iterations, other.status)


# ----------------------------------------------------------------------------
# The done-when figures, on the seeded sets of scripts/convergence.py
# ----------------------------------------------------------------------------


@lru_cache(maxsize=None)
def free_set(seed: int = 2011, count: int = 300):
    return convergence().free_chains(seed, count)


@lru_cache(maxsize=None)
def free_solved(method: str, seed: int = 2011):
    chains_ = free_set(seed)
    return chains_, convergence().measure(partial_method(method), chains_, 100, 0.5)[1]


def partial_method(method: str):
    def solve(*args, **kwargs):
        return solve_jacobian(*args, method=method, **kwargs)
    return solve


# Measured (300 free chains of 3..10 bones, straight starts, 100 steps, 0.5 px; seeds 2011, 1, 2): transpose
# 0.997, 0.997, 0.993; pseudo-inverse 0.990, 0.987, 1.000; dls and sdls 1.000; none ended farther from its
# target than it started.
@each_method
def test_free_reachable_targets_are_reached(method):
    chains_, sols = free_solved(method)
    share = sum(s.reached for s in sols) / len(sols)
    if method != "transpose":
        assert share >= 0.95
    for c, s in zip(chains_, sols):  # (transpose's own promise; every method keeps it)
        assert s.error <= start_error(c) + 1e-9 * coordinate_scale(c.root, c.target, float(np.sum(c.lengths)))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@each_method
def test_free_reachable_targets_are_reached_on_other_seeds(method, seed):
    chains_, sols = free_solved(method, seed)
    if method != "transpose":
        assert sum(s.reached for s in sols) / len(sols) >= 0.95


@FAST
@given(chains(), st.integers(1, 60))
def test_transpose_never_ends_farther_than_it_started(chain, iterations):
    sol = solve_jacobian(chain.root, chain.angles, chain.lengths, chain.target, method="transpose",
                         iterations=iterations, tolerance=0.0, limits=chain.limits)
    assert sol.error <= start_error(chain) + 1e-9 * coordinate_scale(chain.root, chain.target, chain.reach)


# ----------------------------------------------------------------------------
# A rest pose
# ----------------------------------------------------------------------------


# Measured (seed 2011, 300 free chains, rest poses U(-1, 1) rad a joint): nearer the rest pose with it in
# 293 of 298 (transpose), 295 of 297 (pseudo-inverse), 298 of 300 (dls), 300 of 300 (sdls) of the cases both
# solves reach.
@each_method
def test_a_rest_pose_leaves_the_pose_that_reaches_nearer_it(method):
    script = convergence()
    nearer, both = script.rest_nearer(method, script.rest_cases(2011, 300))
    assert both >= 250
    assert nearer >= 0.90 * both


@FAST
@given(chains(), methods, st.integers(1, 100), st.floats(0.05, 2.0), st.floats(0.0, 0.5), st.data())
def test_with_a_rest_pose_the_error_stays_within_the_tolerance_once_there(chain, method, iterations, tolerance,
                                                                          weight, data):
    n = len(chain.lengths)
    rest = np.array(data.draw(st.lists(st.floats(-math.pi, math.pi), min_size=n, max_size=n)))
    sol = solve_jacobian(chain.root, chain.angles, chain.lengths, chain.target, method=method, iterations=iterations,
                         tolerance=tolerance, limits=chain.limits, rest=rest, rest_weight=weight)
    assert_reported(sol, chain, iterations, tolerance)
    if chain.limits is not None:
        assert_within_limits(sol.angles, chain.limits)
    if start_error(chain) <= tolerance:  # on the target from the start: the rest pose may move it, not off it
        assert sol.reached


def test_a_rest_pose_outside_the_limits_is_clamped_into_them():
    limits = np.array([[-math.pi, math.pi], [-0.5, 0.5], [-0.5, 0.5]])
    target = reference_fk((0.0, 0.0), [0.3, 0.4, -0.3], [50.0, 40.0, 30.0])[-1]  # a pose inside the limits
    args = dict(root=(0.0, 0.0), angles=[0.0, 0.2, 0.2], lengths=[50.0, 40.0, 30.0], target=target, method="dls",
                limits=limits)
    far = solve_jacobian(**args, rest=[0.0, 2.0, -3.0])
    clamped = solve_jacobian(**args, rest=[0.0, 0.5, -0.5])
    np.testing.assert_array_equal(far.angles, clamped.angles)
    assert far.reached


def test_a_rest_pose_pulls_a_chain_already_on_its_target_toward_it():
    lengths = np.array([40.0, 40.0, 40.0, 40.0])
    angles = np.array([-0.6, 0.4, 0.4, 0.4])
    target = reference_fk((0.0, 0.0), angles, lengths)[-1]
    rest = np.array([0.5, -0.4, -0.4, 0.0])
    sol = solve_jacobian((0.0, 0.0), angles, lengths, target, method="dls", rest=rest)
    assert sol.reached and sol.iterations > 0
    distance = np.linalg.norm(np.remainder(sol.angles - rest + math.pi, 2 * math.pi) - math.pi)
    assert distance < np.linalg.norm(angles - rest) - 0.1


# ----------------------------------------------------------------------------
# Arguments of its own
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["DLS", "jacobian", "", None, 2, ["dls"]])
def test_a_bad_method_is_refused_by_name(value):
    args = dict(GOOD_IK)
    with pytest.raises(ValueError, match="^method"):
        solve_jacobian(**args, method=value)


@pytest.mark.parametrize("rest", [[0.0], [0.0, 0.0, math.nan], "abc", [True, 0.0, 0.0]])
def test_a_bad_rest_pose_is_refused_by_name(rest):
    args = dict(GOOD_IK, angles=[0.0, 0.0, 0.0], lengths=[10.0, 10.0, 10.0], limits=None)
    with pytest.raises(ValueError, match="^rest"):
        solve_jacobian(**args, method="sdls", rest=rest)


@pytest.mark.parametrize("weight", [-0.1, math.nan, math.inf, "abc", True])
def test_a_bad_rest_weight_is_refused_by_name(weight):
    with pytest.raises(ValueError, match="^rest_weight"):
        solve_jacobian(**GOOD_IK, method="dls", rest=np.zeros(len(GOOD_IK["angles"])), rest_weight=weight)


@pytest.mark.parametrize("method", [m for m in METHODS if m != "dls"])
def test_only_dls_takes_a_damping(method):
    with pytest.raises(ValueError, match="^damping"):
        solve_jacobian(**GOOD_IK, method=method, damping=0.5)
    with pytest.raises(ValueError, match="^damping"):
        solve_jacobian_batch([(0.0, 0.0)], [[0.0, 0.0]], [[10.0, 10.0]], [(5.0, 5.0)], method=method, damping=0.5)


def test_the_batch_checks_its_own_arguments_by_name():
    good = dict(roots=[(0.0, 0.0)], angles=[[0.0, 0.0]], lengths=[[10.0, 10.0]], targets=[(5.0, 5.0)])
    with pytest.raises(ValueError, match="^method"):
        solve_jacobian_batch(**good, method="newton")
    with pytest.raises(ValueError, match="^rest"):
        solve_jacobian_batch(**good, method="sdls", rest=[[0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="^rest_weight"):
        solve_jacobian_batch(**good, method="sdls", rest_weight=[-1.0])
    sol = solve_jacobian_batch(**good, method="sdls", rest=[[4.0, -7.0]])  # wrapped, as the single call's
    one = solve_jacobian((0.0, 0.0), [0.0, 0.0], [10.0, 10.0], (5.0, 5.0), method="sdls", rest=[4.0, -7.0])
    np.testing.assert_allclose(sol.angles[0], one.angles, atol=1e-12)


def test_the_defaults():
    sol = solve_jacobian(**GOOD_IK, method="pseudo-inverse")
    again = solve_jacobian(**GOOD_IK, method="pseudo-inverse", rest=None, rest_weight=0.1, pole=None)
    np.testing.assert_array_equal(sol.angles, again.angles)
    dls = solve_jacobian(**{k: v for k, v in GOOD_IK.items() if k != "iterations"}, method="dls")
    assert dls.iterations <= 100
