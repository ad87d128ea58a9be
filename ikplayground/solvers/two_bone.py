"""Analytic two-bone IK by the law of cosines.

The formula of seed 002 (a multi-chain 2D IK demo), itself the triangle of
seed 000 ("Inverse Kinematics In Game Maker"): with ``t = target - root``,

* ``r = |t|`` clamped to ``[|l1 - l2|, l1 + l2]``,
* ``phi = atan2(t_y, t_x)``,
* ``psi = acos((r^2 + l1^2 - l2^2) / (2 l1 r))``, ``gamma = acos((l1^2 + l2^2 - r^2) / (2 l1 l2))``
  with the cosines clamped to [-1, 1], and ``psi = 0`` when ``r = 0``,
* ``theta1 = phi - bend * psi`` (absolute angle of bone 1),
* ``theta2 = bend * (pi - gamma)`` (bone 2 relative to bone 1).

``bend`` is +1 or -1 and picks the mirrored knee (seed 000's ``flip``).
Screen coordinates, y down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import float_array, point, wrap, wrap_array
from .results import TwoBoneSolution

_NUMBER = (int, float)


def solve_two_bone(root, target, l1, l2, bend=1) -> TwoBoneSolution:
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
        Which side the knee bends to; -1 mirrors it across the root-target line.

    Returns
    -------
    TwoBoneSolution
        Scalars and ``(2,)`` positions for a single chain; ``(N,)`` and
        ``(N, 2)`` when any argument carries a batch axis (broadcast).

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, non-finite values, a length <= 0,
        or a bend other than +1/-1.
    """
    if type(l1) in _NUMBER and type(l2) in _NUMBER and type(bend) in _NUMBER:
        single = _single_point(root) and _single_point(target)
        if single:
            return _solve_single(root, target, l1, l2, bend)
    return _solve_batch(root, target, l1, l2, bend)


def _single_point(value) -> bool:
    """True for one point given as a (2,) array or a pair of plain numbers."""
    t = type(value)
    if t is np.ndarray:
        return value.shape == (2,)
    if t is tuple or t is list:
        return len(value) == 2 and type(value[0]) in _NUMBER and type(value[1]) in _NUMBER
    return False


def _check_length(value, name: str) -> None:
    v = float(value)
    if not math.isfinite(v) or v <= 0:
        raise ValueError(f"{name}: must be finite and > 0, got {value!r}")


def _solve_single(root, target, l1, l2, bend) -> TwoBoneSolution:
    rx, ry = root.tolist() if type(root) is np.ndarray else root
    tx, ty = target.tolist() if type(target) is np.ndarray else target
    if (rx - rx) + (ry - ry) + (tx - tx) + (ty - ty) != 0.0:  # a nan or inf somewhere
        point(root, "root")
        point(target, "target")
    if not (0.0 < l1 < math.inf):
        _check_length(l1, "l1")
    if not (0.0 < l2 < math.inf):
        _check_length(l2, "l2")
    if bend == 1:
        s = 1.0
    elif bend == -1:
        s = -1.0
    else:
        raise ValueError(f"bend: must be +1 or -1, got {bend!r}")
    dx, dy = tx - rx, ty - ry
    dist = math.hypot(dx, dy)
    lo, hi = abs(l1 - l2), l1 + l2
    reached = lo <= dist <= hi
    r = min(max(dist, lo), hi)
    phi = math.atan2(dy, dx)
    if r > 0.0:
        c = (r * r + l1 * l1 - l2 * l2) / (2.0 * l1 * r)
        psi = math.acos(min(1.0, max(-1.0, c)))
    else:
        psi = 0.0
    c = (l1 * l1 + l2 * l2 - r * r) / (2.0 * l1 * l2)
    gamma = math.acos(min(1.0, max(-1.0, c)))
    theta1 = phi - s * psi
    if not -math.pi < theta1 <= math.pi:
        theta1 = wrap(theta1)
    theta2 = s * (math.pi - gamma)
    if theta2 <= -math.pi:
        theta2 += 2.0 * math.pi
    kx = rx + l1 * math.cos(theta1)
    ky = ry + l1 * math.sin(theta1)
    a2 = theta1 + theta2
    both = np.array((kx, ky, kx + l2 * math.cos(a2), ky + l2 * math.sin(a2)))
    return TwoBoneSolution(both[:2], both[2:], theta1, theta2, reached)


def _solve_batch(root, target, l1, l2, bend) -> TwoBoneSolution:
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
    try:
        n = np.broadcast_shapes(root.shape[:-1], target.shape[:-1], l1.shape, l2.shape, bend.shape)
    except ValueError:
        raise ValueError(
            f"root, target, l1, l2, bend: batch sizes do not broadcast "
            f"({root.shape}, {target.shape}, {l1.shape}, {l2.shape}, {bend.shape})"
        ) from None
    batched = len(n) == 1
    knee, end, theta1, theta2, reached = two_bone_arrays(
        np.broadcast_to(root, n + (2,)), np.broadcast_to(target, n + (2,)), l1, l2, bend
    )
    if not batched:
        return TwoBoneSolution(knee, end, float(theta1), float(theta2), bool(reached))
    return TwoBoneSolution(knee, end, theta1, theta2, reached)


def two_bone_arrays(root: np.ndarray, target: np.ndarray, l1, l2, bend):
    """The two-bone formula on validated arrays, no checks (the scene's hot path).

    Parameters
    ----------
    root, target : ndarray, shape (..., 2)
    l1, l2, bend : ndarray broadcastable to shape (...)

    Returns
    -------
    knee, end : ndarray, shape (..., 2)
    theta1, theta2 : ndarray, shape (...)
    reached : ndarray of bool, shape (...)
    """
    d = target - root
    dx = d[..., 0]
    dy = d[..., 1]
    dist = np.hypot(dx, dy)
    lo = np.abs(l1 - l2)
    hi = l1 + l2
    reached = (dist >= lo) & (dist <= hi)
    r = np.clip(dist, lo, hi)
    phi = np.arctan2(dy, dx)
    positive = r > 0
    r_safe = np.where(positive, r, 1.0)
    cos_psi = np.where(positive, (r * r + l1 * l1 - l2 * l2) / (2.0 * l1 * r_safe), 1.0)
    psi = np.arccos(np.clip(cos_psi, -1.0, 1.0))
    cos_gamma = (l1 * l1 + l2 * l2 - r * r) / (2.0 * l1 * l2)
    gamma = np.arccos(np.clip(cos_gamma, -1.0, 1.0))
    theta1 = wrap_array(phi - bend * psi)
    theta2 = wrap_array(bend * (np.pi - gamma))
    knee = np.empty(np.shape(theta1) + (2,))
    knee[..., 0] = root[..., 0] + l1 * np.cos(theta1)
    knee[..., 1] = root[..., 1] + l1 * np.sin(theta1)
    a2 = theta1 + theta2
    end = np.empty_like(knee)
    end[..., 0] = knee[..., 0] + l2 * np.cos(a2)
    end[..., 1] = knee[..., 1] + l2 * np.sin(a2)
    return knee, end, theta1, theta2, reached
