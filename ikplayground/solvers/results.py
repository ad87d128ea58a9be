"""The solvers' result types, the step-through records and the stall rule.

Pixels (y down), radians, relative joint angles. FABRIK's half-passes are named as in Aristidou &
Lasenby 2011; CCD's turns follow the pygame CCD tutorial; the stall rule is this project's own.
"""

from __future__ import annotations

import math

from typing import NamedTuple

import numpy as np


class TwoBoneSolution(NamedTuple):
    """Result of :func:`.two_bone.solve_two_bone`: scalars and (2,) for one chain, (N,) and (N, 2) for N.

    Attributes
    ----------
    knee, end : ndarray, shape (2,) or (N, 2)
        The joint between the bones and the end effector, px (y down).
    theta1 : float or ndarray (N,)
        Absolute angle of bone 1, rad, wrapped to (-pi, pi].
    theta2 : float or ndarray (N,)
        Bone 2's angle relative to bone 1, rad, wrapped to (-pi, pi].
    reached : bool or ndarray (N,) of bool
        True exactly where the end is on the target: its distance ``d`` from the root lies in
        ``[|l1 - l2|, R]``, ``R`` being ``stretch * (l1 + l2)`` less the softness.
    scale : float or ndarray (N,)
        The bones' common scale (stretch), in ``[1, stretch]``; 1.0 by default.
    """

    knee: np.ndarray
    end: np.ndarray
    theta1: float | np.ndarray
    theta2: float | np.ndarray
    reached: bool | np.ndarray
    scale: float | np.ndarray = 1.0


# The stall rule of every CCD, FABRIK and DLS implementation (see IKSolution).
STALL_SWEEPS = 8
STALL_GAIN = 1e-9
STALL_ESCAPES = 3  # FABRIK with limits: mirrored bends one solve may try (see fabrik.py)
# Of the chain's length (px): two errors closer than this are one to rounding (FABRIK's best pose,
# DLS's step of next to nothing), so a chain's mirror image takes the same decisions.
ROUNDING = 1e-12

STATUSES = ("reached", "out of reach", "stalled", "iterations")
DIRECTIONS = ("forward", "backward", "straight", "mirror", "best")  # FabrikStep.direction


class StallWatch:
    """The stall rule (:class:`IKSolution`) for one single-chain solve of a chain ``reach`` px long."""

    __slots__ = ("gain", "last")

    def __init__(self, reach: float):
        self.gain = STALL_GAIN * reach
        self.last = math.inf

    def stalled(self, used: int, error: float) -> bool:
        """True when, at a checkpoint (every ``STALL_SWEEPS``), ``error`` (px) gained no more than the gain."""
        if used % STALL_SWEEPS:
            return False
        if used and not error < self.last - self.gain:
            return True
        self.last = error
        return False


class IKSolution(NamedTuple):
    """Result of :func:`solve_ccd`, :func:`solve_fabrik` or :func:`solve_dls`.

    Attributes
    ----------
    angles : ndarray, shape (n,)
        Relative joint angles, rad, wrapped to (-pi, pi] and inside the limits.
    error : float
        End effector to target, px.
    iterations : int
        Sweeps (CCD), passes (FABRIK) or steps, rejected ones included (DLS), run.
    reached : bool
        ``error <= tolerance``.
    status : str
        Why the solver stopped, the first that applies (``""`` when built by hand): "reached";
        "out of reach" (farther than the chain's length plus the tolerance); "stalled" (at a checkpoint
        every ``STALL_SWEEPS`` (8) sweeps the error had not dropped by more than ``STALL_GAIN`` (1e-9)
        times the chain's length since the last, before the budget ran out; FABRIK also stops after its
        one straight pass at or past full reach, and first tries up to ``STALL_ESCAPES`` mirrored bends
        on a limited chain); "iterations" (the budget ran out while the error still improved).
    """

    angles: np.ndarray
    error: float
    iterations: int
    reached: bool = False
    status: str = ""


def ik_status(error: float, tolerance: float, distance: float, reach: float, stalled: bool) -> str:
    """The ``status`` of an :class:`IKSolution`; ``distance`` root to target and ``reach`` the chain's length, px."""
    if error <= tolerance:
        return "reached"
    if distance > reach + tolerance:
        return "out of reach"
    return "stalled" if stalled else "iterations"


class CCDStep(NamedTuple):
    """One joint's turn in a CCD solve (:func:`.ccd.ccd_steps`).

    Attributes
    ----------
    sweep : int
        Which sweep, from 1.
    joint : int
        The joint turned (0 at the root); a sweep visits ``n - 1`` down to 0.
    angles : ndarray, shape (n,)
        The relative angles after the turn, rad (a copy).
    pivot : ndarray, shape (2,)
        The joint's position, px (y down).
    effector_before, effector_after : ndarray, shape (2,)
        The end effector before and after the turn, px.
    turn : float
        The turn applied after the limits, rad, wrapped to (-pi, pi]; positive is clockwise on screen.
    """

    sweep: int
    joint: int
    angles: np.ndarray
    pivot: np.ndarray
    effector_before: np.ndarray
    effector_after: np.ndarray
    turn: float


class FabrikStep(NamedTuple):
    """One move of a FABRIK solve (:func:`.fabrik.fabrik_steps`).

    Attributes
    ----------
    iteration : int
        Which pass, from 1 ("mirror" belongs to the pass it starts, "best" to the last).
    direction : str
        One of ``DIRECTIONS``: "forward" (tip first onto the target), "backward" (re-anchored at the
        root, limits applied), "straight" (laid toward a target at or past full reach), "mirror" (a
        limited chain's stall escape: bend mirrored), "best" (the best pose an escape left).
    points : ndarray, shape (n + 1, 2)
        The joints after the move, px (y down), ``[0]`` the root (a copy).
    angles : ndarray, shape (n,) or None
        Relative angles of ``points``, rad, or None after "forward" and "straight".
    """

    iteration: int
    direction: str
    points: np.ndarray
    angles: np.ndarray | None
