"""Shared strategies, reference maths and checks for the solver tests.

Everything here is written independently of ``ikplayground.solvers`` so the
tests compare the library against a second implementation, not against itself.
Screen coordinates (y down), radians, relative joint angles (docs/design.md).
"""

from __future__ import annotations

import importlib.util
import os
from contextlib import contextmanager
import math
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from ikplayground.solvers import jit

PI = math.pi
TAU = 2.0 * math.pi
CONVERGENCE_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "convergence.py"


@lru_cache(maxsize=None)
def convergence():
    """``scripts/convergence.py`` as a module (the scripts folder is no package): its seeded set of
    limited chains is the one docs/solvers.md's convergence table measures."""
    spec = importlib.util.spec_from_file_location("convergence", CONVERGENCE_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

# ----------------------------------------------------------------------------
# Reference maths
# ----------------------------------------------------------------------------


def reference_fk(root, angles, lengths) -> np.ndarray:
    """Joint positions (n + 1, 2) by cumulative sums of absolute angles."""
    root = np.asarray(root, dtype=float)
    absolute = np.cumsum(np.asarray(angles, dtype=float))
    lengths = np.asarray(lengths, dtype=float)
    steps = np.stack([lengths * np.cos(absolute), lengths * np.sin(absolute)], axis=1)
    return np.vstack([root[None, :], root[None, :] + np.cumsum(steps, axis=0)])


def angle_gap(a: float, b: float) -> float:
    """Smallest absolute difference between two angles, modulo 2*pi."""
    return abs(math.remainder(float(a) - float(b), TAU))


def signed_bends(points) -> np.ndarray:
    """Signed angle from d_(k-1) to d_k at every inner node (k >= 1)."""
    d = np.diff(np.asarray(points, dtype=float), axis=0)
    a, b = d[:-1], d[1:]
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    dot = a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1]
    return np.arctan2(cross, dot)


def coordinate_scale(*things) -> float:
    """Largest magnitude among the given numbers/arrays, at least 1."""
    m = 1.0
    for t in things:
        arr = np.abs(np.asarray(t, dtype=float))
        if arr.size:
            m = max(m, float(arr.max()))
    return m


# ----------------------------------------------------------------------------
# Checks
# ----------------------------------------------------------------------------


def assert_wrapped(angles, limits=None) -> None:
    """Every angle lies in (-pi, pi].

    One exception, where two rules of docs/design.md meet: a joint whose limits are
    ``(-pi, hi)`` with ``hi < pi`` may sit exactly on its lower bound ``-pi``
    (``pi`` would be outside its limits numerically, though the same angle).
    """
    arr = np.atleast_1d(np.asarray(angles, dtype=float))
    ok = (arr > -PI) & (arr <= PI)
    if limits is not None:
        lim = np.asarray(limits, dtype=float)
        ok |= (arr == -PI) & (lim[:, 0] <= -PI) & (lim[:, 1] < PI)
    bad = arr[~ok]
    assert bad.size == 0, f"angles outside (-pi, pi]: {bad.tolist()}"


def assert_lengths_kept(points, lengths, rel: float = 1e-9) -> None:
    """Distances between consecutive points equal ``lengths`` (relative tolerance).

    An absolute allowance of 1e-12 times the coordinate scale covers the rounding
    of the positions themselves (large coordinates, short bones).
    """
    points = np.asarray(points, dtype=float)
    lengths = np.asarray(lengths, dtype=float)
    seg = np.hypot(*np.diff(points, axis=0).T)
    abs_tol = 1e-12 * coordinate_scale(points)
    err = np.abs(seg - lengths)
    ok = err <= rel * lengths + abs_tol
    assert np.all(ok), f"segment lengths {seg[~ok].tolist()} != {lengths[~ok].tolist()}"


STATUSES = ("reached", "out of reach", "stalled", "iterations")


