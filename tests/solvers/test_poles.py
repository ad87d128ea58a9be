"""Poles for the iterative solvers: a point that chooses the side a chain bends toward.

``solve_ccd``, ``solve_fabrik`` and ``solve_dls`` take ``pole=(x, y)``. The
promises (``ikplayground/solvers/reshape.py`` and ``pole.py``, docs/design.md):

- CCD, FABRIK and the Jacobian family (``solve_dls``, ``solve_jacobian``) with
  three bones or more step toward the pole's side as they solve (before each
  sweep, pass or step), in the null space of the end's Jacobian (the end keeps reaching), at
  most 0.12 rad a joint a solve: warm-started frame after frame, a chain rolls
  over to the pole's side without a jump (the moving-target walks of
  ``scripts/convergence.py``), and a chain solved again and again toward a fixed
  target ends bent to the pole's side (four bones or more: three may have no
  path of poses between their two bends).
- Two bones (no pose between their two bends) mirror the
  finished pose across the root-target line when the inner joints (joints
  1..n-1), by the sum of their signed distances from that line, lie on the
  other side from the pole: the same error. A mirror image that breaks a joint
  limit is not taken.
- For every solver, a pole on the line, a one-bone chain or a target on the
  root changes nothing, and the limits hold.

Signed distance of a point ``p`` (times ``|u|``): ``cross(u, p - root)`` with
``u = target - root``, pixels with y down. Everything here measures the pose by
forward kinematics written independently (``solver_cases.reference_fk``).
(This file replaces the mirror's specification for CCD and FABRIK, which popped:
a chain flipped whole whenever its inner joints crossed the line.)
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from .solver_cases import PI, TAU, angle_gap, assert_reported, assert_within_limits, chains, convergence, coords, \
    reference_fk

from functools import partial

from ikplayground.solvers import solve_ccd, solve_dls, solve_fabrik, solve_jacobian

FAST = settings(deadline=None, max_examples=150)

each_solver = pytest.mark.parametrize("solve", [solve_ccd, solve_fabrik, solve_dls], ids=["ccd", "fabrik", "dls"])
JACOBIAN = [partial(solve_jacobian, method=m) for m in ("transpose", "pseudo-inverse", "sdls")]
stepping = pytest.mark.parametrize("solve", [solve_ccd, solve_fabrik, solve_dls] + JACOBIAN,
                                   ids=["ccd", "fabrik", "dls", "transpose", "pseudo-inverse", "sdls"])


def mirrors(solve, n: int) -> bool:
    """Whether ``solve``'s pole mirrors the finished pose of ``n`` bones (rather than stepping toward its side)."""
    return n < 3


# ----------------------------------------------------------------------------
# Measuring sides
# ----------------------------------------------------------------------------


def cross_from(root, target, point) -> float:
    """``cross(target - root, point - root)``: the point's signed distance from the root-target line times
    ``|target - root|`` (px^2; y down, so positive is clockwise on screen)."""
    ux, uy = target[0] - root[0], target[1] - root[1]
    return float(ux * (point[1] - root[1]) - uy * (point[0] - root[0]))


def bend(root, angles, lengths, target) -> float:
    """Sum of the inner joints' signed distances from the root-target line, px (0 for one bone)."""
    u = np.asarray(target, dtype=float) - root
    inner = reference_fk(root, angles, lengths)[1:-1]
    return sum(cross_from(root, target, p) for p in inner) / math.hypot(*u)


def pole_offset(root, target, pole) -> float:
    """The pole's signed distance from the root-target line, px."""
    return cross_from(root, target, pole) / math.hypot(*(np.asarray(target, dtype=float) - root))


def on_pole_side(root, angles, lengths, target, pole) -> bool:
    return bend(root, angles, lengths, target) * pole_offset(root, target, pole) > 0.0


def reflected(points, root, target) -> np.ndarray:
    """``points`` mirrored across the line through ``root`` and ``target``."""
    u = np.asarray(target, dtype=float) - root
    u = u / math.hypot(*u)
    rel = np.asarray(points, dtype=float) - root
    along = rel @ u
    return root + 2.0 * along[:, None] * u[None, :] - rel


