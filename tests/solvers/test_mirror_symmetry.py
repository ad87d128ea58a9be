"""Every solver is mirror symmetric: the mirror image of a problem is solved by the mirror image of its answer.

Mirror about the vertical ``x = x0`` (docs/design.md, "Mirror flip"): a point
``(x, y)`` goes to ``(x0 - (x - x0), y)``; joint 0's angle (an absolute
heading) ``a`` to ``pi - a``, every other (relative) angle to ``-a``; a
relative joint's range ``(lo, hi)`` to ``(-hi, -lo)``, joint 0's to
``(pi - hi, pi - lo)`` (or ``(-pi - hi, -pi - lo)`` for a range below 0, so
that it stays inside [-pi, pi]; a range across 0 cannot be mirrored and is not
drawn here); a two-bone arm's ``bend`` to ``-bend``; a snake's bend range as a
relative joint's; a heading for the last bone (an absolute direction) ``h`` to
``pi - h``. The mirror is written here independently of
``ikplayground.scene.core.mirror``.

Solving the mirrored problem (root, target, pole, start, limits) must give the
mirrored answer to 1e-9: angles as wrapped differences, joints in px, the
error, and the same status and iteration count, for the single calls, the
batched calls (``solvers.batch_api``) and the engines the scene steps with
(``solvers.batched`` on numpy and on the numba kernels, ``solvers.dls_batch``).

What the solvers do to make it so (docs/design.md): joint 0's heading is
clamped to the bound nearer round the circle; DLS weighs each escape kick both
ways, takes a step of next to nothing unless it costs more than rounding, and
counts a joint within 1e-12 rad of a bound as on it; FABRIK goes back to an
escape's best pose only when it is better by more than rounding; a stretched
two-bone arm is exactly straight.

Kept away from, with ``assume`` (:func:`tied`): the ties no rule can break
both ways at once, measure zero among real poses but easy for hypothesis to
draw (a straight chain of round numbers): a target on the root (no direction:
the solvers fall back to +x), a joint on the target (CCD's turn there has no
direction), and a start pose along the root-target line, where bending
either way is the same (CCD's first turn, DLS's escape kicks). The budgets stay at 16 sweeps or fewer:
a limited FABRIK solve can wander chaotically for many passes, and there any
rounding (a mirror's, or a shift of the whole problem by a pixel) grows about
twofold a pass, past 1e-9 after some 25 passes.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ikplayground.solvers import (follow_snake, follow_snake_batch, forward_kinematics, solve_ccd,
                                  solve_ccd_batch, solve_dls, solve_dls_batch, solve_fabrik, solve_fabrik_batch,
                                  solve_jacobian, solve_two_bone)
from ikplayground.solvers import chain_problem
from ikplayground.solvers import ccd_batch, fabrik_batch, snake_batch
from ikplayground.solvers import escape, joint_bounds
from ikplayground.solvers import dls_batch
from ikplayground.solvers import two_bone_arrays

PI = math.pi
TAU = 2.0 * math.pi
FULL = TAU - 1e-9  # a range this wide is the full circle
TOL = 1e-9
EXAMPLES = settings(deadline=None, max_examples=300)


# --- the mirror (independent of ikplayground.scene.mirror) ----------------------------------------
def mirror_points(p, x0: float) -> np.ndarray:
    p = np.array(p, dtype=float)
    p[..., 0] = x0 - (p[..., 0] - x0)
    return p


def mirror_limits(limits) -> np.ndarray | None:
    if limits is None:
        return None
    lim = np.asarray(limits, dtype=float)
    out = np.stack([-lim[..., 1], -lim[..., 0]], axis=-1)
    lo, hi = lim[..., 0, 0], lim[..., 0, 1]
    limited = hi - lo < FULL
    out[..., 0, 0] = np.where(limited, np.where(lo >= 0, PI - hi, -PI - hi), -hi)
    out[..., 0, 1] = np.where(limited, np.where(lo >= 0, PI - lo, -PI - lo), -lo)
    return out


def mirror_angles(angles, limits=None) -> np.ndarray:
    """Joint 0 by the same sums as its range (so a heading on a bound lands on the mirrored bound)."""
    a = np.array(angles, dtype=float)
    first = a[..., 0]
    below = first < 0
    if limits is not None:
        lim = np.asarray(limits, dtype=float)
        low_range = (lim[..., 0, 1] - lim[..., 0, 0] < FULL) & (lim[..., 0, 0] < 0)
        below = np.where(low_range, first <= 0, below)
    a[..., 0] = np.where(below, -PI - first, PI - first)
    a[..., 1:] = -a[..., 1:]
    return a


def gaps(a, b) -> np.ndarray:
    """Wrapped differences of angles."""
    return np.abs(np.remainder(np.asarray(a) - np.asarray(b) + PI, TAU) - PI)


# --- problems ------------------------------------------------------------------------------------
@st.composite
def ranges(draw, first: bool):
    """A joint's range: the full circle or a random one (joint 0's on one side of 0, which mirrors). A
    relative joint's bounds are nudged off 0 and +-pi (by a :func:`hair`): a chain held exactly straight or
    folded by its limits lies on its target's line once CCD has turned its tip onto it (a tie)."""
    if draw(st.booleans()):
        return (-PI, PI)
    lo, hi = sorted(draw(st.floats(-PI, PI)) * (1.0 - 0.01) + hair(30 + k) for k in range(2))
    if first and lo < 0 < hi:
        if draw(st.booleans()):
            lo = draw(st.floats(0.0, hi))
        else:
            hi = draw(st.floats(lo, 0.0))
    return (lo, hi)


