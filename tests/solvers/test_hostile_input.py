"""The public solvers under hostile input (issue 10, section 4).

Every public solver either raises ValueError whose message starts with the
argument's name, or returns a finite answer. What counts as a number and how
large a coordinate may be: ``ikplayground/solvers/validate.py``.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ikplayground.solvers import follow_snake, forward_kinematics, solve_ccd, solve_dls, solve_fabrik, solve_two_bone
from ikplayground.solvers import ccd_batch, fabrik_batch, snake_batch
from ikplayground.solvers import dls_batch, solve_ccd_batch, solve_dls_batch, solve_fabrik_batch
from ikplayground.solvers import two_bone_arrays

PI = math.pi

# Each public call with good arguments; every argument but ``iterations`` holds numbers.
GOOD = {
    "forward_kinematics": dict(root=(10.0, 20.0), angles=[0.1, -0.2, 0.3], lengths=[30.0, 20.0, 10.0]),
    "solve_ccd": dict(root=(10.0, 20.0), angles=[0.1, -0.2, 0.3], lengths=[30.0, 20.0, 10.0], target=(40.0, 50.0),
                      tolerance=0.5, limits=[[-PI, PI], [-1.0, 1.0], [-0.5, 0.5]]),
    "solve_two_bone": dict(root=(0.0, 0.0), target=(120.0, 30.0), l1=100.0, l2=80.0, bend=1),
    "follow_snake": dict(points=[[0.0, 0.0], [-40.0, 0.0], [-80.0, 0.0]], head=(5.0, 0.0), lengths=[40.0, 40.0],
                         bend_limits=(-0.5, 0.5)),
}
GOOD["solve_fabrik"] = GOOD["solve_ccd"]
GOOD["solve_dls"] = {**GOOD["solve_ccd"], "damping": 0.5, "pole": (40.0, -30.0)}
SOLVERS = {"forward_kinematics": forward_kinematics, "solve_ccd": solve_ccd, "solve_fabrik": solve_fabrik,
           "solve_dls": solve_dls, "solve_two_bone": solve_two_bone, "follow_snake": follow_snake}
NUMBER_ARGUMENTS = [pytest.param(s, name, id=f"{s}-{name}") for s in SOLVERS for name in GOOD[s]]
POINT_ARGUMENTS = [pytest.param(s, name, id=f"{s}-{name}") for s in SOLVERS for name in GOOD[s]
                   if name in ("root", "target", "head", "bend_limits", "pole")]
IK_SOLVERS = [pytest.param(solve_ccd, id="ccd"), pytest.param(solve_fabrik, id="fabrik"),
              pytest.param(solve_dls, id="dls")]
NOT_REAL = "must be (a )?real numbers?"  # the start of the message after the argument's name


def call(solver: str, **changed):
    return SOLVERS[solver](**{**GOOD[solver], **changed})


def spoil(value, bad):
    """``value`` with its first number (depth first) replaced by ``bad``."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value)([spoil(value[0], bad), *value[1:]])
    return bad


# ----------------------------------------------------------------------------
# What is not a number
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("solver, name", NUMBER_ARGUMENTS)
@pytest.mark.parametrize("big", [10**400, -(10**400)], ids=["10**400", "-10**400"])
def test_an_int_beyond_float_range_is_refused_naming_the_argument(solver, name, big):
    with pytest.raises(ValueError, match=f"^{name}: .*beyond float range"):
        call(solver, **{name: spoil(GOOD[solver][name], big)})


@pytest.mark.slow
@pytest.mark.parametrize("solver, name", NUMBER_ARGUMENTS)
@pytest.mark.parametrize("form", ["complex-array", "complex-element", "numpy-complex-element"])
def test_complex_numbers_are_refused_naming_the_argument(solver, name, form):
    good = GOOD[solver][name]
    if form == "complex-array":
        value = np.asarray(good, dtype=complex)
    else:
        value = spoil(good, 1 + 0j if form == "complex-element" else np.complex128(1.0))
    with pytest.raises(ValueError, match=f"^{name}: {NOT_REAL}"):
        call(solver, **{name: value})


@pytest.mark.parametrize("solver, name", POINT_ARGUMENTS)
@pytest.mark.parametrize("text", ["12", b"12"], ids=["str", "bytes"])
def test_a_string_is_not_read_as_a_point(solver, name, text):
    with pytest.raises(ValueError, match=f"^{name}: must be real numbers, got a string"):
        call(solver, **{name: text})


@pytest.mark.parametrize("solver, name", NUMBER_ARGUMENTS)
def test_a_string_of_digits_is_not_read_as_a_number(solver, name):
    with pytest.raises(ValueError, match=f"^{name}: {NOT_REAL}"):
        call(solver, **{name: spoil(GOOD[solver][name], "1")})


