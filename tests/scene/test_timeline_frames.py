"""The timeline's reader (scene/record/timeline_frames.py): a recording whole in arrays, each step's joints as the
CSV has them, each chain's polyline from where it starts, the reader's one-line errors and the memory cap."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from ikplayground.scene import RecordingError, load_frames
from ikplayground.scene.build import path_build, rope_build, walker_build
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.record.recording import HEADER, Recorder
from ikplayground.scene.record.recording_read import read_steps

CURVE = [(100.0, 300.0), (200.0, 150.0), (350.0, 450.0), (450.0, 300.0)]


def recorded(tmp_path, steps: int = 12, extra: bool = True):
    """The default scene (and a rope, a path chain and a walker) recorded for ``steps`` steps: its path and the
    scene's chains' joints after each step (a list of lists of (n + 1, 2) arrays; a walker's: its body (2,))."""
    scene = default_scene()
    if extra:
        scene.add_in_turn([rope_build.make_rope((600.0, 80.0), np.full(6, 15.0)),
                           path_build.make_path(np.array(CURVE), np.full(4, 20.0), slide=300.0),
                           walker_build.make_walker((300.0, 400.0), legs=4)])
    path = tmp_path / "run.csv"
    recorder = Recorder(path)
    shown = []
    for _ in range(steps):
        scene.step()
        recorder.record(scene)
        shown.append([c.fields["body" if c.is_walker else "points"].copy() for c in scene.chains])
    recorder.close()
    return path, scene, shown


def csv_rows(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_every_steps_joints_are_the_csvs_bit_for_bit(tmp_path):
    path, _, _ = recorded(tmp_path)
    frames = load_frames(path)
    rows = csv_rows(path)
    assert len(frames) == 12 and frames.steps.tolist() == list(range(12))
    for i in (0, 5, 11):
        want = np.array([(float(r["x"]), float(r["y"])) for r in rows if int(r["step"]) == i])
        assert np.array_equal(frames.joints(i), want)
    assert frames.chains(3) == next(s for s in read_steps(path) if s.step == 3).chains()


def test_each_chain_is_drawn_from_where_it_starts(tmp_path):
    path, scene, shown = recorded(tmp_path)
    frames = load_frames(path)
    at = 7
    ik = [i for i, c in enumerate(scene.chains) if c.is_ik]
    first_bones = {i: float(np.hypot(*(shown[at][i][1] - shown[at][i][0]))) for i in ik}
    lines = frames.lines(at, first_bones)
    assert [line.chain for line in lines] == list(range(len(scene.chains)))
    for line, chain, points in zip(lines, scene.chains, shown[at]):
        if chain.is_walker:  # its joints as dots, led by its body's centre (the file has no hips)
            assert not line.joined and np.array_equal(line.points[0], points)
        else:  # an IK chain from its root (bone 0's length given), a snake from its head, a rope or path its root
            assert line.joined
            np.testing.assert_allclose(line.points, points, atol=1e-9)
    bare = frames.lines(at)  # no bone lengths: an IK chain starts at bone 0's end
    assert all(len(b.points) == len(a.points) - 1 for a, b in zip(lines, bare) if a.chain in ik)


def test_a_bad_file_gives_the_readers_one_line(tmp_path):
    path, _, _ = recorded(tmp_path, steps=3, extra=False)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = lines[4].replace(lines[4].split(",")[4], "abc", 1)
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(RecordingError) as caught:
        load_frames(path)
    message = str(caught.value)
    assert message == "run.csv: line 5: angle_deg: not a number (got 'abc')" and "\n" not in message


def test_a_file_of_no_steps_and_a_missing_file_are_refused(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text(HEADER, encoding="utf-8")
    with pytest.raises(RecordingError, match=r"^empty\.csv: holds no steps$"):
        load_frames(empty)
    with pytest.raises(RecordingError, match=r"^nothing\.csv: "):
        load_frames(tmp_path / "nothing.csv")


def test_a_recording_too_big_is_refused_in_one_line(tmp_path):
    path, _, _ = recorded(tmp_path, steps=10, extra=False)
    rows_a_step = len(next(read_steps(path)).values)
    with pytest.raises(RecordingError) as caught:
        load_frames(path, max_bytes=rows_a_step * 24 * 4 + 1)  # four steps fit, the fifth does not
    assert str(caught.value).startswith("run.csv: too long for the timeline: ") and "at step 4 " in str(caught.value)
    assert len(load_frames(path, max_bytes=rows_a_step * 24 * 10)) == 10  # exactly enough: all of it
