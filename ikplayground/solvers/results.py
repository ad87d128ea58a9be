"""The solvers' result types, the step-through records, the stall rule and the checked single-chain problem.

Pixels (y down), radians, relative joint angles. FABRIK's half-passes are named as in Aristidou &
Lasenby 2011; CCD's turns follow the pygame CCD tutorial; the stall rule is this project's own.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .pole import mirrored_toward
from .validate import (BOUND, FULL_CIRCLE, MAX_COUNT, angles_list, chain_extent, clamp_angle, clamp_heading,
                       lengths_list, limits_list, non_negative, plain_float, plain_list, plain_point, point,
                       positive_int, wrap)


class TwoBoneSolution(NamedTuple):
    """Result of :func:`.two_bone.solve_two_bone`: scalars and (2,) for one chain, (N,) and (N, 2) for N.

    Attributes
    ----------
    knee, end : ndarray, shape (2,) or (N, 2)
        The joint between the bones and the end effector, px (y down).
    theta1, theta2 : float or ndarray (N,)
        Bone 1's absolute angle and bone 2's relative to it, rad, wrapped to (-pi, pi].
    reached : bool or ndarray (N,) of bool
        True exactly where the end is on the target (distance from the root in ``[|l1 - l2|, R]``,
        ``R`` being ``stretch * (l1 + l2)`` less the softness).
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
# Of the chain's length (px): two errors closer than this are one to rounding (FABRIK's best pose,
# DLS's step of next to nothing), so a chain's mirror image takes the same decisions.
ROUNDING = 1e-12

# rad: a solve given a heading reaches only with the last bone's direction this near it
HEADING_TOLERANCE = math.radians(1.0)

STATUSES = ("reached", "out of reach", "stalled", "iterations")
DIRECTIONS = ("forward", "backward", "straight", "restart", "best")  # FabrikStep.direction


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
        Why it stopped, the first that applies (``""`` if built by hand): "reached"; "out of reach"
        (beyond the chain's length plus the tolerance); "stalled" (every ``STALL_SWEEPS`` sweeps the error
        must drop by ``STALL_GAIN`` of the chain's length, or the solve stops before its budget; FABRIK
        also after its one straight pass, and from its third pass after one that gained no more than the
        pass before and whose gain, kept up for the passes left, could not bring the error down to the
        tolerance (the hopeless rule; not while a pole steps the chain or a restart may still come); CCD
        and FABRIK on a limited chain only after ``RESTARTS`` restarts, :mod:`.reshape`); "iterations" (the
        budget ran out while it still improved). With a heading see :mod:`.heading`.
    heading_error : float
        With a ``heading``: how far the last bone's absolute direction is from it, rad (>= 0), and
        ``reached`` also needs it within ``HEADING_TOLERANCE``; 0.0 without one.
    """

    angles: np.ndarray
    error: float
    iterations: int
    reached: bool = False
    status: str = ""
    heading_error: float = 0.0


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
    sweep, joint : int
        Which sweep (from 1) and joint (0 at the root; a sweep visits ``n - 1`` down to 0).
    angles : ndarray, shape (n,)
        The relative angles after the turn, rad (a copy).
    pivot, effector_before, effector_after : ndarray, shape (2,)
        The joint, and the end effector before and after the turn, px (y down).
    turn : float
        The turn applied after the limits, rad, wrapped to (-pi, pi]; positive is clockwise on screen.
    event : str
        "turn" (one joint turned); "restart" (a limited chain stuck short of its target took a new pose
        inside its limits: :mod:`.reshape`) or "best" (the return to the best pose a restart left), both
        with ``joint`` -1, ``pivot`` the root and ``turn`` 0.0.
    """

    sweep: int
    joint: int
    angles: np.ndarray
    pivot: np.ndarray
    effector_before: np.ndarray
    effector_after: np.ndarray
    turn: float
    event: str = "turn"


class FabrikStep(NamedTuple):
    """One move of a FABRIK solve (:func:`.fabrik.fabrik_steps`).

    Attributes
    ----------
    iteration : int
        Which pass, from 1 ("restart" belongs to the pass it starts, "best" to the last).
    direction : str
        One of ``DIRECTIONS``: "forward" (tip first onto the target), "backward" (re-anchored at the root,
        limits applied), "straight" (laid toward a target at or past full reach), "restart" (a limited
        chain stuck short of its target takes a pose drawn inside its limits, :mod:`.reshape`), "best"
        (the return to the best pose a restart left).
    points : ndarray, shape (n + 1, 2)
        The joints after the move, px (y down), ``[0]`` the root (a copy).
    angles : ndarray, shape (n,) or None
        Relative angles of ``points``, rad, or None after "forward" and "straight".
    """

    iteration: int
    direction: str
    points: np.ndarray
    angles: np.ndarray | None


_new = tuple.__new__
_ndarray = np.ndarray
_PAIR = (2,)
_float64 = np.dtype(np.float64)
_fromiter = np.fromiter
_hypot = math.hypot
_PI = math.pi
_INF = math.inf
_TENTH_BOUND = BOUND / 10


