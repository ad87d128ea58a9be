"""Multi-end-effector FABRIK on a tree of bones: Aristidou and Lasenby 2011, "FABRIK: A fast, iterative solver
for the Inverse Kinematics problem" (Graphical Models 73), section 4.2 ("multiple end effectors").

A pass is the paper's two walks on a tree (:mod:`.skeleton_tree`'s convention). Forward reaching, bones
last to first: each bone that leads to a target (a "reaching" bone) has its end placed at the weighted mean
of what asks for it there, its own target and the starts its reaching children were pulled to (each
branch weighted by the summed weights of the targets it carries): where branches meet that is the paper's
sub-base, its position averaged over the branches. Then the bone's start is pulled toward where it was, the
bone's length from that end; a bone with a heading target takes the start its heading asks for instead
(the end minus ``L * (cos h, sin h)``: a heading is two positions). Backward reaching, first to last: each
reaching bone, re-anchored at its parent's new end (bone 0 at the root), turns toward its forward end, its
angle relative to its parent clamped into its limit (bone 0's as a heading, as in :mod:`.fabrik`); a bone
with no target below it keeps its relative angle. A pass costs one iteration; the stall rule is
:class:`.results.IKSolution`'s on the root mean squared error (:func:`.skeleton_problem.target_errors`), and
the best pose a solve met is kept. Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .results import STALL_GAIN, STALL_SWEEPS
from .skeleton_problem import SkeletonProblem, all_reached, target_errors
from .skeleton_tree import tree_pose
from .validate import clamp_angle, clamp_heading, wrap


class TreeRun:
    """What a run of one method ended with: the best pose it met and how it stopped.

    ``angles`` (n floats, rad) and its ``cost`` (the weighted squared error, px^2), ``errors`` (px) and
    ``turns`` (rad) per target, ``reached``; ``used`` iterations, ``stalled`` (stopped by the stall rule).
    """

    __slots__ = ("angles", "cost", "errors", "turns", "reached", "used", "stalled")

    def __init__(self, angles, cost, errors, turns, reached, used=0, stalled=False):
        self.angles, self.cost, self.errors, self.turns = angles, cost, errors, turns
        self.reached, self.used, self.stalled = reached, used, stalled


def reaching(p: SkeletonProblem) -> tuple[list, list, list]:
    """Per bone: its target's index in ``p.bones`` (-1 if none), whether a target lies at or below it, and the
    summed weight of the targets at or below it."""
    n = len(p.parents)
    index = [-1] * n
    weight = [0.0] * n
    for k, b in enumerate(p.bones):
        index[b] = k
        weight[b] = p.weights[k]
    for i in range(n - 1, 0, -1):  # children before parents
        weight[p.parents[i]] += weight[i]
    return index, [w > 0.0 for w in weight], weight


def fabrik_tree(p: SkeletonProblem, a: list, budget: int) -> TreeRun:
    """Up to ``budget`` FABRIK passes from the angles ``a`` (n floats, rad, inside the limits; not changed)."""
    parents, lens, lim, rx, ry = p.parents, p.lengths, p.limits, p.rx, p.ry
    tx, ty, headings, weights = p.tx, p.ty, p.headings, p.weights
    atan2, cos, sin, hypot, sqrt = math.atan2, math.cos, math.sin, math.hypot, math.sqrt
    n = len(parents)
    index, active, branch = reaching(p)
    a = list(a)
    xs, ys, ab = tree_pose(parents, rx, ry, a, lens)
    errors, turns, cost = target_errors(p, xs, ys, ab)
    best = TreeRun(list(a), cost, errors, turns, all_reached(p, errors, turns))
    total_weight = sum(weights)
    last, gain = math.inf, STALL_GAIN * sum(lens)
    gx = [0.0] * n
    gy = [0.0] * n
    backward = [(i, parents[i], active[i], lens[i]) for i in range(n)]
    forward = [(i, q, index[i], lens[i], branch[i]) for i, q, on, _ in reversed(backward) if on]
    used = 0
    while not best.reached:
        rms = sqrt(cost / total_weight)
        if not used % STALL_SWEEPS:
            if used and not rms < last - gain:
                best.stalled = True
                break
            last = rms
        if used == budget:
            break
        used += 1
        # Forward reaching: each reaching bone's end at the weighted mean of what asks for it there.
        sw = [0.0] * n
        sx = [0.0] * n
        sy = [0.0] * n
        for i, q, k, length, w in forward:
            if k >= 0:
                wk = weights[k]
                sw[i] += wk
                sx[i] += wk * tx[k]
                sy[i] += wk * ty[k]
            ex = sx[i] / sw[i]
            ey = sy[i] / sw[i]
            gx[i] = ex
            gy[i] = ey
            if q < 0:
                continue
            h = headings[k] if k >= 0 else None
            if h is not None:  # the heading asks for the bone's start
                x = ex - length * cos(h)
                y = ey - length * sin(h)
            else:  # the start pulled toward where it was
                dx = xs[q] - ex
                dy = ys[q] - ey
                d = hypot(dx, dy)
                if d > 0.0 and d * 1e-300 < length:
                    x = ex + dx * (length / d)
                    y = ey + dy * (length / d)
                else:  # (on its end: back along the bone's old direction)
                    x = ex - length * cos(ab[i])
                    y = ey - length * sin(ab[i])
            sw[q] += w
            sx[q] += w * x
            sy[q] += w * y
        # Backward reaching: re-anchored at the root, each reaching bone turned toward its forward end.
        for i, q, on, length in backward:
            if q < 0:
                x0, y0, base = rx, ry, 0.0
            else:
                x0, y0, base = xs[q], ys[q], ab[q]
            if on:
                dx = gx[i] - x0
                dy = gy[i] - y0
                rel = wrap(atan2(dy, dx) - base) if (dx or dy) else a[i]
                if lim is not None:
                    rel = (clamp_angle if q >= 0 else clamp_heading)(rel, *lim[i])
                a[i] = rel
            h = base + a[i]
            ab[i] = h
            xs[i] = x0 + length * cos(h)
            ys[i] = y0 + length * sin(h)
        errors, turns, cost = target_errors(p, xs, ys, ab)
        done = all_reached(p, errors, turns)
        if done or cost < best.cost:
            best = TreeRun(list(a), cost, errors, turns, done)
    best.used = used
    return best
