"""Damped least squares on a tree of bones with several targets: a stacked Jacobian, after Buss 2004
("Introduction to Inverse Kinematics with Jacobian Transpose, Pseudoinverse and Damped Least Squares
methods", section on multiple end effectors), stepped as :mod:`.dls` steps a chain.

Each target adds two rows to the Jacobian: the derivative of its bone's end (px) by every joint angle
(rad), ``(-(y - sy_j), x - sx_j)`` for the bone itself and each of its ancestors ``j`` (``(sx_j, sy_j)`` the
start of bone j; 0 for other bones), and a heading a third: its bone's absolute direction moves by 1 per
radian of the bone's or an ancestor's angle, the row scaled by the bone's length (px per rad) so that it
weighs as the points do (:func:`.skeleton_problem.target_errors`). Each target's rows and errors are scaled
by the square root of its weight. The step is ``J^T (J J^T + lambda^2 I)^-1 e`` with ``lambda = damping *
mu * |e|`` and :mod:`.dls`'s rules: ``mu`` (Levenberg 1944, Marquardt 1963) halves after an accepted step
(down to 1) and grows fourfold after a rejected one, no joint turns more than ``MAX_STEP``, joints pushed
against a bound leave the Jacobian, and a step of next to nothing tries :func:`.dls.kicks`' trial turns
(the first pair that lowers the error, the better of the two). Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numpy as np

from .dls import AT_BOUND, DEFAULT_DAMPING, MAX_STEP, MU_GROW, MU_MAX, MU_SHRINK, NULL_STEP, joint_bounds, kicks, turned
from .results import ROUNDING
from .skeleton_problem import SkeletonProblem, TreeRun, Watch, all_reached, target_errors
from .skeleton_tree import tree_pose
from .validate import wrap


def paths(p: SkeletonProblem) -> np.ndarray:
    """(k, n) floats: 1.0 where bone j is target k's bone or one of its ancestors, else 0.0."""
    out = np.zeros((len(p.bones), len(p.parents)))
    for k, b in enumerate(p.bones):
        while b >= 0:
            out[k, b] = 1.0
            b = p.parents[b]
    return out


class Stack:
    """What a problem's stacked rows are made of: each target's path, the targets with a heading (``aimed``),
    their bones' lengths (``arm``, px) and the weights' square roots."""

    def __init__(self, p: SkeletonProblem):
        self.path = paths(p)
        self.ends = np.array(p.bones, dtype=np.intp)
        self.root_w = np.sqrt(np.array(p.weights))
        aimed = np.flatnonzero([h is not None for h in p.headings])
        self.aimed = aimed
        self.aimed_bones = self.ends[aimed]
        self.aim = np.array([p.headings[k] for k in aimed], dtype=np.float64)
        self.arm = np.array([p.lengths[p.bones[k]] for k in aimed], dtype=np.float64)
        self.target = np.column_stack([p.tx, p.ty]) if p.bones else np.empty((0, 2))
        self.starts = np.array(p.parents, dtype=np.intp)  # each bone starts at its parent's end (-1: the root)

    def rows(self, p: SkeletonProblem, xs: list, ys: list, ab: list) -> tuple[np.ndarray, np.ndarray]:
        """The weighted Jacobian (m, n) (px per rad) and error (m,) px of the pose ``xs``, ``ys``, ``ab``."""
        ex = np.array(xs)
        ey = np.array(ys)
        sx = np.where(self.starts < 0, p.rx, ex[self.starts])
        sy = np.where(self.starts < 0, p.ry, ey[self.starts])
        px = ex[self.ends]
        py = ey[self.ends]
        w = self.root_w
        jx = self.path * (-(py[:, None] - sy[None, :])) * w[:, None]
        jy = self.path * (px[:, None] - sx[None, :]) * w[:, None]
        err = [(self.target[:, 0] - px) * w, (self.target[:, 1] - py) * w]
        blocks = [jx, jy]
        if self.aimed.size:
            wa = w[self.aimed] * self.arm
            blocks.append(self.path[self.aimed] * wa[:, None])
            now = np.array(ab)[self.aimed_bones]
            err.append(np.array([wrap(h - v) for h, v in zip(self.aim.tolist(), now.tolist())]) * wa)
        return np.vstack(blocks), np.concatenate(err)


