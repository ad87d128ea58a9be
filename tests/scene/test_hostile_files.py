"""Files that must be refused in one line, and files a recording must not overwrite (issue 24, hostile input).

A recording is read only from a regular file, never more of one step than a
scene can give; a recording replaces only a recording, and keeps a file another
wrote at its path while it recorded; a motion too small to follow is refused.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from ikplayground.scene import Recorder, RecordingError, SceneFileError, default_scene, load_scene, save_scene
from ikplayground.scene.record import recording_read
from ikplayground.scene.record.bake import bake_recording
from ikplayground.scene.record.recording import OLD_HEADER
from ikplayground.scene.record.recording_read import read_steps

ROW = "0,0,ccd,0,1.0,2.0,3.0,4.0,5.0"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    pipe = tmp_path / "run.csv"
    os.mkfifo(pipe)
    with pytest.raises(RecordingError, match=r"^run\.csv: is not a regular file$"):
        list(read_steps(pipe))  # with no writer, opening it to read would block for ever


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_is_refused_before_anything_is_read():
    with pytest.raises(RecordingError, match=r"^zero: is not a regular file$"):
        list(read_steps("/dev/zero"))


def test_a_folder_is_refused_as_a_recording(tmp_path):
    with pytest.raises(RecordingError, match=r"is a directory, not a recording$"):
        list(read_steps(tmp_path))


def test_a_step_of_more_rows_than_a_scene_can_give_is_refused_as_they_run_over(tmp_path, monkeypatch):
    monkeypatch.setattr(recording_read, "MAX_ROWS", 5)
    path = tmp_path / "big.csv"
    path.write_text(OLD_HEADER + "".join(f"0,{c},ccd,0,1.0,2.0,3.0,4.0,5.0\n" for c in range(6)))
    with pytest.raises(RecordingError, match=r"^big\.csv: line 2: step '0' has more than 5 rows: a scene has at most"):
        list(read_steps(path))
    path.write_text(OLD_HEADER + "".join(f"0,{c},ccd,0,1.0,2.0,3.0,4.0,5.0\n" for c in range(5)))
    assert len(next(read_steps(path)).chain) == 5  # as many as a scene can give: read


def test_a_line_longer_than_any_field_may_be_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(OLD_HEADER + "0" * 2_000_000 + "\n")
    with pytest.raises(RecordingError, match=r"^long\.csv: line 2: field larger than field limit"):
        list(read_steps(path))


@pytest.mark.parametrize("make", ["folder", "scene", "text"])
def test_recording_to_anything_but_a_recording_is_refused_and_leaves_it(tmp_path, make):
    path = tmp_path / "target"
    if make == "folder":
        path.mkdir()
    elif make == "scene":
        save_scene(default_scene(), path)
    else:
        path.write_text("notes I keep\n")
    before = None if make == "folder" else path.read_bytes()
    with pytest.raises(RecordingError, match=r"^target: (is a folder|holds something that is not a recording)"):
        Recorder(path)
    assert (path.is_dir() if make == "folder" else path.read_bytes() == before)
    assert not (tmp_path / "target.part").exists()


def test_a_recording_replaces_an_older_recording(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text(OLD_HEADER + ROW + "\n")
    recorder = Recorder(path)
    recorder.record(default_scene())
    assert recorder.close() == path and recorder.replaced is None
    assert len(list(read_steps(path))) == 1


def test_a_file_saved_at_the_path_while_it_records_is_kept(tmp_path):
    path = tmp_path / "run.csv"
    recorder = Recorder(path)
    recorder.record(default_scene())
    save_scene(default_scene(), path)  # the user saves a scene there meanwhile
    saved = recorder.close()
    assert saved == tmp_path / "run-2.csv" and recorder.replaced == path
    assert load_scene(path).chains  # the scene is still there
    assert len(list(read_steps(saved))) == 1


def test_bake_refuses_a_rig_that_is_no_dict_in_one_line(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text(OLD_HEADER + ROW + "\n")
    with pytest.raises(ValueError, match=r"^rig: must be a dict .* \(got a list\)$"):
        bake_recording(path, [1, 2, 3], tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("size", [1e-320, 1e-306, 0.5])
def test_a_path_too_small_to_follow_is_refused_by_the_loader(tmp_path, size):
    path = tmp_path / "scene.json"
    save_scene(default_scene(), path)
    data = json.loads(path.read_text())
    data["chains"][1]["motion"] = {"path": "circle", "speed": 1000, "size": size}
    path.write_text(json.dumps(data))
    with pytest.raises(SceneFileError, match=r"^scene\.json: chains\[1\]\.motion\.size: must be >= 1"):
        load_scene(path)


def test_a_path_size_below_the_smallest_is_clamped_and_the_target_stays_finite():
    scene = default_scene()
    chain = next(c for c in scene.chains if c.solver in ("ccd", "fabrik"))
    chain = scene.set_setting(chain, "motion", "circle")
    chain = scene.set_setting(chain, "motion_speed", 1000.0)
    chain = scene.set_setting(chain, "motion_size", 1e-320)
    assert chain.fields["motion_size"][0] == 1.0  # the smallest path size, px
    for _ in range(10):
        scene.step()
    assert np.isfinite(chain.fields["target"]).all()


def test_free_name_is_the_path_or_the_first_numbered_name_nothing_holds(tmp_path):
    from ikplayground.scene import free_name

    path = tmp_path / "run.csv"
    assert free_name(path) == path
    path.write_text("x")
    (tmp_path / "run-2.csv").mkdir()
    assert free_name(path) == tmp_path / "run-3.csv"
    assert free_name(path, usable=lambda p: p.name != "run.csv") == tmp_path / "run-2.csv"  # its own rule
