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
from .solver_cases import PI, angle_gap, assert_within_limits, chains, coordinate_scale

from ikplayground.solvers import solve_fabrik

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