def dls_tree(p: SkeletonProblem, a: list, budget: int, damping: float = DEFAULT_DAMPING) -> TreeRun:
    """Up to ``budget`` damped least squares steps (rejected ones included) from ``a`` (n floats, rad, inside the
    limits; not changed)."""
    parents, lens, rx, ry = p.parents, p.lengths, p.rx, p.ry
    n = len(parents)
    stack = Stack(p)
    bounds = joint_bounds(p.limits, n)
    clamped = np.array([b[2] for b in bounds])
    lo = np.array([b[0] for b in bounds])
    hi = np.array([b[1] for b in bounds])
    limited = bool(clamped.any())
    reach = sum(lens)
    tiny = (ROUNDING * reach / p.scale) ** 2  # (costs are over p.scale squared)
    a = list(a)
    xs, ys, ab = tree_pose(parents, rx, ry, a, lens)
    errors, turns, cost = target_errors(p, xs, ys, ab)
    run = TreeRun(list(a), cost, errors, turns, all_reached(p, errors, turns))
    watch = Watch(p)
    mu = 1.0
    used = 0
    while not run.reached:
        if watch.stalled(used, cost):
            run.stalled = True
            break
        if used == budget:
            break
        used += 1
        jac, e = stack.rows(p, xs, ys, ab)
        size = p.scale * math.sqrt(cost)  # |e|, px
        scale = size if size > reach else reach  # every entry below 1 in size: nothing overflows
        jac /= scale
        u = e / scale
        lam = damping * mu * size / scale
        d = damped(jac, u, lam * lam)
        if limited:
            v = np.array(a)
            pushed = clamped & (((v >= hi - AT_BOUND) & (d > 0.0)) | ((v <= lo + AT_BOUND) & (d < 0.0)))
            if pushed.any():
                jac[:, pushed] = 0.0
                d = damped(jac, u, lam * lam)
        largest = float(np.abs(d).max()) if n else 0.0
        if largest > MAX_STEP:
            d *= MAX_STEP / largest
        b = [turned(v + t, *bounds[i]) for i, (v, t) in enumerate(zip(a, d.tolist()))]
        bx, by, bb = tree_pose(parents, rx, ry, b, lens)
        trial = target_errors(p, bx, by, bb)
        null = largest < NULL_STEP
        if trial[2] < cost or (null and trial[2] <= cost + tiny):
            a, xs, ys, ab = b, bx, by, bb
            errors, turns, cost = trial
            mu = max(mu * MU_SHRINK, 1.0)
        else:
            mu = min(mu * MU_GROW, MU_MAX)
        if null:
            kicked = escape(p, a, bounds, cost, tiny)
            if kicked is not None:
                a, (xs, ys, ab), (errors, turns, cost) = kicked
        if cost < run.cost:
            run = TreeRun(list(a), cost, errors, turns, all_reached(p, errors, turns))
    run.used = used
    return run


def damped(jac: np.ndarray, u: np.ndarray, lam2: float) -> np.ndarray:
    """``J^T (J J^T + lam2 I)^-1 u`` (rad, (n,)); zeros where the system is singular."""
    m = jac.shape[0]
    try:
        return jac.T @ np.linalg.solve(jac @ jac.T + lam2 * np.eye(m), u)
    except np.linalg.LinAlgError:
        return np.zeros(jac.shape[1])


def escape(p: SkeletonProblem, a: list, bounds: list, cost: float, tiny: float):
    """The better pose of the first pair of :func:`.dls.kicks` that lowers ``cost`` beyond rounding, as
    ``(angles, (xs, ys, ab), (errors, turns, cost))``; None when none does."""
    for pair in kicks(a, bounds):
        found = None
        for b in pair:
            pose = tree_pose(p.parents, p.rx, p.ry, b, p.lengths)
            trial = target_errors(p, *pose)
            if trial[2] < cost - tiny and (found is None or trial[2] < found[2][2] - tiny):
                found = b, pose, trial
        if found is not None:
            return found
    return None
