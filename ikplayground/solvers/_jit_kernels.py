"""The numba kernels behind :mod:`.jit`: CCD (pygame CCD tutorial) and FABRIK (Aristidou & Lasenby 2011).

Each runs :func:`.ccd.ccd_loop` or the limited :func:`.fabrik.fabrik_loop` step for step on floats, their
restarts and pole steps (:mod:`.reshape`, compiled) included, one chain per parallel row; shapes as
:func:`.batched.ccd_batch` (``poles`` (N, 2) px, NaN rows for none), ``angles`` solved in place, ``error``
and ``used`` filled, the stall constants passed in. Pixels (y down), radians.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numba
import numpy as np

from .fabrik import pull
from .reshape import (BEHIND, CRAWL_RATIO, POLE_TURN, RESTARTS, SPIN_LEVER, pole_frame, pole_step, restart_pose,
                      restart_seed, restartable)
from .validate import FULL_CIRCLE, TAU, wrap

PI = math.pi


@numba.njit(cache=True, inline="always")
def _stall_check(sweep, err, last, gain, stall_sweeps):
    """``(stalled, last)``: :class:`.results.IKSolution`'s stall rule on plain floats."""
    if sweep % stall_sweeps:
        return False, last
    if sweep > 0 and not err < last - gain:
        return True, last
    return False, err


_pull = numba.njit(cache=True, inline="always")(pull)  # the single-chain walks' own step, compiled
_wrap = numba.njit(cache=True, inline="always")(wrap)
# the restarts and the pole's step (:mod:`.reshape`), the single-chain loops' own, compiled
_restart_seed = numba.njit(cache=True)(restart_seed)
_restartable = numba.njit(cache=True)(restartable)
_restart_pose = numba.njit(cache=True)(restart_pose)
_pole_frame = numba.njit(cache=True)(pole_frame)
_pole_step = numba.njit(cache=True)(pole_step)


@numba.njit(cache=True, inline="always")
def _limit(v, lo, hi):
    """:func:`._batch_parts.limit_angles` for one angle."""
    if hi - lo >= FULL_CIRCLE:  # (kept inside a range a hair short of the circle)
        return min(max(_wrap(v), lo), hi)
    c = min(max(v, lo), hi)
    if c <= -PI and hi >= PI:
        return PI
    return c


@numba.njit(cache=True, inline="always")
def _limit_heading(v, lo, hi):
    """:func:`.validate.clamp_heading` for joint 0's angle: outside its range, the bound nearer round the circle."""
    if hi - lo >= FULL_CIRCLE or (lo <= v and v <= hi):
        return _limit(v, lo, hi)
    w = v if -PI < v <= PI else _wrap(v)
    if lo <= w and w <= hi:
        return w
    return lo if (lo - w) % TAU < (w - hi) % TAU else hi


@numba.njit(cache=True, inline="always")
def _limit_start(v, lo, hi, i):
    """:func:`._batch_parts.limit_pose` for joint ``i``'s starting angle."""
    if i == 0:
        return _limit_heading(v, lo, hi)
    if v == PI and lo <= -PI and hi - lo < FULL_CIRCLE:
        return lo
    return _limit(v, lo, hi)


@numba.njit(cache=True, inline="always")
def _points(rx, ry, a, lengths, xs, ys):
    """Forward kinematics of one chain into ``xs``, ``ys`` (n + 1 each), as :func:`.kinematics.chain_points`."""
    x, y, absolute = rx, ry, 0.0
    xs[0] = x
    ys[0] = y
    for i in range(len(a)):
        absolute += a[i]
        x += lengths[i] * math.cos(absolute)
        y += lengths[i] * math.sin(absolute)
        xs[i + 1] = x
        ys[i + 1] = y


@numba.njit(cache=True)
def _limit_all(a, lim):
    """:func:`.ccd.limit_pose` of one chain: joint 0 as a heading, the others into their ranges."""
    a[0] = _limit_heading(a[0], lim[0, 0], lim[0, 1])
    for i in range(1, len(a)):
        a[i] = _limit(a[i], lim[i, 0], lim[i, 1])