def mirrored_angles(root, angles, target) -> np.ndarray:
    """The relative angles (wrapped to (-pi, pi]) of the pose mirrored across the root-target line: every
    absolute direction ``theta`` becomes ``2 phi - theta``, ``phi`` the line's direction."""
    phi = math.atan2(target[1] - root[1], target[0] - root[0])
    out = -np.asarray(angles, dtype=float)
    out[0] = 2.0 * phi - angles[0]
    out = np.mod(out + PI, TAU) - PI
    return np.where(out <= -PI, PI, out)


# ----------------------------------------------------------------------------
# Seeded cases
# ----------------------------------------------------------------------------


def random_case(rng: np.random.Generator, bones=(2, 8)):
    """``bones`` (least, most) bones of 10..80 px, a random start, a target 0.2..0.9 of the reach away and a pole
    off the root-target line by 0.1..1.5 of the reach, on a random side and anywhere along it."""
    n = int(rng.integers(bones[0], bones[1] + 1))
    lengths = rng.uniform(10.0, 80.0, n)
    reach = float(lengths.sum())
    root = rng.uniform(-500.0, 500.0, 2)
    direction = rng.uniform(-PI, PI)
    u = np.array([math.cos(direction), math.sin(direction)])
    normal = np.array([-u[1], u[0]])
    target = root + rng.uniform(0.2, 0.9) * reach * u
    pole = root + rng.uniform(-0.5, 1.5) * reach * u + rng.choice([-1.0, 1.0]) * rng.uniform(0.1, 1.5) * reach * normal
    start = rng.uniform(-PI, PI, n)
    return root, start, lengths, target, pole


def side_rates(solve, count: int = 300, seed: int = 77, bones=(2, 8), again: int = 0) -> tuple[float, float]:
    """Share of seeded cases whose inner joints end on the pole's side, with the pole (solved ``again`` more times,
    each from the last answer, as a scene's frames do) and without it."""
    rng = np.random.default_rng(seed)
    with_pole = without = 0
    for _ in range(count):
        root, start, lengths, target, pole = random_case(rng, bones)
        sol = solve(root, start, lengths, target, iterations=100, pole=pole)
        for _ in range(again):
            sol = solve(root, sol.angles, lengths, target, iterations=100, pole=pole)
        free = solve(root, start, lengths, target, iterations=100)
        with_pole += on_pole_side(root, sol.angles, lengths, target, pole)
        without += on_pole_side(root, free.angles, lengths, target, pole)
    return with_pole / count, without / count


# ----------------------------------------------------------------------------
# The pole chooses the side
# ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("solve, bones", [(solve_dls, (2, 2)), (solve_ccd, (2, 2)), (solve_fabrik, (2, 2))],
                         ids=["dls-two-bones", "ccd-two-bones", "fabrik-two-bones"])
def test_a_mirroring_pole_bends_the_chain_toward_it_at_once(solve, bones):
    """Two bones. Measured: with the pole 0.997 (DLS, as for 2..8 bones when it mirrored them all), 0.987 (CCD), 0.997
    (FABRIK); about half without it."""
    with_pole, without = side_rates(solve, bones=bones)
    assert with_pole >= 0.95
    assert without < 0.80  # so the pole is what puts the bend there


@pytest.mark.slow
@stepping
def test_a_stepping_pole_bends_the_chain_toward_it_over_frames(solve):
    """Four to eight bones from a random start, solved 60 times more toward the same target, each from the
    last answer. Measured: 0.995 (CCD) and 0.99 (FABRIK), 0.44 without the pole; after one solve about 0.6;
    three bones about 0.76 (their poses bent one way and the other need not join)."""
    with_pole, without = side_rates(solve, bones=(4, 8), again=60, count=200)
    assert with_pole >= 0.95
    assert without < 0.80