class ChainProblem(NamedTuple):
    """A chain and its target as plain floats, every argument checked.

    Root ``rx, ry`` and target ``tx, ty`` px; ``lengths`` (n floats, px) and their sum ``reach``;
    starting relative ``angles`` (n floats, rad) inside ``limits`` (n (lo, hi) rad pairs, or None);
    ``iterations`` (>= 1); ``tolerance`` px; ``pole`` (x, y) px or None.
    """

    rx: float
    ry: float
    tx: float
    ty: float
    lengths: list
    reach: float
    angles: list
    limits: list | None
    iterations: int
    tolerance: float
    pole: tuple | None = None

    def solution(self, angles: list, error: float, used: int, stalled: bool) -> IKSolution:
        """The :class:`IKSolution` of a solve that ended at ``angles``, ``error`` px away (mirrored toward the pole)."""
        rx, ry, tx, ty, lens, reach, _, lim, iterations, tolerance, pole = self
        if pole is not None:
            angles = mirrored_toward(rx, ry, tx, ty, angles, lens, pole, lim)
        if error <= tolerance:
            return _new(IKSolution, (_fromiter(angles, _float64, len(angles)), error, used, True, "reached", 0.0))
        # a stall at the very last iteration is "iterations": "stalled" means used < iterations, as in a batch
        status = ik_status(error, tolerance, _hypot(tx - rx, ty - ry), reach, stalled and used < iterations)
        return _new(IKSolution, (_fromiter(angles, _float64, len(angles)), error, used, False, status, 0.0))


def finish(loop):
    """The return value of a solver loop run without watching (it yields nothing)."""
    try:
        next(loop)
    except StopIteration as done:
        return done.value
    raise RuntimeError("a solver loop yielded a step while not watching")


def chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole=None) -> ChainProblem:
    """Check a single-chain solve's arguments (see :func:`~.ccd.solve_ccd`) and clamp the start into the limits.

    Raises
    ------
    ValueError, TypeError
        Naming the argument that is wrong.
    """
    if limits is None and pole is None and type(iterations) is int:
        fast = _plain_problem(root, angles, lengths, target, iterations, tolerance)
        if fast is not None:
            return fast
    rx, ry = point(root, "root")
    tx, ty = point(target, "target")
    lens = lengths_list(lengths)
    reach = sum(lens)
    chain_extent(rx, ry, reach)
    n = len(lens)
    a = angles_list(angles, n)
    lim = limits_list(limits, n)
    iterations = positive_int(iterations, "iterations")
    tolerance = non_negative(tolerance, "tolerance")
    if lim is not None:
        # (a start of pi on a range from -pi stays on that bound, as in a batch and in the mirror image)
        a = [clamp_heading(a[0], *lim[0])] + [lo if v == math.pi and lo <= -math.pi and hi - lo < FULL_CIRCLE
                                              else clamp_angle(v, lo, hi) for v, (lo, hi) in zip(a[1:], lim[1:])]
    if pole is not None:
        pole = point(pole, "pole")
    return ChainProblem(rx, ry, tx, ty, lens, reach, a, lim, iterations, tolerance, pole)


def _plain_problem(root, angles, lengths, target, iterations, tolerance) -> ChainProblem | None:
    """:func:`chain_problem` fast for the common call (no limits or pole; real numbers as floats, numpy scalars or
    small float arrays: :func:`~.validate.plain_list`); None for anything else or anything out of range."""
    f64 = _float64
    # (the commonest points, float64 (2,) arrays and 2-tuples of floats, without a call)
    if type(root) is _ndarray and root.dtype is f64 and root.shape == _PAIR:
        root = root.tolist()
    elif type(root) is not tuple or len(root) != 2 or type(root[0]) is not float or type(root[1]) is not float:
        root = plain_point(root)
    if type(target) is _ndarray and target.dtype is f64 and target.shape == _PAIR:
        target = target.tolist()
    elif type(target) is not tuple or len(target) != 2 or type(target[0]) is not float or type(target[1]) is not float:
        target = plain_point(target)
    if type(tolerance) is not float:
        tolerance = plain_float(tolerance)
    if (root is None or target is None or tolerance is None
            or not (1 <= iterations <= MAX_COUNT and 0.0 <= tolerance < _INF)):
        return None
    lens = plain_list(lengths)
    a = plain_list(angles)
    if lens is None or a is None:
        return None
    n = len(lens)
    if not n or len(a) != n:
        return None
    rx, ry = root
    tx, ty = target
    reach = sum(lens)
    # (each coordinate and the reach under a tenth of BOUND: the chain cannot reach past it; False for NaN)
    h = _TENTH_BOUND
    if not (-h < rx < h and -h < ry < h and -h < tx < h and -h < ty < h and reach < h and min(lens) > 0.0):
        return None
    if not _hypot(*a) < 3.0:  # (else every angle lies inside (-pi, pi): none to wrap; an inf or NaN fails it)
        total = sum(a)
        if total - total != 0.0:  # an inf or nan angle
            return None
        pi = _PI
        if not (-pi < min(a) and max(a) <= pi):  # some angle to wrap, as angles_list does
            a = [v if -pi < v <= pi else wrap(v) for v in a]
    return _new(ChainProblem, (rx, ry, tx, ty, lens, reach, a, None, iterations, tolerance, None))
