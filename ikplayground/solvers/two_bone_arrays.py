"""The two-bone formula of :mod:`.two_bone` (raylib "IK (2D Multi-Chain IK Demo)") over arrays, and its checks.

Element-wise, with the pole and Spine's soft reach and stretch; lengths whose squares would leave float
range are scaled first. Pixels (y down), radians.
"""

from __future__ import annotations

import numpy as np

from .results import TwoBoneSolution
from .validate import BOUND, float_array, to_float64, wrap_array

# Bone lengths inside this range square and multiply without leaving float range.
_SAFE_LO = 1e-100
_SAFE_HI = 1e100
_TINY_R = 1e-150  # px: a reach this small goes the careful way (its square and 2 l1 r would underflow)
# Past every distance a target can lie at: the maximum reach M is capped here and never overflows.
REACH_CAP = 1e301
# Cross products of coordinates under CROSS_SAFE cannot overflow; larger ones are scaled by CROSS_SHRINK (exact).
CROSS_SAFE = 1e150
CROSS_SHRINK = 2.0 ** -600


def two_bone_arrays(root: np.ndarray, target: np.ndarray, l1, l2, bend, *, pole=None, softness=None,
                    stretch=None, elbow_limit=None):
    """The two-bone formula on validated arrays, no checks: ``(knee, end, theta1, theta2, reached, scale)``.

    ``root``, ``target`` (..., 2) px (y down); ``l1``, ``l2`` (px), ``bend`` (+-1) and the optional
    ``softness``, ``stretch`` broadcast to (...); ``pole`` (..., 2) px, NaN rows none; ``elbow_limit``
    (..., 2) rad, ``(lo, hi)`` on theta2 with ``-pi <= lo <= hi <= pi`` (a full circle changes nothing:
    :func:`limit_elbow`). Returns knee and end (..., 2) px, theta1 and theta2 (...) rad wrapped to
    (-pi, pi], reached (...) bool and the bones' scale (...) (1 without stretch):
    :class:`~.results.TwoBoneSolution`'s fields.
    """
    if softness is not None and not np.any(softness):
        softness = None
    if stretch is not None and np.all(np.equal(stretch, 1.0)):
        stretch = None
    d = target - root
    dx = d[..., 0]
    dy = d[..., 1]
    l1 = np.asarray(l1, dtype=float)
    l2 = np.asarray(l2, dtype=float)
    if pole is not None:
        q = pole - root
        bend = pole_bend_arrays(dx, dy, q[..., 0], q[..., 1], bend)
    inf = np.inf
    moderate = (np.max(np.abs(d), initial=0.0) < _SAFE_HI
                and min(np.min(l1, initial=inf), np.min(l2, initial=inf)) > _SAFE_LO
                and np.max(l1 + l2, initial=0.0) < _SAFE_HI)
    dist = np.sqrt(dx * dx + dy * dy) if moderate else None
    if dist is None or np.min(dist, initial=1.0) < _SAFE_LO:  # squares may have under- or overflowed
        dist = np.hypot(dx, dy)
    if softness is None and stretch is None:
        lo = np.abs(l1 - l2)
        hi = l1 + l2
        reached = (dist >= lo) & (dist <= hi)
        reach = dist
        scale = None
    else:
        reach, scale, limit = soft_reach_arrays(dist, l1 + l2, softness, stretch)
        reached = (dist >= np.abs(l1 - l2)) & (dist <= limit)
        l1 = scale * l1  # (no larger than the target's distance: cannot overflow)
        l2 = scale * l2
        moderate = moderate and np.max(l1 + l2, initial=0.0) < _SAFE_HI
        lo = np.abs(l1 - l2)
        hi = l1 + l2
    r = np.minimum(np.maximum(reach, lo), hi)
    if moderate and np.min(dist, initial=1.0) > 0 and np.min(r, initial=1.0) > _TINY_R:
        # the common case: no square over- or underflows and r > 0, so no scaling and no masks
        a2 = l1 * l1
        b2 = l2 * l2
        q2 = r * r
        cos_psi = np.clip((q2 + a2 - b2) / (2.0 * l1 * r), -1.0, 1.0)
        psi = np.arccos(cos_psi)
        cos_gamma = np.clip((a2 + b2 - q2) / (2.0 * l1 * l2), -1.0, 1.0)
        # bone 1's direction: the unit vector to the target turned by -bend*psi
        ux = dx / dist
        uy = dy / dist
        bs = bend * np.sin(psi)
        c1 = ux * cos_psi + uy * bs
        s1 = uy * cos_psi - ux * bs
    else:
        safe = (l1 > _SAFE_LO) & (l1 < _SAFE_HI) & (l2 > _SAFE_LO) & (l2 < _SAFE_HI)
        unit = 1.0 if np.all(safe) else np.where(safe, 1.0, np.maximum(l1, l2))
        a = l1 / unit
        b = l2 / unit
        q = r / unit
        den = 2.0 * a * q
        ok = den > 0
        cos_psi = np.where(ok, (q * q + a * a - b * b) / np.where(ok, den, 1.0), 1.0)
        psi = np.arccos(np.clip(cos_psi, -1.0, 1.0))
        den = 2.0 * a * b
        ok = den > 0
        cos_gamma = np.clip(np.where(ok, (a * a + b * b - q * q) / np.where(ok, den, 1.0), -1.0), -1.0, 1.0)
        c1 = s1 = None
    if scale is not None and np.any(scale > 1.0):
        # stretched bones lie straight: psi = 0 and gamma = pi exactly, whatever the rounding
        straight = scale > 1.0
        psi = np.where(straight, 0.0, psi)
        cos_gamma = np.where(straight, -1.0, cos_gamma)
        if c1 is not None:
            c1 = np.where(straight, ux, c1)
            s1 = np.where(straight, uy, s1)
    gamma = np.arccos(cos_gamma)
    theta1 = wrap_array(np.arctan2(dy, dx) - bend * psi)
    theta2 = bend * (np.pi - gamma)  # in [-pi, pi]: only -pi needs moving to pi
    if np.any(theta2 <= -np.pi):
        theta2 = np.where(theta2 <= -np.pi, np.pi, theta2)
    # bone 2's direction by the angle-sum rule: cos(theta2) = -cos(gamma), sin(theta2) = bend * sin(gamma)
    if c1 is None:
        c1 = np.cos(theta1)
        s1 = np.sin(theta1)
    c2 = -cos_gamma
    s2 = bend * np.sin(gamma)
    knee = np.stack([l1 * c1, l1 * s1], axis=-1)
    knee += root
    end = np.stack([l2 * (c1 * c2 - s1 * s2), l2 * (s1 * c2 + c1 * s2)], axis=-1)
    end += knee
    if scale is None or scale.shape != theta1.shape:  # (1 without stretch; bend or pole may add the batch axis)
        scale = np.ones(theta1.shape) if scale is None else np.broadcast_to(scale, theta1.shape).copy()
    if elbow_limit is not None:
        knee, end, theta1, theta2, reached = limit_elbow(root, dx, dy, l1, l2, bend, theta1, theta2, knee, end,
                                                         reached, elbow_limit)
    return knee, end, theta1, theta2, reached, scale


