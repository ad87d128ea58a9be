"""FABRIK (Forward And Backward Reaching Inverse Kinematics) for a planar chain.

Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse
Kinematics problem", Graphical Models 73 (2011). Each pass first drags the
chain tip-first onto the target (forward reaching), then re-anchors it at the
root and walks back out (backward reaching). Joint limits are applied in the
backward walk, on each bone's angle relative to its parent, so the angles this
solver returns always satisfy them.

A target beyond the chain's reach is handled as in the paper: the chain is laid
straight toward it (then limited), which is already the best answer. Otherwise
the passes stop early once the error stops improving (the stall rule of
:class:`~.results.IKSolution`). Screen coordinates (y down), radians.
"""

from __future__ import annotations

import math

from ._problem import chain_problem
from ._validate import clamp_angle, wrap
from .kinematics import chain_points
from .results import IKSolution, StallWatch

_INF = math.inf


def solve_fabrik(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by FABRIK passes.

    Parameters
    ----------
    root, angles, lengths, target, tolerance
        As :func:`~.ccd.solve_ccd`: points of shape (2,) and the chain's
        relative angles and bone lengths of shape (n,), in pixels (y down)
        and radians; the distance in pixels that counts as reached.
    iterations : int, optional
        Most forward/backward passes (>= 1). Fewer run once the error stops
        improving (``status`` "stalled"), so a large budget is safe.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` bounds in radians on each relative angle. The returned
        angles always lie inside them.

    Returns
    -------
    IKSolution
        As :func:`solve_ccd`, with passes for sweeps.

    Raises
    ------
    ValueError
        As :func:`solve_ccd`.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits)
    a, used, (ex, ey), stalled = fabrik_passes(p.rx, p.ry, p.angles, p.lengths, p.tx, p.ty, p.iterations,
                                               p.tolerance, p.limits)
    return p.solution(a, math.hypot(p.tx - ex, p.ty - ey), used, stalled)


def fabrik_passes(rx, ry, a, lens, tx, ty, iterations, tolerance, lim):
    """Run up to ``iterations`` FABRIK passes on plain floats.

    Returns ``(angles, passes used, end effector, stalled)``; the end effector
    is where the final walk put the tip, which is the forward kinematics of the
    angles (to rounding: the walks place each joint exactly one bone length
    on); ``stalled`` tells whether the stall rule (:class:`~.results.IKSolution`)
    or the one straight pass toward an unreachable target ended the passes.

    ``a`` is updated in place and returned. Without limits the passes work on
    positions alone and the angles are read back once at the end; with limits
    the backward walk works in angles so it can clamp each joint.
    """
    atan2, cos, sin, hypot, inf = math.atan2, math.cos, math.sin, math.hypot, _INF
    n = len(lens)
    pts = chain_points(rx, ry, a, lens)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    reach = sum(lens)
    dist = hypot(tx - rx, ty - ry)
    unreachable = dist >= reach
    if dist > 0.0:
        ux, uy = (tx - rx) / dist, (ty - ry) / dist
    else:
        ux, uy = 1.0, 0.0
    inward = range(n - 1, -1, -1)
    used = 0
    watch = StallWatch(reach)
    stalled = False
    while True:
        error = hypot(tx - xs[n], ty - ys[n])
        if error <= tolerance:
            break
        if watch.stalled(used, error):
            stalled = True
            break
        if used and unreachable:  # the straight pass is the answer
            stalled = True
            break
        if used == iterations:
            break
        used += 1
        if unreachable:
            # Straight toward the target (the paper's unreachable case).
            along = 0.0
            for i in range(n):
                along += lens[i]
                xs[i + 1] = rx + ux * along
                ys[i + 1] = ry + uy * along
        else:
            # Forward reaching: tip onto the target, each joint pulled after its child.
            x, y = tx, ty
            xs[n] = x
            ys[n] = y
            for i in inward:
                dx = xs[i] - x
                dy = ys[i] - y
                d = hypot(dx, dy)
                if d > 0.0:
                    k = lens[i] / d
                    if k == inf:  # d tiny against the bone: scale the other way round
                        k = lens[i]
                        dx /= d
                        dy /= d
                    x += dx * k
                    y += dy * k
                else:  # joint on its child: step back toward the root's side
                    x -= ux * lens[i]
                    y -= uy * lens[i]
                xs[i] = x
                ys[i] = y
        # Backward reaching: re-anchor at the root and walk out.
        x, y = rx, ry
        xs[0] = x
        ys[0] = y
        if lim is None:
            for i in range(n):
                dx = xs[i + 1] - x
                dy = ys[i + 1] - y
                d = hypot(dx, dy)
                if d > 0.0:
                    k = lens[i] / d
                    if k == inf:
                        k = lens[i]
                        dx /= d
                        dy /= d
                    x += dx * k
                    y += dy * k
                else:
                    x += ux * lens[i]
                    y += uy * lens[i]
                xs[i + 1] = x
                ys[i + 1] = y
        else:
            parent = 0.0
            for i in range(n):
                dx = xs[i + 1] - x
                dy = ys[i + 1] - y
                want = atan2(dy, dx) if (dx or dy) else parent + a[i]
                rel = clamp_angle(wrap(want - parent), *lim[i])
                a[i] = rel
                parent += rel
                x += lens[i] * cos(parent)
                y += lens[i] * sin(parent)
                xs[i + 1] = x
                ys[i + 1] = y
    if used and lim is None:
        parent = 0.0
        for i in range(n):
            absolute = atan2(ys[i + 1] - ys[i], xs[i + 1] - xs[i])
            a[i] = wrap(absolute - parent)
            parent = absolute
    return a, used, (xs[n], ys[n]), stalled
