"""The step-through generators ccd_steps and fabrik_steps.

Run to the end they must give exactly (bitwise) what solve_ccd and solve_fabrik
give, and each record must tell the truth about the move it reports: CCD turns
one joint about a pivot that stays put (the pygame CCD tutorial), FABRIK's
forward walk ends on the target and its backward walk starts at the root
(Aristidou & Lasenby 2011).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .solver_cases import (PI, Chain, angle_gap, assert_lengths_kept, assert_within_limits, chains, coordinate_scale,
                           random_reachable_chain, random_unreachable_chain, reference_fk)

from ikplayground.solvers import CCDStep, FabrikStep, ccd_steps, fabrik_steps, solve_ccd, solve_fabrik
from ikplayground.solvers import DIRECTIONS

FAST = settings(deadline=None, max_examples=60)
PAIRS = [(solve_ccd, ccd_steps), (solve_fabrik, fabrik_steps)]
each_pair = pytest.mark.parametrize("solve, steps", PAIRS, ids=["ccd", "fabrik"])
budgets = st.sampled_from([1, 2, 5, 10, 40])
tolerances = st.sampled_from([0.0, 0.5, 3.0])


def run(gen):
    """Every record of a step generator, and its return value."""
    records = []
    while True:
        try:
            records.append(next(gen))
        except StopIteration as stop:
            return records, stop.value


def assert_same_solution(got, want) -> None:
    assert np.array_equal(got.angles, want.angles), (got.angles, want.angles)
    assert got.error == want.error
    assert got.iterations == want.iterations
    assert got.reached == want.reached
    assert got.status == want.status


def solve_both(solve, steps, chain, **kw):
    want = solve(chain.root, chain.angles, chain.lengths, chain.target, limits=chain.limits, **kw)
    records, got = run(steps(chain.root, chain.angles, chain.lengths, chain.target, limits=chain.limits, **kw))
    return records, got, want


def assert_run_is_exact(records, got, want) -> None:
    """The return value is the solver's answer, and so are the last record's angles."""
    assert_same_solution(got, want)
    with_angles = [r for r in records if r.angles is not None]
    if want.iterations == 0:
        assert records == []
    else:
        assert np.array_equal(with_angles[-1].angles, want.angles)
        assert records[-1].angles is not None


# ----------------------------------------------------------------------------
# The same answer as the solvers, bit for bit
# ----------------------------------------------------------------------------


@pytest.mark.slow
@each_pair
@FAST
@given(chains(min_bones=1, max_bones=10), budgets, tolerances)
def test_a_run_to_the_end_is_the_solver(solve, steps, chain, iterations, tolerance):
    assert_run_is_exact(*solve_both(solve, steps, chain, iterations=iterations, tolerance=tolerance))


@pytest.mark.slow
@each_pair
@pytest.mark.parametrize("limited", [False, True])
def test_seeded_reachable_chains_many_passes(solve, steps, limited):
    rng = np.random.default_rng(2011)
    for _ in range(40):
        chain = random_reachable_chain(rng, limited)
        for iterations in (1, 200):
            assert_run_is_exact(*solve_both(solve, steps, chain, iterations=iterations, tolerance=0.01))


@each_pair
def test_seeded_unreachable_chains(solve, steps):
    rng = np.random.default_rng(7)
    for _ in range(40):
        chain = random_unreachable_chain(rng)
        records, got, want = solve_both(solve, steps, chain, iterations=50)
        assert_run_is_exact(records, got, want)
        assert got.status == "out of reach"


@each_pair
@pytest.mark.parametrize("limited", [False, True])
def test_target_at_the_root(solve, steps, limited):
    rng = np.random.default_rng(3)
    for _ in range(20):
        chain = random_reachable_chain(rng, limited)
        chain = chain._replace(target=chain.root.copy())
        assert_run_is_exact(*solve_both(solve, steps, chain, iterations=30))


@each_pair
def test_restarts_are_records_and_still_exact(solve, steps):
    # limited chains that stall: each restart and the return to the best pose must be visible, and the run
    # still the solver's
    rng = np.random.default_rng(5)
    seen = set()
    # a chain its limits hold short of its target (restarts that do no better), then seeded limited chains
    held = Chain(np.array([100.0, 200.0]), np.array([0.3, -0.2, -0.2, -0.2]), np.array([40.0, 30.0, 20.0, 10.0]),
                 np.array([130.0, 200.0]), np.array([[-PI, PI], [-0.2, 0.2], [-0.2, 0.2], [-0.2, 0.2]]))
    for k in range(400):
        chain = held if k < 30 else random_reachable_chain(rng, True)
        records, got, want = solve_both(solve, steps, chain, iterations=9 + k if k < 30 else 200)
        assert_run_is_exact(records, got, want)
        for k, r in enumerate(records):
            kind = r.event if isinstance(r, CCDStep) else r.direction
            if kind == "restart" and k + 1 == len(records):  # the pose drawn is on the target
                assert got.reached and np.array_equal(got.angles, r.angles)
            elif kind == "restart":
                after = records[k + 1]
                assert (after.event, after.sweep) == ("turn", r.sweep) if isinstance(r, CCDStep) else \
                    (after.direction, after.iteration) == ("forward", r.iteration)
                np.testing.assert_allclose(reference_fk(chain.root, r.angles, chain.lengths)[-1],
                                           r.effector_after if isinstance(r, CCDStep) else r.points[-1], atol=1e-9)
            if kind == "best":
                assert k == len(records) - 1
                assert (r.sweep if isinstance(r, CCDStep) else r.iteration) == got.iterations
            seen.add(kind)
        if {"restart", "best"} <= seen:
            break
    assert {"restart", "best"} <= seen


def test_fabrik_unreachable_is_one_straight_pass():
    records, got = run(fabrik_steps((0, 0), [0.3, -0.2, 0.1], [50, 40, 30], (400, 300)))
    assert [r.direction for r in records] == ["straight", "backward"]
    assert records[0].angles is None and got.iterations == 1
    u = np.array((0.8, 0.6))
    np.testing.assert_allclose(records[0].points, np.outer([0, 50, 90, 120], u), atol=1e-12)


# ----------------------------------------------------------------------------
# CCD records
# ----------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(chains(min_bones=1, max_bones=10), budgets)
def test_ccd_records_tell_the_turns(chain, iterations):
    everything, got = run(ccd_steps(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                                    limits=chain.limits))
    # the turns (the restarts and the return to the best pose, joint -1, are test_restarts_are_records_...'s)
    records = [r for r in everything if r.event == "turn"]
    assert all(r.joint == -1 and r.turn == 0.0 for r in everything if r.event != "turn")
    after_other = {id(b) for a, b in zip(everything, everything[1:]) if a.event != "turn"}
    n = len(chain.lengths)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    assert len(records) == n * got.iterations
    assert [r.sweep for r in records] == [1 + k // n for k in range(len(records))]
    assert [r.joint for r in records] == [n - 1 - k % n for k in range(len(records))]
    for k, r in enumerate(records):
        assert isinstance(r, CCDStep) and r.angles.shape == (n,)
        points = reference_fk(chain.root, r.angles, chain.lengths)
        np.testing.assert_allclose(r.effector_after, points[-1], rtol=0, atol=1e-9 * scale)
        np.testing.assert_allclose(r.pivot, points[r.joint], rtol=0, atol=1e-9 * scale)
        assert -PI < r.turn <= PI
        if chain.limits is not None:
            assert_within_limits(r.angles, chain.limits)
        if k and id(r) not in after_other:  # (not just after a restart)
            prev = records[k - 1]
            others = np.arange(n) != r.joint
            assert np.array_equal(r.angles[others], prev.angles[others])  # one joint a record
            assert angle_gap(r.turn, r.angles[r.joint] - prev.angles[r.joint]) <= 1e-12
            if r.sweep == prev.sweep:
                assert np.array_equal(r.effector_before, prev.effector_after)
        # the turn is the angle the effector swept about the pivot
        v0, v1 = r.effector_before - r.pivot, r.effector_after - r.pivot
        if min(np.hypot(*v0), np.hypot(*v1)) > 1e-6 * scale:
            swept = math.atan2(v0[0] * v1[1] - v0[1] * v1[0], v0 @ v1)
            assert angle_gap(swept, r.turn) <= 1e-6
        else:
            assert r.turn == 0.0 or np.allclose(r.effector_before, r.effector_after, atol=1e-6 * scale)


def test_ccd_first_record_by_hand():
    # two bones of 100 px straight along +x, target straight down from the elbow: the tip
    # joint turns +90 degrees (clockwise on screen, y down)
    records, _ = run(ccd_steps((0, 0), [0.0, 0.0], [100, 100], (100, 100), iterations=1))
    first = records[0]
    assert (first.sweep, first.joint) == (1, 1)
    np.testing.assert_allclose(first.pivot, (100, 0))
    np.testing.assert_allclose(first.effector_before, (200, 0))
    np.testing.assert_allclose(first.effector_after, (100, 100), atol=1e-12)
    assert first.turn == pytest.approx(PI / 2)
    np.testing.assert_allclose(first.angles, (0, PI / 2))
    assert len(records) == 2 and records[1].joint == 0


# ----------------------------------------------------------------------------
# FABRIK records
# ----------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(chains(min_bones=1, max_bones=10), budgets)
def test_fabrik_records_tell_the_walks(chain, iterations):
    records, got = run(fabrik_steps(chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                                    limits=chain.limits))
    n = len(chain.lengths)
    scale = coordinate_scale(chain.root, chain.target, chain.reach)
    reachable = math.dist(chain.root, chain.target) < chain.reach
    for r in records:
        assert isinstance(r, FabrikStep) and r.direction in DIRECTIONS
        assert r.points.shape == (n + 1, 2)
        assert (r.angles is None) == (r.direction in ("forward", "straight"))
        if r.direction == "forward":
            assert reachable and np.array_equal(r.points[-1], chain.target)
        if r.direction == "straight":
            assert not reachable
        if r.angles is not None:
            assert np.array_equal(r.points[0], chain.root)
            np.testing.assert_allclose(reference_fk(chain.root, r.angles, chain.lengths), r.points, rtol=0,
                                       atol=1e-9 * scale)
            if chain.limits is not None:
                assert_within_limits(r.angles, chain.limits)
        if r.direction != "straight":
            assert_lengths_kept(r.points, chain.lengths, rel=1e-7)
    # each pass: [restart], forward or straight, backward; a final best; passes counted from 1
    walks = [r for r in records if r.direction not in ("restart", "best")]
    assert len(walks) == 2 * got.iterations
    for k in range(got.iterations):
        first, second = walks[2 * k], walks[2 * k + 1]
        assert first.direction in ("forward", "straight") and second.direction == "backward"
        assert first.iteration == second.iteration == k + 1


def test_fabrik_first_pass_by_hand():
    # one bone: forward puts the tip on the target and pulls the root after it; backward
    # re-anchors at the root, pointing at the target
    records, got = run(fabrik_steps((0, 0), [0.0], [10], (0, 5), iterations=1))
    assert [r.direction for r in records] == ["forward", "backward"]
    np.testing.assert_allclose(records[0].points, [(0, -5), (0, 5)], atol=1e-12)
    np.testing.assert_allclose(records[1].points, [(0, 0), (0, 10)], atol=1e-12)
    assert records[1].angles[0] == pytest.approx(PI / 2)
    assert got.angles[0] == records[1].angles[0]


# ----------------------------------------------------------------------------
# Bad input: the solvers' own errors
# ----------------------------------------------------------------------------

GOOD = dict(root=(0, 0), angles=[0.0, 0.0], lengths=[10, 10], target=(5, 5))
BAD = [
    dict(root=(0, math.nan)),
    dict(target=(1, 2, 3)),
    dict(angles=[0.0]),
    dict(lengths=[10, -1]),
    dict(lengths=[True, 10]),
    dict(limits=[[1, -1], [0, 0]]),
    dict(iterations=0),
    dict(tolerance=-1),
]


@each_pair
@pytest.mark.parametrize("change", BAD, ids=lambda c: next(iter(c)))
def test_bad_input_raises_like_the_solver(solve, steps, change):
    args = {**GOOD, **change}
    pos = [args.pop(k) for k in ("root", "angles", "lengths", "target")]
    with pytest.raises(ValueError) as ref:
        solve(*pos, **args)
    gen = steps(*pos, **args)
    with pytest.raises(ValueError, match=f"^{re.escape(str(ref.value))}$"):
        next(gen)
