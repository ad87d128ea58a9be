"""The two-bone formula of :mod:`.two_bone` on arrays of chains, unchecked (the scene's hot path).

The law of cosines of :mod:`.two_bone`'s docstring, element-wise over a batch,
with the pole (:mod:`.two_bone_pole`) and soft reach and stretch
(:mod:`.two_bone_reach`); lengths so small or large that their squares leave
float range are scaled first. Pixels, y down; radians.
"""

from __future__ import annotations

import numpy as np

from ._validate import wrap_array
from .two_bone_pole import pole_bend_arrays
from .two_bone_reach import soft_reach_arrays

# Bone lengths inside this range square and multiply without leaving float range.
_SAFE_LO = 1e-100
_SAFE_HI = 1e100
_TINY_R = 1e-150  # px: a reach this small goes the careful way (its square and 2 l1 r would underflow)


def two_bone_arrays(root: np.ndarray, target: np.ndarray, l1, l2, bend, *, pole=None, softness=None,
                    stretch=None):
    """The two-bone formula on validated arrays, no checks (the scene's hot path).

    Parameters
    ----------
    root, target : ndarray, shape (..., 2)
    l1, l2, bend : ndarray broadcastable to shape (...)
    pole : ndarray broadcastable to shape (..., 2), optional
        As :func:`solve_two_bone`'s (NaN rows: no pole).
    softness, stretch : ndarray broadcastable to shape (...), optional
        As :func:`solve_two_bone`'s; None (or all 0 softness, all 1 stretch) is none.

    Returns
    -------
    knee, end : ndarray, shape (..., 2)
    theta1, theta2 : ndarray, shape (...)
    reached : ndarray of bool, shape (...)
    scale : ndarray, shape (...)
        The bones' common scale (1 without stretch), as :class:`TwoBoneSolution`'s.
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
        # The common case: squares cannot overflow or underflow and r > 0, so
        # the law of cosines needs no scaling and no zero-distance masks.
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
        # stretched bones lie straight: psi = 0 and gamma = pi exactly, however the rounding of the
        # scaled lengths against the distance left the cosines (the arm's mirror image rounds otherwise)
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
    # Joint positions: bone 2's direction from bone 1's by the angle-sum rule,
    # with cos(theta2) = -cos(gamma) and sin(theta2) = bend * sin(gamma).
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
    return knee, end, theta1, theta2, reached, scale
