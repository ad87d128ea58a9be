"""The numba kernel behind :mod:`.jit` for the Jacobian family (Buss 2004, Buss & Kim 2005; DLS after Wampler 1986).

:func:`dls_rows` runs :func:`.jacobian_loop.jacobian_iterations` step for step on floats, one chain per parallel
row, its arithmetic :mod:`.jacobian_steps`' and :mod:`.dls`' own functions, compiled. Shapes as
:func:`.dls_batch.jacobian_batch`: roots and targets (N, 2) px (y down), angles (N, n) rad (solved in place),
lengths (N, n) px, limits (N, n, 2) rad (full circles for free joints), damping and rest_weight (N,), rest (N, n)
rad (read only with ``has_rest``), poles (N, 2) px (NaN rows: none; stepped toward by :mod:`._jit_kernels`'
compiled :func:`.reshape.pole_step`); ``error`` (N,) px and ``used`` (N,) filled,
the stall and rounding constants passed in.
"""

from __future__ import annotations

import math
import types

import numba
import numpy as np

from . import jacobian_steps as steps
from ._jit_kernels import (_limit_all, _limit_heading, _limit_start, _points, _pole_frame, _pole_step, _restart_pose,
                           _restart_seed, _restartable)
from .dls import AT_BOUND, KICKS, MAX_STEP, MU_GROW, MU_MAX, MU_SHRINK, NULL_STEP, distance, dls_turns, turned
from .jacobian_loop import SETTLE
from .jacobian_steps import DLS
from .reshape import CRAWL_RATIO, POLE_TURN, RESTARTS
from .validate import FULL_CIRCLE

PI = math.pi
_jit = numba.njit(cache=True, inline="always", error_model="numpy")
# the other methods' turns and the null-space projection are called, not inlined: inlined into the parallel loop
# they doubled its compile (86 s against 42 s on the first run) for no speed the DLS rows show
_big = numba.njit(cache=True, error_model="numpy")


def _compiled(fn, jit=_jit, **calls):
    """``fn`` compiled by ``jit``, its calls of ``calls``' names bound to those (compiled) functions: numba calls
    only compiled functions, and its cache would not see a change in an imported one."""
    return jit(types.FunctionType(fn.__code__, {**fn.__globals__, **calls}, fn.__name__))


_distance = _jit(distance)  # the single call's own helpers, compiled
_dls_turns = _jit(dls_turns)
_turned = _jit(turned)
_eigen = _jit(steps.eigen)
_inverse_times = _compiled(steps.inverse_times, eigen=_eigen)
_capped = _jit(steps.capped)
_sdls_turns = _compiled(steps.sdls_turns, jit=_big, eigen=_eigen, capped=_capped)
_transpose_turns = _compiled(steps.transpose_turns, jit=_big, capped=_capped)
_method_turns = _compiled(steps.method_turns, dls_turns=_dls_turns, inverse_times=_inverse_times,
                          sdls_turns=_sdls_turns, transpose_turns=_transpose_turns, capped=_capped)
