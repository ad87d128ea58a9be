"""The iterative solvers over many chains at once: the scene's hot path (one numpy call per joint).

Step for step :mod:`.ccd` (pygame CCD tutorial; numpy passes in :mod:`.ccd_arrays`), :mod:`.fabrik`
(Aristidou & Lasenby 2011; :mod:`.fabrik_arrays`) and :mod:`.snake` (Flash snake tutorial), so a row
equals the single call to rounding. No validation:
finite float64 arrays of the documented shapes. Pixels (y down), radians.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from . import jit
from ._batch_avoid import clear_images
from ._batch_parts import SMALL_BATCH, run_rows
from .ccd import ccd_loop
from .ccd_arrays import ccd_arrays
from .fabrik import fabrik_loop
from .fabrik_arrays import fabrik_arrays
from .pole import mirrored_toward_batch
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS, finish
from .validate import TAU

PI = np.pi
JIT_MIN_BATCH = 8  # smaller groups are cheap either way


def _row(solver, rx, ry, a, lens, tx, ty, iterations, tolerance, lim, pole=None, obs=None):
    """``solver``'s single-chain loop on one chain's floats: ``(angles, used, error)``, the error in px."""
    args = (rx, ry, a, lens, tx, ty, iterations, tolerance, lim)
    if solver == "ccd":
        return finish(ccd_loop(*args, False, pole, obs))[:3]
    a, used, (ex, ey), _ = finish(fabrik_loop(*args, False, pole, obs))
    return a, used, math.hypot(tx - ex, ty - ey)


def run_small(solver, roots, angles, lengths, targets, iterations, tolerance, limits, poles=None, obstacles=None):
    """``(angles, error, used)`` of up to ``SMALL_BATCH`` chains (row by row) or a group on a kernel, or None.

    The kernels take CCD and FABRIK groups with limits (and their ``poles``, (N, 2) px with NaN rows, or
    None, and ``obstacles``, (k, 3) px or None); the Jacobian family's batches are :mod:`.dls_batch`'s.
    """
    if len(angles) <= SMALL_BATCH:
        row = partial(_row, solver, obs=None if obstacles is None or not len(obstacles) else obstacles.tolist())
        return run_rows(row, roots, angles, lengths, targets, iterations, tolerance, limits, poles=poles)
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
    none = np.full((len(a), 2), np.nan)
    kernel = k.ccd if solver == "ccd" else k.fabrik
    extra = (c(none if poles is None else poles, dtype=np.float64),
             c(np.zeros((0, 3)) if obstacles is None else obstacles, dtype=np.float64), STALL_SWEEPS, STALL_GAIN,
             ROUNDING)
    kernel(c(roots, dtype=np.float64), a, c(lengths, dtype=np.float64), c(targets, dtype=np.float64),
           c(iterations, dtype=np.int64), c(tolerance, dtype=np.float64), c(limits, dtype=np.float64), error, used,
           *extra)
    return a, error, used


def ccd_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None, poles=None, obstacles=None):
    """CCD sweeps for ``N`` chains of ``n`` bones: ``(angles (N, n) rad, error (N,) px, sweeps used (N,))``.

    Arguments as :func:`~.batch_api.solve_ccd_batch`'s, as float64 arrays: roots and targets (N, 2) px
    (y down), angles (N, n) rad, lengths (N, n) px, ``iterations`` (N,) int, ``tolerance`` (N,) px,
    ``limits`` (N, n, 2) rad or None, ``poles`` (N, 2) px (NaN rows: none) or None, ``obstacles`` (k, 3)
    circles ``(x, y, r)`` px for every chain, or None.
    """
    return _solve("ccd", ccd_arrays, roots, angles, lengths, targets, iterations, tolerance, limits, poles, obstacles)


def fabrik_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None, poles=None, obstacles=None):
    """FABRIK passes for ``N`` chains of ``n`` bones: parameters and returns as :func:`ccd_batch` (:mod:`.fabrik`)."""
    return _solve("fabrik", fabrik_arrays, roots, angles, lengths, targets, iterations, tolerance, limits, poles,
                  obstacles)


def _solve(solver, engine, roots, angles, lengths, targets, iterations, tolerance, limits, poles, obstacles=None):
    """A CCD or FABRIK batch: its rows, kernel or numpy ``engine``; two bones mirrored toward their poles after
    (not where the image puts a bone in a circle the start had it clear of)."""
    if obstacles is not None and not len(obstacles):
        obstacles = None
    if poles is not None and (angles.shape[1] < 3 or np.isnan(poles[:, 0]).all()):
        a, error, used = _solve(solver, engine, roots, angles, lengths, targets, iterations, tolerance, limits, None,
                                obstacles)
        image = mirrored_toward_batch(roots, a, lengths, targets, poles, limits)
        return (image if obstacles is None else clear_images(roots, angles, limits, a, image, lengths, obstacles),
                error, used)
    compiled = run_small(solver, roots, angles, lengths, targets, iterations, tolerance, limits, poles=poles,
                         obstacles=obstacles)
    if compiled is not None:
        return compiled
    return engine(roots, angles, lengths, targets, iterations, tolerance, limits, poles, obstacles)


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
