"""The Jacobian family in the playground: transpose, pseudo-inverse and SDLS are entries of the solver registry
beside DLS (docs/design.md, "Recipes"), so the scene builds, steps, converts, races and files their chains."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.insight.race import Race, race_solvers
from ikplayground.scene import (PALETTE_SIZE, SETTINGS, SOLVER_KINDS, SOLVER_LABELS, Scene, load_scene, make_ik_chain,
                                save_scene)
from ikplayground.scene.core.constants import ITERATIVE
from ikplayground.solvers import METHODS, forward_kinematics

FAMILY = ("transpose", "pseudo-inverse", "sdls")


def test_every_method_of_the_family_is_an_iterative_solver_with_its_rule():
    assert set(METHODS) <= set(ITERATIVE)
    for name in FAMILY:
        kind = SOLVER_KINDS[name]
        assert kind.kind == "ik" and kind.iterative and kind.engine is not None
        assert kind.hint.startswith(SOLVER_LABELS[name] + ":") and kind.rule.startswith("Δθ =")
    assert SOLVER_LABELS["pseudo-inverse"] == "Pseudo-inverse" and SOLVER_LABELS["sdls"] == "SDLS"
    assert all(SOLVER_KINDS[s].rule for s in ITERATIVE)  # the Math page's line about each


def test_the_race_colours_tell_every_racer_apart():
    for bones in (2, 5):
        colours = [SOLVER_KINDS[s].colour % PALETTE_SIZE for s in race_solvers(bones)]
        assert len(set(colours)) == len(colours)


def test_the_family_takes_the_iterative_settings_and_only_dls_a_damping():
    for name in FAMILY:
        has = {s.name for s in SETTINGS if s.applies(name)}
        assert {"iterations", "tolerance", "joint_limit", "bones", "rate", "mix", "pole_on"} <= has
        assert "damping" not in has
    assert any(s.name == "damping" and s.applies("dls") for s in SETTINGS)


@pytest.mark.parametrize("solver", FAMILY)
def test_a_chain_of_each_method_steps_to_its_target(solver):
    scene = Scene()
    lengths = np.full(6, 40.0)
    goal = np.r_[-1.2, 0.4, -0.3, 0.5, 0.2, -0.4]  # inside the default +-45 degree limits
    target = forward_kinematics((300.0, 500.0), goal, lengths)[-1]
    chain = scene.add(make_ik_chain(solver, (300.0, 500.0), np.r_[-math.pi / 2, np.zeros(5)], lengths, target,
                                    iterations=20))
    chain.rate_limit = None
    start = chain.error
    for _ in range(60):
        scene.step()
    assert chain.solver == solver
    assert chain.error <= chain.tolerance < start
    assert chain.status == "reached"


@pytest.mark.parametrize("solver", FAMILY)
def test_a_pole_bends_a_chain_of_each_method_toward_it_without_a_flip(solver):
    scene = Scene()
    root = np.array([400.0, 400.0])
    chain = scene.add(make_ik_chain(solver, root, np.r_[-0.3, 0.3, 0.3, 0.3], np.full(4, 50.0), (540.0, 400.0),
                                    pole=(470.0, 520.0), rate_limit=None, limits=np.tile([-math.pi, math.pi], (4, 1))))
    scene.step()  # (the first solve reaches the target from the start: a long way)
    previous = chain.fields["angles"].copy()
    for _ in range(60):
        scene.step()
        turn = np.abs(np.remainder(chain.fields["angles"] - previous + math.pi, 2 * math.pi) - math.pi).max()
        assert turn <= 0.3  # it rolls over to the pole's side, never flips
        previous = chain.fields["angles"].copy()
    assert np.all(chain.fields["points"][1:-1, 1] > 400.0)  # the inner joints below the line, on the pole's side


@pytest.mark.parametrize("solver", FAMILY)
def test_a_chain_turns_into_each_method_and_back(solver):
    scene = Scene()
    chain = scene.new_chain("dls")
    angles = chain.fields["angles"].copy()
    other = scene.set_solver(chain, solver)
    assert other.solver == solver and np.allclose(other.fields["angles"], angles)
    assert scene.set_solver(other, "dls").solver == "dls"


def test_the_race_races_every_method():
    race = Race((980.0, 720.0))
    assert {c.solver for c in race.chains} >= set(METHODS) | {"ccd", "fabrik"}
    for _ in range(3):
        race.drive()
        race.scene.step()
        race.record()
    assert {r.solver for r in race.table()} >= set(METHODS)


def test_the_scene_file_keeps_the_family(tmp_path):
    scene = Scene()
    for k, solver in enumerate(FAMILY):
        chain = scene.add(make_ik_chain(solver, (200.0 + 150.0 * k, 500.0), np.r_[-math.pi / 2, 0.2, -0.1],
                                        np.full(3, 30.0), (250.0 + 150.0 * k, 430.0), iterations=17))
        chain.fields["pole"][:] = (260.0 + 150.0 * k, 520.0)
    path = tmp_path / "family.json"
    save_scene(scene, path)
    again = load_scene(path)
    assert [c.solver for c in again.chains] == list(FAMILY)
    for old, new in zip(scene.chains, again.chains):
        assert np.allclose(new.fields["angles"], old.fields["angles"])
        assert new.iterations == 17 and np.allclose(new.fields["pole"], old.fields["pole"])
