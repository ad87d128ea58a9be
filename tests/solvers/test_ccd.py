"""Properties of solve_ccd (Cyclic Coordinate Descent, the pygame CCD tutorial).

What CCD promises along with every iterative solver (pose invariants, limits,
tolerance, reach and stretch rates) is in test_iterative.py; here is only what
is CCD's own.
"""

from __future__ import annotations

import pytest

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from .solver_cases import (PI, TAU, angle_gap, assert_within_limits, assert_wrapped, chains, coordinate_scale,
                           reference_fk)
from .test_iterative import clamp_start

from ikplayground.solvers import solve_ccd

FAST = settings(deadline=None, max_examples=150)


@pytest.mark.slow
@FAST
@given(chains(), st.integers(1, 10))
def test_error_never_exceeds_the_starting_error(chain, iterations):
    # Each CCD step turns one joint toward the target (partly, when clamped), which
    # cannot move the end effector away from it.
    start = clamp_start(chain.angles, chain.limits)
    start_error = math.hypot(*(chain.target - reference_fk(chain.root, start, chain.lengths)[-1]))
    sol = solve_ccd(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations, limits=chain.limits)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    assert sol.error <= start_error + 1e-9 * scale


def reference_ccd_sweep(root, angles, lengths, target):
    """One tip-to-root CCD sweep without limits, recomputing positions each step.

    Returns the new angles and how well-conditioned the sweep was: the smallest
    distance from a pivot to the end effector or the target (where the turn is
    decided), and the largest |turn| (a turn of +-pi is a coin toss).
    """
    a = np.array(angles, dtype=float)
    nearest, widest = math.inf, 0.0
    for i in range(len(a) - 1, -1, -1):
        pts = reference_fk(root, a, lengths)
        pivot, end = pts[i], pts[-1]
        nearest = min(nearest, math.hypot(*(target - pivot)), math.hypot(*(end - pivot)))
        want = math.atan2(target[1] - pivot[1], target[0] - pivot[0])
        have = math.atan2(end[1] - pivot[1], end[0] - pivot[0])
        delta = math.remainder(want - have, TAU)
        widest = max(widest, abs(delta))
        a[i] += delta
    return a, nearest, widest


@pytest.mark.slow
@FAST
@given(chains(limited=False))
def test_one_sweep_matches_a_reference_sweep(chain):
    ref, nearest, widest = reference_ccd_sweep(chain.root, chain.angles, chain.lengths, chain.target)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    assume(nearest > 1e-3 * scale and widest < PI - 1e-6)
    start_end = reference_fk(chain.root, chain.angles, chain.lengths)[-1]
    assume(math.hypot(*(chain.target - start_end)) > 0.0)  # else no sweep at all
    sol = solve_ccd(chain.root, chain.angles, chain.lengths, chain.target, iterations=1, tolerance=0.0)
    assert sol.iterations == 1
    got = reference_fk(chain.root, sol.angles, chain.lengths)
    want = reference_fk(chain.root, ref, chain.lengths)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6 * scale)


# ----------------------------------------------------------------------------
# Unreachable targets
# ----------------------------------------------------------------------------


def test_unreachable_target_straight_ahead_leaves_a_straight_chain_alone():
    # Already stretched toward the target (straight down the screen, +y): every
    # CCD turn is zero, the chain stays as it is.
    lengths = [30.0, 20.0, 10.0]
    sol = solve_ccd((100.0, 100.0), [PI / 2, 0.0, 0.0], lengths, (100.0, 400.0), iterations=3)
    assert sol.iterations == 3
    assert angle_gap(sol.angles[0], PI / 2) < 1e-12
    assert angle_gap(sol.angles[1], 0.0) < 1e-12
    assert angle_gap(sol.angles[2], 0.0) < 1e-12
    assert math.isclose(sol.error, 300.0 - 60.0, rel_tol=1e-12)


# ----------------------------------------------------------------------------
# Joint limits at the +-pi seam
# ----------------------------------------------------------------------------


def test_clamping_at_a_minus_pi_bound_stays_inside_the_limits():
    # limits (-pi, 0): a joint turning clockwise past -pi stops at the bound. The
    # bound is -pi itself (pi, the wrapped spelling of the same angle, is outside
    # (-pi, 0) numerically), so the solver returns -pi here.
    target = (10.0 * math.cos(-3.5), 10.0 * math.sin(-3.5))
    sol = solve_ccd((0.0, 0.0), [-3.0], [10.0], target, limits=[[-PI, 0.0]])
    assert_within_limits(sol.angles, [[-PI, 0.0]])
    assert_wrapped(sol.angles, [[-PI, 0.0]])
    assert angle_gap(sol.angles[0], PI) < 1e-12  # it did turn to the seam