@numba.njit(cache=True)
def _setup(a, lens, lim, rx, ry, tx, ty, pole):
    """A row's start: ``a`` limited in place; ``(reach, within, restarts, ux, uy, h)`` (:func:`.ccd.ccd_loop`)."""
    n = len(a)
    reach = 0.0
    for i in range(n):
        a[i] = _limit_start(a[i], lim[i, 0], lim[i, 1], i)
        reach += lens[i]
    within = math.hypot(tx - rx, ty - ry) < reach
    restarts = RESTARTS if within and _restartable(lim) else 0
    ux, uy, h = 0.0, 0.0, 0.0
    if n > 2 and within and not math.isnan(pole[0]):
        ux, uy, h = _pole_frame(rx, ry, tx, ty, pole[0], pole[1], reach)
    return reach, within, restarts, ux, uy, h


@numba.njit(cache=True, parallel=True, nogil=True)
def ccd_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, poles, stall_sweeps,
             stall_gain, rounding):
    count, n = angles.shape
    for k in numba.prange(count):
        a = angles[k]
        lens = lengths[k]
        lim = limits[k]
        xs = np.empty(n + 1)
        ys = np.empty(n + 1)
        best = np.empty(n)
        rx, ry, tx, ty = roots[k, 0], roots[k, 1], targets[k, 0], targets[k, 1]
        reach, within, restarts, ux, uy, h = _setup(a, lens, lim, rx, ry, tx, ty, poles[k])
        spin = SPIN_LEVER * reach / n
        spin *= spin
        turns = POLE_TURN
        restarted = False
        state = 0
        best_error = math.inf
        sweeps = 0
        err = 0.0
        gain = stall_gain * reach
        last = math.inf
        while True:
            if h != 0.0 and sweeps < iterations[k] and turns > 0.0 and not restarted:
                _points(rx, ry, a, lens, xs, ys)
                turns -= _pole_step(a, lens, xs, ys, n, ux, uy, h, reach, turns)
                _limit_all(a, lim)
            restarted = False
            _points(rx, ry, a, lens, xs, ys)
            ex = xs[n]
            ey = ys[n]
            err = math.hypot(tx - ex, ty - ey)
            if err <= tolerance[k]:
                break
            if sweeps % stall_sweeps == 0:
                stuck = sweeps > 0 and not err < last - gain
                if (restarts > 0 and sweeps > 0 and sweeps + stall_sweeps <= iterations[k]
                        and (stuck or not err < CRAWL_RATIO * last)):
                    if err < best_error:
                        best[:] = a
                        best_error = err
                    if state == 0:
                        state = _restart_seed(lens)
                    state = _restart_pose(a, lens, lim, rx, ry, tx, ty, state)
                    a[0] = _limit_heading(a[0], lim[0, 0], lim[0, 1])
                    restarts -= 1
                    last = math.inf
                    restarted = True
                    continue
                if stuck:
                    break
                last = err
            if sweeps == iterations[k]:
                break
            sweeps += 1
            for i in range(n - 1, -1, -1):
                px = xs[i]
                py = ys[i]
                vx = ex - px
                vy = ey - py
                if h != 0.0 and vx * vx + vy * vy < spin:
                    continue
                delta = _wrap(math.atan2(ty - py, tx - px) - math.atan2(vy, vx))
                old = a[i]
                lo, hi = lim[i, 0], lim[i, 1]
                want = old + delta
                new = _limit(want, lo, hi)
                if abs(delta) > BEHIND and new != want and hi - lo < FULL_CIRCLE:  # the aim behind: the nearer way
                    other = _limit(want - TAU if delta > 0.0 else want + TAU, lo, hi)
                    if abs(_wrap(other - want)) < abs(_wrap(new - want)):
                        new = other
                a[i] = new
                applied = new - old
                c = math.cos(applied)
                s = math.sin(applied)
                ex = px + c * vx - s * vy
                ey = py + s * vx + c * vy
        if best_error < err - rounding * reach:  # a restart left a better pose
            a[:] = best
            err = best_error
        error[k] = err
        used[k] = sweeps


@numba.njit(cache=True, inline="always")
def _turn(x, y, dx, dy, cx, cy, length, ux, uy, lo, hi):
    """:func:`.fabrik_arrays._turn` for one joint, its range ``[lo, hi]``."""
    child = math.atan2(cy - y, cx - x)
    if dx != 0.0 or dy != 0.0:
        d = math.atan2(-dy, -dx)
    else:
        d = math.atan2(uy, ux)
    d = child - _limit(_wrap(child - d), lo, hi)
    return x - length * math.cos(d), y - length * math.sin(d)


