"""Random skeletons for the ``solve_skeleton`` tests, and a reference forward kinematics of a tree.

Written apart from ``ikplayground.solvers`` so that the tests measure the library against a second
implementation. Pixels (y down), radians, bone 0's angle absolute and every other bone's relative to its parent.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

PI = math.pi


class Skeleton(NamedTuple):
    """A skeleton, a start pose and targets: ``targets`` {bone: (x, y)} or {bone: (x, y, heading)}."""

    parents: list
    root: tuple
    angles: np.ndarray
    lengths: np.ndarray
    targets: dict
    limits: np.ndarray | None


def reference_pose(parents, root, angles, lengths) -> tuple[np.ndarray, np.ndarray]:
    """Every bone's end (n, 2) px and absolute direction (n,) rad, bone by bone."""
    n = len(parents)
    ends = np.zeros((n, 2))
    heading = np.zeros(n)
    for i, p in enumerate(parents):
        start = np.asarray(root, dtype=float) if p < 0 else ends[p]
        heading[i] = angles[i] + (heading[p] if p >= 0 else 0.0)
        ends[i] = start + lengths[i] * np.array([math.cos(heading[i]), math.sin(heading[i])])
    return ends, heading


def weighted_error(sk: Skeleton, angles, weights=None) -> float:
    """The weighted sum of squared errors of ``angles`` (px^2; a heading counts as its bone's length times the
    turn, px), as docs/design.md defines what a skeleton solve minimises."""
    ends, heading = reference_pose(sk.parents, sk.root, angles, sk.lengths)
    total = 0.0
    for b, t in sk.targets.items():
        w = 1.0 if weights is None else weights.get(b, 1.0)
        total += w * float(np.sum((ends[b] - np.asarray(t[:2])) ** 2))
        if len(t) == 3:
            total += w * (sk.lengths[b] * math.remainder(t[2] - heading[b], 2 * PI)) ** 2
    return total


def random_limits(rng: np.random.Generator, n: int) -> np.ndarray:
    """Asymmetric ranges, most not holding the straight pose: lo in [-pi, 0.2], 0.3 to 2.5 rad wide (<= pi)."""
    lo = rng.uniform(-PI, 0.2, n)
    hi = np.minimum(lo + rng.uniform(0.3, 2.5, n), PI)
    return np.column_stack([lo, hi])


def posed_skeleton(rng: np.random.Generator, limited: bool, headings: int = 0) -> Skeleton:
    """6..20 bones of 10..60 px, each bone's parent drawn among those before it, 2..4 targets on distinct
    bones (any bones) taken from one random pose (inside the limits, if ``limited``), the first ``headings``
    of them with that pose's heading too; the start is another random pose (inside the limits)."""
    n = int(rng.integers(6, 21))
    parents = [-1] + [int(rng.integers(0, i)) for i in range(1, n)]
    lengths = rng.uniform(10.0, 60.0, n)
    limits = random_limits(rng, n) if limited else None
    lo, hi = (limits[:, 0], limits[:, 1]) if limited else (np.full(n, -PI), np.full(n, PI))
    pose = rng.uniform(lo, hi)
    start = rng.uniform(lo, hi)
    bones = rng.choice(n, size=int(rng.integers(2, 5)), replace=False)
    ends, heading = reference_pose(parents, (0.0, 0.0), pose, lengths)
    targets = {}
    for j, b in enumerate(bones.tolist()):
        x, y = ends[b].tolist()
        targets[b] = (x, y, float(heading[b])) if j < headings else (x, y)
    return Skeleton(parents, (0.0, 0.0), start, lengths, targets, limits)


def reach_rate(method: str, limited: bool, seed: int, count: int, headings: int = 0) -> float:
    """The share of ``count`` seeded :func:`posed_skeleton` cases that ``solve_skeleton`` reaches (50
    iterations, 0.5 px, headings within one degree), every reported error checked against the reference."""
    from ikplayground.solvers import solve_skeleton

    rng = np.random.default_rng(seed)
    reached = 0
    for _ in range(count):
        sk = posed_skeleton(rng, limited, headings)
        sol = solve_skeleton(sk.parents, sk.root, sk.angles, sk.lengths, sk.targets, method=method,
                             limits=sk.limits)
        ends, heading = reference_pose(sk.parents, sk.root, sol.angles, sk.lengths)
        ok = True
        for b, t in sk.targets.items():
            error = math.dist(ends[b], t[:2])
            assert abs(sol.errors[b] - error) <= 1e-6
            ok &= error <= 0.5
            if len(t) == 3:
                turn = abs(math.remainder(t[2] - heading[b], 2 * PI))
                assert abs(sol.heading_errors[b] - turn) <= 1e-9
                ok &= turn <= math.radians(1.0)
        assert sol.reached == ok and (sol.status == "reached") == ok
        assert sol.iterations <= 50
        reached += ok
    return reached / count


@st.composite
def trees(draw, min_bones: int = 1, max_bones: int = 12, shortest: float = 1.0):
    """(parents, root, angles, lengths) of a random tree; angles any, lengths ``shortest``..100 px."""
    n = draw(st.integers(min_bones, max_bones))
    parents = [-1] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    root = draw(st.tuples(st.floats(-500, 500), st.floats(-500, 500)))
    angles = np.array(draw(st.lists(st.floats(-PI, PI), min_size=n, max_size=n)))
    lengths = np.array(draw(st.lists(st.floats(shortest, 100), min_size=n, max_size=n)))
    return parents, root, angles, lengths


@st.composite
def limit_ranges(draw, n: int) -> np.ndarray:
    """``n`` asymmetric ranges ``(lo, hi)`` in [-pi, pi], some the full circle."""
    out = []
    for _ in range(n):
        a, b = sorted(draw(st.tuples(st.floats(-PI, PI), st.floats(-PI, PI))))
        out.append((-PI, PI) if draw(st.integers(0, 5)) == 0 else (a, b))
    return np.array(out)
