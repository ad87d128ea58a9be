"""The numba kernels of secondary motion, one chain a row: :func:`.jiggle.jiggle_rows` (Jakobsen 2001; Mueller et
al., "Position Based Dynamics", 2007) and :func:`.rope.pin_ends`' FABRIK sweeps (Aristidou and Lasenby 2011).

Each does its numpy engine's operations on floats in the same order, so its numbers are numpy's to rounding (numpy's
vectorized sin, cos and arctan2 may differ from the C library's in the last bit). Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numba



@numba.njit(cache=True, nogil=True, inline="always")
def _jiggle_row(k, points, previous, lengths, root, root_angle, rest, stiffness, damping, gravity, dt, limits,
                limited, out):
    """Row ``k`` of :func:`.jiggle.jiggle_rows` into ``out`` (N, n + 1, 2); ``limits`` read only when ``limited``."""
    n = lengths.shape[1]
    g = dt * dt
    out[k, 0, 0] = root[k, 0]
    out[k, 0, 1] = root[k, 1]
    keep = 1.0 - damping[k]
    for j in range(1, n + 1):
        for c in range(2):
            p = points[k, j, c]
            out[k, j, c] = p + keep * (p - previous[k, j, c]) + gravity[k, c] * g
    s = stiffness[k]
    ux = math.cos(root_angle[k])  # the direction bone i's relative angle is measured from
    uy = math.sin(root_angle[k])
    for i in range(n):
        bx = out[k, i, 0]
        by = out[k, i, 1]
        length = lengths[k, i]
        cos_rest = math.cos(rest[k, i])
        sin_rest = math.sin(rest[k, i])
        rx = ux * cos_rest - uy * sin_rest
        ry = ux * sin_rest + uy * cos_rest
        dx = (1.0 - s) * (out[k, i + 1, 0] - bx) + s * length * rx
        dy = (1.0 - s) * (out[k, i + 1, 1] - by) + s * length * ry
        dist = math.sqrt(dx * dx + dy * dy)
        if dist > 1e-12:
            dx = dx / dist
            dy = dy / dist
        else:
            dx = rx
            dy = ry
        if limited:
            relative = math.atan2(ux * dy - uy * dx, ux * dx + uy * dy)
            lo = limits[k, i, 0]
            hi = limits[k, i, 1]
            if relative < lo or relative > hi:
                clamped = min(max(relative, lo), hi)
                c = math.cos(clamped)
                sn = math.sin(clamped)
                dx = ux * c - uy * sn
                dy = ux * sn + uy * c
        out[k, i + 1, 0] = bx + length * dx
        out[k, i + 1, 1] = by + length * dy
        ux = dx
        uy = dy


@numba.njit(cache=True, inline="always")
def _along(points, k, frm, to, length):
    """Joint ``to`` of row ``k`` put ``length`` px from joint ``frm`` toward where it was (:func:`.rope._along`)."""
    dx = points[k, to, 0] - points[k, frm, 0]
    dy = points[k, to, 1] - points[k, frm, 1]
    dist = math.sqrt(dx * dx + dy * dy)
    if not dist > 1e-12:
        dx, dy, dist = 0.0, 1.0, 1.0
    scale = length / dist
    points[k, to, 0] = dx * scale + points[k, frm, 0]
    points[k, to, 1] = dy * scale + points[k, frm, 1]


@numba.njit(cache=True, nogil=True, inline="always")
def _pin_row(k, points, root, target, lengths, passes, tolerance):
    """Row ``k`` of :func:`.rope.pin_ends` on ``points`` (N, n + 1, 2), in place."""
    n = lengths.shape[1]
    for _ in range(passes):
        points[k, n, 0] = target[k, 0]
        points[k, n, 1] = target[k, 1]
        for i in range(n - 1, -1, -1):
            _along(points, k, i + 1, i, lengths[k, i])
        points[k, 0, 0] = root[k, 0]
        points[k, 0, 1] = root[k, 1]
        for i in range(n):
            _along(points, k, i, i + 1, lengths[k, i])
        gx = points[k, n, 0] - target[k, 0]
        gy = points[k, n, 1] - target[k, 1]
        if not gx * gx + gy * gy > tolerance * tolerance:
            break


# Each twice: over the threads for a crowd, on the calling thread for a few rows (waking the threads costs more).
# Two functions of their own, not one function compiled twice: numba's cache knows a function by its name and line,
# not by its options, so the serial and parallel builds of one function would load each other's machine code.
@numba.njit(cache=True, parallel=True, nogil=True)
def jiggle_kernel(points, previous, lengths, root, root_angle, rest, stiffness, damping, gravity, dt, limits,
                  limited, out):
    """:func:`.jiggle.jiggle_rows` into ``out`` (N, n + 1, 2), a row a thread at a time."""
    for k in numba.prange(lengths.shape[0]):
        _jiggle_row(k, points, previous, lengths, root, root_angle, rest, stiffness, damping, gravity, dt, limits,
                    limited, out)


@numba.njit(cache=True, nogil=True)
def jiggle_serial(points, previous, lengths, root, root_angle, rest, stiffness, damping, gravity, dt, limits,
                  limited, out):
    """:func:`jiggle_kernel` on the calling thread."""
    for k in range(lengths.shape[0]):
        _jiggle_row(k, points, previous, lengths, root, root_angle, rest, stiffness, damping, gravity, dt, limits,
                    limited, out)


@numba.njit(cache=True, parallel=True, nogil=True)
def pin_kernel(points, root, target, lengths, passes, tolerance):
    """:func:`.rope.pin_ends` on ``points`` (N, n + 1, 2), in place, a row a thread at a time."""
    for k in numba.prange(lengths.shape[0]):
        _pin_row(k, points, root, target, lengths, passes, tolerance)


@numba.njit(cache=True, nogil=True)
def pin_serial(points, root, target, lengths, passes, tolerance):
    """:func:`pin_kernel` on the calling thread."""
    for k in range(lengths.shape[0]):
        _pin_row(k, points, root, target, lengths, passes, tolerance)
