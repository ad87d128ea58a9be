"""A stress scene: many chains on scripted motion, for ``--stress N`` and the benchmark.

A fifth each of two-bone, CCD, FABRIK, DLS (10 bones) and snakes (10
segments) on a grid over the stage; each step moves the targets on small
Lissajous paths and steers the snakes, with array operations over whole groups.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.build import build_batch
from ikplayground.scene.core.constants import DEFAULT_RATE_DEG, PALETTE_SIZE, SOLVERS
from ikplayground.scene.core.group import Group
from ikplayground.scene.core.solver_kinds import SOLVER_KINDS
from ikplayground.scene.core.scene import Scene

STRESS_BONES = 10
# in equal shares, in turn: the IK chains and snakes (walkers need the ground, rigs are few; of the Jacobian
# family DLS alone, so that the mix, and docs/performance.md's figures of it, stay a fifth each)
SOLVER_ORDER = tuple(s for s in SOLVERS if SOLVER_KINDS[s].kind in ("ik", "snake")
                     and s not in ("transpose", "pseudo-inverse", "sdls"))


def stress_scene(count: int, stage=(980.0, 694.0), seed: int = 0) -> Scene:
    """A scene of ``count`` chains, an equal share of each solver on a grid over ``stage``, row by row.

    ``seed`` sets the snakes' headings and becomes the scene's seed; the chains equal the one-at-a-time builders'.
    """
    rng = np.random.default_rng(seed)
    scene = Scene(stage, seed=seed)
    w, h = scene.stage
    cols = max(1, int(math.ceil(math.sqrt(count * w / h))))
    rows = max(1, int(math.ceil(count / cols)))
    cell = min(w / cols, h / rows)
    reach = max(8.0, cell * 1.2)  # neighbours overlap a little: it is a crowd
    i = np.arange(count)
    xs = (i % cols + 0.5) * w / cols
    ys = (i // cols + 0.5) * h / rows
    targets = np.stack([np.minimum(np.maximum(xs, 0.0), w),  # scene.clamp((x, y - reach * 0.6)) of each
                        np.minimum(np.maximum(ys - reach * 0.6, 0.0), h)], axis=1)
    xy = np.stack([xs, ys], axis=1)
    palette = i % PALETTE_SIZE
    chains: list = [None] * count
    groups = []
    for k, solver in enumerate(SOLVER_ORDER):
        members = range(k, count, len(SOLVER_ORDER))
        if not members:
            continue
        part = slice(k, count, len(SOLVER_ORDER))
        if solver == "snake":
            f, made = build_batch.straight_snakes(
                xy[part], rng.uniform(-math.pi, math.pi, len(members)), STRESS_BONES + 1,
                np.full(len(members), reach / STRESS_BONES), palette[part])
        else:
            n = 2 if solver == "two-bone" else STRESS_BONES
            lengths = np.full(n, reach / n)
            angles = np.zeros(n)
            angles[0] = -math.pi / 2
            f, made = build_batch.ik_columns(
                solver, n, len(members), {"root": xy[part], "target": targets[part], "palette_index": palette[part]},
                {"solver": solver, "angles": angles, "lengths": lengths, "rate_limit": DEFAULT_RATE_DEG,
                 "iterations": 10, "tolerance": 0.5})
        for j, chain in zip(members, made):
            chains[j] = chain
        groups.append(Group.of_arrays(solver, made, f))
    scene.add_grouped(chains, groups)
    scene.select(scene.chains[0] if scene.chains else None)
    return scene


def drive_stress(scene: Scene, step: int) -> None:
    """Move every target and steer every snake for step number ``step``."""
    t = step / 60.0
    for g in scene.groups:
        f = g.fields
        if g.solver == "snake":
            k = len(g.members)
            phase: np.ndarray = np.arange(k)
            f["throttle"][:, 0] = ((step // 45 + phase) % 4 != 0)
            f["turn"][:, 0] = np.sign(np.sin(t * 1.3 + phase * 0.7))
        elif "target" in f:  # an IK chain (a walker walks by itself; a rig added by hand keeps its targets)
            reach = np.einsum("ij->i", f["lengths"])
            phase = np.arange(len(g.members)) * 0.37
            r = reach * 0.55
            w, h = scene.stage
            np.clip(f["root"][:, 0] + r * np.sin(t * 1.1 + phase), 0.0, w, out=f["target"][:, 0])
            np.clip(f["root"][:, 1] - r * (0.6 + 0.4 * np.cos(t * 1.7 + phase)), 0.0, h, out=f["target"][:, 1])
