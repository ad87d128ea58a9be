"""Cyclic Coordinate Descent (CCD) for a planar chain, after the pygame CCD tutorial.

Each sweep turns the joints, tip to root, so the end effector points at the target; limits clamp
each turn. One loop (:func:`ccd_loop`) serves :func:`solve_ccd` and the step-through
:func:`ccd_steps`. Pixels (y down), radians, relative joint angles.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from functools import partial

import numpy as np

from .avoid import clear_restart, nearer_turn, pose_clear, turn_joints, turn_room, watched_pairs
from .heading import aimed_loop, aimed_solution, heading_of
from .kept_clear import kept_clear, solution
from .kinematics import joint_xy
from .obstacles import obstacle_list
from .reshape import (BEHIND, CRAWL_RATIO, POLE_TURN, RESTARTS, SPIN_LEVER, loop_pole, pole_frame, pole_step,
                      restart_pose, restart_seed, restartable)
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS, CCDStep, ChainProblem, IKSolution, chain_problem, finish
from .validate import FULL_CIRCLE, clamp_angle, clamp_heading, wrap


def solve_ccd(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None,
              heading=None, obstacles=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by CCD sweeps.

    Parameters
    ----------
    root, target : array_like, shape (2,)
        Joint 0 and the end effector's goal, px (y down).
    angles, lengths : array_like, shape (n,)
        Starting relative joint angles (rad) and bone lengths (px, each > 0).
    iterations, tolerance : int, float, optional
        Most sweeps (>= 1; fewer run once the error stalls) and the distance (px) that counts as reached.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` rad per relative angle, ``-pi <= lo <= hi <= pi``; the start is clamped into them.
    pole : array_like, shape (2,), optional
        A point (px) whose side of the root-target line the chain bends to: with three bones or more a
        step toward it before each sweep that keeps the end (:func:`.reshape.pole_step`), at most
        ``POLE_TURN`` rad a joint a solve, so warm-started solves roll over to it without a jump; two
        bones are mirrored across that line when that puts the bend on its side (:mod:`.pole`).
    heading : float, optional
        The last bone's absolute direction, rad (y down: clockwise on screen), as well as its end on
        ``target``: the first n - 1 bones solve for the point the last bone must start from, then it is
        aimed (clamped into its limit); a one-bone chain is only aimed (:mod:`.heading`).
    obstacles : array_like, shape (k, 3), optional
        Circles ``(x, y, r)`` px: no bone the start has clear of a circle ends in it, nor passes through it
        on the way (each turn stops at the first contact along its sweep: :mod:`.avoid`). With a heading,
        the first n - 1 bones keep clear as they solve; where the last bone, aimed, would end in a circle
        the start had it clear of, the solve ends at its start. None or ``(0, 3)``: as without.

    Returns
    -------
    IKSolution
        Angles, error (px), sweeps used, ``reached`` (with a heading, also within ``HEADING_TOLERANCE``
        of it), ``status`` and ``heading_error`` (rad).

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers, non-finite, a length <= 0, limits outside
        [-pi, pi], a chain or target past ``+-1e300`` px, or obstacles not rows ``(x, y, r)``, ``r > 0``.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    obs = None if obstacles is None else obstacle_list(obstacles)
    pole, p = loop_pole(p, heading is not None)  # stepped toward inside the loop, not mirrored after it
    if heading is not None:
        h = heading_of(heading)
        a, used = finish(aimed_loop(p, h, partial(ccd_run, pole=pole, obs=obs), False))
        return aimed_solution(p, h, kept_clear(p, a, obs), used)
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, error, stalled = finish(ccd_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, False, pole,
                                              obs))
    return solution(p, a, error, used, stalled, obs)


def ccd_steps(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None,
              heading=None, obstacles=None) -> Generator[CCDStep, None, IKSolution]:
    """Solve like :func:`solve_ccd`, yielding a :class:`CCDStep` after every joint's turn (and restart).

    Returns (``StopIteration.value``) exactly what :func:`solve_ccd` returns; raises as it does at the
    first ``next``. With a ``heading`` the turns are the first n - 1 bones', each record showing the
    last bone aimed and the tip (:func:`.heading.aimed_records`).

    >>> steps = ccd_steps((0, 0), [0.0, 0.0], [100, 80], (120, 60))
    >>> first = next(steps)
    >>> first.sweep, first.joint
    (1, 1)
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    obs = None if obstacles is None else obstacle_list(obstacles)
    pole, p = loop_pole(p, heading is not None)
    if heading is not None:
        h = heading_of(heading)
        a, used = yield from aimed_loop(p, h, partial(ccd_run, pole=pole, obs=obs), True)
        return aimed_solution(p, h, kept_clear(p, a, obs), used)
    a, used, error, stalled = yield from ccd_loop(p.rx, p.ry, p.angles, p.lengths, p.tx, p.ty, p.iterations,
                                                 p.tolerance, p.limits, True, pole, obs)
    return solution(p, a, error, used, stalled, obs)