@pytest.mark.slow
@stepping
@pytest.mark.parametrize("seed", [2011, 1])
def test_a_pole_never_pops_while_the_target_goes_round(solve, seed):
    """The pole walks of scripts/convergence.py: 5..8 free bones, a fixed pole, the target going round a circle
    2 px a frame (so the root-target line sweeps past the pole), each solve from the last answer, 400 frames
    or more. No joint turns more than 0.3 rad between two frames, and where the pole lies 30 degrees or more
    off the root-target line the inner joints lie on its side (measured: every such frame, seeds 2011 and 1;
    with the mirror, CCD jumped on 1097 frames of 3882 and FABRIK on 935)."""
    script = convergence()
    runs = [script.walk_pole(solve, w) for w in script.pole_walks(seed, 6)]
    assert all(r.frames >= 400 for r in runs)
    assert sum(r.jumps for r in runs) == 0
    clear = sum(r.clear for r in runs)
    assert clear > 1000 and sum(r.on_side for r in runs) >= 0.98 * clear
    assert sum(r.reached for r in runs) >= 0.99 * sum(r.frames for r in runs)


@stepping
def test_a_pole_step_keeps_the_end_and_a_solve_from_a_reached_pose_stays_close(solve):
    """A chain on its target with the pole on the other side: one solve moves no joint more than 0.12 rad
    plus what the reach needs back (the step's own bound) and still ends on the target."""
    root = np.array([300.0, 300.0])
    lengths = np.array([40.0, 35.0, 30.0, 25.0, 20.0])
    angles = np.array([0.2, 0.4, 0.4, 0.4, 0.4])  # bent clockwise on screen: inner joints below the line
    target = reference_fk(root, angles, lengths)[-1]
    u = (target - root) / math.hypot(*(target - root))
    pole = root + 60.0 * u + 80.0 * np.array([-u[1], u[0]])  # the other side
    assert pole_offset(root, target, pole) * bend(root, angles, lengths, target) < 0
    sol = solve(root, angles, lengths, target, iterations=100, pole=pole)
    assert sol.reached
    assert max(angle_gap(a, b) for a, b in zip(sol.angles, angles)) <= 0.3
    assert bend(root, sol.angles, lengths, target) * pole_offset(root, target, pole) > \
        bend(root, angles, lengths, target) * pole_offset(root, target, pole)  # it moved toward the pole's side


# ----------------------------------------------------------------------------
# The pole costs no accuracy
# ----------------------------------------------------------------------------

pole_points = st.one_of(
    st.tuples(coords, coords),
    st.tuples(st.floats(-2.0, 2.0), st.floats(-2.0, 2.0)),  # near the root, in units of the reach (below)
)


def place_pole(chain, raw, near: bool) -> np.ndarray:
    return chain.root + chain.reach * np.array(raw) if near else np.array(raw, dtype=float)


@pytest.mark.slow
@each_solver
@FAST
@given(chains(max_bones=2), pole_points, st.booleans(), st.integers(1, 40), st.floats(0.0, 3.0))
def test_a_mirroring_pole_never_changes_the_error(solve, chain, raw, near, iterations, tolerance):
    """Two bones or fewer, with any solver (those whose pole mirrors: drawn so, not filtered, since DLS with more
    steps too): the same error, sweeps, reached and status as without the pole; the pose is the same one or its
    mirror image across the root-target line (checked on the joint positions)."""
    assert mirrors(solve, len(chain.lengths))
    pole = place_pole(chain, raw, near)
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    kwargs = dict(iterations=iterations, tolerance=tolerance, limits=chain.limits)
    free = solve(*args, **kwargs)
    sol = solve(*args, pole=pole, **kwargs)
    assert abs(sol.error - free.error) <= 1e-9
    assert (sol.iterations, sol.reached, sol.status) == (free.iterations, free.reached, free.status)
    same = max(angle_gap(a, b) for a, b in zip(sol.angles, free.angles)) <= 1e-9
    if not same:
        pts = reference_fk(chain.root, sol.angles, chain.lengths)
        free_pts = reference_fk(chain.root, free.angles, chain.lengths)
        scale = max(1.0, float(np.abs(free_pts).max()))
        np.testing.assert_allclose(pts, reflected(free_pts, chain.root, chain.target), rtol=0, atol=1e-9 * scale)
    end = reference_fk(chain.root, sol.angles, chain.lengths)[-1]
    assert math.isclose(math.hypot(*(chain.target - end)), sol.error, rel_tol=1e-9, abs_tol=1e-9)


