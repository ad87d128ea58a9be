"""Poles: a point that chooses the side a chain bends toward (Godot's ``magnet``, Spine's ``bendDirection``).

This project's mirror, for DLS and for two-bone CCD and FABRIK chains (no pose lies between their two
bends; CCD and FABRIK with three bones or more step toward the pole as they solve instead,
:func:`.reshape.pole_step`): when the inner joints lie on the other side of the root-target line from
the pole (beyond ``ON_LINE``), the finished pose is mirrored across that line (the end stays as far from
the target; not where a limit breaks): ``a0 -> 2 phi - a0``, ``a_i -> -a_i`` (rad, y down, ``phi`` the
root-target direction).
"""

from __future__ import annotations

import math

import numpy as np

from .validate import FULL_CIRCLE, wrap_array

ON_LINE = 1e-9  # a pole this close to the root-target line (relative: the sine of its angle off it) is on it


def mirrored_toward(rx: float, ry: float, tx: float, ty: float, a: list, lens: list, pole, lim) -> list:
    """The pose ``a`` (rad), or its mirror image (a new list) when that puts the bend on the side of ``pole`` (px).

    Root ``rx, ry`` and target ``tx, ty`` px, bone lengths ``lens`` px, ``lim`` (lo, hi) pairs in rad or None.
    """
    if pole is None or len(a) < 2:
        return a
    ux, uy = tx - rx, ty - ry
    px, py = pole[0] - rx, pole[1] - ry
    side = ux * py - uy * px
    if abs(side) <= ON_LINE * math.hypot(ux, uy) * math.hypot(px, py) or not (ux or uy):
        return a
    bend = 0.0
    x, y, absolute = rx, ry, 0.0
    for i in range(len(a) - 1):
        absolute += a[i]
        x += lens[i] * math.cos(absolute)
        y += lens[i] * math.sin(absolute)
        bend += ux * (y - ry) - uy * (x - rx)
    if abs(bend) <= ON_LINE * math.hypot(ux, uy) * sum(lens) * len(a) or (bend > 0.0) == (side > 0.0):
        return a  # a chain straight along the line (to rounding) bends to neither side
    mirror = line_image(rx, ry, tx, ty, a, lim)
    return a if mirror is None else mirror


def line_image(rx: float, ry: float, tx: float, ty: float, a: list, lim) -> list | None:
    """The pose ``a`` (rad) mirrored across the line from the root ``rx, ry`` to ``tx, ty`` (px), a new list;
    None where it breaks a limit (``lim``: (lo, hi) pairs in rad, or None). Its end stays as far from the
    point ``tx, ty``; ``a0 -> 2 phi - a0``, ``a_i -> -a_i``."""
    phi = math.atan2(ty - ry, tx - rx)
    # wrapped as the batched call wraps them, so both take or leave an image on a limit's edge alike
    mirror = wrap_array(np.array([2.0 * phi - a[0]] + [-v for v in a[1:]])).tolist()
    if lim is not None:
        for v, (lo, hi) in zip(mirror, lim):
            if hi - lo < FULL_CIRCLE and not lo <= v <= hi:
                return None
    return mirror


def mirrored_toward_batch(roots: np.ndarray, angles: np.ndarray, lengths: np.ndarray, targets: np.ndarray,
                          poles: np.ndarray | None, limits: np.ndarray | None) -> np.ndarray:
    """:func:`mirrored_toward` for ``N`` chains: ``angles`` itself when no row changes, else a new (N, n) array.

    ``roots``, ``targets`` (N, 2) px, ``angles`` (N, n) rad, ``lengths`` (N, n) px, ``poles`` (N, 2) px
    (NaN rows: no pole) or None, ``limits`` (N, n, 2) rad or None.
    """
    n = angles.shape[1]
    if poles is None or n < 2 or not len(angles):
        return angles
    ux, uy = (targets - roots).T
    px, py = (poles - roots).T
    with np.errstate(invalid="ignore"):
        side = ux * py - uy * px
        off = np.abs(side) > ON_LINE * np.hypot(ux, uy) * np.hypot(px, py)  # NaN (no pole): False
    absolute = np.cumsum(angles[:, :-1], axis=1)
    x = roots[:, :1] + np.cumsum(lengths[:, :-1] * np.cos(absolute), axis=1)
    y = roots[:, 1:] + np.cumsum(lengths[:, :-1] * np.sin(absolute), axis=1)
    bend = (ux[:, None] * (y - roots[:, 1:]) - uy[:, None] * (x - roots[:, :1])).sum(axis=1)
    bent = np.abs(bend) > ON_LINE * np.hypot(ux, uy) * lengths.sum(axis=1) * n
    flip = off & ((ux != 0.0) | (uy != 0.0)) & bent & ((bend > 0) != (side > 0))
    if not flip.any():
        return angles
    phi = np.arctan2(uy[flip], ux[flip])
    mirror = np.empty((int(flip.sum()), n))
    mirror[:, 0] = 2.0 * phi - angles[flip, 0]
    mirror[:, 1:] = -angles[flip, 1:]
    mirror = wrap_array(mirror)
    rows = np.flatnonzero(flip)
    if limits is not None:
        lim = limits[flip]
        inside = (lim[..., 1] - lim[..., 0] >= FULL_CIRCLE) | ((lim[..., 0] <= mirror) & (mirror <= lim[..., 1]))
        ok = inside.all(axis=1)
        rows, mirror = rows[ok], mirror[ok]
    out = angles.copy()
    out[rows] = mirror
    return out
