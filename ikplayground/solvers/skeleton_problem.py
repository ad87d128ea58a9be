"""A skeleton solve's checked inputs, the errors of a pose against its targets, and the solve's status.

The tree convention is :mod:`.skeleton_tree`'s (``parents`` before children, bone 0 from ``root``, relative
angles). A target ``{bone: (x, y)}`` asks for the end of ``bone`` at (x, y) px; ``{bone: (x, y, heading)}``
also for the bone's absolute direction at ``heading`` rad (y down: positive turns clockwise on screen). A pose
is judged by the weighted sum of squared errors: ``w * |end - (x, y)|^2`` per point, plus ``w * (L * dh)^2``
for a heading (``dh`` the wrapped difference, rad, ``L`` the bone's length, so the heading's error is counted
in px, as the arc the bone's start is off). DLS minimises it; FABRIK weighs its sub-bases by the weights;
both keep the pose with the least. The checks and their wording are
:mod:`.validate`'s; the status and the stall rule are :class:`.results.IKSolution`'s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .results import STALL_GAIN, STALL_SWEEPS
from .skeleton_tree import tree_parents
from .validate import (FULL_CIRCLE, angles_list, chain_extent, clamp_angle, clamp_heading, lengths_list,
                       limits_list, non_negative, point, positive_int, real, to_float64, wrap)

METHODS = ("fabrik", "dls")
HEADING_TOLERANCE = math.radians(1.0)  # rad: a heading this close is reached
TINY_WEIGHT = 1e-300  # the least weight over the largest (a smaller ratio would round to 0)


class SkeletonProblem(NamedTuple):
    """A skeleton and its targets as plain floats, every argument checked.

    ``parents`` (n ints), ``rx, ry`` the root (px), ``lengths`` (n floats, px), the start ``angles`` (n floats,
    rad, wrapped and inside ``limits``: n (lo, hi) pairs or None). The targets, in ascending bone order:
    ``bones`` (k ints), ``tx``, ``ty`` (k floats, px), ``headings`` (k floats, rad, or None where a target has
    none) and ``weights`` (k floats in (0, 1]: as given, over the largest). ``reaches``: each target's reach, the
    summed lengths of its bone and
    the bone's ancestors (px); ``scale`` the skeleton's length or the farthest target's distance from the root,
    whichever is more (px). ``iterations`` (>= 1), ``tolerance`` (px), ``method`` one of ``METHODS``.
    """

    parents: list
    rx: float
    ry: float
    lengths: list
    angles: list
    limits: list | None
    bones: list
    tx: list
    ty: list
    headings: list
    weights: list
    reaches: list
    scale: float
    iterations: int
    tolerance: float
    method: str


class TreeRun:
    """What a run of one method ended with: the best pose it met and how it stopped.

    ``angles`` (n floats, rad) and its ``cost`` (:func:`target_errors`), ``errors`` (px) and
    ``turns`` (rad) per target, ``reached``; ``used`` iterations, ``stalled`` (stopped by the stall rule).
    """

    __slots__ = ("angles", "cost", "errors", "turns", "reached", "used", "stalled")

    def __init__(self, angles: list, cost: float, errors: list, turns: list, reached: bool):
        self.angles, self.cost, self.errors, self.turns, self.reached = angles, cost, errors, turns, reached
        self.used = 0
        self.stalled = False


class Watch:
    """The stall rule, :class:`.results.IKSolution`'s, on a run's root mean square error (px): every
    ``STALL_SWEEPS`` iterations it must drop by ``STALL_GAIN`` of the skeleton's length."""

    __slots__ = ("total_weight", "scale", "gain", "last")

    def __init__(self, p: SkeletonProblem):
        self.total_weight = sum(p.weights)
        self.scale = p.scale
        self.gain = STALL_GAIN * sum(p.lengths)
        self.last = math.inf

    def stalled(self, used: int, cost: float) -> bool:
        """Whether a run stalls after ``used`` iterations at the cost ``cost`` (:func:`target_errors`)."""
        if used % STALL_SWEEPS:
            return False
        rms = self.scale * math.sqrt(cost / self.total_weight)
        if used and not rms < self.last - self.gain:
            return True
        self.last = rms
        return False


def skeleton_problem(parents, root, angles, lengths, targets, iterations, tolerance, limits, weights,
                     method) -> SkeletonProblem:
    """Check :func:`.skeleton_solve.solve_skeleton`'s arguments and clamp the start pose into the limits.

    Raises
    ------
    ValueError
        Naming the argument that is wrong (``targets`` for a bone that does not exist, a point that is not two
        finite numbers or a heading that is not one; ``weights`` for a weight on a bone without a target).
    """
    parents = tree_parents(parents)
    n = len(parents)
    rx, ry = point(root, "root")
    lens = lengths_list(lengths)
    if len(lens) != n:
        raise ValueError(f"lengths: expected {n} lengths (one per bone), got {len(lens)}")
    chain_extent(rx, ry, sum(lens))
    a = angles_list(angles, n)
    lim = limits_list(limits, n)
    if lim is not None:
        a = clamped_start(a, lim)
    iterations = positive_int(iterations, "iterations")
    tolerance = non_negative(tolerance, "tolerance")
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"method: must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    goals = target_dict(targets, n)
    bones = sorted(goals)
    w = weight_list(weights, bones)
    reaches = []
    for b in bones:
        total = 0.0
        while b >= 0:
            total += lens[b]
            b = parents[b]
        reaches.append(total)
    # (the weighted squared error counted in this unit and the weights over the largest: no square overflows)
    scale = max([sum(lens)] + [math.hypot(goals[b][0] - rx, goals[b][1] - ry) for b in bones])
    return SkeletonProblem(parents, rx, ry, lens, a, lim, bones, [goals[b][0] for b in bones],
                           [goals[b][1] for b in bones], [goals[b][2] for b in bones], w, reaches, scale, iterations,
                           tolerance, method)


