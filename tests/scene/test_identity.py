"""A chain's one identity (its number in the scene and an optional name) and the bone-length rows.

Numbers count from 1 in a scene, each chain's its own, kept through solver switches, rebuilds, undo and
redo, and a scene file; a new chain takes one past the highest the scene has had. Bone length scales
every bone by the value over their mean; a two-bone arm's Upper and Lower length set one bone each.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build.build import make_ik_chain
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.chain import checked_name
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit.edits import ChainAdded, ChainRemoved
from ikplayground.scene.edit.history import History
from ikplayground.scene.files import scene_file
from tests.scene.test_history import run_edit, set_recorded

SOLVERS = ("two-bone", "ccd", "fabrik", "dls", "snake", "walker")


def labels(scene: Scene) -> list[str]:
    return [c.label for c in scene.chains]


def test_numbers_count_from_1_in_each_scene_and_label_the_chain():
    scene = default_scene()
    assert labels(scene) == ["two-bone #1", "CCD #2", "FABRIK #3", "DLS #4", "snake #5"]
    assert [c.tag for c in scene.chains] == ["#1", "#2", "#3", "#4", "#5"]
    other = Scene()
    assert other.new_chain("walker").label == "Walker #1"  # each scene counts its own


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(("add", "remove", "switch", "bones", "undo", "redo")),
                          st.sampled_from(SOLVERS), st.integers(0, 99)), max_size=25))
def test_numbers_stay_unique_and_stable_through_edits_undo_and_redo(ops):
    scene, history = Scene(), History()
    highest = 0
    for op, solver, k in ops:
        chain = scene.chains[k % len(scene.chains)] if scene.chains else None
        if op == "add" and len(scene.chains) < 8:
            new = scene.new_chain(solver)
            assert new.number == highest + 1
            highest = new.number
            history.push(ChainAdded(scene, len(scene.chains) - 1, new))
        elif op == "remove" and chain is not None:
            index = scene.chains.index(chain)
            scene.remove(chain)
            history.push(ChainRemoved(scene, index, chain))
        elif op in ("switch", "bones") and chain is not None:
            name, value = ("solver", solver) if op == "switch" else ("bones", 1 + k % 9)
            before = (chain.number, chain.name, scene.chains.index(chain))
            new, edit = set_recorded(scene, chain, name, value)
            if edit is not None:
                history.push(edit)
            assert (new.number, new.name, scene.chains.index(new)) == before
        elif op == "undo" and len(history):
            history.undo()
        elif op == "redo" and history.redoable:
            history.redo()
        numbers = [c.number for c in scene.chains]
        assert len(set(numbers)) == len(numbers) and all(1 <= n <= highest for n in numbers)
        assert scene.next_number == highest + 1 or not highest


def test_undo_puts_a_removed_chain_back_with_its_number_and_a_switch_back_with_its_own():
    scene, history = default_scene(), History()
    ccd = scene.chains[1]
    fabrik, _ = run_edit(history, scene, scene.chains[2], "solver", "snake")
    assert fabrik.label == "snake #3"
    scene.remove(ccd)
    history.push(ChainRemoved(scene, 1, ccd))
    added = scene.new_chain("ccd")
    history.push(ChainAdded(scene, len(scene.chains) - 1, added))
    assert added.label == "CCD #6"  # 2 is not given again
    history.undo()
    history.undo()
    assert labels(scene) == ["two-bone #1", "CCD #2", "snake #3", "DLS #4", "snake #5"]
    history.undo()
    assert labels(scene) == ["two-bone #1", "CCD #2", "FABRIK #3", "DLS #4", "snake #5"]
    history.redo()
    assert scene.chains[2].label == "snake #3"


def test_numbers_and_names_go_through_a_file_and_back(tmp_path):
    scene = default_scene()
    scene.remove(scene.chains[1])
    scene.chains[0].name = "left arm"
    scene.new_chain("walker")
    path = tmp_path / "s.json"
    scene_file.save_scene(scene, path)
    text = path.read_text(encoding="utf-8")
    assert '{"solver": "two-bone", "number": 1, "name": "left arm", "root"' in text
    loaded = scene_file.load_scene(path)
    assert labels(loaded) == labels(scene) == ["two-bone left arm", "FABRIK #3", "DLS #4", "snake #5", "Walker #6"]
    assert loaded.new_chain("ccd").label == "CCD #7"


def test_a_file_without_numbers_numbers_its_chains_after_its_highest():
    text = scene_file.scene_to_text(default_scene())
    text = text.replace('"number": 1, ', "").replace('"number": 2, ', "").replace('"number": 5, ', '"number": 9, ')
    assert labels(scene_file.parse_scene(text)) == ["two-bone #10", "CCD #11", "FABRIK #3", "DLS #4", "snake #9"]


@pytest.mark.parametrize(("change", "message"), [
    (('"number": 3', '"number": 1'), "chains[2].number: 1 is chains[0]'s number too; each chain's number is its own"),
    (('"number": 3', '"number": 0'), "chains[2].number: must be between 1 and 1000000000 (got 0)"),
    (('"number": 3', '"number": 2.5'), "chains[2].number: must be a whole number (got 2.5)"),
    (('"number": 3', '"number": 3, "name": "a,b"'), "chains[2].name: must be 1 to 32 printable characters"),
    (('"number": 3', '"number": 3, "name": " arm"'), "chains[2].name: must be 1 to 32 printable characters"),
    (('"number": 3', '"number": 3, "name": "#4"'), "chains[2].name: must be 1 to 32 printable characters"),
    (('"number": 3', '"number": 3, "name": ""'), 'chains[2].name: must not be empty (leave "name" out for none)'),
    (('"number": 3', '"number": 3, "name": 7'), "chains[2].name: must be a string (got 7)"),
])
def test_a_bad_number_or_name_is_refused_in_one_line(change, message):
    text = scene_file.scene_to_text(default_scene()).replace(*change)
    with pytest.raises(scene_file.SceneFileError) as info:
        scene_file.parse_scene(text, "s.json")
    assert str(info.value).startswith(f"s.json: {message}") and "\n" not in str(info.value)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_a_name_is_taken_exactly_when_the_recording_s_reader_takes_it(name):
    from ikplayground.scene.record.recording_read import _is_name
    try:
        taken = checked_name(name)
    except ValueError:
        taken = None
    if taken:
        assert _is_name(taken) and "," not in taken and "\n" not in taken
    elif name:
        assert not _is_name(name) or name.startswith("#")


def test_bone_length_scales_every_bone_by_the_value_over_their_mean():
    scene = Scene()
    arm = scene.add(make_ik_chain("two-bone", (400.0, 500.0), np.array((-1.0, 1.0)), np.array((120.0, 100.0)),
                                  (500.0, 400.0)))
    scene.set_setting(arm, "bone_length", 220.0)
    np.testing.assert_allclose(arm.fields["lengths"], (240.0, 200.0), rtol=1e-15)
    ccd = scene.new_chain("ccd")
    scene.set_setting(ccd, "bone_length", 50.0)  # equal bones: exactly the value
    np.testing.assert_array_equal(ccd.fields["lengths"], 50.0)


@pytest.mark.slow
@given(st.lists(st.floats(1.0, 500.0), min_size=1, max_size=12), st.floats(1.0, 1000.0))
def test_bone_length_keeps_the_ratios_and_shows_the_value_it_was_set_to(lengths, value):
    scene = Scene()
    n = len(lengths)
    chain = scene.add(make_ik_chain("ccd", (400.0, 500.0), np.zeros(n), np.array(lengths), (500.0, 400.0)))
    before = chain.fields["lengths"].copy()
    scene.set_setting(chain, "bone_length", value)
    after = chain.fields["lengths"]
    np.testing.assert_allclose(after / after.max(), before / before.max(), rtol=1e-12)
    assert float(after.mean()) == pytest.approx(value, rel=1e-12)


def test_the_arm_s_upper_and_lower_rows_set_one_bone_each_and_go_through_a_file(tmp_path):
    scene = default_scene()
    arm = scene.chains[0]
    scene.set_setting(arm, "upper_length", 150.0)
    scene.set_setting(arm, "lower_length", 80.0)
    np.testing.assert_array_equal(arm.fields["lengths"], (150.0, 80.0))
    root, knee, tip = arm.fields["points"]  # laid out at once
    assert np.hypot(*(knee - root)) == pytest.approx(150.0) and np.hypot(*(tip - knee)) == pytest.approx(80.0)
    ccd = scene.chains[1]
    assert scene.set_setting(ccd, "upper_length", 10.0) is ccd  # two-bone only: ignored
    assert np.all(ccd.fields["lengths"] == 36.0)
    path = tmp_path / "s.json"
    scene_file.save_scene(scene, path)
    np.testing.assert_array_equal(scene_file.load_scene(path).chains[0].fields["lengths"], (150.0, 80.0))


def test_a_rename_is_checked_and_the_recording_carries_it_from_the_next_step(tmp_path):
    from ikplayground.scene.record.recording import Recorder
    from ikplayground.scene.record.recording_read import read_steps

    scene = default_scene()
    with pytest.raises(ValueError, match="must be 1 to 32 printable characters"):
        scene.rename(scene.chains[1], "a,b")
    assert scene.chains[1].label == "CCD #2"
    recorder = Recorder(tmp_path / "r.csv")
    for k in range(3):
        if k == 1:
            scene.rename(scene.chains[1], "left tentacle")
        if k == 2:
            scene.rename(scene.chains[1], "")
        scene.step()
        recorder.record(scene)
    recorder.close()
    assert [s.names[1] for s in read_steps(tmp_path / "r.csv")] == ["#2", "left tentacle", "#2"]
