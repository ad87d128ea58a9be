"""Analytic two-bone IK by the law of cosines.

The formula of the raylib multi-chain demo ("IK (2D Multi-Chain IK Demo)"),
itself the triangle of "Inverse Kinematics In Game Maker": with ``t = target - root``,

* ``r = |t|`` clamped to ``[|l1 - l2|, l1 + l2]``,
* ``phi = atan2(t_y, t_x)``,
* ``psi = acos((r^2 + l1^2 - l2^2) / (2 l1 r))``, ``gamma = acos((l1^2 + l2^2 - r^2) / (2 l1 l2))``
  with the cosines clamped to [-1, 1], and ``psi = 0`` when ``r = 0``,
* ``theta1 = phi - bend * psi`` (absolute angle of bone 1),
* ``theta2 = bend * (pi - gamma)`` (bone 2 relative to bone 1).

``bend`` is +1 or -1 and picks the mirrored knee (the Game Maker tutorial's ``flip``).
A pole (Godot's magnet, Spine's bendDirection, given as a point) picks it instead:
the knee goes to the pole's side of the root-target line. Soft reach and stretch
change ``r`` and the bone lengths first (:mod:`.two_bone_reach`, after Spine's
IkConstraint). Screen coordinates, y down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import BOUND, float_array, wrap
from .results import TwoBoneSolution
from .two_bone_arrays import two_bone_arrays
from .two_bone_pole import pole_array, pole_bend
from .two_bone_reach import reach_option, soft_reach
from .two_bone_single import solve_plain

_NUMBER = (int, float, np.float64)  # plain numbers for the fast path (bool is none of them)
_BOUND = BOUND
_array = np.array
_new_solution = tuple.__new__
_atan2, _acos, _cos, _sin, _PI = math.atan2, math.acos, math.cos, math.sin, math.pi
# Bone lengths inside this range square and multiply without leaving float range.
_SAFE_LO = 1e-100
_SAFE_HI = 1e100
# The defaults of softness and stretch, told apart by identity on the fast path.
_NO_SOFTNESS = 0.0
_NO_STRETCH = 1.0
_INF = math.inf


def _plain_point(p) -> tuple:
    """``p`` as two items when it is a 2-tuple, 2-list or float64 (2,) array, else ``(None, None)``."""
    tp = type(p)
    if (tp is tuple or tp is list) and len(p) == 2:
        return p
    if tp is np.ndarray and p.shape == (2,) and p.dtype == np.float64:
        return p.tolist()
    return None, None


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
        from ``d = L + s`` on (see :mod:`.two_bone_reach`). A softness larger
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
    if type(root) is tuple and type(target) is tuple and pole is None and softness is _NO_SOFTNESS and (
            stretch is _NO_STRETCH):  # the commonest call: floats in tuples (two_bone_single.py)
        sol = solve_plain(root, target, l1, l2, bend)
        if sol is not None:
            return sol
    # Fast path: one chain given as plain numbers (the game-loop call). Anything
    # unusual (arrays of chains, bad values, lengths so small or large that the
    # law of cosines would overflow) falls through to the validated batch path.
    if type(l1) in _NUMBER and type(l2) in _NUMBER and type(bend) in _NUMBER and (bend == 1 or bend == -1):
        rx, ry = root if type(root) is tuple and len(root) == 2 else _plain_point(root)
        tx, ty = target if type(target) is tuple and len(target) == 2 else _plain_point(target)
        b = _BOUND
        if (type(rx) in _NUMBER and type(ry) in _NUMBER and type(tx) in _NUMBER and type(ty) in _NUMBER
                and -b <= rx <= b and -b <= ry <= b and -b <= tx <= b and -b <= ty <= b  # (False for nan)
                and _SAFE_LO < l1 < _SAFE_HI and _SAFE_LO < l2 < _SAFE_HI):
            dx = tx - rx
            dy = ty - ry
            if pole is None and softness is _NO_SOFTNESS and stretch is _NO_STRETCH:
                return _solve_single(rx, ry, dx, dy, math.hypot(dx, dy), float(l1), float(l2),
                                     1.0 if bend == 1 else -1.0)
            sol = _solve_plain_options(rx, ry, dx, dy, float(l1), float(l2), 1.0 if bend == 1 else -1.0,
                                       pole, softness, stretch)
            if sol is not None:
                return sol
    return _solve_batch(root, target, l1, l2, bend, pole, softness, stretch)


def _solve_single(rx, ry, dx, dy, dist, l1, l2, s, straight=False) -> TwoBoneSolution:
    """The formula on plain floats for one chain (inputs already checked).

    ``dist`` is the distance the end should reach (``|(dx, dy)|`` unless soft
    reach or stretch changed it); ``(dx, dy)`` only gives the direction.
    ``straight``: the bones are stretched, so the arm is straight (``psi = 0``,
    ``gamma = pi``) whatever rounding leaves of ``dist`` against ``l1 + l2``.
    """
    lo = abs(l1 - l2)
    hi = l1 + l2
    reached = lo <= dist <= hi
    r = lo if dist < lo else min(dist, hi)
    phi = _atan2(dy, dx)
    acos = _acos
    if straight:
        psi, gamma = 0.0, _PI
    else:
        den = 2.0 * l1 * r
        if den > 0.0:  # (not when r is so small that 2 l1 r underflows to 0: then psi = 0, as with r = 0)
            c = (r * r + l1 * l1 - l2 * l2) / den
            psi = acos(1.0 if c > 1.0 else max(c, -1.0))
        else:
            psi = 0.0
        c = (l1 * l1 + l2 * l2 - r * r) / (2.0 * l1 * l2)
        gamma = acos(1.0 if c > 1.0 else max(c, -1.0))
    pi = _PI
    theta1 = phi - s * psi
    if not -pi < theta1 <= pi:
        theta1 = wrap(theta1)
    theta2 = s * (pi - gamma)
    if theta2 <= -pi:
        theta2 += 2.0 * pi
    cos, sin = _cos, _sin
    kx = rx + l1 * cos(theta1)
    ky = ry + l1 * sin(theta1)
    a2 = theta1 + theta2
    end = (kx + l2 * cos(a2), ky + l2 * sin(a2))
    return _new_solution(TwoBoneSolution, (_array((kx, ky)), _array(end), theta1, theta2, reached, 1.0))


def _solve_plain_options(rx, ry, dx, dy, l1, l2, s, pole, softness, stretch) -> TwoBoneSolution | None:
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
            s = pole_bend(dx, dy, px - rx, py - ry, s)
    dist = math.hypot(dx, dy)
    if softness == 0.0 and stretch == 1.0:
        return _solve_single(rx, ry, dx, dy, dist, l1, l2, s)
    reach, scale, limit = soft_reach(dist, l1 + l2, softness, stretch)
    if scale * (l1 + l2) >= _SAFE_HI:  # squares could overflow: the batch path scales them
        return None
    knee, end, theta1, theta2, _, _ = _solve_single(rx, ry, dx, dy, reach, scale * l1, scale * l2, s, scale > 1.0)
    return _new_solution(TwoBoneSolution, (knee, end, theta1, theta2, abs(l1 - l2) <= dist <= limit, scale))


def _solve_batch(root, target, l1, l2, bend, pole=None, softness=0.0, stretch=1.0) -> TwoBoneSolution:
    root = float_array(root, "root")
    target = float_array(target, "target")
    for arr, name in ((root, "root"), (target, "target")):
        if arr.ndim not in (1, 2) or arr.shape[-1] != 2:
            raise ValueError(f"{name}: expected shape (2,) or (N, 2), got {arr.shape}")
    l1 = float_array(l1, "l1")
    l2 = float_array(l2, "l2")
    bend = float_array(bend, "bend")
    for arr, name in ((l1, "l1"), (l2, "l2"), (bend, "bend")):
        if arr.ndim > 1:
            raise ValueError(f"{name}: expected a scalar or shape (N,), got {arr.shape}")
    if np.any(l1 <= 0):
        raise ValueError(f"l1: every length must be > 0, got {l1[l1 <= 0].flat[0]}")
    if np.any(l2 <= 0):
        raise ValueError(f"l2: every length must be > 0, got {l2[l2 <= 0].flat[0]}")
    if np.any(np.abs(bend) != 1):
        raise ValueError(f"bend: must be +1 or -1, got {bend[np.abs(bend) != 1].flat[0]}")
    pole = None if pole is None else pole_array(pole, _BOUND)
    softness = reach_option(softness, "softness", 0.0)
    stretch = reach_option(stretch, "stretch", 1.0)
    named = {"root": root, "target": target, "l1": l1, "l2": l2, "bend": bend, "pole": pole,
             "softness": softness, "stretch": stretch}
    named = {k: a.shape[:-1] if k in ("root", "target", "pole") else a.shape for k, a in named.items() if a is not None}
    try:
        n = np.broadcast_shapes(*named.values())
    except ValueError:
        raise ValueError(f"{', '.join(named)}: batch sizes do not broadcast ({named})") from None
    for arr, name in ((root, "root"), (target, "target")):
        if np.max(np.abs(arr), initial=0.0) > _BOUND:
            raise ValueError(f"{name}: coordinates must lie within +-{_BOUND:g} px, got {np.max(np.abs(arr)):g}")
    # every point the chain can reach stays inside the bound (no sum or difference overflows)
    extent = np.max(np.abs(root), axis=-1) + np.minimum(l1, _BOUND) + np.minimum(l2, _BOUND)
    if np.max(extent, initial=0.0) > _BOUND:
        name = "l1" if np.max(l1) >= np.max(l2) else "l2"
        raise ValueError(f"{name}: the chain could reach past +-{_BOUND:g} px (root plus l1 + l2)")
    batched = len(n) == 1
    knee, end, theta1, theta2, reached, scale = two_bone_arrays(
        np.broadcast_to(root, n + (2,)), np.broadcast_to(target, n + (2,)), l1, l2, bend,
        pole=pole, softness=softness, stretch=stretch)
    if not batched:
        return TwoBoneSolution(knee, end, float(theta1), float(theta2), bool(reached), float(scale))
    return TwoBoneSolution(knee, end, theta1, theta2, reached, scale)