@pytest.mark.slow
@stepping
@FAST
@given(chains(min_bones=3), pole_points, st.booleans(), st.integers(1, 40), st.floats(0.0, 3.0))
def test_a_stepping_pole_reports_truthfully(solve, chain, raw, near, iterations, tolerance):
    """Three bones or more, CCD or FABRIK: the answer says truthfully why it stopped, its error is its pose's, and
    a target the chain cannot reach gets the same answer as without the pole (no step: a straight chain)."""
    pole = place_pole(chain, raw, near)
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    sol = solve(*args, iterations=iterations, tolerance=tolerance, limits=chain.limits, pole=pole)
    assert_reported(sol, chain, iterations, tolerance)
    end = reference_fk(chain.root, sol.angles, chain.lengths)[-1]
    scale = max(1.0, float(np.abs(end).max()))
    assert math.isclose(math.hypot(*(chain.target - end)), sol.error, rel_tol=1e-9, abs_tol=1e-9 * scale)
    if math.hypot(*(chain.target - chain.root)) >= chain.reach:
        free = solve(*args, iterations=iterations, tolerance=tolerance, limits=chain.limits)
        np.testing.assert_array_equal(sol.angles, free.angles)


@pytest.mark.slow
@stepping
def test_a_stepping_pole_costs_next_to_no_reach(solve):
    """Seeded cases (2..8 bones, random starts, 100 iterations): as many reached with the pole as without, to 2%.
    Measured: CCD 0.943 with, 0.937 without; FABRIK 0.973 and 0.970."""
    rng = np.random.default_rng(77)
    with_pole = without = 0
    for _ in range(300):
        root, start, lengths, target, pole = random_case(rng)
        with_pole += solve(root, start, lengths, target, iterations=100, pole=pole).reached
        without += solve(root, start, lengths, target, iterations=100).reached
    assert with_pole >= without - 6


# ----------------------------------------------------------------------------
# No flip
# ----------------------------------------------------------------------------


def arc_start(rng, lengths, direction: float, near: float, far: float):
    """An arc bent one way (every inner joint turned by the same angle, the whole turning less than 3 rad),
    turned so its end lies on the ray at ``direction``, ``near``..``far`` px from the root; returns the
    angles and that distance."""
    n = len(lengths)
    while True:
        bend_each = rng.uniform(0.1, 2.0)
        angles = np.full(n, bend_each * rng.choice([-1.0, 1.0]))
        angles[0] = 0.0
        end = reference_fk(np.zeros(2), angles, lengths)[-1]
        if (n - 1) * bend_each <= 3.0 and near <= math.hypot(*end) <= far:
            angles[0] = direction - math.atan2(end[1], end[0])
            return angles, math.hypot(*end)


@pytest.mark.slow
@each_solver
def test_a_target_moving_along_the_ray_through_the_pole_never_flips_the_bend(solve):
    """The target walks 1 px at a time along the ray from the root through the pole (so the pole stays on
    the root-target line and chooses nothing), from where an arc bent one way ends, out to 0.9 of the
    reach or in to 0.4 of it (kept 0.1 of the reach clear of the chain's shortest reach, where the bend
    must vanish), each solve starting from the last answer as a game's frame does. The bend keeps its
    side all the way.

    (Measured with the pole left out: on these 30 walks per solver and 120 more (seeds 1-4), the bend
    never changed side; so a change here is the pole's doing.)"""
    rng = np.random.default_rng(2718)
    flipped = []
    for case in range(30):
        n = int(rng.integers(2, 9))
        lengths = rng.uniform(10.0, 80.0, n)
        reach = float(lengths.sum())
        root = rng.uniform(-500.0, 500.0, 2)
        direction = rng.uniform(-PI, PI)
        u = np.array([math.cos(direction), math.sin(direction)])
        pole = root + rng.uniform(0.1, 2.0) * reach * u
        near = max(0.4 * reach, 2.0 * lengths.max() - reach + 0.1 * reach)
        far = 0.9 * reach
        angles, start = arc_start(rng, lengths, direction, near, far)
        walk = np.arange(start, far, 1.0) if rng.random() < 0.5 else np.arange(start, near, -1.0)
        sides = set()
        for dist in walk:
            target = root + dist * (pole - root) / math.hypot(*(pole - root))
            angles = solve(root, angles, lengths, target, iterations=100, pole=pole).angles
            sides.add(bool(bend(root, angles, lengths, target) > 0.0))
        if len(sides) > 1:
            flipped.append(case)
    assert flipped == []


