"""The checked arguments of one single-chain iterative solve (CCD, FABRIK, DLS); px (y down), rad."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .validate import (BOUND, FULL_CIRCLE, angles_list, chain_extent, clamp_angle, clamp_heading, lengths_list,
                       limits_list, non_negative, plain_list, point, positive_int, wrap)
from .pole import mirrored_toward
from .results import IKSolution, ik_status

_new = tuple.__new__
_ndarray = np.ndarray
_float64 = np.dtype(np.float64)
_fromiter = np.fromiter
_PAIR = (2,)
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
        # a stall at the very last iteration is "iterations": "stalled" means used < iterations, as in a batch
        status = "reached" if error <= tolerance else ik_status(error, tolerance, _hypot(tx - rx, ty - ry), reach,
                                                                 stalled and used < iterations)
        return _new(IKSolution, (_fromiter(angles, _float64, len(angles)), error, used, error <= tolerance, status))


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
    if (limits is None and pole is None and type(iterations) is int and type(tolerance) is float
            and type(root) is _ndarray and type(target) is _ndarray):
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
    """:func:`chain_problem` for the common call (no limits or pole, float64 arrays or float lists, in range), fast.

    None for anything else (the checks then name it).
    """
    f64 = _float64
    if not (root.dtype is f64 and target.dtype is f64 and root.shape == _PAIR and target.shape == _PAIR
            and iterations >= 1 and 0.0 <= tolerance < _INF):
        return None
    lens = lengths.tolist() if type(lengths) is _ndarray and lengths.dtype is f64 and lengths.ndim == 1 else (
        plain_list(lengths))
    a = angles.tolist() if type(angles) is _ndarray and angles.dtype is f64 and angles.ndim == 1 else (
        plain_list(angles))
    if lens is None or a is None:
        return None
    n = len(lens)
    if not n or len(a) != n:
        return None
    rx, ry = root.tolist()
    tx, ty = target.tolist()
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

