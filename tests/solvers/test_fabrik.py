"""Properties of solve_fabrik (Aristidou & Lasenby 2011, with joint limits).

What FABRIK promises along with every iterative solver (pose invariants, limits,
tolerance, reach and stretch rates) is in test_iterative.py; here is only what
is FABRIK's own: the single straight pass toward a target out of reach, and the
stall escape of a chain its limits hold (mirror the bend, at most
STALL_ESCAPES times, never ending worse than a pose an escape left). How often
it reaches limited chains is in test_limited_convergence.py.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from typing import NamedTuple
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from .solver_cases import PI, angle_gap, assert_within_limits, chains, coordinate_scale, reference_fk

from ikplayground.solvers import fabrik, solve_fabrik
from ikplayground.solvers import RESTARTS as STALL_ESCAPES

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
# Joint limits: the stall escape (module docstring of ikplayground.solvers.fabrik)
# ----------------------------------------------------------------------------


class Mirror(NamedTuple):
    before: list  # the relative angles the escape found (radians)
    changed: bool  # False: the mirror was the same pose, so no escape was taken


@contextmanager
def mirrors():
    """Record every stall escape FABRIK tries inside the block (as :class:`Mirror` rows)."""
    calls = []
    real = fabrik.mirror_bend

    def spy(a, lim):
        before = list(a)
        changed = real(a, lim)
        calls.append(Mirror(before, changed))
        return changed

    with patch.object(fabrik, "mirror_bend", spy):
        yield calls


def held(limits) -> bool:
    """Does some joint's range fall short of the whole circle?"""
    return limits is not None and bool(np.any(limits[:, 1] - limits[:, 0] < 2 * PI - 1e-9))


@pytest.mark.slow
@FAST
@given(chains(limited=True), st.integers(1, 200), st.floats(0.0, 2.0))
def test_a_stall_mirrors_the_bend_at_most_three_times_before_it_ends_the_solve(chain, iterations, tolerance):
    with mirrors() as calls:
        sol = solve_fabrik(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                           tolerance=tolerance, limits=chain.limits)
    taken = [m for m in calls if m.changed]
    assert len(taken) <= STALL_ESCAPES
    assert all(m.changed for m in calls[:-1])  # a mirror that changes nothing ends the solve
    reachable = math.hypot(*(chain.target - chain.root)) < chain.reach
    if not (reachable and held(chain.limits)):
        assert calls == []
    elif sol.status == "stalled" and sol.iterations < iterations:
        assert len(taken) == STALL_ESCAPES or not calls[-1].changed
    if taken:
        event("escaped")
    # the answer is never worse than a pose an escape left behind
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    for m in taken:
        left = math.hypot(*(chain.target - reference_fk(chain.root, m.before, chain.lengths)[-1]))
        assert sol.error <= left + 1e-9 * scale


@pytest.mark.slow
@FAST
@given(chains(limited=False), st.integers(1, 200), st.booleans())
def test_a_chain_no_limit_holds_never_mirrors(chain, iterations, full_circles):
    limits = np.tile([-PI, PI], (len(chain.lengths), 1)) if full_circles else None
    with mirrors() as calls:
        solve_fabrik(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                     tolerance=0.0, limits=limits)
    assert calls == []


def test_a_mirror_keeps_inside_lopsided_limits():
    # joint 1 may bend 0.1 one way and 0.8 the other: the mirror of 0.8 is clamped to -0.1
    limits = np.array([[-PI, PI], [-0.1, 0.8], [-0.5, 0.5]])
    a = [0.2, 0.8, 0.3]
    assert fabrik.mirror_bend(a, limits.tolist()) is True
    assert a == [0.2, -0.1, -0.3]
    straight = [0.4, 0.0, 0.0]
    assert fabrik.mirror_bend(straight, limits.tolist()) is False


def test_a_held_chain_solved_again_and_again_keeps_its_bend():
    """Each 10-pass solve stalls at pass 8 and mirrors; the two passes left do not get back to where it
    was, so the solve answers with the pose before the mirror: the scene, which starts every step from the
    last answer, never sees the chain flip back and forth."""
    limits = [[-PI, PI], [-0.2, 0.2], [-0.2, 0.2], [-0.2, 0.2]]  # joints 1..3 barely bend
    angles = [0.3, -0.2, -0.2, -0.2]
    for _ in range(12):
        with mirrors() as calls:
            sol = solve_fabrik((100.0, 200.0), angles, [40.0, 30.0, 20.0, 10.0], (130.0, 200.0), iterations=10,
                               limits=limits)
        assert [m.changed for m in calls] == [True]
        assert np.all(sol.angles[1:] == -0.2)
        angles = sol.angles
