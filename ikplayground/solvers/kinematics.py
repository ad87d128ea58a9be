"""Forward kinematics of a planar chain.

Conventions (docs/design.md): screen pixels with y down; ``angles[0]`` is bone 0's
absolute angle and ``angles[i]`` is bone i's angle relative to bone i-1, all in
radians measured as ``atan2(dy, dx)``, so a positive angle turns clockwise on
screen.
"""

from __future__ import annotations

import math

import numpy as np

from .validate import chain_extent, float_array, lengths_list, point


def forward_kinematics(root, angles, lengths) -> np.ndarray:
    """Joint positions of a chain.

    Parameters
    ----------
    root : array_like, shape (2,)
        Position of joint 0, in pixels.
    angles : array_like, shape (n,)
        Relative joint angles in radians (see module docstring).
    lengths : array_like, shape (n,)
        Bone lengths in pixels, each > 0.

    Returns
    -------
    ndarray, shape (n + 1, 2)
        ``[0]`` is the root, ``[-1]`` the end effector.

    Raises
    ------
    ValueError
        Naming the argument; also when the chain could reach past
        ``+-1e300`` px (``lengths``) or the running sum of the angles
        overflows (``angles``), where the positions would not be finite.
    """
    rx, ry = point(root, "root")
    lengths = lengths_list(lengths)
    chain_extent(rx, ry, sum(lengths))
    angles = float_array(angles, "angles", ndim=1)
    if angles.shape[0] != len(lengths):
        raise ValueError(f"angles: expected {len(lengths)} angles (one per bone), got {angles.shape[0]}")
    angles = angles.tolist()
    if not math.isfinite(sum(map(abs, angles))):
        raise ValueError("angles: too large: their running sum (each bone's absolute angle) overflows")
    return np.array(chain_points(rx, ry, angles, lengths))


def chain_points(rx: float, ry: float, angles: list[float], lengths: list[float]) -> list[tuple[float, float]]:
    """Plain-float forward kinematics: the list of ``n + 1`` joint positions.

    The fast path for a single chain; no validation.
    """
    pts = [(rx, ry)]
    x, y, a = rx, ry, 0.0
    cos, sin = math.cos, math.sin
    for ang, length in zip(angles, lengths):
        a += ang
        x += length * cos(a)
        y += length * sin(a)
        pts.append((x, y))
    return pts


def joint_xy(rx: float, ry: float, a, lens) -> tuple[list, list]:
    """Forward kinematics on plain floats: the ``n + 1`` joints' x and y coordinates (two lists, px), summed
    root to tip from the relative angles ``a`` (rad) and bone lengths ``lens`` (px); the single-chain solvers'
    inner loops use it."""
    cos, sin = math.cos, math.sin
    xs = [rx]
    ys = [ry]
    x, y, absolute = rx, ry, 0.0
    for ang, length in zip(a, lens):
        absolute += ang
        x += length * cos(absolute)
        y += length * sin(absolute)
        xs.append(x)
        ys.append(y)
    return xs, ys


def chain_points_batch(roots: np.ndarray, angles: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Forward kinematics for ``N`` chains of ``n`` bones at once.

    Parameters
    ----------
    roots : ndarray, shape (N, 2)
    angles : ndarray, shape (N, n)
        Relative joint angles in radians.
    lengths : ndarray, shape (N, n)

    Returns
    -------
    ndarray, shape (N, n + 1, 2)
    """
    absolute = np.cumsum(angles, axis=1)
    out = np.empty(angles.shape[:1] + (angles.shape[1] + 1, 2))
    out[:, 0] = roots
    np.cumsum(lengths * np.cos(absolute), axis=1, out=out[:, 1:, 0])
    np.cumsum(lengths * np.sin(absolute), axis=1, out=out[:, 1:, 1])
    out[:, 1:] += roots[:, None, :]
    return out
