"""The per-step rate limit (3 degrees a frame, as in the pygame CCD tutorial) on every IK solver, two-bone included,
and on snakes (their angles from the head) and walkers (their legs' angles), where it is off on a new one."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import solve_two_bone
from tests.scene.scene_cases import IK_SOLVERS, assert_scene_ok, stage_points, wrap

STAGE = (980.0, 720.0)


def ik_scene(roots):
    """Two chains of each IK solver (so groups hold more than one chain)."""
    scene = Scene(STAGE)
    for i, root in enumerate(roots):
        scene.new_chain(IK_SOLVERS[i % 3], root)
    return scene


@pytest.mark.slow
@given(
    rate=st.floats(0.1, 30.0),
    roots=st.lists(stage_points, min_size=6, max_size=6),
    moves=st.lists(st.lists(stage_points, min_size=6, max_size=6), min_size=1, max_size=4),
    steps=st.integers(1, 6),
)
@settings(max_examples=30)
def test_no_joint_moves_more_than_the_rate_limit_in_one_step(rate, roots, moves, steps):
    scene = ik_scene(roots)
    for c in scene.chains:
        c.rate_limit = rate
    limit = math.radians(rate) * (1 + 1e-12) + 1e-12
    for targets in moves:
        for c, t in zip(scene.chains, targets):
            scene.move_target(c, t)
        for _ in range(steps):
            before = [c.fields["angles"].copy() for c in scene.chains]
            scene.step()
            for c, old in zip(scene.chains, before):
                change = np.abs(wrap(c.fields["angles"] - old))
                assert np.all(change <= limit), (c.solver, np.degrees(change), rate)
        assert_scene_ok(scene)


@pytest.mark.slow
@given(
    rates=st.lists(st.one_of(st.none(), st.floats(0.5, 20.0)), min_size=6, max_size=6),
    targets=st.lists(stage_points, min_size=6, max_size=6),
)
@settings(max_examples=30)
def test_each_chain_keeps_its_own_rate_limit_in_a_group(rates, targets):
    roots = [(150.0 + 140 * i, 650.0) for i in range(6)]
    scene = ik_scene(roots)
    for c, r, t in zip(scene.chains, rates, targets):
        c.rate_limit = r
        scene.move_target(c, t)
    before = [c.fields["angles"].copy() for c in scene.chains]
    scene.step()
    for c, r, old in zip(scene.chains, rates, before):
        assert c.rate_limit == (None if r is None else pytest.approx(r, rel=1e-12))
        if r is not None:
            change = np.abs(wrap(c.fields["angles"] - old))
            assert np.all(change <= math.radians(r) * (1 + 1e-12) + 1e-12), (c.solver, np.degrees(change), r)


def reachable_target(root, l1, l2, dist, angle):
    return (root[0] + dist * math.cos(angle), root[1] + dist * math.sin(angle))


two_bone_case = st.tuples(
    st.floats(0.05, 0.95),  # where between |l1-l2| and l1+l2 the target lies
    st.floats(-math.pi, math.pi),  # its direction from the root
    st.booleans(),  # mirror
)


@pytest.mark.slow
@given(two_bone_case)
@settings(max_examples=50)
def test_two_bone_without_rate_limit_reaches_a_reachable_target_in_one_step(case):
    u, angle, mirror = case
    scene = Scene(STAGE)
    arm = scene.new_chain("two-bone", (490.0, 360.0))
    arm.rate_limit = None
    arm.mirror = mirror
    l1, l2 = arm.fields["lengths"]
    dist = abs(l1 - l2) + u * (l1 + l2 - abs(l1 - l2))
    target = reachable_target(arm.fields["root"], l1, l2, dist, angle)
    scene.move_target(arm, target)
    scene.step()
    assert math.dist(arm.tip, target) <= 1e-6
    assert arm.error <= 1e-6
    # and it is the solver's own answer, on the mirror's side
    sol = solve_two_bone(arm.fields["root"], target, l1, l2, bend=-1 if mirror else 1)
    np.testing.assert_allclose(arm.fields["points"][1], sol.knee, atol=1e-6)


@pytest.mark.slow
@given(two_bone_case, st.floats(1.0, 10.0))
@settings(max_examples=50)
def test_two_bone_with_rate_limit_converges_over_enough_steps(case, rate):
    u, angle, mirror = case
    scene = Scene(STAGE)
    arm = scene.new_chain("two-bone", (490.0, 360.0))
    arm.rate_limit = rate
    arm.mirror = mirror
    l1, l2 = arm.fields["lengths"]
    dist = abs(l1 - l2) + u * (l1 + l2 - abs(l1 - l2))
    target = reachable_target(arm.fields["root"], l1, l2, dist, angle)
    scene.move_target(arm, target)
    want = solve_two_bone(arm.fields["root"], target, l1, l2, bend=-1 if mirror else 1)
    start = arm.fields["angles"].copy()
    needed = np.abs(wrap(np.array([want.theta1, want.theta2]) - start))
    steps_needed = math.ceil(float(needed.max()) / math.radians(rate) - 1e-9)
    for _ in range(max(steps_needed - 1, 0)):
        scene.step()
    if steps_needed >= 2:  # one step short of the answer it has not arrived yet
        left = np.abs(wrap(np.array([want.theta1, want.theta2]) - arm.fields["angles"]))
        assert left.max() > 1e-9
    scene.step()
    assert math.dist(arm.tip, target) <= 1e-6
    for _ in range(3):  # and it stays there
        scene.step()
    assert math.dist(arm.tip, target) <= 1e-6


def test_the_rate_limit_takes_the_shorter_way_round():
    """From -170 to +170 degrees is 20 degrees across +-180, not 340 the long way."""
    scene = Scene(STAGE)
    arm = scene.new_chain("two-bone", (490.0, 360.0))
    arm.rate_limit = 3.0
    l1, l2 = arm.fields["lengths"]
    arm.fields["angles"][:] = (math.radians(-170.0), 0.0)
    scene.move_target(arm, reachable_target(arm.fields["root"], l1, l2, l1 + l2 - 1e-9, math.radians(170.0)))
    scene.step()
    first = math.degrees(arm.fields["angles"][0])
    assert first == pytest.approx(-173.0, abs=1e-6)  # went down through -180, not up through 0
    for _ in range(6):
        scene.step()
    assert math.degrees(arm.fields["angles"][0]) == pytest.approx(170.0, abs=1e-3)


def test_rate_limit_setting_round_trips_and_off_keeps_the_slider_value():
    scene = Scene(STAGE)
    chain = scene.new_chain("ccd", (490.0, 600.0))
    chain.rate_limit = 7.25
    assert chain.rate_limit == pytest.approx(7.25)
    chain.rate_limit = None
    assert chain.rate_limit is None
    assert chain.rate_deg == 7.25
    snake = scene.new_chain("snake", (300.0, 300.0))
    assert snake.rate_limit is None


@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_rate_limit_off_gives_the_solver_answer_at_once(solver):
    """With the limit off a chain moves more than 3 degrees in a step; with it on it does not."""
    moved = {}
    for rate in (None, 3.0):
        scene = Scene(STAGE)
        c = scene.new_chain(solver, (490.0, 600.0))
        c.rate_limit = rate
        scene.move_target(c, (700.0, 650.0))
        old = c.fields["angles"].copy()
        scene.step()
        moved[rate] = float(np.max(np.abs(wrap(c.fields["angles"] - old))))
    assert moved[None] > math.radians(3.0) * 2
    assert moved[3.0] <= math.radians(3.0) * (1 + 1e-12)


def snake_joint_angles(points: np.ndarray) -> np.ndarray:
    """A snake's joint angles (n,) rad from its nodes (n+1, 2), head first: the first segment's direction, then
    each node's bend (the signed turn from one segment to the next)."""
    d = np.diff(points, axis=0)
    heading = np.arctan2(d[:, 1], d[:, 0])
    return np.concatenate([heading[:1], wrap(np.diff(heading))])


