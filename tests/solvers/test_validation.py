"""Input validation of the five public solver functions, and no warnings on
finite degenerate input (pytest runs with ``filterwarnings = error``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.solvers import follow_snake, forward_kinematics, solve_ccd, solve_dls, solve_fabrik, solve_two_bone

NAN, INF = math.nan, math.inf
PI = math.pi

# ----------------------------------------------------------------------------
# Good arguments, each case below spoils exactly one
# ----------------------------------------------------------------------------

GOOD_FK = dict(root=(10.0, 20.0), angles=[0.1, -0.2, 0.3], lengths=[30.0, 20.0, 10.0])
GOOD_IK = dict(
    root=(10.0, 20.0),
    angles=[0.1, -0.2, 0.3],
    lengths=[30.0, 20.0, 10.0],
    target=(40.0, 50.0),
    iterations=10,
    tolerance=0.5,
    limits=[[-PI, PI], [-1.0, 1.0], [-0.5, 0.5]],
)
GOOD_SNAKE = dict(
    points=[[0.0, 0.0], [-40.0, 0.0], [-80.0, 0.0]],
    head=(5.0, 0.0),
    lengths=[40.0, 40.0],
    bend_limits=(-0.5, 0.5),
)
GOOD_TWO = dict(root=(0.0, 0.0), target=(120.0, 30.0), l1=100.0, l2=80.0, bend=1)
GOOD_TWO_BATCH = dict(
    root=np.zeros((3, 2)),
    target=np.array([[120.0, 30.0], [10.0, 0.0], [500.0, 0.0]]),
    l1=np.array([100.0, 100.0, 100.0]),
    l2=np.array([80.0, 80.0, 80.0]),
    bend=np.array([1, -1, 1]),
)

BAD_POINTS = [
    pytest.param((1.0, 2.0, 3.0), id="3-vector"),
    pytest.param((1.0,), id="1-vector"),
    pytest.param([[1.0, 2.0], [3.0, 4.0]], id="2x2"),
    pytest.param(5.0, id="scalar"),
    pytest.param("ab", id="string"),
    pytest.param(None, id="None"),
    pytest.param((NAN, 0.0), id="nan-x"),
    pytest.param((0.0, NAN), id="nan-y"),
    pytest.param((INF, 0.0), id="inf"),
    pytest.param((0.0, -INF), id="-inf"),
]


def bad_lengths(n):
    good = [30.0, 20.0, 10.0, 5.0][:n]
    return [
        pytest.param(good[:-1], id="too-few"),
        pytest.param(good + [1.0], id="too-many"),
        pytest.param([], id="empty"),
        pytest.param([good], id="2-D"),
        pytest.param(good[:-1] + [0.0], id="zero"),
        pytest.param([-1.0] + good[1:], id="negative"),
        pytest.param(good[:-1] + [NAN], id="nan"),
        pytest.param([INF] + good[1:], id="inf"),
        pytest.param([1.0, "x", 2.0][:n], id="not-numeric"),
    ]


def bad_angles(n):
    good = [0.1, -0.2, 0.3, 0.0][:n]
    return [
        pytest.param(good[:-1], id="too-few"),
        pytest.param(good + [0.0], id="too-many"),
        pytest.param([good], id="2-D"),
        pytest.param(0.5, id="scalar"),
        pytest.param(good[:-1] + [NAN], id="nan"),
        pytest.param([INF] + good[1:], id="inf"),
    ]


def _drop(cases, ids):
    return [c for c in cases if c.id not in ids]


# ----------------------------------------------------------------------------
# forward_kinematics
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", BAD_POINTS)
def test_fk_rejects_bad_root(value):
    with pytest.raises(ValueError, match="^root"):
        forward_kinematics(**{**GOOD_FK, "root": value})


@pytest.mark.parametrize("value", bad_angles(3))
def test_fk_rejects_bad_angles(value):
    with pytest.raises(ValueError, match="^angles"):
        forward_kinematics(**{**GOOD_FK, "angles": value})


# too-few/too-many lengths is reported against angles (they no longer agree)
@pytest.mark.parametrize("value", _drop(bad_lengths(3), {"too-few", "too-many"}))
def test_fk_rejects_bad_lengths(value):
    with pytest.raises(ValueError, match="^lengths"):
        forward_kinematics(**{**GOOD_FK, "lengths": value})


@pytest.mark.parametrize("value", [[30.0, 20.0], [30.0, 20.0, 10.0, 5.0]])
def test_fk_rejects_angle_and_length_counts_that_disagree(value):
    with pytest.raises(ValueError, match="^(angles|lengths)"):
        forward_kinematics(**{**GOOD_FK, "lengths": value})


# ----------------------------------------------------------------------------
# solve_ccd, solve_fabrik and solve_dls (same contract)
# ----------------------------------------------------------------------------

IK_SOLVERS = [pytest.param(solve_ccd, id="ccd"), pytest.param(solve_fabrik, id="fabrik"),
              pytest.param(solve_dls, id="dls")]

BAD_LIMITS = [
    pytest.param([[-1.0, 1.0], [-1.0, 1.0]], id="too-few"),
    pytest.param([[-1.0, 1.0]] * 4, id="too-many"),
    pytest.param([[-1.0, 1.0, 0.0]] * 3, id="3-columns"),
    pytest.param([-1.0, 1.0, 0.5], id="1-D"),
    pytest.param([[[-1.0, 1.0]]] * 3, id="3-D"),
    pytest.param([[-PI, PI], [NAN, 1.0], [-0.5, 0.5]], id="nan"),
    pytest.param([[-PI, PI], [-1.0, INF], [-0.5, 0.5]], id="inf"),
    pytest.param([[-PI, PI], [1.0, -1.0], [-0.5, 0.5]], id="lo>hi"),
    pytest.param([[-PI, PI], [-1.0, 1.0], [0.5, 0.4999]], id="lo>hi-barely"),
    pytest.param([[-4.0, PI], [-1.0, 1.0], [-0.5, 0.5]], id="below-minus-pi"),
    pytest.param([[-PI, 3.2], [-1.0, 1.0], [-0.5, 0.5]], id="above-pi"),
    pytest.param([[-PI, PI], [-1.0, 1.0], [-7.0, -6.5]], id="degrees-not-radians"),
]


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", BAD_POINTS)
def test_ik_rejects_bad_root(solver, value):
    with pytest.raises(ValueError, match="^root"):
        solver(**{**GOOD_IK, "root": value})


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", BAD_POINTS)
def test_ik_rejects_bad_target(solver, value):
    with pytest.raises(ValueError, match="^target"):
        solver(**{**GOOD_IK, "target": value})


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", bad_angles(3))
def test_ik_rejects_bad_angles(solver, value):
    with pytest.raises(ValueError, match="^angles"):
        solver(**{**GOOD_IK, "angles": value})


# The bone count comes from lengths; a wrong count shows up as angles/limits that
# no longer fit, so those two cases are checked against a chain without limits.
@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", _drop(bad_lengths(3), {"too-few", "too-many"}))
def test_ik_rejects_bad_lengths(solver, value):
    with pytest.raises(ValueError, match="^lengths"):
        solver(**{**GOOD_IK, "lengths": value})


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", [[30.0, 20.0], [30.0, 20.0, 10.0, 5.0]])
def test_ik_rejects_length_counts_that_disagree_with_angles(solver, value):
    with pytest.raises(ValueError, match="^(angles|lengths)"):
        solver(**{**GOOD_IK, "lengths": value, "limits": None})


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", BAD_LIMITS)
def test_ik_rejects_bad_limits(solver, value):
    with pytest.raises(ValueError, match="^limits"):
        solver(**{**GOOD_IK, "limits": value})


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", [0, -1, -10, 2.5, 3.0, "10", None, np.float64(4.0)])
def test_ik_rejects_bad_iterations(solver, value):
    with pytest.raises(ValueError, match="^iterations"):
        solver(**{**GOOD_IK, "iterations": value})


@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize("value", [-0.1, -1e-12, NAN, INF, -INF, "abc", None])
def test_ik_rejects_bad_tolerance(solver, value):
    with pytest.raises(ValueError, match="^tolerance"):
        solver(**{**GOOD_IK, "tolerance": value})


@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_ik_accepts_the_edges_of_the_argument_ranges(solver):
    sol = solver(**{**GOOD_IK, "iterations": 1, "tolerance": 0.0, "limits": [[-PI, PI], [0.0, 0.0], [-PI, -PI]]})
    assert sol.iterations <= 1
    sol = solver(**{**GOOD_IK, "iterations": np.int64(3), "tolerance": np.float64(2.0), "limits": None})
    assert sol.iterations <= 3


# ----------------------------------------------------------------------------
# solve_two_bone (single and batched)
# ----------------------------------------------------------------------------

BAD_LENGTH_SCALARS = [
    pytest.param(0.0, id="zero"),
    pytest.param(0, id="int-zero"),
    pytest.param(-5.0, id="negative"),
    pytest.param(NAN, id="nan"),
    pytest.param(INF, id="inf"),
]
BAD_BENDS = [
    pytest.param(0, id="zero"),
    pytest.param(2, id="two"),
    pytest.param(0.5, id="half"),
    pytest.param(-1.5, id="minus-1.5"),
    pytest.param(NAN, id="nan"),
]


# (a 2x2 array is a valid batch of two points here)
@pytest.mark.parametrize("name", ["root", "target"])
@pytest.mark.parametrize("value", _drop(BAD_POINTS, {"2x2"}))
def test_two_bone_rejects_bad_points(name, value):
    with pytest.raises(ValueError, match=f"^{name}"):
        solve_two_bone(**{**GOOD_TWO, name: value})


@pytest.mark.parametrize("name", ["l1", "l2"])
@pytest.mark.parametrize("value", BAD_LENGTH_SCALARS)
def test_two_bone_rejects_bad_lengths(name, value):
    with pytest.raises(ValueError, match=f"^{name}"):
        solve_two_bone(**{**GOOD_TWO, name: value})


@pytest.mark.parametrize("value", BAD_BENDS)
def test_two_bone_rejects_bad_bend(value):
    with pytest.raises(ValueError, match="^bend"):
        solve_two_bone(**{**GOOD_TWO, "bend": value})


BAD_BATCH_POINTS = [
    pytest.param(np.zeros((3, 3)), id="3-columns"),
    pytest.param(np.zeros((3, 2, 2)), id="3-D"),
    pytest.param(np.zeros((3, 1)), id="1-column"),
    pytest.param(np.array([[0.0, 0.0], [NAN, 0.0], [0.0, 0.0]]), id="nan-row"),
    pytest.param(np.array([[0.0, 0.0], [0.0, 0.0], [0.0, INF]]), id="inf-row"),
]


@pytest.mark.parametrize("name", ["root", "target"])
@pytest.mark.parametrize("value", BAD_BATCH_POINTS)
def test_two_bone_batch_rejects_bad_points(name, value):
    with pytest.raises(ValueError, match=f"^{name}"):
        solve_two_bone(**{**GOOD_TWO_BATCH, name: value})


BAD_BATCH_LENGTHS = [
    pytest.param(np.array([100.0, 0.0, 100.0]), id="zero"),
    pytest.param(np.array([100.0, 100.0, -3.0]), id="negative"),
    pytest.param(np.array([NAN, 100.0, 100.0]), id="nan"),
    pytest.param(np.array([100.0, INF, 100.0]), id="inf"),
    pytest.param(np.full((3, 1), 100.0), id="2-D"),
]


@pytest.mark.parametrize("name", ["l1", "l2"])
@pytest.mark.parametrize("value", BAD_BATCH_LENGTHS)
def test_two_bone_batch_rejects_bad_lengths(name, value):
    with pytest.raises(ValueError, match=f"^{name}"):
        solve_two_bone(**{**GOOD_TWO_BATCH, name: value})


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(np.array([1, 0, -1]), id="zero"),
        pytest.param(np.array([1, 2, -1]), id="two"),
        pytest.param(np.array([1.0, NAN, -1.0]), id="nan"),
        pytest.param(np.ones((3, 1)), id="2-D"),
    ],
)
def test_two_bone_batch_rejects_bad_bend(value):
    with pytest.raises(ValueError, match="^bend"):
        solve_two_bone(**{**GOOD_TWO_BATCH, "bend": value})


def test_two_bone_batch_rejects_sizes_that_do_not_broadcast():
    with pytest.raises(ValueError, match="broadcast"):
        solve_two_bone(**{**GOOD_TWO_BATCH, "l1": np.array([100.0, 100.0])})


# ----------------------------------------------------------------------------
# follow_snake
# ----------------------------------------------------------------------------

BAD_SNAKE_POINTS = [
    pytest.param([0.0, 0.0, 1.0], id="1-D"),
    pytest.param([[0.0, 0.0, 0.0]] * 3, id="3-columns"),
    pytest.param([[0.0, 0.0]], id="single-point"),
    pytest.param(np.zeros((0, 2)), id="empty"),
    pytest.param(np.zeros((3, 2, 1)), id="3-D"),
    pytest.param([[0.0, 0.0], [NAN, 0.0], [-80.0, 0.0]], id="nan"),
    pytest.param([[0.0, 0.0], [-40.0, 0.0], [-80.0, -INF]], id="inf"),
    pytest.param([[0.0, 0.0], [-40.0], [-80.0, 0.0]], id="ragged"),
]


@pytest.mark.parametrize("value", BAD_SNAKE_POINTS)
def test_snake_rejects_bad_points(value):
    with pytest.raises(ValueError, match="^points"):
        follow_snake(**{**GOOD_SNAKE, "points": value})


@pytest.mark.parametrize("value", BAD_POINTS)
def test_snake_rejects_bad_head(value):
    with pytest.raises(ValueError, match="^head"):
        follow_snake(**{**GOOD_SNAKE, "head": value})


@pytest.mark.parametrize("value", bad_lengths(2))
def test_snake_rejects_bad_lengths(value):
    with pytest.raises(ValueError, match="^lengths"):
        follow_snake(**{**GOOD_SNAKE, "lengths": value})


@pytest.mark.parametrize(
    "value",
    [
        pytest.param((0.5, -0.5), id="lo>hi"),
        pytest.param((-0.5, 0.5, 0.0), id="three-values"),
        pytest.param((0.5,), id="one-value"),
        pytest.param(0.5, id="scalar"),
        pytest.param((NAN, 0.5), id="nan"),
        pytest.param((-0.5, INF), id="inf"),
        pytest.param((-4.0, 0.5), id="below-minus-pi"),
        pytest.param((-0.5, 30.0), id="degrees-not-radians"),
    ],
)
def test_snake_rejects_bad_bend_limits(value):
    with pytest.raises(ValueError, match="^bend_limits"):
        follow_snake(**{**GOOD_SNAKE, "bend_limits": value})


# ----------------------------------------------------------------------------
# Finite degenerate input: no warnings (filterwarnings = error), finite output
# ----------------------------------------------------------------------------


def assert_finite(*values):
    for v in values:
        assert np.all(np.isfinite(np.asarray(v, dtype=float))), v


@pytest.fixture(autouse=False)
def strict_numpy():
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        yield


DEGENERATE_TWO_BONE = [
    pytest.param((0.0, 0.0), (0.0, 0.0), 50.0, 50.0, id="target-on-root-equal"),
    pytest.param((3.0, 4.0), (3.0, 4.0), 80.0, 30.0, id="target-on-root-unequal"),
    pytest.param((0.0, 0.0), (100.0, 0.0), 60.0, 40.0, id="on-outer-edge"),
    pytest.param((0.0, 0.0), (0.0, -20.0), 60.0, 40.0, id="on-inner-edge"),
    pytest.param((1.0, 1.0), (1.0 + 30.0 * math.sqrt(0.5), 1.0 + 30.0 * math.sqrt(0.5)), 15.0, 15.0,
                 id="diagonal-edge"),
    pytest.param((0.0, 0.0), (1e-300, 0.0), 50.0, 50.0, id="tiny-distance"),
    pytest.param((0.0, 0.0), (1e6, -1e6), 1e-3, 1e-3, id="far-and-tiny"),
]


@pytest.mark.usefixtures("strict_numpy")
@pytest.mark.parametrize("bend", [1, -1])
@pytest.mark.parametrize(("root", "target", "l1", "l2"), DEGENERATE_TWO_BONE)
def test_two_bone_degenerate_input_is_quiet_and_finite(root, target, l1, l2, bend):
    sol = solve_two_bone(root, target, l1, l2, bend)
    assert_finite(sol.knee, sol.end, sol.theta1, sol.theta2)
    batch = solve_two_bone(np.array([root, root]), np.array([target, target]), np.array([l1, l1]), l2, bend)
    assert_finite(batch.knee, batch.end, batch.theta1, batch.theta2)


DEGENERATE_CHAINS = [
    pytest.param((0.0, 0.0), [0.3, 0.2, -0.1], [30.0, 30.0, 30.0], (0.0, 0.0), id="target-on-root"),
    pytest.param((0.0, 0.0), [0.0, 0.0, 0.0], [30.0, 30.0, 30.0], (90.0, 0.0), id="straight-at-full-reach"),
    pytest.param((0.0, 0.0), [0.0, 0.0, 0.0], [30.0, 30.0, 30.0], (500.0, 0.0), id="straight-beyond"),
    pytest.param((0.0, 0.0), [0.0, 0.0, 0.0], [30.0, 30.0, 30.0], (-50.0, 0.0), id="straight-target-behind"),
    pytest.param((0.0, 0.0), [0.0, 0.0, 0.0], [30.0, 30.0, 30.0], (45.0, 0.0), id="target-on-the-chain"),
    pytest.param((0.0, 0.0), [0.0, PI], [30.0, 30.0], (10.0, 10.0), id="folded-end-on-root"),
    pytest.param((0.0, 0.0), [0.0, PI], [30.0, 30.0], (0.0, 0.0), id="folded-target-on-root"),
    pytest.param((5.0, 5.0), [1.0], [40.0], (5.0, 5.0), id="one-bone-target-on-root"),
    pytest.param((5.0, 5.0), [1.0], [40.0], (45.0, 5.0), id="one-bone-on-reach"),
    pytest.param((5.0, 5.0), [1.0], [40.0], (-995.0, 5.0), id="one-bone-beyond"),
    pytest.param((0.0, 0.0), [0.0, PI, PI], [20.0, 20.0, 20.0], (20.0, 0.0), id="zigzag-target-on-joint"),
    # a joint a hair from its neighbour, against a bone the step length / distance overflows for
    pytest.param((1e-310, 0.0), [0.0], [1.0], (0.0, 0.0), id="root-a-subnormal-from-target"),
    pytest.param((0.0, 0.0), [0.0], [1e299], (1e-10, 0.0), id="huge-bone-target-near-root"),
]


@pytest.mark.usefixtures("strict_numpy")
@pytest.mark.parametrize("limited", [False, True])
@pytest.mark.parametrize("solver", IK_SOLVERS)
@pytest.mark.parametrize(("root", "angles", "lengths", "target"), DEGENERATE_CHAINS)
def test_ik_degenerate_input_is_quiet_and_finite(solver, root, angles, lengths, target, limited):
    limits = [[-PI, PI]] + [[-2.0, 2.0]] * (len(lengths) - 1) if limited else None
    sol = solver(root, angles, lengths, target, iterations=20, tolerance=0.0, limits=limits)
    assert_finite(sol.angles, sol.error)
    pts = forward_kinematics(root, sol.angles, lengths)
    assert_finite(pts)
    assert np.hypot(*np.diff(pts, axis=0).T) == pytest.approx(lengths)


@pytest.mark.usefixtures("strict_numpy")
@pytest.mark.parametrize(
    ("points", "head", "lengths"),
    [
        pytest.param([[0.0, 0.0], [-40.0, 0.0], [-80.0, 0.0]], (-40.0, 0.0), [40.0, 40.0], id="head-on-node-1"),
        pytest.param([[0.0, 0.0]] * 4, (0.0, 0.0), [10.0, 10.0, 10.0], id="all-coincident"),
        pytest.param([[0.0, 0.0]] * 4, (3.0, -4.0), [10.0, 10.0, 10.0], id="coincident-body-moved-head"),
        pytest.param([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0]], (30.0, 0.0), [10.0, 10.0], id="head-through-body"),
        pytest.param([[0.0, 0.0], [1.0, 0.0]], (0.0, 0.0), [1.0], id="one-segment"),
    ],
)
@pytest.mark.parametrize("bend_limits", [(-0.5, 0.5), (0.0, 0.0), (-PI, PI)])
def test_snake_degenerate_input_is_quiet_and_finite(points, head, lengths, bend_limits):
    out = follow_snake(points, head, lengths, bend_limits)
    assert_finite(out)
    assert np.hypot(*np.diff(out, axis=0).T) == pytest.approx(lengths)


@pytest.mark.usefixtures("strict_numpy")
def test_fk_degenerate_input_is_quiet_and_finite():
    pts = forward_kinematics((0.0, 0.0), [0.0, PI, -PI, 1e300], [1e-9, 1e-9, 1e-9, 1e-9])
    assert_finite(pts)
    assert pts.shape == (5, 2)


@pytest.mark.parametrize("k", [1, 3, 5, -1, -3, 101, 1001])
def test_wrapping_an_odd_multiple_of_pi_stays_inside_minus_pi_to_pi(k):
    # Found by hypothesis: a batched two-bone answer came out as pi + 1 ulp.
    from ikplayground.solvers import wrap, wrap_array

    a = np.array([k * math.pi, np.nextafter(k * math.pi, np.inf), np.nextafter(k * math.pi, -np.inf)])
    for w in (wrap_array(a), np.array([wrap(float(x)) for x in a])):
        assert np.all((w > -math.pi) & (w <= math.pi)), w.tolist()
