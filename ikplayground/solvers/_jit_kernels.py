"""The numba kernels behind :mod:`.jit`: CCD (pygame CCD tutorial), and the pieces FABRIK's (:mod:`._jit_fabrik`,
Aristidou & Lasenby 2011) shares.

Each runs :func:`.ccd.ccd_loop` or the limited :func:`.fabrik.fabrik_loop` step for step on floats, their
restarts, pole steps (:mod:`.reshape`, compiled) and circle obstacles (:mod:`._jit_avoid`) included, one chain
per parallel row; shapes as :func:`.batched.ccd_batch` (``poles`` (N, 2) px, NaN rows for none; ``obstacles``
(k, 3) px, k = 0 for none), ``angles`` solved in place, ``error`` and ``used`` filled, the stall constants passed
in. Pixels (y down), radians.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numba
import numpy as np

from ._jit_avoid import clear_restart, nearer_turn, pose_clear, turn_joints, turn_room, watched_pairs
from .fabrik import pull
from .reshape import (BEHIND, CRAWL_RATIO, POLE_TURN, RESTARTS, SPIN_LEVER, pole_frame, pole_step, restart_pose,
                      restart_seed, restartable)
from .validate import FULL_CIRCLE, TAU, wrap

PI = math.pi
CHUNKS = 64  # rows a parallel kernel splits its rows into (scratch arrays are made once a run, not once a row)


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


@numba.njit(cache=True, inline="always")
def _turns(a, ca, sa):
    """Each joint's cosine and sine of ``a`` into ``ca``, ``sa``."""
    for i in range(len(a)):
        ca[i] = math.cos(a[i])
        sa[i] = math.sin(a[i])


@numba.njit(cache=True, inline="always")
def _points_turned(rx, ry, ca, sa, lengths, xs, ys):
    """:func:`_points` from each joint's cosine and sine (``ca``, ``sa``): bone directions by products, no
    trigonometry."""
    x, y, c, s = rx, ry, 1.0, 0.0
    xs[0] = x
    ys[0] = y
    for i in range(len(ca)):
        c, s = c * ca[i] - s * sa[i], s * ca[i] + c * sa[i]
        x += lengths[i] * c
        y += lengths[i] * s
        xs[i + 1] = x
        ys[i + 1] = y


@numba.njit(cache=True)
def _limit_all(a, lim):
    """:func:`.ccd.limit_pose` of one chain: joint 0 as a heading, the others into their ranges."""
    a[0] = _limit_heading(a[0], lim[0, 0], lim[0, 1])
    for i in range(1, len(a)):
        a[i] = _limit(a[i], lim[i, 0], lim[i, 1])


@numba.njit(cache=True)
def _setup(a, lens, lim, rx, ry, tx, ty, pole, obstacles, mask, xs, ys):
    """A row's start: ``a`` limited in place, ``mask`` (n, k) its pairs (bone, circle) kept clear (:mod:`.avoid`);
    ``(reach, within, restarts, ux, uy, h, guarded)`` (:func:`.ccd.ccd_loop`)."""
    n = len(a)
    reach = 0.0
    for i in range(n):
        a[i] = _limit_start(a[i], lim[i, 0], lim[i, 1], i)
        reach += lens[i]
    within = math.hypot(tx - rx, ty - ry) < reach
    guarded = False
    if len(obstacles):
        _points(rx, ry, a, lens, xs, ys)
        guarded = watched_pairs(xs, ys, n, obstacles, reach, mask) > 0
    restarts = RESTARTS if within and (guarded or _restartable(lim)) else 0
    ux, uy, h = 0.0, 0.0, 0.0
    if n > 2 and within and not math.isnan(pole[0]):
        ux, uy, h = _pole_frame(rx, ry, tx, ty, pole[0], pole[1], reach)
    return reach, within, restarts, ux, uy, h, guarded


