"""Skeletons: trees of bones, their checked inputs, forward kinematics and the solve's result type.

A skeleton of ``n`` bones is given by ``parents`` (n,) ints in topological order: ``parents[0] == -1``
(bone 0 starts at ``root``) and ``0 <= parents[i] < i`` for ``i >= 1`` (bone i starts at the end of bone
``parents[i]``). ``angles`` (n,) rad: bone 0's is absolute, bone i's relative to its parent bone's
direction, so a chain is ``parents = [-1, 0, 1, ..., n - 2]`` and every chain formula here gives what
:func:`.kinematics.forward_kinematics` gives. Pixels, y down; an angle is ``atan2(dy, dx)``, clockwise on
screen. The tree form is the one of Spine's and Godot's skeletons (parents before children).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .validate import chain_extent, float_array, lengths_list, point

MAX_BONES = 4096  # a skeleton's bones at most (a check on input, not a limit of the method)


class SkeletonSolution(NamedTuple):
    """Result of :func:`.skeleton_solve.solve_skeleton`.

    Attributes
    ----------
    angles : ndarray, shape (n,)
        Bone 0's absolute angle and every other bone's relative to its parent, rad, wrapped to (-pi, pi]
        and inside the limits.
    errors : dict of int to float
        Each target's bone: the distance from its end to its point, px.
    heading_errors : dict of int to float
        Each target with a heading: how far the bone's absolute direction is from it, rad (>= 0).
    reached : bool
        Every point within the tolerance and every heading within one degree.
    iterations : int
        Passes (FABRIK) or steps, rejected ones included (DLS), run.
    status : str
        As :class:`.results.IKSolution`'s: "reached", "out of reach", "stalled" or "iterations".
    """

    angles: np.ndarray
    errors: dict
    heading_errors: dict
    reached: bool
    iterations: int
    status: str


def tree_parents(parents, n: int | None = None) -> list[int]:
    """``parents`` checked (module docstring) as a list of ints; ``n`` the bones it must have, if given.

    Raises
    ------
    ValueError
        Naming ``parents``: not whole numbers, empty, the wrong count, or not in topological order.
    """
    if isinstance(parents, (str, bytes)):
        raise ValueError("parents: must be whole numbers, got a string")
    try:
        raw = np.asarray(parents)
    except (TypeError, ValueError):
        raise ValueError("parents: must be a 1-D sequence of whole numbers") from None
    if raw.ndim != 1 or raw.dtype.kind not in "iu" or raw.dtype == np.bool_:
        if not (raw.ndim == 1 and raw.dtype.kind == "f" and np.all(np.isfinite(raw)) and np.all(raw == np.round(raw))):
            raise ValueError(f"parents: must be a 1-D sequence of whole numbers, got dtype {raw.dtype}, "
                             f"shape {raw.shape}")
    out = [int(p) for p in raw.tolist()]
    if not out:
        raise ValueError("parents: a skeleton needs at least one bone")
    if len(out) > MAX_BONES:
        raise ValueError(f"parents: at most {MAX_BONES} bones, got {len(out)}")
    if n is not None and len(out) != n:
        raise ValueError(f"parents: expected {n} entries (one per bone), got {len(out)}")
    if out[0] != -1:
        raise ValueError(f"parents: bone 0 must have parent -1 (it starts at the root), got {out[0]}")
    for i, p in enumerate(out[1:], start=1):
        if not 0 <= p < i:
            raise ValueError(f"parents: bone {i}'s parent must be a bone before it (0..{i - 1}), got {p}")
    return out


def chain_parents(n: int) -> list[int]:
    """The parents of an ``n``-bone chain as a skeleton: ``[-1, 0, 1, ..., n - 2]``."""
    return [-1] + list(range(n - 1))


def children_of(parents: list[int]) -> list[list[int]]:
    """Each bone's children, in order (a list of lists of bone indices)."""
    kids: list[list[int]] = [[] for _ in parents]
    for i, p in enumerate(parents[1:], start=1):
        kids[p].append(i)
    return kids


def absolute_angles(parents: list[int], angles) -> list[float]:
    """Each bone's absolute direction, rad (not wrapped): its angle plus its ancestors'."""
    out = [0.0] * len(parents)
    for i, p in enumerate(parents):
        out[i] = angles[i] + (out[p] if p >= 0 else 0.0)
    return out


def tree_xy(parents: list[int], rx: float, ry: float, angles, lengths) -> tuple[list[float], list[float]]:
    """Forward kinematics on plain floats, unchecked: every bone's end point's x and y (two lists of n, px)."""
    xs, ys, _ = tree_pose(parents, rx, ry, angles, lengths)
    return xs, ys


def tree_pose(parents: list[int], rx: float, ry: float, angles, lengths) -> tuple[list, list, list]:
    """:func:`tree_xy` and every bone's absolute direction (rad, not wrapped): three lists of n floats."""
    cos, sin = math.cos, math.sin
    xs = [0.0] * len(parents)
    ys = [0.0] * len(parents)
    heading = [0.0] * len(parents)
    for i, p in enumerate(parents):
        if p < 0:
            h, x, y = angles[i], rx, ry
        else:
            h, x, y = heading[p] + angles[i], xs[p], ys[p]
        heading[i] = h
        xs[i] = x + lengths[i] * cos(h)
        ys[i] = y + lengths[i] * sin(h)
    return xs, ys, heading


def skeleton_points(parents, root, angles, lengths) -> np.ndarray:
    """The end point of every bone of a skeleton (forward kinematics).

    Parameters
    ----------
    parents : array_like of int, shape (n,)
        ``parents[0] == -1`` and ``0 <= parents[i] < i`` (module docstring).
    root : array_like, shape (2,)
        Where bone 0 starts, px (y down).
    angles : array_like, shape (n,)
        Bone 0's absolute angle, every other bone's relative to its parent, rad.
    lengths : array_like, shape (n,)
        Bone lengths, px, each > 0.

    Returns
    -------
    ndarray, shape (n, 2)
        Row i: the end of bone i, px. Bone i starts at row ``parents[i]`` (the root for bone 0).

    Raises
    ------
    ValueError
        Naming the argument.

    Examples
    --------
    >>> skeleton_points([-1, 0, 0], (0, 0), [0.0, math.pi / 2, -math.pi / 2], [10, 5, 5]).round(6).tolist()
    [[10.0, 0.0], [10.0, 5.0], [10.0, -5.0]]
    """
    parents = tree_parents(parents)
    rx, ry = point(root, "root")
    lengths = lengths_list(lengths)
    if len(lengths) != len(parents):
        raise ValueError(f"lengths: expected {len(parents)} lengths (one per bone), got {len(lengths)}")
    chain_extent(rx, ry, sum(lengths))
    angles = float_array(angles, "angles", ndim=1)
    if angles.shape[0] != len(parents):
        raise ValueError(f"angles: expected {len(parents)} angles (one per bone), got {angles.shape[0]}")
    xs, ys = tree_xy(parents, rx, ry, angles.tolist(), lengths)
    return np.column_stack([xs, ys]) if xs else np.empty((0, 2))
