"""Circle obstacles: their rows checked, how far each bone keeps from them, a point pushed out of them.

An obstacle is a circle, one row ``(x, y, r)`` px (y down) of a ``(k, 3)`` array; a bone, the segment from
joint ``i`` to joint ``i + 1``, is clear of it when every point of the segment is at least ``r`` from its
centre (touching counts as clear). The distance from a point to a segment is the classic projection clamped
to the segment's ends (Ericson, *Real-Time Collision Detection*, 2005, sec. 5.1.2). The solvers keep a pose
that starts clear, clear (docs/design.md, "Obstacles"); these are the pieces they share.
"""

from __future__ import annotations

import math

import numpy as np

from .validate import BOUND, float_array

NONE = np.zeros((0, 3))  # no obstacles
CLEAR_SLACK = 1e-9  # px: a bone this far inside a circle (rounding) still counts as clear


def obstacle_rows(obstacles, name: str = "obstacles") -> np.ndarray:
    """``obstacles`` checked: a float64 ``(k, 3)`` array of rows ``(x, y, r)`` px, ``r > 0``; None gives ``(0, 3)``.

    Raises
    ------
    ValueError
        Naming ``name`` and the row: not real numbers, not ``(k, 3)``, non-finite, a radius <= 0, or a
        centre or radius past ``+-BOUND`` px.
    """
    if obstacles is None:
        return NONE
    rows = float_array(obstacles, name)
    if rows.ndim == 1 and rows.size == 0:
        return NONE
    if rows.ndim != 2 or rows.shape[1] != 3:
        raise ValueError(f"{name}: expected rows (x, y, r) of shape (k, 3), got shape {rows.shape}")
    bad = np.flatnonzero(rows[:, 2] <= 0.0)
    if bad.size:
        raise ValueError(f"{name}[{bad[0]}]: the radius must be > 0 px, got {rows[bad[0], 2]:g}")
    far = np.flatnonzero(np.any(np.abs(rows) > BOUND, axis=1))
    if far.size:
        raise ValueError(f"{name}[{far[0]}]: must lie within +-{BOUND:g} px")
    return rows


def obstacle_list(obstacles, name: str = "obstacles") -> list | None:
    """:func:`obstacle_rows` as the scalar loops take them: a list of ``(x, y, r)`` triples, or None for none."""
    rows = obstacle_rows(obstacles, name)
    return rows.tolist() if len(rows) else None


def segment_gaps(points: np.ndarray, obstacles: np.ndarray) -> np.ndarray:
    """How far each bone keeps outside each circle, px: negative inside.

    Parameters
    ----------
    points : ndarray, shape (..., n + 1, 2)
        Joint positions, px (y down); leading axes are batches.
    obstacles : ndarray, shape (k, 3)
        Rows ``(x, y, r)`` px, the same for every batch row.

    Returns
    -------
    ndarray, shape (..., n, k)
        ``distance(bone i, centre j) - r_j``.
    """
    a = points[..., :-1, None, :]  # (..., n, 1, 2)
    d = points[..., 1:, None, :] - a
    c = obstacles[:, :2]  # (k, 2)
    dd = np.sum(d * d, axis=-1)
    t = np.sum((c - a) * d, axis=-1) / np.where(dd > 0.0, dd, 1.0)
    t = np.clip(t, 0.0, 1.0)
    nearest = a + t[..., None] * d
    return np.hypot(*np.moveaxis(c - nearest, -1, 0)) - obstacles[:, 2]


def is_clear(points: np.ndarray, obstacles: np.ndarray) -> np.ndarray | bool:
    """Whether every bone is clear of every circle (to ``CLEAR_SLACK``): a bool, or (...,) for batched points."""
    if obstacles.shape[0] == 0 or points.shape[-2] < 2:
        return True if points.ndim == 2 else np.ones(points.shape[:-2], bool)
    gaps = segment_gaps(points, obstacles)
    clear = np.all(gaps >= -CLEAR_SLACK, axis=(-2, -1))
    return bool(clear) if points.ndim == 2 else clear


def bone_gap(ax: float, ay: float, bx: float, by: float, obstacles: list) -> float:
    """The least ``distance - r`` px from the bone ``(ax, ay) -> (bx, by)`` to the circles (``inf`` with none).

    ``obstacles`` is a list of ``(x, y, r)`` tuples (the scalar loops' form: ``rows.tolist()``).
    """
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    least = math.inf
    for cx, cy, r in obstacles:
        t = ((cx - ax) * dx + (cy - ay) * dy) / dd if dd > 0.0 else 0.0
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        gap = math.hypot(cx - ax - t * dx, cy - ay - t * dy) - r
        if gap < least:
            least = gap
    return least


def pushed_out(x: float, y: float, obstacles: list, rounds: int = 4) -> tuple[float, float]:
    """The point ``(x, y)`` px moved radially onto the edge of each circle it lies inside, ``rounds`` times over
    (circles that overlap may push it back and forth: the caller checks what it gets). A point on a centre goes
    up (y down: toward -y)."""
    for _ in range(rounds):
        moved = False
        for cx, cy, r in obstacles:
            dx, dy = x - cx, y - cy
            d = math.hypot(dx, dy)
            if d < r:
                if d == 0.0:
                    dx, dy, d = 0.0, -1.0, 1.0
                x, y = cx + dx * r / d, cy + dy * r / d
                moved = True
        if not moved:
            break
    return x, y
