"""Path IK: a chain's joints laid along a cubic Bezier spline by arc length.

What Spine's path constraint and Godot's spline IK do: the joints sit on the curve, one bone length of arc
apart, from ``start`` px along it. The spline is cubic Bezier segments sharing their end points (Farin,
*Curves and Surfaces for CAGD*); its arc length is tabled over ``SAMPLES`` intervals a
segment (Gauss-Legendre quadrature of the speed; ``FINE_SAMPLES`` where a segment nearly stops, for the speed
bends sharply there, and an interval split at a stop) and each joint's parameter found in the table, then
refined by Newton's method on the arc length (Guenter and Parent, "Computing the arc length of parametric
curves", IEEE CG&A 1990). A joint lies on the curve, its arc length right to about 1e-6 px where the curve
moves briskly and 1e-3 px near a stop (a cusp, where it turns back on itself, or an end control point on its
neighbour). Past either end the chain goes on along the end's tangent.

Pixels, y down, radians.
"""

from __future__ import annotations

import numpy as np

from .validate import BOUND, float_array

SAMPLES = 64  # intervals a segment in the arc-length table
FINE_SAMPLES = 1024  # ... where a segment (nearly) stops: its speed under SLOW of its control polygon's length
SLOW = 0.05
NEWTON = 3  # Newton steps on each joint's parameter


def along_path(control_points, lengths, *, start=0.0) -> np.ndarray:
    """The joints of a chain laid along a cubic Bezier spline (or of N chains: a leading axis on each argument).

    Parameters
    ----------
    control_points : array_like, shape (3k + 1, 2) or (N, 3k + 1, 2)
        k >= 1 cubic segments, px (y down): points 0-3 the first, 3-6 the second, and so on.
    lengths : array_like, shape (n,) or (N, n)
        Bone lengths, px, > 0: the arc between joint i and joint i + 1.
    start : float or array_like, shape (N,)
        Arc length (px) along the spline where joint 0 sits; below 0 or past the end the chain runs on along
        the end's tangent.

    Returns
    -------
    ndarray, shape (n + 1, 2) or (N, n + 1, 2)
        The joints, px: joint i at arc length ``start + sum(lengths[:i])``. A bone is the chord of its arc, so
        it is as long as its ``lengths`` entry only where the curve is straight.

    Raises
    ------
    ValueError
        Naming the argument: a wrong shape, values not finite real numbers, a length <= 0.
    """
    c = float_array(control_points, "control_points")
    single = c.ndim == 2
    if c.ndim not in (2, 3) or c.shape[-1] != 2 or c.shape[-2] < 4 or (c.shape[-2] - 1) % 3:
        raise ValueError(f"control_points: expected shape (3k + 1, 2) or (N, 3k + 1, 2) with k >= 1, got {c.shape}")
    if not np.all(np.abs(c) <= BOUND):
        raise ValueError(f"control_points: coordinates must lie within +-{BOUND:g} px")
    if single:
        c = c[None]
    count = c.shape[0]
    lens = float_array(lengths, "lengths")
    want = lens.shape if single else (count, *lens.shape[1:])
    if lens.ndim != (1 if single else 2) or lens.shape != want or lens.shape[-1] < 1:
        raise ValueError(f"lengths: expected shape {'(n,)' if single else f'({count}, n)'}, got {lens.shape}")
    if not np.all(lens > 0.0):
        raise ValueError(f"lengths: every bone must be longer than 0 px, got {lens[lens <= 0.0][0]:g}")
    s0 = float_array(start, "start")
    if s0.ndim == 0:
        s0 = np.full(count, float(s0))
    elif single or s0.shape != (count,):
        raise ValueError(f"start: expected a number{'' if single else f' or shape ({count},)'}, got {s0.shape}")
    if single:
        lens = lens[None]
    out = path_rows(c, lens, s0)
    return out[0] if single else out


def path_rows(control: np.ndarray, lengths: np.ndarray, start: np.ndarray) -> np.ndarray:
    """:func:`along_path`'s engine on checked float64 arrays: control (N, 3k + 1, 2), lengths (N, n), start (N,);
    a new (N, n + 1, 2) array, each row as a single call."""
    segments = (control.shape[1] - 1) // 3
    seg = np.stack([control[:, 3 * j:3 * j + 4] for j in range(segments)], axis=1)  # (N, k, 4, 2)
    fine = slows(seg)
    if fine.all() or not fine.any():
        return _laid(seg, lengths, start, FINE_SAMPLES if fine.any() else SAMPLES)
    out = np.empty((len(seg), lengths.shape[1] + 1, 2))
    for rows, samples in ((fine, FINE_SAMPLES), (~fine, SAMPLES)):
        out[rows] = _laid(seg[rows], lengths[rows], start[rows], samples)
    return out


