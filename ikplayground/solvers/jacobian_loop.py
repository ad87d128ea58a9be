"""The Jacobian family's one loop on floats: transpose, pseudo-inverse, damped and selectively damped least squares.

Each step (:mod:`.jacobian_steps`, after Buss 2004 and Buss & Kim 2005) is tried and taken only where it lowers the
error; ``mu`` (Levenberg 1944, Marquardt 1963) halves after a step taken (down to 1) and grows fourfold after one
refused, damping DLS's step (``lambda = damping * mu * |e|``) and shrinking the others' (``1 / mu``). Joints
pushed against a bound leave the Jacobian (an active set), a null step toward a target within reach tries
:func:`.dls.escape`. The project's own additions:

- restarts (CCD's and FABRIK's, :mod:`.reshape`; random restarts as in Beeson & Ames 2015, "TRAC-IK"): a
  limited chain that stalls, or keeps more than ``CRAWL_RATIO`` of its error over ``STALL_SWEEPS`` steps, short of
  a target within its reach, starts again from a pose drawn inside its limits (:func:`.reshape.restart_pose`), at
  most ``RESTARTS`` times a solve on the one budget, with a stall window of it left; the best pose wins;
- a rest pose (Liegeois 1977, gradient projection): each step adds ``(I - J^+ J) z``, ``z = rest_weight (rest -
  angles)``, taken on once the error is within the tolerance (then it may grow up to it) until that turn falls
  under ``SETTLE`` rad or the budget ends;
- a pole: before each step, CCD's and FABRIK's :func:`.reshape.pole_step` (a null-space step toward an arch on
  the pole's side, at most ``POLE_TURN`` rad a solve, so a chain solved frame after frame rolls over to the
  pole's side rather than flipping there; three bones or more);
- circle obstacles (:mod:`.jacobian_avoid`): the pairs (bone, circle) the start has clear are kept clear; each
  step adds a repulsive secondary task in the null space (after Maciejewski & Klein 1985) and is halved until its
  pose is clear (else refused); a pole step, an escape or a restart that is not clear is not taken, and every
  chain with a circle to keep clear of restarts as a limited one does (:func:`.avoid.clear_restart`).

Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .avoid import clear_restart, watched_pairs
from .ccd import limit_pose
from .dls import (AT_BOUND, DEFAULT_DAMPING, MU_GROW, MU_MAX, MU_SHRINK, NULL_STEP, distance, dls_step, escape,
                  joint_bounds, turned)
from .jacobian_avoid import backtracked, pose_kept, repulsion
from .jacobian_steps import DLS, capped, method_turns, projected, rest_pull
from .kinematics import joint_xy as joint_points
from .reshape import CRAWL_RATIO, POLE_TURN, RESTARTS, pole_frame, pole_step, restart_pose, restart_seed, restartable
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS
from .validate import clamp_heading

DEFAULT_REST_WEIGHT = 0.1  # the rest pose's pull: this share of the way there, a step (then projected)
SETTLE = 1e-3  # rad: a null-space term's turn under this, once on the target, ends the solve

_PI = math.pi
_TAU = 2.0 * math.pi
_INF = math.inf


def jacobian_iterations(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, damping=DEFAULT_DAMPING, method=DLS,
                        rest=None, rest_weight=0.0, pole=None, obs=None):
    """Up to ``iterations`` steps of ``method`` (an index of :data:`.jacobian_steps.METHODS`) from ``a`` (rad,
    inside ``lim``): ``(angles, used, error px, stalled)``.

    ``rest`` (n floats, rad, inside ``lim``) with ``rest_weight``, and ``pole`` ((x, y) px; stepped toward with
    three bones or more), or None; ``obs`` circles ``(x, y, r)`` px (a list of triples) or None.
    """
    n = len(lens)
    reach = 0.0
    for length in lens:
        reach += length
    bounds = joint_bounds(lim, n)
    limited = lim is not None and any(b[2] for b in bounds)
    # a gain within rounding is none, but DLS's (kept as it was): near its answer a step of the other methods
    # is rounding's, and taken or not on a tie its mirror image would go another way
    tie = 0.0 if method == DLS else ROUNDING * reach
    extra = rest is not None
    if extra:
        los = [b[0] for b in bounds]
        his = [b[1] for b in bounds]
        z = [0.0] * n
    reachable = None  # (the target within reach: asked only when needed)
    a = list(a)
    xs, ys = joint_points(rx, ry, a, lens)
    error = distance(tx - xs[n], ty - ys[n])
    last, gain = _INF, STALL_GAIN * reach
    jx = [0.0] * n
    jy = [0.0] * n
    d = [0.0] * n
    pi, neg_pi, tau, cos, sin = _PI, -_PI, _TAU, math.cos, math.sin
    used = 0
    mu = 1.0
    stalled = False
    restarts = -1  # restarts left (worked out at the first checkpoint that could take one)
    state = 0
    best, best_error = a, _INF  # the best pose a restart left
    settled = False
    h = 0.0  # the pole's arch (reshape.pole_frame), and what its steps may still turn a joint this solve
    if pole is not None and n > 2 and distance(tx - rx, ty - ry) < reach:
        pux, puy, h = pole_frame(rx, ry, tx, ty, pole[0], pole[1], reach)
    turns = POLE_TURN
    restarted = False
    mask = None  # the (bone, circle) pairs kept clear, or None (no obstacles within reach)
    if obs:
        mask = [[False] * len(obs) for _ in range(n)]
        if watched_pairs(xs, ys, n, obs, reach, mask):
            los = [v[0] for v in bounds]
            his = [v[1] for v in bounds]
            clamps = [v[2] for v in bounds]
            zo = [0.0] * n
        else:
            mask = None
    while True:
        if h and used < iterations and turns > 0.0 and not restarted:  # the pole's step (each step, as CCD's sweep)
            saved = a, xs, ys
            a = list(a)
            turns -= pole_step(a, lens, xs, ys, n, pux, puy, h, reach, turns)
            limit_pose(a, lim)
            xs, ys = joint_points(rx, ry, a, lens)
            if mask is not None and not pose_kept(xs, ys, n, obs, mask):
                a, xs, ys = saved  # a step into a circle is not taken
            error = distance(tx - xs[n], ty - ys[n])
        restarted = False
        on = error <= tolerance
        if on and (not extra or settled):
            break
        if not on and not used % STALL_SWEEPS:  # the stall rule (IKSolution's), inlined, and the restarts
            stuck = used and not error < last - gain
            # (a restart needs a stall window of budget left, else it could only cost the steps it takes)
            if used and used + STALL_SWEEPS <= iterations and (stuck or not error < CRAWL_RATIO * last):
                if restarts < 0:  # a limited chain, a joint after the root free to move, a target within reach
                    # (or, with circles to keep clear of, any chain)
                    go = within(reachable, rx, ry, tx, ty, reach) and (
                        mask is not None or limited and restartable(lim))
                    restarts = RESTARTS if go else 0
                taken = False
                if restarts > 0:  # from a pose drawn inside the limits (reshape.restart_pose), the best one kept
                    if error < best_error:
                        best, best_error = a, error
                    before = a
                    a = list(a)
                    if mask is None:
                        state = restart_pose(a, lens, lim, rx, ry, tx, ty, state or restart_seed(lens))
                        a[0] = clamp_heading(a[0], *lim[0])
                        taken = True
                    else:  # (a pose that keeps every watched pair clear, if one of a few is)
                        state, taken = clear_restart(a, lens, lim or [(-_PI, _PI)] * n, rx, ry, tx, ty,
                                                     state or restart_seed(lens), obs, mask, True)
                        if not taken:
                            a = before
                    restarts -= 1
                if taken:
                    xs, ys = joint_points(rx, ry, a, lens)
                    error = distance(tx - xs[n], ty - ys[n])
                    mu = 1.0
                    last = _INF  # the stall watch starts again from the new pose
                    restarted = True
                    continue
            if stuck:
                stalled = True
                break
            last = error
        if used == iterations:
            break
        used += 1
        ex = xs[n]
        ey = ys[n]
        scale = error if error > reach else reach  # every entry below 1 in size: nothing overflows
        ux = (tx - ex) / scale
        uy = (ty - ey) / scale
        lam = damping * mu * error / scale
        shrink = 1.0 / mu
        sxx = syy = sxy = 0.0
        for i in range(n):  # the Jacobian, scaled, and J J^T
            p = -(ey - ys[i]) / scale
            q = (ex - xs[i]) / scale
            jx[i] = p
            jy[i] = q
            sxx += p * p
            syy += q * q
            sxy += p * q
        lam2 = lam * lam
        largest = method_turns(method, jx, jy, sxx, syy, sxy, ux, uy, lam2, shrink, d)
        if limited:
            pushed = False
            for i in range(n):
                lo, hi, clamped = bounds[i]
                if clamped and ((a[i] >= hi - AT_BOUND and d[i] > 0.0) or (a[i] <= lo + AT_BOUND and d[i] < 0.0)):
                    jx[i] = jy[i] = 0.0
                    pushed = True
            if pushed:
                if method == DLS:
                    largest = dls_step(jx, jy, ux, uy, lam2, d)
                else:
                    largest = method_turns(method, jx, jy, *sums(jx, jy), ux, uy, lam2, shrink, d)
        if extra:
            turn = null_term(a, rest, rest_weight, bounds, los, his, jx, jy, z) * shrink
            top = 0.0
            for i in range(n):
                v = d[i] + z[i] * shrink
                d[i] = v
                if abs(v) > top:
                    top = abs(v)
            capped(d, top)
            if on:
                settled = turn < SETTLE
        if mask is not None and not on and repulsion(xs, ys, n, obs, mask, reach, zo):
            for i in range(n):  # the repulsive task, in the null space of the end's (held joints left out)
                if jx[i] == 0.0 and jy[i] == 0.0:
                    zo[i] = 0.0
            projected(jx, jy, zo)
            top = 0.0
            for i in range(n):
                v = d[i] + zo[i] * shrink
                d[i] = v
                if abs(v) > top:
                    top = abs(v)
            capped(d, top)
        if lim is None:  # turned() with no bounds and joint_points(), written out
            # (turned()'s clamp to [-pi, pi] changes nothing here: a lies in [-pi, pi] and no turn passes the
            # cap, MAX_STEP < pi, so one wrap lands in [-pi, pi]; the tests hold it to the turned() path)
            b = []
            bx = [rx]
            by = [ry]
            x, y, absolute = rx, ry, 0.0
            for v, turn_i, length in zip(a, d, lens):
                v += turn_i
                v = v - tau if v > pi else v + tau if v <= neg_pi else v  # wrapped once
                b.append(v)
                absolute += v
                x += length * cos(absolute)
                y += length * sin(absolute)
                bx.append(x)
                by.append(y)
        else:
            b = [turned(a[i] + d[i], *bounds[i]) for i in range(n)]
            bx, by = joint_points(rx, ry, b, lens)
        if mask is None or backtracked(rx, ry, a, d, lens, los, his, clamps, obs, mask, b, bx, by):
            trial = distance(tx - bx[n], ty - by[n])
        else:
            trial = _INF  # (no clear pose along the step: refused)
        null = largest < NULL_STEP  # (the same as max(map(abs, d)) < NULL_STEP, measured before the cap)
        before, before_error = a, error  # an escape kicks from here: with the null step, no turn passes the cap
        if (trial <= tolerance if on else trial < error - tie) or (null and trial <= error + ROUNDING * reach):
            a, xs, ys, error = b, bx, by, trial
            mu = mu * MU_SHRINK
            if mu < 1.0:
                mu = 1.0
        else:
            mu = mu * MU_GROW
            if mu > MU_MAX:
                mu = MU_MAX
        if null and not on:
            reachable = within(reachable, rx, ry, tx, ty, reach)
            if reachable:
                kicked = escape(rx, ry, before, lens, tx, ty, bounds, before_error)
                if kicked is not None and (mask is None or pose_kept(kicked[1], kicked[2], n, obs, mask)):
                    a, xs, ys, error = kicked
    if best_error < error - ROUNDING * reach:
        return best, used, best_error, stalled
    return a, used, error, stalled


def within(reachable, rx, ry, tx, ty, reach) -> bool:
    """``reachable`` if known (not None), else whether the target lies within ``reach`` px of the root."""
    return distance(tx - rx, ty - ry) < reach if reachable is None else reachable


def sums(jx, jy) -> tuple[float, float, float]:
    """``J J^T``'s entries ``(sxx, syy, sxy)``, summed over the joints in order."""
    sxx = syy = sxy = 0.0
    for p, q in zip(jx, jy):
        sxx += p * p
        syy += q * q
        sxy += p * q
    return sxx, syy, sxy


def null_term(a, rest, rest_weight, bounds, los, his, jx, jy, z) -> float:
    """The rest pose's pull (rad) into ``z``, held joints' left out (their columns of ``jx``, ``jy`` zeroed: pushed
    against a bound by the step, or pulled past one), projected on the null space of ``J``; its largest turn."""
    rest_pull(a, rest, rest_weight, los, his, z)
    for i in range(len(z)):
        lo, hi, clamped = bounds[i]
        if (jx[i] == 0.0 and jy[i] == 0.0) or (clamped and ((a[i] >= hi - AT_BOUND and z[i] > 0.0)
                                                            or (a[i] <= lo + AT_BOUND and z[i] < 0.0))):
            z[i] = 0.0
            jx[i] = jy[i] = 0.0
    return projected(jx, jy, z)
