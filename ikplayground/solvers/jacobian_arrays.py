""":mod:`.jacobian_steps` over a batch: each method's step and the rest pose's null-space term, operation for
operation the single call's, so that each row rounds as it does.

Buss 2004 (transpose, pseudo-inverse, damped least squares), Buss & Kim 2005 (selectively damped least squares),
Liegeois 1977 (the rest pose's null-space term); DLS's step (:func:`dls_step`). Each joint's values are an array
of shape (N,); ``jx``, ``jy`` and ``d`` are lists of ``n`` of them. No validation: float64. Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numpy as np

from .dls import MAX_STEP
from .jacobian_steps import DLS, PSEUDO_INVERSE, SDLS, SDLS_GAMMA, SINGULAR, TRANSPOSE, TRUNCATE
from .validate import FULL_CIRCLE



def sums(jx: list, jy: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``J J^T``'s entries ``(sxx, syy, sxy)`` (N,), summed over the joints in order."""
    sxx = syy = sxy = np.zeros(len(jx[0]))
    for p, q in zip(jx, jy):
        sxx = sxx + p * p
        syy = syy + q * q
        sxy = sxy + p * q
    return sxx, syy, sxy


def eigen(sxx, syy, sxy):
    """:func:`.jacobian_steps.eigen` over arrays: ``(l1, l2, c, s)``."""
    phi = 0.5 * np.arctan2(2.0 * sxy, sxx - syy)
    c = np.cos(phi)
    s = np.sin(phi)
    l1 = sxx * c * c + 2.0 * sxy * c * s + syy * s * s
    l2 = sxx * s * s - 2.0 * sxy * c * s + syy * c * c
    return np.maximum(l1, 0.0), np.maximum(l2, 0.0), c, s