_projected = _compiled(steps.projected, jit=_big, inverse_times=_inverse_times)
_rest_pull = _jit(steps.rest_pull)


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
             stall_gain, rounding, method, has_rest, rest, rest_weight, poles):
    count, n = angles.shape
    for k in numba.prange(count):
        lens = lengths[k]
        lim = limits[k]
        lo = lim[:, 0]
        hi = lim[:, 1]
        rx, ry, tx, ty = roots[k, 0], roots[k, 1], targets[k, 0], targets[k, 1]
        extra = has_rest
        work = np.empty(11 * n + 4)  # one allocation a row: the poses, joints, Jacobian, step and null term below
        a, b, jx, jy, d = work[:n], work[n:2 * n], work[2 * n:3 * n], work[3 * n:4 * n], work[4 * n:5 * n]
        xs, ys = work[5 * n:6 * n + 1], work[6 * n + 1:7 * n + 2]
        bx, by = work[7 * n + 2:8 * n + 3], work[8 * n + 3:9 * n + 4]
        z, best = work[9 * n + 4:10 * n + 4], work[10 * n + 4:]
        clamped = np.empty(n, dtype=np.bool_)
        reach = 0.0
        limited = False
        for i in range(n):
            a[i] = _start(angles[k, i], lo[i], hi[i], i)
            reach += lens[i]
            clamped[i] = hi[i] - lo[i] < FULL_CIRCLE
            limited = limited or clamped[i]
        apart = _distance(tx - rx, ty - ry)
        reachable = apart < reach
        _points(rx, ry, a, lens, xs, ys)
        err = _distance(tx - xs[n], ty - ys[n])
        gain = stall_gain * reach
        tie = 0.0 if method == DLS else rounding * reach  # (the single call's: a gain within rounding is none)
        last = math.inf
        steps = 0
        mu = 1.0
        restarts = -1  # restarts left (worked out at the first checkpoint that could take one)
        state = 0
        best_err = math.inf
        settled = False
        pux, puy, h = 0.0, 0.0, 0.0  # the pole's arch (reshape.pole_frame)
        if n > 2 and reachable and not math.isnan(poles[k, 0]):
            pux, puy, h = _pole_frame(rx, ry, tx, ty, poles[k, 0], poles[k, 1], reach)
        turns = POLE_TURN
        restarted = False
        while True:
            if h != 0.0 and steps < iterations[k] and turns > 0.0 and not restarted:  # the pole's step
                turns -= _pole_step(a, lens, xs, ys, n, pux, puy, h, reach, turns)
                _limit_all(a, lim)
                _points(rx, ry, a, lens, xs, ys)
                err = _distance(tx - xs[n], ty - ys[n])
            restarted = False
            on = err <= tolerance[k]
            if on and (not extra or settled):
                break
            if not on and not steps % stall_sweeps:  # the stall rule and the restarts (the single call's)
                stuck = steps > 0 and not err < last - gain
                if steps > 0 and steps + stall_sweeps <= iterations[k] and (stuck or not err < CRAWL_RATIO * last):
                    if restarts < 0:
                        restarts = RESTARTS if limited and reachable and _restartable(lim) else 0
                    if restarts > 0:
                        if err < best_err:
                            best[:] = a
                            best_err = err
                        state = _restart_pose(a, lens, lim, rx, ry, tx, ty, state if state else _restart_seed(lens))
                        a[0] = _limit_heading(a[0], lo[0], hi[0])
                        restarts -= 1
                        _points(rx, ry, a, lens, xs, ys)
                        err = _distance(tx - xs[n], ty - ys[n])
                        mu = 1.0
                        last = math.inf
                        restarted = True
                        continue
                if stuck:
                    break
                last = err
            if steps == iterations[k]:
                break
            steps += 1
            ex = xs[n]
            ey = ys[n]
            scale = err if err > reach else reach  # every entry below 1 in size: nothing overflows
            ux = (tx - ex) / scale
            uy = (ty - ey) / scale
            lam = damping[k] * mu * err / scale
            shrink = 1.0 / mu
            sxx = syy = sxy = 0.0
            for i in range(n):
                p = -(ey - ys[i]) / scale
                q = (ex - xs[i]) / scale
                jx[i] = p
                jy[i] = q
                sxx += p * p
                syy += q * q
                sxy += p * q
            lam2 = lam * lam
            largest = _method_turns(method, jx, jy, sxx, syy, sxy, ux, uy, lam2, shrink, d)
            if limited:
                pushed = False
                for i in range(n):
                    if clamped[i] and ((a[i] >= hi[i] - AT_BOUND and d[i] > 0.0) or (a[i] <= lo[i] + AT_BOUND
                                                                                     and d[i] < 0.0)):
                        jx[i] = 0.0
                        jy[i] = 0.0
                        pushed = True
                if pushed:
                    sxx = syy = sxy = 0.0
                    for i in range(n):
                        sxx += jx[i] * jx[i]
                        syy += jy[i] * jy[i]
                        sxy += jx[i] * jy[i]
                    largest = _method_turns(method, jx, jy, sxx, syy, sxy, ux, uy, lam2, shrink, d)
            if extra:
                turn = _null_term(a, rest[k], rest_weight[k], lo, hi, clamped, jx, jy, z) * shrink
                top = 0.0
                for i in range(n):
                    v = d[i] + z[i] * shrink
                    d[i] = v
                    if abs(v) > top:
                        top = abs(v)
                _capped(d, top)
                if on:
                    settled = turn < SETTLE
            for i in range(n):
                b[i] = _turned(a[i] + d[i], lo[i], hi[i], clamped[i])
            _points(rx, ry, b, lens, bx, by)
            trial = _distance(tx - bx[n], ty - by[n])
            null = largest < NULL_STEP
            better = (trial <= tolerance[k] if on else trial < err - tie) or (null and trial <= err + rounding * reach)
            if better:
                mu = mu * MU_SHRINK
                if mu < 1.0:
                    mu = 1.0
            else:
                mu = mu * MU_GROW
                if mu > MU_MAX:
                    mu = MU_MAX
            if null and not on and reachable:  # an escape kicks from the pose before the step; what it finds wins
                kicked, kick_error = _kicked(rx, ry, a, lens, tx, ty, lim, clamped, err, rounding * reach, b, bx, by)
                if kicked:  # (b, bx, by hold the kicked pose; untouched otherwise)
                    better = True
                    trial = kick_error
            if better:
                a, b = b, a
                xs, bx = bx, xs
                ys, by = by, ys
                err = trial
        if best_err < err - rounding * reach:
            a[:] = best
            err = best_err
        angles[k, :] = a
        error[k] = err
        used[k] = steps


@_jit
def _null_term(a, rest, rest_weight, lo, hi, clamped, jx, jy, z):
    """:func:`.jacobian_loop.null_term` into ``z``; returns its largest turn."""
    _rest_pull(a, rest, rest_weight, lo, hi, z)
    for i in range(len(z)):
        if (jx[i] == 0.0 and jy[i] == 0.0) or (clamped[i] and ((a[i] >= hi[i] - AT_BOUND and z[i] > 0.0)
                                                               or (a[i] <= lo[i] + AT_BOUND and z[i] < 0.0))):
            z[i] = 0.0
            jx[i] = 0.0
            jy[i] = 0.0
    return _projected(jx, jy, z)
