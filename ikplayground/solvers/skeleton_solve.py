"""``solve_skeleton``: several targets on a tree of bones, by multi-end-effector FABRIK (:mod:`.skeleton_fabrik`)
or damped least squares (:mod:`.skeleton_dls`): the attempts and escapes, the best pose kept, the status.

One point target and no heading is a chain problem: the bones from the root to the target's bone form a chain
(the others keep their relative angles and follow), solved by :func:`.fabrik.solve_fabrik` or
:func:`.dls.solve_dls` (one implementation per algorithm), so a chain given as a skeleton is solved exactly as
those solve it.

Escapes (this project's, as the chain solvers' mirrored bends and kicks are): a run that has not reached its
targets after ``FIRST`` iterations (or stalls before) gives way to another from an escape pose, for ``NEXT``
iterations, at most ``ESCAPES`` times, then a last run from the best pose takes what is left of the budget.
The escape poses are the best pose's bends mirrored (every relative angle but bone 0's negated, clamped into
its limit), then poses drawn inside the limits by a generator seeded from the problem, so that the same call
gives the same answer. Where a target lies out of reach there is no escape (as in :mod:`.fabrik`). The
answer is the best pose of all runs (the least weighted squared error, a pose that reaches every target
first), so never worse than the start. Pixels (y down), radians.
"""

from __future__ import annotations

import math
import zlib

import numpy as np

from .jacobian import solve_dls
from .fabrik import solve_fabrik
from .skeleton_dls import dls_tree
from .skeleton_fabrik import fabrik_tree
from .skeleton_problem import SkeletonProblem, TreeRun, skeleton_problem, skeleton_status
from .skeleton_tree import SkeletonSolution
from .validate import clamp_angle

# Iterations of the first run and of each escape's, per method (FABRIK's passes reach sooner or not at all;
# DLS's steps are capped at MAX_STEP, so it needs more of them from a far pose), and the escapes at most.
FIRST = {"fabrik": 10, "dls": 20}
NEXT = {"fabrik": 10, "dls": 15}
ESCAPES = 8


def solve_skeleton(parents, root, angles, lengths, targets, *, method="fabrik", iterations=50, tolerance=0.5,
                   limits=None, weights=None) -> SkeletonSolution:
    """Move a skeleton's bones so that their ends reach several targets at once.

    Parameters
    ----------
    parents : array_like of int, shape (n,)
        ``parents[0] == -1`` (bone 0 starts at ``root``) and ``0 <= parents[i] < i``: bone i starts at the end
        of bone ``parents[i]`` (:mod:`.skeleton_tree`).
    root : array_like, shape (2,)
        Where bone 0 starts, px (y down).
    angles : array_like, shape (n,)
        The start pose: bone 0's absolute angle, every other bone's relative to its parent's direction, rad.
    lengths : array_like, shape (n,)
        Bone lengths, px, each > 0.
    targets : dict
        ``{bone: (x, y)}``: the end of that bone reaches for (x, y) px; ``{bone: (x, y, heading)}`` also turns
        the bone's absolute direction to ``heading`` rad. Any bones, leaves or not.
    method : {"fabrik", "dls"}
        Multi-end-effector FABRIK (Aristidou and Lasenby 2011) or damped least squares on the stacked
        Jacobian (as :func:`.dls.solve_dls`).
    iterations : int
        Passes (FABRIK) or steps, rejected ones included (DLS), at most (>= 1).
    tolerance : float
        A point within this many px is reached (>= 0); a heading within one degree.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` per bone on its relative angle (bone 0's absolute), rad, ``-pi <= lo <= hi <= pi``.
    weights : dict, optional
        ``{bone: w > 0}`` for bones carrying targets (1 where not given): what a solve minimises is the
        weighted sum of squared errors (:mod:`.skeleton_problem`), which decides between conflicting targets.

    Returns
    -------
    SkeletonSolution
        ``angles`` (n,) rad inside the limits, ``errors`` ``{bone: px}``, ``heading_errors`` ``{bone: rad}``,
        ``reached``, ``iterations`` and ``status`` (as :class:`.results.IKSolution`'s). The pose is the best
        (least weighted squared error) the solve met, never worse than the start.

    Raises
    ------
    ValueError
        Naming the argument.

    Examples
    --------
    >>> sol = solve_skeleton([-1, 0, 0], (0, 0), [0.0, 0.5, -0.5], [50, 40, 40], {1: (77.9, 28.7), 2: (83, -22.6)})
    >>> sol.status, sorted(sol.errors)
    ('reached', [1, 2])
    """
    p = skeleton_problem(parents, root, angles, lengths, targets, iterations, tolerance, limits, weights, method)
    if len(p.bones) == 1 and p.headings[0] is None:
        return on_chain(p)
    return solve_tree(p)


