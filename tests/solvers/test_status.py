"""What solve_ccd, solve_fabrik and solve_dls report: ``reached``, ``status`` and the stall rule.

``IKSolution.status`` is the first that applies of "reached" (error <=
tolerance), "out of reach" (target past the chain's reach plus the tolerance),
"stalled" (the error stopped improving before the budget ran out) and
"iterations" (the budget ran out while it still improved). The stall rule:
every 8 sweeps the error must have dropped by more than 1e-9 times the chain's
total length, else the solver stops (docstring of IKSolution); CCD and FABRIK on
a limited chain short of a target within its length first restart up to
RESTARTS times (test_restarts.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from .solver_cases import assert_reported, chains

from ikplayground.solvers import RESTARTS, IKSolution, fabrik_steps, solve_ccd, solve_dls, solve_fabrik

PI = math.pi
STALL_SWEEPS = 8  # the rule as documented (IKSolution), written out here on purpose
STALL_GAIN = 1e-9
IK_SOLVERS = [pytest.param(solve_ccd, id="ccd"), pytest.param(solve_fabrik, id="fabrik"),
              pytest.param(solve_dls, id="dls")]

CHAIN = dict(root=(100.0, 200.0), angles=[0.3, -0.5, 0.8, -0.2], lengths=[40.0, 30.0, 20.0, 10.0])
STIFF = [[-PI, PI], [-0.2, 0.2], [-0.2, 0.2], [-0.2, 0.2]]  # joints 1..3 barely bend


def test_the_original_three_fields_keep_their_places():
    # (fields are only ever added at the end: heading_error came after status)
    assert IKSolution._fields == ("angles", "error", "iterations", "reached", "status", "heading_error")
    sol = solve_ccd(**CHAIN, target=(150.0, 230.0))
    angles, error, iterations = sol[:3]
    assert (angles is sol.angles, error, iterations) == (True, sol.error, sol.iterations)
    built = IKSolution(np.zeros(2), 1.5, 3)  # by hand, the old way
    assert (built.reached, built.status, built.heading_error) == (False, "", 0.0)


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize(
    "target, iterations, limits, status",
    [
        pytest.param((150.0, 230.0), 50, None, "reached", id="reached"),
        pytest.param((400.0, 320.0), 50, None, "out of reach", id="out-of-reach"),
        # (CCD and FABRIK restart a held chain up to RESTARTS times before a stall ends it: a budget to spare)
        pytest.param((130.0, 200.0), 1000, STIFF, "stalled", id="pinned-by-limits"),
        pytest.param((70.0, 160.0), 1, None, "iterations", id="budget-of-one"),
    ],
)
def test_status_says_why_the_solver_stopped(solver, target, iterations, limits, status):
    sol = solver(**CHAIN, target=target, iterations=iterations, tolerance=0.5, limits=limits)
    assert sol.status == status
    assert sol.reached is (status == "reached")
    if status == "iterations":
        assert sol.iterations == iterations


def test_a_pinned_chain_stalls_at_the_first_check():
    # joint 1 is held straight and joint 0 already points at the target: nothing can move. CCD and DLS
    # stop at the first checkpoint, FABRIK after its third pass (the second in a row to gain nothing: the hopeless rule)
    for solver, most in ((solve_ccd, STALL_SWEEPS), (solve_fabrik, 3), (solve_dls, STALL_SWEEPS)):
        sol = solver((0.0, 0.0), [0.0, 0.0], [50.0, 50.0], (30.0, 0.0), iterations=1000,
                     limits=[[-PI, PI], [0.0, 0.0]])
        assert (sol.status, sol.iterations, sol.error) == ("stalled", most, 70.0)


# Most sweeps, passes or steps a pinned chain runs. CCD and FABRIK get to the pose the
# limits allow and stall there, then restart up to RESTARTS times, each restart stopped
# by the next check but one (measured: both stall after 48 here: 8 + 4 x 8 + 8).
# DLS comes to it step by step (the error's gap shrinks about twofold a step); once its
# steps are next to nothing (36 steps) its escape folds joint 2 the other way, a better
# pose (68.01 px off, not 69.52), and it comes to that one too (measured: it stalls after
# 72 steps).
RESTARTED_MOST = (RESTARTS + 2) * 2 * STALL_SWEEPS
PINNED_MOST = {solve_ccd: RESTARTED_MOST, solve_fabrik: RESTARTED_MOST, solve_dls: 10 * STALL_SWEEPS}


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize(
    "target, limits, tolerance, statuses, most",
    [
        pytest.param((400.0, 320.0), None, 0.5, {"out of reach"}, 100, id="unreachable"),
        pytest.param((400.0, 320.0), STIFF, 0.5, {"out of reach"}, 100, id="unreachable-limited"),
        pytest.param((130.0, 200.0), STIFF, 0.5, {"stalled"}, PINNED_MOST, id="pinned-by-limits"),
        pytest.param((150.0, 230.0), None, 0.0, {"reached", "stalled"}, 100, id="exact-tolerance"),
    ],
)
def test_a_huge_budget_returns_once_the_error_stops_improving(solver, target, limits, tolerance, statuses, most):
    sol = solver(**CHAIN, target=target, iterations=10**9, tolerance=tolerance, limits=limits)
    assert sol.status in statuses
    assert sol.iterations <= (most[solver] if isinstance(most, dict) else most)


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(st.sampled_from([solve_ccd, solve_fabrik, solve_dls]), chains(), st.integers(1, 300), st.floats(0.0, 2.0))
def test_stalled_means_the_last_sweeps_gained_next_to_nothing(solver, chain, iterations, tolerance):
    """The rule, checked from outside: a stalled solve gained at most the allowance over its last 8 sweeps
    (the solvers are deterministic, so a smaller budget replays the same sweeps)."""
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    sol = solver(*args, iterations=iterations, tolerance=tolerance, limits=chain.limits)
    assert_reported(sol, chain, iterations, tolerance)
    event(sol.status)
    if sol.status == "stalled" and sol.iterations > STALL_SWEEPS:
        if solver is solve_fabrik:
            errors = fabrik_pass_errors(args, iterations, tolerance, chain.limits)
            if hopeless(errors, sol.iterations, iterations, tolerance, chain.reach):
                return
        assert sol.iterations % STALL_SWEEPS == 0
        earlier = solver(*args, iterations=sol.iterations - STALL_SWEEPS, tolerance=tolerance, limits=chain.limits)
        assert earlier.error - sol.error <= STALL_GAIN * chain.reach


def fabrik_pass_errors(args, iterations, tolerance, limits) -> list:
    """The tip's error (px) after each FABRIK pass since the start (None: not recorded) or the last restart."""
    errors: list = [None]
    steps = fabrik_steps(*args, iterations=iterations, tolerance=tolerance, limits=limits)
    target = args[3]
    while True:
        try:
            step = next(steps)
        except StopIteration:
            return errors
        if step.direction == "restart":
            errors = [math.dist(step.points[-1], target)]
        elif step.direction in ("backward", "straight"):
            errors.append(math.dist(step.points[-1], target))


def hopeless(errors, used, iterations, tolerance, reach) -> bool:
    """FABRIK's hopeless rule, written out: from the third pass, the last pass gained no more than the one before
    (to rounding) and at its gain the passes left cannot reach the tolerance."""
    if len(errors) < 4:
        return False
    e0, e1, e2 = errors[-3:]
    gain = e1 - e2
    return (e0 is None or gain <= e0 - e1 + 1e-9 * reach) and e2 - tolerance > gain * (iterations - used) - 1e-9
