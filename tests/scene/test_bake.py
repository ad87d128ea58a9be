"""Baking a recording CSV into keyframes: forward kinematics of the file gives back every joint.

The recordings are written here by a small writer that follows the CSV format
(tests/scene/recording_writer.py) from real scene chains stepped by the scene.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.record.bake import bake_recording, load_animation
from ikplayground.solvers import forward_kinematics
from ikplayground.scene.core.constants import SOLVERS
from tests.scene.recording_writer import HEADER, record

SOLVER_NAMES = ", ".join(SOLVERS)  # as the messages list them: the registry's order

DOC = Path(__file__).resolve().parents[2] / "docs" / "animation-format.md"
FK_TOLERANCE = 1e-9  # px


# --- helpers -----------------------------------------------------------------------------
def csv_points(path) -> dict[tuple[int, int], np.ndarray]:
    """(step, chain) -> the joints' x, y (J, 2) as the CSV has them."""
    out: dict[tuple[int, int], list] = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            out.setdefault((int(row["step"]), int(row["chain"])), []).append((float(row["x"]), float(row["y"])))
    return {k: np.array(v) for k, v in out.items()}


def fk_joints(track, k: int) -> np.ndarray:
    """The end points of every bone (J, 2) of frame k of a track, by forward kinematics."""
    lengths = track.lengths * track.scales[k]
    if track.solver == "walker":
        return np.concatenate([forward_kinematics(track.roots[k][i], np.radians(track.angles[k][i]), lengths[i])[1:]
                               for i in range(len(lengths))])
    return forward_kinematics(track.roots[k], np.radians(track.angles[k]), lengths)[1:]


def assert_fk_gives_back_the_csv(tracks, points) -> None:
    for t in tracks:
        assert t.roots is not None, (t.chain, t.solver, t.note)
        for k, step in enumerate(t.steps):
            err = np.abs(fk_joints(t, k) - points[(int(step), t.chain)]).max()
            assert err <= FK_TOLERANCE, (t.chain, t.solver, int(step), err)


def tracks_of(tracks, chain: int):
    return [t for t in tracks if t.chain == chain]


@pytest.fixture
def recording(tmp_path):
    """The default scene with a two-bone-legged and a three-bone-legged walker, 60 steps recorded."""
    scene = default_scene()
    scene.new_chain("walker", (250.0, 420.0))
    scene.set_setting(scene.new_chain("walker", (700.0, 420.0)), "leg_bones", 3)
    path = tmp_path / "recording.csv"
    rig = record(scene, path, 60)
    return scene, path, rig


# --- the round trip ------------------------------------------------------------------------
@pytest.mark.slow
def test_forward_kinematics_of_the_baked_file_gives_back_every_joint_of_the_recording(recording, tmp_path):
    scene, path, rig = recording
    out = tmp_path / "animation.json"
    baked = bake_recording(path, rig, out)
    tracks = load_animation(out)
    assert [t.solver for t in tracks] == [c.solver for c in scene.chains]
    assert baked == (out, len(scene.chains), 60 * len(scene.chains), ())
    assert_fk_gives_back_the_csv(tracks, csv_points(path))
    for t, chain in zip(tracks, scene.chains):
        assert t.first_step == 0 and list(t.steps) == list(range(60)) and t.note == ""
        if chain.solver == "snake":
            assert np.array_equal(t.roots[-1], chain.fields["points"][0])
        elif chain.solver == "walker":
            legs, m = chain.fields["lengths"].shape
            hips = chain.fields["points"].reshape(legs, m + 1, 2)[:, 0]
            assert np.abs(t.roots[-1] - hips).max() <= FK_TOLERANCE
        else:  # the root the CSV never held comes back
            assert np.abs(t.roots - chain.fields["root"]).max() <= FK_TOLERANCE
            assert np.array_equal(t.targets[-1], chain.fields["target"])


