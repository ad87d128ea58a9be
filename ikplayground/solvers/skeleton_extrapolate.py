"""Going further along a pass's turns: the extrapolation that speeds up multi-end-effector FABRIK on trees.

Where several targets pull on shared bones, FABRIK's passes (:mod:`.skeleton_fabrik`) close in on a pose
linearly, the same turns pass after pass, each smaller. After each pass two trial poses are weighed by the
weighted squared error (:func:`.skeleton_problem.target_errors`), each kept only if it is lower: Anderson's
mixing of the last ``DEPTH + 1`` passes (Anderson 1965, "Iterative procedures for nonlinear integral
equations", J. ACM 12; Walker and Ni 2011, "Anderson acceleration for fixed-point iterations"), which
finds the pose the passes are heading for from how their turns change, and then the pass's turns taken
``EXTRAPOLATE`` times over, the largest that still lowers the error. Every joint is kept inside its limit
(a free one wrapped to (-pi, pi]). This project's choice; trials cost a forward kinematics each and no
iteration. Pixels (y down), radians.
"""

from __future__ import annotations

import numpy as np

from .dls import joint_bounds
from .skeleton_problem import SkeletonProblem, target_errors
from .skeleton_tree import tree_pose
from .validate import wrap, wrap_array

EXTRAPOLATE = (2.0, 4.0, 8.0)  # the pass's turns times these, tried in order while the error drops
DEPTH = 2  # Anderson's mixing looks this many passes back


class Extrapolation:
    """The trial poses after each pass of one run (the passes' history is kept here)."""

    def __init__(self, p: SkeletonProblem):
        self.p = p
        self.bounds = joint_bounds(p.limits, len(p.parents))
        self.history: list[tuple[np.ndarray, np.ndarray]] = []

    def inside(self, values) -> list:
        """Angles (rad) put inside the limits: a limited joint clamped, a free one wrapped."""
        return [(lo if v < lo else hi if v > hi else v) if clamped else wrap(v)
                for v, (lo, hi, clamped) in zip(values, self.bounds)]

    def trial(self, b: list) -> tuple:
        """``(b, (xs, ys, ab), (errors, turns, cost))`` of the angles ``b``."""
        p = self.p
        pose = tree_pose(p.parents, p.rx, p.ry, b, p.lengths)
        return b, pose, target_errors(p, *pose)

    def step(self, before: list, a: list, pose: tuple, errs: tuple) -> tuple:
        """After a pass from the angles ``before`` to ``a`` (its ``pose`` and ``errs``): the best of it and the
        trials, as ``(angles, (xs, ys, ab), (errors, turns, cost))``."""
        best = (a, pose, errs)
        x = np.array(before)
        f = wrap_array(np.array(a) - x)
        history = self.history
        history.append((x, f))
        if len(history) > DEPTH + 1:
            del history[0]
        if len(history) > 1:
            dx = np.column_stack([wrap_array(history[j + 1][0] - history[j][0]) for j in range(len(history) - 1)])
            df = np.column_stack([history[j + 1][1] - history[j][1] for j in range(len(history) - 1)])
            gamma = np.linalg.lstsq(df, f, rcond=None)[0]
            mixed = self.trial(self.inside((x + f - (dx + df) @ gamma).tolist()))
            if mixed[2][2] < best[2][2]:
                best = mixed
            else:  # the passes turned another way: start the history again
                history.clear()
        turn = [wrap(u - v) for u, v in zip(best[0], before)]
        for times in EXTRAPOLATE:
            further = self.trial(self.inside([v + times * t for v, t in zip(before, turn)]))
            if not further[2][2] < best[2][2]:
                break
            best = further
        return best