@pytest.mark.parametrize("solver, name", NUMBER_ARGUMENTS)
@pytest.mark.parametrize("flag", [True, False, np.True_], ids=["True", "False", "numpy-True"])
def test_booleans_are_not_numbers(solver, name, flag):
    # bend=True, l1=True, tolerance=True, (True, 0.0) as a point, [True, 20, 10] as lengths ...
    with pytest.raises(ValueError, match=f"^{name}: {NOT_REAL}"):
        call(solver, **{name: spoil(GOOD[solver][name], flag)})


@pytest.mark.parametrize("solver, name", NUMBER_ARGUMENTS)
def test_boolean_arrays_are_not_numbers(solver, name):
    value = np.ones(np.shape(GOOD[solver][name]), dtype=bool)
    with pytest.raises(ValueError, match=f"^{name}: {NOT_REAL}"):
        call(solver, **{name: value})


def _exact(value, kind):
    """``value`` with every float turned into ``kind`` (Decimal or Fraction; both exact)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value)(_exact(v, kind) for v in value)
    return kind(value)


@settings(deadline=None, max_examples=100)
@pytest.mark.slow
@given(
    st.sampled_from(sorted(SOLVERS)),
    st.sampled_from([Decimal, Fraction]),
    st.lists(st.floats(-500.0, 500.0), min_size=4, max_size=4),
    st.integers(1, 2**6 - 1),
)
@example("solve_two_bone", Decimal, [0.0] * 4, 0b00011)  # Decimal points, float lengths (the fast path)
@example("solve_ccd", Fraction, [0.5] * 4, 0b111111)
def test_decimal_and_fraction_numbers_are_read_as_the_floats_they_equal(solver, kind, shift, which):
    """Decimal and Fraction are accepted as numbers, in any argument: the answer is the one for the floats
    they equal. (``which`` is a bit mask over the arguments, in the order of GOOD, picking those to convert.)"""
    args = dict(GOOD[solver])
    for name in ("root", "target", "head"):  # move the points about, so many values are tried
        if name in args:
            args[name] = (args[name][0] + shift[0], args[name][1] + shift[1])
    if "points" in args:
        args["points"] = [[x + shift[2], y + shift[3]] for x, y in args["points"]]
    want = SOLVERS[solver](**args)
    exact = {name: _exact(value, kind) if which >> i & 1 else value for i, (name, value) in enumerate(args.items())}
    got = SOLVERS[solver](**exact)
    # (equal to rounding: solve_two_bone takes another code path for them than for plain floats)
    if isinstance(want, np.ndarray):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)
    else:  # a named tuple
        for g, w in zip(got, want, strict=True):
            if isinstance(w, str):
                assert g == w
            else:
                np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-9)


# ----------------------------------------------------------------------------
# Empty batches
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "root, target, l1",
    [
        pytest.param(np.zeros((0, 2)), np.zeros((0, 2)), 100.0, id="roots-and-targets"),
        pytest.param(np.zeros((0, 2)), (120.0, 30.0), 100.0, id="roots"),
        pytest.param((0.0, 0.0), np.zeros((0, 2)), 100.0, id="targets"),
        pytest.param((0.0, 0.0), (120.0, 30.0), np.zeros(0), id="lengths"),
        pytest.param(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), id="all"),
    ],
)
def test_an_empty_two_bone_batch_gives_empty_results(root, target, l1):
    sol = solve_two_bone(root, target, l1, 80.0)
    for field in (sol.knee, sol.end):
        assert field.shape == (0, 2) and field.dtype == np.float64
    for field in (sol.theta1, sol.theta2):
        assert field.shape == (0,) and field.dtype == np.float64
    assert sol.reached.shape == (0,) and sol.reached.dtype == bool


def test_the_batched_helpers_take_zero_chains():
    z2, zn = np.zeros((0, 2)), np.zeros((0, 3))
    knee, end, theta1, theta2, reached, scale = two_bone_arrays(z2, z2, np.zeros(0), np.zeros(0), np.zeros(0))
    assert knee.shape == end.shape == (0, 2) and theta1.shape == theta2.shape == reached.shape == scale.shape == (0,)
    for batch in (ccd_batch, fabrik_batch, dls_batch):
        angles, error, used = batch(z2, zn, zn, z2, np.zeros(0, dtype=np.int64), np.zeros(0))
        assert angles.shape == (0, 3) and error.shape == (0,) and used.shape == (0,)
        assert angles.dtype == error.dtype == np.float64 and used.dtype == np.int64
    assert snake_batch(np.zeros((0, 4, 2)), z2, zn, np.zeros(0), np.zeros(0)).shape == (0, 4, 2)


# ----------------------------------------------------------------------------
# Sizes whose sums and differences overflow
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("root, target", [((1e308, 1e308), (-1e308, -1e308)), ((1e308, 0.0), (-1e308, 0.0))])
def test_a_root_and_target_whose_difference_overflows_are_refused(solver, root, target):
    with pytest.raises(ValueError, match="^root: coordinates must lie within"):
        solver(root, [0.0, 0.0], [1.0, 1.0], target, iterations=10)


@pytest.mark.parametrize(
    "root, angles, lengths, name",
    [
        pytest.param((0.0, 0.0), [0.0, 0.0], [1e308, 1e308], "lengths", id="lengths-sum"),
        pytest.param((1e300, 0.0), [0.0], [1e300], "lengths", id="root-plus-length"),
        pytest.param((0.0, 0.0), [1e308, 1e308], [1.0, 1.0], "angles", id="angle-sum"),
    ],
)
def test_forward_kinematics_refuses_a_chain_whose_sums_overflow(root, angles, lengths, name):
    with pytest.raises(ValueError, match=f"^{name}"):
        forward_kinematics(root, angles, lengths)


ANY_FLOAT = st.floats(allow_nan=False, allow_infinity=False)  # 1e308, -1e-320, 0.0 ...
ANY_LENGTH = st.floats(min_value=0.0, exclude_min=True, allow_infinity=False)
ANY_ANGLE = st.floats(-10.0, 10.0)
ARGUMENT_NAME = re.compile(r"^(root|target|angles|lengths|limits|l1|l2|points|head)\b")


def assert_refused_or_finite(run):
    """``run()`` raises ValueError naming an argument, or returns only finite numbers."""
    try:
        with np.errstate(divide="raise", over="raise", invalid="raise"):  # (underflow is harmless)
            out = run()
    except ValueError as e:
        assert ARGUMENT_NAME.match(str(e)), str(e)
        return
    for v in out if isinstance(out, tuple) else (out,):
        assert np.all(np.isfinite(np.asarray(v, dtype=float))), out


@pytest.mark.slow
@settings(deadline=None, max_examples=300)
@given(st.lists(ANY_FLOAT, min_size=4, max_size=4), st.lists(ANY_LENGTH, min_size=1, max_size=4), st.data())
def test_any_magnitudes_are_refused_by_name_or_give_finite_answers(coords, lengths, data):
    n = len(lengths)
    root, target = coords[:2], coords[2:]
    angles = data.draw(st.lists(ANY_ANGLE, min_size=n, max_size=n))
    limits = data.draw(st.sampled_from([None, [[-PI, PI]] + [[-0.5, 0.5]] * (n - 1)]))
    assert_refused_or_finite(lambda: forward_kinematics(root, angles, lengths))
    for solver in (solve_ccd, solve_fabrik, solve_dls):
        assert_refused_or_finite(lambda: solver(root, angles, lengths, target, iterations=12, tolerance=0.0,
                                                limits=limits)[:2])
    l2 = lengths[-1]
    assert_refused_or_finite(lambda: solve_two_bone(root, target, lengths[0], l2)[:4])
    assert_refused_or_finite(lambda: solve_two_bone(np.array([root]), np.array([target]), lengths[0], l2)[:4])
    points = ([root, target] * n)[: n + 1]
    assert_refused_or_finite(lambda: follow_snake(points, target, lengths, (-0.5, 0.5)))


# ----------------------------------------------------------------------------
# Counts too large for the arrays that hold them
# ----------------------------------------------------------------------------

HUGE_COUNTS = [10**30, 2**31, np.uint64(2**64 - 1), np.int64(2**62)]


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", HUGE_COUNTS)
def test_an_iteration_count_beyond_the_largest_is_refused_naming_it(solver, value):
    with pytest.raises(ValueError, match=r"^iterations: must be an integer from 1 to 2,147,483,647"):
        call(solver.__name__, iterations=value)


@pytest.mark.parametrize("batch", [solve_ccd_batch, solve_fabrik_batch, solve_dls_batch])
@pytest.mark.parametrize("value", HUGE_COUNTS + [np.array([3, 2**64 - 1], dtype=np.uint64),
                                                  np.array([3, 2**40], dtype=np.int64)])
def test_a_batched_iteration_count_beyond_the_largest_is_refused_not_wrapped(batch, value):
    roots, targets = np.zeros((2, 2)), np.full((2, 2), 30.0)
    angles, lengths = np.zeros((2, 3)), np.full((2, 3), 20.0)
    with pytest.raises(ValueError, match=r"^iterations: must be (an integer|integers) from 1 to 2,147,483,647"):
        batch(roots, angles, lengths, targets, iterations=value)
