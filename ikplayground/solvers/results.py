"""Result types returned by the solvers, the step records of the step-through solves, and the stall rule.

Pixels with y down, radians, relative joint angles (docs/design.md). The stall
rule and the step records are this project's own; the records name FABRIK's
half-passes as Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the
Inverse Kinematics problem", Graphical Models 73 (2011) name them, and CCD's
turns as the pygame CCD tutorial makes them.
"""

from __future__ import annotations

import math

from typing import NamedTuple

import numpy as np


class TwoBoneSolution(NamedTuple):
    """Result of :func:`ikplayground.solvers.solve_two_bone`.

    For a single chain the positions have shape ``(2,)`` and the angles and
    ``reached`` are scalars; for a batch of ``N`` chains the positions have
    shape ``(N, 2)`` and the rest shape ``(N,)``.

    Attributes
    ----------
    knee : ndarray, shape (2,) or (N, 2)
        Position of the joint between the bones, in pixels (y down).
    end : ndarray, shape (2,) or (N, 2)
        Position of the end effector, in pixels.
    theta1 : float or ndarray (N,)
        Absolute angle of bone 1 in radians, wrapped to (-pi, pi].
    theta2 : float or ndarray (N,)
        Angle of bone 2 relative to bone 1 in radians, wrapped to (-pi, pi].
    reached : bool or ndarray (N,) of bool
        True exactly where the end is placed on the target: the target's
        distance ``d`` from the root lies in ``[|l1 - l2|, R]``, where ``R`` is
        ``l1 + l2`` by default, ``stretch * (l1 + l2)`` with stretch, and that
        less ``softness`` with soft reach (the soft ease holds the end short of
        every farther target). Without softness or stretch: False where the
        target lay outside the annulus ``[|l1 - l2|, l1 + l2]``.
    scale : float or ndarray (N,)
        The factor both bones were scaled by (stretch), in ``[1, stretch]``:
        the bones drawn from ``knee`` and ``end`` are ``scale * l1`` and
        ``scale * l2`` long. 1.0 without stretch, and the default, so a
        solution built by hand from the first five fields reads 1.0.
    """

    knee: np.ndarray
    end: np.ndarray
    theta1: float | np.ndarray
    theta2: float | np.ndarray
    reached: bool | np.ndarray
    scale: float | np.ndarray = 1.0


# The stall rule shared by every CCD, FABRIK and DLS implementation (single-chain,
# batched numpy, compiled): see IKSolution.
STALL_SWEEPS = 8
STALL_GAIN = 1e-9
# FABRIK with joint limits: how many times one solve may mirror its bend out of
# a stall before the stall ends it (see fabrik.py).
STALL_ESCAPES = 3
# Of the chain's length (px): two errors closer than this are one to rounding. FABRIK goes back to
# the best pose an escape left only when it is better by more; DLS takes a step of next to nothing
# that raises the error by no more (so that a chain's mirror image, rounded another way, takes the
# same decisions: the playground's mirror flip).
ROUNDING = 1e-12

STATUSES = ("reached", "out of reach", "stalled", "iterations")
# What moved the joints in a FabrikStep, in the order a solve can make them.
DIRECTIONS = ("forward", "backward", "straight", "mirror", "best")


class StallWatch:
    """The stall rule for one single-chain solve (see :class:`IKSolution`).

    Parameters
    ----------
    reach : float
        The chain's total length in pixels; a gain under ``STALL_GAIN * reach``
        counts as none.
    """

    __slots__ = ("gain", "last")

    def __init__(self, reach: float):
        self.gain = STALL_GAIN * reach
        self.last = math.inf

    def stalled(self, used: int, error: float) -> bool:
        """True when, at a checkpoint (every ``STALL_SWEEPS`` sweeps), ``error``
        (px) has not dropped by more than the gain since the checkpoint before."""
        if used % STALL_SWEEPS:
            return False
        if used and not error < self.last - self.gain:
            return True
        self.last = error
        return False


