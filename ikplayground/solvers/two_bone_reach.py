"""How far a two-bone chain reaches toward its target: soft reach and stretch.

The soft ease is Spine's two-bone softness (Spine runtimes, IkConstraint.apply
(two bones), softness): with a chain of maximum reach ``M`` and ``s`` px of
softness, a target ``d`` px from the root is reached at distance

* ``d'`` = ``d`` while ``d <= M - s``,
* ``d'`` = ``M - s p^2`` with ``p = (d - (M - s)) / (2 s) - 1`` for ``M - s < d < M + s``
  (a quadratic ease: continuous, non-decreasing, slope ``-p`` in [0, 1]),
* ``d'`` = ``M`` from ``d >= M + s`` on.

Stretch follows Spine's ``stretch`` flag (the bones grow to reach a target past
full reach) with a cap: ``stretch >= 1`` is the largest bone scale, so bones of
total length ``L`` reach at most ``M = stretch * L``, and both scale by
``scale = clamp(d' / L, 1, stretch)``. The ease runs against that stretched
``M`` (in the Spine runtimes softness first pulls the target within ``L``, so
there it leaves stretch nothing to do): ``stretch = 1`` gives Spine's soft reach
exactly, ``s = 0`` the plain capped stretch (``d' = min(d, M)``). Distances in pixels.
"""

from __future__ import annotations

import numpy as np

from ._validate import float_array

# Past every distance a target can lie at (coordinates within +-1e300 px): a
# larger maximum reach is the same as none, so M is capped here and never overflows.
_REACH_CAP = 1e301


def soft_reach(dist: float, total: float, softness: float, stretch: float) -> tuple[float, float, float]:
    """The reached distance, the bones' scale and the reach limit of one chain.

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
    if not m < _REACH_CAP:
        m = _REACH_CAP
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


def soft_reach_arrays(dist: np.ndarray, total: np.ndarray, softness, stretch):
    """:func:`soft_reach` element-wise (arrays broadcast; ``None`` means 0 softness or 1 stretch).

    Returns
    -------
    reach, scale, limit : ndarray
        As :func:`soft_reach`, shaped as ``dist`` broadcast with the rest.
    """
    if softness is None:
        softness = 0.0
    if stretch is None:
        stretch = 1.0
    s = np.minimum(softness, total)
    with np.errstate(over="ignore"):  # M past float range, and d' / L for a huge stretch: both capped below
        m = np.minimum(stretch * total, _REACH_CAP)
        start = m - s
        follows = dist <= start
        zone = ~follows & (dist < m + s)  # (never where s = 0)
        p = (dist - start) / np.where(zone, 2.0 * s, 1.0) - 1.0
        reach = np.where(follows, dist, np.where(zone, m - s * p * p, m))
        scale = np.where(reach <= total, 1.0, np.minimum(reach / total, stretch))
        scale = np.where(follows | zone, scale, stretch)
    return reach, scale, np.where(s > 0.0, start, m)


def reach_option(value, name: str, least: float) -> np.ndarray:
    """``softness`` (``least`` 0) or ``stretch`` (``least`` 1) as a finite float64
    scalar or (N,) array, each >= ``least``; ValueError naming ``name`` otherwise."""
    arr = float_array(value, name)
    if arr.ndim > 1:
        raise ValueError(f"{name}: expected a scalar or shape (N,), got {arr.shape}")
    if np.any(arr < least):
        raise ValueError(f"{name}: must be >= {least:g}, got {arr[arr < least].flat[0]}")
    return arr
