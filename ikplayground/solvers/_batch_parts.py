"""Parts the batched solvers (:mod:`.batched`, :mod:`.dls_batch`) share: joint limits over arrays, the stall
rule, and the few-chains path that runs the single-chain loops row by row.

No validation, as in :mod:`.batched`: float64 arrays of the documented
shapes, radians, pixels (y down). The limit conventions and the stall rule are
this project's own (docs/design.md, "The solver API").
"""

from __future__ import annotations

import numpy as np

from .validate import FULL_CIRCLE, TAU, wrap_array
from .results import STALL_GAIN

PI = np.pi
SMALL_BATCH = 4  # this few chains: the single-chain loops on floats beat numpy's per-call cost


def run_rows(row, roots, angles, lengths, targets, iterations, tolerance, limits, per_chain=None):
    """A few chains, one at a time, by a single-chain loop on plain floats.

    ``row(rx, ry, angles, lengths, tx, ty, iterations, tolerance, limits[, value])``
    takes one chain's floats and lists (px, rad; ``limits`` a list of
    ``(lo, hi)`` or None) and returns ``(angles, used, error)``; ``per_chain``
    (N,) is one more float per chain (DLS's damping). The other arguments and
    the returns are :func:`.batched.ccd_batch`'s.
    """
    count = len(angles)
    a = limit_pose(angles, limits)
    error = np.empty(count)
    used = np.zeros(count, dtype=np.int64)
    for k in range(count):
        rx, ry = roots[k].tolist()
        tx, ty = targets[k].tolist()
        lim = None if limits is None else [tuple(p) for p in limits[k].tolist()]
        extra = () if per_chain is None else (float(per_chain[k]),)
        a[k], used[k], error[k] = row(rx, ry, a[k].tolist(), lengths[k].tolist(), tx, ty, int(iterations[k]),
                                      float(tolerance[k]), lim, *extra)
    return a, error, used


def limit_angles(values: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """Clamp relative angles to their limits, wrapping where a range is the full circle.

    Parameters
    ----------
    values : ndarray, shape (N,) or (N, n)
        Angles in radians.
    limits : ndarray, shape (N, 2) or (N, n, 2), or None
        ``(lo, hi)`` per angle; None means wrap only.
    """
    if limits is None:
        return wrap_array(values)
    lo = limits[..., 0]
    hi = limits[..., 1]
    clamped = np.minimum(np.maximum(values, lo), hi)
    clamped = np.where((clamped <= -PI) & (hi >= PI), PI, clamped)
    # a full circle wraps (kept inside a range a hair short of the circle)
    return np.where(hi - lo >= FULL_CIRCLE, np.clip(wrap_array(values), lo, hi), clamped)


def limit_headings(values: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Joint 0's angles (N,) clamped as :func:`.validate.clamp_heading` clamps one: a heading outside its
    range ``[lo, hi]`` (N,) goes to the bound nearer round the circle (so that a chain's mirror image
    is clamped to the mirrored bound); inside, or with the full circle, as :func:`limit_angles`."""
    base = limit_angles(values, np.stack([lo, hi], axis=-1))
    out = (hi - lo < FULL_CIRCLE) & ((values < lo) | (values > hi))
    if not out.any():
        return base
    w = np.where((values > -PI) & (values <= PI), values, wrap_array(values))
    near = np.where(np.mod(lo - w, TAU) < np.mod(w - hi, TAU), lo, hi)
    return np.where(out, np.where((lo <= w) & (w <= hi), w, near), base)


def limit_pose(angles: np.ndarray, limits: np.ndarray | None) -> np.ndarray:
    """Chains' starting poses (N, n) rad put inside their ``limits`` (N, n, 2): :func:`limit_angles`, joint 0
    by :func:`limit_headings`, and a relative angle of pi on a range from -pi kept on that bound (it is
    the same angle), as the single-chain calls start (a new array)."""
    a = limit_angles(angles, limits)
    if limits is not None and a.shape[1]:
        lo = limits[..., 0]
        on_low = (angles == PI) & (lo <= -PI) & (limits[..., 1] - lo < FULL_CIRCLE)
        if on_low.any():
            a = np.where(on_low, lo, a)
        a[:, 0] = limit_headings(angles[:, 0], limits[:, 0, 0], limits[:, 0, 1])
    return a


def joint_modes(limits: np.ndarray | None, n: int) -> list[str]:
    """How each joint of a group is limited: "wrap", "clamp" or "mixed".

    "wrap": every chain's range at that joint is the full circle (the angle is
    only wrapped); "clamp": no chain's is, and no range touches -pi or pi (a
    plain clamp is exact); "mixed": anything else (:func:`limit_angles`).
    Deciding this once per call lets the common cases skip the masks.
    """
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
        """At a checkpoint ``sweep``: clear ``active`` (in place) where the chains in ``rows`` stalled.

        Returns the mask (over ``rows``) of the chains this check stopped, or
        None at the first checkpoint (nothing to compare with yet).
        """
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
