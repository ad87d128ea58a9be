"""Damped least squares (DLS) steps for a planar chain: Wampler 1986, Nakamura & Hanafusa 1986, after Buss 2004.

The step ``J^T (J J^T + lambda^2 I)^-1 e`` (``e = target - end``, ``J`` the 2 x n Jacobian), turns capped at
``MAX_STEP``; a joint's turn within its range (:func:`turned`); and this project's :func:`escape` from a null
step. The loop that takes them, with the damping ``lambda = damping * mu * |e|`` adapting as in Levenberg 1944 /
Marquardt 1963, is the Jacobian family's (:mod:`.jacobian_loop`; :func:`.jacobian.solve_dls`); :mod:`.dls_batch`
repeats its arithmetic exactly. Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .validate import FULL_CIRCLE
from .kinematics import joint_xy as joint_points
from .results import ROUNDING

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
