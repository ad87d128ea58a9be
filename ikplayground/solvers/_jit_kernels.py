"""The numba kernels behind :mod:`.jit` (imported only when numba is there).

Each kernel loops over chains (in parallel: chains are independent) and runs the single-chain algorithm on floats,
step for step as :func:`.ccd.ccd_sweeps` and :func:`.fabrik.fabrik_passes`
(limited form) and :func:`._batch_parts.limit_angles` do. Shapes and units as in
:func:`.batched.ccd_batch`; ``angles`` is limited and solved in place, and
``error`` / ``used`` are filled. ``stall_sweeps`` and ``stall_gain`` are
:data:`.results.STALL_SWEEPS` and :data:`.results.STALL_GAIN` (the stall rule
of :class:`.results.IKSolution`), passed in so the compiled code never keeps
a stale copy.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numba
import numpy as np

from ._validate import FULL_CIRCLE, TAU

PI = math.pi


@numba.njit(cache=True, inline="always")
def _stall_check(sweep, err, last, gain, stall_sweeps):
    """``(stalled, last)``: :class:`.results.StallWatch`'s rule on plain floats."""
    if sweep % stall_sweeps:
        return False, last
    if sweep > 0 and not err < last - gain:
        return True, last
    return False, err


@numba.njit(cache=True, inline="always")
def _wrap(a):
    w = (a + PI) % TAU - PI
    return PI if w <= -PI else w


@numba.njit(cache=True, inline="always")
def _limit(v, lo, hi):
    """:func:`._batch_parts.limit_angles` for one angle."""
    if hi - lo >= FULL_CIRCLE:  # (kept inside a range a hair short of the circle)
        return min(max(_wrap(v), lo), hi)
    c = min(max(v, lo), hi)
    if c <= -PI and hi >= PI:
        return PI
    return c


@numba.njit(cache=True, parallel=True)
def ccd_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, stall_sweeps, stall_gain):
    count, n = angles.shape
    for k in numba.prange(count):
        xs = np.empty(n)
        ys = np.empty(n)
        for i in range(n):
            angles[k, i] = _limit(angles[k, i], limits[k, i, 0], limits[k, i, 1])
        rx = roots[k, 0]
        ry = roots[k, 1]
        tx = targets[k, 0]
        ty = targets[k, 1]
        sweeps = 0
        err = 0.0
        gain = 0.0
        for i in range(n):
            gain += lengths[k, i]
        gain *= stall_gain
        last = math.inf
        for sweep in range(iterations[k] + 1):
            x = rx
            y = ry
            absolute = 0.0
            for i in range(n):
                xs[i] = x
                ys[i] = y
                absolute += angles[k, i]
                x += lengths[k, i] * math.cos(absolute)
                y += lengths[k, i] * math.sin(absolute)
            ex = x
            ey = y
            err = math.hypot(tx - ex, ty - ey)
            if err <= tolerance[k]:
                break
            stalled, last = _stall_check(sweep, err, last, gain, stall_sweeps)
            if stalled:
                break
            if sweep == iterations[k]:
                break
            sweeps += 1
            for i in range(n - 1, -1, -1):
                px = xs[i]
                py = ys[i]
                vx = ex - px
                vy = ey - py
                delta = _wrap(math.atan2(ty - py, tx - px) - math.atan2(vy, vx))
                old = angles[k, i]
                new = _limit(old + delta, limits[k, i, 0], limits[k, i, 1])
                angles[k, i] = new
                applied = new - old
                c = math.cos(applied)
                s = math.sin(applied)
                ex = px + c * vx - s * vy
                ey = py + s * vx + c * vy
        error[k] = err
        used[k] = sweeps


@numba.njit(cache=True, parallel=True)
def fabrik_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, stall_sweeps,
                stall_gain):
    count, n = angles.shape
    for k in numba.prange(count):
        xs = np.empty(n + 1)
        ys = np.empty(n + 1)
        rx = roots[k, 0]
        ry = roots[k, 1]
        tx = targets[k, 0]
        ty = targets[k, 1]
        x = rx
        y = ry
        absolute = 0.0
        reach = 0.0
        xs[0] = x
        ys[0] = y
        for i in range(n):
            angles[k, i] = _limit(angles[k, i], limits[k, i, 0], limits[k, i, 1])
            absolute += angles[k, i]
            x += lengths[k, i] * math.cos(absolute)
            y += lengths[k, i] * math.sin(absolute)
            xs[i + 1] = x
            ys[i + 1] = y
            reach += lengths[k, i]
        dist = math.hypot(tx - rx, ty - ry)
        unreachable = dist >= reach
        if dist > 0.0:
            ux = (tx - rx) / dist
            uy = (ty - ry) / dist
        else:
            ux = 1.0
            uy = 0.0
        passes = 0
        gain = stall_gain * reach
        last = math.inf
        for sweep in range(iterations[k]):
            err = math.hypot(tx - xs[n], ty - ys[n])
            if err <= tolerance[k]:
                break
            stalled, last = _stall_check(sweep, err, last, gain, stall_sweeps)
            if stalled:
                break
            if sweep > 0 and unreachable:
                break
            passes += 1
            if unreachable:
                along = 0.0
                for i in range(n):
                    along += lengths[k, i]
                    xs[i + 1] = rx + ux * along
                    ys[i + 1] = ry + uy * along
            else:
                x = tx
                y = ty
                xs[n] = x
                ys[n] = y
                for i in range(n - 1, -1, -1):
                    dx = xs[i] - x
                    dy = ys[i] - y
                    d = math.hypot(dx, dy)
                    if d > 0.0:
                        f = lengths[k, i] / d
                        if f == math.inf:  # d tiny against the bone: scale the other way round
                            f = lengths[k, i]
                            dx /= d
                            dy /= d
                        x += dx * f
                        y += dy * f
                    else:
                        x -= ux * lengths[k, i]
                        y -= uy * lengths[k, i]
                    xs[i] = x
                    ys[i] = y
            x = rx
            y = ry
            xs[0] = x
            ys[0] = y
            parent = 0.0
            for i in range(n):
                dx = xs[i + 1] - x
                dy = ys[i + 1] - y
                if dx != 0.0 or dy != 0.0:
                    want = math.atan2(dy, dx)
                else:
                    want = parent + angles[k, i]
                rel = _limit(_wrap(want - parent), limits[k, i, 0], limits[k, i, 1])
                angles[k, i] = rel
                parent += rel
                x += lengths[k, i] * math.cos(parent)
                y += lengths[k, i] * math.sin(parent)
                xs[i + 1] = x
                ys[i + 1] = y
        error[k] = math.hypot(tx - xs[n], ty - ys[n])
        used[k] = passes


def build() -> SimpleNamespace:
    """The kernels, as ``ccd`` and ``fabrik``."""
    return SimpleNamespace(ccd=ccd_rows, fabrik=fabrik_rows)