def assert_reported(sol, chain, iterations: int, tolerance: float) -> None:
    """``iterations``, ``reached`` and ``status`` of an IKSolution tell one story.

    Within the budget; ``reached`` exactly when ``error <= tolerance``; "out of
    reach" exactly when not reached and the target lies past the chain's reach
    plus the tolerance; stopping before the budget only when reached, out of
    reach or stalled; "iterations" only when the budget ran out.
    """
    assert isinstance(sol.iterations, int)
    assert 0 <= sol.iterations <= iterations
    assert sol.status in STATUSES
    assert type(sol.reached) is bool and sol.reached == (sol.error <= tolerance)
    assert (sol.status == "reached") == sol.reached
    beyond = math.hypot(*(np.asarray(chain.target) - chain.root)) > chain.reach + tolerance
    assert (sol.status == "out of reach") == (beyond and not sol.reached)
    if sol.iterations < iterations:
        assert sol.status != "iterations"
    if sol.status == "iterations":
        assert sol.iterations == iterations


def assert_within_limits(angles, limits) -> None:
    """``lo <= angles[i] <= hi`` for every joint (exact: solvers clamp to the bounds)."""
    angles = np.asarray(angles, dtype=float)
    limits = np.asarray(limits, dtype=float)
    lo, hi = limits[:, 0], limits[:, 1]
    ok = (angles >= np.maximum(lo, -PI)) & (angles <= np.minimum(hi, PI))
    assert np.all(ok), f"angles {angles[~ok].tolist()} outside limits {limits[~ok].tolist()}"


def in_angle_range(b: float, lo: float, hi: float, tol: float) -> bool:
    """Is the angle ``b`` (any representative mod 2*pi) inside [lo - tol, hi + tol]?"""
    return any(lo - tol <= b + k * TAU <= hi + tol for k in (-1, 0, 1))


# ----------------------------------------------------------------------------
# Hypothesis strategies
# ----------------------------------------------------------------------------

coords = st.floats(-2000.0, 2000.0, allow_nan=False, allow_infinity=False)
points2 = st.tuples(coords, coords).map(lambda p: np.array(p, dtype=float))
bone_lengths = st.floats(0.5, 300.0, allow_nan=False, allow_infinity=False)
# Starting angles: anywhere, including far outside (-pi, pi], and the seam itself.
any_angle = st.one_of(
    st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False),
    st.sampled_from([PI, -PI, 0.0, PI / 2, -PI / 2]),
)
limit_bound = st.one_of(
    st.floats(-PI, PI, allow_nan=False, allow_infinity=False),
    st.sampled_from([-PI, PI, 0.0]),
)


@st.composite
def joint_limits(draw, n: int) -> np.ndarray:
    """``n`` (lo, hi) pairs with -pi <= lo <= hi <= pi (ends included)."""
    rows = []
    for _ in range(n):
        a, b = draw(limit_bound), draw(limit_bound)
        rows.append((min(a, b), max(a, b)))
    return np.array(rows, dtype=float)


class Chain(NamedTuple):
    root: np.ndarray
    angles: np.ndarray
    lengths: np.ndarray
    target: np.ndarray
    limits: np.ndarray | None

    @property
    def reach(self) -> float:
        return float(np.sum(self.lengths))


@st.composite
def chains(draw, min_bones: int = 1, max_bones: int = 8, limited: bool | None = None) -> Chain:
    """A random chain with a random target; ``limited`` None draws both kinds."""
    n = draw(st.integers(min_bones, max_bones))
    lengths = np.array(draw(st.lists(bone_lengths, min_size=n, max_size=n)))
    angles = np.array(draw(st.lists(any_angle, min_size=n, max_size=n)))
    root = draw(points2)
    target = draw(
        st.one_of(
            points2,
            # near the chain: reachable and unreachable alike
            st.tuples(st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)).map(
                lambda f: root + np.array(f) * float(np.sum(lengths))
            ),
        )
    )
    if limited is None:
        limited = draw(st.booleans())
    limits = draw(joint_limits(n)) if limited else None
    return Chain(root, angles, lengths, target, limits)


# ----------------------------------------------------------------------------
# Seeded random chains for the convergence-rate measurements
# ----------------------------------------------------------------------------