def hair(k: int) -> float:
    """A small irrational number (0.005 to 0.025), different for each ``k``."""
    return 0.02 * (math.sqrt(2.0 + k) % 1.0) + 0.005


@st.composite
def problems(draw, max_bones: int = 6):
    """A chain and its target: root, start angles (inside the limits, or anywhere), lengths, target,
    limits (or None), pole (or None), iterations and tolerance.

    The lengths, the root, the target's distance and heading and the start angles are each nudged by
    a :func:`hair`, so that the round numbers hypothesis likes do not line a chain up on its target
    or fold it exactly onto a joint (ties: see the module docstring); a joint's range is not nudged,
    and a start on its bound stays there."""
    n = draw(st.integers(1, max_bones))
    lengths = np.array([draw(st.floats(5.0, 80.0)) + hair(i) for i in range(n)])
    root = np.array([draw(st.floats(0.0, 1000.0)) + hair(10), draw(st.floats(0.0, 1000.0)) + hair(11)])
    reach = float(lengths.sum())
    distance = (draw(st.floats(0.02, 1.4)) + hair(12)) * reach
    heading = draw(st.floats(-PI, PI)) + hair(13)
    target = root + distance * np.array([math.cos(heading), math.sin(heading)])
    limits = np.array([draw(ranges(i == 0)) for i in range(n)]) if draw(st.booleans()) else None
    angles = []
    for i in range(n):
        if limits is not None and draw(st.booleans()):
            lo, hi = limits[i]
            angles.append(lo + draw(st.floats(0.0, 1.0)) * (hi - lo))
        else:
            angles.append(draw(st.floats(-PI, PI)) * (1.0 - 1e-4) + hair(20 + i))
    pole = None
    if draw(st.booleans()):
        pole = root + reach * np.array([draw(st.floats(-2.0, 2.0)), draw(st.floats(-2.0, 2.0))])
    return dict(root=root, angles=np.array(angles), lengths=lengths, target=target, limits=limits, pole=pole,
                iterations=draw(st.integers(1, 16)), tolerance=draw(st.floats(0.01, 1.0)))


