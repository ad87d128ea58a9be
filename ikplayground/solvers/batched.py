"""The iterative solvers over many chains at once (one numpy call per joint).

These are the scene's hot path: ``N`` chains of the same bone count are
solved together, with the joints visited by a Python loop of ``n`` steps and
every chain advanced by array operations. Each function follows its
single-chain counterpart step for step (:mod:`.ccd`, :mod:`.fabrik`,
:mod:`.snake`), so a row of a batched result equals the single-chain call on
that row to rounding.

No validation: callers pass float64 arrays of the documented shapes, finite,
with lengths > 0 and ``lo <= hi`` inside [-pi, pi]. The public, validated
entry points are in :mod:`ikplayground.solvers`.
"""

from __future__ import annotations

import numpy as np

from ._validate import TAU, wrap_array
from .ccd import FULL_CIRCLE
from .kinematics import chain_points_batch

PI = np.pi


def limit_angles(values: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """Clamp relative angles to their limits, wrapping where a range is the full circle.

    Parameters
    ----------
    values : ndarray, shape (N,) or (N, n)
        Angles in radians.
    limits : ndarray, shape (N, 2) or (N, n, 2), or None
        ``(lo, hi)`` per angle; None means wrap only.
    """
    if limits is None:
        return wrap_array(values)
    lo = limits[..., 0]
    hi = limits[..., 1]
    clamped = np.minimum(np.maximum(values, lo), hi)
    clamped = np.where((clamped <= -PI) & (hi >= PI), PI, clamped)
    return np.where(hi - lo >= FULL_CIRCLE, wrap_array(values), clamped)


def ccd_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None):
    """CCD sweeps for ``N`` chains of ``n`` bones.

    Parameters
    ----------
    roots, targets : ndarray, shape (N, 2)
        Pixels, y down.
    angles, lengths : ndarray, shape (N, n)
        Relative joint angles (radians) and bone lengths (pixels).
    iterations : ndarray of int, shape (N,)
        Most sweeps for each chain.
    tolerance : ndarray, shape (N,)
        Each chain stops once its end effector is this close (pixels).
    limits : ndarray, shape (N, n, 2), optional
        ``(lo, hi)`` per relative angle, radians.

    Returns
    -------
    angles : ndarray, shape (N, n)
    error : ndarray, shape (N,)
        End effector to target distance in pixels.
    used : ndarray of int, shape (N,)
        Sweeps each chain ran.
    """
    a = limit_angles(angles, limits)
    count, n = a.shape
    tx = targets[:, 0]
    ty = targets[:, 1]
    used = np.zeros(count, dtype=np.int64)
    sweeps = int(iterations.max()) if count else 0
    for sweep in range(sweeps + 1):
        pts = chain_points_batch(roots, a, lengths)
        ex = pts[:, n, 0].copy()
        ey = pts[:, n, 1].copy()
        error = np.hypot(tx - ex, ty - ey)
        active = (error > tolerance) & (sweep < iterations)
        if sweep == sweeps or not active.any():
            return a, error, used
        used += active
        for i in range(n - 1, -1, -1):
            px = pts[:, i, 0]
            py = pts[:, i, 1]
            vx = ex - px
            vy = ey - py
            delta = wrap_array(np.arctan2(ty - py, tx - px) - np.arctan2(vy, vx))
            delta *= active
            old = a[:, i]
            new = limit_angles(old + delta, None if limits is None else limits[:, i])
            applied = new - old
            a[:, i] = new
            c = np.cos(applied)
            s = np.sin(applied)
            ex = px + c * vx - s * vy
            ey = py + s * vx + c * vy
    return a, error, used  # pragma: no cover  (the loop always returns)


