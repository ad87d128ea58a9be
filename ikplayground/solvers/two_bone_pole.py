"""Which way a two-bone chain's knee bends, from a pole point.

A pole plays the part of Godot's magnet (SkeletonIK3D's ``magnet``, a point the
chain bends toward) and of Spine's bend direction (IkConstraint's ``bendDirection``,
+1 or -1) picked by a point: the knee goes to the pole's side of the line from
the root to the target. Screen coordinates,
y down: the knee of ``bend = +1`` (``theta1 = phi - psi``) lies where
``cross(target - root, knee - root) < 0``, so a pole with a positive cross
product takes bend -1 and one with a negative cross product bend +1. A cross
product of exactly 0 (the pole on the line, or the target on the root) leaves
the bend as given; so does NaN (no pole).
"""

from __future__ import annotations

import numpy as np

from ._validate import _to_float64

# Cross products of vectors whose coordinates stay under _CROSS_SAFE cannot
# overflow; larger ones are first scaled by _CROSS_SHRINK (a power of two: exact).
_CROSS_SAFE = 1e150
_CROSS_SHRINK = 2.0 ** -600


def pole_bend(dx: float, dy: float, qx: float, qy: float, bend: float) -> float:
    """The bend (+1.0 or -1.0) of one chain with ``target - root = (dx, dy)`` and
    ``pole - root = (qx, qy)`` (px); ``bend`` where the pole is on the line or NaN."""
    if max(abs(dx), abs(dy), abs(qx), abs(qy)) >= _CROSS_SAFE:
        k = _CROSS_SHRINK
        dx, dy, qx, qy = dx * k, dy * k, qx * k, qy * k
    c = dx * qy - dy * qx
    return -1.0 if c > 0.0 else 1.0 if c < 0.0 else bend


def pole_bend_arrays(dx: np.ndarray, dy: np.ndarray, qx: np.ndarray, qy: np.ndarray, bend) -> np.ndarray:
    """:func:`pole_bend` element-wise (arrays broadcast; NaN rows of the pole keep ``bend``)."""
    big = np.maximum(np.maximum(np.abs(dx), np.abs(dy)), np.maximum(np.abs(qx), np.abs(qy))) >= _CROSS_SAFE
    if big.any():  # (row by row, as pole_bend does: a shrunk short row could underflow)
        k = np.where(big, _CROSS_SHRINK, 1.0)
        dx, dy, qx, qy = dx * k, dy * k, qx * k, qy * k
    c = dx * qy - dy * qx
    return np.where(c > 0.0, -1.0, np.where(c < 0.0, 1.0, bend))


def pole_array(pole, bound: float) -> np.ndarray:
    """``pole`` as a float64 (2,) or (N, 2) array of points within ``+-bound`` px,
    each finite or a whole row of NaN (no pole); ValueError naming ``pole`` otherwise."""
    arr = _to_float64(pole, "pole")
    if arr.ndim not in (1, 2) or arr.shape[-1] != 2:
        raise ValueError(f"pole: expected shape (2,) or (N, 2), got {arr.shape}")
    none = np.isnan(arr).all(axis=-1, keepdims=True)
    bad = ~np.isfinite(arr) & ~none
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"pole: must be finite, or a whole row of NaN for no pole "
                         f"(non-finite value at index {where})")
    if np.max(np.abs(np.where(none, 0.0, arr)), initial=0.0) > bound:
        raise ValueError(f"pole: coordinates must lie within +-{bound:g} px")
    return arr