def tied(problem: dict) -> bool:
    """Whether the problem is one of the ties no rule can break symmetrically: the target on the root, a
    joint of the start pose (as the solver clamps it) on the target, or that pose lying along the
    root-target line (to 1e-7 of the reach), where bending either way is the same; or the target at the
    chain's full reach to rounding (1e-12 of it), where rounding alone says whether it is out of reach."""
    p = chain_problem(problem["root"], problem["angles"], problem["lengths"], problem["target"], 1, 0.5,
                      problem["limits"])
    joints = forward_kinematics(problem["root"], p.angles, problem["lengths"])
    u = problem["target"] - problem["root"]
    dist = float(np.hypot(*u))
    reach = float(np.sum(problem["lengths"]))
    if dist <= 1e-7 * reach or abs(dist - reach) <= 1e-12 * reach:
        return True
    if np.hypot(*(joints - problem["target"]).T).min() <= 1e-7 * reach:
        return True
    off = (u[0] * (joints[:, 1] - problem["root"][1]) - u[1] * (joints[:, 0] - problem["root"][0])) / dist
    return bool(np.abs(off).max() <= 1e-7 * reach)


@st.composite
def problems_with_heading(draw):
    """A problem of :func:`problems` with a heading (rad) for the last bone: from the start of its draw
    (nudged by a :func:`hair`), or the direction of a pose inside the limits that ends on the target."""
    problem = draw(problems())
    if draw(st.booleans()):
        problem["heading"] = draw(st.floats(-PI, PI)) * (1.0 - 1e-4) + hair(15)
    else:
        lim = problem["limits"]
        n = len(problem["lengths"])
        lo, hi = (lim[:, 0], lim[:, 1]) if lim is not None else (np.full(n, -PI), np.full(n, PI))
        goal = lo + np.array([draw(st.floats(0.01, 0.99)) for _ in range(n)]) * (hi - lo)
        problem["target"] = forward_kinematics(problem["root"], goal, problem["lengths"])[-1]
        problem["heading"] = float(np.sum(goal))
    return problem


def reduced_problem(problem: dict) -> dict | None:
    """The first n - 1 bones and the point the last bone must start from to end on the target along the
    heading (None for one bone): what the solvers solve first (solvers/heading.py)."""
    n = len(problem["lengths"])
    if n == 1:
        return None
    h = problem["heading"]
    wrist = problem["target"] - problem["lengths"][-1] * np.array([math.cos(h), math.sin(h)])
    limits = None if problem["limits"] is None else problem["limits"][:-1]
    return dict(problem, angles=problem["angles"][:-1], lengths=problem["lengths"][:-1], target=wrist, limits=limits)


def mirrored(problem: dict) -> dict:
    x0 = float(problem["root"][0])
    m = dict(problem)
    if problem.get("heading") is not None:
        m["heading"] = PI - problem["heading"]
    m["root"] = mirror_points(problem["root"], x0)
    m["target"] = mirror_points(problem["target"], x0)
    m["pole"] = None if problem["pole"] is None else mirror_points(problem["pole"], x0)
    m["angles"] = mirror_angles(problem["angles"], problem["limits"])
    m["limits"] = mirror_limits(problem["limits"])
    return m


def discrepancy(problem, sol, other, other_root, limits=None, mirror=True) -> float:
    """How far ``other`` (the answer to a moved copy of ``problem``, root ``other_root``) is from ``sol``
    moved the same way: the largest of the angles' wrapped gaps (rad), the joints' gaps (px) and the
    errors' gap (px); inf when the status or the count of iterations differs."""
    if (sol.status, sol.iterations) != (other.status, other.iterations):
        return math.inf
    heading_gap = abs(sol.heading_error - other.heading_error)
    x0 = float(problem["root"][0])
    joints = forward_kinematics(problem["root"], sol.angles, problem["lengths"])
    ojoints = forward_kinematics(other_root, other.angles, problem["lengths"])
    if mirror:
        angles, joints = mirror_angles(sol.angles, limits), mirror_points(joints, x0)
    else:
        angles, joints = sol.angles, joints + (other_root - problem["root"])
    return max(gaps(angles, other.angles).max(), np.abs(joints - ojoints).max(), abs(sol.error - other.error),
               heading_gap)


def shifted(problem: dict, dx: float) -> dict:
    m = dict(problem)
    for key in ("root", "target", "pole"):
        if m[key] is not None:
            m[key] = m[key] + (dx, 0.0)
    return m


