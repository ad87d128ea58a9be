"""FABRIK one half-pass at a time: a solve you can step through.

The same FABRIK as :func:`~.fabrik.solve_fabrik` (Aristidou & Lasenby,
"FABRIK: A fast, iterative solver for the Inverse Kinematics problem",
Graphical Models 73 (2011)), written as a generator that yields a
:class:`FabrikStep` after every half-pass: the forward reaching walk (tip
first: the end effector is set on the target and each joint pulled after its
child) and the backward reaching walk (root first: the chain re-anchored at the
root and walked back out). So that the run is exact, the solver's other moves
are records too (see :class:`FabrikStep`): the straight lay-out toward a target
out of reach, the stall escape that mirrors a limited chain's bend, and the
final return to the best pose an escape left (module docstring of
:mod:`.fabrik`).

:func:`~.fabrik.fabrik_passes`, the loop :func:`~.fabrik.solve_fabrik` runs, is
the same algorithm written out in one piece for speed. This module splits it
into readable walks doing the same arithmetic in the same order, so a run to
the end gives bit for bit the same :class:`~.results.IKSolution`;
``tests/solvers/test_steps.py`` holds the two equal. Screen coordinates
(pixels, y down), radians, relative joint angles (docs/design.md).
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import NamedTuple

import numpy as np

from ._problem import chain_problem
from ._validate import FULL_CIRCLE, clamp_angle, clamp_heading, wrap
from .fabrik import mirror_bend
from .kinematics import chain_points
from .results import ROUNDING, STALL_ESCAPES, IKSolution, StallWatch

DIRECTIONS = ("forward", "backward", "straight", "mirror", "best")


class FabrikStep(NamedTuple):
    """One half-pass (or one of the solver's other moves) of a FABRIK solve (see :func:`fabrik_steps`).

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


def fabrik_steps(root, angles, lengths, target, *, iterations=10, tolerance=0.5,
                 limits=None) -> Generator[FabrikStep, None, IKSolution]:
    """Solve by FABRIK like :func:`~.fabrik.solve_fabrik`, yielding a record after every half-pass.

    Parameters
    ----------
    root, angles, lengths, target, iterations, tolerance, limits
        As :func:`~.ccd_steps.ccd_steps`: points (2,) and the chain's relative
        angles and bone lengths (n,) in pixels (y down) and radians; the most
        passes; the distance in pixels that counts as reached; ``(lo, hi)``
        bounds (n, 2) in radians.

    Yields
    ------
    FabrikStep
        A pass is a "forward" (or "straight") record and then a "backward"
        one; "mirror" and "best" records show the stall escapes of a limited
        chain (:class:`FabrikStep`).

    Returns
    -------
    IKSolution
        As the generator's ``StopIteration.value``: exactly what
        :func:`~.fabrik.solve_fabrik` returns for the same arguments (no pole).

    Raises
    ------
    ValueError, TypeError
        As :func:`~.ccd.solve_ccd`, naming the argument, at the first ``next``.

    Examples
    --------
    >>> steps = fabrik_steps((0, 0), [0.0, 0.0], [100, 80], (120, 60))
    >>> [next(steps).direction, next(steps).direction]
    ['forward', 'backward']
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits)
    a, lim, lens, n = p.angles, p.limits, p.lengths, len(p.lengths)
    xs, ys = _points(p.rx, p.ry, a, lens)
    dist = math.hypot(p.tx - p.rx, p.ty - p.ry)
    unreachable = dist >= p.reach
    # the unit vector root -> target: where a joint with no direction of its own steps
    toward = ((p.tx - p.rx) / dist, (p.ty - p.ry) / dist) if dist > 0.0 else (1.0, 0.0)
    # which joints a limit bends (a full-circle range is no limit); one past the tip for the walk's i + 1
    bent = [False] * (n + 1) if lim is None else [hi - lo < FULL_CIRCLE for lo, hi in lim] + [False]
    escapes = STALL_ESCAPES if any(bent) and not unreachable else 0
    used = 0
    watch = StallWatch(p.reach)
    stalled = False
    best, best_error = None, math.inf  # the best pose an escape left, and its error
    while True:
        error = math.hypot(p.tx - xs[n], p.ty - ys[n])
        if error <= p.tolerance:
            break
        if watch.stalled(used, error):
            left = a[:] if escapes and used < p.iterations else None
            if left is None or not mirror_bend(a, lim):
                stalled = True
                break
            if error < best_error:
                best, best_error = left, error
            escapes -= 1  # mirrored: start again from there, the stall watch too
            watch.last = math.inf
            xs, ys = _points(p.rx, p.ry, a, lens)
            yield FabrikStep(used + 1, "mirror", _array(xs, ys), np.array(a))
        if used and unreachable:  # the straight pass is the answer
            stalled = True
            break
        if used == p.iterations:
            break
        used += 1
        if unreachable:
            _lay_straight(xs, ys, lens, p.rx, p.ry, toward)
            yield FabrikStep(used, "straight", _array(xs, ys), None)
        else:
            _reach_forward(xs, ys, lens, p.tx, p.ty, lim, bent, toward)
            yield FabrikStep(used, "forward", _array(xs, ys), None)
        if lim is None:
            _reach_backward(xs, ys, lens, p.rx, p.ry, toward)
            shown = _angles_of(xs, ys)
        else:
            _reach_backward_limited(xs, ys, a, lens, p.rx, p.ry, lim)
            shown = a
        yield FabrikStep(used, "backward", _array(xs, ys), np.array(shown))
    if best_error < math.hypot(p.tx - xs[n], p.ty - ys[n]) - ROUNDING * p.reach:  # the escapes found nothing better
        a[:] = best
        xs, ys = _points(p.rx, p.ry, a, lens)
        yield FabrikStep(used, "best", _array(xs, ys), np.array(a))
    if used and lim is None:  # the passes worked on positions alone: read the angles back
        a = _angles_of(xs, ys)
    return p.solution(a, math.hypot(p.tx - xs[n], p.ty - ys[n]), used, stalled)


def _lay_straight(xs: list, ys: list, lens: list, rx: float, ry: float, toward: tuple) -> None:
    """Lay the chain straight from the root ``(rx, ry)`` along ``toward`` (a unit vector), in place."""
    ux, uy = toward
    along = 0.0
    for i in range(len(lens)):
        along += lens[i]
        xs[i + 1] = rx + ux * along
        ys[i + 1] = ry + uy * along


def _reach_forward(xs, ys, lens, tx, ty, lim, bent, toward) -> None:
    """Forward reaching, in place: the end effector onto the target, each joint pulled after its child.

    Joint i goes one bone length from joint i+1 toward where it was. Where
    joint i+1 has a limit (``bent[i + 1]``), bone i's direction is first
    turned until bone i+1's angle about it lies in that range (this project's
    change, :mod:`.fabrik`).
    """
    ux, uy = toward
    x, y = tx, ty
    xs[-1], ys[-1] = x, y
    for i in range(len(lens) - 1, -1, -1):
        dx, dy = xs[i] - x, ys[i] - y  # joint i+1 -> joint i's old place
        if bent[i + 1]:
            child = math.atan2(ys[i + 2] - y, xs[i + 2] - x)  # bone i+1's direction
            d = math.atan2(-dy, -dx) if (dx or dy) else math.atan2(uy, ux)  # bone i's wanted direction
            lo, hi = lim[i + 1]
            d = child - clamp_angle(wrap(child - d), lo, hi)
            x -= lens[i] * math.cos(d)
            y -= lens[i] * math.sin(d)
        else:
            x, y = _bone_on(x, y, dx, dy, lens[i], -ux, -uy)
        xs[i], ys[i] = x, y


def _reach_backward(xs, ys, lens, rx, ry, toward) -> None:
    """Backward reaching without limits, in place: joint 0 back on the root ``(rx, ry)``, each next joint
    one bone length on toward its old place."""
    ux, uy = toward
    x, y = rx, ry
    xs[0], ys[0] = x, y
    for i in range(len(lens)):
        x, y = _bone_on(x, y, xs[i + 1] - x, ys[i + 1] - y, lens[i], ux, uy)
        xs[i + 1], ys[i + 1] = x, y


def _reach_backward_limited(xs, ys, a, lens, rx, ry, lim) -> None:
    """Backward reaching with limits, in place, in angles: joint 0 back on the root ``(rx, ry)``, each
    bone's angle relative to its parent clamped into its range (``a`` updated), so the angles returned
    always satisfy the limits."""
    x, y = rx, ry
    xs[0], ys[0] = x, y
    parent = 0.0  # the parent bone's absolute angle (rad)
    for i in range(len(lens)):
        dx, dy = xs[i + 1] - x, ys[i + 1] - y
        want = math.atan2(dy, dx) if (dx or dy) else parent + a[i]
        rel = (clamp_angle if i else clamp_heading)(wrap(want - parent), *lim[i])  # joint 0: a heading
        a[i] = rel
        parent += rel
        x += lens[i] * math.cos(parent)
        y += lens[i] * math.sin(parent)
        xs[i + 1], ys[i + 1] = x, y


def _bone_on(x: float, y: float, dx: float, dy: float, length: float, fx: float, fy: float) -> tuple[float, float]:
    """The point ``length`` px from ``(x, y)`` along ``(dx, dy)``; along the unit vector ``(fx, fy)``
    when ``(dx, dy)`` is zero."""
    d = math.hypot(dx, dy)
    if d > 0.0:
        k = length / d
        if k == math.inf:  # d tiny against the bone: scale the other way round
            k = length
            dx /= d
            dy /= d
        return x + dx * k, y + dy * k
    return x + fx * length, y + fy * length


def _angles_of(xs: list, ys: list) -> list:
    """Relative angles (rad, wrapped to (-pi, pi]) of the joints ``xs``, ``ys``."""
    out, parent = [], 0.0
    for i in range(len(xs) - 1):
        absolute = math.atan2(ys[i + 1] - ys[i], xs[i + 1] - xs[i])
        out.append(wrap(absolute - parent))
        parent = absolute
    return out


def _points(rx: float, ry: float, a: list, lens: list) -> tuple[list, list]:
    """The joints' x and y coordinates (two lists of n + 1 floats, px) of the pose ``a``."""
    pts = chain_points(rx, ry, a, lens)
    return [q[0] for q in pts], [q[1] for q in pts]


def _array(xs: list, ys: list) -> np.ndarray:
    """The joints as an (n + 1, 2) array (a copy), px."""
    return np.column_stack((xs, ys))
