"""Damped least squares (:mod:`.dls`; Wampler 1986, Buss 2004) for many chains at once.

The single call's arithmetic, operation for operation, over arrays, so each row equals
:func:`~.dls.solve_dls` to rounding; a group of ``JIT_MIN_BATCH`` or more runs on the compiled kernel
(:mod:`.jit`) once it is loaded. No validation: float64 arrays; pixels (y down), radians.
"""

from __future__ import annotations

import numpy as np

from ._batch_parts import Stall, limit_pose
from .batched import run_small
from .validate import FULL_CIRCLE, TAU
from .dls import AT_BOUND, DEFAULT_DAMPING, MAX_STEP, MU_GROW, MU_MAX, MU_SHRINK, NULL_STEP, escape, joint_bounds
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS

PI = np.pi


def dls_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None, damping=None):
    """Damped least squares steps for ``N`` chains of ``n`` bones: ``(angles (N, n) rad, error (N,) px, steps (N,))``.

    Arguments as :func:`.batched.ccd_batch`'s, and ``damping`` one value or (N,) (None: ``DEFAULT_DAMPING``).
    """
    count, n = angles.shape
    damp = np.broadcast_to(np.asarray(DEFAULT_DAMPING if damping is None else damping, dtype=np.float64), (count,))
    compiled = run_small("dls", roots, angles, lengths, targets, iterations, tolerance, limits, damp)
    if compiled is not None:
        return compiled
    a = limit_pose(angles, limits)
    error = np.zeros(count)
    used = np.zeros(count, dtype=np.int64)
    reach = np.zeros(count)
    for i in range(n):
        reach = reach + lengths[:, i]
    if limits is None:
        lo = hi = clamped = None
    else:
        lo = limits[..., 0]
        hi = limits[..., 1]
        clamped = hi - lo < FULL_CIRCLE
    xs, ys = joint_points(roots[:, 0], roots[:, 1], a, lengths)
    err = distance(targets[:, 0] - xs[:, n], targets[:, 1] - ys[:, n])
    mu = np.ones(count)
    stall = Stall(lengths)
    stall.gain = STALL_GAIN * reach  # the single call's sum, joint by joint
    # The working set: row numbers, the state, and compact copies of what each chain needs (_one_step's order).
    rows = np.arange(count)
    sa, its, tol = a, iterations, tolerance
    fixed = (roots[:, 0], roots[:, 1], lengths, targets[:, 0], targets[:, 1], reach, damp, lo, hi, clamped)
    step = 0
    while True:
        active = err > tol
        if step % STALL_SWEEPS == 0:
            stall.check(step, rows, err, active)
        active &= step < its
        if not active.all():
            done = ~active
            a[rows[done]] = sa[done]
            error[rows[done]] = err[done]
            used[rows[done]] = step
            if not active.any():
                break
            rows, sa, xs, ys, err, mu, its, tol = (v[active] for v in (rows, sa, xs, ys, err, mu, its, tol))
            fixed = tuple(None if v is None else v[active] for v in fixed)
        step += 1
        sa, xs, ys, err, mu = _one_step(sa, xs, ys, err, mu, *fixed)
    return a, error, used