def in_range(a: np.ndarray, lo, hi) -> np.ndarray:
    """Whether each relative angle ``a`` (rad, in [-pi, pi]) lies in ``[lo, hi]``; +-pi, one pose, counts as
    either."""
    seam = (np.abs(a) == np.pi) & ((lo == -np.pi) | (hi == np.pi))
    return ((a >= lo) & (a <= hi)) | seam


def limit_elbow(root, dx, dy, l1, l2, bend, theta1, theta2, knee, end, reached, elbow_limit):
    """The two-bone answer with its elbow (``theta2``) held inside ``elbow_limit`` (..., 2) rad ``(lo, hi)``.

    A row whose ``theta2`` lies in its range is returned as it is (bit for bit). Otherwise, when the other
    bend's elbow ``-theta2`` lies in it, the arm takes that bend (the same end, the knee mirrored across the
    root-end line). Otherwise the elbow is clamped to the bound ``c`` whose ``|c|`` is nearest ``|theta2|``
    (both bounds then lie on one side of it; a tie goes to the bound on ``bend``'s side), which puts the end
    nearest the wanted reach, and bone 1 turns so that the end lies on the ray from the root toward the
    target, ``sqrt(l1^2 + l2^2 + 2 l1 l2 cos c)`` px out: the point nearest the target that elbow allows;
    ``reached`` is then False. ``dx``, ``dy`` (...) px: the target less the root; ``l1``, ``l2`` the bones as
    posed (stretched); the rest as :func:`two_bone_arrays` returns them. Mirror symmetric: the mirrored
    problem (bend negated, the range ``(-hi, -lo)``) gives the mirrored answer.
    """
    lo = elbow_limit[..., 0]
    hi = elbow_limit[..., 1]
    out = ~in_range(theta2, lo, hi)
    if not out.any():
        return knee, end, theta1, theta2, reached
    other = -theta2
    flip = in_range(other, lo, hi)
    alpha = np.abs(theta2)
    off_lo = np.abs(np.abs(lo) - alpha)
    off_hi = np.abs(np.abs(hi) - alpha)
    bound = np.where((off_hi < off_lo) | ((off_hi == off_lo) & (bend * hi > 0)), hi, lo)
    c = np.where(flip, other, bound)
    beta = np.arctan2(l2 * np.sin(c), l1 + l2 * np.cos(c))  # the end's direction from bone 1's, at the root
    t1 = wrap_array(np.arctan2(dy, dx) - beta)
    t2 = t1 + c
    c = np.where(c <= -np.pi, np.pi, c)  # (the seam's one pose, as pi: theta2 stays in (-pi, pi])
    new_knee = np.stack([l1 * np.cos(t1), l1 * np.sin(t1)], axis=-1)
    new_knee += root
    new_end = np.stack([l2 * np.cos(t2), l2 * np.sin(t2)], axis=-1)
    new_end += new_knee
    rows = out[..., None]
    return (np.where(rows, new_knee, knee), np.where(rows, new_end, end), np.where(out, t1, theta1),
            np.where(out, c, theta2), np.where(out, flip & reached, reached))


