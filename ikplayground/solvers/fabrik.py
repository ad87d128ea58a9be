"""FABRIK (Forward And Backward Reaching Inverse Kinematics) for a planar chain.

Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse
Kinematics problem", Graphical Models 73 (2011). Each pass first drags the
chain tip-first onto the target (forward reaching), then re-anchors it at the
root and walks back out (backward reaching). A target beyond the chain's reach
is handled as in the paper: the chain is laid straight toward it (then
limited), which is already the best answer. Otherwise the passes stop early
once the error stops improving (the stall rule of
:class:`~.results.IKSolution`). Screen coordinates (y down), radians.

Joint limits, by two changes of this project's own (the paper leaves planar
limits to the implementer; these are not from it):

1. Limits in both walks. The backward walk works in angles and clamps each
   bone's angle relative to its parent into its limits, so the angles this
   solver returns always satisfy them. The forward walk does the same from the
   other end: when it places joint i after joint i+1, bone i's direction (from
   joint i's old place toward joint i+1) is turned, if need be, until the
   relative angle of bone i+1 about it lies in joint i+1's range. Why: with
   limits in the backward walk alone the forward walk bends the chain in ways
   the backward walk then undoes, and the passes settle short of targets the
   limits allow (``scripts/convergence.py`` measures how many limited chains
   each way reaches). Joints whose range is the whole circle take the paper's
   plain step.
2. A stall escape. Even so, a limited chain can settle bent the wrong way
   round, where no pass can straighten it past its limits. So when the stall
   rule fires on a chain with a limit, short of a reachable target, with
   passes left, the bend is mirrored (the relative angles of joints 1..n-1
   negated, each clamped into its limits), the joints recomputed, the stall
   rule restarted (its next checkpoint only records the error) and the passes
   go on, at most ``STALL_ESCAPES`` (3) times a solve, and never when the
   mirror is the same pose. Only then does a stall end the solve ("stalled").
   If the escapes end worse off than the best pose one of them left, that
   pose is the answer (so a chain the limits hold never flips back and forth
   from one solve to the next).

Both are deterministic, keep FABRIK's passes (each pass still counts against
``iterations``), leave chains without limits exactly as the paper has them,
and are the same, step for step, in the batched numpy passes
(:mod:`.fabrik_batch`) and the compiled kernel (:mod:`._jit_kernels`).

The backward walk clamps joint 0's angle, a heading, to the bound nearer round
the circle (:func:`~.validate.clamp_heading`), and the return to an escape's
best pose needs it better by more than rounding (``ROUNDING`` of the reach), so
that a chain's mirror image takes the mirrored path (the playground's mirror
flip; tests/solvers/test_mirror_symmetry.py).

One loop (:func:`fabrik_loop`, a generator) serves both calls: :func:`solve_fabrik`
runs it without watching (it yields nothing), :func:`fabrik_steps` watching,
when it yields a :class:`~.results.FabrikStep` after every half-pass (and the
escapes' moves), so the solve can be stepped through; run to the end, it
returns exactly what :func:`solve_fabrik` returns. Screen coordinates (pixels,
y down), radians, relative joint angles (docs/design.md).
"""

from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np

from .kinematics import joint_xy as _points
from .problem import chain_problem, finish
from .results import ROUNDING, STALL_ESCAPES, STALL_GAIN, STALL_SWEEPS, FabrikStep, IKSolution
from .validate import FULL_CIRCLE, TAU, clamp_angle, clamp_heading, wrap

_INF = math.inf


