"""A single chain gives the same answer, bit for bit, however its numbers are given: Python floats in tuples
and lists, numpy float64 scalars (``arr[0]``), small float arrays, ints, float32. The fast paths convert such
numbers once (validate.plain_float / plain_point / plain_list, two_bone._plain_chain); the checked path
(each fast path turned off here) must give the same results, and bad numbers the same one-line errors."""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import follow_snake, solve_ccd, solve_dls, solve_fabrik, solve_two_bone
from ikplayground.solvers import results, snake

KINDS = ("float", "list", "np scalar", "array", "float32 array")
SOLVERS = {"ccd": solve_ccd, "fabrik": solve_fabrik, "dls": solve_dls}

coord = st.floats(-1e4, 1e4, allow_nan=False, allow_subnormal=False)
length = st.floats(0.5, 500.0)
angle = st.floats(-4.0, 4.0)


def given_as(value, kind: str):
    """A float, a point (tuple) or a list of floats or of points, given as ``kind``."""
    arr = np.array(value, dtype=np.float64)
    if kind == "float":
        return value
    if kind == "list":
        return arr.tolist()
    if kind == "array":
        return arr[()] if arr.ndim == 0 else arr
    if kind == "float32 array":  # (the values are float32's to begin with: see exact32)
        return arr.astype(np.float32)[()] if arr.ndim == 0 else arr.astype(np.float32)
    if arr.ndim == 0:  # np scalar
        return arr[()]
    if arr.ndim == 1:
        return tuple(arr) if isinstance(value, tuple) else list(arr)
    return [tuple(row) for row in arr]


def exact32(value):
    """``value`` (a float, tuple or list of them, nested) rounded to float32, so every kind holds the same numbers."""
    if isinstance(value, float):
        return float(np.float32(value))
    return type(value)(exact32(v) for v in value)


def same(a, b) -> bool:
    """The same type and the same bits (arrays, floats, bools, strings, ints)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, float):
        return np.float64(a).tobytes() == np.float64(b).tobytes()
    return a == b


def same_result(a, b) -> bool:
    return type(a) is type(b) and all(same(x, y) for x, y in zip(a, b))


@st.composite
def chains(draw):
    n = draw(st.integers(1, 7))
    root = (draw(coord), draw(coord))
    angles = [draw(angle) for _ in range(n)]
    lengths = [draw(length) for _ in range(n)]
    reach = draw(st.floats(0.0, 1.2 * sum(lengths)))
    heading = draw(st.floats(-math.pi, math.pi))
    target = (root[0] + reach * math.cos(heading), root[1] + reach * math.sin(heading))
    return root, angles, lengths, target


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(chains(), st.sampled_from(KINDS), st.sampled_from(sorted(SOLVERS)), st.sampled_from([0.5, 0.0]))
def test_iterative_solvers_give_the_same_answer_for_every_input_kind(chain, kind, name, tolerance):
    if kind == "float32 array":
        chain = exact32(chain)
    solver = SOLVERS[name]
    want = solver(*chain, iterations=12, tolerance=tolerance)  # Python floats in tuples and lists: the fast path
    args = [given_as(v, kind) for v in chain]
    got = solver(*args, iterations=12, tolerance=given_as(tolerance, kind))
    assert same_result(got, want)
    with mock.patch.object(results, "_plain_problem", return_value=None):  # the checked path
        checked = solver(*args, iterations=12, tolerance=given_as(tolerance, kind))
    assert same_result(checked, want)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(chains(), st.floats(0.1, 1.0))
def test_dls_written_out_free_step_equals_the_full_circle_limited_one(chain, damping):
    """Full-circle limits limit nothing, but run the step through turned() and joint_points(): the written-out
    step without limits must give the same floats."""
    n = len(chain[1])
    free = solve_dls(*chain, iterations=15, tolerance=0.0, damping=damping)
    circle = solve_dls(*chain, iterations=15, tolerance=0.0, damping=damping, limits=[(-math.pi, math.pi)] * n)
    assert same_result(free, circle)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(coord, coord, coord, coord, length, length, st.sampled_from([1, -1, 1.0, -1.0]), st.sampled_from(KINDS))
def test_two_bone_gives_the_same_answer_for_every_input_kind(rx, ry, tx, ty, l1, l2, bend, kind):
    root, target = (rx, ry), (tx, ty)
    if kind == "float32 array":
        root, target, l1, l2 = exact32(root), exact32(target), exact32(l1), exact32(l2)
    want = solve_two_bone(root, target, l1, l2, bend)  # floats in tuples: the commonest call
    got = solve_two_bone(given_as(root, kind), given_as(target, kind), given_as(l1, kind), given_as(l2, kind),
                         given_as(float(bend), kind) if kind != "float" else bend)
    assert same_result(got, want)
    assert type(got.theta1) is float and type(got.reached) is bool and got.knee.shape == (2,)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8), st.floats(-50, 50), st.floats(-50, 50), st.floats(0.0, 1.0), st.sampled_from(KINDS),
       st.data())
def test_follow_snake_gives_the_same_answer_for_every_input_kind(n, hx, hy, bend, kind, data):
    points = [(data.draw(coord), data.draw(coord)) for _ in range(n + 1)]
    lengths = [data.draw(length) for _ in range(n)]
    limits = (-bend, bend)
    if kind == "float32 array":
        points, lengths, limits = exact32(points), exact32(lengths), exact32(limits)
        hx, hy = exact32((hx, hy))
    want = follow_snake(points, (hx, hy), lengths, limits)
    args = [given_as(v, kind) for v in (points, (hx, hy), lengths, limits)]
    got = follow_snake(*args)
    assert same(got, want)
    with mock.patch.object(snake, "_plain_snake", return_value=None):  # the checked path
        assert same(follow_snake(*args), want)


BAD = [
    ("nan", lambda: np.float64("nan")),
    ("inf", lambda: np.float64("inf")),
    ("bool", lambda: np.bool_(True)),
    ("huge int", lambda: 10 ** 400),
    ("string", lambda: "1.0"),
]


@pytest.mark.parametrize("bad", [b[1] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_a_bad_number_among_numpy_scalars_is_refused_naming_the_argument(bad, name):
    root = (np.float64(0.0), np.float64(0.0))
    angles = [np.float64(0.1)] * 3
    lengths = [np.float64(30.0)] * 3
    target = (np.float64(50.0), np.float64(20.0))
    for arg, args in (("root", ((bad(), root[1]), angles, lengths, target)),
                      ("angles", (root, [angles[0], bad(), angles[2]], lengths, target)),
                      ("lengths", (root, angles, [lengths[0], lengths[1], bad()], target)),
                      ("target", (root, angles, lengths, (target[0], bad())))):
        with pytest.raises(ValueError, match=f"^{arg}: ") as err:
            SOLVERS[name](*args)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("bad", [b[1] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_number_among_two_bone_numpy_scalars_is_refused_naming_the_argument(bad):
    root = (np.float64(0.0), np.float64(0.0))
    target = np.array([50.0, 20.0])
    l1, l2 = np.float64(40.0), np.float64(30.0)
    for arg, args in (("root", ((bad(), root[1]), target, l1, l2)), ("target", (root, (bad(), 1.0), l1, l2)),
                      ("l1", (root, target, bad(), l2)), ("l2", (root, target, l1, bad()))):
        with pytest.raises(ValueError, match=f"^{arg}: ") as err:
            solve_two_bone(*args)
        assert "\n" not in str(err.value)
