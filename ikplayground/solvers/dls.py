"""Damped least squares (DLS) IK for a planar chain: Wampler 1986, Nakamura & Hanafusa 1986, after Buss 2004.

Each step is ``J^T (J J^T + lambda^2 I)^-1 e`` (``e = target - end``, ``J`` the 2 x n Jacobian), the
damping ``lambda = damping * mu * |e|`` adapting as in Levenberg 1944 / Marquardt 1963; turns are
capped at ``MAX_STEP``, joints pushed against a bound leave the Jacobian, and a null step toward a
reachable target tries this project's :func:`escape`. :mod:`.dls_batch` repeats this arithmetic
exactly. Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .validate import FULL_CIRCLE, non_negative
from .kinematics import joint_xy as joint_points
from .heading import aimed_loop, aimed_solution, heading_of
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS, IKSolution, chain_problem, finish

DEFAULT_DAMPING = 0.5  # lambda = damping * mu * |e|; of 0.3, 0.5, 1.0 the fewest steps on the limited benchmark
MAX_STEP = 0.5  # rad: the largest joint turn one step may make
MU_GROW = 4.0  # mu after a rejected step, times
MU_SHRINK = 0.5  # mu after an accepted step, times (never below 1)
MU_MAX = 1e100  # mu stops growing here (lambda^2 stays finite for any sane damping)

NULL_STEP = 1e-6  # rad: a step whose largest turn is under this is no step at all
AT_BOUND = 1e-12  # rad: a joint this near a bound is at it (its own rounding must not decide; the mirror flip)
KICKS = (0.5, 0.1, 0.02)  # rad: the escape's trial turns, largest first

_PI = math.pi
_TAU = 2.0 * math.pi
_INF = math.inf


def solve_dls(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, damping=None,
              pole=None, heading=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by damped least squares steps.

    The other arguments, the result and the errors are :func:`~.ccd.solve_ccd`'s (root and target (2,)
    px, y down; angles and lengths (n,) rad and px; limits (n, 2) rad; pole (2,) px; heading rad, the
    last bone's absolute direction, reached by the reduction of :mod:`.heading`), ``iterations``
    counting steps, rejected ones included (>= 1).

    Parameters
    ----------
    damping : float, optional
        ``lambda = damping * mu * |e|`` (px), >= 0; None means ``DEFAULT_DAMPING``. 0 is undamped.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    damping = DEFAULT_DAMPING if damping is None else non_negative(damping, "damping")
    if heading is not None:
        h = heading_of(heading)

        def run(q, watch):  # a generator that yields nothing, as the other solvers' loops unwatched
            return dls_iterations(q.rx, q.ry, q.angles, q.lengths, q.tx, q.ty, q.iterations, q.tolerance, q.limits,
                                  damping)
            yield

        return aimed_solution(p, h, *finish(aimed_loop(p, h, run, False)))
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, error, stalled = dls_iterations(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, damping)
    return p.solution(a, error, used, stalled)


def distance(dx: float, dy: float) -> float:
    """``hypot(dx, dy)`` written out (scaled by the larger part), rounding as :func:`.dls_batch.distance` does."""
    ax = -dx if dx < 0.0 else dx
    ay = -dy if dy < 0.0 else dy
    m = ax if ax > ay else ay
    if m == 0.0:
        return 0.0
    qx = dx / m
    qy = dy / m
    return m * math.sqrt(qx * qx + qy * qy)


def dls_step(jx: list, jy: list, ux: float, uy: float, lam2: float, d: list) -> float:
    """``J^T (J J^T + lam2 I)^-1 u`` (rad) into ``d``, capped at ``MAX_STEP``; returns the uncapped largest turn."""
    sxx = syy = sxy = 0.0
    for p, q in zip(jx, jy):
        sxx += p * p
        syy += q * q
        sxy += p * q
    return dls_turns(jx, jy, sxx, syy, sxy, ux, uy, lam2, d)


def dls_turns(jx: list, jy: list, sxx: float, syy: float, sxy: float, ux: float, uy: float, lam2: float,
              d: list) -> float:
    """:func:`dls_step` given ``J J^T``'s entries ``sxx``, ``syy``, ``sxy`` (summed over the joints in order)."""
    n = len(jx)
    a11 = sxx + lam2
    a22 = syy + lam2
    det = a11 * a22 - sxy * sxy
    if not 0.0 < det < _INF:
        for i in range(n):
            d[i] = 0.0
        return 0.0
    wx = (a22 * ux - sxy * uy) / det
    wy = (a11 * uy - sxy * ux) / det
    largest = 0.0
    i = 0
    for p, q in zip(jx, jy):
        v = p * wx + q * wy
        d[i] = v
        i += 1
        if v < 0.0:
            v = -v
        if v > largest:
            largest = v
    if largest > MAX_STEP:
        for i in range(n):
            d[i] = d[i] * MAX_STEP / largest
    return largest