@pytest.mark.slow
def test_the_file_keeps_the_recordings_numbers_exactly_and_says_its_units(recording, tmp_path):
    scene, path, rig = recording
    out = tmp_path / "animation.json"
    bake_recording(path, rig, out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["fps"]) == ("ikplayground-animation", 1, 60)
    assert "pixels" in data["units"] and "y down" in data["units"] and "degrees" in data["units"]
    with open(path, encoding="utf-8", newline="") as f:
        last = [r for r in csv.DictReader(f) if r["step"] == "59" and r["chain"] == "1"]
    ccd = data["tracks"][1]
    assert [repr(a) for a in ccd["angles"][-1]] == [r["angle_deg"] for r in last]
    assert ccd["lengths"] == rig[(1, "ccd", 7)].tolist()
    assert "scales" in data["tracks"][0] and "scales" not in ccd


def test_a_stretched_two_bone_arm_carries_its_scale(tmp_path):
    scene = default_scene()
    arm = scene.chains[0]
    scene.set_setting(arm, "motion", "none")
    scene.set_setting(arm, "stretch", 1.5)
    scene.set_setting(arm, "rate_on", False)
    scene.move_target(arm, arm.fields["root"] + (250.0, 0.0))  # past its 220 px, within 1.5 x
    path = tmp_path / "r.csv"
    rig = record(scene, path, 5)
    bake_recording(path, rig, tmp_path / "a.json")
    (t,) = tracks_of(load_animation(tmp_path / "a.json"), 0)
    assert t.scales[-1] == pytest.approx(250.0 / 220.0)
    assert np.array_equal(t.lengths, [120.0, 100.0])
    assert_fk_gives_back_the_csv([t], csv_points(path))
    assert np.abs(t.roots - arm.fields["root"]).max() <= FK_TOLERANCE


# --- tracks --------------------------------------------------------------------------------
def test_a_solver_or_bone_count_change_starts_a_new_track(tmp_path):
    def change(scene, k):
        if k == 20:
            scene.set_solver(scene.chains[1], "fabrik")
        if k == 30:
            scene.set_setting(scene.chains[3], "bones", 5)

    path = tmp_path / "r.csv"
    rig = record(default_scene(), path, 40, change)
    bake_recording(path, rig, tmp_path / "a.json")
    tracks = load_animation(tmp_path / "a.json")
    split = [(t.solver, t.first_step, len(t.steps), t.lengths.shape) for t in tracks_of(tracks, 1)]
    assert split == [("ccd", 0, 20, (7,)), ("fabrik", 20, 20, (7,))]
    split = [(t.solver, t.first_step, len(t.steps), t.lengths.shape) for t in tracks_of(tracks, 3)]
    assert split == [("dls", 0, 30, (7,)), ("dls", 30, 10, (5,))]
    assert len(tracks) == 7
    assert_fk_gives_back_the_csv(tracks, csv_points(path))


def test_bone_lengths_changed_while_recording_start_a_track_that_says_so(tmp_path):
    def change(scene, k):
        if k == 15:
            scene.set_setting(scene.chains[2], "bone_length", 50.0)  # FABRIK: the rig's 36 px go stale
            scene.set_setting(scene.chains[4], "bone_length", 25.0)  # the snake
            scene.set_setting(scene.chains[0], "bone_length", 90.0)  # the arm: reads as a stretch

    scene = default_scene()
    path = tmp_path / "r.csv"
    rig = record(scene, path, 25, change)
    bake_recording(path, rig, tmp_path / "a.json")
    tracks = load_animation(tmp_path / "a.json")
    fabrik = tracks_of(tracks, 2)
    assert [(t.first_step, t.lengths[0]) for t in fabrik] == [(0, 36.0), (15, pytest.approx(50.0))]
    assert "changed at step 15" in fabrik[1].note and "Bone length" in fabrik[1].note
    assert np.abs(fabrik[1].roots - scene.chains[2].fields["root"]).max() <= 1e-9
    snake = tracks_of(tracks, 4)
    assert [t.first_step for t in snake] == [0, 15] and snake[1].lengths == pytest.approx(np.full(9, 25.0))
    (arm,) = tracks_of(tracks, 0)
    # 120 and 100 px set to a mean of 90: both scaled by 90 / 110, a stretch to the bake, the root still
    assert arm.scales[-1] == pytest.approx(90.0 / 110.0)
    assert np.abs(arm.roots - scene.chains[0].fields["root"]).max() <= 1e-9
    assert_fk_gives_back_the_csv(tracks, csv_points(path))


