"""Cyclic Coordinate Descent one joint at a time: a solve you can step through.

The same CCD as :func:`~.ccd.solve_ccd` (after the pygame CCD tutorial: each
sweep visits the joints from the tip to the root and turns each one so the end
effector points at the target), written as a generator that yields a
:class:`CCDStep` after every single-joint turn, so a learner (or the
playground's step-through) can watch the solve happen.

:func:`~.ccd.ccd_sweeps`, the loop :func:`~.ccd.solve_ccd` runs, is the same
algorithm written out by hand for speed (forward kinematics and angle wrapping
inlined). This module keeps the steps readable and does the same arithmetic in
the same order, so a run to the end gives bit for bit the same
:class:`~.results.IKSolution`; ``tests/solvers/test_steps.py`` holds the two
equal. Screen coordinates (pixels, y down), radians, relative joint angles
(docs/design.md).
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import NamedTuple

import numpy as np

from ._problem import chain_problem
from ._validate import clamp_angle, wrap
from .results import IKSolution, StallWatch

_TAU = 2.0 * math.pi


class CCDStep(NamedTuple):
    """One joint's turn in a CCD solve (see :func:`ccd_steps`).

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


def ccd_steps(root, angles, lengths, target, *, iterations=10, tolerance=0.5,
              limits=None) -> Generator[CCDStep, None, IKSolution]:
    """Solve by CCD like :func:`~.ccd.solve_ccd`, yielding a record after every joint's turn.

    Parameters
    ----------
    root : array_like, shape (2,)
        Fixed position of joint 0, in pixels (y down).
    angles : array_like, shape (n,)
        Starting relative joint angles in radians.
    lengths : array_like, shape (n,)
        Bone lengths in pixels, each > 0.
    target : array_like, shape (2,)
        Goal for the end effector, in pixels.
    iterations : int, optional
        Most sweeps (>= 1); fewer run once the error is within ``tolerance``
        or stops improving (the stall rule of :class:`~.results.IKSolution`).
    tolerance : float, optional
        Distance in pixels that counts as reached.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` bounds in radians on each relative angle.

    Yields
    ------
    CCDStep
        One per single-joint turn: ``n`` a sweep, joints ``n - 1`` down to 0.

    Returns
    -------
    IKSolution
        As the generator's ``StopIteration.value``: exactly what
        :func:`~.ccd.solve_ccd` returns for the same arguments (no pole).

    Raises
    ------
    ValueError, TypeError
        As :func:`~.ccd.solve_ccd`, naming the argument, at the first ``next``.

    Examples
    --------
    >>> steps = ccd_steps((0, 0), [0.0, 0.0], [100, 80], (120, 60))
    >>> first = next(steps)
    >>> first.sweep, first.joint
    (1, 1)
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits)
    a = p.angles  # a fresh list: turned in place
    tx, ty = p.tx, p.ty
    watch = StallWatch(p.reach)
    used = 0
    stalled = False
    while True:
        # where the joints are at the start of the sweep (a sweep never moves
        # the pivots it has still to visit: they sit closer to the root)
        xs, ys = _joint_positions(p.rx, p.ry, a, p.lengths)
        ex, ey = xs[-1], ys[-1]
        error = math.hypot(tx - ex, ty - ey)
        if error <= p.tolerance:
            break
        if watch.stalled(used, error):
            stalled = True
            break
        if used == p.iterations:
            break
        used += 1
        for i in range(len(a) - 1, -1, -1):
            px, py = xs[i], ys[i]
            vx, vy = ex - px, ey - py  # pivot -> end effector
            # the turn that points the end effector at the target
            delta = math.atan2(ty - py, tx - px) - math.atan2(vy, vx)
            old = a[i]
            a[i] = _turned(old, delta, None if p.limits is None else p.limits[i])
            applied = a[i] - old
            before = (ex, ey)
            if applied:  # turn the end effector about the pivot by what was applied
                c, s = math.cos(applied), math.sin(applied)
                ex = px + c * vx - s * vy
                ey = py + s * vx + c * vy
            yield CCDStep(used, i, np.array(a), np.array((px, py)), np.array(before), np.array((ex, ey)),
                          wrap(applied))
    return p.solution(a, error, used, stalled)


def _joint_positions(rx: float, ry: float, a: list, lens: list) -> tuple[list, list]:
    """Forward kinematics: x and y of the ``n + 1`` joints (px), ``[0]`` the root, ``[-1]`` the end effector."""
    xs, ys = [rx], [ry]
    x, y, absolute = rx, ry, 0.0
    for angle, length in zip(a, lens):
        absolute += angle
        x += length * math.cos(absolute)
        y += length * math.sin(absolute)
        xs.append(x)
        ys.append(y)
    return xs, ys


def _turned(old: float, delta: float, limit) -> float:
    """The relative angle ``old`` turned by ``delta`` (rad): wrapped to (-pi, pi], or clamped into ``limit``."""
    if limit is None:
        new = old + delta
        # back into (-pi, pi]: delta lies in (-2pi, 2pi), so one or two turns of 2pi
        if new > math.pi:
            new -= _TAU
            if new > math.pi:
                new -= _TAU
        elif new <= -math.pi:
            new += _TAU
            if new <= -math.pi:
                new += _TAU
        return new
    if delta > math.pi:  # the shorter way round, then into the range
        delta -= _TAU
    elif delta <= -math.pi:
        delta += _TAU
    return clamp_angle(old + delta, *limit)