def assert_mirror_images(solve, problem, sol, msol):
    """``msol`` (the mirrored problem's answer) is ``sol`` mirrored, to 1e-9 (angles, joints, error), with
    the same status and count. Or, where the solve itself magnifies rounding, no further off than the answers
    to the problem shifted by a pixel or two (which a mirror cannot improve on): a long limited FABRIK
    solve can wander chaotically, and there rounding grows about twofold a pass."""
    x0 = float(problem["root"][0])
    off = discrepancy(problem, sol, msol, mirror_points(problem["root"], x0), problem["limits"])
    if off <= TOL:
        return
    shifts = [discrepancy(problem, sol, solve(**shifted(problem, dx)), problem["root"] + (dx, 0.0), mirror=False)
              for dx in (0.5, 1.7, 3.1)]
    assert off <= 4.0 * max(shifts), f"mirror off by {off:.3g}; shifted copies off by {max(shifts):.3g}"


# --- single calls ------------------------------------------------------------------------------
JACOBIAN = [partial(solve_jacobian, method=m) for m in ("transpose", "pseudo-inverse", "sdls")]
SINGLES = pytest.mark.parametrize("solve", [solve_ccd, solve_fabrik, solve_dls] + JACOBIAN,
                                  ids=["ccd", "fabrik", "dls", "transpose", "pseudo-inverse", "sdls"])


@pytest.mark.slow
@SINGLES
@EXAMPLES
@given(problems())
def test_the_mirrored_problem_has_the_mirrored_answer(solve, problem):
    assume(not tied(problem))
    sol = solve(**problem)
    msol = solve(**mirrored(problem))
    assert_mirror_images(solve, problem, sol, msol)


@pytest.mark.slow
@SINGLES
@EXAMPLES
@given(problems_with_heading())
def test_the_mirrored_problem_with_a_heading_has_the_mirrored_answer(solve, problem):
    # a heading h mirrors to pi - h; the solvers first solve the first n - 1 bones for the point the last
    # bone starts from, so that problem's ties are kept away from too
    sub = reduced_problem(problem)
    assume(not tied(problem) and (sub is None or not tied(sub)))
    sol = solve(**problem)
    msol = solve(**mirrored(problem))
    assert_mirror_images(solve, problem, sol, msol)


@pytest.mark.parametrize("solve", [solve_ccd, solve_fabrik, solve_dls], ids=["ccd", "fabrik", "dls"])
@settings(deadline=None, max_examples=40)
@given(problems_with_heading())
def test_a_few_mirrored_problems_with_a_heading(solve, problem):
    sub = reduced_problem(problem)
    assume(not tied(problem) and (sub is None or not tied(sub)))
    assert_mirror_images(solve, problem, solve(**problem), solve(**mirrored(problem)))


@pytest.mark.parametrize("solve", [solve_ccd, solve_fabrik, solve_dls], ids=["ccd", "fabrik", "dls"])
def test_a_heading_outside_its_range_goes_to_the_mirrored_bound(solve):
    # joint 0 may turn over [0.2, 1.0] rad only and starts at -2.9 rad: nearer 1.0 round the circle
    # (the way past +-pi), though below 0.2 along the line; its mirror image starts at -0.24 in
    # [2.14, 2.94], nearer 2.94 (the mirror of 0.2) the other way: each goes to its own nearer bound
    problem = dict(root=np.array([500.0, 400.0]), angles=np.array([-2.9]), lengths=np.array([50.0]),
                   target=np.array([300.0, 900.0]), limits=np.array([[0.2, 1.0]]), pole=None, iterations=1,
                   tolerance=0.5)
    sol = solve(**problem)
    msol = solve(**mirrored(problem))
    assert sol.angles[0] == 1.0
    assert msol.angles[0] == PI - 1.0
    assert discrepancy(problem, sol, msol, mirror_points(problem["root"], 500.0), problem["limits"]) <= TOL