@pytest.mark.parametrize("rate", [1.0, 4.0])
def test_a_snakes_joint_turns_no_more_than_its_rate_limit_in_a_step(rate):
    scene = Scene(STAGE)
    snake = scene.new_chain("snake", (500.0, 360.0))
    free = scene.new_chain("snake", (300.0, 200.0))  # the same group, its limit off
    for s in (snake, free):
        scene.set_setting(s, "wander", True)
    assert snake.rate_limit is None and scene.set_setting(snake, "rate_on", True) is snake
    scene.set_setting(snake, "rate", rate)
    limit = math.radians(rate) * (1 + 1e-12) + 1e-12
    lengths = snake.fields["lengths"].copy()
    most = {id(snake): 0.0, id(free): 0.0}
    for _ in range(400):  # it wanders, turning and turning back
        before = {id(s): snake_joint_angles(s.fields["points"]) for s in (snake, free)}
        head = snake.fields["points"][0].copy()
        scene.step()
        for s in (snake, free):
            most[id(s)] = max(most[id(s)], float(np.abs(wrap(snake_joint_angles(s.fields["points"]) -
                                                             before[id(s)])).max()))
        assert np.all(np.abs(wrap(snake_joint_angles(snake.fields["points"]) - before[id(snake)])) <= limit)
        np.testing.assert_allclose(np.linalg.norm(np.diff(snake.fields["points"], axis=0), axis=1), lengths,
                                   rtol=1e-9)  # the segments keep their lengths
        assert not np.array_equal(snake.fields["points"][0], head)  # its head goes where it steers
    assert most[id(snake)] > 0.5 * limit and most[id(free)] > limit  # (the limit held it back)
    assert_scene_ok(scene)


def test_a_walkers_legs_turn_no_more_than_its_rate_limit_in_a_step():
    scene = Scene(STAGE)
    walker = scene.new_chain("walker", (400.0, 300.0))
    assert walker.rate_limit is None
    for _ in range(5):  # stood on the ground first, its limit off
        scene.step()
    walker.rate_limit = 2.0
    limit = math.radians(2.0) * (1 + 1e-12) + 1e-12
    biggest = 0.0
    for _ in range(200):
        before = walker.fields["angles"].copy()
        scene.step()
        turn = np.abs(wrap(walker.fields["angles"] - before))
        assert np.all(turn <= limit)
        biggest = max(biggest, float(turn.max()))
        pts = walker.fields["points"].reshape(walker.bones, -1, 2)
        np.testing.assert_allclose(np.linalg.norm(np.diff(pts, axis=1), axis=2), walker.fields["lengths"],
                                   rtol=1e-9)  # its legs laid out from the shown angles
    assert biggest > 0.5 * limit  # it walked


def test_a_snake_or_walker_without_a_rate_limit_in_its_file_has_none_and_one_round_trips():
    from ikplayground.scene.files import scene_file

    scene = Scene(STAGE)
    snake = scene.new_chain("snake", (500.0, 360.0))
    walker = scene.new_chain("walker", (300.0, 300.0))
    text = scene_file.scene_to_text(scene)
    assert "rate_limit" not in text  # off and at the setting's default: left out
    assert all(c.rate_limit is None for c in scene_file.parse_scene(text).chains)
    snake.rate_limit, walker.rate_limit = 6.5, 12.0
    back = scene_file.parse_scene(scene_file.scene_to_text(scene)).chains
    assert [c.rate_limit for c in back] == [6.5, 12.0]
