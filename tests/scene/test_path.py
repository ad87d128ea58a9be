"""The Path kind: joints on the curve, batched, sliding, dragged by its handles, saved, flipped, undone, recorded
(docs/design.md, "The path")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ikplayground.scene.build import path_build
from ikplayground.scene.core.mirror import flip_chain
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit import moves
from ikplayground.scene.edit.history import History
from ikplayground.scene.files import scene_file
from ikplayground.scene.step import path_step
from ikplayground.solvers import along_path

STAGE = (980.0, 720.0)
CURVE = [(100.0, 300.0), (200.0, 150.0), (350.0, 450.0), (450.0, 300.0)]


def group_of(chains) -> dict[str, np.ndarray]:
    return {k: np.stack([c.fields[k] for c in chains]) for k in chains[0].fields}


def on_curve(chain) -> np.ndarray:
    """The chain's joints as the library lays them (single call)."""
    f = chain.fields
    return along_path(f["control"], f["lengths"], start=float(f["start"][0]))


coord = st.floats(0.0, 900.0)
paths = st.builds(lambda c, seg, start, slide: (c, seg, start, slide),
                  st.lists(st.tuples(coord, coord), min_size=4, max_size=4), st.floats(1.0, 80.0),
                  st.floats(-300.0, 900.0), st.floats(-1000.0, 1000.0))


@given(st.integers(1, 12), st.lists(paths, min_size=1, max_size=4))
def test_a_group_steps_each_path_chain_as_the_library_lays_it_alone(n, cases):
    chains = [path_build.make_path(np.array(c), np.full(n, seg), start=start, slide=slide)
              for c, seg, start, slide in cases]
    f = group_of(chains)
    singles = [{k: v[None].copy() for k, v in c.fields.items()} for c in chains]
    for _ in range(5):
        path_step.step_paths(f)
        for s in singles:
            path_step.step_paths(s)
        for r in range(len(chains)):
            want = along_path(f["control"][r], f["lengths"][r], start=float(f["start"][r, 0]))
            np.testing.assert_allclose(f["points"][r], want, rtol=0, atol=1e-6)
        np.testing.assert_array_equal(f["root"], f["control"][:, 0])
    np.testing.assert_array_equal(f["points"], np.concatenate([s["points"] for s in singles]))
    np.testing.assert_array_equal(f["start"], np.concatenate([s["start"] for s in singles]))


def test_a_new_path_chain_lies_on_its_curve_and_a_step_keeps_it_there():
    scene = Scene(STAGE)
    chain = scene.new_chain("path", (200.0, 300.0))
    assert chain.is_path and chain.bones == 10
    np.testing.assert_allclose(chain.fields["points"], on_curve(chain), rtol=0, atol=1e-6)
    np.testing.assert_array_equal(chain.fields["points"][0], chain.fields["control"][0])  # start 0: on the handle
    scene.set_setting(chain, "path_start", 37.5)  # the joints move at once, paused or not
    np.testing.assert_allclose(chain.fields["points"], on_curve(chain), rtol=0, atol=1e-6)
    assert not np.allclose(chain.fields["points"][0], chain.fields["control"][0])
    for _ in range(3):
        scene.step()
    np.testing.assert_allclose(chain.fields["points"], on_curve(chain), rtol=0, atol=1e-6)


def test_slide_moves_the_start_along_the_curve_and_comes_round_again():
    chain = path_build.make_path(np.array(CURVE), np.full(4, 20.0), slide=600.0)  # 10 px a step
    f = {k: v[None].copy() for k, v in chain.fields.items()}
    path_step.step_paths(f)
    assert f["start"][0, 0] == pytest.approx(10.0, abs=1e-12)
    polygon = float(np.hypot(*np.diff(np.array(CURVE), axis=0).T).sum())
    seen = []
    for _ in range(200):
        path_step.step_paths(f)
        seen.append(float(f["start"][0, 0]))
        np.testing.assert_allclose(f["points"][0], along_path(f["control"][0], f["lengths"][0], start=seen[-1]),
                                   atol=1e-6)
    assert min(seen) >= -80.0 and max(seen) < polygon  # within [-chain length, polygon length)
    assert any(b < a for a, b in zip(seen, seen[1:]))  # it came round