def _one_step(a, xs, ys, err, mu, rx, ry, ln, tx, ty, reach, damping, lo, hi, clamped):
    """One damped least squares step on every chain of the working set (see :func:`~.dls.dls_iterations`)."""
    n = a.shape[1]
    ex = xs[:, n]
    ey = ys[:, n]
    scale = np.maximum(err, reach)
    ux = (tx - ex) / scale
    uy = (ty - ey) / scale
    with np.errstate(over="ignore"):  # an enormous damping: no step, as in the single call
        lam = damping * mu * err / scale
        lam2 = lam * lam
    jx = [-(ey - ys[:, i]) / scale for i in range(n)]
    jy = [(ex - xs[:, i]) / scale for i in range(n)]
    d = dls_step(jx, jy, ux, uy, lam2)
    if clamped is not None:
        pushed = np.zeros(len(a), dtype=bool)
        for i in range(n):
            out = clamped[:, i] & (((a[:, i] >= hi[:, i] - AT_BOUND) & (d[i] > 0.0))
                                   | ((a[:, i] <= lo[:, i] + AT_BOUND) & (d[i] < 0.0)))
            if out.any():
                jx[i] = np.where(out, 0.0, jx[i])
                jy[i] = np.where(out, 0.0, jy[i])
                pushed |= out
        if pushed.any():  # solved again for every row: the rows with nothing pushed get the same step
            d = dls_step(jx, jy, ux, uy, lam2)
    b = np.empty_like(a)
    for i in range(n):
        v = a[:, i] + d[i]
        wrapped = np.where(v > PI, v - TAU, np.where(v <= -PI, v + TAU, v))
        if clamped is None:
            b[:, i] = wrapped
        else:
            b[:, i] = np.minimum(np.maximum(np.where(clamped[:, i], v, wrapped), lo[:, i]), hi[:, i])
    bx, by = joint_points(rx, ry, b, ln)
    trial = distance(tx - bx[:, n], ty - by[:, n])
    null = np.max(np.abs(np.array(d)), axis=0) < NULL_STEP
    better = (trial < err) | (null & (trial <= err + ROUNDING * reach))
    before, before_err = a, err  # an escape kicks from here (as the single call)
    keep = better[:, None]
    a = np.where(keep, b, a)
    xs = np.where(keep, bx, xs)
    ys = np.where(keep, by, ys)
    err = np.where(better, trial, err)
    mu = np.where(better, np.maximum(mu * MU_SHRINK, 1.0), np.minimum(mu * MU_GROW, MU_MAX))
    if null.any():  # the single call's escape, row by row (rare: a chain on its target's line)
        for k in np.flatnonzero(null & (distance(tx - rx, ty - ry) < reach)).tolist():
            lim = None if clamped is None else list(zip(lo[k].tolist(), hi[k].tolist()))
            kicked = escape(float(rx[k]), float(ry[k]), before[k].tolist(), ln[k].tolist(), float(tx[k]),
                            float(ty[k]), joint_bounds(lim, n), float(before_err[k]))
            if kicked is not None:
                a[k], xs[k], ys[k], err[k] = kicked
    return a, xs, ys, err, mu


def dls_step(jx: list, jy: list, ux: np.ndarray, uy: np.ndarray, lam2: np.ndarray) -> list:
    """:func:`.dls.dls_step` over a batch: the ``n`` joint turns, each an array of shape (N,)."""
    n = len(jx)
    sxx = syy = sxy = np.zeros(len(ux))
    for i in range(n):
        p = jx[i]
        q = jy[i]
        sxx = sxx + p * p
        syy = syy + q * q
        sxy = sxy + p * q
    with np.errstate(over="ignore", invalid="ignore"):
        a11 = sxx + lam2
        a22 = syy + lam2
        det = a11 * a22 - sxy * sxy
        ok = (det > 0.0) & (det < np.inf)
    safe = np.where(ok, det, 1.0)
    a11 = np.where(ok, a11, 0.0)
    a22 = np.where(ok, a22, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):  # as the single call's floats: inf, no warning
        wx = np.where(ok, (a22 * ux - sxy * uy) / safe, 0.0)
        wy = np.where(ok, (a11 * uy - sxy * ux) / safe, 0.0)
        d = [jx[i] * wx + jy[i] * wy for i in range(n)]
        largest = np.zeros(len(ux))
        for v in d:
            largest = np.maximum(largest, np.abs(v))
        big = largest > MAX_STEP
        if big.any():
            over = np.where(big, largest, 1.0)
            d = [np.where(big, v * MAX_STEP / over, v) for v in d]
    return d


def distance(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """:func:`.dls.distance` over arrays: ``hypot`` written out, rounding as the single call's."""
    m = np.maximum(np.abs(dx), np.abs(dy))
    safe = np.where(m > 0.0, m, 1.0)
    qx = dx / safe
    qy = dy / safe
    return m * np.sqrt(qx * qx + qy * qy)


def joint_points(rx: np.ndarray, ry: np.ndarray, a: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.kinematics.joint_xy` over a batch: x and y of the ``n + 1`` joints, each shape (N, n + 1)."""
    absolute = np.cumsum(a, axis=1)  # (accumulate adds in order: the single call's sums)
    xs = np.cumsum(np.column_stack([rx, lengths * np.cos(absolute)]), axis=1)
    ys = np.cumsum(np.column_stack([ry, lengths * np.sin(absolute)]), axis=1)
    return xs, ys