def test_only_the_chosen_chain(recording, tmp_path):
    scene, path, rig = recording
    bake_recording(path, rig, tmp_path / "a.json", chain=4)
    (t,) = load_animation(tmp_path / "a.json")
    assert (t.chain, t.solver, len(t.steps)) == (4, "snake", 60)
    with pytest.raises(ValueError, match="chain 9 is not in the recording"):
        bake_recording(path, rig, tmp_path / "b.json", chain=9)
    assert not (tmp_path / "b.json").exists()
    with pytest.raises(ValueError, match="chain"):
        bake_recording(path, rig, tmp_path / "b.json", chain=True)


def test_a_chain_that_goes_missing_comes_back_as_a_new_track(tmp_path):
    path = tmp_path / "r.csv"
    scene = default_scene()
    rig = record(scene, path, 10)
    rows = path.read_text(encoding="utf-8").splitlines()
    kept = [r for r in rows if not re.match(r"(4|5|6),4,", r)]  # the snake skips steps 4 to 6
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    bake_recording(path, rig, tmp_path / "a.json")
    snake = tracks_of(load_animation(tmp_path / "a.json"), 4)
    assert [(t.first_step, len(t.steps)) for t in snake] == [(0, 4), (7, 3)]


def test_an_empty_recording_bakes_to_no_tracks(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text(",".join(HEADER) + "\n", encoding="utf-8")
    assert bake_recording(path, {}, tmp_path / "a.json").tracks == 0
    assert load_animation(tmp_path / "a.json") == []


# --- lengths the rig does not give ---------------------------------------------------------
@pytest.mark.slow
def test_without_the_rig_nothing_is_made_up(recording, tmp_path):
    scene, path, rig = recording
    ik_and_snakes = {k: v for k, v in rig.items() if k[1] != "walker"}
    no_ccd = {k: v for k, v in ik_and_snakes.items() if k[1] not in ("ccd", "snake", "two-bone")}
    bake_recording(path, no_ccd, tmp_path / "a.json", chain=1)
    (ccd,) = load_animation(tmp_path / "a.json")
    assert ccd.roots is None and math.isnan(ccd.lengths[0]) and np.allclose(ccd.lengths[1:], 36.0)
    assert "no rig entry" in ccd.note and "unknown" in ccd.note
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert data["tracks"][0]["lengths"][0] is None and data["tracks"][0]["roots"] is None
    bake_recording(path, no_ccd, tmp_path / "b.json", chain=0)
    (arm,) = load_animation(tmp_path / "b.json")
    assert arm.roots is None and "no rig entry" in arm.note
    baked = bake_recording(path, no_ccd, tmp_path / "c.json", chain=4)  # a snake needs no rig
    (snake,) = load_animation(tmp_path / "c.json")
    assert "measured" in snake.note and baked.notes == (f"chain 4 from step 0: {snake.note}",)
    assert_fk_gives_back_the_csv([snake], csv_points(path))


def test_a_walker_without_its_rig_is_refused_naming_the_line(recording, tmp_path):
    scene, path, rig = recording
    del rig[(5, "walker", 12)]
    with pytest.raises(ValueError, match=r"recording\.csv line 34: the rig has no bone lengths for chain 5 "
                                         r"\(walker, 12 joints\)"):
        bake_recording(path, rig, tmp_path / "a.json")
    assert not (tmp_path / "a.json").exists()


def test_a_bad_rig_entry_is_named(recording, tmp_path):
    scene, path, rig = recording
    rig[(1, "ccd", 7)] = np.full(6, 36.0)
    with pytest.raises(ValueError, match=r"line 4: rig\[\(1, 'ccd', 7\)\]: must be 7 bone lengths"):
        bake_recording(path, rig, tmp_path / "a.json")


# --- bad recordings: one line naming the line; the file on disk stays as it was ---------------
GOOD = [",".join(HEADER),
        "0,0,ccd,0,-90.0,10.0,20.0,5.0,5.0",
        "0,0,ccd,1,10.0,10.0,50.0,5.0,5.0",
        "1,0,ccd,0,-90.0,10.0,20.0,5.0,5.0",
        "1,0,ccd,1,10.0,10.0,50.0,5.0,5.0"]
BAD = [
    ("header", lambda r: ["step,chain,solver,joint,angle,x,y,target_x,target_y"] + r[1:],
     "line 1: not a recording: the first line must be"),
    ("empty", lambda r: [], "line 1: the file is empty"),
    ("a field short", lambda r: r[:2] + ["0,0,ccd,1,10.0,10.0,50.0,5.0"] + r[3:],
     "line 3: 8 columns where the header has 9"),
    ("not a number", lambda r: r[:2] + ["0,0,ccd,1,ten,10.0,50.0,5.0,5.0"] + r[3:],
     "line 3: angle_deg: not a number"),
    ("nan", lambda r: r[:3] + ["1,0,ccd,0,-90.0,nan,20.0,5.0,5.0"] + r[4:], "line 4: x: must be a finite number"),
    ("negative step", lambda r: r[:1] + ["-1,0,ccd,0,-90.0,10.0,20.0,5.0,5.0"] + r[2:],
     "line 2: step: must be a whole number"),
    ("unknown solver", lambda r: r[:2] + ["0,0,spline,1,10.0,10.0,50.0,5.0,5.0"] + r[3:],
     f"line 3: solver: must be one of {SOLVER_NAMES} (got 'spline')"),
    ("solver changes", lambda r: r[:2] + ["0,0,dls,1,10.0,10.0,50.0,5.0,5.0"] + r[3:], "line 3: solver dls in chain "
     "0, whose joint 0 is ccd"),
    ("target changes", lambda r: r[:2] + ["0,0,ccd,1,10.0,10.0,50.0,5.0,6.0"] + r[3:], "line 3: target 5.0, 6.0 in "
     "chain 0, whose joint 0 has 5.0, 5.0"),
    ("joint skipped", lambda r: r[:2] + ["0,0,ccd,2,10.0,10.0,50.0,5.0,5.0"] + r[3:], "line 3: joint 2 of chain 0"),
    ("starts at joint 1", lambda r: r[:3] + ["1,0,ccd,1,-90.0,10.0,20.0,5.0,5.0"] + r[4:], "line 4: joint 1"),
    ("steps go back", lambda r: r + ["0,1,ccd,0,-90.0,10.0,20.0,5.0,5.0"], "line 6: step 0 after step 1"),
    ("chain twice", lambda r: r + ["1,1,ccd,0,-90.0,10.0,20.0,5.0,5.0", "1,0,ccd,0,-90.0,10.0,20.0,5.0,5.0"],
     "line 7: chain 0 where chain 2 or joint 1 of chain 1 was due"),
    ("joints run on", lambda r: r + ["1,0,ccd,0,-90.0,10.0,20.0,5.0,5.0"], "line 6: joint 0 of chain 0 where "
     "joint 2 was due"),
    ("quote", lambda r: r + ['2,0,ccd,0,"-90.0,10.0,20.0,5.0,5.0'], "line 6: angle_deg: not a number"),
]


@pytest.mark.parametrize("mutate, message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_recording_is_refused_naming_its_line_and_the_file_on_disk_stays(tmp_path, mutate, message):
    rig = {(0, "ccd", 2): np.array([10.0, 30.0]), (1, "ccd", 1): np.array([10.0])}
    path = tmp_path / "recording.csv"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    out = tmp_path / "animation.json"
    assert bake_recording(path, rig, out).frames == 2  # the good one bakes
    before = out.read_bytes()
    path.write_text("".join(line + "\n" for line in mutate(list(GOOD))), encoding="utf-8")
    with pytest.raises(ValueError) as e:
        bake_recording(path, rig, out)
    assert str(e.value).startswith("recording.csv: line ") and message in str(e.value), str(e.value)
    assert "\n" not in str(e.value)
    assert out.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["animation.json", "recording.csv"]


def test_a_recording_that_is_not_utf8_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "recording.csv"
    path.write_bytes(("\n".join(GOOD[:3]) + "\n").encode() + b"0,0,ccd,2,1.0,\xff\xfe,1.0,5.0,5.0\n")
    with pytest.raises(ValueError, match=r"recording\.csv: line [0-9]+: not UTF-8"):
        bake_recording(path, {}, tmp_path / "a.json")


def test_the_keyframes_never_replace_the_recording(tmp_path):
    path = tmp_path / "recording.csv"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="would replace the recording"):
        bake_recording(path, {}, path)
    assert path.read_text(encoding="utf-8") == "\n".join(GOOD) + "\n"


def test_a_folder_that_cannot_be_written_is_an_oserror_and_nothing_is_written(tmp_path):
    path = tmp_path / "recording.csv"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    with pytest.raises(OSError, match="is not a folder"):
        bake_recording(path, {(0, "ccd", 2): np.array([10.0, 30.0])}, tmp_path / "file" / "a.json")


# --- the format, on any chain ----------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 8), frames=st.integers(1, 4), data=st.data())
def test_any_chain_poses_bake_to_keyframes_that_give_them_back(tmp_path_factory, n, frames, data):
    """Poses written straight from forward kinematics (roots far from the origin, any angles, bones of
    very different lengths) come back with their roots to 1e-9 px."""
    coord = st.floats(-5000.0, 5000.0)
    lengths = np.array(data.draw(st.lists(st.floats(0.5, 400.0), min_size=n, max_size=n)))
    solver = data.draw(st.sampled_from(["ccd", "fabrik", "dls"]))
    folder = tmp_path_factory.mktemp("poses")
    rows, roots, joints = [",".join(HEADER)], [], []
    for k in range(frames):
        root = np.array([data.draw(coord), data.draw(coord)])
        angles = np.radians(data.draw(st.lists(st.floats(-180.0, 180.0), min_size=n, max_size=n)))
        p = forward_kinematics(root, angles, lengths)
        roots.append(root)
        joints.append(p[1:])
        rows += [f"{k},0,{solver},{j},{math.degrees(angles[j])!r},{float(p[j + 1][0])!r},"
                 f"{float(p[j + 1][1])!r},1.0,2.0"
                 for j in range(n)]
    (folder / "r.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    bake_recording(folder / "r.csv", {(0, solver, n): lengths}, folder / "a.json")
    (t,) = load_animation(folder / "a.json")
    assert np.abs(t.roots - roots).max() <= 1e-9 * max(1.0, float(lengths[0]))
    for k in range(frames):
        assert np.abs(fk_joints(t, k) - joints[k]).max() <= 1e-9 * max(1.0, float(lengths.sum()))


# --- reading it back, and the docs' example ----------------------------------------------------
def test_load_animation_refuses_what_is_not_a_keyframe_file(tmp_path):
    f = tmp_path / "a.json"
    cases = [("{", "not a JSON file"), ('{"format": "other"}', "not an ikplayground-animation file"),
             ('{"format": "ikplayground-animation", "version": 2, "tracks": []}', "version 2"),
             ('{"format": "ikplayground-animation", "version": 1, "tracks": [{"chain": 0}]}', "track 0: has no"),
             ('{"format": "ikplayground-animation", "version": 1, "tracks": [{"chain": 0, "solver": "ccd", '
              '"first_step": 0, "frames": 1, "lengths": [1.0], "steps": [0], "angles": [[1.0, 2.0]], '
              '"roots": [[0, 0]], "targets": [[0, 0]]}]}', "track 0: angles must have the shape (1, 1)"),
             ('{"format": "ikplayground-animation", "version": 1, "tracks": [], "x": NaN}', "NaN")]
    for text, message in cases:
        f.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError) as e:
            load_animation(f)
        assert message in str(e.value) and str(e.value).startswith("a.json: "), str(e.value)


def docs_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- example: begin -->\n```python\n(.*?)```\n<!-- example: end -->", text, re.S)
    assert block, "docs/animation-format.md lost its example's markers"
    return block.group(1)


def test_the_docs_example_is_ten_lines_and_drives_the_chains_of_a_baked_file(recording, tmp_path, monkeypatch):
    scene, path, rig = recording
    code = docs_example()
    assert len(code.strip().splitlines()) <= 10
    bake_recording(path, rig, tmp_path / "animation.json")
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(DOC), "exec"), {"__name__": "__main__"})
    lines = printed.getvalue().splitlines()
    tips = csv_points(path)
    driven = [i for i, c in enumerate(scene.chains) if c.solver != "walker"]
    assert len(lines) == 60 * len(driven)
    for line in lines:
        m = re.fullmatch(r"chain (\d+) \(([a-z-]+)\) step (\d+): tip at (-?[\d.]+), (-?[\d.]+)", line)
        assert m, line
        tip = tips[(int(m[3]), int(m[1]))][-1]
        assert abs(float(m[4]) - tip[0]) <= 5e-4 and abs(float(m[5]) - tip[1]) <= 5e-4, line



