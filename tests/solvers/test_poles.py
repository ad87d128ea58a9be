"""Poles for the iterative solvers: a point that chooses the side a chain bends toward.

``solve_ccd``, ``solve_fabrik`` and ``solve_dls`` take ``pole=(x, y)``. The
promise (``ikplayground/solvers/pole.py``): after the solve, when the inner joints
(joints 1..n-1) lie, by the sum of their signed distances from the root-target
line, on the other side from the pole, the pose is replaced by its mirror image
across that line: the same error, so the pole costs no accuracy. A mirror image
that breaks a joint limit is not taken; a pole on the line, a one-bone chain or
a target on the root changes nothing.

Signed distance of a point ``p`` (times ``|u|``): ``cross(u, p - root)`` with
``u = target - root``, pixels with y down. Everything here measures the pose by
forward kinematics written independently (``solver_cases.reference_fk``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from .solver_cases import PI, TAU, angle_gap, assert_within_limits, chains, coords, reference_fk

from ikplayground.solvers import solve_ccd, solve_dls, solve_fabrik

FAST = settings(deadline=None, max_examples=150)

each_solver = pytest.mark.parametrize("solve", [solve_ccd, solve_fabrik, solve_dls], ids=["ccd", "fabrik", "dls"])


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


def random_case(rng: np.random.Generator):
    """2..8 bones of 10..80 px, a random start, a target 0.2..0.9 of the reach away and a pole off the
    root-target line by 0.1..1.5 of the reach, on a random side and anywhere along it."""
    n = int(rng.integers(2, 9))
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


def side_rates(solve, count: int = 300, seed: int = 77) -> tuple[float, float]:
    """Share of seeded cases whose inner joints end on the pole's side: with the pole, and without it."""
    rng = np.random.default_rng(seed)
    with_pole = without = 0
    for _ in range(count):
        root, start, lengths, target, pole = random_case(rng)
        sol = solve(root, start, lengths, target, iterations=100, pole=pole)
        free = solve(root, start, lengths, target, iterations=100)
        with_pole += on_pole_side(root, sol.angles, lengths, target, pole)
        without += on_pole_side(root, free.angles, lengths, target, pole)
    return with_pole / count, without / count


# ----------------------------------------------------------------------------
# The pole chooses the side
# ----------------------------------------------------------------------------


@pytest.mark.slow
@each_solver
def test_the_chain_bends_toward_the_pole(solve):
    """Measured: 100% with the pole for all three; about half without it."""
    with_pole, without = side_rates(solve)
    assert with_pole >= 0.95
    assert without < 0.80  # so the pole is what puts the bend there


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
@given(chains(), pole_points, st.booleans(), st.integers(1, 40), st.floats(0.0, 3.0))
def test_the_pole_never_changes_the_error(solve, chain, raw, near, iterations, tolerance):
    """Same error, sweeps, reached and status as without the pole; the pose is the same one or its mirror
    image across the root-target line (checked on the joint positions)."""
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
@each_solver
def test_a_target_moving_along_any_other_line_through_the_pole_bends_toward_the_pole(solve):
    """The target walks 1 px at a time along a line through the pole, crossing the ray from the root
    through the pole where it passes the pole; solved from the last answer at each step. Wherever the
    target lies 0.2..0.9 of the reach from the root and the pole is over 1 px off the root-target line, the
    bend is on the pole's side."""
    rng = np.random.default_rng(1618)
    wrong, checked, sides_seen = [], 0, set()
    for case in range(12):
        n = int(rng.integers(2, 9))
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
    """The angles returned satisfy the limits, pole or not. And where the bend ended on the wrong side
    while its mirror image fits the limits (with 1e-6 rad to spare), the mirror image is what comes back."""
    pole = place_pole(chain, raw, near)
    args = (chain.root, chain.angles, chain.lengths, chain.target)
    free = solve(*args, iterations=iterations, limits=chain.limits)
    sol = solve(*args, iterations=iterations, limits=chain.limits, pole=pole)
    assert_within_limits(free.angles, chain.limits)
    assert_within_limits(sol.angles, chain.limits)
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