def _laid(seg: np.ndarray, lengths: np.ndarray, start: np.ndarray, samples: int) -> np.ndarray:
    count, n = lengths.shape
    segments = seg.shape[1]
    table, cusps = arc_table(seg, samples)
    total = table[:, -1]
    s = start[:, None] + np.concatenate([np.zeros((count, 1)), np.cumsum(lengths, axis=1)], axis=1)  # (N, n + 1)
    inside = np.clip(s, 0.0, total[:, None])
    # the table's interval of each joint, then its parameter inside that interval
    idx = np.stack([np.clip(np.searchsorted(table[r], inside[r], side="right") - 1, 0, segments * samples - 1)
                    for r in range(count)])
    lo = np.take_along_axis(table, idx, axis=1)
    hi = np.take_along_axis(table, idx + 1, axis=1)
    frac = np.where(hi > lo, (inside - lo) / np.where(hi > lo, hi - lo, 1.0), 0.0)
    which = idx // samples  # the segment
    t = (idx % samples + frac) / samples
    rows = np.arange(count)[:, None]
    ctrl = seg[rows, which]  # (N, n + 1, 4, 2)
    # Newton on the arc length from the start of the segment's interval: f(t) = arc(t) - wanted
    t_lo = (idx % samples) / samples
    for _ in range(NEWTON):
        arc = lo + segment_arc(ctrl, t_lo, t, cusps[rows, which])
        speed = np.hypot(*np.moveaxis(bezier_velocity(ctrl, t), -1, 0))
        t = np.clip(t - np.where(speed > 0.0, (arc - inside) / np.where(speed > 0.0, speed, 1.0), 0.0),
                    t_lo, t_lo + 1.0 / samples)
    out = bezier(ctrl, t[..., None])
    # past the ends: along the tangent
    before = s < 0.0
    after = s > total[:, None]
    if before.any() or after.any():
        first = unit(bezier_velocity(seg[:, 0], np.zeros(count)), seg[:, 0, 3] - seg[:, 0, 0])
        last = unit(bezier_velocity(seg[:, -1], np.ones(count)), seg[:, -1, 3] - seg[:, -1, 0])
        out = np.where(before[..., None], seg[:, None, 0, 0] + s[..., None] * first[:, None], out)
        out = np.where(after[..., None], seg[:, None, -1, 3] + (s - total[:, None])[..., None] * last[:, None], out)
    return out


def arc_table(seg: np.ndarray, samples: int) -> tuple[np.ndarray, np.ndarray]:
    """The arc length (px) at each of ``samples`` intervals a segment of ``seg`` (N, k, 4, 2) px, from 0 at the
    curve's start: (N, k * samples + 1); and the segments' :func:`cusp_parameters` (N, k, 2). The last
    ``TABLES_KEPT`` tables are kept by their control points' bytes: a chain sliding along a curve that does not
    change does not table it again (read only)."""
    key = (seg.shape, samples, seg.tobytes())
    kept = _TABLES.get(key)
    if kept is not None:
        return kept
    count = len(seg)
    u = np.linspace(0.0, 1.0, samples + 1)
    cusps = cusp_parameters(seg)  # (N, k, 2): where a segment stops and turns back (NaN: nowhere)
    arcs = segment_arc(seg[:, :, None], u[:-1], u[1:], cusps[:, :, None])  # (N, k, S): each interval's arc length
    table = np.concatenate([np.zeros((count, 1)), np.cumsum(arcs.reshape(count, -1), axis=1)], axis=1)
    table.flags.writeable = False
    cusps.flags.writeable = False
    while len(_TABLES) >= TABLES_KEPT:
        _TABLES.pop(next(iter(_TABLES)))
    _TABLES[key] = (table, cusps)
    return table, cusps


TABLES_KEPT = 4  # arc tables kept (:func:`arc_table`)
_TABLES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def slows(seg: np.ndarray) -> np.ndarray:
    """Whether each chain's segments ``seg`` (N, k, 4, 2) px (nearly) stop somewhere, their speed under ``SLOW``
    of their control polygon's length (N,): its table takes ``FINE_SAMPLES`` intervals a segment, for there the
    speed bends too sharply for a coarse quadrature."""
    polygon = np.hypot(*np.moveaxis(np.diff(seg, axis=2), -1, 0)).sum(axis=-1)  # (N, k)
    u = np.linspace(0.0, 1.0, SAMPLES + 1)
    slowest = np.hypot(*np.moveaxis(bezier_velocity(seg[:, :, None], u), -1, 0)).min(axis=-1)
    return np.any(slowest < SLOW * polygon, axis=1)