class IKSolution(NamedTuple):
    """Result of an iterative solver (:func:`solve_ccd`, :func:`solve_fabrik`, :func:`solve_dls`).

    The first three fields are the original ones, in their original places;
    ``reached`` and ``status`` were added after them.

    Attributes
    ----------
    angles : ndarray, shape (n,)
        Relative joint angles in radians, wrapped to (-pi, pi] and inside the
        joint limits when limits were given.
    error : float
        Distance in pixels from the end effector of ``angles`` to the target.
    iterations : int
        Sweeps (CCD), forward/backward passes (FABRIK) or steps, rejected ones
        included (DLS), actually run.
    reached : bool
        ``error <= tolerance``.
    status : str
        Why the solver stopped, the first that applies of:

        ``"reached"``
            ``error <= tolerance``.
        ``"out of reach"``
            The target lies farther from the root than the chain's total
            length plus the tolerance, so no pose can reach it.
        ``"stalled"``
            The error stopped improving before ``iterations`` ran out: after
            every ``STALL_SWEEPS`` (8) sweeps or passes, the error is compared
            with the one ``STALL_SWEEPS`` sweeps before, and the solver stops
            unless it dropped by more than ``STALL_GAIN`` (1e-9) times the
            chain's total length (px). A chain pinned by its limits, or
            converged as far as rounding allows, stops within 16 sweeps of
            getting there, whatever ``iterations`` allows. (FABRIK also stops
            after its one straight pass toward a target at or past full reach.
            FABRIK on a chain with limits first tries up to ``STALL_ESCAPES``
            (3) mirrored bends, each followed by passes until the rule fires
            again, so its stall comes later; see :mod:`.fabrik`.) So
            "stalled" always has ``iterations`` below the budget.
        ``"iterations"``
            ``iterations`` ran out while the error was still improving (or
            while FABRIK was still trying a mirrored bend, or at the very
            check that found a stall).

        Built by hand with only the first three fields, ``reached`` is False
        and ``status`` is ``""`` (unknown).
    """

    angles: np.ndarray
    error: float
    iterations: int
    reached: bool = False
    status: str = ""


def ik_status(error: float, tolerance: float, distance: float, reach: float, stalled: bool) -> str:
    """The ``status`` of an :class:`IKSolution` (see there).

    ``distance`` is root to target and ``reach`` the chain's total length, in
    pixels; ``stalled`` tells whether the solver stopped by the stall rule.
    """
    if error <= tolerance:
        return "reached"
    if distance > reach + tolerance:
        return "out of reach"
    return "stalled" if stalled else "iterations"


class CCDStep(NamedTuple):
    """One joint's turn in a CCD solve (see :func:`.ccd.ccd_steps`).

    Attributes
    ----------
    sweep : int
        Which sweep, from 1.
    joint : int
        The joint turned, 0 at the root; a sweep visits ``n - 1`` down to 0.
    angles : ndarray, shape (n,)
        The whole chain's relative angles in radians after this turn (a copy).
    pivot : ndarray, shape (2,)
        The joint's position, in pixels (y down); it did not move.
    effector_before, effector_after : ndarray, shape (2,)
        The end effector before and after the turn, in pixels.
    turn : float
        The turn applied at the joint, after its limits, wrapped to (-pi, pi]
        rad; positive turns clockwise on screen. 0 where the limits hold the
        joint.
    """

    sweep: int
    joint: int
    angles: np.ndarray
    pivot: np.ndarray
    effector_before: np.ndarray
    effector_after: np.ndarray
    turn: float


class FabrikStep(NamedTuple):
    """One half-pass (or one of the solver's other moves) of a FABRIK solve (see :func:`.fabrik.fabrik_steps`).

    Attributes
    ----------
    iteration : int
        Which pass, from 1. A "mirror" record belongs to the pass it starts,
        a "best" record to the last pass.
    direction : str
        What moved the joints, one of ``DIRECTIONS``:

        ``"forward"``
            Forward reaching (tip first, the paper's name): the end effector
            set on the target, each joint pulled after its child. The chain
            has left its root, so ``angles`` is None.
        ``"backward"``
            Backward reaching (root first): re-anchored at the root and walked
            out, each bone back to its length (and, with limits, its joint
            clamped into its range).
        ``"straight"``
            The paper's unreachable case: a target at or past full reach gets
            the chain laid straight toward it in place of the forward walk
            (the backward walk still follows, applying the limits). ``angles``
            is None: the lay-out ignores the limits.
        ``"mirror"``
            The stall escape (limits only): the error stopped improving short
            of a reachable target, so the bend was mirrored (the relative
            angles of joints 1..n-1 negated, each clamped into its range).
        ``"best"``
            The end of a solve whose escapes left it worse off than the best
            pose one of them left: that pose, which is the answer.
    points : ndarray, shape (n + 1, 2)
        The joints after the move, in pixels (y down), ``[0]`` the root end,
        ``[-1]`` the end effector (a copy).
    angles : ndarray, shape (n,) or None
        Relative joint angles in radians of ``points`` (a copy), or None where
        the move left no valid angles ("forward", "straight").
    """

    iteration: int
    direction: str
    points: np.ndarray
    angles: np.ndarray | None
