"""The checked arguments of one single-chain iterative solve (CCD, FABRIK, DLS).

Both solvers take the same arguments and check them the same way; this is that
check, once. Pixels with y down, radians, relative joint angles (docs/design.md).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import (FULL_CIRCLE, angles_list, chain_extent, clamp_angle, clamp_heading, lengths_list, limits_list,
                        non_negative, point, positive_int)
from .pole import mirrored_toward
from .results import IKSolution, ik_status


class ChainProblem(NamedTuple):
    """A chain and its target as plain floats, every argument checked.

    Attributes
    ----------
    rx, ry, tx, ty : float
        Root and target, in pixels.
    lengths : list of float, length n
        Bone lengths in pixels, each > 0.
    reach : float
        ``sum(lengths)``, in pixels.
    angles : list of float, length n
        Starting relative angles in radians, already inside ``limits``.
    limits : list of (float, float) or None
        Per-joint ``(lo, hi)`` in radians.
    iterations : int
        Most sweeps or passes (>= 1).
    tolerance : float
        Distance in pixels that counts as reached (>= 0).
    pole : (float, float) or None
        The point, in pixels, whose side of the root-target line the chain
        bends toward (:mod:`.pole`).
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
        """The :class:`IKSolution` of a solve that ended at ``angles``, ``error`` px from the target.

        With a pole, ``angles`` becomes its mirror image when that puts the bend on the pole's side
        (:func:`.pole.mirrored_toward`; the error is the same).
        """
        angles = mirrored_toward(self.rx, self.ry, self.tx, self.ty, angles, self.lengths, self.pole, self.limits)
        distance = math.hypot(self.tx - self.rx, self.ty - self.ry)
        # a stall found at the very last iteration is the budget's end too: "iterations", so that
        # "stalled" always means "stopped before the budget ran out" (used < iterations), as the
        # batched calls tell it
        status = ik_status(error, self.tolerance, distance, self.reach, stalled and used < self.iterations)
        return IKSolution(np.array(angles), error, used, error <= self.tolerance, status)


def chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole=None) -> ChainProblem:
    """Check a single-chain solve's arguments (see :func:`~.ccd.solve_ccd`) and clamp the start into the limits
    (joint 0, a heading, by :func:`~._validate.clamp_heading`).

    Raises
    ------
    ValueError, TypeError
        Naming the argument that is wrong.
    """
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
        # (a start of -pi, wrapped to pi above, is on a range's lower bound -pi: kept there, as the
        # batched calls keep it, so that its mirror image, pi on an upper bound pi, is the same pose)
        a = [clamp_heading(a[0], *lim[0])] + [lo if v == math.pi and lo <= -math.pi and hi - lo < FULL_CIRCLE
                                              else clamp_angle(v, lo, hi) for v, (lo, hi) in zip(a[1:], lim[1:])]
    if pole is not None:
        pole = point(pole, "pole")
    return ChainProblem(rx, ry, tx, ty, lens, reach, a, lim, iterations, tolerance, pole)
