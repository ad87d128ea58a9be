"""Follow-the-leader for a constrained snake.

After the Flash snake tutorial (a constrained snake steered with the arrow keys): the head is
put where it is told; each following point is pulled toward where it was until
it sits exactly one segment length behind the point before it, and the bend at
every inner point is clamped to a range, so the body never folds tighter than
the range allows. The first segment turns freely.

With ``d_k = points[k+1] - points[k]`` (head toward tail), the bend at point k
(k >= 1) is the signed angle from ``d_(k-1)`` to ``d_k``, radians, y down.
"""

from __future__ import annotations

import math
from itertools import chain

import numpy as np

from ._validate import BOUND, chain_extent, float_array, lengths_list, point


def follow_snake(points, head, lengths, bend_limits) -> np.ndarray:
    """Move a snake's head and drag its body after it.

    Parameters
    ----------
    points : array_like, shape (n + 1, 2)
        Current node positions in pixels; ``points[0]`` is the head.
    head : array_like, shape (2,)
        New head position in pixels.
    lengths : array_like, shape (n,)
        Segment lengths in pixels, each > 0.
    bend_limits : (float, float)
        ``(lo, hi)`` range in radians for the bend at every inner node,
        ``-pi <= lo <= hi <= pi``.

    Returns
    -------
    ndarray, shape (n + 1, 2)
        New node positions (a new array; ``points`` is left as it was).

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers (booleans, complex
        numbers and strings are refused), non-finite, a length <= 0, a bad
        range, or points (or the head plus the snake's length) past
        ``+-1e300`` px.
    """
    pts = points_list(points)
    hx, hy = point(head, "head")
    lens = lengths_list(lengths)
    if len(lens) != len(pts) - 1:
        raise ValueError(f"lengths: expected {len(pts) - 1} lengths (one per segment), got {len(lens)}")
    chain_extent(hx, hy, sum(lens))
    lo, hi = point(bend_limits, "bend_limits")
    if lo > hi:
        raise ValueError(f"bend_limits: lo > hi ({lo} > {hi})")
    if lo < -math.pi - 1e-12 or hi > math.pi + 1e-12:
        raise ValueError(f"bend_limits: must lie in [-pi, pi], got ({lo}, {hi})")
    flat = snake_nodes(pts, hx, hy, lens, max(lo, -math.pi), min(hi, math.pi))
    return np.array(flat).reshape(-1, 2)


def points_list(value, name: str = "points") -> list[list[float]]:
    """Return an ``(m, 2)`` array of finite points (m >= 2) as nested lists."""
    if type(value) is np.ndarray and value.dtype == np.float64 and value.ndim == 2:
        pts = value.tolist()
    else:
        pts = float_array(value, name, ndim=2).tolist()
    if len(pts) < 2 or len(pts[0]) != 2:
        shape = np.shape(value)
        raise ValueError(f"{name}: expected shape (n + 1, 2) with n >= 1, got {shape}")
    if not sum(map(abs, chain.from_iterable(pts))) <= BOUND:  # something non-finite or large: look closer
        float_array(value, name)  # names the first non-finite entry
        largest = max(map(abs, chain.from_iterable(pts)))
        if largest > BOUND:
            raise ValueError(f"{name}: coordinates must lie within +-{BOUND:g} px, got {largest:g}")
    return pts


def snake_nodes(old, hx, hy, lens, lo, hi):
    """Plain-float follow-the-leader: the new nodes as a flat ``[x0, y0, x1, y1, ...]`` list."""
    atan2, cos, sin = math.atan2, math.cos, math.sin
    pi, tau = math.pi, 2.0 * math.pi
    out = [hx, hy]
    x, y = hx, hy
    prev = None
    for k, length in enumerate(lens):
        ox, oy = old[k + 1]
        dx = ox - x
        dy = oy - y
        if dx or dy:
            ang = atan2(dy, dx)
        elif prev is not None:
            ang = prev
        else:  # the head landed on the next node: keep the old first segment's direction
            ang = atan2(oy - old[k][1], ox - old[k][0])
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
    return out