def inverse_times(sxx, syy, sxy, ux, uy, cut):
    """:func:`.jacobian_steps.inverse_times` over arrays: ``(J J^T)^+ u`` as ``(wx, wy)``."""
    l1, l2, c, s = eigen(sxx, syy, sxy)
    ok = (l1 > 0.0) & (l1 < np.inf)
    second = ok & (l2 > cut * l1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.where(ok, (c * ux + s * uy) / np.where(ok, l1, 1.0), 0.0)
        q = np.where(second, (c * uy - s * ux) / np.where(second, l2, 1.0), 0.0)
    wx = p * c
    wy = p * s
    wx = np.where(second, wx - q * s, wx)
    wy = np.where(second, wy + q * c, wy)
    return wx, wy


def capped(d: list, largest: np.ndarray) -> list:
    """:func:`.jacobian_steps.capped` over arrays: ``d`` with no turn past ``MAX_STEP`` (a new list)."""
    big = largest > MAX_STEP
    if not big.any():
        return d
    over = np.where(big, largest, 1.0)
    return [np.where(big, v * MAX_STEP / over, v) for v in d]


def largest_of(d: list) -> np.ndarray:
    """The largest turn of each row of ``d`` (N,)."""
    top = np.zeros(len(d[0]))
    for v in d:
        top = np.maximum(top, np.abs(v))
    return top


def method_turns(method: int, jx: list, jy: list, ux, uy, lam2, shrink, dls_step) -> tuple[list, np.ndarray]:
    """:func:`.jacobian_steps.method_turns` over arrays, ``J J^T`` summed here: ``(d, largest)``, ``d`` capped and
    ``largest`` its largest turn before the cap. ``dls_step(jx, jy, ux, uy, lam2)`` is DLS's."""
    if method == DLS:
        d = dls_step(jx, jy, ux, uy, lam2)
        return d, largest_of(d)  # (equal to the uncapped largest wherever either is under MAX_STEP)
    if method == TRANSPOSE:
        return transpose_turns(jx, jy, ux, uy, shrink)
    sxx, syy, sxy = sums(jx, jy)
    if method == SDLS:
        return sdls_turns(jx, jy, sxx, syy, sxy, ux, uy, shrink)
    assert method == PSEUDO_INVERSE
    wx, wy = inverse_times(sxx, syy, sxy, ux, uy, TRUNCATE)
    wx = wx * shrink
    wy = wy * shrink
    d = [p * wx + q * wy for p, q in zip(jx, jy)]
    largest = largest_of(d)
    return capped(d, largest), largest


def transpose_turns(jx: list, jy: list, ux, uy, shrink) -> tuple[list, np.ndarray]:
    """:func:`.jacobian_steps.transpose_turns` over arrays: ``(d, largest)``."""
    count = len(ux)
    ww = vx = vy = np.zeros(count)
    w = []
    for p, q in zip(jx, jy):
        v = p * ux + q * uy
        w.append(v)
        ww = ww + v * v
        vx = vx + p * v
        vy = vy + q * v
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        vv = vx * vx + vy * vy
        ok = (vv > 0.0) & (vv < np.inf)
        alpha = np.where(ok, ww / np.where(ok, vv, 1.0) * shrink, 0.0)
    d = [alpha * v for v in w]
    largest = largest_of(d)
    return capped(d, largest), largest


def sdls_turns(jx: list, jy: list, sxx, syy, sxy, ux, uy, shrink) -> tuple[list, np.ndarray]:
    """:func:`.jacobian_steps.sdls_turns` over arrays: ``(d, largest)``."""
    n = len(jx)
    count = len(ux)
    d = [np.zeros(count) for _ in range(n)]
    l1, l2, c, s = eigen(sxx, syy, sxy)
    ok = (l1 > 0.0) & (l1 < np.inf)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _sdls(jx, jy, ux, uy, shrink, d, l1, l2, c, s, ok)


def _sdls(jx, jy, ux, uy, shrink, d, l1, l2, c, s, ok):
    n = len(jx)
    count = len(ux)
    for k in range(2):
        lam, ex, ey = (l1, c, s) if k == 0 else (l2, -s, c)
        use = ok if k == 0 else ok & (lam > SINGULAR * l1)
        if not use.any():
            break
        sigma = np.sqrt(np.where(use, lam, 1.0))
        alpha = (ex * ux + ey * uy) / sigma
        m = np.zeros(count)
        top = np.zeros(count)
        v = [(jx[i] * ex + jy[i] * ey) / sigma for i in range(n)]
        for i in range(n):
            m = m + np.abs(v[i]) * np.sqrt(jx[i] * jx[i] + jy[i] * jy[i])
            top = np.maximum(top, np.abs(alpha * v[i]))
        m = m / sigma
        gamma = np.where(m <= 1.0, SDLS_GAMMA, SDLS_GAMMA / np.where(m <= 1.0, 1.0, m))
        fits = top <= gamma
        scale = np.where(fits, alpha, alpha * gamma / np.where(fits, 1.0, top))
        for i in range(n):
            d[i] = np.where(use, d[i] + scale * v[i], d[i])
    largest = largest_of(d)
    big = largest > SDLS_GAMMA
    if big.any():
        over = np.where(big, largest, 1.0)
        d = [np.where(big, v * SDLS_GAMMA / over, v) for v in d]
        largest = np.where(big, SDLS_GAMMA, largest)
    d = [v * shrink for v in d]
    largest = largest * shrink
    return capped(d, largest), largest


def projected(jx: list, jy: list, z: list) -> tuple[list, np.ndarray]:
    """:func:`.jacobian_steps.projected` over arrays: ``((I - J^+ J) z, its largest turn)``."""
    sxx = syy = sxy = px = py = np.zeros(len(z[0]))
    for p, q, v in zip(jx, jy, z):
        sxx = sxx + p * p
        syy = syy + q * q
        sxy = sxy + p * q
        px = px + p * v
        py = py + q * v
    wx, wy = inverse_times(sxx, syy, sxy, px, py, SINGULAR)
    out = [v - (p * wx + q * wy) for p, q, v in zip(jx, jy, z)]
    return out, largest_of(out)


def rest_pull(a: np.ndarray, rest: np.ndarray, weight, lo, hi) -> list:
    """:func:`.jacobian_steps.rest_pull` over arrays (``a``, ``rest``, ``lo``, ``hi`` (N, n)): ``z``, a list."""
    out = []
    tau = 2.0 * math.pi
    for i in range(a.shape[1]):
        v = rest[:, i] - a[:, i]
        wrapped = np.where(v > math.pi, v - tau, np.where(v <= -math.pi, v + tau, v))
        out.append(weight * np.where(hi[:, i] - lo[:, i] >= FULL_CIRCLE, wrapped, v))
    return out


def dls_step(jx: list, jy: list, ux: np.ndarray, uy: np.ndarray, lam2: np.ndarray) -> list:
    """:func:`.dls.dls_step` over a batch: the ``n`` joint turns, each an array of shape (N,)."""
    n = len(jx)
    sxx = syy = sxy = np.zeros(len(ux))
    for i in range(n):
        p = jx[i]
        q = jy[i]
        sxx = sxx + p * p
        syy = syy + q * q
        sxy = sxy + p * q
    with np.errstate(over="ignore", invalid="ignore"):
        a11 = sxx + lam2
        a22 = syy + lam2
        det = a11 * a22 - sxy * sxy
        ok = (det > 0.0) & (det < np.inf)
    safe = np.where(ok, det, 1.0)
    a11 = np.where(ok, a11, 0.0)
    a22 = np.where(ok, a22, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):  # as the single call's floats: inf, no warning
        wx = np.where(ok, (a22 * ux - sxy * uy) / safe, 0.0)
        wy = np.where(ok, (a11 * uy - sxy * ux) / safe, 0.0)
        d = [jx[i] * wx + jy[i] * wy for i in range(n)]
        largest = np.zeros(len(ux))
        for v in d:
            largest = np.maximum(largest, np.abs(v))
        big = largest > MAX_STEP
        if big.any():
            over = np.where(big, largest, 1.0)
            d = [np.where(big, v * MAX_STEP / over, v) for v in d]
    return d