def bezier(ctrl: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Points of cubic Bezier segments: ``ctrl`` (..., 4, 2) px, ``t`` (...) or broadcastable with a last axis of
    1; (..., 2) px."""
    t = np.asarray(t)
    t = t if t.ndim and t.shape[-1] == 1 else t[..., None]
    m = 1.0 - t
    return (m * m * m * ctrl[..., 0, :] + 3.0 * m * m * t * ctrl[..., 1, :] + 3.0 * m * t * t * ctrl[..., 2, :]
            + t * t * t * ctrl[..., 3, :])


def hodograph(ctrl: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The velocity of cubic Bezier segments ``ctrl`` (..., 4, 2) px as a quadratic in t: ``(a, b, c)``, each
    (..., 2) px, with ``dB/dt = 3 (a t^2 + b t + c)``."""
    d = np.diff(ctrl, axis=-2)  # (..., 3, 2): the hodograph's control points over 3
    return d[..., 0, :] - 2.0 * d[..., 1, :] + d[..., 2, :], 2.0 * (d[..., 1, :] - d[..., 0, :]), d[..., 0, :]


def bezier_velocity(ctrl: np.ndarray, t: np.ndarray, coeffs=None) -> np.ndarray:
    """The derivative ``dB/dt`` (..., 2) px of cubic Bezier segments ``ctrl`` (..., 4, 2) at ``t`` (...) (its
    :func:`hodograph` ``coeffs``, when given, in place of working them out)."""
    a, b, c = hodograph(ctrl) if coeffs is None else coeffs
    t = np.asarray(t)[..., None]
    return 3.0 * ((a * t + b) * t + c)


def segment_arc(ctrl: np.ndarray, a: np.ndarray, b: np.ndarray, cusps: np.ndarray) -> np.ndarray:
    """Arc length (px) of segments ``ctrl`` (..., 4, 2) from parameter ``a`` to ``b`` (...), by 5-point
    Gauss-Legendre quadrature of the speed, split at the ``cusps`` (..., 2; NaN: none) between them (the
    speed's kink there would cost the rule its accuracy)."""
    coeffs = hodograph(ctrl)
    a, b, c1, c2 = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float), cusps[..., 0],
                                       cusps[..., 1])
    split = [(a < c) & (c < b) for c in (c1, c2)]
    if not (split[0].any() or split[1].any()):  # no cusp inside: the split's two empty pieces add exactly 0
        return _gauss(coeffs, a, b)
    inner = [np.where(inside, c, a) for inside, c in zip(split, (c1, c2))]
    edges = np.sort(np.stack([a, *inner, b], axis=-1), axis=-1)
    total = _gauss(coeffs, edges[..., 0], edges[..., 1])
    for j in (1, 2):
        total = total + _gauss(coeffs, edges[..., j], edges[..., j + 1])
    return total


NODES, WEIGHTS = np.polynomial.legendre.leggauss(5)


def _gauss(coeffs, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    half = (b - a) / 2.0
    mid = (a + b) / 2.0
    total = np.zeros(half.shape)
    qa, qb, qc = coeffs
    for x, w in zip(NODES, WEIGHTS):
        t = (mid + half * x)[..., None]
        v = 3.0 * ((qa * t + qb) * t + qc)
        total = total + w * np.hypot(v[..., 0], v[..., 1])
    return total * half


def cusp_parameters(seg: np.ndarray) -> np.ndarray:
    """The parameters in (0, 1) where each segment ``seg`` (N, k, 4, 2) px stops (its velocity vanishes: the
    curve turns back on itself, as when the four points lie on one line), at most two, NaN-padded; (N, k, 2)."""
    d = np.diff(seg, axis=2)  # (N, k, 3, 2): the hodograph's control points over 3
    quad = d[:, :, 0] - 2.0 * d[:, :, 1] + d[:, :, 2]  # v / 3 = quad t^2 + lin t + const, per axis
    lin = 2.0 * (d[:, :, 1] - d[:, :, 0])
    const = d[:, :, 0]
    scale = np.abs(d).sum(axis=(2, 3))
    candidates = []
    for axis in (0, 1):
        A, B, C = quad[..., axis], lin[..., axis], const[..., axis]
        disc = np.sqrt(np.maximum(B * B - 4.0 * A * C, 0.0))
        flat = np.abs(A) <= 1e-12 * np.maximum(scale, 1e-300)
        safe = np.where(flat, 1.0, 2.0 * A)
        candidates += [np.where(flat, -C / np.where(B != 0.0, B, np.inf), (-B + disc) / safe),
                       np.where(flat, np.nan, (-B - disc) / safe)]
    t = np.stack(candidates, axis=-1)  # (N, k, 4)
    t = np.where((t > 0.0) & (t < 1.0), t, np.nan)
    speed = np.hypot(*np.moveaxis(bezier_velocity(seg[:, :, None], np.nan_to_num(t)), -1, 0))
    stopped = ~np.isnan(t) & (speed <= 1e-9 * np.maximum(scale, 1e-300)[..., None])
    two = np.sort(np.where(stopped, t, np.inf), axis=-1)[..., :2]
    return np.where(np.isinf(two), np.nan, two)


def unit(v: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Unit vectors of ``v`` (N, 2); where ``v`` vanishes (a control point on its end), ``fallback``'s, and
    (1, 0) where that vanishes too."""
    v = np.where(np.hypot(v[:, 0], v[:, 1])[:, None] > 0.0, v, fallback)
    norm = np.hypot(v[:, 0], v[:, 1])[:, None]
    return np.where(norm > 0.0, v / np.where(norm > 0.0, norm, 1.0), np.array([1.0, 0.0]))
