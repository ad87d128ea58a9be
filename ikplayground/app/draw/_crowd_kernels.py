"""The numba kernels behind :mod:`.crowd_fast`: the crowd of :mod:`.crowd_draw` drawn pixel by pixel.

Each does what its numpy counterpart in :mod:`.crowd_draw` does, float operation for float operation, so the
palette-index buffers come out identical: bones sampled as :func:`.crowd_draw.bone_samples` (DDA line drawing,
Liang-Barsky clipping), widened by maximum filters as ``dilate_square`` / ``dilate_cross``, shapes set as
:func:`.crowd_draw.stamp`; sprites blended as pygame-ce's alpha blit does (``d + (((s - d) * a + s) >> 8)`` per
channel). Index buffers are (h, w) px, y down; a surface's pixels (W, H).
"""

from __future__ import annotations

import math

import numba
import numpy as np

RAGGED_SAMPLES = 16  # as crowd_draw
CLIP_OVER = 64
MOST_SAMPLES = 1 << 20  # a clipped bone sampled more often than this is a float mishap: left out
FLOAT_MAX = np.finfo(np.float64).max

@numba.njit(cache=True, nogil=True, inline="always")
def _put(x, y, v, w, h, thin):
    """Set the pixel nearest (x, y) px of ``thin`` (h, w) to ``v`` if it is on the stage."""
    xi = np.floor(x + 0.5)
    yi = np.floor(y + 0.5)
    if xi >= 0 and xi < w and yi >= 0 and yi < h:
        thin[int(yi), int(xi)] = v


@numba.njit(cache=True, nogil=True, inline="always")
def _finite(v):
    if v != v:
        return 0.0
    return min(max(v, -FLOAT_MAX), FLOAT_MAX)


@numba.njit(cache=True, nogil=True)
def _clip(ax, ay, dx, dy, w, h):
    """:func:`.crowd_draw.clip_segments` for one segment: ``(ax, ay, dx, dy)`` cut to [-1, w] x [-1, h]."""
    t0 = 0.0
    t1 = 1.0
    for axis in range(2):
        p = dx if axis == 0 else dy
        q = ax if axis == 0 else ay
        hi = w if axis == 0 else h
        for side in range(2):
            num = q + 1.0 if side == 0 else hi - q
            den = -p if side == 0 else p
            if den < 0:
                t0 = max(t0, num / den)
            elif den > 0:
                t1 = min(t1, num / den)
            elif num < 0:
                t1 = -1.0
    if not t0 <= t1:
        return -2.0, -2.0, 0.0, 0.0
    return ax + dx * t0, ay + dy * t0, dx * (t1 - t0), dy * (t1 - t0)


@numba.njit("void(float64[:, :, :], int64[:], int64, uint8[:, ::1])", cache=True, nogil=True)
def bones(points, colours, base, thin):
    """Every bone of ``points`` (N, K, 2) px into ``thin`` (h, w): chain i's samples set to ``colours[i] + base``."""
    n, k = points.shape[0], points.shape[1]
    h, w = thin.shape
    mx = 0.0
    my = 0.0
    for i in range(n):  # the longest step (np.abs(d).max(): NaN wins), each axis
        for b in range(k - 1):
            ex = abs(points[i, b + 1, 0] - points[i, b, 0])
            ey = abs(points[i, b + 1, 1] - points[i, b, 1])
            if not ex <= mx:
                mx = ex if mx == mx else mx
            if not ey <= my:
                my = ey if my == my else my
    most = my if my > mx else mx  # Python's max(mx, my)
    if most <= RAGGED_SAMPLES:
        s = max(int(math.ceil(most)), 1)
        ts = np.arange(s) / s
        for i in range(n):
            v = np.uint8(colours[i] + base)
            for b in range(k - 1):
                px, py = points[i, b, 0], points[i, b, 1]
                dx, dy = points[i, b + 1, 0] - px, points[i, b + 1, 1] - py
                for j in range(s):
                    _put(dx * ts[j] + px, dy * ts[j] + py, v, w, h, thin)
            _put(points[i, k - 1, 0], points[i, k - 1, 1], v, w, h, thin)
        return
    for i in range(n):
        v = np.uint8(colours[i] + base)
        for b in range(k - 1):
            ax, ay = points[i, b, 0], points[i, b, 1]
            dx, dy = points[i, b + 1, 0] - ax, points[i, b + 1, 1] - ay
            steps = max(abs(dx), abs(dy))
            if abs(dx) != abs(dx) or abs(dy) != abs(dy):
                steps = math.nan
            if not steps <= CLIP_OVER:
                ax, ay, dx, dy = _clip(_finite(ax), _finite(ay), _finite(dx), _finite(dy), w, h)
                steps = max(abs(dx), abs(dy))
                if not steps <= MOST_SAMPLES:
                    continue
            c = int(math.ceil(steps)) + 1
            last = max(c - 1, 1)
            for j in range(c):
                t = j / last
                _put(ax + dx * t, ay + dy * t, v, w, h, thin)


