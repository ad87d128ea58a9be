"""One step of each Jacobian method and the rest pose's null-space term, on floats.

The methods (Buss 2004, "Introduction to inverse kinematics with Jacobian transpose, pseudoinverse and damped
least squares methods"; Buss & Kim 2005, "Selectively damped least squares for inverse kinematics") turn the
joints by ``d`` (rad) for the end effector's error ``u`` (2,) and its 2 x n Jacobian ``J`` (columns ``jx``,
``jy``), both scaled by one length (px) so that every entry is under 1 in size:

- transpose: ``d = alpha J^T u``, ``alpha = <u, J J^T u> / |J J^T u|^2 = |J^T u|^2 / |J J^T u|^2`` (Buss 2004,
  eq. 7);
- pseudo-inverse: ``d = J^+ u``, ``J^+ = J^T (J J^T)^+`` (directions of ``J J^T`` with an eigenvalue under
  ``TRUNCATE`` of the largest left out: a truncated SVD);
- dls: :func:`.dls.dls_turns` (Wampler 1986; Nakamura & Hanafusa 1986);
- sdls: each singular direction ``i`` of ``J`` gets ``sigma_i^-1 (u_i . u) v_i``, clamped to
  ``gamma_i = min(1, N_i / M_i) gamma_max`` (``N_i = 1``: one end effector; ``M_i = sigma_i^-1 sum_j |v_ji|
  rho_j``, ``rho_j`` the length of column j), and the sum clamped to ``gamma_max`` (Buss & Kim 2005).

Every step is capped at :data:`.dls.MAX_STEP`; the methods but DLS take ``shrink`` (``1 / mu``) of their
step, the backtracking of a rejected step. The null-space term (Liegeois 1977, gradient projection) adds
``(I - J^+ J) z`` for a rest pose (``z = w (rest - angles)``). Pure functions of floats and
indexable sequences, so the compiled kernel (:mod:`._jit_dls`) runs them as they are. Pixels (y down), rad.
"""

from __future__ import annotations

import math

from .dls import MAX_STEP, dls_turns
from .validate import FULL_CIRCLE

METHODS = ("transpose", "pseudo-inverse", "dls", "sdls")  # the codes are the indices
TRANSPOSE, PSEUDO_INVERSE, DLS, SDLS = 0, 1, 2, 3
SINGULAR = 1e-12  # an eigenvalue of J J^T under this share of the largest is a singular direction (left out) ...
TRUNCATE = 1e-4  # ... and under this, for the pseudo-inverse's step (a truncated SVD: a singular value under 1%)
SDLS_GAMMA = math.pi / 4  # rad: Buss & Kim's gamma_max, the largest turn of an SDLS step before the cap

_INF = math.inf


def eigen(sxx: float, syy: float, sxy: float) -> tuple[float, float, float, float]:
    """``J J^T = [[sxx, sxy], [sxy, syy]]``'s eigenvalues ``l1 >= l2 >= 0`` and ``l1``'s unit eigenvector ``(c, s)``
    (``l2``'s is ``(-s, c)``)."""
    phi = 0.5 * math.atan2(2.0 * sxy, sxx - syy)
    c = math.cos(phi)
    s = math.sin(phi)
    l1 = sxx * c * c + 2.0 * sxy * c * s + syy * s * s
    l2 = sxx * s * s - 2.0 * sxy * c * s + syy * c * c
    return (l1 if l1 > 0.0 else 0.0), (l2 if l2 > 0.0 else 0.0), c, s


def inverse_times(sxx: float, syy: float, sxy: float, ux: float, uy: float, cut: float) -> tuple[float, float]:
    """``(J J^T)^+ u``, the directions of an eigenvalue under ``cut`` of the largest left out: ``(wx, wy)``."""
    l1, l2, c, s = eigen(sxx, syy, sxy)
    if not 0.0 < l1 < _INF:
        return 0.0, 0.0
    p = (c * ux + s * uy) / l1
    wx = p * c
    wy = p * s
    if l2 > cut * l1:
        q = (c * uy - s * ux) / l2
        wx -= q * s
        wy += q * c
    return wx, wy


def capped(d, largest: float) -> float:
    """Scale ``d`` (rad) so that no turn passes ``MAX_STEP``, its largest being ``largest``; returns ``largest``."""
    if largest > MAX_STEP:
        for i in range(len(d)):
            d[i] = d[i] * MAX_STEP / largest
    return largest


