"""The solvers keep clear of circle obstacles: no bone ends inside a circle it started clear of."""

import math
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import (METHODS, ccd_steps, fabrik_steps, forward_kinematics, solve_ccd, solve_dls,
                                  solve_fabrik, solve_jacobian)

from .obstacle_cases import chains_among_circles, kept_clear_failures, reference_gaps
from .solver_cases import convergence

SOLVERS = {"ccd": solve_ccd, "fabrik": solve_fabrik, "dls": solve_dls,
           **{m: partial(solve_jacobian, method=m) for m in METHODS if m != "dls"}}
STEPS = {"ccd": ccd_steps, "fabrik": fabrik_steps}


def same(a, b) -> bool:
    """Two IKSolutions bit for bit."""
    return a.angles.tobytes() == b.angles.tobytes() and a[1:] == b[1:]


def run_steps(steps, *args, **kw):
    gen = steps(*args, **kw)
    while True:
        try:
            next(gen)
        except StopIteration as done:
            return done.value


@settings(max_examples=150)
@given(case=chains_among_circles(), solver=st.sampled_from(sorted(SOLVERS)), heading=st.booleans(),
       h=st.floats(-math.pi, math.pi))
def test_no_bone_ends_in_a_circle_it_started_clear_of(case, solver, heading, h):
    kw = dict(case)
    root, angles, lengths, target = (kw.pop(k) for k in ("root", "angles", "lengths", "target"))
    if heading:
        kw["heading"] = h
    sol = SOLVERS[solver](root, angles, lengths, target, **kw)
    assert not kept_clear_failures(root, angles, sol.angles, lengths, kw["obstacles"])
    if kw["limits"] is not None:
        lim = kw["limits"]
        assert np.all((lim[:, 0] - 1e-12 <= sol.angles) & (sol.angles <= lim[:, 1] + 1e-12))


@settings(max_examples=40)
@given(case=chains_among_circles(max_bones=6), solver=st.sampled_from(sorted(STEPS)))
def test_the_step_generators_return_the_solvers_answer_bit_for_bit(case, solver):
    kw = dict(case)
    args = [kw.pop(k) for k in ("root", "angles", "lengths", "target")]
    assert same(run_steps(STEPS[solver], *args, **kw), SOLVERS[solver](*args, **kw))


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("none", [None, np.zeros((0, 3)), []], ids=["None", "empty", "list"])
def test_no_obstacles_is_bit_for_bit_the_solve_without(solver, none):
    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(1, 8))
        args = (rng.uniform(-100, 100, 2), rng.uniform(-3, 3, n), rng.uniform(10, 60, n), rng.uniform(-300, 300, 2))
        lim = np.column_stack([-rng.uniform(0, 3, n), rng.uniform(0, 3, n)]) if rng.random() < 0.5 else None
        kw = dict(iterations=int(rng.integers(1, 60)), limits=lim)
        assert same(SOLVERS[solver](*args, obstacles=none, **kw), SOLVERS[solver](*args, **kw))


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_a_circle_out_of_reach_changes_nothing(solver):
    args = ((0.0, 0.0), [0.3, -0.2, 0.5], [40.0, 30.0, 20.0], (50.0, 40.0))
    far = np.array([[500.0, 0.0, 100.0]])
    assert same(SOLVERS[solver](*args, obstacles=far, iterations=40), SOLVERS[solver](*args, iterations=40))


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_a_target_behind_a_circle_is_reached_around_it(solver):
    # a straight chain along +x, a circle beside its middle, the target past the circle on its far side:
    # without the circle the chain cuts through it
    root, lengths = np.zeros(2), np.full(6, 50.0)
    circle = np.array([[150.0, 60.0, 40.0]])
    target = (150.0, 140.0)
    plain = SOLVERS[solver](root, np.zeros(6), lengths, target, iterations=100)
    assert plain.reached and reference_gaps(forward_kinematics(root, plain.angles, lengths), circle).min() < 0
    sol = SOLVERS[solver](root, np.zeros(6), lengths, target, iterations=100, obstacles=circle)
    assert sol.reached, sol
    assert reference_gaps(forward_kinematics(root, sol.angles, lengths), circle).min() >= -1e-9


@pytest.mark.parametrize("solver", sorted(STEPS))
def test_a_ccd_turn_never_passes_through_a_circle(solver):
    # every record of the step-through is clear, not only the answer: no turn or walk jumps a circle
    root, lengths = np.zeros(2), np.full(5, 40.0)
    circle = np.array([[120.0, -35.0, 20.0], [60.0, 45.0, 15.0]])
    gen = STEPS[solver](root, np.zeros(5), lengths, (-30.0, 90.0), iterations=60, obstacles=circle)
    seen = 0
    for step in gen:
        angles = step.angles
        if angles is None:
            continue
        seen += 1
        assert reference_gaps(forward_kinematics(root, angles, lengths), circle).min() >= -1e-9, step
    assert seen


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_a_start_inside_a_circle_leaves_that_bone_free_and_keeps_the_others_out(solver):
    root, lengths = np.zeros(2), np.full(4, 50.0)
    circle = np.array([[75.0, 0.0, 10.0]])  # bone 1 of the straight start lies through it
    sol = SOLVERS[solver](root, np.zeros(4), lengths, (0.0, 150.0), iterations=100, obstacles=circle)
    gaps = reference_gaps(forward_kinematics(root, sol.angles, lengths), circle)[:, 0]
    assert gaps[[0, 2, 3]].min() >= -1e-9
    assert sol.reached


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("bad, words", [([[0, 0, -1]], "radius"), ([[0, 0]], "(k, 3)"), ([[0, np.nan, 1]], "finite"),
                                        ("x", "real numbers")])
def test_bad_obstacles_are_refused_naming_them(solver, bad, words):
    with pytest.raises(ValueError, match="obstacles") as e:
        SOLVERS[solver]((0, 0), [0.0], [10.0], (5, 5), obstacles=bad)
    assert words in str(e.value)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("name, count", [("obstacles", 60), pytest.param("obstacles", 1000, marks=pytest.mark.slow),
                                         pytest.param("obstacles-limited", 300, marks=pytest.mark.slow)])
def test_the_scripts_obstacle_sets_are_reached_round_the_circles(solver, name, count):
    """scripts/convergence.py's sets (circles beside the straight start, targets of random clear poses): at least
    95% reached within 100 iterations (the Jacobian transpose, whose steps are slow to converge with or without
    circles: 90%), every answer clear of every circle."""
    chains = convergence().OBSTACLE_SETS[name](2011, count)
    rates, sols = convergence().measure(SOLVERS[solver], chains, 100, 0.5, obstacles=True)
    assert rates.reached >= (0.90 if solver == "transpose" else 0.95), rates
    assert all(convergence().ends_clear(c, s.angles) for c, s in zip(chains, sols))


@settings(max_examples=100)
@given(case=chains_among_circles(), method=st.sampled_from(METHODS), rest=st.lists(st.floats(-3.1, 3.1), min_size=8,
                                                                                     max_size=8),
       heading=st.booleans(), h=st.floats(-math.pi, math.pi))
def test_the_jacobian_family_with_a_rest_pose_keeps_clear_too(case, method, rest, heading, h):
    kw = dict(case)
    root, angles, lengths, target = (kw.pop(k) for k in ("root", "angles", "lengths", "target"))
    if heading:
        kw["heading"] = h
    sol = solve_jacobian(root, angles, lengths, target, method=method, rest=rest[:len(lengths)], **kw)
    assert not kept_clear_failures(root, angles, sol.angles, lengths, kw["obstacles"])
