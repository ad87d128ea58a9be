"""Analytic two-bone IK by the law of cosines: the public call and the single chain on plain floats.

The formula of the raylib multi-chain demo ("IK (2D Multi-Chain IK Demo)"),
itself the triangle of "Inverse Kinematics In Game Maker": with ``t = target - root``,

* ``r = |t|`` clamped to ``[|l1 - l2|, l1 + l2]``,
* ``phi = atan2(t_y, t_x)``,
* ``psi = acos((r^2 + l1^2 - l2^2) / (2 l1 r))``, ``gamma = acos((l1^2 + l2^2 - r^2) / (2 l1 l2))``
  with the cosines clamped to [-1, 1], and ``psi = 0`` when ``r = 0``,
* ``theta1 = phi - bend * psi`` (absolute angle of bone 1),
* ``theta2 = bend * (pi - gamma)`` (bone 2 relative to bone 1).

``bend`` is +1 or -1 and picks the mirrored knee (the Game Maker tutorial's ``flip``).
A pole (Godot's magnet, SkeletonIK3D's ``magnet``, and Spine's IkConstraint
``bendDirection``, given as a point, as Unity's and Maya's pole vectors are) picks it
instead: the knee goes to the pole's side of the root-target line (:func:`pole_bend`).
Soft reach and stretch change ``r`` and the bone lengths first (:func:`soft_reach`,
after Spine's IkConstraint). The same formula over arrays of chains, and the
checks of batched arguments, are in :mod:`.two_bone_arrays`. Screen coordinates,
y down; pixels; radians.
"""

from __future__ import annotations

import math

import numpy as np

from .results import TwoBoneSolution
from .two_bone_arrays import CROSS_SAFE, CROSS_SHRINK, REACH_CAP, solve_arrays
from .validate import BOUND, wrap

_NUMBER = (int, float, np.float64)  # plain numbers for the fast path (bool is none of them)
_BOUND = BOUND
_empty = np.empty
_new_solution = tuple.__new__
_atan2, _acos, _cos, _sin, _hypot, _PI = math.atan2, math.acos, math.cos, math.sin, math.hypot, math.pi
# Bone lengths inside this range square and multiply without leaving float range.
_SAFE_LO = 1e-100
_SAFE_HI = 1e100
# The defaults of softness and stretch, told apart by identity on the fast path.
_NO_SOFTNESS = 0.0
_NO_STRETCH = 1.0
_INF = math.inf


def solve_two_bone(root, target, l1, l2, bend=1, *, pole=None, softness=_NO_SOFTNESS,
                   stretch=_NO_STRETCH) -> TwoBoneSolution:
    """Place a two-bone chain so its end reaches ``target`` (or gets closest).

    Parameters
    ----------
    root : array_like, shape (2,) or (N, 2)
        Shoulder/hip position in pixels.
    target : array_like, shape (2,) or (N, 2)
        Where the end effector should go, in pixels.
    l1, l2 : float or array_like (N,)
        Bone lengths in pixels, each > 0.
    bend : {1, -1} or array_like (N,) of them
        Which side the knee bends to: +1 to the left of the root-to-target
        direction as seen on screen (y down), -1 mirrored across that line.
    pole : array_like, shape (2,) or (N, 2), optional
        A point the knee bends toward, in pixels: where it lies off the
        root-target line the knee goes to its side of that line, whatever
        ``bend`` says; ``bend`` decides only where the pole is on the line (the
        cross product of ``target - root`` and ``pole - root`` is exactly 0,
        a target on the root included). A pole of NaNs, or a row of NaNs in a
        batch, means no pole for that chain; any other pole must be finite.
    softness : float or array_like (N,), optional
        Soft reach in pixels, >= 0 (Spine's softness): the end eases out
        toward full reach ``L = l1 + l2`` instead of stopping hard: it follows
        the target to ``L - softness``, then reaches ``L - s p^2`` with
        ``p = (d - (L - s)) / (2 s) - 1`` for a target ``d`` px away, and ``L``
        from ``d = L + s`` on (see :func:`soft_reach`). A softness larger
        than ``L`` counts as ``L``. 0 (the default) is the hard reach.
    stretch : float or array_like (N,), optional
        The largest scale of the bones, >= 1 (1, the default, is none): past
        full reach both bones scale by ``scale = min(d / L, stretch)`` so the
        end lands on every target within ``stretch * L``. With softness too,
        the soft ease runs against the stretched reach ``M = stretch * L`` (``L``
        replaced by ``M`` above) and ``scale = clamp(d' / L, 1, stretch)`` for
        the eased distance ``d'``: stretch 1 gives the soft reach, softness 0
        the plain stretch.

    Returns
    -------
    TwoBoneSolution
        Scalars and ``(2,)`` positions for a single chain; ``(N,)`` and
        ``(N, 2)`` when any argument carries a batch axis (broadcast). A batch
        of ``N = 0`` chains gives empty arrays of those shapes (``reached``
        of dtype bool, the rest float64). ``reached`` is True exactly where
        the end is placed on the target: ``|l1 - l2| <= d <= stretch * L - s``
        (``s`` the softness, counted up to ``L``).

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers (booleans, complex
        numbers and strings are refused; ``True`` is not a bend), non-finite
        values (but for NaN poles), a length <= 0, a bend other than +1/-1, a
        softness < 0, a stretch < 1, or a point, pole or reach (root plus
        ``l1 + l2``) past ``+-1e300`` px.
    """
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
    # One chain given as plain numbers otherwise (the game-loop call). Anything unusual (arrays of
    # chains, bad values, lengths so small or large that the law of cosines would overflow) falls
    # through to the validated batch path.
    if type(l1) in _NUMBER and type(l2) in _NUMBER and type(bend) in _NUMBER and (bend == 1 or bend == -1):
        rx, ry = root if type(root) is tuple and len(root) == 2 else _plain_point(root)
        tx, ty = target if type(target) is tuple and len(target) == 2 else _plain_point(target)
        if (type(rx) in _NUMBER and type(ry) in _NUMBER and type(tx) in _NUMBER and type(ty) in _NUMBER
                and -b <= rx <= b and -b <= ry <= b and -b <= tx <= b and -b <= ty <= b  # (False for nan)
                and _SAFE_LO < l1 < _SAFE_HI and _SAFE_LO < l2 < _SAFE_HI):
            dx = tx - rx
            dy = ty - ry
            if pole is None and softness is _NO_SOFTNESS and stretch is _NO_STRETCH:
                return _solve_single(rx, ry, dx, dy, _hypot(dx, dy), float(l1), float(l2), bend == 1)
            sol = _solve_plain_options(rx, ry, dx, dy, float(l1), float(l2), bend == 1, pole, softness, stretch)
            if sol is not None:
                return sol
    return solve_arrays(root, target, l1, l2, bend, pole, softness, stretch)


