"""One step of the whole scene (1/60 s; docs/design.md, "Time and the per-step rate limit").

A snake group follows its heads (the Flash snake tutorial), a rope group
swings (Jakobsen 2001), a path group lies along its curves (Spine's path constraint), a walker group walks, a
rig group walks (those of its rigs that walk) and solves its skeletons, an IK group moves its targets then
solves (clear of the scene's circle obstacles, for the solvers that keep clear of them); then every walker's and
rig's appendages jiggle, all in one call. Pixels, y down; radians.
"""

from __future__ import annotations

import time

from ikplayground.scene.core.solver_kinds import SOLVER_KINDS, SOLVERS
from ikplayground.scene.step import appendages, path_step, rig_step, rig_walk, rope_step, target_paths, walker
from ikplayground.scene.step.group_step import step_ik, step_snakes


def step_groups(groups, stage, seed, terrain, obstacles=None) -> dict[str, float]:
    """Step every group (its arrays in place) once, in order, on ``stage`` (px) with the scene's ``seed``,
    ``terrain`` and ``obstacles`` ((k, 3) circles ``(x, y, r)`` px the IK chains keep clear of, or None); the
    milliseconds each solver's groups took.
    """
    costs = dict.fromkeys(SOLVERS, 0.0)
    clock = time.perf_counter
    for g in groups:
        t0 = clock()
        kind = SOLVER_KINDS[g.solver].kind
        if kind == "snake":
            step_snakes(g.fields, stage, seed)
        elif kind == "rope":
            rope_step.step_ropes(g.fields)
        elif kind == "path":
            path_step.step_paths(g.fields)
        elif kind == "walker":
            walker.step_walkers(g.fields, stage, terrain)
        elif kind == "rig":
            rig_walk.walk_rigs(g.fields, stage, terrain)  # the walking ones' roots and targets first, then the solve
            rig_step.step_rigs(g.fields)
        else:
            target_paths.advance(g.fields, stage)  # animated targets first, then the solve
            step_ik(g.solver, g.fields, obstacles)
        costs[g.solver] += (clock() - t0) * 1000.0
    t0 = clock()
    appendages.step_appendages(groups)  # every walker's and rig's tails, antennae and ears, after their parents
    shared = [g.solver for g in groups if appendages.has_appendages(g.fields)]
    for solver in shared:  # their one call's time, shared out among the groups that have some
        costs[solver] += (clock() - t0) * 1000.0 / len(shared)
    return costs