@numba.njit(cache=True)
def _pole(a, lens, lim, rx, ry, xs, ys, ux, uy, h, reach, turns, guarded, obstacles, mask, saved):
    """The pole's step (in place on ``a``; not taken where it breaks a watched pair); what it turned (rad)."""
    n = len(a)
    _points(rx, ry, a, lens, xs, ys)
    if guarded:
        saved[:] = a
    turned = _pole_step(a, lens, xs, ys, n, ux, uy, h, reach, turns)
    _limit_all(a, lim)
    if guarded:
        _points(rx, ry, a, lens, xs, ys)
        if not pose_clear(xs, ys, n, obstacles, mask):
            a[:] = saved
    return turned


@numba.njit(cache=True)
def _restart(a, lens, lim, rx, ry, tx, ty, state, guarded, obstacles, mask):
    """A restart into ``a`` (:func:`.avoid.clear_restart` with circles to keep clear of): ``(state, taken)``."""
    if state == 0:
        state = _restart_seed(lens)
    if guarded:
        return clear_restart(a, lens, lim, rx, ry, tx, ty, state, obstacles, mask, True)
    state = _restart_pose(a, lens, lim, rx, ry, tx, ty, state)
    a[0] = _limit_heading(a[0], lim[0, 0], lim[0, 1])
    return state, True


@numba.njit(cache=True, inline="always")
def _checkpoint(a, best, best_error, err, last, gain, done, stall_sweeps, iterations, restarts, state, lens, lim,
                rx, ry, tx, ty, guarded, obstacles, mask):
    """The stall rule and the restarts (:func:`.ccd.ccd_loop`, :func:`.fabrik.fabrik_loop`) after ``done`` sweeps
    or passes, at error ``err``: ``(verdict, last, best_error, restarts, state)``, the verdict 0 to go on, 1 for a
    restart taken (``a`` its new start; ``best`` the best pose before it), 2 to stop."""
    if done % stall_sweeps:
        return 0, last, best_error, restarts, state
    stuck = done > 0 and not err < last - gain
    if restarts > 0 and done > 0 and done + stall_sweeps <= iterations and (stuck or not err < CRAWL_RATIO * last):
        if err < best_error:
            best[:] = a
            best_error = err
        state, taken = _restart(a, lens, lim, rx, ry, tx, ty, state, guarded, obstacles, mask)
        restarts -= 1
        if taken:
            return 1, math.inf, best_error, restarts, state
    return (2 if stuck else 0), (last if stuck else err), best_error, restarts, state


