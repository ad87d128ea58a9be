"""The numba kernels that pose chains without solving, one chain a row: :mod:`.settle`'s rate limit (pygame CCD
tutorial), forward kinematics and tip error, and the snake's follow-the-leader (Flash snake tutorial).

The settle and forward kinematics do their numpy engine's operations on floats in the same order
(:func:`.settle.rate_limited`, :func:`.kinematics.chain_points_batch`), so their numbers equal numpy's; the snake
(:func:`.batched.snake_batch`) turns unit vectors where numpy turns angles, the same points to rounding. Pixels
(y down), radians.
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


@numba.njit(cache=True, inline="always")
def _pseudo(c, s):
    """A number that orders angles in (-pi, pi] as they are ordered, from their cosine ``c`` and sine ``s``: the
    sine within +-pi/2 (as fine as the angle near 0), 2 - sine or -2 - sine past it."""
    if c >= 0.0:
        return s
    return 2.0 - s if s >= 0.0 else -2.0 - s


@numba.njit(cache=True, parallel=True, nogil=True)
def snake_rows(points, heads, lengths, lo, hi, out):
    """:func:`.batched.snake_batch` (the Flash snake tutorial's follow-the-leader) into ``out`` (N, n + 1, 2).

    Each segment's direction is carried as a unit vector, not an angle: its bend from the one before is read
    from their dot and cross products (:func:`_pseudo`), and a bend past a bound turns the one before by the
    bound's cosine and sine (worked out once a row). The same points as the angle loop, to rounding."""
    count, m, _ = points.shape
    for k in numba.prange(count):
        x, y = heads[k, 0], heads[k, 1]
        out[k, 0, 0] = x
        out[k, 0, 1] = y
        pux = puy = 0.0  # the segment before's direction
        clo, slo, chi, shi = math.cos(lo[k]), math.sin(lo[k]), math.cos(hi[k]), math.sin(hi[k])
        plo, phi = _pseudo(clo, slo), _pseudo(chi, shi)
        for j in range(m - 1):
            dx = points[k, j + 1, 0] - x
            dy = points[k, j + 1, 1] - y
            if j == 0 and dx == 0 and dy == 0:  # the head did not move off its first node: the old direction
                dx = points[k, 1, 0] - points[k, 0, 0]
                dy = points[k, 1, 1] - points[k, 0, 1]
            d = math.hypot(dx, dy)
            if d > 0.0:
                ux = dx / d
                uy = dy / d
            elif j == 0:
                ux, uy = 1.0, 0.0  # (atan2(0, 0))
            else:
                ux, uy = pux, puy  # did not move: no bend
            if j > 0:
                p = _pseudo(pux * ux + puy * uy, pux * uy - puy * ux)
                if p < plo:
                    ux, uy = pux * clo - puy * slo, puy * clo + pux * slo
                elif p > phi:
                    ux, uy = pux * chi - puy * shi, puy * chi + pux * shi
            x = x + lengths[k, j] * ux
            y = y + lengths[k, j] * uy
            out[k, j + 1, 0] = x
            out[k, j + 1, 1] = y
            pux, puy = ux, uy