def test_a_dragged_handle_moves_the_curve_and_the_chain_stays_on_the_stage():
    scene = Scene(STAGE)
    chain = scene.new_chain("path", (200.0, 300.0))
    scene.move_target(chain, (120.0, 260.0), "control:0")  # the first handle: where the curve starts
    np.testing.assert_array_equal(chain.fields["control"][0], (120.0, 260.0))
    np.testing.assert_array_equal(chain.fields["points"][0], (120.0, 260.0))
    np.testing.assert_array_equal(chain.anchor, (120.0, 260.0))
    scene.move_target(chain, (5000.0, -40.0), "control:2")  # off the stage: kept on it
    np.testing.assert_array_equal(chain.fields["control"][2], (STAGE[0], 0.0))
    np.testing.assert_allclose(chain.fields["points"], on_curve(chain), atol=1e-6)
    assert scene.rig_target_at((STAGE[0], 0.0), 5.0) == (chain, "control:2")  # hit-tested as a target
    scene.move_chain(chain, (300.0, 400.0))  # the whole curve moves with its first handle
    np.testing.assert_array_equal(chain.fields["control"][0], (300.0, 400.0))
    assert ((chain.fields["control"] >= 0) & (chain.fields["control"] <= STAGE)).all()
    scene.resize((400.0, 300.0))
    assert ((chain.fields["control"] >= 0) & (chain.fields["control"] <= (400.0, 300.0))).all()
    np.testing.assert_allclose(chain.fields["points"], on_curve(chain), atol=1e-6)


@pytest.mark.parametrize("part", ["control:1", "root"])
def test_a_handle_drag_undoes_as_one_edit(part):
    scene = Scene(STAGE)
    chain = scene.new_chain("path", (200.0, 300.0))
    history = History()
    before = {k: v.copy() for k, v in chain.fields.items()}
    start = moves.where(chain, part)
    for p in ((300.0, 100.0), (320.0, 140.0), (330.0, 160.0)):  # one drag, three moves
        if part == "root":
            scene.move_chain(chain, p)
        else:
            scene.move_target(chain, p, part)
    history.push(moves.record_move(scene, chain, part, start))
    after = {k: v.copy() for k, v in chain.fields.items()}
    assert len(history.labels()) == 1
    history.undo()
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)
    history.redo()
    for k, v in after.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)


def test_a_path_chain_saved_and_loaded_is_the_same():
    scene = Scene(STAGE)
    a = scene.new_chain("path", (150.0, 200.0))
    b = scene.add(path_build.make_path(np.array(CURVE) + 0.123456789, np.linspace(30.0, 12.0, 7), start=-15.25,
                                       slide=42.5))
    scene.new_chain("ccd", (600.0, 500.0))
    scene.set_setting(a, "bones", 5)
    text = scene_file.scene_to_text(scene)
    loaded = scene_file.parse_scene(text, stage=STAGE)
    assert [c.solver for c in loaded.chains] == ["path", "path", "ccd"]
    for old, new in zip(scene.chains[:2], loaded.chains):
        for name in ("control", "root", "lengths", "points", "start", "slide"):
            np.testing.assert_array_equal(new.fields[name], old.fields[name], err_msg=name)
    assert b.fields["slide"][0] == 42.5
    assert scene_file.scene_to_text(loaded) == text


GOOD = '"control": [[0, 0], [10, 0], [20, 0], [30, 0]], "lengths": [10, 10]'