def random_reachable_chain(rng: np.random.Generator, limited: bool) -> Chain:
    """2..8 bones of 10..80 px; the target is the end effector of a random pose
    (inside the limits when ``limited``), so it is reachable by construction.

    With ``limited``, joint 0 is free (limits (-pi, pi)) and joints 1..n-1 get
    symmetric limits of +-(45..120) degrees; start and goal poses are drawn
    inside those limits.
    """
    n = int(rng.integers(2, 9))
    lengths = rng.uniform(10.0, 80.0, n)
    root = rng.uniform(-500.0, 500.0, 2)
    half = np.full(n, PI)
    limits = None
    if limited:
        half[1:] = np.radians(rng.uniform(45.0, 120.0, n - 1))
        limits = np.stack([-half, half], axis=1)
    start = rng.uniform(-half, half)
    goal = rng.uniform(-half, half)
    target = reference_fk(root, goal, lengths)[-1]
    return Chain(root, start, lengths, target, limits)


def random_unreachable_chain(rng: np.random.Generator) -> Chain:
    """2..8 bones, random start pose, a target 1.05..3 times the reach away."""
    n = int(rng.integers(2, 9))
    lengths = rng.uniform(10.0, 80.0, n)
    root = rng.uniform(-500.0, 500.0, 2)
    start = rng.uniform(-PI, PI, n)
    a = rng.uniform(-PI, PI)
    dist = float(np.sum(lengths)) * rng.uniform(1.05, 3.0)
    target = root + dist * np.array([math.cos(a), math.sin(a)])
    return Chain(root, start, lengths, target, None)


def reach_rate(solver, limited: bool, iterations: int, count: int = 500, seed: int = 2024,
               tolerance: float = 0.5) -> float:
    """Share of ``count`` seeded reachable chains the solver brings within tolerance."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(count):
        c = random_reachable_chain(rng, limited)
        sol = solver(c.root, c.angles, c.lengths, c.target, iterations=iterations, tolerance=tolerance, limits=c.limits)
        hits += sol.error <= tolerance
    return hits / count


def stretch_figures(solver, iterations: int, count: int = 500, seed: int = 7):
    """For seeded unreachable targets: (fractions of full reach, direction errors in rad).

    Fraction = |end - root| / sum(lengths); direction error = angle between
    ``end - root`` and ``target - root``.
    """
    rng = np.random.default_rng(seed)
    fractions, directions = [], []
    for _ in range(count):
        c = random_unreachable_chain(rng)
        sol = solver(c.root, c.angles, c.lengths, c.target, iterations=iterations)
        e = reference_fk(c.root, sol.angles, c.lengths)[-1] - c.root
        t = c.target - c.root
        fractions.append(math.hypot(*e) / c.reach)
        directions.append(angle_gap(math.atan2(e[1], e[0]), math.atan2(t[1], t[0])))
    return np.array(fractions), np.array(directions)


def full_range_discrepancy(solver, iterations: int, count: int = 400, seed: int = 3) -> float:
    """Largest difference (px of error, rad of angle) between ``limits=None`` and
    limits of (-pi, pi) on every joint, over seeded generic chains (half of them
    with reachable targets, half with unreachable ones)."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for k in range(count):
        c = random_reachable_chain(rng, False) if k % 2 else random_unreachable_chain(rng)
        full = np.tile([-PI, PI], (len(c.lengths), 1))
        free = solver(c.root, c.angles, c.lengths, c.target, iterations=iterations, tolerance=0.0)
        limited = solver(c.root, c.angles, c.lengths, c.target, iterations=iterations, tolerance=0.0, limits=full)
        gaps = [angle_gap(a, b) for a, b in zip(free.angles, limited.angles)]
        worst = max(worst, abs(free.error - limited.error), max(gaps))
    return worst


@contextmanager
def running_on(backend: str):
    """Run the block with the numpy engines or (when numba is installed) the compiled kernels.

    ``IKPLAYGROUND_JIT`` is read on every call, so setting it for the block is enough; the kernels are
    compiled before the block, or the engines would keep to numpy while they compile in the background.
    """
    old = os.environ.get("IKPLAYGROUND_JIT")
    os.environ["IKPLAYGROUND_JIT"] = "0" if backend == "numpy" else "1"
    try:
        if backend == "numba":
            assert jit.kernels(wait=True) is not None, "numba is installed but the kernels did not compile"
        yield
    finally:
        if old is None:
            del os.environ["IKPLAYGROUND_JIT"]
        else:
            os.environ["IKPLAYGROUND_JIT"] = old
