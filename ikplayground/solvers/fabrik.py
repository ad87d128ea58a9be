"""FABRIK for a planar chain: Aristidou & Lasenby 2011, "FABRIK: A fast, iterative solver for the IK problem".

Each pass drags the chain tip-first onto the target (forward reaching), then re-anchors it at the root
and walks back out (backward reaching); a target out of reach gets the chain laid straight toward it.
Joint limits are this project's own: both walks apply them (joint 0 as a heading,
:func:`~.validate.clamp_heading`; the forward walk turns each bone into its child's range), and a
limited chain stuck short of a target within its length restarts from drawn poses, keeping the best
(:mod:`.reshape`); a pole steps the chain toward its side before each pass (:func:`.reshape.pole_step`).
:mod:`.fabrik_arrays` and :mod:`._jit_kernels` do the same step for step. Pixels (y down), radians,
relative joint angles.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from functools import partial

import numpy as np

from .avoid import clear_restart, placed, pose_clear, watched_pairs
from .heading import aimed_loop, aimed_solution, heading_of
from .kept_clear import kept_clear, solution
from .kinematics import joint_xy as _points
from .ccd import limit_pose
from .obstacles import obstacle_list
from .reshape import (CRAWL_RATIO, POLE_TURN, RESTARTS, loop_pole, pole_frame, pole_step, restart_pose, restart_seed,
                      restartable)
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS, ChainProblem, FabrikStep, IKSolution, chain_problem, finish
from .validate import FULL_CIRCLE, TAU, clamp_angle, clamp_heading, wrap

_INF = math.inf


def solve_fabrik(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None,
                 heading=None, obstacles=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by FABRIK passes.

    Arguments, result and errors as :func:`~.ccd.solve_ccd`'s (root and target (2,) px, y down; angles
    and lengths (n,) rad and px; limits (n, 2) rad; pole (2,) px; heading rad, the last bone's absolute
    direction, reached by the reduction of :mod:`.heading`; obstacles (k, 3) circles ``(x, y, r)`` px,
    each joint the walks place turned to the nearest direction that keeps its bone clear: :mod:`.avoid`),
    ``iterations`` counting forward and backward passes (>= 1).
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    obs = None if obstacles is None else obstacle_list(obstacles)
    pole, p = loop_pole(p, heading is not None)  # stepped toward inside the loop, not mirrored after it
    if heading is not None:
        h = heading_of(heading)
        a, used = finish(aimed_loop(p, h, partial(fabrik_run, pole=pole, obs=obs), False))
        return aimed_solution(p, h, kept_clear(p, a, obs), used)
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, (ex, ey), stalled = finish(fabrik_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, False,
                                                    pole, obs))
    return solution(p, a, math.hypot(tx - ex, ty - ey), used, stalled, obs)


def fabrik_steps(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None,
                 heading=None, obstacles=None) -> Generator[FabrikStep, None, IKSolution]:
    """Solve like :func:`solve_fabrik`, yielding a :class:`~.results.FabrikStep` after every half-pass.

    "restart" and "best" records show a limited chain's escapes from a stall. Returns (``StopIteration.value``)
    bit for bit what :func:`solve_fabrik` returns; raises as it does at the first ``next``. With a
    ``heading`` the passes move the first n - 1 bones, each record showing the last bone aimed
    (:func:`.heading.aimed_records`).

    >>> steps = fabrik_steps((0, 0), [0.0, 0.0], [100, 80], (120, 60))
    >>> [next(steps).direction, next(steps).direction]
    ['forward', 'backward']
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    obs = None if obstacles is None else obstacle_list(obstacles)
    pole, p = loop_pole(p, heading is not None)
    if heading is not None:
        h = heading_of(heading)
        a, used = yield from aimed_loop(p, h, partial(fabrik_run, pole=pole, obs=obs), True)
        return aimed_solution(p, h, kept_clear(p, a, obs), used)
    a, used, (ex, ey), stalled = yield from fabrik_loop(p.rx, p.ry, p.angles, p.lengths, p.tx, p.ty, p.iterations,
                                                    p.tolerance, p.limits, True, pole, obs)
    return solution(p, a, math.hypot(p.tx - ex, p.ty - ey), used, stalled, obs)