@pytest.mark.slow
def test_a_target_moving_along_any_other_line_through_the_pole_bends_a_two_bone_chain_toward_the_pole():
    """DLS's mirroring pole of two bones (three or more roll over instead:
    test_a_pole_never_pops_while_the_target_goes_round; DLS mirrored them all until it stepped too).
    The target walks 1 px at a time along a line through the pole, crossing the ray from the root
    through the pole where it passes the pole; solved from the last answer at each step. Wherever the
    target lies 0.2..0.9 of the reach from the root and the pole is over 1 px off the root-target line, the
    bend is on the pole's side."""
    solve = solve_dls
    rng = np.random.default_rng(1618)
    wrong, checked, sides_seen = [], 0, set()
    for case in range(12):
        rng.integers(2, 9)  # (the draws of the walks as they were when DLS mirrored 2..8 bones)
        n = 2
        lengths = rng.uniform(10.0, 40.0, n)
        reach = float(lengths.sum())
        root = rng.uniform(-500.0, 500.0, 2)
        bearing = rng.uniform(-PI, PI)
        pole = root + reach * rng.uniform(0.2, 0.8) * np.array([math.cos(bearing), math.sin(bearing)])
        heading = rng.uniform(-PI, PI)
        step = np.array([math.cos(heading), math.sin(heading)])
        angles = rng.uniform(-PI, PI, n)
        for t in np.arange(-1.5 * reach, 1.5 * reach, 1.0):
            target = pole + t * step
            dist = math.hypot(*(target - root))
            if not 0.2 * reach <= dist <= 0.9 * reach:
                continue
            angles = solve(root, angles, lengths, target, iterations=100, pole=pole).angles
            offset = pole_offset(root, target, pole)
            if abs(offset) > 1.0:
                checked += 1
                sides_seen.add(offset > 0)
                if not on_pole_side(root, angles, lengths, target, pole):
                    wrong.append((case, float(t)))
    assert checked > 500 and sides_seen == {True, False}  # the walks did cross over the pole
    assert wrong == []


# ----------------------------------------------------------------------------
# Limits
# ----------------------------------------------------------------------------


@pytest.mark.slow
@each_solver
@FAST
@given(chains(min_bones=2, limited=True), pole_points, st.booleans(), st.integers(1, 40))
def test_limits_hold_with_a_pole_and_a_mirror_that_fits_is_taken(solve, chain, raw, near, iterations):
    """The angles returned satisfy the limits, pole or not. And where a mirroring pole's bend ended on the wrong
    side while its mirror image fits the limits (with 1e-6 rad to spare), the mirror image is what comes back."""
    pole = place_pole(chain, raw, near)
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    free = solve(*args, iterations=iterations, limits=chain.limits)
    sol = solve(*args, iterations=iterations, limits=chain.limits, pole=pole)
    assert_within_limits(free.angles, chain.limits)
    assert_within_limits(sol.angles, chain.limits)
    if not mirrors(solve, len(chain.lengths)):
        return
    u = math.hypot(*(chain.target - chain.root))
    if not u > 1e-6 * chain.reach:
        return  # a target on the root: no line to mirror across (the limits held, above)
    offset = pole_offset(chain.root, chain.target, pole)
    side = bend(chain.root, free.angles, chain.lengths, chain.target)
    if not (abs(offset) > 1e-6 * chain.reach and abs(side) > 1e-6 * chain.reach and side * offset < 0):
        return  # already on the pole's side, or too near the line to have one
    mirror = mirrored_angles(chain.root, free.angles, chain.target)
    # an image angle on the +-pi seam is a tie: a hair either way of it is inside or far outside a range
    # that ends at pi, and rounding decides
    if not np.all(np.abs(np.abs(mirror) - PI) > 1e-6):
        return
    lo, hi = chain.limits[:, 0], chain.limits[:, 1]
    free_joint = hi - lo >= TAU - 1e-9
    if np.all(free_joint | ((mirror >= lo + 1e-6) & (mirror <= hi - 1e-6))):
        assert on_pole_side(chain.root, sol.angles, chain.lengths, chain.target, pole)
    elif np.any(~free_joint & ((mirror < lo - 1e-6) | (mirror > hi + 1e-6))):
        assert max(angle_gap(a, b) for a, b in zip(sol.angles, free.angles)) <= 1e-9  # not taken


