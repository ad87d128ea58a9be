"""The numba kernel of FABRIK (Aristidou & Lasenby 2011) behind :mod:`.jit`, with its circle obstacles (:mod:`.avoid`).

It runs the limited :func:`.fabrik.fabrik_loop` step for step on floats, its restarts, pole steps (:mod:`.reshape`)
and clear directions (:mod:`._jit_avoid`) compiled, one chain per parallel row; shapes and arguments as
:func:`._jit_kernels.ccd_rows`'. Pixels (y down), radians. Where no circle is near, a pass turns bones within their
limits on unit vectors (dot and cross products, the bounds' cosines and sines worked out once), not angles: one
arctangent a joint where the angle loop takes about eight trigonometric calls, the same answer to rounding.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ._jit_avoid import placed, pose_clear
from ._jit_kernels import (CHUNKS, _checkpoint, _limit, _limit_all, _limit_heading, _points, _pole_step, _pull,
                           _setup, _wrap)
from ._jit_pose import _pseudo
from .reshape import POLE_TURN
from .validate import FULL_CIRCLE

PI = math.pi


@numba.njit(cache=True, inline="always")
def _bounds(lim, out):
    """Each joint's limits as ``out`` (n, 6): cosine, sine and :func:`_pseudo` of ``lo``, then of ``hi``."""
    for i in range(len(lim)):
        for j in range(2):
            c, s = math.cos(lim[i, j]), math.sin(lim[i, j])
            out[i, 3 * j] = c
            out[i, 3 * j + 1] = s
            out[i, 3 * j + 2] = _pseudo(c, s)


@numba.njit(cache=True, inline="always")
def _forward(xs, ys, lengths, limits, bounds, tx, ty, ux, uy, obstacles, mask, guard):
    """:func:`.fabrik_arrays._forward` for one chain; bones ``guard`` (n,) turned clear of the circles (where
    they can be) as :func:`.fabrik.fabrik_loop` turns them. A bone that needs no circle kept clear is turned
    within its child's limits without trigonometry: the child's turn against it is read from the dot and cross
    products of their directions, and a bound's direction is the child's turned by ``bounds``' cosine and sine
    (the same answer, to rounding)."""
    n = len(lengths)
    x = tx
    y = ty
    xs[n] = x
    ys[n] = y
    for i in range(n - 1, -1, -1):
        dx = xs[i] - x
        dy = ys[i] - y
        px = x
        py = y
        limited = i + 1 < n and limits[i + 1, 1] - limits[i + 1, 0] < FULL_CIRCLE
        cdx = cdy = cl = 0.0
        if limited and not guard[i]:  # (the child's direction: only a limited, unguarded bone reads it)
            cdx = xs[i + 2] - x
            cdy = ys[i + 2] - y
            cl = math.hypot(cdx, cdy)
        if cl > 0.0:
            cx = cdx / cl
            cy = cdy / cl
            bl = math.hypot(dx, dy)
            if bl > 0.0:
                bx = -dx / bl
                by = -dy / bl
            else:
                bx = ux
                by = uy
            p = _pseudo(bx * cx + by * cy, bx * cy - by * cx)  # the child's turn against this bone
            j = 0 if p < bounds[i + 1, 2] else 3 if p > bounds[i + 1, 5] else -1
            if j >= 0:  # past a bound: this bone's direction is the child's turned back by it
                cb, sb = bounds[i + 1, j], bounds[i + 1, j + 1]
                bx = cx * cb + cy * sb
                by = cy * cb - cx * sb
            x = px - lengths[i] * bx
            y = py - lengths[i] * by
        elif limited:
            lo, hi = limits[i + 1, 0], limits[i + 1, 1]
            child = math.atan2(ys[i + 2] - y, xs[i + 2] - x)
            if dx != 0.0 or dy != 0.0:
                d = math.atan2(-dy, -dx)
            else:
                d = math.atan2(uy, ux)
            v = _limit(_wrap(child - d), lo, hi)
            d = child - v
            x = px - lengths[i] * math.cos(d)
            y = py - lengths[i] * math.sin(d)
            if guard[i]:
                x, y, _ = placed(px, py, x, y, lengths[i], i, obstacles, mask, child + PI, -1.0, v, lo, hi, True)
        else:
            x, y = _pull(x, y, dx, dy, lengths[i], -ux, -uy)
            if guard[i]:
                x, y, _ = placed(px, py, x, y, lengths[i], i, obstacles, mask, 0.0, 1.0, 0.0, -PI, PI, False)
        xs[i] = x
        ys[i] = y


@numba.njit(cache=True, inline="always")
def _backward(xs, ys, a, lengths, limits, bounds, rx, ry, obstacles, mask, guard):
    """:func:`.fabrik_arrays._backward` for one limited chain (``guard`` as :func:`_forward`'s); whether some
    guarded bone found no clear direction. A bone's direction is carried as a unit vector: its turn is one
    arctangent of the dot and cross products, and a bone its limits leave alone keeps the direction found, one
    at a bound the parent's turned by ``bounds``' cosine and sine."""
    x = rx
    y = ry
    xs[0] = x
    ys[0] = y
    parent = 0.0
    pcx = 1.0  # the parent bone's direction (cos, sin of parent)
    pcy = 0.0
    failed = False
    for i in range(len(lengths)):
        dx = xs[i + 1] - x
        dy = ys[i + 1] - y
        lo, hi = limits[i, 0], limits[i, 1]
        d = math.hypot(dx, dy)
        wx = wy = 0.0
        if d > 0.0:
            wx = dx / d
            wy = dy / d
            free = math.atan2(pcx * wy - pcy * wx, pcx * wx + pcy * wy)
        else:
            free = _wrap(a[i])
        if i == 0:
            rel = _limit_heading(free, lo, hi)
        else:
            rel = _limit(free, lo, hi)
        if guard[i]:
            bound = hi - lo < FULL_CIRCLE
            _, _, v = placed(x, y, x + lengths[i] * math.cos(parent + rel), y + lengths[i] * math.sin(parent + rel),
                             lengths[i], i, obstacles, mask, parent if bound else 0.0, 1.0, rel, lo, hi, bound)
            if v != v:
                failed = True
            elif v != rel:
                rel = v if bound else _wrap(v - parent)
        a[i] = rel
        parent += rel
        if rel == free and d > 0.0:  # as found
            pcx, pcy = wx, wy
        else:  # the parent's direction turned by rel (a bound's cosine and sine are at hand)
            if rel == lo:
                c, s = bounds[i, 0], bounds[i, 1]
            elif rel == hi:
                c, s = bounds[i, 3], bounds[i, 4]
            else:
                c, s = math.cos(rel), math.sin(rel)
            pcx, pcy = pcx * c - pcy * s, pcy * c + pcx * s
        x += lengths[i] * pcx
        y += lengths[i] * pcy
        xs[i + 1] = x
        ys[i + 1] = y
    return failed


