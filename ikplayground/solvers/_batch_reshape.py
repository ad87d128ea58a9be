""":mod:`.reshape` over many chains: restarts from drawn poses and the pole's steps, on numpy arrays.

The same arithmetic as :func:`.reshape.restart_pose` and :func:`.reshape.pole_step` in the same order,
one operation over all rows at a time, so a batch row equals the single call (:mod:`.batched`,
:mod:`.fabrik_arrays`). Float64 arrays, radians, pixels (y down).
"""

from __future__ import annotations

import numpy as np

from ._batch_avoid import clear_restarts
from ._batch_parts import limit_angles, limit_headings
from .kinematics import chain_points_batch
from .pole import ON_LINE
from .reshape import (CRAWL_RATIO, FOLD, PM_MODULUS, PM_MULTIPLIER, POLE_DAMPING, POLE_GAIN, POLE_REACH,
                      POLE_SETTLE, POLE_TURN, POLE_UNFOLD, RESTART_DRAWS, RESTARTS)
from .results import ROUNDING, STALL_SWEEPS
from .validate import FULL_CIRCLE, wrap_array

PI = np.pi


def in_order(values: np.ndarray) -> np.ndarray:
    """Each row's sum (N, n) -> (N,) added left to right, as Python's ``sum`` adds a list."""
    total = np.zeros(len(values))
    for i in range(values.shape[1]):
        total = total + values[:, i]
    return total


