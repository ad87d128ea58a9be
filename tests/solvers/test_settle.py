"""What follows a solve each frame (solvers/settle.py): the rate limit, forward kinematics and the tip's error.

The compiled kernels (numba) must give numpy's numbers (the settle's exactly; the snake's to rounding, as it
turns unit vectors where numpy turns angles), so a scene steps the same whichever runs; the rate limit never turns
a joint further than its rate, nor out of its range.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .solver_cases import running_on
from ikplayground.solvers import (FULL_CIRCLE, JIT_MIN_BATCH, ccd_batch, chain_points_batch, dls_batch, fabrik_batch,
                                  rate_limited, settle_batch, snake_batch, tip_error)

PI = math.pi


def group(seed: int, count: int, n: int) -> dict:
    """A random group: free angles anywhere (some far outside (-pi, pi]), half the joints limited, rates or none."""
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-PI, 0.0, (count, n))
    hi = rng.uniform(0.0, PI, (count, n))
    free = rng.random((count, n)) < 0.5
    limits = np.stack([np.where(free, -PI, lo), np.where(free, PI, hi)], axis=-1)
    angles = np.where(free, rng.uniform(-3 * PI, 3 * PI, (count, n)), rng.uniform(lo, hi))
    rate = np.where(rng.random(count) < 0.3, np.inf, rng.uniform(0.0, 0.3, count))
    desired = np.where(free, rng.uniform(-PI, PI, (count, n)), rng.uniform(lo, hi))  # a solver's: in range
    return dict(angles=angles, desired=desired, rate=rate, limits=limits,
                roots=rng.uniform(-500, 500, (count, 2)), lengths=rng.uniform(0.5, 80, (count, n)),
                targets=rng.uniform(-500, 500, (count, 2)))


def settled(g: dict):
    angles = g["angles"].copy()
    count, n = angles.shape
    points = np.empty((count, n + 1, 2))
    error = np.empty(count)
    settle_batch(angles, g["desired"], g["rate"], g["limits"], g["roots"], g["lengths"], g["targets"], points, error)
    return angles, points, error


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(JIT_MIN_BATCH, 60), n=st.integers(1, 12))
def test_the_compiled_settle_gives_numpys_numbers_exactly(seed, count, n):
    pytest.importorskip("numba")
    g = group(seed, count, n)
    with running_on("numpy"):
        expected = settled(g)
    with running_on("numba"):
        got = settled(g)
    for got, want in zip(got, expected):
        np.testing.assert_array_equal(got, want)


def test_settle_is_the_rate_limit_then_forward_kinematics_and_the_tips_distance(backend):
    g = group(5, 40, 7)
    angles, points, error = settled(g)
    np.testing.assert_array_equal(angles, rate_limited(g["angles"], g["desired"], g["rate"], g["limits"]))
    np.testing.assert_array_equal(points, chain_points_batch(g["roots"], angles, g["lengths"]))
    np.testing.assert_array_equal(error, np.hypot(*(g["targets"] - points[:, -1]).T))
    np.testing.assert_array_equal(error, tip_error(g["roots"], angles, g["lengths"], g["targets"]))


def test_no_joint_turns_further_than_its_rate_nor_leaves_its_range(backend):
    g = group(11, 200, 6)
    angles, _, _ = settled(g)
    limited = g["limits"][..., 1] - g["limits"][..., 0] < FULL_CIRCLE
    turned = np.where(limited, angles - g["angles"], (angles - g["angles"] + PI) % (2 * PI) - PI)
    assert (np.abs(turned) <= g["rate"][:, None] + 1e-9).all()
    assert ((angles >= g["limits"][..., 0]) & (angles <= g["limits"][..., 1])).all()
    free = ~limited
    assert ((angles[free] > -PI) & (angles[free] <= PI)).all()


def test_without_a_rate_a_joint_goes_where_it_is_sent(backend):
    g = group(2, 30, 5)
    g["rate"] = np.full(30, np.inf)
    g["limits"] = np.tile([-PI, PI], (30, 5, 1))
    angles, _, _ = settled(g)
    np.testing.assert_allclose(angles, g["desired"], atol=1e-12)


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(JIT_MIN_BATCH, 40), n=st.integers(1, 10),
       still=st.booleans())
def test_the_compiled_snake_gives_numpys_numbers_to_rounding(seed, count, n, still):
    pytest.importorskip("numba")
    rng = np.random.default_rng(seed)
    points = np.cumsum(rng.uniform(-20, 20, (count, n + 1, 2)), axis=1)
    heads = points[:, 0] + (0.0 if still else rng.uniform(-15, 15, (count, 2)))  # still: nothing moves
    if not still:
        points[rng.random(count) < 0.2, 1] = heads[:1]  # a node exactly on its leader: the moved test's other side
    lengths = rng.uniform(1, 30, (count, n))
    half = rng.uniform(0, PI, count)
    with running_on("numpy"):
        expected = snake_batch(points, heads, lengths, -half, half)
    with running_on("numba"):  # (unit vectors turned where numpy turns angles: the same points to rounding)
        np.testing.assert_allclose(snake_batch(points, heads, lengths, -half, half), expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("count", [2, 3 * JIT_MIN_BATCH])
@pytest.mark.parametrize("engine", [ccd_batch, fabrik_batch, dls_batch], ids=["ccd", "fabrik", "dls"])
def test_the_engines_leave_the_angles_they_start_from_as_they_were(engine, count, backend):
    """A scene step works out a full solve's gain from the last step's answer after the solve (group_step.py)."""
    g = group(7, count, 6)
    start = g["angles"].copy()
    iterations = np.full(count, 10, dtype=np.int64)
    engine(g["roots"], g["angles"], g["lengths"], g["targets"], iterations, np.full(count, 0.5), g["limits"])
    np.testing.assert_array_equal(g["angles"], start)
