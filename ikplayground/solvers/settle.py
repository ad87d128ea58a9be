"""What follows a solve each frame, over many chains: the angular rate limit, forward kinematics, the tip's error,
and the shown pose held clear of circle obstacles.

The rate limit is the pygame CCD tutorial's per-frame cap on how far a joint turns (docs/sources.md); forward
kinematics as :func:`.kinematics.chain_points_batch`. :func:`settle_batch` runs the three as one compiled pass
(:mod:`._jit_pose`) once the kernels are ready for a group of ``JIT_MIN_BATCH`` or more, else on numpy; both give the
same numbers (the same operations in the same order). :func:`clear_moves` keeps a frame's move from passing through
a circle (:mod:`.avoid`'s CCD turns, joint by joint). Unvalidated float64 arrays; pixels (y down), radians.
"""

from __future__ import annotations

import numpy as np

from . import jit
from ._batch_avoid import turn_joints, turn_rooms, watched, clear, wrap_mod
from ._batch_reshape import in_order
from .batched import JIT_MIN_BATCH
from .kinematics import chain_points_batch
from .validate import FULL_CIRCLE, wrap_array


def rate_limited(current: np.ndarray, desired: np.ndarray, rate: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Joint angles ``current`` moved toward ``desired`` by at most ``rate`` each.

    Parameters
    ----------
    current, desired : ndarray, shape (N, n)
        Relative joint angles, rad.
    rate : ndarray, shape (N,)
        The most a joint turns, rad (``inf``: no limit).
    limits : ndarray, shape (N, n, 2)
        Each joint's range, rad; a range of ``FULL_CIRCLE`` or more is a free joint.

    Returns
    -------
    ndarray, shape (N, n)
        A free joint goes the shorter way round and is wrapped to (-pi, pi]; a limited one never crosses its
        range's forbidden arc.
    """
    full = ~(limits[..., 1] - limits[..., 0] < FULL_CIRCLE)
    diff = desired - current
    diff = np.where(full, wrap_array(diff), diff)
    r = rate[:, None]
    moved = current + np.clip(diff, -r, r)
    return np.where(full, np.clip(wrap_array(moved), limits[..., 0], limits[..., 1]), moved)


def tip_error(roots: np.ndarray, angles: np.ndarray, lengths: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Distance (N,) px from each chain's end effector, posed by ``angles`` (N, n) rad, to ``targets`` (N, 2) px.

    ``roots`` (N, 2) px, ``lengths`` (N, n) px. The end effector is summed bone by bone from the root, as
    :func:`.kinematics.chain_points_batch` sums it.
    """
    k = _kernels(len(angles))
    if k is not None:
        out = np.empty(len(angles))
        k.tip_error(_c(roots), _c(angles), _c(lengths), _c(targets), out)
        return out
    tip = chain_points_batch(roots, angles, lengths)[:, -1]
    return np.hypot(targets[:, 0] - tip[:, 0], targets[:, 1] - tip[:, 1])


def settle_batch(angles: np.ndarray, desired: np.ndarray, rate: np.ndarray, limits: np.ndarray, roots: np.ndarray,
                 lengths: np.ndarray, targets: np.ndarray, points: np.ndarray, error: np.ndarray) -> None:
    """One frame's follow-through for ``N`` chains of ``n`` bones, in place.

    ``angles`` (N, n) rad becomes :func:`rate_limited` toward ``desired`` (N, n) rad (``rate`` (N,), ``limits``
    (N, n, 2) rad); ``points`` (N, n + 1, 2) px its forward kinematics from ``roots`` (N, 2) px along ``lengths``
    (N, n) px; ``error`` (N,) px the last point's distance to ``targets`` (N, 2) px.
    """
    k = _kernels(len(angles))
    if k is not None and points.flags.c_contiguous and angles.flags.c_contiguous:
        out = np.empty(len(angles))  # (the kernels are compiled for contiguous arrays only: no compile mid-frame)
        k.settle(angles, _c(desired), _c(rate), _c(limits), _c(roots), _c(lengths), _c(targets), points, out)
        error[:] = out
        return
    angles[:] = rate_limited(angles, desired, rate, limits)
    points[:] = chain_points_batch(roots, angles, lengths)
    error[:] = np.hypot(targets[:, 0] - points[:, -1, 0], targets[:, 1] - points[:, -1, 1])


def clear_moves(roots: np.ndarray, before: np.ndarray, after: np.ndarray, lengths: np.ndarray, limits: np.ndarray,
                obstacles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The poses ``after`` (N, n) rad, except where one puts a bone in a circle the pose ``before`` had it clear of:
    there ``before`` turned toward it joint by joint, root first, each turn stopped short of the first contact
    along its sweep (:func:`.avoid.turn_room`), so no bone passes through a circle on the way.

    ``roots`` (N, 2) px, ``lengths`` (N, n) px, ``limits`` (N, n, 2) rad (a full circle: the move the shorter way
    round), ``obstacles`` (k, 3) circles ``(x, y, r)`` px. Returns ``(angles, held)``: the poses (``after`` itself
    when none is held) and the mask (N,) of the rows held back.
    """
    held = np.zeros(len(after), dtype=bool)
    if not len(obstacles) or not len(after):
        return after, held
    k = _kernels(len(after))
    if k is not None:  # (the same turns, one chain a compiled row)
        out = np.empty(after.shape)
        k.clear_moves(_c(roots), _c(before), _c(after), _c(lengths), _c(limits), _c(obstacles), out, held)
        return (out, held) if held.any() else (after, held)
    start = chain_points_batch(roots, before, lengths)
    mask = watched(start[:, :, 0], start[:, :, 1], obstacles, in_order(lengths))
    end = chain_points_batch(roots, after, lengths)
    held = mask.any(axis=(1, 2)) & ~clear(end[:, :, 0], end[:, :, 1], obstacles, mask)
    rows = np.flatnonzero(held)
    if not len(rows):
        return after, held
    a = before[rows].copy()
    xs = np.ascontiguousarray(start[rows, :, 0])
    ys = np.ascontiguousarray(start[rows, :, 1])
    full = ~(limits[rows, :, 1] - limits[rows, :, 0] < FULL_CIRCLE)
    for i in range(a.shape[1]):
        rot = np.where(full[:, i], wrap_mod(after[rows, i] - a[:, i]), after[rows, i] - a[:, i])
        turn = turn_rooms(xs, ys, i, rot, obstacles, mask[rows])
        a[:, i] = np.where(turn == rot, after[rows, i], np.where(full[:, i], wrap_mod(a[:, i] + turn), a[:, i] + turn))
        turn_joints(xs, ys, i, turn)
    out = after.copy()
    out[rows] = a
    return out, held


def _kernels(count: int):
    """The compiled kernels for a batch of ``count`` chains, or None (numpy: few chains, no numba, not ready)."""
    if count < JIT_MIN_BATCH:
        return None
    k = jit.kernels()
    if k is None:
        jit.warm_up()
    return k


def _c(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64)
