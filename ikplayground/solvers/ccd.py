"""Cyclic Coordinate Descent (CCD) for a planar chain: the solve, and the same solve one joint at a time.

After the pygame CCD tutorial: each sweep visits the joints from the tip to
the root and turns each one so the end effector points at the target. A sweep
never moves the pivots it has still to visit (they sit closer to the root), so
one forward-kinematics pass per sweep plus one rotation of the end effector per
joint is the whole cost: O(n) per sweep.

Joint limits clamp the relative angle after each turn; the end effector is
turned by the angle actually applied, so positions and angles never disagree.
The sweeps stop early once the error stops improving (the stall rule of
:class:`~.results.IKSolution`).

One loop (:func:`ccd_loop`, a generator) serves both calls: :func:`solve_ccd`
runs it without watching (it yields nothing), :func:`ccd_steps` watching, when
it yields a :class:`CCDStep` after every single-joint turn, so a learner (or the
playground's step-through) can watch the solve happen; run to the end, it
returns exactly what :func:`solve_ccd` returns. Screen coordinates (pixels,
y down), radians, relative joint angles (docs/design.md).
"""

from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np

from .problem import chain_problem, finish
from .results import STALL_GAIN, STALL_SWEEPS, CCDStep, IKSolution
from .validate import clamp_angle, wrap


def solve_ccd(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by CCD sweeps.

    Parameters
    ----------
    root : array_like, shape (2,)
        Fixed position of joint 0, in pixels.
    angles : array_like, shape (n,)
        Starting relative joint angles in radians.
    lengths : array_like, shape (n,)
        Bone lengths in pixels, each > 0.
    target : array_like, shape (2,)
        Goal for the end effector, in pixels.
    iterations : int, optional
        Most sweeps to run (>= 1). Fewer run once the error stops improving
        (``status`` "stalled"), so a large budget is safe.
    tolerance : float, optional
        Stop once the end effector is this close to the target, in pixels.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` bounds in radians on each relative angle,
        ``-pi <= lo <= hi <= pi``. Starting angles outside them are clamped.
    pole : array_like, shape (2,), optional
        A point, in pixels, that chooses the side the chain bends toward: when
        the inner joints end on the other side of the root-target line, the
        pose is mirrored across that line (same error; not taken when the
        mirror image breaks a limit). See :mod:`.pole`.

    Returns
    -------
    IKSolution
        New angles, the end effector's distance to the target, sweeps used,
        ``reached`` and the ``status`` saying why the sweeps stopped.

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers (booleans, complex
        numbers and strings are refused), non-finite, a length <= 0, limits
        outside [-pi, pi], or a chain or target past ``+-1e300`` px.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, error, stalled = finish(ccd_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, False))
    return p.solution(a, error, used, stalled)


def ccd_steps(root, angles, lengths, target, *, iterations=10, tolerance=0.5,
              limits=None) -> Generator[CCDStep, None, IKSolution]:
    """Solve by CCD like :func:`solve_ccd`, yielding a record after every joint's turn.

    Parameters
    ----------
    root, angles, lengths, target, iterations, tolerance, limits
        As :func:`solve_ccd`: root and target (2,) px (y down), the starting
        relative angles (n,) rad and bone lengths (n,) px, the most sweeps,
        the px that count as reached, the ``(lo, hi)`` bounds (n, 2) rad.

    Yields
    ------
    CCDStep
        One per single-joint turn: ``n`` a sweep, joints ``n - 1`` down to 0.

    Returns
    -------
    IKSolution
        As the generator's ``StopIteration.value``: exactly what
        :func:`solve_ccd` returns for the same arguments (no pole).

    Raises
    ------
    ValueError, TypeError
        As :func:`solve_ccd`, naming the argument, at the first ``next``.

    Examples
    --------
    >>> steps = ccd_steps((0, 0), [0.0, 0.0], [100, 80], (120, 60))
    >>> first = next(steps)
    >>> first.sweep, first.joint
    (1, 1)
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits)
    a, used, error, stalled = yield from ccd_loop(p.rx, p.ry, p.angles, p.lengths, p.tx, p.ty, p.iterations,
                                                 p.tolerance, p.limits, True)
    return p.solution(a, error, used, stalled)


def ccd_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, watch):
    """The CCD loop: up to ``iterations`` sweeps on plain floats, px and rad.

    ``a`` (a list of the relative angles, inside ``lim``) is turned in place.
    Watching, a :class:`CCDStep` is yielded after every joint's turn; not
    watching, nothing is. Returns (``StopIteration.value``) ``(angles, sweeps
    used, error, stalled)``: ``error`` is the end effector's distance to the
    target after the last sweep, ``stalled`` whether the stall rule
    (:class:`~.results.IKSolution`) stopped the sweeps.

    Forward kinematics, the stall rule and the angle wrapping are written out
    inline: this is the single-chain hot path, and must stay as fast as the
    plain-Python versions it replaces (scripts/bench_solvers.py).
    """
    atan2, cos, sin, hypot = math.atan2, math.cos, math.sin, math.hypot
    pi, tau = math.pi, 2.0 * math.pi
    n = len(lens)
    joints = range(n - 1, -1, -1)
    bones = range(n)
    xs = [0.0] * n
    ys = [0.0] * n
    used = 0
    # the stall rule (StallWatch, inlined): the error at the last checkpoint, and the least gain
    last, gain = math.inf, STALL_GAIN * sum(lens)
    stalled = False
    free = lim is None
    while True:
        # where the joints are at the start of the sweep (a sweep never moves
        # the pivots it has still to visit: they sit closer to the root)
        x, y, absolute = rx, ry, 0.0
        for i in bones:
            xs[i] = x
            ys[i] = y
            absolute += a[i]
            x += lens[i] * cos(absolute)
            y += lens[i] * sin(absolute)
        error = hypot(tx - x, ty - y)
        if error <= tolerance:
            break
        if not used % STALL_SWEEPS:
            if used and not error < last - gain:
                stalled = True
                break
            last = error
        if used == iterations:
            break
        used += 1
        bx, by = x, y  # (watching) the end effector before the next turn
        for i in joints:
            px = xs[i]
            py = ys[i]
            vx = x - px  # pivot -> end effector
            vy = y - py
            old = a[i]
            # the turn that points the end effector at the target
            delta = atan2(ty - py, tx - px) - atan2(vy, vx)
            if free:  # wrapped to (-pi, pi]: delta lies in (-2pi, 2pi), so one or two turns of 2pi
                new = old + delta
                if new > pi:
                    new -= tau
                    if new > pi:
                        new -= tau
                elif new <= -pi:
                    new += tau
                    if new <= -pi:
                        new += tau
            else:  # the shorter way round, then into the range
                if delta > pi:
                    delta -= tau
                elif delta <= -pi:
                    delta += tau
                lo, hi = lim[i]
                new = clamp_angle(old + delta, lo, hi)
            a[i] = new
            applied = new - old
            if applied:  # turn the end effector about the pivot by what was applied
                c = cos(applied)
                s = sin(applied)
                x = px + c * vx - s * vy
                y = py + s * vx + c * vy
            if watch:
                yield CCDStep(used, i, np.array(a), np.array((px, py)), np.array((bx, by)), np.array((x, y)),
                              wrap(applied))
                bx, by = x, y
    return a, used, error, stalled