def fabrik_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None):
    """FABRIK passes for ``N`` chains of ``n`` bones.

    Same parameters and returns as :func:`ccd_batch`. Unreachable targets get
    the chain laid straight toward them in one pass; joint limits are applied
    in the backward walk, so the returned angles always satisfy them.
    """
    a = limit_angles(angles, limits)
    count, n = a.shape
    pts = chain_points_batch(roots, a, lengths)
    xs = np.ascontiguousarray(pts[:, :, 0])
    ys = np.ascontiguousarray(pts[:, :, 1])
    rx = roots[:, 0]
    ry = roots[:, 1]
    tx = targets[:, 0]
    ty = targets[:, 1]
    dist = np.hypot(tx - rx, ty - ry)
    unreachable = dist >= lengths.sum(axis=1)
    safe = np.where(dist > 0, dist, 1.0)
    ux = np.where(dist > 0, (tx - rx) / safe, 1.0)
    uy = np.where(dist > 0, (ty - ry) / safe, 0.0)
    along = np.cumsum(lengths, axis=1)
    used = np.zeros(count, dtype=np.int64)
    finished = np.zeros(count, dtype=bool)
    sweeps = int(iterations.max()) if count else 0
    for sweep in range(sweeps):
        active = (np.hypot(tx - xs[:, n], ty - ys[:, n]) > tolerance) & (sweep < iterations) & ~finished
        if not active.any():
            break
        used += active
        finished |= active & unreachable
        fx = xs.copy()
        fy = ys.copy()
        # Forward reaching (reachable chains) or a straight line (unreachable).
        x = tx.copy()
        y = ty.copy()
        fx[:, n] = x
        fy[:, n] = y
        for i in range(n - 1, -1, -1):
            dx = fx[:, i] - x
            dy = fy[:, i] - y
            d = np.hypot(dx, dy)
            k = lengths[:, i] / np.where(d > 0, d, 1.0)
            x = np.where(d > 0, x + dx * k, x - ux * lengths[:, i])
            y = np.where(d > 0, y + dy * k, y - uy * lengths[:, i])
            fx[:, i] = x
            fy[:, i] = y
        fx[:, 1:] = np.where(unreachable[:, None], rx[:, None] + ux[:, None] * along, fx[:, 1:])
        fy[:, 1:] = np.where(unreachable[:, None], ry[:, None] + uy[:, None] * along, fy[:, 1:])
        # Backward reaching from the root.
        x = rx.copy()
        y = ry.copy()
        fx[:, 0] = x
        fy[:, 0] = y
        if limits is None:
            for i in range(n):
                dx = fx[:, i + 1] - x
                dy = fy[:, i + 1] - y
                d = np.hypot(dx, dy)
                k = lengths[:, i] / np.where(d > 0, d, 1.0)
                x = np.where(d > 0, x + dx * k, x + ux * lengths[:, i])
                y = np.where(d > 0, y + dy * k, y + uy * lengths[:, i])
                fx[:, i + 1] = x
                fy[:, i + 1] = y
        else:
            parent = np.zeros(count)
            new_a = a.copy()
            for i in range(n):
                dx = fx[:, i + 1] - x
                dy = fy[:, i + 1] - y
                want = np.where((dx != 0) | (dy != 0), np.arctan2(dy, dx), parent + a[:, i])
                rel = limit_angles(wrap_array(want - parent), limits[:, i])
                new_a[:, i] = rel
                parent = parent + rel
                x = x + lengths[:, i] * np.cos(parent)
                y = y + lengths[:, i] * np.sin(parent)
                fx[:, i + 1] = x
                fy[:, i + 1] = y
            a = np.where(active[:, None], new_a, a)
        xs = np.where(active[:, None], fx, xs)
        ys = np.where(active[:, None], fy, ys)
    if limits is None:
        absolute = np.arctan2(np.diff(ys, axis=1), np.diff(xs, axis=1))
        parent = np.concatenate([np.zeros((count, 1)), absolute[:, :-1]], axis=1)
        read_back = wrap_array(absolute - parent)
        a = np.where((used > 0)[:, None], read_back, a)
    error = np.hypot(tx - xs[:, n], ty - ys[:, n])
    return a, error, used


def snake_batch(points, heads, lengths, lo, hi):
    """Follow-the-leader for ``N`` snakes of ``n`` segments.

    Parameters
    ----------
    points : ndarray, shape (N, n + 1, 2)
        Current nodes, ``[:, 0]`` the heads.
    heads : ndarray, shape (N, 2)
        New head positions.
    lengths : ndarray, shape (N, n)
        Segment lengths in pixels.
    lo, hi : ndarray, shape (N,)
        Bend range at every inner node, radians.

    Returns
    -------
    ndarray, shape (N, n + 1, 2)
        New nodes (a new array).
    """
    count, m, _ = points.shape
    out = np.empty_like(points)
    out[:, 0] = heads
    x = heads[:, 0].copy()
    y = heads[:, 1].copy()
    prev = None
    for k in range(m - 1):
        dx = points[:, k + 1, 0] - x
        dy = points[:, k + 1, 1] - y
        moved = (dx != 0) | (dy != 0)
        ang = np.arctan2(dy, dx)
        if prev is None:
            old = np.arctan2(points[:, k + 1, 1] - points[:, k, 1], points[:, k + 1, 0] - points[:, k, 0])
            ang = np.where(moved, ang, old)
        else:
            ang = np.where(moved, ang, prev)
            bend = np.mod(ang - prev + PI, TAU) - PI
            ang = prev + np.minimum(np.maximum(bend, lo), hi)
        x = x + lengths[:, k] * np.cos(ang)
        y = y + lengths[:, k] * np.sin(ang)
        out[:, k + 1, 0] = x
        out[:, k + 1, 1] = y
        prev = ang
    return out
