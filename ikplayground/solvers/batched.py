"""The iterative solvers over many chains at once: the scene's hot path (one numpy call per joint).

Step for step :mod:`.ccd` (pygame CCD tutorial), :mod:`.fabrik` (Aristidou & Lasenby 2011) and
:mod:`.snake` (Flash snake tutorial), so a row equals the single call to rounding. No validation:
finite float64 arrays of the documented shapes. Pixels (y down), radians.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from . import jit
from ._batch_parts import SMALL_BATCH, Stall, joint_modes, limit_joint, limit_pose, run_rows
from .ccd import ccd_loop
from .fabrik import fabrik_loop
from .fabrik_arrays import fabrik_arrays
from .kinematics import chain_points_batch
from .results import ROUNDING, STALL_ESCAPES, STALL_GAIN, STALL_SWEEPS, finish
from .validate import TAU, wrap_array

PI = np.pi
JIT_MIN_BATCH = 8  # smaller groups are cheap either way


def _row(solver, rx, ry, a, lens, tx, ty, iterations, tolerance, lim):
    """``solver``'s single-chain loop on one chain's floats: ``(angles, used, error)``, the error in px."""
    args = (rx, ry, a, lens, tx, ty, iterations, tolerance, lim)
    if solver == "ccd":
        return finish(ccd_loop(*args, False))[:3]
    a, used, (ex, ey), _ = finish(fabrik_loop(*args, False))
    return a, used, math.hypot(tx - ex, ty - ey)


def run_small(solver, roots, angles, lengths, targets, iterations, tolerance, limits):
    """``(angles, error, used)`` of up to ``SMALL_BATCH`` chains (row by row) or a group on a kernel, or None.

    The kernels take CCD and FABRIK groups with limits (the Jacobian family's: :mod:`.dls_batch`).
    """
    if len(angles) <= SMALL_BATCH:
        row = partial(_row, solver)
        return run_rows(row, roots, angles, lengths, targets, iterations, tolerance, limits)
    if limits is None or len(angles) < JIT_MIN_BATCH:
        return None
    k = jit.kernels()
    if k is None:
        jit.warm_up()  # compile in the background (if numba is there); numpy until then
        return None
    c = np.ascontiguousarray
    a = np.array(angles, dtype=np.float64, order="C")  # limited and solved in place
    error = np.empty(len(a))
    used = np.zeros(len(a), dtype=np.int64)
    if solver == "ccd":
        kernel, extra = k.ccd, (STALL_SWEEPS, STALL_GAIN)
    else:
        kernel, extra = k.fabrik, (STALL_SWEEPS, STALL_GAIN, STALL_ESCAPES, ROUNDING)
    kernel(c(roots, dtype=np.float64), a, c(lengths, dtype=np.float64), c(targets, dtype=np.float64),
           c(iterations, dtype=np.int64), c(tolerance, dtype=np.float64), c(limits, dtype=np.float64), error, used,
           *extra)
    return a, error, used


def ccd_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None):
    """CCD sweeps for ``N`` chains of ``n`` bones: ``(angles (N, n) rad, error (N,) px, sweeps used (N,))``.

    Arguments as :func:`~.batch_api.solve_ccd_batch`'s, as float64 arrays: roots and targets (N, 2) px
    (y down), angles (N, n) rad, lengths (N, n) px, ``iterations`` (N,) int, ``tolerance`` (N,) px,
    ``limits`` (N, n, 2) rad or None.
    """
    compiled = run_small("ccd", roots, angles, lengths, targets, iterations, tolerance, limits)
    if compiled is not None:
        return compiled
    a = limit_pose(angles, limits)
    count, n = a.shape
    used = np.zeros(count, dtype=np.int64)
    error = np.zeros(count)
    sweeps = int(iterations.max()) if count else 0
    modes = joint_modes(limits, n)
    rows = np.arange(count)
    sub = a
    r, ln, t, lim = roots, lengths, targets, limits
    stall = Stall(lengths)
    for sweep in range(sweeps + 1):
        pts = chain_points_batch(r, sub, ln)
        ex = pts[:, n, 0].copy()
        ey = pts[:, n, 1].copy()
        tx, ty = t[:, 0], t[:, 1]
        err = np.hypot(tx - ex, ty - ey)
        error[rows] = err
        active = (err > tolerance[rows]) & (sweep < iterations[rows])
        if sweep % STALL_SWEEPS == 0:
            stall.check(sweep, rows, err, active)
        if sweep == sweeps or not active.any():
            break
        if not active.all():
            rows = rows[active]
            sub = a[rows]
            r, ln, t, pts = roots[rows], lengths[rows], targets[rows], pts[active]
            lim = None if limits is None else limits[rows]
            ex, ey = ex[active], ey[active]
            tx, ty = t[:, 0], t[:, 1]
        used[rows] += 1
        for i in range(n - 1, -1, -1):
            px = pts[:, i, 0]
            py = pts[:, i, 1]
            vx = ex - px
            vy = ey - py
            delta = wrap_array(np.arctan2(ty - py, tx - px) - np.arctan2(vy, vx))
            old = sub[:, i]
            new = limit_joint(old + delta, modes[i], lim, i)
            applied = new - old
            sub[:, i] = new
            c = np.cos(applied)
            s = np.sin(applied)
            ex = px + c * vx - s * vy
            ey = py + s * vx + c * vy
        if sub is not a:
            a[rows] = sub
    return a, error, used


def fabrik_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None):
    """FABRIK passes for ``N`` chains of ``n`` bones: parameters and returns as :func:`ccd_batch` (:mod:`.fabrik`)."""
    compiled = run_small("fabrik", roots, angles, lengths, targets, iterations, tolerance, limits)
    if compiled is not None:
        return compiled
    return fabrik_arrays(roots, angles, lengths, targets, iterations, tolerance, limits)


def snake_batch(points, heads, lengths, lo, hi):
    """Follow-the-leader for ``N`` snakes of ``n`` segments: the new nodes (N, n + 1, 2) px (a new array).

    ``points`` (N, n + 1, 2) px (``[:, 0]`` the heads), ``heads`` (N, 2) px, ``lengths`` (N, n) px, and
    the bend range ``lo``, ``hi`` (N,) rad at every inner node.
    """
    count, m, _ = points.shape
    out = np.empty(points.shape)
    k = jit.kernels() if count >= JIT_MIN_BATCH else None
    if k is not None:  # the same operations, compiled
        c = np.ascontiguousarray
        k.snake(c(points, dtype=np.float64), c(heads, dtype=np.float64), c(lengths, dtype=np.float64),
                c(lo, dtype=np.float64), c(hi, dtype=np.float64), out)
        return out
    if count >= JIT_MIN_BATCH:
        jit.warm_up()
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
