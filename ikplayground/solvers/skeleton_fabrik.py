"""Multi-end-effector FABRIK on a tree of bones: Aristidou and Lasenby 2011, "FABRIK: A fast, iterative solver
for the Inverse Kinematics problem" (Graphical Models 73), the section on multiple end effectors.

A pass is the paper's two walks on a tree (:mod:`.skeleton_tree`'s convention), over the "reaching" bones,
those with a target at or below them.

Forward reaching, bones last to first. A bone's end goes to its own target if it carries one (the targets
below it are then reached from there), else to the weighted mean of the starts its reaching children were
pulled to: where branches meet, that is the paper's sub-base, its position averaged over the branches, each
weighted by the summed weights of the targets it carries. ``SUB_BASE_ROUNDS`` rounds then pull each child
again toward the mean and average anew (a child pulled freely is a circle of its length about its end: the
point of it nearest the last mean), which moves the sub-base where the branches agree in a few rounds
rather than a few passes (this project's). The bone's start is pulled toward where it was, the bone's length
from its end (the paper's step), or put where a heading target asks, ``L * (cos h, sin h)`` before the
end (a heading is two positions). With limits, two changes of this project's own: on every second pass
(the first without) the bone's direction is turned into its own range about its parent's present direction
(what the backward walk will ask of it; on every pass, it holds poses whose parents point the wrong way),
then, on every pass, into each limited reaching child's range about that child (as :mod:`.fabrik` turns a
chain's bones), the heaviest branch last.

Backward reaching, first to last: each reaching bone, re-anchored at its parent's new end (bone 0 at the
root), turns toward its forward end, its angle relative to its parent clamped into its limit (bone 0's as a
heading, as in :mod:`.fabrik`); a bone with no target below it keeps its relative angle.

A pass costs one iteration; :mod:`.skeleton_extrapolate` then tries to go further along the pass's turns.
The stall rule is :class:`.results.IKSolution`'s on the root mean square error, and the run keeps the best
pose it met (:func:`.skeleton_problem.target_errors`). Pixels (y down), radians.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .skeleton_extrapolate import Extrapolation
from .skeleton_problem import SkeletonProblem, TreeRun, Watch, all_reached, target_errors
from .skeleton_tree import tree_pose
from .validate import FULL_CIRCLE, clamp_angle, clamp_heading, wrap

SUB_BASE_ROUNDS = 10  # rounds that settle a sub-base among its branches in each forward walk, at most
SETTLED = 1e-9  # px: a round that moves the sub-base less than this (summed over x and y) is the last


class TreePlan(NamedTuple):
    """The walks of a problem's passes.

    ``forward``: ``(bone, parent, target index or -1, length, branch weight)`` for each reaching bone, last
    first; ``backward``: ``(bone, parent, reaching, length)`` for every bone, first first; ``kids``: per bone,
    its reaching children with a limit (not the full circle), the lightest branch first.
    """

    forward: list
    backward: list
    kids: list


def tree_plan(p: SkeletonProblem) -> TreePlan:
    """The walks of ``p``'s passes (:class:`TreePlan`)."""
    parents, lim = p.parents, p.limits
    n = len(parents)
    index = [-1] * n
    weight = [0.0] * n
    for k, b in enumerate(p.bones):
        index[b] = k
        weight[b] = p.weights[k]
    for i in range(n - 1, 0, -1):  # children before parents
        weight[parents[i]] += weight[i]
    reaching = [w > 0.0 for w in weight]
    backward = [(i, parents[i], reaching[i], p.lengths[i]) for i in range(n)]
    forward = [(i, parents[i], index[i], p.lengths[i], weight[i]) for i in range(n - 1, -1, -1) if reaching[i]]
    kids: list[list[int]] = [[] for _ in range(n)]
    if lim is not None:
        for c in range(1, n):
            if reaching[c] and lim[c][1] - lim[c][0] < FULL_CIRCLE:
                kids[parents[c]].append(c)
        for group in kids:
            group.sort(key=lambda c: weight[c])
    return TreePlan(forward, backward, kids)


