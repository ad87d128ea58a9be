"""The solver registry: a solver is its math plus one entry (docs/design.md, "Recipes").

A toy solver, the Jacobian transpose written here on numpy, is registered as one
:class:`SolverKind`; with nothing else changed the scene builds and steps its chains,
the settings table gives it the iterative settings, the race races it, the scene
file keeps it, and it can be taken away again.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.insight.race import Race, race_solvers
from ikplayground.scene import (IK_SOLVERS, SETTINGS, SOLVER_KINDS, SOLVER_LABELS, SOLVERS, Scene, SolverKind,
                                load_scene, make_ik_chain, register, save_scene, unregister)
from ikplayground.solvers import chain_points_batch  # front door after the solvers merge

TOY = "toy"


def jacobian_transpose(root, goal, lengths, target, iterations, tolerance, limits, f):
    """Gradient steps on the squared tip error: each joint turns by alpha * (J^T e)_i, clamped to its range.

    Arrays with a leading chain axis of N (px, y down; rad), as every engine of the registry.
    """
    angles = goal.copy()
    used = np.zeros(len(root), dtype=np.int64)
    error = np.zeros(len(root))
    for k in range(int(iterations.max(initial=0))):
        pts = chain_points_batch(root, angles, lengths)
        e = target - pts[:, -1]  # (N, 2)
        error = np.hypot(e[:, 0], e[:, 1])
        active = (error > tolerance) & (k < iterations)
        if not active.any():
            break
        arm = pts[:, -1:, :] - pts[:, :-1, :]  # (N, n, 2): each joint to the tip
        grad_abs = arm[..., 0] * e[:, None, 1] - arm[..., 1] * e[:, None, 0]  # d|e|^2/2 / d(absolute angle)
        grad = np.cumsum(grad_abs[:, ::-1], axis=1)[:, ::-1]  # a relative angle turns every bone after it
        alpha = 0.5 / np.maximum((lengths.sum(axis=1) ** 2), 1.0)[:, None]
        step = np.clip(alpha * grad, -0.2, 0.2) * active[:, None]
        angles = np.clip(angles + step, limits[..., 0], limits[..., 1])
        used += active
    pts = chain_points_batch(root, angles, lengths)
    error = np.hypot(*(target - pts[:, -1]).T)
    return angles, error, used


@pytest.fixture
def toy():
    kind = register(SolverKind(TOY, "Toy JT", "ik", "Toy: Jacobian transpose steps.", iterative=True,
                               engine=jacobian_transpose, colour=6))
    yield kind
    unregister(TOY)
    assert TOY not in SOLVERS


def test_registering_adds_the_solver_to_every_list(toy):
    assert SOLVER_KINDS[TOY] is toy
    assert SOLVERS[-1] == TOY and TOY in IK_SOLVERS and SOLVER_LABELS[TOY] == "Toy JT"
    has = {s.name for s in SETTINGS if s.applies(TOY)}
    assert {"iterations", "tolerance", "joint_limit", "bones", "rate", "mix", "pole_on"} <= has
    assert "damping" not in has and "mirror" not in has  # DLS's and two-bone's own


@pytest.mark.slow
def test_a_registered_solver_steps_its_chains_to_the_target(toy):
    scene = Scene()
    chain = make_ik_chain(TOY, (300.0, 500.0), np.r_[-math.pi / 2, np.zeros(5)], np.full(6, 40.0), (420.0, 360.0),
                          iterations=50)
    scene.add(chain)
    chain.rate_limit = None
    start = chain.error
    for _ in range(120):
        scene.step()
    assert chain.solver == TOY
    assert chain.error < min(start, 5.0)
    assert scene.solver_ms[TOY] >= 0.0


def test_a_chain_turns_into_the_registered_solver_and_back(toy):
    scene = Scene()
    chain = scene.new_chain("ccd")
    angles = chain.fields["angles"].copy()
    toy_chain = scene.set_solver(chain, TOY)
    assert toy_chain.solver == TOY and np.allclose(toy_chain.fields["angles"], angles)
    assert scene.set_solver(toy_chain, "fabrik").solver == "fabrik"


def test_the_race_races_a_registered_solver(toy):
    assert TOY in race_solvers(5) and TOY not in race_solvers(5)[:3]
    race = Race((980.0, 720.0))
    lanes = {c.solver: c for c in race.chains}
    assert TOY in lanes and lanes[TOY].palette_index == 6


def test_the_scene_file_keeps_a_registered_solver(toy, tmp_path):
    scene = Scene()
    scene.add(make_ik_chain(TOY, (300.0, 500.0), np.r_[-math.pi / 2, np.zeros(3)], np.full(4, 30.0), (350.0, 420.0)))
    path = tmp_path / "toy.json"
    save_scene(scene, path)
    again = load_scene(path)
    assert [c.solver for c in again.chains] == [TOY]
    assert np.allclose(again.chains[0].fields["angles"], scene.chains[0].fields["angles"])


def test_a_solver_is_registered_once_and_removed_once(toy):
    with pytest.raises(ValueError, match="already registered"):
        register(SolverKind(TOY, "again", "ik", "", iterative=True, engine=jacobian_transpose))
    with pytest.raises(ValueError, match="no solver"):
        unregister("no-such-solver")
    with pytest.raises(ValueError, match="engine"):
        SolverKind("broken", "Broken", "ik", "", iterative=True)
