"""How often ``solve_skeleton`` reaches targets a pose reaches (issue 26's bar: 95% of random trees within
50 iterations, both methods, free and limited), headings, and what it does with targets no pose reaches."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import solve_skeleton

from .skeleton_cases import Skeleton, limit_ranges, reach_rate, reference_pose, trees, weighted_error

FAST = settings(deadline=None, max_examples=60)
METHODS = ("fabrik", "dls")
SEED = 26  # the number: the sample was fixed before it was measured
COUNT = 200


@pytest.mark.slow
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("method", METHODS)
def test_both_methods_reach_95_percent_of_random_trees(method, limited):
    # 200 trees of 6-20 bones, 2-4 targets each taken from one random pose (inside the limits), a random start
    rate = reach_rate(method, limited, SEED, COUNT)
    assert rate >= 0.95, f"{method} reached {rate:.1%} of {COUNT} {'limited' if limited else 'free'} trees"


@pytest.mark.slow
@pytest.mark.parametrize("limited", [False, True], ids=["free", "limited"])
@pytest.mark.parametrize("method", METHODS)
def test_headings_are_reached_with_the_points_as_often(method, limited):
    # as above, the first target also asking for its bone's heading in that pose (within one degree)
    rate = reach_rate(method, limited, SEED + 1, COUNT, headings=1)
    assert rate >= 0.95, f"{method} reached {rate:.1%} of {COUNT} trees with a heading"


def test_a_small_sample_is_reached_in_the_fast_loop():
    # the measurement above on a few trees, so that a break shows in the inner loop too
    for method in METHODS:
        for limited in (False, True):
            assert reach_rate(method, limited, SEED + 2, 12) >= 10 / 12


@FAST
@given(trees(min_bones=1, max_bones=10, shortest=5.0), st.data())
def test_a_heading_that_a_pose_has_is_reached(tree, data):
    # one bone's end and heading taken from a random pose of free joints (bones of 5 px or more): reached
    # within 0.5 px and one degree (the 50-iteration bar is the rate's above; this one is any pose's)
    parents, root, start, lengths = tree
    pose = np.array(data.draw(st.lists(st.floats(-math.pi, math.pi), min_size=len(parents),
                                       max_size=len(parents))))
    bone = data.draw(st.integers(0, len(parents) - 1))
    ends, heading = reference_pose(parents, root, pose, lengths)
    target = (*ends[bone].tolist(), float(heading[bone]))
    for method in METHODS:
        sol = solve_skeleton(parents, root, start, lengths, {bone: target}, method=method, iterations=200)
        got, turn = reference_pose(parents, root, sol.angles, lengths)
        assert sol.reached, (method, sol)
        assert math.dist(got[bone], target[:2]) <= 0.5
        assert abs(math.remainder(turn[bone] - target[2], 2 * math.pi)) <= math.radians(1.0)


@st.composite
def conflicting(draw):
    """A tree, limits or none, weights, and 2..4 targets anywhere, one of them out of its bone's reach."""
    parents, root, angles, lengths = draw(trees(min_bones=2, max_bones=10))
    n = len(parents)
    limits = draw(limit_ranges(n)) if draw(st.booleans()) else None
    if limits is not None:  # a start inside the limits
        share = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
        angles = limits[:, 0] + share * (limits[:, 1] - limits[:, 0])
    bones = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=min(4, n), unique=True))
    span = float(np.sum(lengths))
    targets = {}
    for b in bones:
        x, y = draw(st.tuples(st.floats(-2, 2), st.floats(-2, 2)))
        target = (root[0] + x * span, root[1] + y * span)
        if draw(st.booleans()):
            target += (draw(st.floats(-math.pi, math.pi)),)
        targets[b] = target
    far = bones[0]  # past the reach of its bone's path from the root
    reach = 0.0
    b = far
    while b >= 0:
        reach += lengths[b]
        b = parents[b]
    direction = draw(st.floats(-math.pi, math.pi))
    distance = reach * draw(st.floats(1.2, 3.0)) + 1.0
    targets[far] = (root[0] + distance * math.cos(direction), root[1] + distance * math.sin(direction))
    weights = {b: draw(st.floats(0.1, 10.0)) for b in bones if draw(st.booleans())}
    return Skeleton(parents, root, angles, lengths, targets, limits), weights


@FAST
@given(conflicting(), st.sampled_from(METHODS))
def test_targets_no_pose_reaches_leave_a_finite_pose_no_worse_than_the_start_inside_the_limits(case, method):
    sk, weights = case
    sol = solve_skeleton(sk.parents, sk.root, sk.angles, sk.lengths, sk.targets, method=method,
                         limits=sk.limits, weights=weights or None)
    assert np.all(np.isfinite(sol.angles))
    assert not sol.reached and sol.status == "out of reach"
    if sk.limits is not None:
        assert np.all(sol.angles >= sk.limits[:, 0]) and np.all(sol.angles <= sk.limits[:, 1])
    before = weighted_error(sk, sk.angles, weights)
    after = weighted_error(sk, sol.angles, weights)
    assert after <= before * (1 + 1e-9) + 1e-9
    assert 0 < sol.iterations <= 50 and set(sol.errors) == set(sk.targets)


@pytest.mark.parametrize("method", METHODS)
def test_the_heavier_of_two_conflicting_targets_is_nearer(method):
    # a bone with two leaves that cannot both reach: the weight decides which gives way
    parents, lengths = [-1, 0, 0], [100.0, 50.0, 50.0]
    targets = {1: (100.0, 80.0), 2: (100.0, -80.0)}  # each leaf's end 80 px off the trunk's line
    angles = [0.3, 0.5, -0.5]
    near = {}
    for heavy in (1, 2):
        sol = solve_skeleton(parents, (0, 0), angles, lengths, targets, method=method, weights={heavy: 10.0})
        near[heavy] = sol.errors[heavy] < sol.errors[3 - heavy]
        assert not sol.reached
    assert near == {1: True, 2: True}


@pytest.mark.parametrize("method", METHODS)
def test_the_same_call_gives_the_same_answer(method):
    rng = np.random.default_rng(7)
    from .skeleton_cases import posed_skeleton

    for limited in (False, True):
        sk = posed_skeleton(rng, limited)
        args = (sk.parents, sk.root, sk.angles, sk.lengths, sk.targets)
        a = solve_skeleton(*args, method=method, limits=sk.limits, iterations=200, tolerance=1e-9)
        b = solve_skeleton(*args, method=method, limits=sk.limits, iterations=200, tolerance=1e-9)
        assert a.angles.tobytes() == b.angles.tobytes() and a.iterations == b.iterations
