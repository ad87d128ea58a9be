"""Look-at: one bone of a chain or skeleton turned to point at a point, its children following.

The modification of Godot's 2D skeletons (``SkeletonModification2DLookAt``: a bone rotated to look at a
target, within an optional angle constraint): only that bone's own angle changes, so every bone after
it keeps its angle relative to its parent and swings along. Pixels (y down); radians as
``atan2(dy, dx)``, clockwise on screen; angles relative as in :mod:`.skeleton_tree` (bone 0's absolute).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .skeleton_tree import absolute_angles, chain_parents, tree_parents, tree_xy
from .validate import chain_extent, clamp_heading, float_list, lengths_list, limits_list, wrap
from .validate import point as checked_point


def look_at(root, angles, lengths, bone, point, *, limits=None, parents=None) -> np.ndarray:
    """The angles with bone ``bone`` turned so that it points from its start at ``point``.

    Parameters
    ----------
    root : array_like, shape (2,)
        Where bone 0 starts, px (y down).
    angles : array_like, shape (n,)
        Bone 0's absolute angle and every other bone's relative to its parent, rad.
    lengths : array_like, shape (n,)
        Bone lengths, px, each > 0.
    bone : int
        The bone to turn, ``0 <= bone < n``.
    point : array_like, shape (2,)
        The point it should point at, px.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` rad per angle, ``-pi <= lo <= hi <= pi``: the bone's own range (the others are not
        looked at). Where the direction lies outside it the angle stops on the bound nearer round the
        circle (:func:`~.validate.clamp_heading`), pointing as near the point as the range allows.
    parents : array_like of int, shape (n,), optional
        A skeleton's tree (:func:`~.skeleton_tree.tree_parents`: ``parents[0] == -1``, ``0 <= parents[i]
        < i``); None means a chain (``[-1, 0, 1, ..., n - 2]``).

    Returns
    -------
    ndarray, shape (n,)
        A new array: the angles as given, but ``bone``'s (rad, wrapped to (-pi, pi]). Its children keep
        their relative angles, so they follow it. A point on the bone's start gives it no direction: the
        angles come back unchanged.

    Raises
    ------
    ValueError
        Naming the argument: a wrong shape, values not finite real numbers, a length <= 0, bad limits or
        parents, or ``bone`` not a whole number in ``[0, n)``.

    Examples
    --------
    >>> look_at((0, 0), [0.0, 0.0], [10, 10], 1, (10, 10)).round(6).tolist()
    [0.0, 1.570796]
    """
    rx, ry = checked_point(root, "root")
    lens = lengths_list(lengths)
    n = len(lens)
    chain_extent(rx, ry, sum(lens))
    a = float_list(angles, "angles")
    if len(a) != n:
        raise ValueError(f"angles: expected {n} angles (one per bone), got {len(a)}")
    tree = chain_parents(n) if parents is None else tree_parents(parents, n)
    lim = limits_list(limits, n)
    index = -1 if isinstance(bone, (bool, np.bool_)) or not isinstance(bone, numbers.Integral) else int(bone)
    if not 0 <= index < n:
        raise ValueError(f"bone: must be a whole number from 0 to {n - 1}, got {bone!r}")
    bone = index
    px, py = checked_point(point, "point")
    out = np.array(a, dtype=np.float64)
    parent = tree[bone]
    # the bone's start and its parent bone's absolute direction (0 for bone 0, whose angle is absolute)
    sx, sy, base = rx, ry, 0.0
    if parent >= 0:
        w = [v if -math.pi < v <= math.pi else wrap(v) for v in a]  # (the same directions; no sum overflows)
        xs, ys = tree_xy(tree, rx, ry, w, lens)
        sx, sy, base = xs[parent], ys[parent], absolute_angles(tree, w)[parent]
    dx, dy = px - sx, py - sy
    if not (dx or dy):
        return out
    turn = wrap(math.atan2(dy, dx) - base)
    out[bone] = turn if lim is None else clamp_heading(turn, *lim[bone])
    return out