def joint_bounds(lim: list | None, n: int) -> list:
    """Per joint ``(lo, hi, clamped)``: ``clamped`` False where the range is the full circle (or no limits)."""
    if lim is None:
        return [(-_PI, _PI, False)] * n
    return [(lo, hi, hi - lo < FULL_CIRCLE) for lo, hi in lim]


def turned(value: float, lo: float, hi: float, clamped: bool) -> float:
    """A joint angle after a step from inside ``[lo, hi]``: clamped, or (free joint) wrapped once and then clamped."""
    if not clamped:  # wrapped by one turn
        value = value - _TAU if value > _PI else value + _TAU if value <= -_PI else value
    return lo if value < lo else hi if value > hi else value


def dls_iterations(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, damping=DEFAULT_DAMPING):
    """Up to ``iterations`` DLS steps on floats from ``a`` (rad, inside ``lim``): ``(angles, used, error, stalled)``."""
    n = len(lens)
    reach = 0.0
    for length in lens:
        reach += length
    bounds = joint_bounds(lim, n)
    limited = lim is not None and any(b[2] for b in bounds)
    reachable = None  # (the target within reach: asked only after a null step)
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
    while True:
        if error <= tolerance:
            break
        if not used % STALL_SWEEPS:  # the stall rule (IKSolution's), inlined
            if used and not error < last - gain:
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
        sxx = syy = sxy = 0.0
        for i in range(n):  # the Jacobian, scaled, and J J^T (dls_step written out)
            p = -(ey - ys[i]) / scale
            q = (ex - xs[i]) / scale
            jx[i] = p
            jy[i] = q
            sxx += p * p
            syy += q * q
            sxy += p * q
        lam2 = lam * lam
        largest = dls_turns(jx, jy, sxx, syy, sxy, ux, uy, lam2, d)
        if limited:
            pushed = False
            for i in range(n):
                lo, hi, clamped = bounds[i]
                if clamped and ((a[i] >= hi - AT_BOUND and d[i] > 0.0) or (a[i] <= lo + AT_BOUND and d[i] < 0.0)):
                    jx[i] = jy[i] = 0.0
                    pushed = True
            if pushed:
                largest = dls_step(jx, jy, ux, uy, lam2, d)
        if lim is None:  # turned() with no bounds and joint_points(), written out
            # (turned()'s clamp to [-pi, pi] changes nothing here: a lies in [-pi, pi] and no turn passes the
            # cap, MAX_STEP < pi, so one wrap lands in [-pi, pi]; the tests hold it to the turned() path)
            b = []
            bx = [rx]
            by = [ry]
            x, y, absolute = rx, ry, 0.0
            for v, turn, length in zip(a, d, lens):
                v += turn
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
        trial = distance(tx - bx[n], ty - by[n])
        null = largest < NULL_STEP  # (the same as max(map(abs, d)) < NULL_STEP, measured before the cap)
        before, before_error = a, error  # an escape kicks from here: with the null step, no turn passes the cap
        if trial < error or (null and trial <= error + ROUNDING * reach):
            a, xs, ys, error = b, bx, by, trial
            mu = mu * MU_SHRINK
            if mu < 1.0:
                mu = 1.0
        else:
            mu = mu * MU_GROW
            if mu > MU_MAX:
                mu = MU_MAX
        if null:
            if reachable is None:
                reachable = distance(tx - rx, ty - ry) < reach
            if reachable:
                kicked = escape(rx, ry, before, lens, tx, ty, bounds, before_error)
                if kicked is not None:
                    a, xs, ys, error = kicked
    return a, used, error, stalled


def escape(rx, ry, a, lens, tx, ty, bounds, error):
    """The better pose of the first pair of :func:`kicks` that lowers ``error`` beyond rounding: ``(a, xs, ys, error)``.

    None when no pair does; ``bounds`` as :func:`joint_bounds`.
    """
    tiny = ROUNDING * sum(lens)  # a gain this small is rounding: the single and batched errors differ by it
    for pair in kicks(a, bounds):
        found = None
        for b in pair:
            bx, by = joint_points(rx, ry, b, lens)
            trial = distance(tx - bx[-1], ty - by[-1])
            if trial < error - tiny and (found is None or trial < found[3] - tiny):
                found = b, bx, by, trial
        if found is not None:
            return found
    return None


def kicks(a: list, bounds: list):
    """The escape's trial poses in pairs (``+`` and ``-``; fewer where a bound stops them) for each of ``KICKS``.

    Each joint turned alone (root first), then each pair of neighbours folded by ``+s``, ``-2 s``.
    """
    a = list(a)
    n = len(a)
    for size in KICKS:
        fold = min(size, MAX_STEP / 2)  # the second joint turns twice as far: still within a step's cap
        moves = [((i, size),) for i in range(n)] + [((i, fold), (i + 1, -2.0 * fold)) for i in range(n - 1)]
        for move in moves:
            pair = []
            for sign in (1.0, -1.0):
                b = list(a)
                for j, turn in move:
                    b[j] = turned(a[j] + sign * turn, *bounds[j])
                if b != a:
                    pair.append(b)
            yield pair
