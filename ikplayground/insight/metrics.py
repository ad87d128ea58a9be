"""Live metrics of one chain in preallocated ring buffers: per step its error (px), status, iterations (0 for
two-bone), solve time (``fields["solve_us"]``, microseconds), largest and mean joint turn (degrees) and whether
it was reached; and 2 s of joint angles for the joint-space map's trail."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ikplayground.scene import STATUSES, Chain

TRAIL_SECONDS = 2.0  # the joint angles kept for the trail


class MetricsRow(NamedTuple):
    """One recorded step of a chain."""

    error_px: float  # end effector to target, px
    status: str  # one of STATUSES
    iterations: int  # sweeps / passes / steps the solve used (0: two-bone)
    solve_us: float  # the solver call's time, microseconds
    max_change_deg: float  # the largest joint turn since the previous record, degrees


def wrapped_turn(after: np.ndarray, before: np.ndarray) -> np.ndarray:
    """The signed turn from ``before`` to ``after`` (rad, same shapes), the shorter way: in [-pi, pi)."""
    return np.mod(after - before + math.pi, 2.0 * math.pi) - math.pi


class ChainMetrics:
    """Ring buffers of the last ``seconds`` of one chain's steps (``round(seconds / step)`` records, ``step``
    the scene's, s). Another chain (or solver or bone count) starts over; a snake records nothing."""

    def __init__(self, seconds: float = 5.0, step: float = 1.0 / 60.0):
        if not seconds > 0 or not step > 0:
            raise ValueError(f"seconds and step must be > 0 (got {seconds!r}, {step!r})")
        self.step = float(step)
        self.capacity = max(1, int(round(seconds / step)))
        self.trail_capacity = max(1, min(self.capacity, int(round(TRAIL_SECONDS / step))))
        cap = self.capacity
        self._error = np.zeros(cap)
        self._status = np.zeros(cap, dtype=np.int8)
        self._iterations = np.zeros(cap, dtype=np.int64)
        self._solve_us = np.zeros(cap)
        self._max_change = np.zeros(cap)
        self._mean_change = np.zeros(cap)
        self._reached = np.zeros(cap, dtype=bool)
        self._angles = np.zeros((self.trail_capacity, 0))  # (trail_capacity, n) once a chain is recorded
        self._previous = np.zeros(0)  # the angles of the last record (rad)
        self.count = 0  # records since the last reset (the buffers hold min(count, capacity))
        self.chain: Chain | None = None  # the chain being recorded
        self._identity: tuple | None = None

    def __len__(self) -> int:
        """How many records the window holds."""
        return min(self.count, self.capacity)

    def reset(self, chain: Chain | None = None) -> None:
        """Forget the history; the next record is the first (of ``chain``)."""
        self.count = 0
        self.chain = chain
        self._identity = None if chain is None else (chain.solver, chain.bones)
        if chain is not None and chain.has_targets and self._angles.shape[1] != chain.bones:
            self._angles = np.zeros((self.trail_capacity, chain.bones))
            self._previous = np.zeros(chain.bones)

    def record(self, chain: Chain) -> None:
        """Add ``chain``'s state after a scene step."""
        if chain is not self.chain or (chain.solver, chain.bones) != self._identity:
            self.reset(chain)
        if not chain.has_targets:  # (an IK chain or a rig; a snake or a walker has nothing to measure)
            return
        f = chain.fields
        angles = f["angles"]
        if self.count:
            turn = np.abs(wrapped_turn(angles, self._previous))
            biggest, mean = math.degrees(float(turn.max())), math.degrees(float(turn.mean()))
        else:
            biggest = mean = 0.0
        i = self.count % self.capacity
        self._error[i] = chain.error
        self._status[i] = int(f["status"][0])
        self._iterations[i] = int(f["used"][0])
        self._solve_us[i] = float(f["solve_us"][0])
        self._max_change[i] = biggest
        self._mean_change[i] = mean
        self._reached[i] = bool(f["reached"][0])
        self._angles[self.count % self.trail_capacity] = angles
        self._previous[:] = angles
        self.count += 1

    def _oldest_first(self, ring: np.ndarray, capacity: int, k: int) -> np.ndarray:
        """The last ``k`` records of ``ring``, oldest first (a copy)."""
        end = self.count % capacity
        index = (np.arange(end - k, end)) % capacity
        return ring[index]

    def latest(self) -> MetricsRow | None:
        """The last record, or None when there is none."""
        if not self.count:
            return None
        i = (self.count - 1) % self.capacity
        return MetricsRow(float(self._error[i]), STATUSES[int(self._status[i])], int(self._iterations[i]),
                          float(self._solve_us[i]), float(self._max_change[i]))

    def errors(self) -> np.ndarray:
        """The error history (k,) px, oldest first."""
        return self._oldest_first(self._error, self.capacity, len(self))

    def trail(self, seconds: float = TRAIL_SECONDS) -> np.ndarray:
        """The joint angles (k, n) rad of the last ``seconds`` (at most ``TRAIL_SECONDS``), oldest first."""
        k = min(self.count, self.trail_capacity, max(0, int(round(seconds / self.step))))
        return self._oldest_first(self._angles, self.trail_capacity, k)

    def _mean(self, ring: np.ndarray) -> float:
        k = len(self)
        return float(ring[:k].mean()) if k else 0.0  # a mean does not care about the order

    def reached_share(self) -> float:
        """The share (0..1) of the window's records on the target."""
        return self._mean(self._reached)

    def mean_iterations(self) -> float:
        """The mean iterations used over the window."""
        return self._mean(self._iterations)

    def mean_solve_us(self) -> float:
        """The mean solver time over the window, microseconds."""
        return self._mean(self._solve_us)

    def jitter_deg(self) -> float:
        """The mean over the window of each step's mean joint turn, degrees."""
        return self._mean(self._mean_change)