def fabrik_run(q: ChainProblem, watch: bool, pole=None, obs=None):
    """:func:`fabrik_loop` on a checked problem (the reduced ones of :mod:`.heading`), stepped toward ``pole``."""
    return fabrik_loop(q.rx, q.ry, q.angles, q.lengths, q.tx, q.ty, q.iterations, q.tolerance, q.limits, watch,
                       pole, obs)


def fabrik_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, watch, pole=None, obs=None):
    """Up to ``iterations`` FABRIK passes on plain floats (px, rad), ``a`` updated in place.

    Yields a :class:`~.results.FabrikStep` per move when ``watch``; returns ``(angles, passes used,
    (end x, end y), stalled)``. ``obs``: circles ``(x, y, r)`` px (a list of triples) or None: each joint
    placed turns to the nearest direction that keeps its bone clear of the circles the start had it clear
    of (:func:`.avoid.placed`), and a pass whose walk back finds none, a pole step or a restart that would
    put a bone in one, is not taken. The stall rule and the common walk step are inlined (the hot path).
    """
    atan2, cos, sin, hypot, inf = math.atan2, math.cos, math.sin, math.hypot, _INF
    n = len(lens)
    xs, ys = _points(rx, ry, a, lens)
    reach = sum(lens)
    dist = hypot(tx - rx, ty - ry)
    unreachable = dist >= reach
    # the unit vector root -> target: where a joint with no direction of its own steps
    ux, uy = ((tx - rx) / dist, (ty - ry) / dist) if dist > 0.0 else (1.0, 0.0)
    # which joints a limit bends (a full-circle range is no limit); one past the tip for the walk's i + 1
    if lim is None:
        bent, restarts = None, 0
    else:
        bent = [hi - lo < FULL_CIRCLE for lo, hi in lim] + [False]
        restarts = RESTARTS if not unreachable and restartable(lim) else 0
    state = 0
    inward = range(n - 1, -1, -1)
    limited = lim is not None
    bones = range(n)
    outward = range(1, n + 1)
    used = 0
    # the stall rule (IKSolution's, inlined): the error at the last checkpoint, and the least gain
    last, gain = inf, STALL_GAIN * reach
    stalled = False
    # the hopeless rule's (IKSolution's): the passes since the start or the last restart, the error before the
    # last pass and the gain of the pass before it
    since, before_pass, last_gain = 0, inf, inf
    best, best_error = None, inf  # the best pose an escape left, and its error
    pux, puy, h = pole_frame(rx, ry, tx, ty, *pole, reach) if pole is not None and n > 2 and not unreachable \
        else (0.0, 0.0, 0.0)
    turns = POLE_TURN  # rad: what the pole's steps may still turn a joint this solve
    restarted = False
    mask = None  # the (bone, circle) pairs kept clear, or None (no obstacles within reach)
    if obs:
        mask = [[False] * len(obs) for _ in bones]
        if not watched_pairs(xs, ys, n, obs, reach, mask):
            mask = None
        elif not unreachable:  # with circles to keep clear of, any chain restarts
            restarts = RESTARTS
    guard = [False] * n if mask is None else [any(row) for row in mask]  # the bones with a circle to keep clear of
    pi = math.pi
    while True:
        if h and used < iterations and turns > 0.0 and not restarted:  # the pole's step (each pass)
            if used and not limited:  # (the walks moved the points alone)
                _angles_of(xs, ys, a)
            saved = None if mask is None else a[:]
            turns -= pole_step(a, lens, xs, ys, n, pux, puy, h, reach, turns)
            limit_pose(a, lim)
            xs, ys = _points(rx, ry, a, lens)
            if saved is not None and not pose_clear(xs, ys, n, obs, mask):  # a step into a circle is not taken
                a[:] = saved
                xs, ys = _points(rx, ry, a, lens)
        restarted = False
        error = hypot(tx - xs[n], ty - ys[n])
        if error <= tolerance:
            break
        if not used % STALL_SWEEPS:
            stuck = used and not error < last - gain
            if restarts and used and used + STALL_SWEEPS <= iterations and (stuck or not error < CRAWL_RATIO * last):
                if not limited:  # (the walks moved the points alone)
                    _angles_of(xs, ys, a)
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
                    last = inf  # the stall watch starts again from the new pose
                    since, before_pass = 0, inf
                    restarted = True
                    xs, ys = _points(rx, ry, a, lens)
                    if watch:
                        yield FabrikStep(used + 1, "restart", np.column_stack((xs, ys)), np.array(a))
                    continue
            if stuck:
                stalled = True
                break
            last = error
        if used and unreachable:  # the straight pass is the answer
            stalled = True
            break
        if used == iterations:
            break
        # the hopeless rule (IKSolution's), inlined: from the third pass, one that gained no more than the
        # pass before (to rounding), at whose gain the passes left cannot reach the tolerance, ends a solve
        # no pole steps and no restart may still come to
        gained = before_pass - error
        if (since > 2 and gained <= last_gain + ROUNDING * reach and not h
                and error - tolerance > gained * (iterations - used)
                and not (restarts and (used // STALL_SWEEPS + 2) * STALL_SWEEPS <= iterations)):
            stalled = True
            break
        before_pass, last_gain = error, gained
        since += 1
        used += 1
        if mask is not None:
            before = (xs[:], ys[:], a[:])  # (a pass that finds no clear way is not taken)
        failed = False
        if unreachable:
            # Straight toward the target (the paper's unreachable case).
            along = 0.0
            for i in bones:
                along += lens[i]
                xs[i + 1] = rx + ux * along
                ys[i + 1] = ry + uy * along
            if watch:
                yield FabrikStep(used, "straight", np.column_stack((xs, ys)), None)
        else:
            # Forward reaching: tip onto the target, each joint pulled after its child.
            x, y = tx, ty
            xs[n] = x
            ys[n] = y
            for i in inward:
                dx = xs[i] - x  # joint i+1 -> joint i's old place
                dy = ys[i] - y
                if limited and bent[i + 1]:
                    # Bone i turned into joint i+1's range about bone i+1 (this project's change).
                    child = atan2(ys[i + 2] - y, xs[i + 2] - x)
                    d = atan2(-dy, -dx) if (dx or dy) else atan2(uy, ux)
                    lo, hi = lim[i + 1]
                    v = clamp_angle(wrap(child - d), lo, hi)
                    d = child - v
                    px, py = x, y
                    x -= lens[i] * cos(d)
                    y -= lens[i] * sin(d)
                    if guard[i]:  # turned clear of the circles inside the range, if it can be (else left)
                        x, y, _ = placed(px, py, x, y, lens[i], i, obs, mask, child + pi, -1.0, v, lo, hi, True)
                else:
                    px, py = x, y
                    d = hypot(dx, dy)
                    if d > 0.0 and (k := lens[i] / d) < inf:
                        x, y = x + dx * k, y + dy * k
                    else:  # joint on its child, or d tiny against the bone
                        x, y = pull(x, y, dx, dy, lens[i], -ux, -uy)
                    if guard[i]:
                        x, y, _ = placed(px, py, x, y, lens[i], i, obs, mask, 0.0, 1.0, 0.0, -pi, pi, False)
                xs[i] = x
                ys[i] = y
            if watch:
                yield FabrikStep(used, "forward", np.column_stack((xs, ys)), None)
        # Backward reaching: re-anchor at the root and walk out.
        x, y = rx, ry
        xs[0] = x
        ys[0] = y
        if lim is None:
            for j in outward:  # joint j placed after joint j - 1, bone j - 1 long
                dx = xs[j] - x
                dy = ys[j] - y
                d = hypot(dx, dy)
                px, py = x, y
                if d > 0.0 and (k := lens[j - 1] / d) < inf:
                    x, y = x + dx * k, y + dy * k
                else:
                    x, y = pull(x, y, dx, dy, lens[j - 1], ux, uy)
                if guard[j - 1]:  # turned clear of the circles
                    x, y, v = placed(px, py, x, y, lens[j - 1], j - 1, obs, mask, 0.0, 1.0, 0.0, -pi, pi, False)
                    failed = failed or v != v
                xs[j] = x
                ys[j] = y
        else:
            # In angles, each bone's angle relative to its parent clamped into its range (``a`` updated).
            parent = 0.0  # the parent bone's absolute angle (rad)
            for i in bones:
                dx = xs[i + 1] - x
                dy = ys[i + 1] - y
                want = atan2(dy, dx) if (dx or dy) else parent + a[i]
                rel = (clamp_angle if i else clamp_heading)(wrap(want - parent), *lim[i])  # joint 0: a heading
                if guard[i]:  # turned clear of the circles inside the range
                    lo, hi = lim[i]
                    bound = hi - lo < FULL_CIRCLE  # (else v is the bone's absolute direction)
                    _, _, v = placed(x, y, x + lens[i] * cos(parent + rel), y + lens[i] * sin(parent + rel),
                                     lens[i], i, obs, mask, parent if bound else 0.0, 1.0, rel, lo, hi, bound)
                    if v != v:
                        failed = True
                    elif v != rel:
                        rel = v if bound else wrap(v - parent)
                a[i] = rel
                parent += rel
                x += lens[i] * cos(parent)
                y += lens[i] * sin(parent)
                xs[i + 1] = x
                ys[i + 1] = y
        if failed:  # no clear way for some bone: the pass is not taken
            xs, ys = before[0], before[1]
            a[:] = before[2]
        if watch:
            angles = np.array(a if limited else _angles_of(xs, ys, a[:]))
            yield FabrikStep(used, "backward", np.column_stack((xs, ys)), angles)
    if best is not None and best_error < hypot(tx - xs[n], ty - ys[n]) - ROUNDING * reach:  # escapes did no better
        a[:] = best
        xs, ys = _points(rx, ry, a, lens)
        if watch:
            yield FabrikStep(used, "best", np.column_stack((xs, ys)), np.array(a))
    if used and lim is None:  # the passes worked on positions alone: read the angles back
        _angles_of(xs, ys, a)
    return a, used, (xs[n], ys[n]), stalled


def pull(x: float, y: float, dx: float, dy: float, length: float, fx: float, fy: float) -> tuple[float, float]:
    """The point ``length`` px from ``(x, y)`` along ``(dx, dy)``, or unit ``(fx, fy)`` if zero (also compiled)."""
    d = math.hypot(dx, dy)
    if d > 0.0:
        k = length / d
        if k == _INF:  # d tiny against the bone: scale the other way round
            k = length
            dx /= d
            dy /= d
        return x + dx * k, y + dy * k
    return x + fx * length, y + fy * length


def _angles_of(xs: list, ys: list, out: list) -> list:
    """The relative angles (rad, wrapped) of the joints ``xs``, ``ys`` (px), written into ``out`` and returned."""
    pi, tau, atan2 = math.pi, TAU, math.atan2
    parent = 0.0
    for i in range(len(out)):
        absolute = atan2(ys[i + 1] - ys[i], xs[i + 1] - xs[i])
        w = (absolute - parent + pi) % tau - pi  # wrap(absolute - parent), inlined
        out[i] = pi if w <= -pi else w
        parent = absolute
    return out