@pytest.mark.parametrize(("line", "says"), [
    ('{"solver": "path", "control": [[0, 0], [10, 0], [20, 0]], "lengths": [10]}',
     "chains[0].control: must have at least 4 entries (got 3)"),
    ('{"solver": "path", "control": [[0, 0], [10, 0], [20, 0], [30, 0], [40, 0]], "lengths": [10]}',
     "chains[0].control: must have at most 4 entries (got 5)"),
    ('{"solver": "path", "control": [[0, 0], [10, 0], [20, 0], [30, 0]], "lengths": [0]}',
     "chains[0].lengths[0]: must be > 0 (got 0)"),
    ('{"solver": "path", ' + GOOD + ', "slide": 5000}', "chains[0].slide: must be <= 1000 (got 5000)"),
    ('{"solver": "path", ' + GOOD + ', "start": "far"}', "chains[0].start: must be a number (got \"far\")"),
    ('{"solver": "path", "lengths": [10]}', "chains[0]: missing field 'control'"),
])
def test_a_bad_path_chain_is_refused_in_one_line_and_the_scene_is_left_as_it_was(line, says, tmp_path):
    scene = Scene(STAGE)
    scene.new_chain("path", (200.0, 300.0))
    before = scene_file.scene_to_text(scene)
    path = tmp_path / "bad.json"
    path.write_text('{"format": "ikplayground-scene", "version": 1, "chains": [' + line + "]}", encoding="utf-8")
    with pytest.raises(scene_file.SceneFileError) as err:
        scene = scene_file.load_scene(path, STAGE)
    assert says in str(err.value) and "\n" not in str(err.value), str(err.value)
    assert scene_file.scene_to_text(scene) == before


def test_a_path_chain_flipped_twice_is_itself_and_flipped_once_is_the_mirror_image():
    scene = Scene(STAGE)
    chain = scene.add(path_build.make_path(np.array(CURVE) + (300.0, 0.0), np.full(8, 25.0), start=12.0, slide=30.0))
    for _ in range(5):
        scene.step()
    x0 = float(chain.fields["control"][0, 0])
    before = {k: v.copy() for k, v in chain.fields.items()}
    scene.flip(chain)
    for name in ("control", "points", "root"):
        np.testing.assert_array_equal(chain.fields[name][..., 0], 2 * x0 - before[name][..., 0])
        np.testing.assert_array_equal(chain.fields[name][..., 1], before[name][..., 1])
    mirrored = {k: v.copy() for k, v in chain.fields.items()}
    scene.flip(chain)
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)
    one = {k: v[None].copy() for k, v in before.items()}
    other = {k: v[None].copy() for k, v in mirrored.items()}
    for _ in range(30):  # it slides on as the mirror image
        path_step.step_paths(one)
        path_step.step_paths(other)
    np.testing.assert_allclose(other["points"][0, :, 0], 2 * x0 - one["points"][0, :, 0], atol=1e-6)
    np.testing.assert_allclose(other["points"][0, :, 1], one["points"][0, :, 1], atol=1e-6)


def test_a_flip_that_would_put_a_handle_off_the_stage_is_refused_and_changes_nothing():
    scene = Scene(STAGE)
    chain = scene.add(path_build.make_path(np.array(CURVE) - (90.0, 0.0), np.full(4, 25.0)))
    before = {k: v.copy() for k, v in chain.fields.items()}
    with pytest.raises(ValueError, match="control point"):
        flip_chain(chain, STAGE)
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)


def test_a_recorded_path_chain_replays_exactly_and_bakes(tmp_path):
    from ikplayground.scene.record.bake import bake_recording
    from ikplayground.scene.record.recording import Recorder
    from ikplayground.scene.record.replay import Replay

    scene = Scene(STAGE)
    chain = scene.add(path_build.make_path(np.array(CURVE), np.full(6, 20.0), slide=45.0))
    scene.new_chain("ccd", (600.0, 400.0))
    start = scene_file.scene_to_text(scene)
    recorder = Recorder(tmp_path / "r.csv")
    for k in range(30):  # its first handle dragged along while it records
        scene.move_target(chain, (100.0 + 2 * k, 300.0), "control:0")
        scene.step()
        recorder.record(scene)
    recorder.close()
    again = scene_file.parse_scene(start, stage=STAGE)
    replay = Replay(tmp_path / "r.csv", again)
    while replay.drive(again):
        again.step()
    for name in ("points", "control", "start"):
        np.testing.assert_array_equal(again.chains[0].fields[name], chain.fields[name], err_msg=name)
    baked = bake_recording(tmp_path / "r.csv", recorder.rig, tmp_path / "a.json")
    assert baked.frames == 60 and baked.tracks >= 2