def test_the_dls_escape_weighs_a_kick_both_ways():
    # one bone of 50 px, 0.1 rad short of pointing straight away from a target 30 px along +x: turning it
    # either way brings it nearer, -0.5 rad more so; the mirror image (the target along -x) turns +0.5 rad.
    # Taking the first that helps (+0.5 both times) would turn the two chains the same way round.
    bounds = joint_bounds(None, 1)
    kicked = escape(0.0, 0.0, [PI - 0.1], [50.0], 30.0, 0.0, bounds, 79.0)
    mkicked = escape(0.0, 0.0, [0.1], [50.0], -30.0, 0.0, bounds, 79.0)
    assert kicked[0] == [PI - 0.6] and mkicked[0] == [0.6]
    assert abs(kicked[3] - mkicked[3]) <= TOL


@EXAMPLES
@pytest.mark.slow
@given(st.floats(0.0, 1000.0), st.floats(0.0, 1000.0), st.floats(5.0, 120.0), st.floats(5.0, 120.0),
       st.floats(0.0, 1.6), st.floats(-PI, PI), st.sampled_from([1, -1]), st.booleans(),
       st.tuples(st.floats(-2.0, 2.0), st.floats(-2.0, 2.0)), st.sampled_from([0.0, 10.0, 60.0]),
       st.sampled_from([1.0, 1.3, 2.0]))
def test_the_two_bone_formula_is_mirror_symmetric(rx, ry, l1, l2, share, heading, bend, with_pole, pole_at,
                                                  softness, stretch):
    root = np.array([rx, ry])
    target = root + share * (l1 + l2) * np.array([math.cos(heading), math.sin(heading)])
    assume(np.hypot(*(target - root)) > 1e-6)
    pole = root + (l1 + l2) * np.array(pole_at) if with_pole else None
    sol = solve_two_bone(root, target, l1, l2, bend, pole=pole, softness=softness, stretch=stretch)
    msol = solve_two_bone(mirror_points(root, rx), mirror_points(target, rx), l1, l2, -bend,
                          pole=None if pole is None else mirror_points(pole, rx), softness=softness, stretch=stretch)
    assert gaps(PI - sol.theta1, msol.theta1) <= TOL and gaps(-sol.theta2, msol.theta2) <= TOL
    assert np.abs(mirror_points(sol.knee, rx) - msol.knee).max() <= TOL
    assert np.abs(mirror_points(sol.end, rx) - msol.end).max() <= TOL
    assert sol.reached == msol.reached
    assert abs(sol.scale - msol.scale) <= 1e-12


@pytest.mark.slow
@EXAMPLES
@given(st.integers(1, 10), st.integers(0, 2**32 - 1), st.floats(0.0, 0.5), st.floats(0.0, 1.5))
def test_follow_the_leader_is_mirror_symmetric(n, seed, lo_share, hi_share):
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(5.0, 50.0, n)
    points = np.cumsum(np.vstack([rng.uniform(0.0, 1000.0, (1, 2)), rng.normal(0.0, 30.0, (n, 2))]), axis=0)
    head = points[0] + rng.normal(0.0, 20.0, 2)
    lo, hi = -lo_share * PI, hi_share * PI / 1.5
    x0 = float(points[0, 0])
    out = follow_snake(points, head, lengths, (lo, hi))
    mout = follow_snake(mirror_points(points, x0), mirror_points(head, x0), lengths, (-hi, -lo))
    assert np.abs(mirror_points(out, x0) - mout).max() <= TOL


# --- batched calls -------------------------------------------------------------------------------
def random_group(seed: int, count: int, n: int):
    """``count`` chains of ``n`` bones: every one limited (joint 0 on one side of 0), some with poles."""
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(5.0, 80.0, (count, n))
    roots = rng.uniform(0.0, 1000.0, (count, 2))
    reach = lengths.sum(axis=1)
    heading = rng.uniform(-PI, PI, count)
    targets = roots + (rng.uniform(0.02, 1.4, count) * reach)[:, None] * np.stack([np.cos(heading), np.sin(heading)], 1)
    ends = np.sort(rng.uniform(-PI, PI, (count, n, 2)), axis=-1)
    full = rng.random((count, n)) < 0.3
    ends[full] = (-PI, PI)
    across = (ends[:, 0, 0] < 0) & (ends[:, 0, 1] > 0)
    ends[across & (rng.random(count) < 0.5), 0, 0] = 0.0
    ends[across & (ends[:, 0, 0] < 0), 0, 1] = 0.0
    inside = ends[..., 0] + rng.random((count, n)) * (ends[..., 1] - ends[..., 0])
    angles = np.where(rng.random((count, n)) < 0.7, inside, rng.uniform(-PI, PI, (count, n)))
    poles = roots + reach[:, None] * rng.uniform(-2.0, 2.0, (count, 2))
    poles[rng.random(count) < 0.5] = np.nan
    iterations = rng.integers(1, 17, count)
    tolerance = rng.uniform(0.01, 1.0, count)
    return roots, angles, lengths, targets, iterations, tolerance, ends, poles


