"""The two-bone formula of :mod:`.two_bone` for the commonest single-chain call, on plain floats.

:func:`.two_bone.solve_two_bone` called with root and target as tuples of two
floats, float bone lengths, a bend of +1 or -1 and no pole, soft reach or
stretch: the same law-of-cosines steps as :func:`.two_bone._solve_single`, in
the same order (so the same floats, bit for bit), with the argument checks
folded into a few comparisons and no helper calls. Pixels, y down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import BOUND, wrap
from .results import TwoBoneSolution

_empty = np.empty
_new_solution = tuple.__new__
_atan2, _acos, _cos, _sin, _hypot, _PI = math.atan2, math.acos, math.cos, math.sin, math.hypot, math.pi
# Bone lengths inside this range square and multiply without leaving float range (as in two_bone.py).
_SAFE_LO = 1e-100
_SAFE_HI = 1e100


def solve_plain(root: tuple, target: tuple, l1, l2, bend) -> TwoBoneSolution | None:
    """One chain (see :func:`.two_bone.solve_two_bone`), or None unless ``root`` and ``target`` are
    tuples of two floats within ``+-BOUND`` px, ``l1`` and ``l2`` floats of moderate size (px) and
    ``bend`` the int or float +1 or -1."""
    if not (type(l1) is float and type(l2) is float and len(root) == 2 and len(target) == 2
            and (type(bend) is int or type(bend) is float) and (bend == 1 or bend == -1)):
        return None
    rx, ry = root
    tx, ty = target
    b = BOUND
    if not (type(rx) is float and type(ry) is float and type(tx) is float and type(ty) is float
            and -b <= rx <= b and -b <= ry <= b and -b <= tx <= b and -b <= ty <= b  # (False for NaN)
            and _SAFE_LO < l1 < _SAFE_HI and _SAFE_LO < l2 < _SAFE_HI):
        return None
    dx = tx - rx
    dy = ty - ry
    dist = _hypot(dx, dy)
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
    a2 = l1 * l1  # (each product formed once; the same floats as written out twice)
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
    if bend == 1:  # theta1 = phi - bend * psi, theta2 = bend * (pi - gamma), with bend's products exact
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
