"""The numba kernels that pose chains without solving, one chain a row: :mod:`.settle`'s rate limit (pygame CCD
tutorial), forward kinematics and tip error, and the snake's follow-the-leader (Flash snake tutorial).

Each does its numpy engine's operations on floats in the same order (:func:`.settle.rate_limited`,
:func:`.kinematics.chain_points_batch`, :func:`.batched.snake_batch`), so its numbers equal numpy's to rounding (the
C library's trigonometry against numpy's, which differ in the last bit on CPUs with AVX-512). Pixels (y down),
radians.
"""

from __future__ import annotations

import math

import numba

from .validate import FULL_CIRCLE, TAU

PI = math.pi


@numba.njit(cache=True, inline="always")
def _wrap(a):
    """:func:`.validate.wrap_array` for one angle."""
    w = min(a - TAU * math.ceil((a - PI) / TAU), PI)
    return w + TAU if w <= -PI else w


@numba.njit(cache=True, parallel=True, nogil=True)
def settle_rows(angles, desired, rate, limits, roots, lengths, targets, points, error):
    """Rate-limit ``angles`` (N, n) toward ``desired`` in place, pose ``points`` (N, n + 1, 2), fill ``error`` (N,)."""
    count, n = angles.shape
    for k in numba.prange(count):
        r = rate[k]
        rx, ry = roots[k, 0], roots[k, 1]
        points[k, 0, 0] = rx
        points[k, 0, 1] = ry
        absolute = 0.0
        sx = 0.0
        sy = 0.0
        for i in range(n):
            lo, hi = limits[k, i, 0], limits[k, i, 1]
            full = not hi - lo < FULL_CIRCLE
            now = angles[k, i]
            diff = desired[k, i] - now
            if full:
                diff = _wrap(diff)
            moved = now + min(max(diff, -r), r)
            if full:
                moved = min(max(_wrap(moved), lo), hi)
            angles[k, i] = moved
            absolute += moved
            sx += lengths[k, i] * math.cos(absolute)
            sy += lengths[k, i] * math.sin(absolute)
            points[k, i + 1, 0] = sx + rx
            points[k, i + 1, 1] = sy + ry
        error[k] = math.hypot(targets[k, 0] - points[k, n, 0], targets[k, 1] - points[k, n, 1])


@numba.njit(cache=True, parallel=True, nogil=True)
def tip_error_rows(roots, angles, lengths, targets, out):
    """Each chain's end effector's distance to its target into ``out`` (N,), px."""
    count, n = angles.shape
    for k in numba.prange(count):
        absolute = 0.0
        sx = 0.0
        sy = 0.0
        for i in range(n):
            absolute += angles[k, i]
            sx += lengths[k, i] * math.cos(absolute)
            sy += lengths[k, i] * math.sin(absolute)
        out[k] = math.hypot(targets[k, 0] - (sx + roots[k, 0]), targets[k, 1] - (sy + roots[k, 1]))


@numba.njit(cache=True, parallel=True, nogil=True)
def snake_rows(points, heads, lengths, lo, hi, out):
    """:func:`.batched.snake_batch` (the Flash snake tutorial's follow-the-leader) into ``out`` (N, n + 1, 2)."""
    count, m, _ = points.shape
    for k in numba.prange(count):
        x, y = heads[k, 0], heads[k, 1]
        out[k, 0, 0] = x
        out[k, 0, 1] = y
        prev = 0.0
        for j in range(m - 1):
            dx = points[k, j + 1, 0] - x
            dy = points[k, j + 1, 1] - y
            moved = dx != 0 or dy != 0
            ang = math.atan2(dy, dx)
            if j == 0:
                if not moved:
                    ang = math.atan2(points[k, 1, 1] - points[k, 0, 1], points[k, 1, 0] - points[k, 0, 0])
            else:
                if not moved:
                    ang = prev
                bend = (ang - prev + PI) % TAU - PI
                ang = prev + min(max(bend, lo[k]), hi[k])
            x = x + lengths[k, j] * math.cos(ang)
            y = y + lengths[k, j] * math.sin(ang)
            out[k, j + 1, 0] = x
            out[k, j + 1, 1] = y
            prev = ang
