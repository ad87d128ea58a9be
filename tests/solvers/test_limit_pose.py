"""The batched solvers' start poses: a pose already inside its ranges is taken as it is, and that is exactly what
working the clamp out in full gives (so the shortcut changes no result)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers._batch_parts import clamped_pose, inside, limit_pose
from ikplayground.solvers.validate import FULL_CIRCLE

PI = math.pi
EDGES = [-PI, PI, -PI / 2, PI / 2, 0.0, -3.5, 3.5, -PI + FULL_CIRCLE, PI - FULL_CIRCLE, np.nextafter(-PI, 0.0),
         -PI + 1e-6, np.nextafter(-PI + 1e-6, 0.0), -PI + 2e-6]
edge_or_any = st.sampled_from(EDGES) | st.floats(-4.0, 4.0)


@st.composite
def poses(draw, within: bool):
    rows, n = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    limits, angles = np.empty((rows, n, 2)), np.empty((rows, n))
    for i in range(rows):
        for j in range(n):
            lo, hi = sorted((draw(edge_or_any), draw(edge_or_any)))
            limits[i, j] = lo, hi
            if within:  # on a bound, pi, just inside -pi, or anywhere between
                a, b = max(lo, np.nextafter(-PI + 1e-6, 0.0)), min(hi, PI)
                picks = st.sampled_from([a, b, PI, a + (b - a) / 3])
                angles[i, j] = draw(picks | st.floats(a, b) if a < b else picks) if a <= b else 0.0
            else:
                angles[i, j] = draw(edge_or_any | st.floats(-10.0, 10.0))
    return angles, (None if draw(st.booleans()) else limits)


@settings(max_examples=300, deadline=None)
@given(poses(within=True))
def test_a_pose_inside_its_ranges_comes_out_of_the_full_clamp_as_it_went_in(case):
    angles, limits = case
    if inside(angles, limits):
        assert np.array_equal(clamped_pose(angles, limits), angles)


@settings(max_examples=300, deadline=None)
@given(poses(within=True) | poses(within=False))
def test_limit_pose_equals_the_full_clamp_bit_for_bit(case):
    angles, limits = case
    got, want = limit_pose(angles, limits), clamped_pose(angles, limits)
    assert got.tobytes() == want.tobytes()
    assert got is not angles and not np.shares_memory(got, angles)


def test_inside_is_false_outside_a_range_off_the_circle_or_for_nan():
    lim = np.array([[[-1.0, 1.0], [-PI, PI]]])
    assert inside(np.array([[0.5, PI]]), lim)
    assert not inside(np.array([[1.5, 0.0]]), lim)
    assert not inside(np.array([[0.0, -PI]]), lim)  # -pi is turned to pi
    assert not inside(np.array([[0.0, 4.0]]), None)  # wrapped
    assert not inside(np.array([[np.nan, 0.0]]), lim)
