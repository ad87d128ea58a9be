"""The commonest two-bone call (floats in tuples, checked in a few comparisons in two_bone.py) gives the same
floats, bit for bit, as the same chain given any other plain way (lists, numpy points and scalars), and the
float types a single call promises."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import solve_two_bone, two_bone_arrays

coord = st.floats(-1e4, 1e4, allow_nan=False, allow_subnormal=False) | st.sampled_from([0.0, -0.0, 1e-9, -1e-9])
length = st.floats(1e-3, 1e4, allow_nan=False) | st.sampled_from([1.0, 100.0, 1e-99, 9e99])


def same_bits(a, b) -> bool:
    return np.asarray(a).tobytes() == np.asarray(b).tobytes()


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(coord, coord, coord, coord, length, length, st.sampled_from([1, -1, 1.0, -1.0]), st.booleans())
def test_plain_tuple_call_equals_the_general_formula(rx, ry, tx, ty, l1, l2, bend, on_root):
    if on_root:  # the target on the root, or on the annulus' inner or outer edge
        tx, ty = rx, ry
    want = solve_two_bone(np.array([rx, ry]), [tx, ty], np.float64(l1), np.float64(l2), np.float64(bend))
    got = solve_two_bone((rx, ry), (tx, ty), l1, l2, bend)
    assert type(got.knee) is np.ndarray and got.knee.shape == (2,) and got.end.shape == (2,)
    for field in ("knee", "end", "theta1", "theta2"):
        assert same_bits(getattr(got, field), getattr(want, field)), field
    assert got.reached is want.reached and got.scale == 1.0
    assert type(got.theta1) is float and type(got.theta2) is float


def test_edges_of_the_annulus():
    for d in (20.0, 180.0, 0.0, 19.999999999999996, 180.00000000000003):
        want = solve_two_bone([0.0, 0.0], np.array([d, 0.0]), 100, np.float64(80.0), -1.0)
        got = solve_two_bone((0.0, 0.0), (d, 0.0), 100.0, 80.0, -1)
        assert same_bits(got.knee, want.knee) and same_bits(got.end, want.end)
        assert got.theta1 == want.theta1 and got.theta2 == want.theta2 and got.reached is want.reached


@pytest.mark.parametrize("tiny", [5e-324, 1e-310, 1e-200])
def test_a_target_a_subnormal_distance_from_the_root_gets_a_finite_pose_in_both_forms(tiny):
    """Such a distance times 2 l1 underflows to 0: the law of cosines' division must not run (it raised
    ZeroDivisionError, and the batched form gave NaN with a warning)."""
    one = solve_two_bone((0.0, 0.0), (0.0, tiny), 0.25, 0.25)
    knee, end, t1, t2, reached, _ = two_bone_arrays(np.zeros((1, 2)), np.array([[0.0, tiny]]), np.array([0.25]),
                                                    np.array([0.25]), np.array([1.0]))
    assert np.isfinite(one.knee).all() and np.isfinite(one.end).all() and one.reached
    assert (one.theta1, one.theta2) == (t1[0], t2[0]) and reached[0]
    assert np.abs(end[0] - one.end).max() < 1e-15 and np.abs(knee[0] - one.knee).max() < 1e-15