# --- names ----------------------------------------------------------------------------------
def test_tracks_carry_the_chain_s_name_and_a_chain_removed_does_not_run_into_the_next(tmp_path):
    from ikplayground.scene.build.build import make_ik_chain
    from ikplayground.scene.core.scene import Scene

    scene = Scene()
    for x in (200.0, 400.0, 600.0):
        scene.add(make_ik_chain("ccd", (x, 600.0), np.zeros(3), np.full(3, 40.0), (x + 30.0, 520.0)))
    scene.chains[0].name = "left arm"

    def change(scene, k):
        if k == 5:
            scene.remove(scene.chains[1])  # #2 goes: #3 is index 1 from now on, the same solver and bones

    path = tmp_path / "r.csv"
    rig = record(scene, path, 10, change)
    bake_recording(path, rig, tmp_path / "a.json")
    tracks = load_animation(tmp_path / "a.json")
    assert [(t.chain, t.name, t.first_step, len(t.steps)) for t in tracks] == [
        (0, "left arm", 0, 10), (1, "#2", 0, 5), (1, "#3", 5, 5), (2, "#3", 0, 5)]
    assert json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["tracks"][0]["name"] == "left arm"


def test_unequal_bones_scaled_by_bone_length_keep_their_roots(tmp_path):
    from ikplayground.scene.build.build import make_ik_chain
    from ikplayground.scene.core.scene import Scene

    scene = Scene()
    scene.add(make_ik_chain("fabrik", (400.0, 600.0), np.zeros(3), np.array((20.0, 40.0, 60.0)), (460.0, 520.0)))

    def change(scene, k):
        if k == 6:
            scene.set_setting(scene.chains[0], "bone_length", 60.0)  # a mean of 40 px to 60: every bone x1.5

    path = tmp_path / "r.csv"
    rig = record(scene, path, 12, change)
    bake_recording(path, rig, tmp_path / "a.json")
    tracks = load_animation(tmp_path / "a.json")
    assert [t.first_step for t in tracks] == [0, 6]
    np.testing.assert_allclose(tracks[1].lengths, (30.0, 60.0, 90.0), rtol=1e-9)
    assert "x1.5" in tracks[1].note and "Bone length" in tracks[1].note
    assert np.abs(tracks[1].roots - scene.chains[0].fields["root"]).max() <= 1e-9
    assert_fk_gives_back_the_csv(tracks, csv_points(path))