def method_turns(method: int, jx, jy, sxx: float, syy: float, sxy: float, ux: float, uy: float, lam2: float,
                 shrink: float, d) -> float:
    """The step of ``method`` (``METHODS``' index) into ``d`` (rad), capped at ``MAX_STEP``; returns the largest
    turn before the cap. ``lam2`` is DLS's damping squared, ``shrink`` the other methods' share of their step."""
    if method == DLS:
        return dls_turns(jx, jy, sxx, syy, sxy, ux, uy, lam2, d)
    if method == TRANSPOSE:
        return transpose_turns(jx, jy, ux, uy, shrink, d)
    if method != PSEUDO_INVERSE:
        return sdls_turns(jx, jy, sxx, syy, sxy, ux, uy, shrink, d)
    n = len(jx)
    wx, wy = inverse_times(sxx, syy, sxy, ux, uy, TRUNCATE)
    wx *= shrink
    wy *= shrink
    largest = 0.0
    for i in range(n):
        v = jx[i] * wx + jy[i] * wy
        d[i] = v
        if abs(v) > largest:
            largest = abs(v)
    return capped(d, largest)


def transpose_turns(jx, jy, ux: float, uy: float, shrink: float, d) -> float:
    """``alpha J^T u`` times ``shrink`` into ``d``, capped; the largest turn before the cap. ``alpha = |J^T u|^2 /
    |J J^T u|^2`` (Buss 2004's ``<u, J J^T u> / |J J^T u|^2``, summed as squares: near an answer ``J^T u`` is tiny
    and the inner product would be rounding's)."""
    n = len(jx)
    ww = vx = vy = 0.0
    for i in range(n):
        w = jx[i] * ux + jy[i] * uy  # J^T u
        d[i] = w
        ww += w * w
        vx += jx[i] * w  # J J^T u
        vy += jy[i] * w
    vv = vx * vx + vy * vy
    alpha = ww / vv * shrink if 0.0 < vv < _INF else 0.0
    largest = 0.0
    for i in range(n):
        v = alpha * d[i]
        d[i] = v
        if abs(v) > largest:
            largest = abs(v)
    return capped(d, largest)


def sdls_turns(jx, jy, sxx: float, syy: float, sxy: float, ux: float, uy: float, shrink: float, d) -> float:
    """Buss & Kim's selectively damped step (module docstring) times ``shrink`` into ``d``, capped; the largest turn
    before the cap."""
    n = len(jx)
    for i in range(n):
        d[i] = 0.0
    l1, l2, c, s = eigen(sxx, syy, sxy)
    if not 0.0 < l1 < _INF:
        return 0.0
    for k in range(2):
        lam, ex, ey = (l1, c, s) if k == 0 else (l2, -s, c)
        if k == 1 and not lam > SINGULAR * l1:
            break
        sigma = math.sqrt(lam)
        alpha = (ex * ux + ey * uy) / sigma  # the turn along v, rad
        m = 0.0
        top = 0.0
        for i in range(n):
            v = (jx[i] * ex + jy[i] * ey) / sigma  # v_i, a unit vector over the joints
            m += abs(v) * math.sqrt(jx[i] * jx[i] + jy[i] * jy[i])
            if abs(alpha * v) > top:
                top = abs(alpha * v)
        m /= sigma
        gamma = SDLS_GAMMA if m <= 1.0 else SDLS_GAMMA / m
        scale = alpha if top <= gamma else alpha * gamma / top
        for i in range(n):
            d[i] += scale * ((jx[i] * ex + jy[i] * ey) / sigma)
    largest = 0.0
    for i in range(n):
        if abs(d[i]) > largest:
            largest = abs(d[i])
    if largest > SDLS_GAMMA:
        for i in range(n):
            d[i] = d[i] * SDLS_GAMMA / largest
        largest = SDLS_GAMMA
    for i in range(n):
        d[i] = d[i] * shrink
    return capped(d, largest * shrink)


def projected(jx, jy, z) -> float:
    """``z`` (rad) replaced by ``(I - J^+ J) z``, its part that leaves the end effector still to first order;
    returns its largest turn. A column of zeros (a joint held) must have ``z`` 0 there."""
    n = len(z)
    sxx = syy = sxy = 0.0
    px = py = 0.0
    for i in range(n):
        p = jx[i]
        q = jy[i]
        sxx += p * p
        syy += q * q
        sxy += p * q
        px += p * z[i]
        py += q * z[i]
    wx, wy = inverse_times(sxx, syy, sxy, px, py, SINGULAR)
    largest = 0.0
    for i in range(n):
        v = z[i] - (jx[i] * wx + jy[i] * wy)
        z[i] = v
        if abs(v) > largest:
            largest = abs(v)
    return largest


def rest_pull(a, rest, weight: float, lo, hi, z) -> None:
    """``z = weight * (rest - a)`` (rad), the short way round for a free joint (``hi - lo`` the full circle)."""
    for i in range(len(z)):
        v = rest[i] - a[i]
        if hi[i] - lo[i] >= FULL_CIRCLE:
            v = v - 2.0 * math.pi if v > math.pi else v + 2.0 * math.pi if v <= -math.pi else v
        z[i] = weight * v
