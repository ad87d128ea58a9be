"""Follow-the-leader for a constrained snake, after the Flash snake tutorial.

The head goes where it is told; each node follows one segment behind the one before, the bend at
every inner node (rad, y down; the first segment turns freely) clamped to a range.
"""

from __future__ import annotations

import math

import numpy as np

from .validate import (BOUND, FLOATS, SLACK, chain_extent, float_array, lengths_list, plain_list, plain_point,
                       point)

_ndarray = np.ndarray
_float64 = np.dtype(np.float64)
_fromiter = np.fromiter
_PI = math.pi


def follow_snake(points, head, lengths, bend_limits) -> np.ndarray:
    """Move a snake's head and drag its body after it.

    Parameters
    ----------
    points : array_like, shape (n + 1, 2)
        Current nodes, px (y down); ``points[0]`` is the head.
    head : array_like, shape (2,)
        New head position, px.
    lengths : array_like, shape (n,)
        Segment lengths, px, each > 0.
    bend_limits : (float, float)
        ``(lo, hi)`` rad for the bend at every inner node, ``-pi <= lo <= hi <= pi``.

    Returns
    -------
    ndarray, shape (n + 1, 2)
        New nodes (a new array).

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers, non-finite, a length <= 0, a bad range, or
        a snake past ``+-1e300`` px.
    """
    flat = _plain_snake(points, head, lengths, bend_limits)
    if flat is None:
        flat = _checked_snake(points, head, lengths, bend_limits)
    return _fromiter(flat, _float64, len(flat)).reshape(-1, 2)


def _checked_snake(points, head, lengths, bend_limits) -> list:
    """:func:`follow_snake`'s flat node list, every argument checked (raising what is wrong)."""
    pts = float_array(points, "points", ndim=2)
    if len(pts) < 2 or pts.shape[1] != 2:
        raise ValueError(f"points: expected shape (n + 1, 2) with n >= 1, got {pts.shape}")
    largest = np.abs(pts).max()
    if largest > BOUND:
        raise ValueError(f"points: coordinates must lie within +-{BOUND:g} px, got {largest:g}")
    hx, hy = point(head, "head")
    lens = lengths_list(lengths)
    if len(lens) != len(pts) - 1:
        raise ValueError(f"lengths: expected {len(pts) - 1} lengths (one per segment), got {len(lens)}")
    chain_extent(hx, hy, sum(lens))
    lo, hi = point(bend_limits, "bend_limits")
    if lo > hi:
        raise ValueError(f"bend_limits: lo > hi ({lo} > {hi})")
    if lo < -math.pi - SLACK or hi > math.pi + SLACK:
        raise ValueError(f"bend_limits: must lie in [-pi, pi], got ({lo}, {hi})")
    return snake_nodes(pts.ravel().tolist(), hx, hy, lens, max(lo, -math.pi), min(hi, math.pi))


def _plain_snake(points, head, lengths, bend_limits) -> list | None:
    """:func:`follow_snake`'s flat node list for the common call (real numbers as floats, numpy scalars or small
    float arrays: :func:`~.validate.plain_list`, all in range); else None."""
    old = _plain_nodes(points)
    head = plain_point(head)
    limits = plain_point(bend_limits)
    lens = plain_list(lengths)
    if old is None or head is None or limits is None or lens is None or len(old) < 4 or len(lens) != len(old) // 2 - 1:
        return None
    lo, hi = limits
    if not (-_PI - SLACK <= lo <= hi <= _PI + SLACK):
        return None
    hx, hy = head
    reach = sum(lens)
    # (the head and the reach under a tenth of BOUND: the snake cannot reach past it; False for NaN)
    h = BOUND / 10
    if not (-h < hx < h and -h < hy < h and reach < h and min(lens) > 0.0):
        return None
    return snake_nodes(old, hx, hy, lens, -_PI if -_PI > lo else lo, _PI if _PI < hi else hi)


def _plain_nodes(points) -> list | None:
    """An (m, 2) float array's or a sequence of :func:`~.validate.plain_point` points' coordinates, flat; else None."""
    if type(points) is _ndarray:
        if points.ndim == 2 and points.shape[1] == 2 and points.dtype in FLOATS:
            return points.ravel().tolist()
        return None
    if type(points) is not list and type(points) is not tuple:
        return None
    flat: list = []
    for p in points:
        xy = plain_point(p)
        if xy is None:
            return None
        flat += xy
    return flat


def snake_nodes(old, hx, hy, lens, lo, hi):
    """Plain-float follow-the-leader: the new nodes flat ``[x0, y0, x1, y1, ...]`` from the old ones flat.

    None where a node is not finite or lies past ``+-BOUND`` px (the checks then name it).
    """
    atan2, cos, sin = math.atan2, math.cos, math.sin
    pi, tau, b = math.pi, 2.0 * math.pi, BOUND
    qx, qy = old[0], old[1]  # the old node before the one pulled
    if not (-b <= qx <= b and -b <= qy <= b):
        return None
    out = [hx, hy]
    x, y = hx, hy
    prev = None
    for ox, oy, length in zip(old[2::2], old[3::2], lens):
        if not (-b <= ox <= b and -b <= oy <= b):  # (False for NaN)
            return None
        dx = ox - x
        dy = oy - y
        if dx or dy:
            ang = atan2(dy, dx)
        elif prev is not None:
            ang = prev
        else:  # the head landed on the next node: keep the old first segment's direction
            ang = atan2(oy - qy, ox - qx)
        if prev is not None:
            bend = (ang - prev + pi) % tau - pi
            if bend < lo:
                bend = lo
            elif bend > hi:
                bend = hi
            ang = prev + bend
        x += length * cos(ang)
        y += length * sin(ang)
        out.append(x)
        out.append(y)
        prev = ang
        qx = ox
        qy = oy
    return out