def solve_fabrik(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by FABRIK passes.

    Parameters
    ----------
    root, angles, lengths, target, tolerance
        As :func:`~.ccd.solve_ccd`: root and target (2,) px (y down), the
        starting relative angles (n,) rad and bone lengths (n,) px, and the px
        that count as reached.
    iterations : int, optional
        Most forward/backward passes (>= 1). Fewer run once the error stops
        improving (``status`` "stalled"), so a large budget is safe.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` bounds in radians on each relative angle. The returned
        angles always lie inside them.
    pole : array_like, shape (2,), optional
        As :func:`~.ccd.solve_ccd`: the side the chain bends toward.

    Returns
    -------
    IKSolution
        As :func:`~.ccd.solve_ccd`, with passes for sweeps.

    Raises
    ------
    ValueError
        As :func:`~.ccd.solve_ccd`.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, (ex, ey), stalled = finish(fabrik_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, False))
    return p.solution(a, math.hypot(tx - ex, ty - ey), used, stalled)


def fabrik_steps(root, angles, lengths, target, *, iterations=10, tolerance=0.5,
                 limits=None) -> Generator[FabrikStep, None, IKSolution]:
    """Solve by FABRIK like :func:`solve_fabrik`, yielding a record after every half-pass.

    Parameters
    ----------
    root, angles, lengths, target, iterations, tolerance, limits
        As :func:`~.ccd.ccd_steps`: points (2,) and the chain's relative
        angles and bone lengths (n,) in pixels (y down) and radians; the most
        passes; the distance in pixels that counts as reached; ``(lo, hi)``
        bounds (n, 2) in radians.

    Yields
    ------
    FabrikStep
        A pass is a "forward" (or "straight") record and then a "backward"
        one; "mirror" and "best" records show the stall escapes of a limited
        chain (:class:`~.results.FabrikStep`).

    Returns
    -------
    IKSolution
        The generator's return value, bit for bit :func:`solve_fabrik`'s for
        the same arguments (no pole); it raises as :func:`~.ccd.ccd_steps` does.

    Examples
    --------
    >>> steps = fabrik_steps((0, 0), [0.0, 0.0], [100, 80], (120, 60))
    >>> [next(steps).direction, next(steps).direction]
    ['forward', 'backward']
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits)
    a, used, (ex, ey), stalled = yield from fabrik_loop(p.rx, p.ry, p.angles, p.lengths, p.tx, p.ty, p.iterations,
                                                    p.tolerance, p.limits, True)
    return p.solution(a, math.hypot(p.tx - ex, p.ty - ey), used, stalled)


def fabrik_loop(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, watch):
    """The FABRIK loop: up to ``iterations`` passes on plain floats, px and rad.

    ``a`` (a list of the relative angles, inside ``lim``) is updated in place.
    Watching, a :class:`~.results.FabrikStep` is yielded after every move of
    the joints; not watching, nothing is. Returns (``StopIteration.value``)
    ``(angles, passes used, end effector, stalled)``; the end effector is
    where the final walk put the tip, which is the forward kinematics of the
    angles (to rounding: the walks place each joint exactly one bone length
    on); ``stalled`` tells whether the stall rule (:class:`~.results.IKSolution`)
    or the one straight pass toward an unreachable target ended the passes.

    Without limits the passes work on positions alone and the angles are read
    back once at the end; with limits the forward walk turns each bone into
    its child's range and the backward walk works in angles so it can clamp
    each joint; a stall may then be escaped by mirroring the bend (module
    docstring). This is the single-chain hot path: the stall rule and the
    common step of a walk are written out inline (scripts/bench_solvers.py).
    """
    atan2, cos, sin, hypot, inf = math.atan2, math.cos, math.sin, math.hypot, _INF
    n = len(lens)
    xs, ys = _points(rx, ry, a, lens)
    reach = sum(lens)
    dist = hypot(tx - rx, ty - ry)
    unreachable = dist >= reach
    # the unit vector root -> target: where a joint with no direction of its own steps
    if dist > 0.0:
        ux, uy = (tx - rx) / dist, (ty - ry) / dist
    else:
        ux, uy = 1.0, 0.0
    # which joints a limit bends (a full-circle range is no limit); one past the tip for the walk's i + 1
    if lim is None:
        bent, escapes = None, 0
    else:
        bent = [hi - lo < FULL_CIRCLE for lo, hi in lim] + [False]
        escapes = STALL_ESCAPES if any(bent) and not unreachable else 0
    inward = range(n - 1, -1, -1)
    limited = lim is not None
    bones = range(n)
    outward = range(1, n + 1)
    used = 0
    # the stall rule (StallWatch, inlined): the error at the last checkpoint, and the least gain
    last, gain = inf, STALL_GAIN * reach
    stalled = False
    best, best_error = None, inf  # the best pose an escape left, and its error
    while True:
        error = hypot(tx - xs[n], ty - ys[n])
        if error <= tolerance:
            break
        if not used % STALL_SWEEPS:
            if used and not error < last - gain:
                left = a[:] if escapes and used < iterations else None
                if left is None or not mirror_bend(a, lim):
                    stalled = True
                    break
                if error < best_error:
                    best, best_error = left, error
                escapes -= 1  # mirrored: start again from there, the stall watch too
                last = inf
                xs, ys = _points(rx, ry, a, lens)
                if watch:
                    yield FabrikStep(used + 1, "mirror", _array(xs, ys), np.array(a))
            else:
                last = error
        if used and unreachable:  # the straight pass is the answer
            stalled = True
            break
        if used == iterations:
            break
        used += 1
        if unreachable:
            # Straight toward the target (the paper's unreachable case).
            along = 0.0
            for i in bones:
                along += lens[i]
                xs[i + 1] = rx + ux * along
                ys[i + 1] = ry + uy * along
            if watch:
                yield FabrikStep(used, "straight", _array(xs, ys), None)
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
                    d = child - clamp_angle(wrap(child - d), lo, hi)
                    x -= lens[i] * cos(d)
                    y -= lens[i] * sin(d)
                else:
                    d = hypot(dx, dy)
                    if d > 0.0 and (k := lens[i] / d) < inf:
                        x, y = x + dx * k, y + dy * k
                    else:  # joint on its child, or d tiny against the bone
                        x, y = pull(x, y, dx, dy, lens[i], -ux, -uy)
                xs[i] = x
                ys[i] = y
            if watch:
                yield FabrikStep(used, "forward", _array(xs, ys), None)
        # Backward reaching: re-anchor at the root and walk out.
        x, y = rx, ry
        xs[0] = x
        ys[0] = y
        if lim is None:
            for j in outward:  # joint j placed after joint j - 1, bone j - 1 long
                dx = xs[j] - x
                dy = ys[j] - y
                d = hypot(dx, dy)
                if d > 0.0 and (k := lens[j - 1] / d) < inf:
                    x, y = x + dx * k, y + dy * k
                else:
                    x, y = pull(x, y, dx, dy, lens[j - 1], ux, uy)
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
                a[i] = rel
                parent += rel
                x += lens[i] * cos(parent)
                y += lens[i] * sin(parent)
                xs[i + 1] = x
                ys[i + 1] = y
        if watch:
            yield FabrikStep(used, "backward", _array(xs, ys), np.array(a if limited else _angles_of(xs, ys, a[:])))
    if best is not None and best_error < hypot(tx - xs[n], ty - ys[n]) - ROUNDING * reach:  # escapes did no better
        a[:] = best
        xs, ys = _points(rx, ry, a, lens)
        if watch:
            yield FabrikStep(used, "best", _array(xs, ys), np.array(a))
    if used and lim is None:  # the passes worked on positions alone: read the angles back
        _angles_of(xs, ys, a)
    return a, used, (xs[n], ys[n]), stalled


def mirror_bend(a, lim) -> bool:
    """Negate the relative angles (rad) of joints 1..n-1 in place, each clamped into ``lim``.

    The chain's bend flips to the other side of bone 0 (the stall escape of the
    module docstring). Returns False, leaving ``a`` as it was, when the mirror
    is the same pose (a straight chain, or one its limits hold in place).
    """
    changed = False
    for i in range(1, len(a)):
        v = clamp_angle(-a[i], *lim[i])
        if v != a[i]:
            a[i] = v
            changed = True
    return changed


def pull(x: float, y: float, dx: float, dy: float, length: float, fx: float, fy: float) -> tuple[float, float]:
    """The point ``length`` px from ``(x, y)`` along ``(dx, dy)``; along the unit vector ``(fx, fy)``
    when ``(dx, dy)`` is zero (the walks' careful step, for a direction of no or next to no length).

    The compiled kernel (:mod:`._jit_kernels`) compiles this very function for every step of its walks.
    """
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
    """The relative angles (rad, wrapped to (-pi, pi]) of the joints ``xs``, ``ys`` (px), written into ``out``
    (n floats) and returned."""
    pi, tau, atan2 = math.pi, TAU, math.atan2
    parent = 0.0
    for i in range(len(out)):
        absolute = atan2(ys[i + 1] - ys[i], xs[i + 1] - xs[i])
        w = (absolute - parent + pi) % tau - pi  # wrap(absolute - parent), inlined
        out[i] = pi if w <= -pi else w
        parent = absolute
    return out


def _array(xs: list, ys: list) -> np.ndarray:
    """The joints as an (n + 1, 2) array (a copy), px."""
    return np.column_stack((xs, ys))
