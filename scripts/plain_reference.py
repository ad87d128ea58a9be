"""Straightforward plain-Python versions of the solvers, for benchmarks only.

Each is what a person would write from the tutorials (docs/sources.md) with floats and the math
module: no numpy, no validation, no joint limits. They are the yardstick the
project's solvers are timed against (scripts/bench_solvers.py, scripts/bench.py).
"""

from __future__ import annotations

import math

import numpy as np


def two_bone(rx, ry, tx, ty, l1, l2, bend=1.0):
    """Seed 002's formula on floats: returns (knee, end) as tuples."""
    dx, dy = tx - rx, ty - ry
    r = min(max(math.hypot(dx, dy), abs(l1 - l2)), l1 + l2)
    phi = math.atan2(dy, dx)
    psi = math.acos(min(1.0, max(-1.0, (r * r + l1 * l1 - l2 * l2) / (2 * l1 * r)))) if r > 0 else 0.0
    gamma = math.acos(min(1.0, max(-1.0, (l1 * l1 + l2 * l2 - r * r) / (2 * l1 * l2))))
    t1 = phi - bend * psi
    t2 = bend * (math.pi - gamma)
    knee = (rx + l1 * math.cos(t1), ry + l1 * math.sin(t1))
    end = (knee[0] + l2 * math.cos(t1 + t2), knee[1] + l2 * math.sin(t1 + t2))
    return knee, end


def two_bone_arrays_out(rx, ry, tx, ty, l1, l2, bend=1.0):
    """:func:`two_bone`, returning knee and end as numpy arrays as the library does.

    The library's single-chain call pays about 0.7 us for its ndarray outputs and
    result tuple; this variant pays the same, so the two can be compared on the
    arithmetic alone.
    """
    knee, end = two_bone(rx, ry, tx, ty, l1, l2, bend)
    return np.array(knee), np.array(end)


def fk(rx, ry, angles, lengths):
    pts = [(rx, ry)]
    a = 0.0
    for ang, length in zip(angles, lengths):
        a += ang
        x, y = pts[-1]
        pts.append((x + length * math.cos(a), y + length * math.sin(a)))
    return pts


def ccd(rx, ry, angles, lengths, tx, ty, iterations=10, tolerance=0.5):
    """Seed 003's CCD: sweeps from the tip, rotating the end point about each joint."""
    angles = list(angles)
    for _ in range(iterations):
        pts = fk(rx, ry, angles, lengths)
        ex, ey = pts[-1]
        if math.hypot(tx - ex, ty - ey) <= tolerance:
            break
        for i in range(len(angles) - 1, -1, -1):
            px, py = pts[i]
            delta = math.atan2(ty - py, tx - px) - math.atan2(ey - py, ex - px)
            delta = (delta + math.pi) % (2 * math.pi) - math.pi
            angles[i] += delta
            c, s = math.cos(delta), math.sin(delta)
            vx, vy = ex - px, ey - py
            ex, ey = px + c * vx - s * vy, py + s * vx + c * vy
    return angles


def fabrik(rx, ry, angles, lengths, tx, ty, iterations=10, tolerance=0.5):
    """FABRIK on point lists (Aristidou & Lasenby 2011), angles read back at the end."""
    pts = [list(p) for p in fk(rx, ry, angles, lengths)]
    n = len(lengths)
    for _ in range(iterations):
        if math.hypot(tx - pts[-1][0], ty - pts[-1][1]) <= tolerance:
            break
        pts[-1] = [tx, ty]
        for i in range(n - 1, -1, -1):
            dx, dy = pts[i][0] - pts[i + 1][0], pts[i][1] - pts[i + 1][1]
            d = math.hypot(dx, dy) or 1.0
            pts[i] = [pts[i + 1][0] + dx * lengths[i] / d, pts[i + 1][1] + dy * lengths[i] / d]
        pts[0] = [rx, ry]
        for i in range(n):
            dx, dy = pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]
            d = math.hypot(dx, dy) or 1.0
            pts[i + 1] = [pts[i][0] + dx * lengths[i] / d, pts[i][1] + dy * lengths[i] / d]
    out, parent = [], 0.0
    for i in range(n):
        a = math.atan2(pts[i + 1][1] - pts[i][1], pts[i + 1][0] - pts[i][0])
        out.append(a - parent)
        parent = a
    return out


def dls(rx, ry, angles, lengths, tx, ty, iterations=10, tolerance=0.5, damping=0.5):
    """Damped least squares (Wampler 1986; Buss 2004) as a textbook step: J^T (J J^T + lambda^2 I)^-1 e,
    lambda = damping * |e|, the 2 x 2 inverse written out; no step control."""
    angles = list(angles)
    n = len(angles)
    for _ in range(iterations):
        pts = fk(rx, ry, angles, lengths)
        ex, ey = pts[-1]
        vx, vy = tx - ex, ty - ey
        err = math.hypot(vx, vy)
        if err <= tolerance:
            break
        jx = [-(ey - pts[i][1]) for i in range(n)]
        jy = [ex - pts[i][0] for i in range(n)]
        lam2 = (damping * err) ** 2
        a11 = sum(p * p for p in jx) + lam2
        a22 = sum(q * q for q in jy) + lam2
        a12 = sum(p * q for p, q in zip(jx, jy))
        det = a11 * a22 - a12 * a12
        wx, wy = (a22 * vx - a12 * vy) / det, (a11 * vy - a12 * vx) / det
        angles = [a + jx[i] * wx + jy[i] * wy for i, a in enumerate(angles)]
    return angles


def snake(points, hx, hy, lengths, lo, hi):
    """Seed 004's follow-the-leader with a bend range, on tuples."""
    out = [(hx, hy)]
    prev = None
    for k, length in enumerate(lengths):
        x, y = out[-1]
        a = math.atan2(points[k + 1][1] - y, points[k + 1][0] - x)
        if prev is not None:
            bend = (a - prev + math.pi) % (2 * math.pi) - math.pi
            a = prev + min(max(bend, lo), hi)
        out.append((x + length * math.cos(a), y + length * math.sin(a)))
        prev = a
    return out
