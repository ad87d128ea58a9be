"""``solve_skeleton``'s contract: a chain is solved as the chain solvers solve it, the result's fields, inputs left
alone, and bad input refused naming the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import SkeletonSolution, solve_dls, solve_fabrik, solve_skeleton

from .skeleton_cases import posed_skeleton, reference_pose
from .solver_cases import chains

FAST = settings(deadline=None, max_examples=80)
CHAIN_SOLVERS = {"fabrik": solve_fabrik, "dls": solve_dls}


@FAST
@given(chains(max_bones=8), st.sampled_from(sorted(CHAIN_SOLVERS)), st.integers(1, 60))
def test_a_chain_as_a_skeleton_is_solved_as_the_chain_solver_solves_it(chain, method, iterations):
    n = len(chain.lengths)
    want = CHAIN_SOLVERS[method](chain.root, chain.angles, chain.lengths, chain.target, iterations=iterations,
                                 limits=chain.limits)
    got = solve_skeleton([-1] + list(range(n - 1)), chain.root, chain.angles, chain.lengths,
                         {n - 1: tuple(chain.target)}, method=method, iterations=iterations, limits=chain.limits)
    assert got.status == want.status and got.reached == want.reached and got.iterations == want.iterations
    assert abs(got.errors[n - 1] - want.error) <= 1e-6
    np.testing.assert_allclose(got.angles, want.angles, rtol=0, atol=1e-12)
    assert got.heading_errors == {}


@pytest.mark.parametrize("method", sorted(CHAIN_SOLVERS))
def test_one_target_moves_the_bones_from_the_root_to_it_alone(method):
    # bones 0 -> 2 -> 4 carry the target; 1 and 3 branch off and keep their relative angles
    parents = [-1, 0, 0, 2, 2]
    lengths = [40.0, 30.0, 35.0, 20.0, 25.0]
    angles = [0.2, 0.4, -0.3, 0.9, 0.1]
    limits = [(-1.0, 1.0), (-0.5, 0.5), (-1.2, 0.4), (-2.0, 2.0), (-0.7, 1.5)]
    target = (50.0, 40.0)
    sol = solve_skeleton(parents, (0, 0), angles, lengths, {4: target}, method=method, limits=limits)
    path = [0, 2, 4]
    want = CHAIN_SOLVERS[method]((0, 0), [angles[j] for j in path], [lengths[j] for j in path], target,
                                 iterations=50, limits=[limits[j] for j in path])
    np.testing.assert_allclose(sol.angles[path], want.angles, rtol=0, atol=1e-12)
    assert sol.angles[1] == angles[1] and sol.angles[3] == angles[3]
    assert sol.status == want.status and sol.errors == {4: want.error}


@pytest.mark.parametrize("method", sorted(CHAIN_SOLVERS))
def test_the_solution_reports_every_target_and_leaves_its_inputs_alone(method):
    sk = posed_skeleton(np.random.default_rng(3), limited=True, headings=1)
    args = [list(sk.parents), np.array(sk.root), sk.angles.copy(), sk.lengths.copy(), dict(sk.targets)]
    kept = [a.copy() if hasattr(a, "copy") else a for a in args] + [sk.limits.copy()]
    sol = solve_skeleton(*args, method=method, limits=sk.limits, weights={next(iter(sk.targets)): 2.0})
    for before, after in zip(kept, args + [sk.limits]):
        np.testing.assert_array_equal(np.asarray(before, dtype=object), np.asarray(after, dtype=object))
    assert isinstance(sol, SkeletonSolution) and sol.angles.shape == (len(sk.parents),)
    assert sol.angles.dtype == np.float64 and type(sol.reached) is bool and type(sol.iterations) is int
    assert set(sol.errors) == set(sk.targets)
    assert set(sol.heading_errors) == {b for b, t in sk.targets.items() if len(t) == 3}
    assert np.all(sol.angles >= sk.limits[:, 0]) and np.all(sol.angles <= sk.limits[:, 1])
    ends, _ = reference_pose(sk.parents, sk.root, sol.angles, sk.lengths)
    for b, e in sol.errors.items():
        assert abs(e - math.dist(ends[b], sk.targets[b][:2])) <= 1e-9


@pytest.mark.parametrize("method", sorted(CHAIN_SOLVERS))
def test_no_targets_is_nothing_to_do(method):
    sol = solve_skeleton([-1, 0], (0, 0), [0.5, 7.0], [10, 10], {}, method=method)
    assert sol.reached and sol.status == "reached" and sol.iterations == 0 and sol.errors == {}
    np.testing.assert_allclose(sol.angles, [0.5, math.remainder(7.0, 2 * math.pi)])


PARENTS, ROOT, ANGLES, LENGTHS = [-1, 0, 0], (0, 0), [0.0, 0.3, -0.3], [10.0, 10.0, 10.0]
GOOD = {1: (15.0, 5.0), 2: (15.0, -5.0)}


@pytest.mark.parametrize("change, name, words", [
    ({"parents": [-1, 1, 0]}, "parents", "must be a bone before it"),
    ({"parents": [0, 0, 0]}, "parents", "parent -1"),
    ({"targets": {3: (1.0, 2.0)}}, "targets", "bone 3 does not exist"),
    ({"targets": {-1: (1.0, 2.0)}}, "targets", "does not exist"),
    ({"targets": {True: (1.0, 2.0)}}, "targets", "bone indices"),
    ({"targets": {1.0: (1.0, 2.0)}}, "targets", "bone indices"),
    ({"targets": [(1.0, 2.0)]}, "targets", "must be a dict"),
    ({"targets": {1: (float("nan"), 2.0)}}, "targets[1]", "finite"),
    ({"targets": {1: (1.0, math.inf)}}, "targets[1]", "finite"),
    ({"targets": {1: (1.0, 2.0, "up")}}, "targets[1]", "real numbers"),
    ({"targets": {1: (1.0, 2.0, float("nan"))}}, "targets[1]", "heading"),
    ({"targets": {1: (1.0, 2.0, None)}}, "targets[1]", ""),
    ({"targets": {1: (1.0, True)}}, "targets[1]", "booleans"),
    ({"targets": {1: (1.0,)}}, "targets[1]", "shape"),
    ({"targets": {1: "ab"}}, "targets[1]", "string"),
    ({"targets": {1: (1.0, 2.0, 3.0, 4.0)}}, "targets[1]", "shape"),
    ({"weights": {1: 0.0}}, "weights[1]", "> 0"),
    ({"weights": {1: -2.0}}, "weights[1]", "> 0"),
    ({"weights": {1: float("nan")}}, "weights[1]", "> 0"),
    ({"weights": {1: True}}, "weights[1]", "boolean"),
    ({"weights": {0: 1.0}}, "weights", "bone 0 carries no target"),
    ({"weights": {"a": 1.0}}, "weights", "bone indices"),
    ({"weights": [1.0, 2.0]}, "weights", "dict"),
    ({"method": "ccd"}, "method", "'fabrik', 'dls'"),
    ({"method": None}, "method", "one of"),
    ({"iterations": 0}, "iterations", "integer"),
    ({"iterations": 2.5}, "iterations", "integer"),
    ({"tolerance": -1.0}, "tolerance", ">= 0"),
    ({"limits": [(0.0, 1.0)] * 2}, "limits", "shape (3, 2)"),
    ({"limits": [(1.0, 0.0)] * 3}, "limits", "lo > hi"),
    ({"limits": [(-4.0, 0.0)] * 3}, "limits", "[-pi, pi]"),
    ({"angles": [0.0, float("nan"), 0.0]}, "angles", "finite"),
    ({"angles": [0.0, 0.0]}, "angles", "expected 3"),
    ({"lengths": [1.0, 0.0, 1.0]}, "lengths", "> 0"),
    ({"lengths": [1.0, 1.0]}, "lengths", "expected 3"),
    ({"root": (0.0, math.nan)}, "root", "finite"),
])
def test_bad_input_is_refused_naming_the_argument(change, name, words):
    kwargs = dict(parents=PARENTS, root=ROOT, angles=ANGLES, lengths=LENGTHS, targets=GOOD)
    kwargs.update(change)
    with pytest.raises(ValueError, match=f"^{name.replace('[', '.').replace(']', '.')}: ") as info:
        solve_skeleton(**kwargs)
    assert words in str(info.value)


@pytest.mark.parametrize("method", sorted(CHAIN_SOLVERS))
@pytest.mark.parametrize("limits", [None, [(-1.0, 1.0)] * 4], ids=["free", "limited"])
@pytest.mark.parametrize("case", [
    dict(root=(0, 0), lengths=[1, 1, 1, 1], targets={2: (1e299, -1e299), 3: (-1e299, 5.0)}),
    dict(root=(1e299, -1e299), lengths=[1e-300, 1e-300, 1, 1], targets={2: (-1e299, 1e299), 3: (5.0, 5.0, 1.0)}),
    dict(root=(0, 0), lengths=[1e299, 1e299, 1e298, 1], targets={2: (-1e299, 1e299), 3: (5.0, 5.0, 1.0)}),
    dict(root=(0, 0), lengths=[10, 10, 10, 10], targets={2: (1e299, 1e299), 3: (5.0, 5.0, 1e9)},
         weights={2: 1e300, 3: 1e-300}),
    dict(root=(0, 0), lengths=[1e-300] * 4, targets={2: (1e-300, 0), 3: (0, 0, 1.0)}, weights={2: 1e-300}),
], ids=["far targets", "far root, tiny bones", "huge bones", "extreme weights", "tiny everything"])
def test_extreme_numbers_give_a_finite_answer(case, limits, method):
    sol = solve_skeleton([-1, 0, 0, 1], case["root"], [0.1, 0.2, 0.3, 0.4], case["lengths"], case["targets"],
                         method=method, limits=limits, weights=case.get("weights"))
    assert np.all(np.isfinite(sol.angles))
    assert all(math.isfinite(v) for v in [*sol.errors.values(), *sol.heading_errors.values()])
    assert sol.status in ("reached", "out of reach", "stalled", "iterations")
