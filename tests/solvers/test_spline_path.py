"""along_path: a chain laid along a cubic Bezier spline by arc length (Spine's path constraint, Godot's spline IK).

Checked against an independent arc length: de Casteljau's points and composite Simpson's rule, inverted by
bisection, for each joint's arc length ``start + sum(lengths[:i])``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ikplayground.solvers import along_path

FAST = settings(deadline=None, max_examples=40)
coordinate = st.floats(-300.0, 1300.0)


def de_casteljau(ctrl: np.ndarray, t: float) -> np.ndarray:
    pts = np.array(ctrl, dtype=float)
    while len(pts) > 1:
        pts = (1.0 - t) * pts[:-1] + t * pts[1:]
    return pts[0]


def speed(ctrl: np.ndarray, t: np.ndarray) -> np.ndarray:
    d = 3.0 * np.diff(ctrl, axis=0)  # the hodograph: a quadratic Bezier
    m = 1.0 - t[:, None]
    v = m * m * d[0] + 2.0 * m * t[:, None] * d[1] + t[:, None] ** 2 * d[2]
    return np.hypot(v[:, 0], v[:, 1])


def arc(ctrl: np.ndarray, t: float, pieces: int = 4000) -> float:
    """Arc length of one segment from 0 to ``t`` by composite Simpson's rule."""
    x = np.linspace(0.0, t, 2 * pieces + 1)
    y = speed(ctrl, x)
    h = t / (2 * pieces)
    return float(h / 3.0 * (y[0] + y[-1] + 4.0 * y[1:-1:2].sum() + 2.0 * y[2:-1:2].sum()))


def point_at(control: np.ndarray, s: float) -> np.ndarray:
    """The spline's point at arc length ``s`` (inside it), found segment by segment and by bisection on t."""
    for j in range((len(control) - 1) // 3):
        ctrl = control[3 * j:3 * j + 4]
        whole = arc(ctrl, 1.0)
        if s <= whole or j == (len(control) - 1) // 3 - 1:
            lo, hi = 0.0, 1.0
            for _ in range(50):
                mid = (lo + hi) / 2.0
                lo, hi = (mid, hi) if arc(ctrl, mid) < s else (lo, mid)
            return de_casteljau(ctrl, (lo + hi) / 2.0)
        s -= whole
    raise AssertionError("unreachable")


@st.composite
def splines(draw, max_segments=2, moving=False):
    """Control points of k cubic segments; ``moving``: only splines whose speed never drops below a
    twentieth of their control polygon's length (no cusp, no end point on its neighbour, no near one)."""
    k = draw(st.integers(1, max_segments))
    points = np.array(draw(st.lists(st.tuples(coordinate, coordinate), min_size=3 * k + 1, max_size=3 * k + 1)))
    if moving:
        polygon = np.hypot(*np.diff(points, axis=0).T).sum()
        t = np.linspace(0.0, 1.0, 2001)
        slowest = min(speed(points[3 * j:3 * j + 4], t).min() for j in range(k))
        assume(polygon > 1.0 and slowest >= 0.05 * polygon)
    return points


def total_length(control: np.ndarray) -> float:
    return sum(arc(control[3 * j:3 * j + 4], 1.0) for j in range((len(control) - 1) // 3))


def lay_half(control, lengths, where, atol):
    """Lay a chain over half the spline from ``where`` (0 to 1) of the other half; each joint within ``atol``
    px of the reference's point at its arc length."""
    total = total_length(control)
    lengths = np.array(lengths) * (total / (2.0 * sum(lengths)))  # the chain covers half the curve
    start = where * total / 2.0
    joints = along_path(control, lengths, start=start)
    assert joints.shape == (len(lengths) + 1, 2)
    wanted = start + np.r_[0.0, np.cumsum(lengths)]
    for q, s in zip(joints, wanted):
        np.testing.assert_allclose(q, point_at(control, s), rtol=0, atol=atol)


@FAST
@given(splines(moving=True), st.lists(st.floats(1.0, 120.0), min_size=1, max_size=6), st.floats(0.0, 1.0))
def test_each_joint_sits_on_the_curve_at_its_arc_length(control, lengths, where):
    lay_half(control, lengths, where, 1e-5)


@pytest.mark.slow
@FAST
@given(splines(), st.lists(st.floats(1.0, 120.0), min_size=1, max_size=6), st.floats(0.0, 1.0))
def test_a_curve_that_stops_or_nearly_stops_on_the_way_is_followed_within_1e_3_px(control, lengths, where):
    assume(total_length(control) >= 1.0)  # below that, a point: the tangent rule's case
    lay_half(control, lengths, where, 1e-3)  # the reference's Simpson rule is itself no better near a stop


def test_a_straight_spline_lays_the_bones_end_to_end():
    control = np.array([[100.0, 200.0], [200.0, 200.0], [300.0, 200.0], [400.0, 200.0]])  # even: t is arc length
    joints = along_path(control, [50.0, 30.0, 70.0], start=20.0)
    np.testing.assert_allclose(joints, [[120.0, 200.0], [170.0, 200.0], [200.0, 200.0], [270.0, 200.0]], atol=1e-6)


def test_past_either_end_the_chain_runs_on_along_the_tangent():
    control = np.array([[0.0, 0.0], [0.0, 100.0], [100.0, 200.0], [200.0, 200.0]])  # leaves down, ends going right
    total = total_length(control)
    before = along_path(control, [10.0, 10.0], start=-30.0)
    np.testing.assert_allclose(before, [[0.0, -30.0], [0.0, -20.0], [0.0, -10.0]], atol=1e-9)
    after = along_path(control, [25.0], start=total + 5.0)
    np.testing.assert_allclose(after, [[205.0, 200.0], [230.0, 200.0]], atol=1e-3)


@FAST
@given(st.lists(splines(max_segments=1), min_size=1, max_size=5), st.data())
def test_batched_rows_equal_single_calls(controls, data):
    n = data.draw(st.integers(1, 5))
    lengths = np.array([[data.draw(st.floats(1.0, 90.0)) for _ in range(n)] for _ in controls])
    starts = np.array([data.draw(st.floats(-100.0, 900.0)) for _ in controls])
    rows = along_path(np.array(controls), lengths, start=starts)
    for k, control in enumerate(controls):
        np.testing.assert_array_equal(rows[k], along_path(control, lengths[k], start=starts[k]))


@pytest.mark.parametrize("name, value", [
    ("control_points", np.zeros((3, 2))), ("control_points", np.zeros((5, 2))), ("control_points", [[0, 0]] * 3 +
                                                                                [[0, np.nan]]),
    ("lengths", [10.0, -1.0]), ("lengths", []), ("start", np.inf), ("start", [1.0, 2.0]),
])
def test_bad_input_is_a_value_error_naming_the_argument(name, value):
    kwargs = dict(control_points=np.zeros((4, 2)), lengths=[10.0, 10.0], start=0.0)
    kwargs[name] = value
    with pytest.raises(ValueError, match=f"^{name}: "):
        along_path(**kwargs)