def limit_rows(a: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """Angles (K, n) rad wrapped, or into ``limits`` (K, n, 2), joint 0 as a heading (:func:`.ccd.limit_pose`)."""
    if limits is None:
        return wrap_array(a)
    out = limit_angles(a, limits)
    out[:, 0] = limit_headings(a[:, 0], limits[:, 0, 0], limits[:, 0, 1])
    return out


class Restarts:
    """The restarts of ``N`` chains (:mod:`.reshape`): how many each has left, its generator's state, the best
    pose (rad) a restart left and its error (px)."""

    def __init__(self, roots, lengths, targets, limits, reach: np.ndarray, guarded: np.ndarray | None = None):
        count = len(lengths)
        within = np.hypot(targets[:, 0] - roots[:, 0], targets[:, 1] - roots[:, 1]) < reach
        if limits is None:
            able = np.zeros(count, dtype=bool)
        else:
            bent = (limits[..., 1] - limits[..., 0] < FULL_CIRCLE).any(axis=1)
            able = bent & (limits[:, 1:, 1] > limits[:, 1:, 0]).any(axis=1)  # (:func:`.reshape.restartable`)
        if guarded is not None:  # rows with circles to keep clear of (:mod:`.avoid`) restart whatever their limits
            able = able | guarded
        self.guarded = guarded
        self.left = np.where(able & within, RESTARTS, 0).astype(np.int64)
        self.state = np.zeros(count, dtype=np.int64)
        self.best: np.ndarray | None = None
        self.best_error = np.full(count, np.inf)
        self.any = bool(self.left.any())

    def due(self, rows, err, last, gain, active, sweep: int, its) -> np.ndarray:
        """Which working rows restart at checkpoint ``sweep`` (``active``: short of the tolerance and the budget;
        ``last`` and ``gain`` per working row, px): stalled or crawling, with restarts left."""
        if not sweep:
            return np.zeros(len(rows), dtype=bool)
        stuck = ~(err < last - gain) | ~(err < CRAWL_RATIO * last)
        return active & (self.left[rows] > 0) & (sweep + STALL_SWEEPS <= its) & stuck

    def take(self, go, rows, err, a, lengths, limits, roots, targets, obs=None, mask=None) -> np.ndarray:
        """Keep the best pose and draw a new one (in ``a``, the working rows' angles) for the working rows ``go``;
        the working rows that took one (a mask). A row with circles ``obs`` to keep clear of (``mask`` (K, n, k)
        the working rows' pairs) takes only a clear pose (:func:`._batch_avoid.clear_restarts`)."""
        if limits is None:  # (free chains restart only with circles to keep clear of: drawn from the whole circle)
            limits = np.broadcast_to(np.array([-PI, PI]), a.shape + (2,))
        idx = np.flatnonzero(go)
        r = rows[idx]
        better = err[idx] < self.best_error[r]
        if better.any():
            if self.best is None:
                self.best = np.empty((len(self.left), a.shape[1]))
            self.best[r[better]] = a[idx[better]]
            self.best_error[r[better]] = err[idx[better]]
        fresh = self.state[r] == 0
        if fresh.any():
            self.state[r[fresh]] = seeds(lengths[idx[fresh]])
        self.left[r] -= 1
        taken = go.copy()
        guarded = np.zeros(len(idx), dtype=bool) if self.guarded is None else self.guarded[r]
        if guarded.any():
            k = idx[guarded]
            sub = a[k]
            self.state[r[guarded]], ok = clear_restarts(restart_poses, sub, lengths[k], limits[k], roots[k],
                                                        targets[k], self.state[r[guarded]], obs, mask[k])
            a[k] = sub
            taken[k[~ok]] = False
            idx, r = idx[~guarded], r[~guarded]
        sub = a[idx]
        self.state[r] = restart_poses(sub, lengths[idx], limits[idx], roots[idx], targets[idx], self.state[r])
        sub[:, 0] = limit_headings(sub[:, 0], limits[idx, 0, 0], limits[idx, 0, 1])
        a[idx] = sub
        return taken

    def restore(self, a, error, lengths, reach) -> np.ndarray:
        """``a`` (N, n) with the best pose a restart left put back where the chain ended worse by more than rounding
        (in place); the rows put back."""
        if self.best is None:
            return np.zeros(0, dtype=np.int64)
        worse = np.flatnonzero(self.best_error < error - ROUNDING * reach)
        a[worse] = self.best[worse]
        error[worse] = self.best_error[worse]
        return worse


def seeds(lengths: np.ndarray) -> np.ndarray:
    """:func:`.reshape.restart_seed` of each row of ``lengths`` (K, n) px: (K,) int64."""
    total = in_order(lengths)
    return 1 + np.floor(np.mod(np.mod(total, 2147483646.0) * 9973.0, 2147483646.0)).astype(np.int64)


def restart_poses(a, lengths, limits, roots, targets, state) -> np.ndarray:
    """:func:`.reshape.restart_pose` of ``K`` rows: ``a`` (K, n) rad in place (``a[:, 0]`` not yet clamped); the
    generators' next states (K,) int64."""
    count, n = a.shape
    bend = np.zeros(count)
    for i in range(1, n):
        bend = bend + a[:, i]
    sign = np.where(bend < 0.0, -1.0, 1.0)
    tx = targets[:, 0] - roots[:, 0]
    ty = targets[:, 1] - roots[:, 1]
    dist = np.hypot(tx, ty)
    best = np.full(count, np.inf)
    bx = lengths[:, 0].copy()
    by = np.zeros(count)
    state = state.copy()
    trial = np.empty((count, n))
    for _ in range(RESTART_DRAWS):
        absolute = np.zeros(count)
        x = lengths[:, 0].copy()
        y = np.zeros(count)
        for i in range(1, n):
            state = (PM_MULTIPLIER * state) % PM_MODULUS
            u = state / PM_MODULUS
            lo = limits[:, i, 0]
            hi = limits[:, i, 1]
            v = np.minimum(np.maximum(0.5 * (lo + hi) + sign * (u - 0.5) * (hi - lo), lo), hi)
            trial[:, i] = v
            absolute = absolute + v
            x = x + lengths[:, i] * np.cos(absolute)
            y = y + lengths[:, i] * np.sin(absolute)
        miss = np.abs(np.hypot(x, y) - dist)
        take = miss < best
        best = np.where(take, miss, best)
        bx = np.where(take, x, bx)
        by = np.where(take, y, by)
        a[take, 1:] = trial[take, 1:]
    a[:, 0] = np.arctan2(ty, tx) - np.arctan2(by, bx)
    return state


def pole_frames(roots, targets, poles, reach) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`.reshape.pole_frame` of ``N`` chains (``poles`` (N, 2) px, NaN rows: none): ``(ux, uy, h)``, each (N,)."""
    ux = targets[:, 0] - roots[:, 0]
    uy = targets[:, 1] - roots[:, 1]
    d = np.hypot(ux, uy)
    qx = poles[:, 0] - roots[:, 0]
    qy = poles[:, 1] - roots[:, 1]
    with np.errstate(invalid="ignore"):
        on = (d == 0.0) | ~(np.abs(ux * qy - uy * qx) > ON_LINE * d * np.hypot(qx, qy))  # (NaN: no pole)
    safe = np.where(on, 1.0, d)
    ux = np.where(on, 0.0, ux / safe)
    uy = np.where(on, 0.0, uy / safe)
    h = np.where(on, 0.0, qx * -uy + qy * ux)  # (a NaN pole's row: 0)
    share = d / reach
    most = POLE_REACH * 0.5 * reach * np.sqrt(np.maximum(1.0 - share * share, 0.0))
    return ux, uy, np.minimum(np.maximum(h, -most), most)


def pole_steps(a, lengths, xs, ys, ux, uy, h, reach, turn) -> np.ndarray:
    """:func:`.reshape.pole_step` of ``K`` rows: ``a`` (K, n) rad in place from the joints ``xs``, ``ys`` (K, n + 1)
    px; the most the step turned a joint of each (K,) rad."""
    count, n = a.shape
    inv = 1.0 / reach
    rx = xs[:, 0]
    ry = ys[:, 0]
    ex = (xs[:, n] - rx) * inv
    ey = (ys[:, n] - ry) * inv
    hh = h * inv
    s0 = np.zeros(count)
    s1 = np.zeros(count)
    m11 = np.full(count, POLE_DAMPING * POLE_DAMPING)
    m12 = np.zeros(count)
    m22 = m11.copy()
    vx = np.zeros(count)
    vy = np.zeros(count)
    d = np.zeros((count, n))
    along = np.ones(count)
    for i in range(n - 1, -1, -1):
        along = along - lengths[:, i] * inv
        x = (xs[:, i] - rx) * inv
        y = (ys[:, i] - ry) * inv
        s = x * ux + y * uy
        g = POLE_GAIN * (s1 - s * s0)
        if i:
            fold = (np.abs(a[:, i]) > FOLD) & (np.abs(a[:, i]) < PI)
            if fold.any():
                g = np.where(fold, g + np.copysign(POLE_UNFOLD * (np.abs(a[:, i]) - FOLD) / (PI - FOLD), a[:, i]), g)
        d[:, i] = -g
        cx = y - ey
        cy = ex - x
        m11 = m11 + cx * cx
        m12 = m12 + cx * cy
        m22 = m22 + cy * cy
        vx = vx - cx * g
        vy = vy - cy * g
        if i:
            e = x * -uy + y * ux - 4.0 * along * (1.0 - along) * hh
            s0 = s0 + e
            s1 = s1 + e * s
    det = m11 * m22 - m12 * m12
    wx = (m22 * vx - m12 * vy) / det
    wy = (m11 * vy - m12 * vx) / det
    most = np.zeros(count)
    for i in range(n):
        x = (xs[:, i] - rx) * inv
        y = (ys[:, i] - ry) * inv
        d[:, i] = d[:, i] - (y - ey) * wx - (ex - x) * wy
        most = np.maximum(most, np.abs(d[:, i]))
    over = most > turn
    k = np.where(over, turn / np.where(over, most, 1.0), 1.0)
    most = np.where(over, turn, most)
    for i in range(n):
        a[:, i] = a[:, i] + k * d[:, i]
    px = np.empty((count, n))
    py = np.empty((count, n))
    for _ in range(POLE_SETTLE):
        m11 = np.full(count, POLE_DAMPING * POLE_DAMPING)
        m12 = np.zeros(count)
        m22 = m11.copy()
        x = np.zeros(count)
        y = np.zeros(count)
        absolute = np.zeros(count)
        for i in range(n):
            px[:, i] = x
            py[:, i] = y
            absolute = absolute + a[:, i]
            x = x + lengths[:, i] * inv * np.cos(absolute)
            y = y + lengths[:, i] * inv * np.sin(absolute)
        for i in range(n):
            cx = py[:, i] - y
            cy = x - px[:, i]
            m11 = m11 + cx * cx
            m12 = m12 + cx * cy
            m22 = m22 + cy * cy
        vx = ex - x
        vy = ey - y
        det = m11 * m22 - m12 * m12
        wx = (m22 * vx - m12 * vy) / det
        wy = (m11 * vy - m12 * vx) / det
        for i in range(n):
            a[:, i] = a[:, i] + (py[:, i] - y) * wx + (x - px[:, i]) * wy
    return most


class Poles:
    """The pole steps of ``N`` chains: the frame of each pole (:func:`pole_frames`) and the turn each solve has left."""

    def __init__(self, roots, targets, poles, reach):
        self.ux, self.uy, self.h = pole_frames(roots, targets, poles, reach)
        self.on = self.h != 0.0
        self.turns = np.full(len(roots), POLE_TURN)

    def step(self, rows, a, lengths, limits, roots, reach, wanted) -> np.ndarray:
        """A pole step (in place on ``a``, the working rows' angles) for the working rows ``wanted`` that have a pole
        and turn left; the working rows stepped (a mask)."""
        go = wanted & self.on[rows] & (self.turns[rows] > 0.0)
        if not go.any():
            return go
        idx = np.flatnonzero(go)
        r = rows[idx]
        sub = a[idx]
        pts = chain_points_batch(roots[idx], sub, lengths[idx])
        xs = np.ascontiguousarray(pts[:, :, 0])
        ys = np.ascontiguousarray(pts[:, :, 1])
        self.turns[r] -= pole_steps(sub, lengths[idx], xs, ys, self.ux[r], self.uy[r], self.h[r], reach[idx],
                                    self.turns[r])
        a[idx] = limit_rows(sub, None if limits is None else limits[idx])
        return go
