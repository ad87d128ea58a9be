"""Recordings hold every piece of secondary motion (issue 28): a rope's dragged root, a path chain's dragged control
points 1..3 and a walker's or rig's appendages are rows of the CSV, replay bit for bit and bake so that forward
kinematics gives back every row (docs/recording.md, docs/animation-format.md)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ikplayground.scene.build import path_build, rig_build
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.record.bake import bake_recording, load_animation
from ikplayground.scene.record.recording import Recorder, RecordingError
from ikplayground.scene.record.recording_read import read_steps
from ikplayground.scene.record.replay import Replay

STAGE = (980.0, 720.0)
CURVE = [(100.0, 300.0), (200.0, 150.0), (350.0, 450.0), (450.0, 300.0)]
FK_TOLERANCE = 1e-9  # px
# what a replay drives a step from, and the wall clock's time of a solve (not the scene's numbers)
NOT_STATE = {"replay_head", "replay_body", "replay_angles", "replayed", "solve_us"}
SECONDARY = ("rope", "path", "walker", "rig")  # an IK chain's are docs/recording.md's "Replaying": its joints


def fk(root, angles_deg, lengths) -> np.ndarray:
    """Joints (n + 1, 2) px from a root, angles (bone 0's absolute, then each turn) and bone lengths."""
    heading = np.cumsum(np.radians(angles_deg))
    steps = np.asarray(lengths)[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=1)
    return np.vstack([root, root + np.cumsum(steps, axis=0)])


def rows_of(path, chain: int) -> list[tuple[int, np.ndarray]]:
    """Chain ``chain``'s rows, step by step: (step, values (J, 5): angle_deg, x, y, target_x, target_y)."""
    out = []
    for rec in read_steps(path):
        out.append((rec.step, rec.values[rec.chain == chain]))
    return out


def assert_same_fields(a: Scene, b: Scene) -> None:
    assert len(a.chains) == len(b.chains)
    for i, (x, y) in enumerate(zip(a.chains, b.chains)):
        assert x.fields.keys() == y.fields.keys()
        names = set(x.fields) - NOT_STATE if x.solver in SECONDARY else {"points", "angles", "target"}
        for name in sorted(names):  # every field of its state
            np.testing.assert_array_equal(x.fields[name], y.fields[name], err_msg=f"chain {i}: {name}")


def replayed(path, start: str) -> Scene:
    again = scene_file.parse_scene(start, stage=STAGE)
    replay = Replay(path, again)
    while replay.drive(again):
        again.step()
    return again


def dragged_rope_run(tmp_path):
    """A pinned and a loose rope, their roots dragged (a few moves between two steps) while it records."""
    scene = Scene(STAGE)
    loose = scene.new_chain("rope", (300.0, 80.0))
    tied = scene.new_chain("rope", (600.0, 80.0))
    scene.set_setting(tied, "pin_end", True)
    scene.new_chain("ccd", (500.0, 500.0))
    start = scene_file.scene_to_text(scene)
    recorder = Recorder(tmp_path / "r.csv")
    for k in range(60):
        for j in range(3):  # the mouse sends a few moves a step: only the last counts
            scene.move_chain(loose, (300.0 + 4 * k + j, 80.0 + 2 * k - j))
            scene.move_chain(tied, (600.0 - 3 * k, 80.0 + k + j))
        scene.step()
        recorder.record(scene)
    recorder.close()
    return scene, start, recorder


@pytest.mark.slow
def test_a_rope_s_dragged_root_is_recorded_replayed_bit_for_bit_and_baked(tmp_path):
    scene, start, recorder = dragged_rope_run(tmp_path)
    loose = scene.chains[0]
    n = loose.fields["lengths"].shape[0]
    last = rows_of(tmp_path / "r.csv", 0)[-1][1]
    assert len(last) == n + 1  # its bones, then its root
    np.testing.assert_array_equal(last[n, 1:3], loose.fields["root"])
    np.testing.assert_array_equal(last[n, 1:3], (300.0 + 4 * 59 + 2, 80.0 + 2 * 59 - 2))
    again = replayed(tmp_path / "r.csv", start)
    assert_same_fields(scene, again)
    assert not np.array_equal(again.chains[0].fields["root"], (300.0, 80.0))  # it did move

    baked = bake_recording(tmp_path / "r.csv", recorder.rig, tmp_path / "a.json")
    assert baked.notes == ()
    tracks = {t.chain: t for t in load_animation(tmp_path / "a.json")}
    for chain in (0, 1):
        track = tracks[chain]
        for k, (step, rows) in enumerate(rows_of(tmp_path / "r.csv", chain)):
            np.testing.assert_array_equal(track.roots[k], rows[-1, 1:3])  # the root row, as it is
            joints = fk(track.roots[k], track.angles[k], track.lengths)
            assert np.abs(joints[1:] - rows[:-1, 1:3]).max() <= FK_TOLERANCE
            assert np.abs(joints[0] - rows[-1, 1:3]).max() <= FK_TOLERANCE


@pytest.mark.slow
def test_a_path_chain_s_dragged_handles_are_recorded_replayed_bit_for_bit_and_baked(tmp_path):
    scene = Scene(STAGE)
    chain = scene.add(path_build.make_path(np.array(CURVE), np.full(6, 20.0), slide=0.0))
    scene.add(path_build.make_path(np.array(CURVE) + (0.0, 200.0), np.full(4, 30.0), slide=40.0))
    start = scene_file.scene_to_text(scene)
    recorder = Recorder(tmp_path / "r.csv")
    for k in range(45):  # handles 1, 2 and 3 dragged in turn, a few moves a step
        handle = 1 + k // 15
        for j in range(2):
            scene.move_target(chain, (CURVE[handle][0] + 3 * k + j, CURVE[handle][1] - 2 * k), f"control:{handle}")
        scene.step()
        recorder.record(scene)
    recorder.close()
    rows = rows_of(tmp_path / "r.csv", 0)
    assert all(len(r) == 6 + 4 for _, r in rows)  # its bones, then its joint 0 and control points 1..3
    np.testing.assert_array_equal(rows[-1][1][6, 1:3], chain.fields["points"][0])
    np.testing.assert_array_equal(rows[-1][1][7:, 1:3], chain.fields["control"][1:])
    np.testing.assert_array_equal(rows[-1][1][0, 3:5], chain.fields["control"][0])
    again = replayed(tmp_path / "r.csv", start)
    assert_same_fields(scene, again)
    assert not np.array_equal(again.chains[0].fields["control"], CURVE)  # they did move

    baked = bake_recording(tmp_path / "r.csv", recorder.rig, tmp_path / "a.json")
    assert (baked.tracks, baked.notes) == (2, ())  # one track a chain: its curve's changes are its frames'
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["tracks"]
    for index, n in ((0, 6), (1, 4)):
        track = data[index]
        assert track["chain"] == index and track["lengths"] == ([20.0] * 6 if index == 0 else [30.0] * 4)
        controls, chords = np.array(track["controls"]), np.array(track["chords"])
        assert controls.shape == (45, 4, 2) and chords.shape == (45, n)
        for k, (_, r) in enumerate(rows_of(tmp_path / "r.csv", index)):
            np.testing.assert_array_equal(controls[k, 0], r[0, 3:5])
            np.testing.assert_array_equal(controls[k, 1:], r[n + 1:, 1:3])
            np.testing.assert_array_equal(track["roots"][k], r[n, 1:3])
            joints = fk(np.array(track["roots"][k]), track["angles"][k], chords[k])
            assert np.abs(joints[1:] - r[:n, 1:3]).max() <= FK_TOLERANCE
    assert (chords < 30.0).all() and (chords > 25.0).all()  # the chords of arcs of 30 px
    loaded = load_animation(tmp_path / "a.json")[1]  # read back: the same numbers, as arrays
    np.testing.assert_array_equal(loaded.chords, chords)
    np.testing.assert_array_equal(loaded.controls, controls)
    assert loaded.appendages is None


@pytest.mark.slow
def test_appendages_are_rows_that_replay_bit_for_bit_and_bake_as_their_own_bones(tmp_path):
    made = Scene(STAGE)
    made.new_chain("walker", (300.0, 300.0))
    made.add(rig_build.quadruped_rig(standing_on=(650.0, 600.0)))
    made.new_chain("ccd", (500.0, 200.0))
    for c in made.chains[:2]:
        made.set_setting(c, "walk_speed", 3.0)
        made.set_setting(c, "auto_walk", True)
    start = scene_file.scene_to_text(made)
    scene = scene_file.parse_scene(start, stage=STAGE)
    recorder = Recorder(tmp_path / "r.csv")
    for _ in range(90):
        scene.step()
        recorder.record(scene)
    recorder.close()
    again = replayed(tmp_path / "r.csv", start)
    assert_same_fields(scene, again)

    bake_recording(tmp_path / "r.csv", recorder.rig, tmp_path / "a.json")
    data = {t["chain"]: t for t in json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["tracks"]}
    for index in (0, 1):
        f = scene.chains[index].fields
        used = f["app_lengths"][:, 0] > 0
        a, b = int(np.flatnonzero(used)[-1]) + 1, int((f["app_lengths"] > 0).sum(axis=1).max())
        entry = recorder.rig[(index, scene.chains[index].solver, len(rows_of(tmp_path / "r.csv", index)[0][1]))]
        assert entry["appendages"].shape == (a, b)
        app = data[index]["appendages"]
        expected = np.full(a, -1) if index == 0 else f["app_bone"][:a]
        assert app["parents"] == expected.tolist()
        lengths = np.array(app["lengths"])
        np.testing.assert_allclose(lengths, f["app_lengths"][:a, :b], rtol=0, atol=1e-6)
        for k, (_, rows) in enumerate(rows_of(tmp_path / "r.csv", index)):
            tail = rows[-a * (b + 1):].reshape(a, b + 1, 5)
            for s in range(a):
                np.testing.assert_array_equal(app["roots"][k][s], tail[s, 0, 1:3])
                joints = fk(np.array(app["roots"][k][s]), app["angles"][k][s], lengths[s])
                assert np.abs(joints - tail[s, :, 1:3]).max() <= FK_TOLERANCE
        (loaded,) = [t for t in load_animation(tmp_path / "a.json") if t.chain == index]
        assert loaded.appendages.parents.tolist() == app["parents"] and loaded.chords is None
        for got, key in zip(loaded.appendages[1:], ("lengths", "roots", "angles")):
            np.testing.assert_array_equal(got, app[key])
        last = rows_of(tmp_path / "r.csv", index)[-1][1][-a * (b + 1):].reshape(a, b + 1, 5)
        for s in np.flatnonzero(used).tolist():  # the rows are the appendages' joints as they were
            k = int((f["app_lengths"][s] > 0).sum())
            np.testing.assert_array_equal(last[s, :k + 1, 1:3], f["app_points"][s, :k + 1])


def test_a_walker_without_appendage_rows_is_recorded_as_before(tmp_path):
    scene = Scene(STAGE)
    walker = scene.new_chain("walker", (300.0, 300.0))
    walker.fields["app_lengths"][:] = 0.0  # no antennae: its legs only
    recorder = Recorder(tmp_path / "r.csv")
    scene.step()
    recorder.record(scene)
    recorder.close()
    legs, m = walker.fields["lengths"].shape
    assert len(rows_of(tmp_path / "r.csv", 0)[0][1]) == legs * m
    assert isinstance(recorder.rig[(0, "walker", legs * m)], np.ndarray)


def old_layout(path, out, chain: int, keep: int) -> None:
    """The recording at ``path`` with chain ``chain``'s rows after its first ``keep`` left out (as written before
    they were recorded)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [lines[0]] + [line for line in lines[1:]
                         if not (int(line.split(",")[1]) == chain and int(line.split(",")[3]) >= keep)]
    out.write_text("".join(kept), encoding="utf-8")


@pytest.mark.parametrize("kind", ["rope", "walker"])
def test_a_recording_in_the_old_layout_is_one_line_never_a_crash(tmp_path, kind):
    scene = Scene(STAGE)
    chain = scene.new_chain(kind, (300.0, 300.0))
    start = scene_file.scene_to_text(scene)
    recorder = Recorder(tmp_path / "r.csv")
    for _ in range(3):
        scene.step()
        recorder.record(scene)
    recorder.close()
    n = chain.fields["lengths"].size
    old_layout(tmp_path / "r.csv", tmp_path / "old.csv", 0, n)
    with pytest.raises(RecordingError) as e:
        Replay(tmp_path / "old.csv", scene_file.parse_scene(start, stage=STAGE))
    message = str(e.value)
    assert "\n" not in message and f"chain 0 is a {kind} chain of {n} joints in the recording" in message
    if kind == "rope":  # the bake cannot split its rows: said in one line, nothing written
        for rig in (recorder.rig, {(0, "rope", n): np.full(n, 20.0)}, None):
            with pytest.raises(RecordingError) as e:
                bake_recording(tmp_path / "old.csv", rig, tmp_path / "a.json")
            assert "\n" not in str(e.value) and "old.csv: line 2: chain 0 (rope" in str(e.value)
            assert "its bones, then its root" in str(e.value)
        assert not (tmp_path / "a.json").exists()


def test_a_baked_file_with_bad_appendages_or_controls_is_one_line(tmp_path):
    track = {"chain": 0, "solver": "walker", "first_step": 0, "frames": 1, "lengths": [[10.0, 10.0]], "steps": [0],
             "angles": [[[0.0, 0.0]]], "roots": [[[0.0, 0.0]]], "targets": [[0.0, 0.0]]}
    head = {"format": "ikplayground-animation", "version": 1}
    for extra, says in (({"appendages": {"parents": [-1], "lengths": [[5.0, -1.0]], "roots": [[[0.0, 0.0]]],
                                         "angles": [[[0.0, 0.0]]]}}, "appendages.lengths must be"),
                        ({"appendages": {"parents": [-1], "lengths": [[5.0, 1.0]], "roots": [[0.0, 0.0]],
                                         "angles": [[[0.0, 0.0]]]}}, "appendages.roots must have the shape"),
                        ({"controls": [[[0.0, 0.0]] * 3]}, "controls must have the shape")):
        (tmp_path / "a.json").write_text(json.dumps({**head, "tracks": [{**track, **extra}]}), encoding="utf-8")
        with pytest.raises(ValueError, match=says) as e:
            load_animation(tmp_path / "a.json")
        assert "\n" not in str(e.value) and str(e.value).startswith("a.json: track 0: ")