@numba.njit("void(uint8[:, ::1], uint8[:, ::1], uint8[:, ::1])", cache=True, nogil=True, parallel=True)
def square(src, tmp, out):
    """``out`` (h, w): the maximum of ``src`` over the 3x3 px square about each pixel (``tmp``: scratch).
    Whole-row expressions, which LLVM vectorizes; rows shared among the threads."""
    h, w = src.shape
    for y in numba.prange(h):
        s, t = src[y], tmp[y]
        for x in range(1, w - 1):
            t[x] = max(max(s[x - 1], s[x]), s[x + 1])
        t[0] = max(s[0], s[min(1, w - 1)])
        t[w - 1] = max(s[max(w - 2, 0)], s[w - 1])
    for y in numba.prange(h):
        o = out[y]
        a, b, c = tmp[max(y - 1, 0)], tmp[y], tmp[min(y + 1, h - 1)]
        for x in range(w):
            o[x] = max(max(a[x], b[x]), c[x])


@numba.njit("void(uint8[:, ::1], uint8[:, ::1])", cache=True, nogil=True)
def cross(src, out):
    """``out`` (h, w): the maximum of ``src`` over each pixel and its four neighbours."""
    h, w = src.shape
    for y in range(h):
        o, s = out[y], src[y]
        a, c = src[max(y - 1, 0)], src[min(y + 1, h - 1)]
        for x in range(1, w - 1):
            o[x] = max(max(max(s[x - 1], s[x]), max(s[x + 1], a[x])), c[x])
        for x in (0, w - 1):
            if 0 <= x < w:
                o[x] = max(max(s[max(x - 1, 0)], s[x]), max(max(s[min(x + 1, w - 1)], a[x]), c[x]))


@numba.njit("void(uint8[:, ::1], uint8[:, ::1])", cache=True, nogil=True)
def overlay(top, out):
    """``top`` over ``out`` where it is set (as ``np.copyto(out, top, where=top != 0)``)."""
    h, w = top.shape
    for y in range(h):
        t, o = top[y], out[y]
        for x in range(w):
            v = t[x]
            o[x] = v | (o[x] & np.uint8(0 - np.uint8(v == 0)))  # (a select LLVM vectorizes)


@numba.njit("void(uint8[:, ::1], float64[:, :, :], int64[:], int64, int64, int64[:, :])", cache=True, nogil=True)
def stamp(out, at, colours, base, per_chain, offsets):
    """:func:`.crowd_draw.stamp` of ``offsets`` (S, 2) about every point of ``at`` (N, J, 2) px, chain i's
    set to ``base + per_chain * colours[i]``: the shapes not wholly on the stage first, then the others."""
    h, w = out.shape
    flat = out.reshape(-1)
    r = 0
    line = np.empty(offsets.shape[0], np.int64)  # each offset's place after the centre's
    for o in range(offsets.shape[0]):
        r = max(r, abs(offsets[o, 0]), abs(offsets[o, 1]))
        line[o] = offsets[o, 1] * w + offsets[o, 0]
    for whole in range(2):
        for i in range(at.shape[0]):
            v = np.uint8(base + per_chain * colours[i])
            for j in range(at.shape[1]):
                cx = np.floor(at[i, j, 0] + 0.5)
                cy = np.floor(at[i, j, 1] + 0.5)
                inner = cx >= r and cx < w - r and cy >= r and cy < h - r
                if inner != (whole == 1) or not (cx == cx and cy == cy) or abs(cx) > 1e9 or abs(cy) > 1e9:
                    continue
                if inner:
                    c = int(cy) * w + int(cx)
                    for o in range(line.shape[0]):
                        flat[c + line[o]] = v
                    continue
                for o in range(offsets.shape[0]):
                    xx = int(cx) + offsets[o, 0]
                    yy = int(cy) + offsets[o, 1]
                    if xx >= 0 and xx < w and yy >= 0 and yy < h:
                        out[np.uint64(yy), np.uint64(xx)] = v