def fabrik_tree(p: SkeletonProblem, a: list, budget: int) -> TreeRun:
    """Up to ``budget`` FABRIK passes from the angles ``a`` (n floats, rad, inside the limits; not changed)."""
    plan = tree_plan(p)
    a = list(a)
    xs, ys, ab = tree_pose(p.parents, p.rx, p.ry, a, p.lengths)
    errors, turns, cost = target_errors(p, xs, ys, ab)
    best = TreeRun(list(a), cost, errors, turns, all_reached(p, errors, turns))
    faster = Extrapolation(p)
    watch = Watch(p)
    used = 0
    while not best.reached:
        if watch.stalled(used, cost):
            best.stalled = True
            break
        if used == budget:
            break
        used += 1
        before = list(a)
        fabrik_pass(p, plan, a, xs, ys, ab, not used % 2)
        a, (xs, ys, ab), (errors, turns, cost) = faster.step(before, a, (xs, ys, ab),
                                                             target_errors(p, xs, ys, ab))
        done = all_reached(p, errors, turns)
        if done or cost < best.cost:
            best = TreeRun(list(a), cost, errors, turns, done)
    best.used = used
    return best


def fabrik_pass(p: SkeletonProblem, plan: TreePlan, a: list, xs: list, ys: list, ab: list, own: bool) -> None:
    """One forward and one backward walk (module docstring): ``a`` (rad), the bones' ends ``xs``, ``ys`` (px)
    and directions ``ab`` (rad) updated in place; ``own``: the forward walk turns each bone into its own range."""
    atan2, cos, sin = math.atan2, math.cos, math.sin
    lim, tx, ty, headings = p.limits, p.tx, p.ty, p.headings
    n = len(a)
    gx = [0.0] * n  # each reaching bone's end after the forward walk
    gy = [0.0] * n
    way = [0.0] * n  # and its direction
    sw = [0.0] * n  # the weighted sums of the starts a bone's children were pulled to
    sx = [0.0] * n
    sy = [0.0] * n
    pulls: list[list] = [[] for _ in range(n)]
    for i, q, k, length, w in plan.forward:
        if k >= 0:
            ex, ey = tx[k], ty[k]
        else:
            ex = sx[i] / sw[i]
            ey = sy[i] / sw[i]
            if len(pulls[i]) > 1:
                ex, ey = sub_base(pulls[i], ex, ey, sw[i])
        gx[i] = ex
        gy[i] = ey
        if q < 0:
            continue
        h = headings[k] if k >= 0 else None
        free = h is None
        if free:  # toward the bone's old start
            dx = ex - xs[q]
            dy = ey - ys[q]
            d = atan2(dy, dx) if (dx or dy) else ab[i]
            if lim is not None:
                turned = d
                lo, hi = lim[i]
                if own and hi - lo < FULL_CIRCLE:  # into its own range about its parent's present direction
                    turned = ab[q] + clamp_angle(wrap(turned - ab[q]), lo, hi)
                for c in plan.kids[i]:  # into each limited child's range about that child
                    turned = way[c] - clamp_angle(wrap(way[c] - turned), *lim[c])
                free = turned == d
                d = turned
        else:
            d = h
        x = ex - length * cos(d)
        y = ey - length * sin(d)
        way[i] = d
        sw[q] += w
        sx[q] += w * x
        sy[q] += w * y
        pulls[q].append((x, y, ex, ey, length if free else 0.0, w))
    rx, ry, parents_first = p.rx, p.ry, plan.backward
    for i, q, on, length in parents_first:
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


def sub_base(pulls: list, ex: float, ey: float, total: float) -> tuple[float, float]:
    """A sub-base settled among its branches: ``SUB_BASE_ROUNDS`` rounds from the mean ``(ex, ey)`` (px).

    ``pulls``: per child ``(x, y, cx, cy, r, w)``, the start it was pulled to and, where ``r > 0``, the circle
    ``r`` px about ``(cx, cy)`` that start may move on; ``total`` the sum of the weights ``w``.
    """
    hypot = math.hypot
    for _ in range(SUB_BASE_ROUNDS):
        nx = ny = 0.0
        for x, y, cx, cy, r, w in pulls:
            if r > 0.0:
                dx = ex - cx
                dy = ey - cy
                d = hypot(dx, dy)
                if d > 0.0:
                    x = cx + dx * (r / d)
                    y = cy + dy * (r / d)
            nx += w * x
            ny += w * y
        nx /= total
        ny /= total
        moved = abs(nx - ex) + abs(ny - ey)
        ex, ey = nx, ny
        if moved < SETTLED:
            break
    return ex, ey