def solve_tree(p: SkeletonProblem) -> SkeletonSolution:
    """Runs of the method from the start and from escape poses (module docstring), the best pose kept."""
    method = fabrik_tree if p.method == "fabrik" else dls_tree
    if skeleton_status(p, False, False, 0) == "out of reach":  # no escape: one run
        run = method(p, p.angles, p.iterations)
        return solution(p, run, run.used, run.stalled)
    best = run = method(p, p.angles, min(p.iterations, FIRST[p.method]))
    used = run.used
    starts = escape_poses(p, run.angles)
    for escape in range(ESCAPES + 1):
        if best.reached or used >= p.iterations:
            break
        if escape < ESCAPES:
            run = method(p, next(starts), min(p.iterations - used, NEXT[p.method]))
        else:  # the last run: from the best pose, for what is left
            run = method(p, best.angles, p.iterations - used)
        used += run.used
        if run.reached or run.cost < best.cost:
            best = run
    return solution(p, best, used, run.stalled)


def escape_poses(p: SkeletonProblem, a: list):
    """The poses escapes start from (module docstring): ``a``'s bends mirrored, then seeded random poses."""
    n = len(a)
    lim = p.limits if p.limits is not None else [(-math.pi, math.pi)] * n
    yield [a[0]] + [clamp_angle(-v, *lim[i]) for i, v in enumerate(a[1:], start=1)]
    key = np.array([p.rx, p.ry, *p.lengths, *p.angles, *p.tx, *p.ty, *p.parents, *p.bones], dtype=np.float64)
    rng = np.random.default_rng(zlib.crc32(key.tobytes()))
    lo = np.array([b[0] for b in lim])
    hi = np.array([b[1] for b in lim])
    while True:
        yield rng.uniform(lo, hi).tolist()


def solution(p: SkeletonProblem, run: TreeRun, used: int, stalled: bool) -> SkeletonSolution:
    """The :class:`.skeleton_tree.SkeletonSolution` of ``run``'s pose after ``used`` iterations."""
    errors = dict(zip(p.bones, run.errors))
    turns = {b: t for b, t, h in zip(p.bones, run.turns, p.headings) if h is not None}
    status = skeleton_status(p, run.reached, stalled, used)
    return SkeletonSolution(np.array(run.angles, dtype=np.float64), errors, turns, run.reached, used, status)


def on_chain(p: SkeletonProblem) -> SkeletonSolution:
    """One point target: the chain of bones from the root to its bone solved by the chain solver of the method."""
    bone = p.bones[0]
    path = []
    b = bone
    while b >= 0:
        path.append(b)
        b = p.parents[b]
    path.reverse()
    lim = None if p.limits is None else [p.limits[j] for j in path]
    solve = solve_fabrik if p.method == "fabrik" else solve_dls
    sol = solve((p.rx, p.ry), [p.angles[j] for j in path], [p.lengths[j] for j in path], (p.tx[0], p.ty[0]),
                iterations=p.iterations, tolerance=p.tolerance, limits=lim)
    a = np.array(p.angles, dtype=np.float64)
    a[path] = sol.angles
    return SkeletonSolution(a, {bone: float(sol.error)}, {}, bool(sol.reached), int(sol.iterations), sol.status)