def mirrored_group(roots, angles, targets, limits, poles):
    x0 = roots[:, :1]
    flip = lambda p: np.concatenate([x0 - (p[:, :1] - x0), p[:, 1:]], axis=1)  # noqa: E731
    return flip(roots), mirror_angles(angles, limits), flip(targets), mirror_limits(limits), flip(poles)


def assert_rows_mirrored(roots, lengths, limits, out, mout, error, merror, used, mused):
    assert gaps(mirror_angles(out, limits), mout).max() <= TOL
    x0 = roots[:, :1]
    for k in range(len(roots)):
        joints = forward_kinematics(roots[k], out[k], lengths[k])
        mjoints = forward_kinematics(mirror_points(roots[k], float(x0[k, 0])), mout[k], lengths[k])
        assert np.abs(mirror_points(joints, float(x0[k, 0])) - mjoints).max() <= TOL, k
    assert np.abs(error - merror).max() <= TOL
    np.testing.assert_array_equal(used, mused)


@pytest.mark.parametrize("solve", [solve_ccd_batch, solve_fabrik_batch, solve_dls_batch], ids=["ccd", "fabrik", "dls"])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_the_batch_api_is_mirror_symmetric(solve, n):
    roots, angles, lengths, targets, iterations, tolerance, limits, poles = random_group(n, 200, n)
    mroots, mangles, mtargets, mlimits, mpoles = mirrored_group(roots, angles, targets, limits, poles)
    sol = solve(roots, angles, lengths, targets, iterations=iterations, tolerance=tolerance, limits=limits,
                poles=poles)
    msol = solve(mroots, mangles, lengths, mtargets, iterations=iterations, tolerance=tolerance, limits=mlimits,
                 poles=mpoles)
    assert_rows_mirrored(roots, lengths, limits, sol.angles, msol.angles, sol.error, msol.error, sol.iterations,
                         msol.iterations)
    np.testing.assert_array_equal(sol.status, msol.status)


@pytest.mark.parametrize("engine", [ccd_batch, fabrik_batch, dls_batch], ids=["ccd", "fabrik", "dls"])
@pytest.mark.parametrize("n", [1, 3, 6])
@pytest.mark.parametrize("count", [3, 150], ids=["few", "many"])
def test_the_scene_engines_are_mirror_symmetric(engine, n, count, backend):
    roots, angles, lengths, targets, iterations, tolerance, limits, _ = random_group(10 + n + count, count, n)
    mroots, mangles, mtargets, mlimits, _ = mirrored_group(roots, angles, targets, limits, roots)
    out, error, used = engine(roots, angles, lengths, targets, iterations, tolerance, limits)
    mout, merror, mused = engine(mroots, mangles, lengths, mtargets, iterations, tolerance, mlimits)
    assert_rows_mirrored(roots, lengths, limits, out, mout, error, merror, used, mused)