def pole_bend_arrays(dx: np.ndarray, dy: np.ndarray, qx: np.ndarray, qy: np.ndarray, bend) -> np.ndarray:
    """:func:`.two_bone.pole_bend` element-wise (arrays broadcast; NaN rows of the pole keep ``bend``)."""
    big = np.maximum(np.maximum(np.abs(dx), np.abs(dy)), np.maximum(np.abs(qx), np.abs(qy))) >= CROSS_SAFE
    if big.any():  # (row by row, as pole_bend does: a shrunk short row could underflow)
        k = np.where(big, CROSS_SHRINK, 1.0)
        dx, dy, qx, qy = dx * k, dy * k, qx * k, qy * k
    c = dx * qy - dy * qx
    return np.where(c > 0.0, -1.0, np.where(c < 0.0, 1.0, bend))


def soft_reach_arrays(dist: np.ndarray, total: np.ndarray, softness, stretch):
    """:func:`.two_bone.soft_reach` element-wise: ``(reach, scale, limit)``; None is 0 softness or 1 stretch."""
    softness = 0.0 if softness is None else softness
    stretch = 1.0 if stretch is None else stretch
    s = np.minimum(softness, total)
    with np.errstate(over="ignore"):  # M past float range, and d' / L for a huge stretch: both capped below
        m = np.minimum(stretch * total, REACH_CAP)
        start = m - s
        follows = dist <= start
        zone = ~follows & (dist < m + s)  # (never where s = 0)
        p = (dist - start) / np.where(zone, 2.0 * s, 1.0) - 1.0
        reach = np.where(follows, dist, np.where(zone, m - s * p * p, m))
        scale = np.where(reach <= total, 1.0, np.minimum(reach / total, stretch))
        scale = np.where(follows | zone, scale, stretch)
    return reach, scale, np.where(s > 0.0, start, m)


