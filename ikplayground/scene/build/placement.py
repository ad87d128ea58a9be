"""Where a new chain goes (the App's N): near a point, clear of the other chains, inside a box, its target in reach.

Candidate roots run outward from the point ring by ring on a grid ``spacing`` px
apart (a square spiral); the first whose root and target are both inside the box
and at least ``spacing`` px from every other chain's root and target (a snake's
head and tail, a walker's body) is taken. An IK chain's target sits at
``REACH_SHARE`` of its reach from the root, off the line of its straight start so
that every solver makes headway at once. Pixels, y down.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.core.chain import Chain

REACH_SHARE = 0.7  # of the chain's whole length: where its target sits from its root
# directions (rad, atan2, y down) tried for the target in turn: up and to the right first, off the vertical
DIRECTIONS = tuple(math.radians(a) for a in (-55.0, -125.0, -25.0, -155.0, 25.0, 155.0, 55.0, 125.0))
MAX_RINGS = 400  # rings of the spiral looked at before giving up on a clear spot
RINGS_AT_ONCE = 6  # rings checked in one array pass


def taken(chains: list[Chain]) -> np.ndarray:
    """The points (k, 2) px a new chain keeps clear of: IK roots and targets, snake heads and tails, walker bodies,
    rigs' roots and targets, path chains' control points."""
    pts = []
    for c in chains:
        f = c.fields
        if c.is_walker:
            pts.append(f["body"][None])
        elif c.is_snake:
            pts.append(f["points"][[0, -1]])
        elif c.is_rig:
            pts.append(np.vstack([f["root"][None], f["targets"]]))
        elif c.is_path:  # its curve's handles
            pts.append(f["control"])
        else:
            pts.append(np.stack([f["root"], f["target"]]))
    return np.concatenate(pts) if pts else np.zeros((0, 2))


def spiral(near, spacing: float, first: int, last: int) -> np.ndarray:
    """The grid points (k, 2) px of square rings ``first`` .. ``last - 1`` about ``near``, nearer ones first."""
    out = []
    for ring in range(first, last):
        if ring == 0:
            out.append(np.zeros((1, 2)))
            continue
        r = np.arange(-ring, ring + 1)
        edge = np.concatenate([np.stack([r, np.full_like(r, -ring)], 1), np.stack([r, np.full_like(r, ring)], 1),
                               np.stack([np.full_like(r[1:-1], -ring), r[1:-1]], 1),
                               np.stack([np.full_like(r[1:-1], ring), r[1:-1]], 1)]).astype(float)
        out.append(edge[np.argsort(np.hypot(edge[:, 0], edge[:, 1]), kind="stable")])
    return np.concatenate(out) * spacing + np.asarray(near, dtype=float)


def _inside(p: np.ndarray, box) -> np.ndarray:
    x0, y0, x1, y1 = box
    return (p[..., 0] >= x0) & (p[..., 0] <= x1) & (p[..., 1] >= y0) & (p[..., 1] <= y1)


def _clear(p: np.ndarray, others: np.ndarray, spacing: float) -> np.ndarray:
    """Which of ``p`` (..., 2) lie at least ``spacing`` px from all of ``others`` (k, 2)."""
    if not len(others):
        return np.ones(p.shape[:-1], bool)
    flat = p.reshape(-1, 2)
    ok = np.ones(len(flat), bool)
    for start in range(0, len(others), 512):  # a bounded distance matrix at a time
        o = others[start:start + 512]
        d2 = ((flat[:, None, :] - o[None, :, :]) ** 2).sum(axis=2)
        ok &= (d2 >= spacing * spacing).all(axis=1)
    return ok.reshape(p.shape[:-1])


def place(near, reach: float | None, box, others: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray | None]:
    """A root (2,) px and target (2,) px (None when ``reach`` is None: a snake or walker) for a new chain.

    Parameters
    ----------
    near : (2,) px
        Where to start looking (the mouse).
    reach : float or None
        The chain's whole length, px; None for a chain without a target.
    box : (x0, y0, x1, y1) px
        Where root and target must lie (the visible stage).
    others : (k, 2) px
        Points to keep ``spacing`` px away from (:func:`taken`).
    spacing : float
        px between candidates, and the least distance from ``others``.

    Returns the first clear spot on the spiral; if none, the box's point nearest ``near`` (overlap allowed).
    """
    x0, y0, x1, y1 = (float(v) for v in box)
    start = np.array((min(max(float(near[0]), x0), x1), min(max(float(near[1]), y0), y1)))
    offsets = None if reach is None else REACH_SHARE * reach * np.array([(math.cos(a), math.sin(a))
                                                                         for a in DIRECTIONS])
    for first in range(0, MAX_RINGS, RINGS_AT_ONCE):
        roots = spiral(start, spacing, first, first + RINGS_AT_ONCE)
        good = _inside(roots, box)
        if not good.any():
            if first * spacing > max(x1 - x0, y1 - y0) + spacing:
                break  # every later ring lies wholly outside the box
            continue
        roots = roots[good]
        ok = _clear(roots, others, spacing)
        if offsets is None:
            if ok.any():
                return roots[int(np.argmax(ok))], None
            continue
        targets = roots[:, None, :] + offsets[None]  # (k, directions, 2)
        fine = ok[:, None] & _inside(targets, box) & _clear(targets, others, spacing)
        if fine.any():
            k, d = np.unravel_index(int(np.argmax(fine.reshape(-1))), fine.shape)
            return roots[k], targets[k, d]
    root = start
    if offsets is None:
        return root, None
    inside = _inside(root + offsets, box)
    return root, root + offsets[int(np.argmax(inside))] if inside.any() else np.array((root[0], max(y0, root[1] - 1)))