# ----------------------------------------------------------------------------
# When the pole changes nothing
# ----------------------------------------------------------------------------

small_ints = st.integers(-1000, 1000)


@pytest.mark.slow
@each_solver
@FAST
@given(chains(), st.tuples(small_ints, small_ints), st.tuples(small_ints, small_ints), st.integers(-3, 3))
def test_a_pole_exactly_on_the_root_target_line_changes_nothing(solve, chain, root, target, k):
    """Whole-pixel root and target, and the pole at ``root + k (target - root)``: exactly on the line
    (behind the root, on it, between, on the target, beyond). The answer is the one without the pole."""
    root, target = np.array(root, dtype=float), np.array(target, dtype=float)
    pole = root + k * (target - root)  # exact: whole numbers
    assert cross_from(root, target, pole) == 0.0
    args = (root, chain.angles, chain.lengths, target)
    free = solve(*args, iterations=20, limits=chain.limits)
    sol = solve(*args, iterations=20, limits=chain.limits, pole=pole)
    np.testing.assert_array_equal(sol.angles, free.angles)
    assert (sol.error, sol.iterations, sol.status) == (free.error, free.iterations, free.status)


@pytest.mark.slow
@each_solver
@FAST
@given(chains(), st.floats(-3.0, 3.0).filter(lambda s: abs(s) >= 0.1))
def test_a_pole_on_the_root_target_line_up_to_rounding_changes_nothing(solve, chain, s):
    """``root + s (target - root)`` computed in floating point is on the line to within rounding (a few
    1e-13 px here); the pole must not pick a side by the sign of that rounding."""
    assume(math.hypot(*(chain.target - chain.root)) >= 1.0)
    pole = chain.root + s * (chain.target - chain.root)
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    free = solve(*args, iterations=20, limits=chain.limits)
    sol = solve(*args, iterations=20, limits=chain.limits, pole=pole)
    np.testing.assert_array_equal(sol.angles, free.angles)


@pytest.mark.slow
@each_solver
@FAST
@given(chains(max_bones=1), pole_points, st.booleans(), st.integers(1, 40))
def test_a_one_bone_chain_ignores_the_pole(solve, chain, raw, near, iterations):
    pole = place_pole(chain, raw, near)
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    free = solve(*args, iterations=iterations, limits=chain.limits)
    sol = solve(*args, iterations=iterations, limits=chain.limits, pole=pole)
    np.testing.assert_array_equal(sol.angles, free.angles)
    assert (sol.error, sol.iterations, sol.status) == (free.error, free.iterations, free.status)


@pytest.mark.slow
@each_solver
@FAST
@given(chains(min_bones=2), pole_points, st.booleans(), st.integers(1, 40))
def test_a_target_on_the_root_ignores_the_pole(solve, chain, raw, near, iterations):
    pole = place_pole(chain, raw, near)
    args = (chain.root, chain.angles, chain.lengths, chain.root.copy())
    free = solve(*args, iterations=iterations, limits=chain.limits)
    sol = solve(*args, iterations=iterations, limits=chain.limits, pole=pole)
    np.testing.assert_array_equal(sol.angles, free.angles)