def solve_arrays(root, target, l1, l2, bend, pole=None, softness=0.0, stretch=1.0,
                 elbow_limit=None) -> TwoBoneSolution:
    """:func:`.two_bone.solve_two_bone` for any arguments: checked (ValueError naming them), broadcast, solved."""
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
    for arr, name in ((l1, "l1"), (l2, "l2")):
        if np.any(arr <= 0):
            raise ValueError(f"{name}: every length must be > 0, got {arr[arr <= 0].flat[0]}")
    if np.any(np.abs(bend) != 1):
        raise ValueError(f"bend: must be +1 or -1, got {bend[np.abs(bend) != 1].flat[0]}")
    pole = None if pole is None else _pole_array(pole)
    softness = _reach_option(softness, "softness", 0.0)
    stretch = _reach_option(stretch, "stretch", 1.0)
    elbow_limit = None if elbow_limit is None else _elbow_limit_array(elbow_limit)
    named = {"root": root, "target": target, "l1": l1, "l2": l2, "bend": bend, "pole": pole,
             "softness": softness, "stretch": stretch, "elbow_limit": elbow_limit}
    pairs = ("root", "target", "pole", "elbow_limit")
    named = {k: a.shape[:-1] if k in pairs else a.shape for k, a in named.items() if a is not None}
    try:
        n = np.broadcast_shapes(*named.values())
    except ValueError:
        raise ValueError(f"{', '.join(named)}: batch sizes do not broadcast ({named})") from None
    for arr, name in ((root, "root"), (target, "target")):
        if np.max(np.abs(arr), initial=0.0) > BOUND:
            raise ValueError(f"{name}: coordinates must lie within +-{BOUND:g} px, got {np.max(np.abs(arr)):g}")
    # every point the chain can reach stays inside the bound (no sum or difference overflows)
    extent = np.max(np.abs(root), axis=-1) + np.minimum(l1, BOUND) + np.minimum(l2, BOUND)
    if np.max(extent, initial=0.0) > BOUND:
        name = "l1" if np.max(l1) >= np.max(l2) else "l2"
        raise ValueError(f"{name}: the chain could reach past +-{BOUND:g} px (root plus l1 + l2)")
    knee, end, theta1, theta2, reached, scale = two_bone_arrays(
        np.broadcast_to(root, n + (2,)), np.broadcast_to(target, n + (2,)), l1, l2, bend,
        pole=pole, softness=softness, stretch=stretch,
        elbow_limit=None if elbow_limit is None else np.broadcast_to(elbow_limit, n + (2,)))
    if len(n) != 1:
        return TwoBoneSolution(knee, end, float(theta1), float(theta2), bool(reached), float(scale))
    return TwoBoneSolution(knee, end, theta1, theta2, reached, scale)


def _pole_array(pole) -> np.ndarray:
    """``pole`` as a float64 (2,) or (N, 2) array within ``+-BOUND`` px, each row finite or all NaN (no pole)."""
    arr = to_float64(pole, "pole")
    if arr.ndim not in (1, 2) or arr.shape[-1] != 2:
        raise ValueError(f"pole: expected shape (2,) or (N, 2), got {arr.shape}")
    none = np.isnan(arr).all(axis=-1, keepdims=True)
    bad = ~np.isfinite(arr) & ~none
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"pole: must be finite, or a whole row of NaN for no pole "
                         f"(non-finite value at index {where})")
    if np.max(np.abs(np.where(none, 0.0, arr)), initial=0.0) > BOUND:
        raise ValueError(f"pole: coordinates must lie within +-{BOUND:g} px")
    return arr


def _elbow_limit_array(limit) -> np.ndarray:
    """``elbow_limit`` as a float64 (2,) or (N, 2) array of ``(lo, hi)`` rad, ``-pi <= lo <= hi <= pi``."""
    arr = float_array(limit, "elbow_limit")
    if arr.ndim not in (1, 2) or arr.shape[-1] != 2:
        raise ValueError(f"elbow_limit: expected shape (2,) or (N, 2) of (lo, hi), got {arr.shape}")
    bad = ~((-np.pi <= arr[..., 0]) & (arr[..., 0] <= arr[..., 1]) & (arr[..., 1] <= np.pi))
    if bad.any():
        lo, hi = np.atleast_2d(arr)[int(np.argmax(np.atleast_1d(bad)))].tolist()
        raise ValueError(f"elbow_limit: must have -pi <= lo <= hi <= pi rad (got ({lo!r}, {hi!r}))")
    return arr


def _reach_option(value, name: str, least: float) -> np.ndarray:
    """``softness`` (``least`` 0) or ``stretch`` (``least`` 1) as a finite scalar or (N,) array, each >= ``least``."""
    arr = float_array(value, name)
    if arr.ndim > 1:
        raise ValueError(f"{name}: expected a scalar or shape (N,), got {arr.shape}")
    if np.any(arr < least):
        raise ValueError(f"{name}: must be >= {least:g}, got {arr[arr < least].flat[0]}")
    return arr
