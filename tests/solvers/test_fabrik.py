"""Properties of solve_fabrik (Aristidou & Lasenby 2011, with joint limits).

What FABRIK promises along with every iterative solver (pose invariants, limits,
tolerance, reach and stretch rates) is in test_iterative.py; here is only what
is FABRIK's own: the single straight pass toward a target out of reach, and a
chain its limits hold keeping its bend. The restarts of a limited chain stuck
short of its target (CCD's too) are in test_restarts.py; how often it reaches
limited chains in test_limited_convergence.py and test_one_sided_limits.py.
"""

from __future__ import annotations

import math
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from .solver_cases import PI, angle_gap, assert_within_limits, chains, coordinate_scale, reference_fk

from ikplayground.solvers import fabrik_steps, solve_fabrik

FAST = settings(deadline=None, max_examples=150)


def test_limits_hold_for_an_unreachable_target():
    # Straight toward the target would need joint 1 at 0, outside (0.5, 1.0).
    limits = np.array([[-PI, PI], [0.5, 1.0]])
    sol = solve_fabrik((0.0, 0.0), [0.0, 0.7], [40.0, 40.0], (500.0, 0.0), limits=limits)
    assert_within_limits(sol.angles, limits)
    assert sol.angles[1] == pytest.approx(0.5, abs=1e-12)


# ----------------------------------------------------------------------------
# Unreachable targets
# ----------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(chains(limited=False), st.floats(0.0, 5.0), st.floats(-PI, PI), st.integers(1, 20))
def test_unreachable_target_gives_a_straight_chain_pointing_at_it(chain, beyond, direction, iterations):
    # (1e-9 relative clear of the reach, so that no way of summing the lengths
    # puts the target back inside; the exact edge has its own test below)
    u = np.array([math.cos(direction), math.sin(direction)])
    target = chain.root + (chain.reach * (1 + 1e-9) + beyond) * u
    dist = math.hypot(*(target - chain.root))
    sol = solve_fabrik(chain.root, chain.angles, chain.lengths, target, iterations=iterations, tolerance=0.0)
    scale = coordinate_scale(chain.root, target, chain.reach)
    # straight: every relative angle after the first is zero ...
    for a in sol.angles[1:]:
        assert angle_gap(a, 0.0) < 1e-9
    # ... and the first bone points at the target
    assert angle_gap(sol.angles[0], math.atan2(*(target - chain.root)[::-1])) < 1e-9
    assert math.isclose(sol.error, dist - chain.reach, rel_tol=1e-9, abs_tol=1e-9 * scale)


def test_target_exactly_at_full_reach_is_reached():
    sol = solve_fabrik((10.0, 20.0), [1.0, -2.0, 0.5], [30.0, 40.0, 50.0], (10.0, 140.0), iterations=1, tolerance=0.0)
    assert sol.error < 1e-9
    assert angle_gap(sol.angles[0], PI / 2) < 1e-12


# ----------------------------------------------------------------------------
# Joint limits: a held chain (the restarts themselves: test_restarts.py)
# ----------------------------------------------------------------------------


def test_a_held_chain_solved_again_and_again_keeps_its_bend():
    """Each 10-pass solve stalls at pass 8 and restarts from a pose drawn on the side it bent to; the two
    passes left do not get back to where it was, so the solve answers with the best pose it saw: the scene,
    which starts every step from the last answer, never sees the chain's bend flip."""
    limits = [[-PI, PI], [-0.2, 0.2], [-0.2, 0.2], [-0.2, 0.2]]  # joints 1..3 barely bend
    angles = [0.3, -0.2, -0.2, -0.2]
    for _ in range(12):
        sol = solve_fabrik((100.0, 200.0), angles, [40.0, 30.0, 20.0, 10.0], (130.0, 200.0), iterations=10,
                           limits=limits)
        assert np.all(sol.angles[1:] == -0.2)
        angles = sol.angles


# ----------------------------------------------------------------------------
# The hopeless rule: a limited chain creeping toward a target it will not reach
# ----------------------------------------------------------------------------

# the stress scene's FABRIK chains: ten bones, joint 0 free and the others within +-45 degrees
STIFF_TEN = [[-PI, PI]] + [[-PI / 4, PI / 4]] * 9
STRAIGHT_DOWN = [-PI / 2] + [0.0] * 9


def pass_errors(root, angles, lengths, target, **kwargs):
    """The tip's error (px) before the first pass and after each pass of a FABRIK solve, and its solution."""
    errors = [math.dist(reference_fk(root, angles, lengths)[-1], target)]
    steps = fabrik_steps(root, angles, lengths, target, **kwargs)
    while True:
        try:
            step = next(steps)
        except StopIteration as done:
            return errors, done.value
        if step.direction == "backward":
            errors.append(math.dist(step.points[-1], target))


@pytest.mark.parametrize("target", [(3.5, -49.9), (-8.0, -44.3), (21.6, 33.7), (-31.4, 38.9)])
def test_a_creeping_chain_stops_at_the_first_pass_its_gain_cannot_finish_the_job(target):
    """From the third pass on, a pass that gains no more than the one before and whose gain, kept up for the
    passes left, cannot bring the error down to the tolerance ends the solve, "stalled" (written out here
    from each pass's error)."""
    errors, sol = pass_errors((0.0, 0.0), STRAIGHT_DOWN, [10.0] * 10, target, iterations=10, tolerance=0.5,
                              limits=STIFF_TEN)

    def hopeless(k):  # after pass k
        gain, before = errors[k - 1] - errors[k], errors[k - 2] - errors[k - 1]
        return k >= 3 and gain <= before and errors[k] - 0.5 > gain * (10 - k)

    assert sol.status == "stalled" and 3 <= sol.iterations < 10 and len(errors) == sol.iterations + 1
    assert hopeless(sol.iterations) and not any(hopeless(k) for k in range(1, sol.iterations))
    assert sol.error == pytest.approx(errors[-1], abs=1e-9)


def test_a_pole_keeps_a_creeping_chain_going():
    """While a pole steps the chain before each pass the gains are not FABRIK's alone: no hopeless stop."""
    sol = solve_fabrik((0.0, 0.0), STRAIGHT_DOWN, [10.0] * 10, (3.5, -49.9), iterations=10, limits=STIFF_TEN)
    poled = solve_fabrik((0.0, 0.0), STRAIGHT_DOWN, [10.0] * 10, (3.5, -49.9), iterations=10, limits=STIFF_TEN,
                         pole=(60.0, -20.0))
    assert sol.iterations < 10  # the premise: without the pole the rule stops it
    assert (poled.iterations, poled.status) == (10, "iterations")