def test_the_batched_two_bone_formula_and_snakes_are_mirror_symmetric():
    rng = np.random.default_rng(7)
    count = 300
    roots = rng.uniform(0.0, 1000.0, (count, 2))
    l1, l2 = rng.uniform(5.0, 120.0, (2, count))
    heading = rng.uniform(-PI, PI, count)
    targets = roots + (rng.uniform(0.0, 1.6, count) * (l1 + l2))[:, None] * np.stack([np.cos(heading),
                                                                                        np.sin(heading)], 1)
    bend = rng.choice([1.0, -1.0], count)
    poles = roots + (l1 + l2)[:, None] * rng.uniform(-2.0, 2.0, (count, 2))
    poles[rng.random(count) < 0.5] = np.nan
    softness, stretch = rng.choice([0.0, 20.0], count), rng.choice([1.0, 1.5], count)
    x0 = roots[:, :1]
    flip = lambda p: np.concatenate([x0 - (p[:, :1] - x0), p[:, 1:]], axis=1)  # noqa: E731
    knee, end, t1, t2, reached, scale = two_bone_arrays(roots, targets, l1, l2, bend, pole=poles, softness=softness,
                                                        stretch=stretch)
    mknee, mend, mt1, mt2, mreached, mscale = two_bone_arrays(flip(roots), flip(targets), l1, l2, -bend,
                                                              pole=flip(poles), softness=softness, stretch=stretch)
    assert gaps(PI - t1, mt1).max() <= TOL and gaps(-t2, mt2).max() <= TOL
    assert np.abs(flip(knee) - mknee).max() <= TOL and np.abs(flip(end) - mend).max() <= TOL
    np.testing.assert_array_equal(reached, mreached)
    # snakes: heads moved, bodies dragged after them within a bend range mirrored as (-hi, -lo)
    n = 8
    points = np.cumsum(np.concatenate([roots[:, None, :], rng.normal(0.0, 30.0, (count, n, 2))], axis=1), axis=1)
    heads = points[:, 0] + rng.normal(0.0, 20.0, (count, 2))
    lengths = rng.uniform(5.0, 50.0, (count, n))
    lo, hi = -rng.uniform(0.0, PI, count), rng.uniform(0.0, PI, count)
    x1 = points[:, :1, :1]  # about each snake's head
    flip3 = lambda p: np.concatenate([x1 - (p[..., :1] - x1), p[..., 1:]], axis=-1)  # noqa: E731
    flip = lambda p: flip3(p[:, None, :])[:, 0]  # noqa: E731
    out = snake_batch(points, heads, lengths, lo, hi)
    mout = snake_batch(flip3(points), flip(heads), lengths, -hi, -lo)
    assert np.abs(flip3(out) - mout).max() <= TOL
    api = follow_snake_batch(points, heads, lengths, np.stack([lo, hi], axis=1))
    mapi = follow_snake_batch(flip3(points), flip(heads), lengths, np.stack([-hi, -lo], axis=1))
    assert np.abs(flip3(api) - mapi).max() <= TOL


@pytest.mark.parametrize("engine, solve", [(ccd_batch, solve_ccd), (fabrik_batch, solve_fabrik),
                                           (dls_batch, solve_dls)], ids=["ccd", "fabrik", "dls"])
def test_every_form_starts_from_the_same_clamped_pose(engine, solve, backend):
    # joint 0's heading outside its range goes to the nearer bound round the circle (-2.9 to 1.0, not
    # 0.2), and a relative start of pi on a range from -pi is on that bound (-pi), in every form
    count = 12
    roots = np.tile([500.0, 400.0], (count, 1))
    angles = np.tile([-2.9, PI, 0.3], (count, 1))
    lengths = np.tile([50.0, 40.0, 30.0], (count, 1))
    targets = np.tile([300.0, 900.0], (count, 1))
    limits = np.tile([[0.2, 1.0], [-PI, -1.0], [-PI, PI]], (count, 1, 1))
    iterations = np.ones(count, dtype=np.int64)
    tolerance = np.full(count, 1e-3)
    out, error, used = engine(roots, angles, lengths, targets, iterations, tolerance, limits)
    one = solve(roots[0], angles[0], lengths[0], targets[0], iterations=1, tolerance=1e-3, limits=limits[0])
    assert gaps(out, one.angles).max() <= TOL and np.abs(error - one.error).max() <= TOL
    start, _, _ = engine(roots, angles, lengths, roots + (140.0, 0.0) + 1e3, iterations, np.full(count, 1e9), limits)
    np.testing.assert_array_equal(start[:, :2], np.tile([1.0, -PI], (count, 1)))
    assert np.abs(start[:, 2] - 0.3).max() <= 1e-12  # (a free joint is wrapped, to rounding)
