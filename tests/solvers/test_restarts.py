"""CCD's, FABRIK's and the Jacobian family's restarts: a limited chain stuck short of a target within its length
starts again.

The promise (``ikplayground/solvers/reshape.py``, docs/design.md): at a stall
checkpoint (every 8 sweeps or passes), a chain with some joint range short of
the full circle (and some joint after the root free to take more than one
angle) whose error did not drop by 30% since the last checkpoint, short of a
target nearer the root than the chain's length, takes a pose drawn inside its
limits, its end turned onto the root-target line, up to ``RESTARTS`` times a
solve and never with the budget spent; the answer is never worse than a pose it
left for a restart. Free chains and targets at or past the chain's length never
restart. The draws are deterministic (seeded by the lengths): the same call
gives the same answer.

Restarts are counted with a spy on the solver module's ``restart_pose``.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from .solver_cases import PI, assert_within_limits, chains, coordinate_scale, reference_fk

from functools import partial

from ikplayground.solvers import (RESTARTS, STALL_SWEEPS, ccd, ccd_steps, fabrik, fabrik_steps, jacobian_loop,
                                  solve_ccd, solve_dls, solve_fabrik, solve_jacobian)

FAST = settings(deadline=None, max_examples=150)
SOLVERS = [(solve_ccd, ccd), (solve_fabrik, fabrik), (solve_dls, jacobian_loop),
           (partial(solve_jacobian, method="sdls"), jacobian_loop)]
each_solver = pytest.mark.parametrize("solve, module", SOLVERS, ids=["ccd", "fabrik", "dls", "sdls"])


@contextmanager
def restarts(module):
    """Every pose (rad) a solve of ``module`` left for a restart inside the block, and the drawn pose after it."""
    left, drawn = [], []
    real = module.restart_pose

    def spy(a, *args):
        left.append(list(a))
        state = real(a, *args)
        drawn.append(list(a))
        return state

    with patch.object(module, "restart_pose", spy):
        yield left, drawn


def restartable(limits) -> bool:
    """The documented condition on the ranges (written out here)."""
    if limits is None:
        return False
    lo, hi = np.asarray(limits, dtype=float).T
    return bool(np.any(hi - lo < 2 * PI - 1e-9) and np.any(hi[1:] > lo[1:]))


@pytest.mark.slow
@each_solver
@FAST
@given(chains(limited=True), st.integers(1, 200), st.floats(0.0, 2.0))
def test_restarts_are_few_and_the_answer_is_never_worse_than_a_pose_left(solve, module, chain, iterations,
                                                                         tolerance):
    with restarts(module) as (left, drawn):
        sol = solve(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations, tolerance=tolerance,
                    limits=chain.limits)
    within = math.hypot(*(chain.target - chain.root)) < chain.reach
    if not (within and restartable(chain.limits)):
        assert left == []
    assert len(left) <= RESTARTS
    assert len(left) <= iterations // STALL_SWEEPS
    assert_within_limits(sol.angles, chain.limits)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    for pose in left:
        before = math.hypot(*(chain.target - reference_fk(chain.root, pose, chain.lengths)[-1]))
        assert sol.error <= before + 1e-9 * scale
    for pose in drawn:  # (the spy sees the heading before it is clamped: the others are inside their ranges)
        assert np.all((chain.limits[1:, 0] <= pose[1:]) & (np.array(pose[1:]) <= chain.limits[1:, 1]))
    event(f"{len(left)} restarts")


@pytest.mark.slow
@each_solver
@FAST
@given(chains(limited=False), st.integers(1, 200), st.booleans())
def test_a_chain_no_limit_holds_never_restarts(solve, module, chain, iterations, full_circles):
    limits = np.tile([-PI, PI], (len(chain.lengths), 1)) if full_circles else None
    with restarts(module) as (left, _):
        solve(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations, tolerance=0.0,
              limits=limits)
    assert left == []


@each_solver
def test_a_chain_whose_joints_after_the_root_are_pinned_never_restarts(solve, module):
    # joint 1 held straight and joint 0 already pointing at the target: every draw would be the same pose
    with restarts(module) as (left, _):
        sol = solve((0.0, 0.0), [0.0, 0.0], [50.0, 50.0], (30.0, 0.0), iterations=1000,
                    limits=[[-PI, PI], [0.0, 0.0]])
    # (FABRIK stops after its third pass, the second in a row to gain nothing: the hopeless rule)
    assert left == [] and (sol.status, sol.iterations) == ("stalled", 3 if solve is solve_fabrik else STALL_SWEEPS)


def knee(module=ccd):
    """A straight chain of five bones whose joints bend one way only (knee-like), and a target a pose inside
    the limits reaches (found among seeded draws: CCD and FABRIK both stall short of it from straight; for the
    Jacobian family's ``module``, DLS and SDLS do, short of another)."""
    lengths = np.array([44.0, 41.0, 59.0, 58.0, 53.0])
    limits = np.array([[-PI, PI]] + [[0.0, 2.4]] * 4)
    goal = np.array([0.5, 1.1, 1.9, 0.1, 1.7] if module is jacobian_loop else [-0.9, 2.0, 2.3, 0.1, 0.3])
    return np.array([300.0, 200.0]), np.zeros(5), lengths, reference_fk((300.0, 200.0), goal, lengths)[-1], limits


@each_solver
def test_a_knee_chain_stuck_straight_reaches_after_a_restart(solve, module):
    root, start, lengths, target, limits = knee(module)
    with patch.object(module, "RESTARTS", 0):
        stuck = solve(root, start, lengths, target, iterations=100, limits=limits)
    with restarts(module) as (left, drawn):
        sol = solve(root, start, lengths, target, iterations=100, limits=limits)
    assert not stuck.reached
    assert sol.reached and 1 <= len(left) <= RESTARTS
    again = solve(root, start, lengths, target, iterations=100, limits=limits)
    np.testing.assert_array_equal(again.angles, sol.angles)  # the draws are the same each time
    assert again.iterations == sol.iterations


@each_solver
def test_a_restart_aims_the_drawn_pose_at_the_target(solve, module):
    root, start, lengths, target, limits = knee(module)
    with restarts(module) as (_, drawn):
        solve(root, start, lengths, target, iterations=100, limits=limits)
    pose = np.array(drawn[0])
    end = reference_fk(root, pose, lengths)[-1] - root
    u = (target - root) / math.hypot(*(target - root))
    assert abs(end[0] * u[1] - end[1] * u[0]) <= 1e-9 * math.hypot(*end)  # on the root-target line
    assert end @ u > 0.0


@pytest.mark.parametrize("steps, module", [(ccd_steps, ccd), (fabrik_steps, fabrik)], ids=["ccd", "fabrik"])
def test_the_step_generators_show_each_restart(steps, module):
    root, start, lengths, target, limits = knee()
    with restarts(module) as (left, _):
        gen = steps(root, start, lengths, target, iterations=100, limits=limits)
        records = []
        while True:
            try:
                records.append(next(gen))
            except StopIteration:
                break
    kinds = [getattr(r, "event", None) or r.direction for r in records]
    assert kinds.count("restart") == len(left) >= 1
    for r in records:
        if "restart" in (getattr(r, "event", ""), getattr(r, "direction", "")):
            assert_within_limits(r.angles, limits)
            np.testing.assert_allclose(reference_fk(root, r.angles, lengths)[-1],
                                       r.effector_after if hasattr(r, "effector_after") else r.points[-1],
                                       atol=1e-9)
