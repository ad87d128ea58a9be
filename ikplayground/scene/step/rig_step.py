"""One step of a group of rigs: each skeleton solved toward its targets, its shown pose rate-limited toward that.

A rig is a tree of bones with several targets (``RIG_FIELDS``; the model of
Spine's and Godot's skeletons and their IK constraints, docs/sources.md). Each
step solves it with :func:`ikplayground.solvers.solve_skeleton` from the
solver's own last answer (``goal``) toward its targets, by its weights,
headings, limits and method; a target whose FK/IK mix is below 1 is first
blended toward where its bone's end lies in the rest pose (Spine's mix: 0 is
the FK pose, 1 the IK pose). The shown angles then move toward the answer with
no joint turning more than the rate limit, but all together
(:func:`coordinated`: the whole turn scaled down, where a chain's rate limit
clips each joint), and the points, each target's error and the status follow. Rigs are few: a loop over them. Arrays
with a leading axis of N rigs; pixels, y down, radians.
"""

from __future__ import annotations

import time

import numpy as np

from ikplayground.scene.core.chain import is_reached
from ikplayground.scene.core.constants import RIG_METHODS
from ikplayground.scene.core.joint_ranges import tree_parents
from ikplayground.solvers import FULL_CIRCLE, skeleton_points, solve_skeleton, wrap_array

REACHED, OUT_OF_REACH, STALLED, ITERATING, MIXED = 0.0, 1.0, 2.0, 3.0, 4.0  # codes of chain.STATUSES
_CODES = {"out of reach": OUT_OF_REACH, "stalled": STALLED, "iterations": ITERATING, "reached": ITERATING}


def parents_of(f) -> list[int]:
    """One rig's parents (its ``parents`` field) as a list of ints."""
    return [int(p) for p in f["parents"].tolist()]


def bone_ends(f, angles=None) -> np.ndarray:
    """One rig's bone ends (n, 2) px, posed by ``angles`` (n,) rad (None: its shown angles)."""
    return skeleton_points(parents_of(f), f["root"], f["angles"] if angles is None else angles, f["lengths"])


def bone_starts(f) -> np.ndarray:
    """Where each bone of one rig or IK chain starts (n, 2) px, from its ``points`` (the root for bone 0)."""
    return f["points"][tree_parents(f) + 1]


def lay_out(f) -> None:
    """One rig's points from its shown angles, and each target's error, in place (after an edit or a move)."""
    f["points"][0] = f["root"]
    f["points"][1:] = bone_ends(f)
    measure(f)


def measure(f) -> None:
    """One rig's target errors (px), worst error and reached flag from its points, in place."""
    bones = f["target_bones"].astype(int)
    ends = f["points"][bones + 1]
    f["errors"][:] = np.hypot(*(f["targets"] - ends).T) if len(bones) else 0.0
    f["error"][0] = float(f["errors"].max()) if len(bones) else 0.0
    f["reached"][0] = float(is_reached(f["error"][0], f["tolerance"][0]))


def aims(f) -> np.ndarray:
    """Where one rig's solve aims each target (k, 2) px: the target, blended by its mix toward its bone's end in
    the rest pose (mix 1: the target itself)."""
    mix = f["mix"]
    aim = np.array(f["targets"], dtype=float)
    blend = mix < 1.0
    if blend.any():
        rest = bone_ends(f, f["rest"])[f["target_bones"].astype(int)]
        aim[blend] = rest[blend] + mix[blend, None] * (aim[blend] - rest[blend])
    return aim


def solve_targets(f) -> dict:
    """One rig's targets as :func:`~ikplayground.solvers.solve_skeleton` takes them: ``{bone: (x, y[, heading])}``."""
    out = {}
    for bone, (x, y), heading in zip(f["target_bones"].astype(int).tolist(), aims(f).tolist(),
                                     f["headings"].tolist()):
        out[bone] = (x, y) if np.isnan(heading) else (x, y, heading)
    return out


def solve(f) -> tuple[np.ndarray, str, int]:
    """One rig solved from its goal: (the answer's angles (n,) rad, its status, the iterations used)."""
    targets = solve_targets(f)
    if not targets:
        return f["goal"].copy(), "reached", 0
    weights = dict(zip(f["target_bones"].astype(int).tolist(), f["weights"].tolist()))
    sol = solve_skeleton(parents_of(f), f["root"], f["goal"], f["lengths"], targets,
                         method=RIG_METHODS[int(f["method"][0])], iterations=int(f["iterations"][0]),
                         tolerance=float(f["tolerance"][0]), limits=f["limits"], weights=weights)
    return np.asarray(sol.angles, dtype=float), sol.status, int(sol.iterations)


def coordinated(current: np.ndarray, desired: np.ndarray, rate: float, limits: np.ndarray) -> np.ndarray:
    """Angles (n,) rad moved from ``current`` toward ``desired`` along the straight line between them, as far
    as the joint that turns most may turn, ``rate`` rad (inf: all the way): every joint arrives together.

    A free joint (a range of ``FULL_CIRCLE``) goes the shorter way round and is wrapped to (-pi, pi]; a
    limited one stays in its range (``limits`` (n, 2) rad), both ends being in it. Where a solve's answer
    jumps (a target crossing out of reach), clipping each joint alone, as a chain's rate limit does, moves
    the small joints first and lets the other targets' bones slip; scaled together they slip far less.
    """
    free = ~(limits[:, 1] - limits[:, 0] < FULL_CIRCLE)
    turn = np.where(free, wrap_array(desired - current), desired - current)
    most = float(np.abs(turn).max()) if len(turn) else 0.0
    if most > rate:
        turn = turn * (rate / most)
    moved = current + turn
    return np.where(free, np.clip(wrap_array(moved), limits[:, 0], limits[:, 1]), moved)


def step_rig(f) -> None:
    """One step of one rig (its fields, changed in place): solve, rate limit, points, errors, status."""
    t0 = time.perf_counter()
    goal, status, used = solve(f)
    f["solve_us"][0] = (time.perf_counter() - t0) * 1e6
    f["goal"][:] = goal
    f["used"][0] = used
    f["angles"][:] = coordinated(f["angles"], goal, float(f["rate"][0]), f["limits"])
    lay_out(f)
    if f["reached"][0]:
        f["status"][0] = REACHED
    elif status == "reached" and (f["mix"] < 1.0).any():
        f["status"][0] = MIXED
    else:
        f["status"][0] = _CODES.get(status, ITERATING)


def step_rigs(f) -> None:
    """One step of a group of rigs (``RIG_FIELDS`` with a leading axis N, changed in place), one rig at a time."""
    for row in range(len(f["root"])):
        step_rig({name: a[row] for name, a in f.items()})
