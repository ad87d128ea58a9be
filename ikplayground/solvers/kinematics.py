"""Forward kinematics of a planar chain: pixels (y down), radians as ``atan2(dy, dx)`` (clockwise on screen).

``angles[0]`` is bone 0's absolute angle and ``angles[i]`` bone i's angle relative to bone i-1.
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
        Position of joint 0, px (y down).
    angles, lengths : array_like, shape (n,)
        Relative joint angles (rad) and bone lengths (px, each > 0).

    Returns
    -------
    ndarray, shape (n + 1, 2)
        ``[0]`` the root, ``[-1]`` the end effector, px.

    Raises
    ------
    ValueError
        Naming the argument; also where the chain could reach past ``+-1e300`` px or the angles' running
        sum overflows.
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
    """Forward kinematics on plain floats, unchecked: the ``n + 1`` joint positions (px) as a list of pairs."""
    return list(zip(*joint_xy(rx, ry, angles, lengths)))


def joint_xy(rx: float, ry: float, a, lens) -> tuple[list, list]:
    """Forward kinematics on plain floats, unchecked: the ``n + 1`` joints' x and y (two lists, px)."""
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
    """Forward kinematics of ``N`` chains: roots (N, 2) px, angles (N, n) rad, lengths (N, n) px; (N, n + 1, 2) px."""
    absolute = np.cumsum(angles, axis=1)
    out = np.empty(angles.shape[:1] + (angles.shape[1] + 1, 2))
    out[:, 0] = roots
    np.cumsum(lengths * np.cos(absolute), axis=1, out=out[:, 1:, 0])
    np.cumsum(lengths * np.sin(absolute), axis=1, out=out[:, 1:, 1])
    out[:, 1:] += roots[:, None, :]
    return out