def _plain_point(p) -> tuple:
    """``p`` as two items when it is a 2-tuple, 2-list or float64 (2,) array, else ``(None, None)``."""
    tp = type(p)
    if (tp is tuple or tp is list) and len(p) == 2:
        return p
    if tp is np.ndarray and p.shape == (2,) and p.dtype == np.float64:
        return p.tolist()
    return None, None


def _solve_single(rx, ry, dx, dy, dist, l1, l2, plus, straight=False) -> TwoBoneSolution:
    """The formula on plain floats for one chain (inputs already checked), px and rad.

    ``dist`` is the distance the end should reach (``|(dx, dy)|`` unless soft
    reach or stretch changed it); ``(dx, dy)`` only gives the direction.
    ``plus``: bend +1 (else -1). ``straight``: the bones are stretched, so the
    arm is straight (``psi = 0``, ``gamma = pi``) whatever rounding leaves of
    ``dist`` against ``l1 + l2``.
    """
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
    """One chain with a pole, soft reach or stretch given as plain numbers; None for
    anything else (the batch path then checks it and names what is wrong)."""
    if type(softness) not in _NUMBER or type(stretch) not in _NUMBER:
        return None
    try:
        softness = float(softness)
        stretch = float(stretch)
    except OverflowError:  # a huge int
        return None
    if not (0.0 <= softness < _INF and 1.0 <= stretch < _INF):
        return None
    if pole is not None:
        px, py = _plain_point(pole)
        if type(px) not in _NUMBER or type(py) not in _NUMBER:
            return None
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
    """The bend (+1.0 or -1.0) a pole gives one chain.

    The knee of ``bend = +1`` (``theta1 = phi - psi``) lies where
    ``cross(target - root, knee - root) < 0`` (y down), so a pole with a positive
    cross product takes bend -1 and one with a negative cross product bend +1.

    Parameters
    ----------
    dx, dy : float
        ``target - root``, px.
    qx, qy : float
        ``pole - root``, px.
    bend : float
        What to return where the cross product is exactly 0 (the pole on the
        line, or the target on the root) or NaN (no pole).
    """
    if max(abs(dx), abs(dy), abs(qx), abs(qy)) >= CROSS_SAFE:
        k = CROSS_SHRINK
        dx, dy, qx, qy = dx * k, dy * k, qx * k, qy * k
    c = dx * qy - dy * qx
    return -1.0 if c > 0.0 else 1.0 if c < 0.0 else bend


def soft_reach(dist: float, total: float, softness: float, stretch: float) -> tuple[float, float, float]:
    """The reached distance, the bones' scale and the reach limit of one chain: soft reach and stretch.

    The soft ease is Spine's two-bone softness (Spine runtimes, IkConstraint.apply
    (two bones), softness): with a chain of maximum reach ``M`` and ``s`` px of
    softness, a target ``d`` px from the root is reached at distance ``d' = d``
    while ``d <= M - s``; ``d' = M - s p^2`` with ``p = (d - (M - s)) / (2 s) - 1``
    for ``M - s < d < M + s`` (a quadratic ease: continuous, non-decreasing, slope
    ``-p`` in [0, 1]); ``d' = M`` from ``d >= M + s`` on. Stretch follows Spine's
    ``stretch`` flag with a cap: ``stretch >= 1`` is the largest bone scale, so
    bones of total length ``L`` reach at most ``M = stretch * L``, and both scale
    by ``clamp(d' / L, 1, stretch)``. The ease runs against that stretched ``M``:
    ``stretch = 1`` gives Spine's soft reach exactly, ``s = 0`` the plain capped
    stretch (``d' = min(d, M)``).

    Parameters
    ----------
    dist : float
        Distance from the root to the target, px (>= 0).
    total : float
        ``l1 + l2``, px (> 0).
    softness : float
        Soft zone half-width ``s``, px (>= 0; larger than ``total`` counts as ``total``).
    stretch : float
        Largest bone scale (>= 1).

    Returns
    -------
    reach : float
        ``d'``: how far from the root the end effector goes, px (before the
        inner radius of the annulus is applied).
    scale : float
        The factor both bones are scaled by, in ``[1, stretch]``.
    limit : float
        The largest target distance for which ``d' == d``, px: ``M`` when
        ``s = 0``, else ``M - s``.
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
