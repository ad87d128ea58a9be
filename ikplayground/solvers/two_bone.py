"""Analytic two-bone IK by the law of cosines: the public call and one chain on plain floats.

After the raylib demo "IK (2D Multi-Chain IK Demo)" and "Inverse Kinematics In Game Maker": with
``t = target - root`` and ``r = |t|`` clamped to ``[|l1 - l2|, l1 + l2]``, ``theta1 = atan2(t_y, t_x)
- bend * acos((r^2 + l1^2 - l2^2) / (2 l1 r))`` and ``theta2 = bend * (pi - acos((l1^2 + l2^2 - r^2)
/ (2 l1 l2)))``. A pole (Godot's magnet, Spine's ``bendDirection``) picks ``bend`` (:func:`pole_bend`);
soft reach and stretch (Spine's IkConstraint) change ``r`` and the lengths (:func:`soft_reach`).
Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numpy as np

from .results import TwoBoneSolution
from .two_bone_arrays import _SAFE_HI, _SAFE_LO, CROSS_SAFE, CROSS_SHRINK, REACH_CAP, solve_arrays
from .validate import BOUND, FLOATS, REALS, plain_float, plain_point, wrap

_BOUND = BOUND
_empty = np.empty
_ndarray = np.ndarray
_PAIR = (2,)
_new_solution = tuple.__new__
_atan2, _acos, _cos, _sin, _hypot, _PI = math.atan2, math.acos, math.cos, math.sin, math.hypot, math.pi
# The defaults of softness and stretch, told apart by identity on the fast path.
_NO_SOFTNESS = 0.0
_NO_STRETCH = 1.0
_INF = math.inf


def solve_two_bone(root, target, l1, l2, bend=1, *, pole=None, softness=_NO_SOFTNESS,
                   stretch=_NO_STRETCH, elbow_limit=None) -> TwoBoneSolution:
    """Place a two-bone chain so its end reaches ``target`` (or gets closest).

    Parameters
    ----------
    root, target : array_like, shape (2,) or (N, 2)
        Shoulder/hip and the end effector's goal, px (y down).
    l1, l2 : float or array_like (N,)
        Bone lengths, px, each > 0.
    bend : {1, -1} or array_like (N,) of them
        +1: the knee left of the root-to-target direction on screen; -1 mirrored.
    pole : array_like, shape (2,) or (N, 2), optional
        A point (px) the knee bends toward, over ``bend`` unless on the root-target line; NaN: no pole.
    softness, stretch : float or array_like (N,), optional
        Soft reach, px, >= 0 (0 is hard; :func:`soft_reach`), and the largest bone scale past full reach,
        >= 1 (1 is none).
    elbow_limit : array_like, shape (2,) or (N, 2), optional
        ``(lo, hi)`` rad on the elbow's relative angle ``theta2`` (a knee's range, e.g. ``(0, 2.6)``),
        ``-pi <= lo <= hi <= pi``; None (or the full circle) is free. Where the exact answer's elbow lies
        outside it, the arm takes the other bend if that one's elbow (``-theta2``) lies inside; else the
        elbow is clamped to the bound nearest the exact one (in ``|theta2|``, which puts the end nearest
        the wanted reach) and bone 1 turns the end onto the ray from the root toward the target, as far
        out as that elbow allows, ``sqrt(l1^2 + l2^2 + 2 l1 l2 cos(theta2))`` px (the nearest point to
        the target such an elbow can reach; ``reached`` False). The pole, ``bend``, soft reach and stretch
        apply first. See :func:`.two_bone_arrays.limit_elbow`.

    Returns
    -------
    TwoBoneSolution
        Scalars and (2,) positions for one chain; (N,) and (N, 2) when any argument is a batch.

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers, non-finite (but for NaN poles), a length
        <= 0, a bend other than +1/-1, a softness < 0, a stretch < 1, an elbow limit out of order or
        past +-pi, or a reach past ``+-1e300`` px.
    """
    if elbow_limit is not None:  # checked and solved over arrays, one chain or many alike
        return solve_arrays(root, target, l1, l2, bend, pole, softness, stretch, elbow_limit)
    b = _BOUND
    if (type(root) is tuple and type(target) is tuple and type(l1) is float and type(l2) is float
            and pole is None and softness is _NO_SOFTNESS and stretch is _NO_STRETCH
            and len(root) == 2 and len(target) == 2 and (type(bend) is int or type(bend) is float)
            and (bend == 1 or bend == -1)):  # the commonest call: floats in tuples, checked in a few comparisons
        rx, ry = root
        tx, ty = target
        if (type(rx) is float and type(ry) is float and type(tx) is float and type(ty) is float
                and -b <= rx <= b and -b <= ry <= b and -b <= tx <= b and -b <= ty <= b  # (False for NaN)
                and _SAFE_LO < l1 < _SAFE_HI and _SAFE_LO < l2 < _SAFE_HI):
            dx = tx - rx
            dy = ty - ry
            return _solve_single(rx, ry, dx, dy, _hypot(dx, dy), l1, l2, bend == 1)
    # one chain of other real numbers (numpy scalars, small arrays, ints, ...): converted once, then as floats
    chain = _plain_chain(root, target, l1, l2, bend)
    if chain is not None:
        rx, ry, tx, ty, a, c, sign = chain
        if ((sign == 1.0 or sign == -1.0) and -b <= rx <= b and -b <= ry <= b and -b <= tx <= b and -b <= ty <= b
                and _SAFE_LO < a < _SAFE_HI and _SAFE_LO < c < _SAFE_HI):  # (False for nan)
            dx = tx - rx
            dy = ty - ry
            if pole is None and softness is _NO_SOFTNESS and stretch is _NO_STRETCH:
                return _solve_single(rx, ry, dx, dy, _hypot(dx, dy), a, c, sign == 1.0)
            sol = _solve_plain_options(rx, ry, dx, dy, a, c, sign == 1.0, pole, softness, stretch)
            if sol is not None:
                return sol
    return solve_arrays(root, target, l1, l2, bend, pole, softness, stretch)


def _plain_chain(root, target, l1, l2, bend) -> tuple | None:
    """``(rx, ry, tx, ty, l1, l2, bend)`` as floats, unchecked, when each is a real number (:data:`~.validate.REALS`;
    points as 2-tuples, 2-lists or (2,) float arrays); None for anything else (the checked path names it).

    Written out for speed (a call per number would cost more than the plain-Python solve saves).
    """
    reals = REALS
    try:
        t = type(root)
        if t is _ndarray:
            if root.shape != _PAIR or root.dtype not in FLOATS:
                return None
            rx, ry = root.tolist()  # (floats)
        elif (t is tuple or t is list) and len(root) == 2:
            rx, ry = root
            if type(rx) is not float or type(ry) is not float:
                if type(rx) not in reals or type(ry) not in reals:
                    return None
                rx = float(rx)
                ry = float(ry)
        else:
            return None
        t = type(target)
        if t is _ndarray:
            if target.shape != _PAIR or target.dtype not in FLOATS:
                return None
            tx, ty = target.tolist()
        elif (t is tuple or t is list) and len(target) == 2:
            tx, ty = target
            if type(tx) is not float or type(ty) is not float:
                if type(tx) not in reals or type(ty) not in reals:
                    return None
                tx = float(tx)
                ty = float(ty)
        else:
            return None
        if type(l1) not in reals or type(l2) not in reals or type(bend) not in reals:
            return None
        return rx, ry, tx, ty, float(l1), float(l2), float(bend)
    except OverflowError:  # a huge int
        return None


def _solve_single(rx, ry, dx, dy, dist, l1, l2, plus, straight=False) -> TwoBoneSolution:
    """The formula on checked floats: reach ``dist`` in direction ``(dx, dy)``; ``straight`` for stretched bones."""
    lo = l1 - l2
    if lo < 0.0:
        lo = -lo
    hi = l1 + l2
    if dist < lo:
        r, reached = lo, False
    elif dist > hi:
        r, reached = hi, False
    else:
        r, reached = dist, True
    if straight:
        psi, gamma = 0.0, _PI
    else:
        a2 = l1 * l1  # (each product formed once)
        b2 = l2 * l2
        q2 = r * r
        twice = 2.0 * l1
        den = twice * r
        if den > 0.0:  # (not when r is so small that 2 l1 r underflows to 0: then psi = 0, as with r = 0)
            c = (q2 + a2 - b2) / den
            psi = _acos(1.0 if c > 1.0 else -1.0 if c < -1.0 else c)
        else:
            psi = 0.0
        c = (a2 + b2 - q2) / (twice * l2)
        gamma = _acos(1.0 if c > 1.0 else -1.0 if c < -1.0 else c)
    pi = _PI
    if plus:  # theta1 = phi - bend * psi, theta2 = bend * (pi - gamma), with bend's products exact
        theta1 = _atan2(dy, dx) - psi
        theta2 = pi - gamma
    else:
        theta1 = _atan2(dy, dx) + psi
        theta2 = -(pi - gamma)
        if theta2 <= -pi:
            theta2 += 2.0 * pi
    if not -pi < theta1 <= pi:
        theta1 = wrap(theta1)
    knee = _empty(2)
    end = _empty(2)
    knee[0] = kx = rx + l1 * _cos(theta1)
    knee[1] = ky = ry + l1 * _sin(theta1)
    a2 = theta1 + theta2
    end[0] = kx + l2 * _cos(a2)
    end[1] = ky + l2 * _sin(a2)
    return _new_solution(TwoBoneSolution, (knee, end, theta1, theta2, reached, 1.0))


def _solve_plain_options(rx, ry, dx, dy, l1, l2, plus, pole, softness, stretch) -> TwoBoneSolution | None:
    """One chain with a pole, soft reach or stretch as plain numbers; None for anything else (the batch path checks)."""
    softness = plain_float(softness)
    stretch = plain_float(stretch)
    if softness is None or stretch is None or not (0.0 <= softness < _INF and 1.0 <= stretch < _INF):
        return None
    if pole is not None:
        xy = plain_point(pole)
        if xy is None:
            return None
        px, py = xy
        if not (px != px and py != py):  # (both NaN: no pole)
            b = _BOUND
            if not (-b <= px <= b and -b <= py <= b):
                return None
            plus = pole_bend(dx, dy, px - rx, py - ry, 1.0 if plus else -1.0) == 1.0
    dist = _hypot(dx, dy)
    if softness == 0.0 and stretch == 1.0:
        return _solve_single(rx, ry, dx, dy, dist, l1, l2, plus)
    reach, scale, limit = soft_reach(dist, l1 + l2, softness, stretch)
    if scale * (l1 + l2) >= _SAFE_HI:  # squares could overflow: the batch path scales them
        return None
    knee, end, theta1, theta2, _, _ = _solve_single(rx, ry, dx, dy, reach, scale * l1, scale * l2, plus, scale > 1.0)
    return _new_solution(TwoBoneSolution, (knee, end, theta1, theta2, abs(l1 - l2) <= dist <= limit, scale))


def pole_bend(dx: float, dy: float, qx: float, qy: float, bend: float) -> float:
    """The bend (+1.0 or -1.0) a pole gives one chain: -1 for a positive cross product (y down), +1 for a negative one.

    ``dx, dy`` is ``target - root`` and ``qx, qy`` ``pole - root`` (px); ``bend`` is returned where the
    cross product is 0 or NaN (no pole).
    """
    if max(abs(dx), abs(dy), abs(qx), abs(qy)) >= CROSS_SAFE:
        k = CROSS_SHRINK
        dx, dy, qx, qy = dx * k, dy * k, qx * k, qy * k
    c = dx * qy - dy * qx
    return -1.0 if c > 0.0 else 1.0 if c < 0.0 else bend


def soft_reach(dist: float, total: float, softness: float, stretch: float) -> tuple[float, float, float]:
    """Soft reach and stretch of one chain (Spine's IkConstraint softness and stretch, with a cap).

    With ``M = stretch * total`` and ``s`` the softness, a target ``d`` px away is reached at ``d' = d``
    up to ``M - s``, ``d' = M - s p^2`` (``p = (d - (M - s)) / (2 s) - 1``) below ``M + s``, else ``M``.

    Parameters
    ----------
    dist, total : float
        Root to target (>= 0) and ``l1 + l2`` (> 0), px.
    softness, stretch : float
        ``s``, px (>= 0; beyond ``total`` counts as ``total``), and the largest bone scale (>= 1).

    Returns
    -------
    reach, scale, limit : float
        ``d'`` px, the bones' scale ``clamp(d' / total, 1, stretch)``, the largest ``d`` with ``d' == d`` px.
    """
    s = softness if softness < total else total
    m = stretch * total
    if not m < REACH_CAP:
        m = REACH_CAP
    start = m - s
    limit = start if s > 0.0 else m
    if dist <= start:
        reach = dist
    elif dist < m + s:
        p = (dist - start) / (2.0 * s) - 1.0
        reach = m - s * p * p
    else:  # at the longest (and exactly stretch, not m / total rounded)
        return m, stretch, limit
    if reach <= total:
        return reach, 1.0, limit
    scale = reach / total
    return reach, (scale if scale < stretch else stretch), limit