@numba.njit(cache=True, inline="always")
def _forward(xs, ys, lengths, limits, tx, ty, ux, uy):
    """:func:`.fabrik_arrays._forward` for one chain."""
    n = len(lengths)
    x = tx
    y = ty
    xs[n] = x
    ys[n] = y
    for i in range(n - 1, -1, -1):
        dx = xs[i] - x
        dy = ys[i] - y
        if i + 1 < n and limits[i + 1, 1] - limits[i + 1, 0] < FULL_CIRCLE:
            x, y = _turn(x, y, dx, dy, xs[i + 2], ys[i + 2], lengths[i], ux, uy, limits[i + 1, 0], limits[i + 1, 1])
        else:
            x, y = _pull(x, y, dx, dy, lengths[i], -ux, -uy)
        xs[i] = x
        ys[i] = y


@numba.njit(cache=True, inline="always")
def _backward(xs, ys, a, lengths, limits, rx, ry):
    """:func:`.fabrik_arrays._backward` for one limited chain."""
    x = rx
    y = ry
    xs[0] = x
    ys[0] = y
    parent = 0.0
    for i in range(len(lengths)):
        dx = xs[i + 1] - x
        dy = ys[i + 1] - y
        if dx != 0.0 or dy != 0.0:
            want = math.atan2(dy, dx)
        else:
            want = parent + a[i]
        if i == 0:
            rel = _limit_heading(_wrap(want - parent), limits[i, 0], limits[i, 1])
        else:
            rel = _limit(_wrap(want - parent), limits[i, 0], limits[i, 1])
        a[i] = rel
        parent += rel
        x += lengths[i] * math.cos(parent)
        y += lengths[i] * math.sin(parent)
        xs[i + 1] = x
        ys[i + 1] = y


@numba.njit(cache=True, parallel=True, nogil=True)
def fabrik_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, poles, stall_sweeps,
                stall_gain, rounding):
    count, n = angles.shape
    for k in numba.prange(count):
        a = angles[k]
        lens = lengths[k]
        lim = limits[k]
        xs = np.empty(n + 1)
        ys = np.empty(n + 1)
        best = np.empty(n)
        rx, ry, tx, ty = roots[k, 0], roots[k, 1], targets[k, 0], targets[k, 1]
        reach, within, restarts, pux, puy, h = _setup(a, lens, lim, rx, ry, tx, ty, poles[k])
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
        while True:
            if h != 0.0 and passes < iterations[k] and turns > 0.0 and not restarted:
                turns -= _pole_step(a, lens, xs, ys, n, pux, puy, h, reach, turns)
                _limit_all(a, lim)
                _points(rx, ry, a, lens, xs, ys)
            restarted = False
            err = math.hypot(tx - xs[n], ty - ys[n])
            if err <= tolerance[k]:
                break
            if passes % stall_sweeps == 0:
                stuck = passes > 0 and not err < last - gain
                if (restarts > 0 and passes > 0 and passes + stall_sweeps <= iterations[k]
                        and (stuck or not err < CRAWL_RATIO * last)):
                    if err < best_error:
                        best[:] = a
                        best_error = err
                    if state == 0:
                        state = _restart_seed(lens)
                    state = _restart_pose(a, lens, lim, rx, ry, tx, ty, state)
                    a[0] = _limit_heading(a[0], lim[0, 0], lim[0, 1])
                    restarts -= 1
                    last = math.inf
                    restarted = True
                    _points(rx, ry, a, lens, xs, ys)
                    continue
                if stuck:
                    break
                last = err
            if passes > 0 and unreachable:
                break
            if passes == iterations[k]:
                break
            passes += 1
            if unreachable:  # laid straight toward the target
                along = 0.0
                for i in range(n):
                    along += lens[i]
                    xs[i + 1] = rx + ux * along
                    ys[i + 1] = ry + uy * along
            else:
                _forward(xs, ys, lens, lim, tx, ty, ux, uy)
            _backward(xs, ys, a, lens, lim, rx, ry)
        if best_error < math.hypot(tx - xs[n], ty - ys[n]) - rounding * reach:  # a restart left a better pose
            a[:] = best
            _points(rx, ry, a, lens, xs, ys)
        error[k] = math.hypot(tx - xs[n], ty - ys[n])
        used[k] = passes


def build() -> SimpleNamespace:
    """The kernels, as ``ccd``, ``fabrik``, ``dls`` (:mod:`._jit_dls`), ``settle``, ``tip_error`` and ``snake``."""
    from ._jit_dls import dls_rows
    from ._jit_pose import settle_rows, snake_rows, tip_error_rows

    return SimpleNamespace(ccd=ccd_rows, fabrik=fabrik_rows, dls=dls_rows, settle=settle_rows,
                           tip_error=tip_error_rows, snake=snake_rows)
