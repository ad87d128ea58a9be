"""Properties of follow_snake (follow-the-leader with a bend range, the Flash snake tutorial)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from .solver_cases import PI, assert_lengths_kept, bone_lengths, coordinate_scale, in_angle_range, points2, signed_bends

from ikplayground.solvers import follow_snake

FAST = settings(deadline=None, max_examples=200)
BEND_TOL = 1e-9


@st.composite
def bend_ranges(draw):
    a = draw(st.one_of(st.floats(-PI, PI), st.sampled_from([-PI, PI, 0.0])))
    b = draw(st.one_of(st.floats(-PI, PI), st.sampled_from([-PI, PI, 0.0])))
    return (min(a, b), max(a, b))


@st.composite
def snakes(draw, min_segments=1, max_segments=12):
    """Arbitrary node positions (lengths need not match yet), a new head, limits."""
    n = draw(st.integers(min_segments, max_segments))
    lengths = np.array(draw(st.lists(bone_lengths, min_size=n, max_size=n)))
    start = draw(points2)
    # Nodes near each other (a body), or anywhere at all.
    offsets = draw(st.lists(st.tuples(st.floats(-60, 60), st.floats(-60, 60)), min_size=n, max_size=n))
    body = start + np.cumsum(np.array(offsets), axis=0)
    points = np.vstack([start, body])
    points = draw(st.one_of(st.just(points), st.lists(points2, min_size=n + 1, max_size=n + 1).map(np.array)))
    near = st.tuples(st.floats(-20, 20), st.floats(-20, 20)).map(lambda d: points[0] + np.array(d))
    head = draw(st.one_of(points2, near))
    return points, head, lengths, draw(bend_ranges())


def assert_bends_within(points, bend_limits, tol=BEND_TOL):
    lo, hi = bend_limits
    for k, b in enumerate(signed_bends(points), start=1):
        assert in_angle_range(b, lo, hi, tol), f"bend {b!r} at node {k} outside {bend_limits}"


def assert_snake_invariants(out, points, head, lengths, bend_limits):
    assert out.shape == np.shape(points)
    assert np.all(np.isfinite(out))
    np.testing.assert_array_equal(out[0], head)  # the head goes exactly where told
    assert_lengths_kept(out, lengths)
    assert_bends_within(out, bend_limits)


@pytest.mark.slow
@FAST
@given(snakes())
def test_invariants_hold_for_any_input(snake):
    points, head, lengths, bend_limits = snake
    out = follow_snake(points, head, lengths, bend_limits)
    assert_snake_invariants(out, points, head, lengths, bend_limits)


@pytest.mark.slow
@FAST
@given(snakes())
def test_first_segment_points_back_at_the_old_second_node(snake):
    # The first segment is free: node 1 is pulled straight toward where it was.
    points, head, lengths, bend_limits = snake
    gap = math.hypot(*(points[1] - head))
    scale = coordinate_scale(points, head)
    if gap < 1e-6 * scale:
        return  # no direction to pull along
    out = follow_snake(points, head, lengths, bend_limits)
    want = head + lengths[0] * (points[1] - head) / gap
    np.testing.assert_allclose(out[1], want, rtol=0, atol=1e-9 * scale)


@pytest.mark.slow
@FAST
@given(snakes())
def test_without_a_bend_limit_each_node_is_pulled_toward_where_it_was(snake):
    points, head, lengths, _ = snake
    out = follow_snake(points, head, lengths, (-PI, PI))
    scale = coordinate_scale(points, head)
    for k in range(1, len(points)):
        gap = math.hypot(*(points[k] - out[k - 1]))
        if gap < 1e-6 * scale:
            continue
        want = out[k - 1] + lengths[k - 1] * (points[k] - out[k - 1]) / gap
        np.testing.assert_allclose(out[k], want, rtol=0, atol=1e-9 * scale)


@pytest.mark.slow
@FAST
@given(snakes())
def test_input_is_not_mutated(snake):
    points, head, lengths, bend_limits = snake
    copies = [np.array(points), np.array(head), np.array(lengths)]
    limits = np.array(bend_limits)
    out = follow_snake(points, head, lengths, limits)
    np.testing.assert_array_equal(points, copies[0])
    np.testing.assert_array_equal(head, copies[1])
    np.testing.assert_array_equal(lengths, copies[2])
    np.testing.assert_array_equal(limits, np.array(bend_limits))
    assert not np.shares_memory(out, points)


@FAST
@pytest.mark.slow
@given(
    points2,
    st.floats(-PI, PI),
    st.lists(bone_lengths, min_size=1, max_size=12),
    st.floats(0.0, 50.0),
    st.tuples(st.floats(-PI, 0.0), st.floats(0.0, PI)),
)
def test_a_straight_snake_moved_straight_ahead_translates(start, heading, lengths, step, bend_limits):
    u = np.array([math.cos(heading), math.sin(heading)])
    lengths = np.array(lengths)
    # head first; the body trails behind, against the heading
    points = start - np.concatenate([[0.0], np.cumsum(lengths)])[:, None] * u
    head = start + step * u
    out = follow_snake(points, head, lengths, bend_limits)
    scale = coordinate_scale(points, head)
    np.testing.assert_allclose(out, points + step * u, rtol=0, atol=1e-9 * scale)


@pytest.mark.parametrize(
    ("bend_limits", "seed"),
    [
        ((math.radians(-30), math.radians(30)), 1),  # the playground's snake
        ((-0.1, 0.9), 2),  # lopsided
        ((0.0, 0.0), 3),  # rigid: must stay straight
        ((-PI, PI), 4),  # free
    ],
)
@pytest.mark.slow
def test_invariants_hold_over_a_long_random_walk(bend_limits, seed):
    rng = np.random.default_rng(seed)
    n = 15
    lengths = rng.uniform(8.0, 40.0, n)
    points = np.zeros((n + 1, 2))
    points[:, 0] = -np.concatenate([[0.0], np.cumsum(lengths)])
    heading = 0.0
    for _ in range(3000):
        # a wandering head: mostly forward, sometimes sharp turns and back-steps
        heading += rng.normal(0.0, 0.6)
        step = rng.uniform(0.0, 15.0)
        head = points[0] + step * np.array([math.cos(heading), math.sin(heading)])
        before = points.copy()
        points = follow_snake(before, head, lengths, bend_limits)
        np.testing.assert_array_equal(points[0], head)
        assert np.all(np.isfinite(points))
        assert_lengths_kept(points, lengths)
        assert_bends_within(points, bend_limits)
        if bend_limits == (-PI, PI):
            # pure follow-the-leader: no node moves farther than the one ahead of it
            moved = np.hypot(*(points - before).T)
            assert np.all(moved[1:] <= moved[:-1] + 1e-9)


def test_a_rigid_snake_stays_straight_under_a_random_walk():
    rng = np.random.default_rng(5)
    lengths = np.full(6, 20.0)
    points = np.zeros((7, 2))
    points[:, 0] = -np.arange(7) * 20.0
    for _ in range(500):
        head = points[0] + rng.uniform(-15.0, 15.0, 2)
        points = follow_snake(points, head, lengths, (0.0, 0.0))
    d = np.diff(points, axis=0)
    cross = d[:-1, 0] * d[1:, 1] - d[:-1, 1] * d[1:, 0]
    assert np.all(np.abs(cross) < 1e-9 * 400)
    assert math.hypot(*(points[-1] - points[0])) == pytest.approx(120.0)


# ----------------------------------------------------------------------------
# Degenerate cases
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("bend_limits", [(-0.5, 0.5), (0.2, 0.6), (-PI, PI)])
def test_head_moved_onto_node_one(bend_limits):
    points = np.array([[100.0, 100.0], [80.0, 100.0], [60.0, 110.0], [40.0, 100.0]])
    lengths = [20.0, 22.0, 22.0]
    out = follow_snake(points, points[1], lengths, bend_limits)
    assert_snake_invariants(out, points, points[1], lengths, bend_limits)


@pytest.mark.parametrize("bend_limits", [(-0.5, 0.5), (0.2, 0.6), (-PI, PI)])
@pytest.mark.parametrize("head", [(5.0, 5.0), (0.0, 0.0)])
def test_all_points_coincident(bend_limits, head):
    points = np.full((5, 2), 5.0)
    lengths = [10.0, 10.0, 5.0, 1.0]
    out = follow_snake(points, head, lengths, bend_limits)
    assert_snake_invariants(out, points, head, lengths, bend_limits)


def test_head_onto_a_later_node_and_a_single_segment():
    points = np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0]])
    out = follow_snake(points, points[2], [10.0, 10.0], (-0.3, 0.3))
    assert_snake_invariants(out, points, points[2], [10.0, 10.0], (-0.3, 0.3))
    one = follow_snake([[0.0, 0.0], [0.0, 0.0]], (0.0, 0.0), [7.0], (-0.3, 0.3))
    assert np.all(np.isfinite(one))
    assert math.hypot(*(one[1] - one[0])) == pytest.approx(7.0)