@numba.njit(cache=True, parallel=True, nogil=True)
def fabrik_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, poles, obstacles,
                stall_sweeps, stall_gain, rounding):
    count, n = angles.shape
    chunks = min(count, CHUNKS)  # each a run of rows with its own scratch arrays, made once
    for c in numba.prange(chunks):
        xs = np.empty(n + 1)
        ys = np.empty(n + 1)
        best = np.empty(n)
        saved = np.empty(n)
        before_x = np.empty(n + 1)
        before_y = np.empty(n + 1)
        bounds = np.empty((n, 6))  # the limits' cosines and sines, worked out at the first pass (_bounds)
        mask = np.zeros((n, len(obstacles)), dtype=np.bool_)
        guard = np.empty(n, dtype=np.bool_)
        for k in range(c * count // chunks, (c + 1) * count // chunks):
            a = angles[k]
            lens = lengths[k]
            lim = limits[k]
            rx, ry, tx, ty = roots[k, 0], roots[k, 1], targets[k, 0], targets[k, 1]
            reach, within, restarts, pux, puy, h, guarded = _setup(a, lens, lim, rx, ry, tx, ty, poles[k], obstacles,
                                                                   mask, xs, ys)
            guard[:] = False
            for i in range(n):
                for j in range(len(obstacles)):
                    guard[i] = guard[i] or mask[i, j]
            _points(rx, ry, a, lens, xs, ys)
            dist = math.hypot(tx - rx, ty - ry)
            unreachable = not within
            ux, uy = ((tx - rx) / dist, (ty - ry) / dist) if dist > 0.0 else (1.0, 0.0)
            turns = POLE_TURN
            restarted = False
            state = 0
            best_error = math.inf  # the best pose a restart left (in best), and its error
            passes = 0
            gain = stall_gain * reach
            last = math.inf
            since, before_pass, last_gain = 0, math.inf, math.inf  # the hopeless rule's (:func:`.fabrik.fabrik_loop`)
            while True:
                if h != 0.0 and passes < iterations[k] and turns > 0.0 and not restarted:
                    if guarded:
                        saved[:] = a
                    turns -= _pole_step(a, lens, xs, ys, n, pux, puy, h, reach, turns)
                    _limit_all(a, lim)
                    _points(rx, ry, a, lens, xs, ys)
                    if guarded and not pose_clear(xs, ys, n, obstacles, mask):  # a step into a circle is not taken
                        a[:] = saved
                        _points(rx, ry, a, lens, xs, ys)
                restarted = False
                err = math.hypot(tx - xs[n], ty - ys[n])
                if err <= tolerance[k]:
                    break
                verdict, last, best_error, restarts, state = _checkpoint(
                    a, best, best_error, err, last, gain, passes, stall_sweeps, iterations[k], restarts, state, lens,
                    lim, rx, ry, tx, ty, guarded, obstacles, mask)
                if verdict == 1:
                    since, before_pass = 0, math.inf
                    restarted = True
                    _points(rx, ry, a, lens, xs, ys)
                    continue
                if verdict == 2:
                    break
                if passes > 0 and unreachable:
                    break
                if passes == iterations[k]:
                    break
                gained = before_pass - err
                if (since > 2 and gained <= last_gain + rounding * reach and h == 0.0
                        and err - tolerance[k] > gained * (iterations[k] - passes)
                        and not (restarts > 0 and (passes // stall_sweeps + 2) * stall_sweeps <= iterations[k])):
                    break
                before_pass, last_gain = err, gained
                since += 1
                if passes == 0:
                    _bounds(lim, bounds)
                passes += 1
                if guarded:  # (a pass that finds no clear way is not taken)
                    before_x[:] = xs
                    before_y[:] = ys
                    saved[:] = a
                if unreachable:  # laid straight toward the target
                    along = 0.0
                    for i in range(n):
                        along += lens[i]
                        xs[i + 1] = rx + ux * along
                        ys[i + 1] = ry + uy * along
                else:
                    _forward(xs, ys, lens, lim, bounds, tx, ty, ux, uy, obstacles, mask, guard)
                if _backward(xs, ys, a, lens, lim, bounds, rx, ry, obstacles, mask, guard):
                    xs[:] = before_x
                    ys[:] = before_y
                    a[:] = saved
            if best_error < math.hypot(tx - xs[n], ty - ys[n]) - rounding * reach:  # a restart left a better pose
                a[:] = best
                _points(rx, ry, a, lens, xs, ys)
            error[k] = math.hypot(tx - xs[n], ty - ys[n])
            used[k] = passes
