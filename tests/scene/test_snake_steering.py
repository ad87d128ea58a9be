"""Seed 004's snake driven through the scene: speed, turning, walls, body."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from tests.scene.scene_cases import (SEED_ACCEL, SEED_BEND_DEG, SEED_DECAY, SEED_MAX_SPEED, SEED_SEGMENT, SEED_TURN_DEG,
                                     assert_chain_ok, segment_lengths, snake_bends, wrap)

BIG = (4000.0, 4000.0)  # room to drive without meeting a wall


def lone_snake(stage=BIG, head=None, facing=0.0):
    scene = Scene(stage)
    snake = scene.new_chain("snake", head if head is not None else (stage[0] / 2, stage[1] / 2))
    snake.fields["heading"][0] = facing
    return scene, snake


def speed(snake) -> float:
    return float(snake.fields["speed"][0])


def heading(snake) -> float:
    return float(snake.fields["heading"][0])


def test_a_new_snake_has_seed_004_body():
    _, snake = lone_snake()
    np.testing.assert_allclose(segment_lengths(snake.fields["points"]), SEED_SEGMENT, rtol=1e-12)
    np.testing.assert_allclose(snake.fields["lengths"], SEED_SEGMENT)
    np.testing.assert_allclose(snake.fields["bend_limits"], np.radians([-SEED_BEND_DEG, SEED_BEND_DEG]))
    assert speed(snake) == 0.0


def test_throttle_adds_one_px_per_step_up_to_ten():
    scene, snake = lone_snake()
    speeds = []
    for _ in range(15):
        scene.steer(True, 0)
        scene.step()
        speeds.append(speed(snake))
    expected = [min(SEED_ACCEL * (i + 1), SEED_MAX_SPEED) for i in range(15)]
    np.testing.assert_allclose(speeds, expected, rtol=0, atol=1e-12)


def test_the_head_moves_by_its_speed_along_its_heading():
    scene, snake = lone_snake()
    for i in range(12):
        head = snake.fields["points"][0].copy()
        scene.steer(True, (0, 1, -1)[i % 3])
        scene.step()
        step = snake.fields["points"][0] - head
        h = heading(snake)
        np.testing.assert_allclose(step, speed(snake) * np.array([math.cos(h), math.sin(h)]), atol=1e-9)


def test_without_throttle_the_speed_decays_by_four_fifths_a_step():
    scene, snake = lone_snake()
    for _ in range(12):
        scene.steer(True, 0)
        scene.step()
    assert speed(snake) == SEED_MAX_SPEED
    expected = SEED_MAX_SPEED
    for _ in range(20):
        scene.steer(False, 0)
        scene.step()
        expected *= SEED_DECAY
        assert speed(snake) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("turn", [-1, 1])
def test_turning_changes_the_heading_by_five_degrees_a_step(turn):
    scene, snake = lone_snake()
    for i in range(100):  # more than a full circle, so the heading wraps
        before = heading(snake)
        scene.steer(i % 2 == 0, turn)
        scene.step()
        change = math.degrees(float(wrap(heading(snake) - before)))
        assert change == pytest.approx(turn * SEED_TURN_DEG, abs=1e-9)
        assert -math.pi < heading(snake) <= math.pi


def test_turn_input_is_its_sign_only():
    scene, snake = lone_snake()
    before = heading(snake)
    scene.steer(False, 7)
    scene.step()
    assert math.degrees(float(wrap(heading(snake) - before))) == pytest.approx(SEED_TURN_DEG)


def test_no_input_leaves_a_still_snake_still():
    scene, snake = lone_snake()
    pts = snake.fields["points"].copy()
    for _ in range(10):
        scene.steer(False, 0)
        scene.step()
    np.testing.assert_array_equal(snake.fields["points"], pts)


@pytest.mark.slow
@given(
    heading_deg=st.floats(-180.0, 180.0),
    turns=st.lists(st.sampled_from([-1, 0, 1]), min_size=1, max_size=8),
    start=st.tuples(st.floats(0.0, 400.0), st.floats(0.0, 300.0)),
)
@settings(max_examples=30)
def test_driving_into_a_wall_keeps_the_head_inside_and_the_body_whole(heading_deg, turns, start):
    stage = (400.0, 300.0)
    scene, snake = lone_snake(stage, head=start, facing=math.radians(heading_deg))
    for i in range(120):
        scene.steer(True, turns[(i // 15) % len(turns)])
        scene.step()
        x, y = snake.fields["points"][0]
        assert 0.0 <= x <= stage[0] and 0.0 <= y <= stage[1], (i, x, y)
        assert_chain_ok(snake)
    np.testing.assert_allclose(segment_lengths(snake.fields["points"]), SEED_SEGMENT, rtol=1e-9)
    assert np.all(np.abs(snake_bends(snake.fields["points"])) <= math.radians(SEED_BEND_DEG) + 1e-9)


def test_straight_into_the_right_wall_the_head_stops_at_the_wall():
    scene, snake = lone_snake((980.0, 720.0), head=(900.0, 360.0))
    for _ in range(40):
        scene.steer(True, 0)
        scene.step()
    np.testing.assert_allclose(snake.fields["points"][0], (980.0, 360.0))
    np.testing.assert_allclose(segment_lengths(snake.fields["points"]), SEED_SEGMENT, rtol=1e-9)


@pytest.mark.slow
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([-1, 0, 1])), min_size=10, max_size=80))
@settings(max_examples=30)
def test_segments_stay_40px_and_bends_within_30_degrees(inputs):
    scene, snake = lone_snake((980.0, 720.0))
    for throttle, turn in inputs:
        scene.steer(throttle, turn)
        scene.step()
        np.testing.assert_allclose(segment_lengths(snake.fields["points"]), SEED_SEGMENT, rtol=1e-9)
        bends = snake_bends(snake.fields["points"])
        assert np.all(np.abs(bends) <= math.radians(SEED_BEND_DEG) + 1e-9), np.degrees(bends)


def test_steer_drives_only_the_driven_snake():
    scene = default_scene()
    first = next(c for c in scene.chains if c.is_snake)
    second = scene.new_chain("snake", (500.0, 500.0))
    scene.select(first)
    idle = second.fields["points"].copy()
    assert scene.steer(True, 1) is first
    for _ in range(5):
        scene.step()
    assert speed(first) == pytest.approx(5 * SEED_ACCEL)
    assert speed(second) == 0.0
    np.testing.assert_array_equal(second.fields["points"], idle)
    # selecting the other snake moves the controls over; the first one coasts
    scene.select(second)
    assert scene.steer(True, 0) is second
    scene.step()
    assert speed(second) == pytest.approx(SEED_ACCEL)
    assert speed(first) == pytest.approx(5 * SEED_ACCEL * SEED_DECAY)


def test_steer_with_no_driven_snake_returns_none_and_moves_nothing():
    scene = default_scene()
    scene.new_chain("snake", (500.0, 500.0))
    scene.select(scene.chains[0])
    before = [c.fields["points"].copy() for c in scene.chains if c.is_snake]
    assert scene.steer(True, 1) is None
    scene.step()
    after = [c.fields["points"] for c in scene.chains if c.is_snake]
    for a, b in zip(after, before):
        np.testing.assert_array_equal(a, b)


# --- wandering snakes (the snakes preset) --------------------------------------------------------
def _wanderers(n: int = 3) -> Scene:
    scene = Scene((980.0, 694.0))
    for k in range(n):
        scene.add(build.straight_snake((200.0 + 250 * k, 300.0 + 40 * k), 0.3 * k, wander=True), select=False)
    return scene


@pytest.mark.slow
def test_a_wandering_snake_moves_by_itself_and_stays_on_the_stage():
    scene = _wanderers()
    start = [c.fields["points"][0].copy() for c in scene.chains]
    for _ in range(1200):
        scene.steer(False, 0)
        scene.step()
        for c in scene.chains:
            x, y = c.fields["points"][0]
            assert 0.0 <= x <= 980.0 and 0.0 <= y <= 694.0
    assert all(np.linalg.norm(c.fields["points"][0] - s) > 50 for c, s in zip(scene.chains, start))
    heads = [c.fields["points"][0] for c in scene.chains]
    assert min(np.linalg.norm(a - b) for i, a in enumerate(heads) for b in heads[i + 1:]) > 1.0  # not one path


@pytest.mark.slow
def test_wandering_is_the_same_on_every_run():
    a, b = _wanderers(), _wanderers()
    for _ in range(500):
        for scene in (a, b):
            scene.steer(False, 0)
            scene.step()
    for ca, cb in zip(a.chains, b.chains):
        assert np.array_equal(ca.fields["points"], cb.fields["points"])


def test_the_arrow_keys_drive_a_wandering_snake_while_held():
    scene = _wanderers(1)
    snake = scene.chains[0]
    scene.select(snake)
    heading = float(snake.fields["heading"][0])
    for _ in range(10):
        scene.steer(False, 1)  # Right held: it turns right every step, whatever its rule wishes
        scene.step()
    assert float(snake.fields["heading"][0]) == pytest.approx(heading + 10 * snake.fields["turn_rate"][0])


@pytest.mark.parametrize("moving", [1, 3, 4])  # of 5 snakes: few moving, most, all
def test_in_a_group_the_snakes_at_rest_stay_put_and_the_others_move_as_if_alone(moving):
    scene = Scene(BIG)
    snakes = [scene.new_chain("snake", (500.0 + 300.0 * i, 800.0)) for i in range(5)]
    for s in snakes:  # crumple each body a little: a layout of the body would straighten it
        s.fields["points"][2:, 1] += np.linspace(0.0, 9.0, len(s.fields["points"]) - 2)
    for i, s in enumerate(snakes):
        s.fields["wander"][0] = 0.0
        s.fields["speed"][0] = 3.0 if i < moving else 0.0
    alone = []
    for s in snakes[:moving]:
        lone, twin = lone_snake()
        for name in ("points", "heading", "speed", "wander"):
            twin.fields[name][:] = s.fields[name]
        lone.step()
        alone.append(twin.fields["points"].copy())
    resting = [s.fields["points"].copy() for s in snakes[moving:]]
    scene.step()
    assert len(scene.groups) == 1
    for s, expected in zip(snakes[moving:], resting):
        np.testing.assert_array_equal(s.fields["points"], expected)
    for s, expected in zip(snakes[:moving], alone):
        np.testing.assert_allclose(s.fields["points"], expected, rtol=0, atol=1e-9)
