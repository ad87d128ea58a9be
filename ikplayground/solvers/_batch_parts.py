"""What the batched solvers share: joint limits over arrays, the stall rule, the few-chains path.

This project's conventions (docs/design.md, "The solver API"); float64 arrays, radians, pixels (y down).
"""

from __future__ import annotations

import numpy as np

from .validate import FULL_CIRCLE, TAU, wrap_array
from .results import STALL_GAIN

PI = np.pi
NEAR_MINUS_PI = -PI + 1e-6  # rad: above this an angle in range comes out of wrap_array as it went in
SMALL_BATCH = 4  # this few chains: the single-chain loops on floats beat numpy's per-call cost


def run_rows(row, roots, angles, lengths, targets, iterations, tolerance, limits, per_chain=None, poles=None):
    """A few chains one by one through ``row``, a single-chain loop on floats: ``(angles, error, used)``; ``poles``
    (N, 2) px (NaN rows: none) or None passed on as ``pole=``."""
    count = len(angles)
    a = limit_pose(angles, limits)
    error = np.empty(count)
    used = np.zeros(count, dtype=np.int64)
    for k in range(count):
        rx, ry = roots[k].tolist()
        tx, ty = targets[k].tolist()
        lim = None if limits is None else [tuple(p) for p in limits[k].tolist()]
        extra = () if per_chain is None else (float(per_chain[k]),)
        given = {} if poles is None or np.isnan(poles[k, 0]) else {"pole": tuple(poles[k].tolist())}
        a[k], used[k], error[k] = row(rx, ry, a[k].tolist(), lengths[k].tolist(), tx, ty, int(iterations[k]),
                                      float(tolerance[k]), lim, *extra, **given)
    return a, error, used


def limit_angles(values: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """Angles (N,) or (N, n) rad clamped to ``limits`` (N, [n,] 2) (None: wrap only); a full circle wraps."""
    if limits is None:
        return wrap_array(values)
    lo = limits[..., 0]
    hi = limits[..., 1]
    clamped = np.where(values < lo, lo, np.where(values > hi, hi, values))  # inside: the value itself (its zero's sign)
    clamped = np.where((clamped <= -PI) & (hi >= PI), PI, clamped)
    # a full circle wraps (kept inside a range a hair short of the circle)
    return np.where(hi - lo >= FULL_CIRCLE, np.clip(wrap_array(values), lo, hi), clamped)


def limit_headings(values: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Joint 0's angles (N,) clamped as :func:`.validate.clamp_heading` does, ranges ``[lo, hi]`` (N,)."""
    base = limit_angles(values, np.stack([lo, hi], axis=-1))
    out = (hi - lo < FULL_CIRCLE) & ((values < lo) | (values > hi))
    if not out.any():
        return base
    w = np.where((values > -PI) & (values <= PI), values, wrap_array(values))
    near = np.where(np.mod(lo - w, TAU) < np.mod(w - hi, TAU), lo, hi)
    return np.where(out, np.where((lo <= w) & (w <= hi), w, near), base)


def limit_pose(angles: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """Starting poses (N, n) rad put inside ``limits`` (N, n, 2) as the single-chain calls do (a new array)."""
    if inside(angles, limits):  # (a solver's own last answer, as a scene step passes it: nothing to move)
        return angles.copy()
    return clamped_pose(angles, limits)


def clamped_pose(angles: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """:func:`limit_pose` worked out in full (a new array), whether or not an angle lies outside its range."""
    a = limit_angles(angles, limits)
    if limits is not None and a.shape[1]:
        lo = limits[..., 0]
        on_low = (angles == PI) & (lo <= -PI) & (limits[..., 1] - lo < FULL_CIRCLE)
        if on_low.any():
            a = np.where(on_low, lo, a)
        a[:, 0] = limit_headings(angles[:, 0], limits[:, 0, 0], limits[:, 0, 1])
    return a


def inside(angles: np.ndarray, limits: np.ndarray | None) -> bool:
    """Whether every angle (N, n) rad lies in (-pi + 1e-6, pi] and inside its range of ``limits`` (N, n, 2) (None:
    any): then :func:`limit_pose` leaves it exactly as it is (no clamp, no wrap, no bound to take; nearer -pi,
    ``wrap_array`` may round an angle to pi; a -0.0 may come back as 0.0)."""
    ok = (angles > NEAR_MINUS_PI) & (angles <= PI) & ~((angles == 0.0) & np.signbit(angles))
    if limits is not None:
        ok &= (limits[..., 0] <= angles) & (angles <= limits[..., 1])
    return bool(ok.all())


def joint_modes(limits: np.ndarray | None, n: int) -> list[str]:
    """Per joint "wrap" (full circle everywhere), "clamp" (no full circle, no +-pi edge) or "mixed"."""
    if limits is None:
        return ["wrap"] * n
    lo = limits[..., 0]
    hi = limits[..., 1]
    full = (hi - lo) >= FULL_CIRCLE
    edge = (hi >= PI) | (lo <= -PI)
    whole = (lo <= -PI) & (hi >= PI)  # exactly the circle: wrapping alone stays inside
    return ["wrap" if whole[:, i].all() else "clamp" if not (full[:, i].any() or edge[:, i].any()) else "mixed"
            for i in range(n)]


def limit_joint(value: np.ndarray, mode: str, limits: np.ndarray | None, i: int) -> np.ndarray:
    """Joint ``i``'s angles limited by ``limits[:, i]`` (shape (N, n, 2)) in ``mode``."""
    if mode == "wrap":
        return wrap_array(value)
    assert limits is not None  # joint_modes gives "wrap" for every joint when there are no limits
    if mode == "clamp":
        return np.minimum(np.maximum(value, limits[:, i, 0]), limits[:, i, 1])
    return limit_angles(value, limits[:, i])


class Stall:
    """The stall rule (:class:`~.results.IKSolution`) over a batch, checked every ``STALL_SWEEPS`` sweeps."""

    def __init__(self, lengths: np.ndarray):
        self.lengths = lengths
        self.gain: np.ndarray | None = None  # per chain, worked out at the first comparison
        self.last = np.empty(len(lengths))

    def check(self, sweep: int, rows: np.ndarray, err: np.ndarray, active: np.ndarray) -> np.ndarray | None:
        """At checkpoint ``sweep``, clear ``active`` where ``rows`` stalled; the mask of those (None the first time)."""
        if not sweep:
            self.last[rows] = err
            return None
        if self.gain is None:
            self.gain = STALL_GAIN * self.lengths.sum(axis=1)
        improved = err < self.last[rows] - self.gain[rows]
        stalled = active & ~improved
        active &= improved
        self.last[rows] = err
        return stalled