@numba.njit(cache=True, parallel=True, nogil=True)
def ccd_rows(roots, angles, lengths, targets, iterations, tolerance, limits, error, used, poles, obstacles,
             stall_sweeps, stall_gain, rounding):
    count, n = angles.shape
    chunks = min(count, CHUNKS)  # each a run of rows with its own scratch arrays, made once
    for c in numba.prange(chunks):
        xs = np.empty(n + 1)
        ys = np.empty(n + 1)
        best = np.empty(n)
        saved = np.empty(n)
        ca = np.empty(n)  # each joint's cosine and sine, kept with a through the sweeps (stale: worked out again)
        sa = np.empty(n)
        mask = np.zeros((n, len(obstacles)), dtype=np.bool_)
        for k in range(c * count // chunks, (c + 1) * count // chunks):
            a = angles[k]
            lens = lengths[k]
            lim = limits[k]
            rx, ry, tx, ty = roots[k, 0], roots[k, 1], targets[k, 0], targets[k, 1]
            reach, within, restarts, ux, uy, h, guarded = _setup(a, lens, lim, rx, ry, tx, ty, poles[k], obstacles,
                                                                 mask, xs, ys)
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
            stale = True
            while True:
                if h != 0.0 and sweeps < iterations[k] and turns > 0.0 and not restarted:
                    turns -= _pole(a, lens, lim, rx, ry, xs, ys, ux, uy, h, reach, turns, guarded, obstacles, mask,
                                   saved)
                    stale = True
                restarted = False
                if stale:
                    _turns(a, ca, sa)
                    stale = False
                _points_turned(rx, ry, ca, sa, lens, xs, ys)
                ex = xs[n]
                ey = ys[n]
                err = math.hypot(tx - ex, ty - ey)
                if err <= tolerance[k]:
                    break
                verdict, last, best_error, restarts, state = _checkpoint(
                    a, best, best_error, err, last, gain, sweeps, stall_sweeps, iterations[k], restarts, state, lens,
                    lim, rx, ry, tx, ty, guarded, obstacles, mask)
                if verdict == 1:
                    restarted = stale = True
                    continue
                if verdict == 2:
                    break
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
                    wx = tx - px
                    wy = ty - py
                    dot = vx * wx + vy * wy
                    cross = vx * wy - vy * wx
                    if (vx == 0.0 and vy == 0.0) or (wx == 0.0 and wy == 0.0):
                        delta = _wrap(math.atan2(wy, wx) - math.atan2(vy, vx))
                    else:  # the turn from the end's direction to the target's: one arctangent, not two
                        delta = _wrap(math.atan2(cross, dot))
                    old = a[i]
                    lo, hi = lim[i, 0], lim[i, 1]
                    want = old + delta
                    new = _limit(want, lo, hi)
                    if abs(delta) > BEHIND and new != want and hi - lo < FULL_CIRCLE:  # the aim behind: the nearer way
                        other = _limit(want - TAU if delta > 0.0 else want + TAU, lo, hi)
                        if abs(_wrap(other - want)) < abs(_wrap(new - want)):
                            new = other
                    if guarded:  # stopped short of the first contact along the sweep (:func:`.ccd.ccd_loop`)
                        full = hi - lo >= FULL_CIRCLE
                        rot = _wrap(new - old) if full else new - old
                        turn = turn_room(xs, ys, i, n, rot, obstacles, mask)
                        if turn != rot and full:
                            alt = turn_room(xs, ys, i, n, rot - math.copysign(TAU, rot), obstacles, mask)
                            if nearer_turn(px, py, ex, ey, tx, ty, alt, turn):
                                turn = alt
                        if turn != rot:
                            new = _wrap(old + turn) if full else old + turn
                        a[i] = new
                        stale = True
                        if turn != 0.0:
                            turn_joints(xs, ys, i, n, turn)
                            ex = xs[n]
                            ey = ys[n]
                        continue
                    a[i] = new
                    if new == want and dot * dot + cross * cross > 0.0:  # the whole turn: its cosine and sine at hand
                        r = math.sqrt((vx * vx + vy * vy) * (wx * wx + wy * wy))
                        c = dot / r
                        s = cross / r
                    else:
                        applied = new - old
                        c = math.cos(applied)
                        s = math.sin(applied)
                    ex = px + c * vx - s * vy
                    ey = py + s * vx + c * vy
                    ca[i], sa[i] = ca[i] * c - sa[i] * s, sa[i] * c + ca[i] * s
            if best_error < err - rounding * reach:  # a restart left a better pose
                a[:] = best
                err = best_error
            error[k] = err
            used[k] = sweeps


def build() -> SimpleNamespace:
    """The kernels, as ``ccd``, ``fabrik`` (:mod:`._jit_fabrik`), ``dls`` (:mod:`._jit_dls`), ``settle``,
    ``tip_error``, ``snake``, ``clear_moves`` (:mod:`._jit_avoid`), ``jiggle`` and ``pin_ends`` (:mod:`._jit_rope`;
    ``jiggle_few`` and ``pin_ends_few``: the same on one thread)."""
    from ._jit_avoid import clear_move_rows
    from ._jit_dls import dls_rows
    from ._jit_fabrik import fabrik_rows
    from ._jit_pose import settle_rows, snake_rows, tip_error_rows
    from ._jit_rope import jiggle_kernel, jiggle_serial, pin_kernel, pin_serial

    return SimpleNamespace(ccd=ccd_rows, fabrik=fabrik_rows, dls=dls_rows, settle=settle_rows,
                           tip_error=tip_error_rows, snake=snake_rows, clear_moves=clear_move_rows,
                           jiggle=jiggle_kernel, pin_ends=pin_kernel,
                           jiggle_few=jiggle_serial, pin_ends_few=pin_serial)
