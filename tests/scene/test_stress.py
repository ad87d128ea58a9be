"""The stress scene, built a group at a time, is the scene the one-at-a-time constructors make."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build
from ikplayground.scene.build.stress import SOLVER_ORDER, STRESS_BONES, stress_scene
from ikplayground.scene.core.constants import PALETTE_SIZE
from ikplayground.scene.core.scene import MAX_CHAINS, Scene, SceneFull


def one_at_a_time(count: int, stage, seed: int) -> Scene:
    """The stress scene as it was built before the batch builders: chain by chain, added in turn."""
    rng = np.random.default_rng(seed)
    scene = Scene(stage, seed=seed)
    w, h = scene.stage
    cols = max(1, int(math.ceil(math.sqrt(count * w / h))))
    rows = max(1, int(math.ceil(count / cols)))
    cell = min(w / cols, h / rows)
    reach = max(8.0, cell * 1.2)
    for i in range(count):
        solver = SOLVER_ORDER[i % len(SOLVER_ORDER)]
        x = (i % cols + 0.5) * w / cols
        y = (i // cols + 0.5) * h / rows
        palette_index = i % PALETTE_SIZE
        if solver == "snake":
            chain = build.straight_snake((x, y), rng.uniform(-math.pi, math.pi), nodes=STRESS_BONES + 1,
                                         segment=reach / STRESS_BONES, palette_index=palette_index)
        else:
            n = 2 if solver == "two-bone" else STRESS_BONES
            lengths = np.full(n, reach / n)
            angles = np.zeros(n)
            angles[0] = -math.pi / 2
            chain = build.make_ik_chain(solver, (x, y), angles, lengths, scene.clamp((x, y - reach * 0.6)),
                                        palette_index=palette_index, iterations=10, tolerance=0.5)
        scene.add(chain, select=False)
    scene.select(scene.chains[0] if scene.chains else None)
    return scene


def assert_same_scene(new: Scene, old: Scene, measured=()) -> None:
    """Same chains, fields bit for bit (but the ``measured`` ones: times), order, colours and selection."""
    assert (new.stage, new.seed, len(new.chains)) == (old.stage, old.seed, len(old.chains))
    assert (new.selected is None) == (old.selected is None)
    if old.selected is not None:
        assert new.chains.index(new.selected) == old.chains.index(old.selected)
    for i, (a, b) in enumerate(zip(new.chains, old.chains, strict=True)):
        assert (a.solver, a.palette_index, a.settings()) == (b.solver, b.palette_index, b.settings()), i
        assert a.fields.keys() == b.fields.keys()
        for name, arr in b.fields.items():
            if name in measured:
                continue
            assert a.fields[name].dtype == arr.dtype and a.fields[name].shape == arr.shape, (i, name)
            # bit for bit: NaN where NaN (no pole), -0.0 where -0.0
            assert a.fields[name].tobytes() == arr.tobytes(), (i, name)


@pytest.mark.parametrize("count, stage, seed", [
    (0, (980.0, 694.0), 0), (1, (980.0, 694.0), 0), (4, (300.0, 200.0), 5), (7, (980.0, 694.0), 1),
    (23, (50.0, 900.0), 2), (250, (980.0, 694.0), 7), (1000, (1060.0, 694.0), 0), (1003, (640.0, 480.0), 2**32 - 1),
])
@pytest.mark.slow
def test_the_stress_scene_is_the_one_the_one_at_a_time_constructors_make(count, stage, seed):
    assert_same_scene(stress_scene(count, stage, seed), one_at_a_time(count, stage, seed))


@pytest.mark.slow
def test_its_groups_share_the_chains_fields_and_step_as_the_restacked_ones(monkeypatch):
    monkeypatch.setenv("IKPLAYGROUND_JIT", "0")  # one backend for both (a background compile may end between)
    new, old = stress_scene(60, seed=4), one_at_a_time(60, (980.0, 694.0), 4)
    assert [g.solver for g in new.groups] == [g.solver for g in old.groups] == list(SOLVER_ORDER)
    for g in new.groups:  # each chain's fields are views of its row of the group's arrays
        for row, chain in enumerate(g.members):
            for name, arr in g.fields.items():
                assert np.shares_memory(chain.fields[name], arr[row]) and chain.fields[name].base is arr
    for _ in range(5):
        new.step()
        old.step()
    assert_same_scene(new, old, measured=("solve_us",))


@pytest.mark.slow
def test_a_stress_scene_too_big_for_a_scene_is_refused():
    with pytest.raises(SceneFull):
        stress_scene(MAX_CHAINS + 1)


def test_groups_that_are_not_the_scenes_own_are_made_again():
    made = stress_scene(10)
    scene = Scene()
    chains = made.chains[::-1]  # another draw order: the members of each group come in another order
    scene.add_grouped(chains, made.groups)
    assert [g.members for g in scene.groups] != [g.members for g in made.groups]
    assert [g.members for g in scene.groups] == [[c for c in chains if c.solver == g.solver] for g in scene.groups]
    with pytest.raises(ValueError):
        scene.add_grouped(chains, [])


def a_mixed_scene() -> Scene:
    """Chains of every solver, some near the edges, one with a pole, as a user's scene may be."""
    scene = stress_scene(40, (980.0, 720.0), seed=1)
    for solver, at in (("walker", (900.0, 300.0)), ("snake", (970.0, 10.0)), ("ccd", (5.0, 700.0))):
        scene.new_chain(solver, at)
    scene.add(build.make_ik_chain("two-bone", (600.0, 650.0), (-1.0, 1.0), (80.0, 70.0), (700.0, 600.0),
                                  pole=(950.0, 700.0)))
    return scene


@settings(max_examples=25, deadline=None)
@pytest.mark.slow
@given(st.lists(st.tuples(st.integers(1, 1200), st.integers(1, 900)), min_size=1, max_size=4),
       st.integers(0, 40))
@example([(800, 690)], 0)  # the pole off the stage, its chain's root and target on it
@example([(300, 200), (980, 720)], 3)  # pushed in, then home again (but the one moved)
def test_fitting_by_group_moves_what_fitting_chain_by_chain_moves(stages, moved):
    by_group, by_chain = a_mixed_scene(), a_mixed_scene()
    for k, stage in enumerate(stages):
        if k == 1:  # the user moves one between resizes: where it is put is its home
            for scene in (by_group, by_chain):
                scene.move_chain(scene.chains[moved], (100.0, 100.0))
        by_group.resize(stage)
        by_chain.stage = (float(stage[0]), float(stage[1]))
        by_chain._pushed.fit(by_chain.chains, by_chain.stage)  # no groups: every chain looked at
        assert_same_scene(by_group, by_chain)
        assert ([by_group.chains.index(c) for c, *_ in by_group._pushed._records.values()]
                == [by_chain.chains.index(c) for c, *_ in by_chain._pushed._records.values()])