@numba.njit("void(uint8[:, ::1], uint32[::1], int64, uint32[::1], int64[::1])", cache=True, nogil=True,
            parallel=True)
def show(index, screen, pitch, table, clip):
    """The set pixels of ``index`` (h, w) onto ``screen`` (rows of ``pitch`` pixels) as ``table[index]``, inside
    ``clip`` (x0, y0, x1, y1) px; rows shared among the threads."""
    h, w = index.shape
    x0, x1 = max(clip[0], 0), min(clip[2], w)
    for y in numba.prange(max(clip[1], 0), min(clip[3], h)):
        row = index[y, x0:x1]
        line = screen[y * pitch + x0:y * pitch + x1]
        for x in range(x1 - x0):
            v = row[x]
            line[x] = table[v] if v != 0 else line[x]  # (a select: LLVM vectorizes it, gathers and all)


@numba.njit("void(uint32[::1], int64, float64[:, ::1], int64, int64[:, ::1], int64[:, ::1], int64[::1], int64[::1])",
            cache=True, nogil=True)
def blend(screen, pitch, at, half, offsets, rgba, clip, shifts):
    """A sprite (its pixels ``offsets`` (S, 2) of colour ``rgba`` (S, 4)) with its corner at each of ``at``
    (M, 2) px less ``half`` onto ``screen`` (rows of ``pitch`` pixels), as pygame-ce's blit of a per-pixel
    alpha surface: positions cut to whole pixels toward zero, blended in order, inside ``clip`` (x0, y0, x1, y1)
    px; ``shifts`` of red, green and blue."""
    s0, s1, s2 = shifts[0], shifts[1], shifts[2]
    n = offsets.shape[0]
    lo_x, lo_y, hi_x, hi_y = 0, 0, 0, 0
    line = np.empty(n, np.int64)  # each pixel's place after the corner's
    solid = np.empty(n, np.uint32)  # an opaque pixel's value (d + (((s - d) * 255 + s) >> 8) is s)
    # a translucent one: d + (((s - d) * a + s) >> 8) == (d * (256 - a) + s * (a + 1)) >> 8
    keep = np.empty(n, np.int64)
    add = np.empty((n, 3), np.int64)
    for s in range(n):
        lo_x, hi_x = min(lo_x, offsets[s, 0]), max(hi_x, offsets[s, 0])
        lo_y, hi_y = min(lo_y, offsets[s, 1]), max(hi_y, offsets[s, 1])
        line[s] = offsets[s, 1] * pitch + offsets[s, 0]
        a = rgba[s, 3]
        keep[s] = 256 - a
        for c in range(3):
            add[s, c] = rgba[s, c] * (a + 1)
        solid[s] = np.uint32((rgba[s, 0] << s0) | (rgba[s, 1] << s1) | (rgba[s, 2] << s2)) if a == 255 else 0
    for m in range(at.shape[0]):
        fx = at[m, 0] - half
        fy = at[m, 1] - half
        if not (fx > clip[0] - 1024.0 and fx < clip[2] + 1024.0 and fy > clip[1] - 1024.0 and fy < clip[3] + 1024.0):
            continue
        x0 = int(fx)
        y0 = int(fy)
        inside = x0 + lo_x >= clip[0] and x0 + hi_x < clip[2] and y0 + lo_y >= clip[1] and y0 + hi_y < clip[3]
        corner = y0 * pitch + x0
        for s in range(n):
            if not inside:
                x = x0 + offsets[s, 0]
                y = y0 + offsets[s, 1]
                if x < clip[0] or x >= clip[2] or y < clip[1] or y >= clip[3]:
                    continue
            q = np.uint64(corner + line[s])
            if solid[s] != 0:
                screen[q] = solid[s]
                continue
            d = np.int64(screen[q])
            k = keep[s]
            r = (((d >> s0) & 255) * k + add[s, 0]) >> 8
            g = (((d >> s1) & 255) * k + add[s, 1]) >> 8
            b = (((d >> s2) & 255) * k + add[s, 2]) >> 8
            screen[q] = np.uint32((r << s0) | (g << s1) | (b << s2))
