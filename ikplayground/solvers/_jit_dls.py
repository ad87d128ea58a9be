"""The numba kernel behind :mod:`.jit` for damped least squares (Wampler 1986, Buss 2004; :mod:`.dls`).

:func:`dls_rows` runs :func:`.dls.dls_iterations` step for step on floats, one chain per parallel row,
its arithmetic :func:`.dls.dls_step`, :func:`.dls.turned` and :func:`.dls.distance` themselves, compiled.
Shapes as :func:`.dls_batch.dls_batch`: roots and targets (N, 2) px (y down), angles (N, n) rad (solved in
place), lengths (N, n) px, limits (N, n, 2) rad (full circles for free joints), damping (N,); ``error`` (N,)
px and ``used`` (N,) filled, the stall and rounding constants passed in.
"""

from __future__ import annotations

import math
import types

import numba
import numpy as np

from ._jit_kernels import _limit_start, _points, _stall_check
from .dls import (AT_BOUND, KICKS, MAX_STEP, MU_GROW, MU_MAX, MU_SHRINK, NULL_STEP, distance, dls_step, dls_turns,
                  turned)
from .validate import FULL_CIRCLE

PI = math.pi
_jit = numba.njit(cache=True, inline="always", error_model="numpy")
_distance = _jit(distance)  # the single call's own helpers, compiled
_dls_turns = _jit(dls_turns)
# dls_step as written, its call of dls_turns bound to the compiled one (numba calls only compiled functions)
_dls_step = _jit(types.FunctionType(dls_step.__code__, {**dls_step.__globals__, "dls_turns": _dls_turns},
                                    dls_step.__name__))
_turned = _jit(turned)


@_jit
def _start(v, lo, hi, i):
    """Joint ``i``'s starting angle as the single call clamps it (:func:`.results.chain_problem`): one inside
    (-pi, pi] and ``[lo, hi]`` as given (wrapping would round it), else as :func:`._jit_kernels._limit_start`."""
    if -PI < v <= PI and lo <= v <= hi:
        return v
    return _limit_start(v, lo, hi, i)


@numba.njit(cache=True, error_model="numpy")
def _kicked(rx, ry, a, lens, tx, ty, lim, clamped, error, tiny, out, xs, ys):
    """:func:`.dls.escape` over :func:`.dls.kicks` for one chain: ``(found, error px)``.

    The pose found goes into ``out`` (rad), ``xs`` and ``ys`` (px), which are untouched when none is.

    The kicks in the single call's order (each size; each joint alone, then each neighbour pair folded;
    ``+`` before ``-``); a pose that a bound leaves unchanged is no trial.
    """
    n = len(a)
    b = np.empty(n)
    bx = np.empty(n + 1)
    by = np.empty(n + 1)
    for size in KICKS:
        fold = min(size, MAX_STEP / 2)
        for m in range(2 * n - 1):
            found = False
            best = 0.0
            for sign in (1.0, -1.0):
                b[:] = a
                i = m if m < n else m - n
                b[i] = _turned(a[i] + sign * (size if m < n else fold), lim[i, 0], lim[i, 1], clamped[i])
                if m >= n:
                    b[i + 1] = _turned(a[i + 1] + sign * (-2.0 * fold), lim[i + 1, 0], lim[i + 1, 1], clamped[i + 1])
                same = True
                for j in range(n):
                    if b[j] != a[j]:
                        same = False
                if same:
                    continue
                _points(rx, ry, b, lens, bx, by)
                trial = _distance(tx - bx[n], ty - by[n])
                if trial < error - tiny and (not found or trial < best - tiny):
                    out[:] = b
                    xs[:] = bx
                    ys[:] = by
                    best = trial
                    found = True
            if found:
                return True, best
    return False, 0.0


@numba.njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def dls_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, damping, stall_sweeps,
             stall_gain, rounding):
    count, n = angles.shape
    for k in numba.prange(count):
        lens = lengths[k]
        lim = limits[k]
        rx, ry, tx, ty = roots[k, 0], roots[k, 1], targets[k, 0], targets[k, 1]
        work = np.empty(9 * n + 4)  # one allocation a row: the poses, joints, Jacobian and step below
        a, b, jx, jy, d = work[:n], work[n:2 * n], work[2 * n:3 * n], work[3 * n:4 * n], work[4 * n:5 * n]
        xs, ys = work[5 * n:6 * n + 1], work[6 * n + 1:7 * n + 2]
        bx, by = work[7 * n + 2:8 * n + 3], work[8 * n + 3:]
        clamped = np.empty(n, dtype=np.bool_)
        reach = 0.0
        limited = False
        for i in range(n):
            a[i] = _start(angles[k, i], lim[i, 0], lim[i, 1], i)
            reach += lens[i]
            clamped[i] = lim[i, 1] - lim[i, 0] < FULL_CIRCLE
            limited = limited or clamped[i]
        reachable = _distance(tx - rx, ty - ry) < reach
        _points(rx, ry, a, lens, xs, ys)
        err = _distance(tx - xs[n], ty - ys[n])
        gain = stall_gain * reach
        last = math.inf
        steps = 0
        mu = 1.0
        while True:
            if err <= tolerance[k]:
                break
            stalled, last = _stall_check(steps, err, last, gain, stall_sweeps)
            if stalled or steps == iterations[k]:
                break
            steps += 1
            ex = xs[n]
            ey = ys[n]
            scale = err if err > reach else reach  # every entry below 1 in size: nothing overflows
            ux = (tx - ex) / scale
            uy = (ty - ey) / scale
            lam = damping[k] * mu * err / scale
            for i in range(n):
                jx[i] = -(ey - ys[i]) / scale
                jy[i] = (ex - xs[i]) / scale
            lam2 = lam * lam
            largest = _dls_step(jx, jy, ux, uy, lam2, d)
            if limited:
                pushed = False
                for i in range(n):
                    if clamped[i] and ((a[i] >= lim[i, 1] - AT_BOUND and d[i] > 0.0)
                                       or (a[i] <= lim[i, 0] + AT_BOUND and d[i] < 0.0)):
                        jx[i] = 0.0
                        jy[i] = 0.0
                        pushed = True
                if pushed:
                    largest = _dls_step(jx, jy, ux, uy, lam2, d)
            for i in range(n):
                b[i] = _turned(a[i] + d[i], lim[i, 0], lim[i, 1], clamped[i])
            _points(rx, ry, b, lens, bx, by)
            trial = _distance(tx - bx[n], ty - by[n])
            null = largest < NULL_STEP
            better = trial < err or (null and trial <= err + rounding * reach)
            if better:
                mu = mu * MU_SHRINK
                if mu < 1.0:
                    mu = 1.0
            else:
                mu = mu * MU_GROW
                if mu > MU_MAX:
                    mu = MU_MAX
            if null and reachable:  # an escape kicks from the pose before the step; what it finds replaces the step's
                kicked, kick_error = _kicked(rx, ry, a, lens, tx, ty, lim, clamped, err, rounding * reach, b, bx, by)
                if kicked:  # (b, bx, by hold the kicked pose; untouched otherwise)
                    better = True
                    trial = kick_error
            if better:
                a, b = b, a
                xs, bx = bx, xs
                ys, by = by, ys
                err = trial
        angles[k, :] = a
        error[k] = err
        used[k] = steps