def ccd_run(q: ChainProblem, watch: bool, pole=None, obs=None):
    """:func:`ccd_loop` on a checked problem (the reduced ones of :mod:`.heading`), pulled toward ``pole``."""
    return ccd_loop(q.rx, q.ry, q.angles, q.lengths, q.tx, q.ty, q.iterations, q.tolerance, q.limits, watch, pole,
                    obs)


def ccd_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, watch, pole=None, obs=None):
    """Up to ``iterations`` CCD sweeps on plain floats (px, rad), ``a`` turned in place.

    Yields a :class:`CCDStep` per turn when ``watch`` (and per restart, and for the return to the best
    pose: ``event``); returns ``(angles, sweeps used, error, stalled)``. ``pole`` (x, y) px or None: a
    :func:`.reshape.pole_step` before each sweep (three bones or more). A limited chain stuck short of a
    target within reach restarts (:func:`.reshape.restart_pose`) up to ``RESTARTS`` times and keeps its
    best pose. ``obs``: circles ``(x, y, r)`` px (a list of triples) or None; each turn stops short of the
    first contact of a bone with a circle the start had it clear of (:func:`.avoid.turn_room`), and a pole
    step or restart that would put one in a circle is not taken. Forward kinematics, the stall rule and
    wrapping are inlined (the hot path).
    """
    atan2, cos, sin, hypot = math.atan2, math.cos, math.sin, math.hypot
    pi, tau = math.pi, 2.0 * math.pi
    n = len(lens)
    joints = range(n - 1, -1, -1)
    bones = range(n)
    xs = [0.0] * (n + 1)
    ys = [0.0] * (n + 1)
    used = 0
    # the stall rule (IKSolution's, inlined): the error at the last checkpoint, and the least gain
    reach = sum(lens)
    last, gain = math.inf, STALL_GAIN * reach
    stalled = False
    free = lim is None
    restarts = -1  # restarts left (worked out at the first checkpoint that could take one)
    state = 0
    best, best_error = None, math.inf  # the best pose a restart left, and its error
    h = 0.0
    if pole is not None and n > 2 and hypot(tx - rx, ty - ry) < reach:
        ux, uy, h = pole_frame(rx, ry, tx, ty, *pole, reach)
        spin = SPIN_LEVER * reach / n
        spin *= spin  # px^2: with a pole, a joint whose pivot lies this near the end is left be
    turns = POLE_TURN  # rad: what the pole's steps may still turn a joint this solve
    restarted = False
    mask = None  # the (bone, circle) pairs kept clear, or None (no obstacles within reach)
    if obs:
        mask = [[False] * len(obs) for _ in bones]
        if not watched_pairs(*joint_xy(rx, ry, a, lens), n, obs, reach, mask):
            mask = None
    while True:
        if h and used < iterations and turns > 0.0 and not restarted:  # the pole's step (each sweep)
            xs, ys = joint_xy(rx, ry, a, lens)
            saved = None if mask is None else a[:]
            turns -= pole_step(a, lens, xs, ys, n, ux, uy, h, reach, turns)
            limit_pose(a, lim)
            if mask is not None and not pose_clear(*joint_xy(rx, ry, a, lens), n, obs, mask):
                a[:] = saved  # a step into a circle is not taken
        restarted = False
        # the joints at the start of the sweep (a sweep never moves the pivots it has still to visit)
        x, y, absolute = rx, ry, 0.0
        for i in bones:
            xs[i] = x
            ys[i] = y
            absolute += a[i]
            x += lens[i] * cos(absolute)
            y += lens[i] * sin(absolute)
        xs[n] = x
        ys[n] = y
        error = hypot(tx - x, ty - y)
        if error <= tolerance:
            break
        if not used % STALL_SWEEPS:
            stuck = used and not error < last - gain
            # (a restart needs a stall window of budget left, else it could only cost the sweeps it takes)
            go = used and used + STALL_SWEEPS <= iterations and (stuck or not error < CRAWL_RATIO * last)
            if go and restarts < 0:  # a limited chain, a joint after the root free to move, a target within reach
                # (or, with circles to keep clear of, any chain)
                restarts = RESTARTS if hypot(tx - rx, ty - ry) < reach and (
                    mask is not None or not free and restartable(lim)) else 0
            if go and restarts > 0:
                if error < best_error:
                    best, best_error = a[:], error
                if mask is None:
                    state = restart_pose(a, lens, lim, rx, ry, tx, ty, state or restart_seed(lens))
                    a[0] = clamp_heading(a[0], *lim[0])
                    taken = True
                else:  # (a pose that keeps every watched pair clear, if one of a few is)
                    state, taken = clear_restart(a, lens, lim or [(-pi, pi)] * n, rx, ry, tx, ty,
                                                 state or restart_seed(lens), obs, mask, True)
                restarts -= 1
                if taken:
                    last = math.inf  # the stall watch starts again from the new pose
                    restarted = True
                    if watch:
                        yield CCDStep(used + 1, -1, np.array(a), np.array((rx, ry)), np.array((x, y)),
                                      _tip(rx, ry, a, lens), 0.0, "restart")
                    continue
            if stuck:
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
            if h and vx * vx + vy * vy < spin:  # (with a pole) a joint next to the end: left be
                if watch:
                    yield CCDStep(used, i, np.array(a), np.array((px, py)), np.array((bx, by)), np.array((x, y)), 0.0)
                continue
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
                want = old + delta
                new = clamp_angle(want, lo, hi)
                if abs(delta) > BEHIND and new != want and hi - lo < FULL_CIRCLE:
                    # the aim straight behind (to rounding): either way round is as short, so the way that
                    # ends nearer it, whichever side rounding put it (so a batch row turns as the single call)
                    other = clamp_angle(want - tau if delta > 0.0 else want + tau, lo, hi)
                    if abs(wrap(other - want)) < abs(wrap(new - want)):
                        new = other
            if mask is not None:  # stopped short of the first contact along the sweep
                full = free or lim[i][1] - lim[i][0] >= FULL_CIRCLE
                rot = wrap(new - old) if full else new - old
                applied = turn_room(xs, ys, i, n, rot, obs, mask)
                if applied != rot and full:  # stopped: the other way round, if its clear part ends nearer
                    other = turn_room(xs, ys, i, n, rot - math.copysign(tau, rot), obs, mask)
                    if nearer_turn(px, py, x, y, tx, ty, other, applied):
                        applied = other
                if applied != rot:
                    new = wrap(old + applied) if full else old + applied
                a[i] = new
                if applied:
                    turn_joints(xs, ys, i, n, applied)
                    x = xs[n]
                    y = ys[n]
                if watch:
                    yield CCDStep(used, i, np.array(a), np.array((px, py)), np.array((bx, by)), np.array((x, y)),
                                  wrap(applied))
                    bx, by = x, y
                continue
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
    if best is not None and best_error < error - ROUNDING * reach:  # the restarts found something better before
        a[:] = best
        if watch:
            yield CCDStep(used, -1, np.array(a), np.array((rx, ry)), np.array((x, y)),
                          _tip(rx, ry, a, lens), 0.0, "best")
        error = best_error
    return a, used, error, stalled


def limit_pose(a, lim) -> None:
    """``a`` (rad, in place) wrapped, or clamped into ``lim`` ((lo, hi) pairs; joint 0 as a heading)."""
    if lim is None:
        for i in range(len(a)):
            a[i] = wrap(a[i])
        return
    a[0] = clamp_heading(a[0], *lim[0])
    for i in range(1, len(a)):
        a[i] = clamp_angle(a[i], *lim[i])


def _tip(rx: float, ry: float, a, lens) -> np.ndarray:
    """The end effector (2,) px of the pose ``a`` (rad)."""
    xs, ys = joint_xy(rx, ry, a, lens)
    return np.array((xs[-1], ys[-1]))