def clamped_start(a: list, lim: list) -> list:
    """Start angles inside the limits, as :func:`.results.chain_problem` clamps a chain's (bone 0 as a heading)."""
    # (a start of pi on a range from -pi stays on that bound, as in a chain)
    return [clamp_heading(a[0], *lim[0])] + [lo if v == math.pi and lo <= -math.pi and hi - lo < FULL_CIRCLE
                                             else clamp_angle(v, lo, hi) for v, (lo, hi) in zip(a[1:], lim[1:])]


def bone_index(key, n: int, name: str) -> int:
    """A dict key naming a bone: an int (not a bool) in ``[0, n)``."""
    if isinstance(key, (bool, np.bool_)) or not isinstance(key, (int, np.integer)):
        raise ValueError(f"{name}: keys must be bone indices (ints), got {key!r}")
    if not 0 <= key < n:
        raise ValueError(f"{name}: bone {int(key)} does not exist (the skeleton has bones 0..{n - 1})")
    return int(key)


def target_dict(targets, n: int) -> dict:
    """``{bone: (x, y, heading or None)}`` from ``{bone: (x, y)}`` / ``{bone: (x, y, heading)}`` (px, rad)."""
    if not isinstance(targets, Mapping):
        raise ValueError(f"targets: must be a dict {{bone: (x, y)}} or {{bone: (x, y, heading)}}, "
                         f"got {type(targets).__name__}")
    out = {}
    for key, value in targets.items():
        b = bone_index(key, n, "targets")
        name = f"targets[{b}]"
        if isinstance(value, (str, bytes)):
            raise ValueError(f"{name}: must be (x, y) or (x, y, heading), got a string")
        arr = to_float64(value, name)
        if arr.shape not in ((2,), (3,)):
            raise ValueError(f"{name}: must be (x, y) or (x, y, heading), got shape {arr.shape}")
        x, y = point(arr[:2], name)
        heading = None
        if arr.shape == (3,):
            h = float(arr[2])
            if not math.isfinite(h):
                raise ValueError(f"{name}: the heading must be a finite number (rad), got {h}")
            heading = wrap(h)
        out[b] = (x, y, heading)
    return out


def weight_list(weights, bones: list) -> list:
    """Each target's weight (1.0 where ``weights`` gives none), checked: finite and > 0."""
    if weights is None:
        return [1.0] * len(bones)
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights: must be None or a dict {{bone: weight}}, got {type(weights).__name__}")
    given = {}
    for key, value in weights.items():
        if isinstance(key, (bool, np.bool_)) or not isinstance(key, (int, np.integer)):
            raise ValueError(f"weights: keys must be bone indices (ints), got {key!r}")
        b = int(key)
        if b not in bones:
            raise ValueError(f"weights: bone {b} carries no target")
        w = real(value, f"weights[{b}]")
        if not (math.isfinite(w) and w > 0.0):
            raise ValueError(f"weights[{b}]: must be finite and > 0, got {value!r}")
        given[b] = w
    out = [given.get(b, 1.0) for b in bones]
    top = max(out, default=1.0)
    return [max(w / top, TINY_WEIGHT) for w in out]


def target_errors(p: SkeletonProblem, xs: list, ys: list, absolute: list) -> tuple[list, list, float]:
    """The point errors (px), the heading errors (rad, >= 0; 0.0 where none) and the cost: the weighted squared
    error (module docstring) over ``p.scale`` squared, with ``p.weights`` (so no square overflows).

    ``xs``, ``ys`` every bone's end (px) and ``absolute`` every bone's direction (rad) of the pose.
    """
    errors, turns, cost = [], [], 0.0
    unit = p.scale
    for b, x, y, h, w in zip(p.bones, p.tx, p.ty, p.headings, p.weights):
        e = math.hypot(x - xs[b], y - ys[b])
        dh = 0.0 if h is None else abs(wrap(h - absolute[b]))
        errors.append(e)
        turns.append(dh)
        along = e / unit
        arc = p.lengths[b] * dh / unit
        cost += w * (along * along + arc * arc)
    return errors, turns, cost


def all_reached(p: SkeletonProblem, errors: list, turns: list) -> bool:
    """Every point within the tolerance and every heading within ``HEADING_TOLERANCE``."""
    tol = p.tolerance
    return all(e <= tol for e in errors) and all(t <= HEADING_TOLERANCE for t in turns)


def skeleton_status(p: SkeletonProblem, reached: bool, stalled: bool, used: int) -> str:
    """As :func:`.results.ik_status`: "out of reach" where some point lies beyond its bone's reach (plus the
    tolerance) from the root; "stalled" only for a stop before the budget ran out."""
    if reached:
        return "reached"
    for x, y, reach in zip(p.tx, p.ty, p.reaches):
        if math.hypot(x - p.rx, y - p.ry) > reach + p.tolerance:
            return "out of reach"
    return "stalled" if stalled and used < p.iterations else "iterations"
