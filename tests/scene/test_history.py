"""Undo and redo of the scene's edits (scene/edit/history.py, scene/edit/edits.py), without a window.

The history is a bounded pair of stacks; each edit kind, undone, gives back the
scene it was made on (the same chain objects in the same order, every setting
and parameter as it was, the pose where the edit did not change it), and,
redone, the scene it made. A state machine checks the same over random runs of
edits, undos and redos.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ikplayground.scene.build import build
from ikplayground.scene.core.constants import SOLVERS
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.core.settings import SETTINGS
from ikplayground.scene.core.solver_kinds import SOLVER_KINDS
from ikplayground.scene.edit import edits, moves
from ikplayground.scene.edit.edits import PARAMETERS, set_recorded
from ikplayground.scene.edit.history import MAX_ENTRIES, MAX_WEIGHT, Edit, History

STAGE = (980.0, 720.0)


# --- the stacks --------------------------------------------------------------------------
def counter_edit(log, k, weight=0):
    return Edit(f"edit {k}", undo=lambda: log.append(("undo", k)), redo=lambda: log.append(("redo", k)), weight=weight)


def test_undo_and_redo_run_the_newest_entry_last_in_first_out():
    log, h = [], History()
    for k in range(3):
        h.push(counter_edit(log, k))
    assert h.undo()[0].label == "edit 2" and h.undo()[0].label == "edit 1"
    assert h.redo()[0].label == "edit 1"
    assert log == [("undo", 2), ("undo", 1), ("redo", 1)]
    assert len(h) == 2 and h.redoable == 1


def test_nothing_to_undo_or_redo_is_none():
    h = History()
    assert h.undo() is None and h.redo() is None
    h.push(Edit("x"))
    assert h.undo() is not None and h.undo() is None
    assert h.redo() is not None and h.redo() is None


def test_a_new_edit_clears_the_redo_side():
    log, h = [], History()
    h.push(counter_edit(log, 0))
    h.push(counter_edit(log, 1))
    h.undo()
    h.push(counter_edit(log, 2))
    assert h.redo() is None
    assert h.labels() == ["edit 0", "edit 2"]


def test_at_least_200_steps_are_kept_and_no_more_than_the_cap():
    assert MAX_ENTRIES >= 200
    log, h = [], History()
    for k in range(MAX_ENTRIES + 50):
        h.push(counter_edit(log, k))
    assert len(h) == MAX_ENTRIES
    assert h.labels()[0] == "edit 50" and h.labels()[-1] == f"edit {MAX_ENTRIES + 49}"
    undone = 0
    while h.undo() is not None:
        undone += 1
    assert undone == MAX_ENTRIES >= 200


def test_entries_holding_chains_are_dropped_oldest_first_past_the_weight_cap():
    log, h = [], History(max_weight=12_000)
    for k in range(5):  # five loads of a 5,000-chain preset over one another: 10,000 chains each
        h.push(counter_edit(log, k, weight=5_000))
        assert h.weight <= 12_000 or len(h) == 1
    assert h.labels() == ["edit 3", "edit 4"]
    assert h.weight == 10_000
    h.push(counter_edit(log, 9, weight=0))  # light edits add nothing
    assert h.weight == 10_000 and len(h) == 3


def test_the_newest_entry_stays_whatever_its_weight():
    h = History(max_weight=100)
    h.push(Edit("small", weight=50))
    h.push(Edit("huge", weight=1_000))
    assert h.labels() == ["huge"] and h.weight == 1_000


def test_the_weight_counts_the_redo_side_until_it_is_cleared():
    h = History(max_weight=MAX_WEIGHT)
    h.push(Edit("a", weight=10))
    h.push(Edit("b", weight=20))
    h.undo()
    assert h.weight == 30
    h.push(Edit("c", weight=1))
    assert h.weight == 11


def test_bad_bounds_are_refused():
    with pytest.raises(ValueError):
        History(max_entries=0)
    with pytest.raises(ValueError):
        History(max_weight=-1)


def test_drop_forgets_only_the_newest_entry():
    h = History()
    a, b = Edit("a", weight=3), Edit("b", weight=4)
    h.push(a)
    h.push(b)
    assert not h.drop(a)
    assert h.drop(b) and h.labels() == ["a"] and h.weight == 3


def test_merge_asks_the_newest_entry_to_absorb():
    class Sum(Edit):
        def __init__(self, n):
            super().__init__(f"+{n}")
            self.n = n

        def absorb(self, newer):
            self.n += newer.n
            self.label = f"+{self.n}"
            return True

    h = History()
    h.push(Sum(1))
    h.push(Sum(2), merge=True)
    h.push(Sum(3))
    assert h.labels() == ["+3", "+3"]


# --- the scene's edits, exactly ----------------------------------------------------------
def scene_with_every_solver() -> Scene:
    scene = default_scene(STAGE)
    scene.new_chain("walker", (500.0, 300.0))
    scene.new_chain("rig", (800.0, 300.0))
    scene.add(build.make_ik_chain("ccd", (600.0, 600.0), np.r_[-math.pi / 2, 0.3, -0.2], (30.0, 45.0, 60.0),
                                  (650.0, 450.0)))  # uneven bones, as files and presets have
    for k, solver in enumerate(s for s in SOLVERS if not any(c.solver == s for c in scene.chains)):
        scene.new_chain(solver, (150.0 + 120.0 * k, 650.0))  # the registry's others (the Jacobian family's)
    return scene


def state(scene: Scene) -> list:
    """Each chain (the object), its settings (as the table reads them), and all its arrays (copies)."""
    out = []
    for c in scene.chains:
        values = {s.name: s.read(c) for s in SETTINGS if s.applies(c.solver)}
        out.append((c, c.solver, values, {k: v.copy() for k, v in c.fields.items()}))
    return out


def assert_state(scene: Scene, expected: list, pose_atol: float = 1e-9) -> None:
    now = state(scene)
    assert [c for c, *_ in now] == [c for c, *_ in expected]
    for (c, solver, values, fields), (_, solver0, values0, fields0) in zip(now, expected):
        assert (solver, values) == (solver0, values0), f"chain {c.id}"
        params = PARAMETERS[SOLVER_KINDS[c.solver].kind]
        for name, a in fields0.items():
            if name in params:
                np.testing.assert_array_equal(fields[name], a, err_msg=f"chain {c.id}: {name}")
            elif name != "solve_us":
                np.testing.assert_allclose(fields[name], a, rtol=0, atol=pose_atol, err_msg=f"chain {c.id}: {name}")


def another_value(setting, value):
    """A value of ``setting`` other than ``value``, inside its slider (joint and bend ranges: wider, so
    nothing is clamped)."""
    if setting.kind == "flag":
        return not value
    if setting.kind == "choice":
        return setting.choices[(setting.choices.index(value) + 1) % len(setting.choices)]
    lo, hi = setting.span
    if setting.kind == "whole":
        return value + 1 if value + 1 <= hi else value - 1
    if setting.name in ("joint_limit", "bend_range"):
        return min(value * 2, hi)
    mid = lo + (hi - lo) * 0.37
    return mid if not math.isclose(mid, value) else lo


SETTING_CASES = [(s.name, solver) for s in SETTINGS for solver in SOLVERS if s.applies(solver)]


def run_edit(history: History, scene: Scene, chain, name, value):
    new, edit = set_recorded(scene, chain, name, value)
    assert edit is not None, "a change was not recorded"
    history.push(edit)
    return new, edit


@pytest.mark.parametrize("name, solver", SETTING_CASES, ids=[f"{n}-{s}" for n, s in SETTING_CASES])
def test_a_setting_edit_undone_and_redone_is_exact(name, solver):
    scene = scene_with_every_solver()
    chain = next(c for c in scene.chains if c.solver == solver)
    setting = next(s for s in SETTINGS if s.name == name)
    history = History()
    before = state(scene)
    new, edit = run_edit(history, scene, chain, name, another_value(setting, setting.read(chain)))
    after = state(scene)
    assert [(c, values) for c, _, values, _ in after] != [(c, values) for c, _, values, _ in before]
    history.undo()
    assert_state(scene, before)
    history.redo()
    assert_state(scene, after)
    history.undo()
    assert_state(scene, before)
    assert scene.chains[scene.chains.index(chain)] is chain


SOLVER_PAIRS = [(a, b) for a in SOLVERS for b in SOLVERS if a != b]


@pytest.mark.parametrize("old, new", SOLVER_PAIRS, ids=[f"{a}-{b}" for a, b in SOLVER_PAIRS])
def test_a_solver_change_undone_and_redone_is_exact(old, new):
    scene = scene_with_every_solver()
    chain = next(c for c in scene.chains if c.solver == old)
    history = History()
    before = state(scene)
    run_edit(history, scene, chain, "solver", new)
    after = state(scene)
    history.undo()
    assert_state(scene, before)
    history.redo()
    assert_state(scene, after)


def test_a_replaced_chain_comes_back_as_it_was_with_its_pose_and_id():
    scene = scene_with_every_solver()
    chain = next(c for c in scene.chains if c.solver == "ccd")
    chain.fields["angles"][:] = np.linspace(-1.5, 0.3, chain.bones)  # a pose of its own
    build.refresh_ik_points(chain.fields)
    history = History()
    angles = chain.fields["angles"].copy()
    new, edit = run_edit(history, scene, chain, "bones", 4)
    assert new is not chain and new.bones == 4
    for _ in range(5):
        scene.step()  # the new chain moves on; the old one, kept aside, does not
    history.undo()
    assert scene.selected is chain and chain in scene.chains and new not in scene.chains
    np.testing.assert_array_equal(chain.fields["angles"], angles)
    history.redo()
    assert scene.chains[scene.chains.index(new)] is new and chain not in scene.chains


def test_edit_labels_name_the_setting_its_values_and_the_chain():
    scene = scene_with_every_solver()
    ccd = next(c for c in scene.chains if c.solver == "ccd")
    arm = next(c for c in scene.chains if c.solver == "two-bone")
    dls = next(c for c in scene.chains if c.solver == "dls")
    assert set_recorded(scene, ccd, "bones", 4)[1].label == f"bone count 7 → 4 on CCD #{ccd.number}"
    assert set_recorded(scene, arm, "mirror", True)[1].label == f"mirror bend off → on on two-bone #{arm.number}"
    assert set_recorded(scene, arm, "rate_on", False)[1].label == f"rate limit on → off on two-bone #{arm.number}"
    assert set_recorded(scene, dls, "joint_limit", 30)[1].label == f"joint limit ±45° → ±30° on DLS #{dls.number}"
    assert set_recorded(scene, dls, "tolerance", 2)[1].label == f"tolerance 0.5 px → 2.0 px on DLS #{dls.number}"
    assert set_recorded(scene, dls, "solver", "fabrik")[1].label == f"solver DLS → FABRIK on DLS #{dls.number}"


def test_an_edit_that_changes_nothing_is_not_recorded():
    scene = scene_with_every_solver()
    ccd = next(c for c in scene.chains if c.solver == "ccd")
    snake = next(c for c in scene.chains if c.is_snake)
    assert set_recorded(scene, ccd, "bones", ccd.bones)[1] is None
    assert set_recorded(scene, ccd, "iterations", ccd.iterations)[1] is None
    assert set_recorded(scene, ccd, "solver", "ccd")[1] is None
    assert set_recorded(scene, snake, "mix", 0.5)[1] is None  # a snake has no Mix


def test_uneven_bone_lengths_come_back_exactly():
    scene = scene_with_every_solver()
    chain = next(c for c in scene.chains if c.solver == "ccd" and c.bones == 3)  # the uneven one
    history = History()
    run_edit(history, scene, chain, "bone_length", 50.0)  # a mean of 45 px scaled to 50 px
    np.testing.assert_allclose(chain.fields["lengths"], np.array((30.0, 45.0, 60.0)) * 50.0 / 45.0, rtol=1e-15)
    history.undo()
    np.testing.assert_array_equal(chain.fields["lengths"], (30.0, 45.0, 60.0))


def test_a_snake_that_crawled_on_since_keeps_its_place_when_its_bone_length_is_undone():
    scene = scene_with_every_solver()
    snake = next(c for c in scene.chains if c.is_snake)
    history = History()
    run_edit(history, scene, snake, "bone_length", 60.0)
    scene.select(snake)
    for _ in range(20):
        scene.steer(True, 1)  # it crawls on
        scene.step()
    head = snake.fields["points"][0].copy()
    history.undo()
    np.testing.assert_array_equal(snake.fields["lengths"], 40.0)
    np.testing.assert_array_equal(snake.fields["points"][0], head)  # not back where it was
    gaps = np.hypot(*np.diff(snake.fields["points"], axis=0).T)
    np.testing.assert_allclose(gaps, 40.0, rtol=1e-9)


def test_a_pole_switched_off_comes_back_where_it_was_dragged():
    scene = scene_with_every_solver()
    chain = scene.chains[1]
    history = History()
    run_edit(history, scene, chain, "pole_on", True)
    start = moves.where(chain, "pole")
    scene.move_target(chain, (123.0, 456.0), "pole")
    history.push(moves.record_move(scene, chain, "pole", start))
    run_edit(history, scene, chain, "pole_on", False)
    assert chain.pole is None
    history.undo()
    np.testing.assert_array_equal(chain.pole, (123.0, 456.0))
    history.undo()
    np.testing.assert_array_equal(chain.pole, start["pole"])
    history.undo()
    assert chain.pole is None


def test_a_slider_drag_merges_into_one_entry():
    scene = scene_with_every_solver()
    ccd = next(c for c in scene.chains if c.solver == "ccd")
    history = History()
    before = state(scene)
    chain = ccd
    for value in (40.0, 50.0, 60.0):
        _, edit = set_recorded(scene, chain, "bone_length", value)
        history.push(edit, merge=True)
    for n in (6, 5, 4):  # a rebuilt chain each time
        chain, edit = set_recorded(scene, chain, "bones", n)
        history.push(edit, merge=True)
    assert history.labels() == [f"bone length 36 px → 60 px on CCD #{ccd.number}",
                                f"bone count 7 → 4 on CCD #{ccd.number}"]
    history.undo()
    history.undo()
    assert_state(scene, before)


# --- add, remove, move --------------------------------------------------------------------
def test_add_and_remove_undone_put_the_chain_back_at_its_place():
    scene = scene_with_every_solver()
    history = History()
    before = state(scene)
    chain = scene.new_chain("fabrik", (300.0, 300.0))
    history.push(edits.ChainAdded(scene, scene.chains.index(chain), chain))
    middle = scene.chains[2]
    scene.remove(middle)
    history.push(edits.ChainRemoved(scene, 2, middle))
    after = state(scene)
    history.undo()
    assert scene.chains[2] is middle and scene.selected is middle
    history.undo()
    assert chain not in scene.chains
    assert_state(scene, before)
    history.redo()
    history.redo()
    assert_state(scene, after)


def test_a_removed_chain_keeps_no_group_arrays():
    scene = scene_with_every_solver()
    _ = scene.groups
    chain = scene.chains[1]
    scene.remove(chain)
    edit = edits.ChainRemoved(scene, 1, chain)
    assert all(a.base is None for a in edit.chain.fields.values())


@pytest.mark.parametrize("solver, part", [("ccd", "target"), ("dls", "root"), ("snake", "root"),
                                          ("walker", "root"), ("two-bone", "pole")])
def test_a_move_undone_and_redone_is_exact(solver, part):
    scene = scene_with_every_solver()
    chain = next(c for c in scene.chains if c.solver == solver)
    history = History()
    if part == "pole":
        run_edit(history, scene, chain, "pole_on", True)
    before = state(scene)
    start = moves.where(chain, part)
    for p in ((400.0, 200.0), (420.0, 240.0)):  # one drag, two moves
        if part == "root":
            scene.move_chain(chain, p)
        else:
            scene.move_target(chain, p, part)
    history.push(moves.record_move(scene, chain, part, start))
    after = state(scene)
    assert history.labels()[-1] == f"{part} move on {edits.chain_label(chain)}"
    history.undo()
    assert_state(scene, before, pose_atol=1e-6)
    history.redo()
    assert_state(scene, after, pose_atol=1e-6)


def test_a_move_that_moved_nothing_is_not_recorded():
    scene = scene_with_every_solver()
    chain = scene.chains[1]
    assert moves.record_move(scene, chain, "target", moves.where(chain, "target")) is None


# --- random runs ---------------------------------------------------------------------------
picks = st.integers(0, 10_000)


class UndoMachine(RuleBasedStateMachine):
    """Random edits, undos and redos: undoing everything gives the first scene's settings back, redoing
    everything the last one's; each undo and redo gives the state the model expects."""

    def __init__(self):
        super().__init__()
        self.scene = scene_with_every_solver()
        self.history = History()
        self.states = [self.view()]  # the model: the states the edits made, and where we are
        self.at = 0

    def view(self):
        """What undo must give back: the chain objects in order, their settings and parameters, where
        their targets, poles and anchors are."""
        out = []
        for c in self.scene.chains:
            values = tuple((s.name, s.read(c)) for s in SETTINGS if s.applies(c.solver))
            params = tuple(c.fields[name].tobytes() for name in PARAMETERS[SOLVER_KINDS[c.solver].kind])
            spots = [c.anchor.copy()] + ([c.fields["target"].copy()] if c.is_ik or c.is_rope else []) + (
                list(c.fields["targets"].copy()) if c.is_rig else [])
            out.append((c, c.solver, values, params, spots))
        return out

    def same(self, a, b) -> bool:
        if len(a) != len(b):
            return False
        for (c, solver, values, params, spots), (c0, solver0, values0, params0, spots0) in zip(a, b):
            if c is not c0 or solver != solver0 or values != values0 or params != params0:
                return False
            if not all(np.allclose(p, q, rtol=0, atol=1e-6) for p, q in zip(spots, spots0)):
                return False
        return True

    def pick(self, i):
        return self.scene.chains[i % len(self.scene.chains)] if self.scene.chains else None

    def made(self, edit):
        if edit is None:
            assert self.same(self.view(), self.states[self.at])
            return
        self.history.push(edit)
        del self.states[self.at + 1:]
        self.states.append(self.view())
        self.at += 1

    @initialize()
    def start(self):
        pass

    @rule(i=picks, k=st.integers(0, len(SETTINGS) - 1), u=st.floats(0.0, 1.0))
    def set_a_setting(self, i, k, u):
        chain = self.pick(i)
        s = SETTINGS[k]
        if chain is None or not s.applies(chain.solver):
            return
        if s.kind == "flag":
            value = u < 0.5
        elif s.kind == "choice":
            value = s.choices[int(u * len(s.choices)) % len(s.choices)]
        else:
            lo, hi = s.span
            value = lo + (min(hi, lo + 12) - lo) * u if s.kind == "whole" else lo + (hi - lo) * u
            value = round(value) if s.kind == "whole" else value
        self.made(set_recorded(self.scene, chain, s.name, value)[1])

    @rule(i=picks, solver=st.sampled_from(SOLVERS))
    def set_solver(self, i, solver):
        chain = self.pick(i)
        if chain is not None:
            self.made(set_recorded(self.scene, chain, "solver", solver)[1])

    @rule(solver=st.sampled_from(SOLVERS), x=st.floats(20, 900), y=st.floats(20, 700))
    def add(self, solver, x, y):
        if len(self.scene.chains) < 10:
            chain = self.scene.new_chain(solver, (x, y))
            self.made(edits.ChainAdded(self.scene, len(self.scene.chains) - 1, chain))

    @rule(i=picks)
    def remove(self, i):
        chain = self.pick(i)
        if chain is not None:
            index = self.scene.chains.index(chain)
            self.scene.remove(chain)
            self.made(edits.ChainRemoved(self.scene, index, chain))

    @rule(i=picks, x=st.floats(0, 980), y=st.floats(0, 720), root=st.booleans())
    def move(self, i, x, y, root):
        chain = self.pick(i)
        if chain is None:
            return
        part = "root" if root or not chain.has_targets else "target:1" if chain.is_rig else "target"
        start = moves.where(chain, part)
        if part == "root":
            self.scene.move_chain(chain, (x, y))
        else:
            self.scene.move_target(chain, (x, y), part)
        self.made(moves.record_move(self.scene, chain, part, start))

    @rule()
    def undo(self):
        result = self.history.undo()
        assert (result is None) == (self.at == 0)
        if result is not None:
            self.at -= 1
        assert self.same(self.view(), self.states[self.at])

    @rule()
    def redo(self):
        result = self.history.redo()
        assert (result is None) == (self.at == len(self.states) - 1)
        if result is not None:
            self.at += 1
        assert self.same(self.view(), self.states[self.at])

    @rule()
    def undo_all_then_redo_all(self):
        while self.history.undo() is not None:
            pass
        assert self.same(self.view(), self.states[0])
        while self.history.redo() is not None:
            pass
        assert self.same(self.view(), self.states[-1])
        self.at = len(self.states) - 1

    @invariant()
    def groups_are_sound(self):
        groups = self.scene.groups
        assert sorted(id(c) for g in groups for c in g.members) == sorted(id(c) for c in self.scene.chains)
        for g in groups:
            for row, c in enumerate(g.members):
                assert all(np.shares_memory(c.fields[k], g.fields[k]) for k in g.fields)


UndoMachine.TestCase.settings = hsettings(max_examples=60, stateful_step_count=30, deadline=None)
test_undo_machine = pytest.mark.slow(UndoMachine.TestCase)


def test_an_edit_that_refuses_stays_on_its_side_of_the_history():
    from ikplayground.scene.edit.history import Refused

    def refuse():
        raise Refused("the mirror image would leave the stage")

    h = History()
    h.push(Edit("flip", undo=refuse, redo=refuse))
    with pytest.raises(Refused):
        h.undo()
    assert len(h) == 1 and h.redoable == 0
    h2 = History()
    h2.push(Edit("flip", undo=lambda: None, redo=refuse))
    h2.undo()
    with pytest.raises(Refused):
        h2.redo()
    assert len(h2) == 0 and h2.redoable == 1
