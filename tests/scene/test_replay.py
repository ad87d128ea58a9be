"""Replay (scene/record/replay.py) and seeds: a recorded run replays to the same numbers; a mismatch is refused.

A scene file with every solver, animated targets, a pole, a wandering snake and
walkers of two- and three-bone legs is run with scripted input (the arrow keys
on the snake and a walker, a target moved by hand) while it is recorded; the
file is loaded again and driven by the recording while that is recorded too:
the two recordings are the same file.
"""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from ikplayground.scene import SceneFileError, load_scene, save_scene
from ikplayground.scene.build import build, walker_build
from ikplayground.scene.build.stress import stress_scene
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files.scene_file import parse_scene
from ikplayground.scene.record.recording import Recorder, RecordingError
from ikplayground.scene.record.replay import Replay, first_mismatch
from ikplayground.scene.step import target_paths
from ikplayground.scene.step.group_step import wander_offset

STEPS = 240


@pytest.fixture
def scene_file(tmp_path):
    """A file of every solver with animated targets, a pole, a wandering snake and two walkers."""
    scene = default_scene()
    scene.seed = 12345
    scene.add_in_turn([
        walker_build.make_walker((260.0, 400.0), legs=4),
        walker_build.make_walker((700.0, 400.0), legs=6, leg_bones=3, facing=-1.0),
        build.straight_snake((200.0, 150.0), 0.4, nodes=8, wander=True),
    ])
    target_paths.start(scene.chains[1].fields, "circle")
    target_paths.start(scene.chains[2].fields, "figure-eight")
    target_paths.start(scene.chains[3].fields, "bounce")
    scene.chains[3].fields["pole"][:] = (900.0, 300.0)
    path = tmp_path / "s.json"
    save_scene(scene, path)
    return path


def scripted(scene: Scene, k: int) -> None:
    """The run's input before step ``k``: the keys drive the snake, then the walker; the arm's target is
    dragged for a while."""
    if k % 80 < 40:
        scene.select(scene.chains[4])  # the snake: Up held, turning one way then the other
        scene.steer(k % 5 != 0, 1 if k % 80 < 20 else -1)
    elif k % 80 < 60:
        scene.select(scene.chains[5])  # the walker: Left, running
        scene.steer(True, -1)
    else:
        scene.select(scene.chains[0])
        scene.steer(False, 0)
    if 30 <= k < 60:
        scene.move_target(scene.chains[0], (180.0 + 2 * k, 330.0 - k))


def record_run(scene_file, out, steps=STEPS, replay=None, extra=None) -> Scene:
    """Load ``scene_file``, run ``steps`` steps (scripted, or driven by the recording ``replay``), recording
    them to ``out``; returns the scene."""
    scene = load_scene(scene_file)
    recorder = Recorder(out)
    driver = Replay(replay, scene) if replay is not None else None
    for k in range(steps):
        if extra is not None:
            extra(scene, k)
        if driver is None:
            scripted(scene, k)
        else:
            scene.steer(False, 0)  # a replay's keys steer nothing
            driver.drive(scene)
        scene.step()
        recorder.record(scene)
    recorder.close()
    return scene


def rows(path) -> list[list[str]]:
    with open(path, newline="") as fh:
        return list(csv.reader(fh))


@pytest.mark.slow
def test_a_replayed_run_records_the_same_file(tmp_path, scene_file):
    original = record_run(scene_file, tmp_path / "a.csv")
    replayed = record_run(scene_file, tmp_path / "b.csv", replay=tmp_path / "a.csv")
    a, b = rows(tmp_path / "a.csv"), rows(tmp_path / "b.csv")
    antennae = 2 * (walker_build.ANTENNA_BONES[0] + 1)  # each walker's two: a root and its bones each
    assert len(a) == len(b) == 1 + STEPS * (2 + 3 * 7 + 9 + 4 * 2 + 6 * 3 + 7 + 2 * antennae)
    assert [r[:4] for r in a] == [r[:4] for r in b]
    worst = max(abs(float(x) - float(y)) for ra, rb in zip(a[1:], b[1:]) for x, y in zip(ra[4:9], rb[4:9]))
    assert worst <= 1e-9
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()  # in fact bit for bit
    assert np.array_equal(original.chains[4].fields["points"], replayed.chains[4].fields["points"])
    assert np.array_equal(original.chains[5].fields["points"], replayed.chains[5].fields["points"])
    # and the run was worth replaying: without the keys the snake and the walker go elsewhere
    free = load_scene(scene_file)
    for _ in range(STEPS):
        free.step()
    assert not np.allclose(free.chains[4].fields["points"], original.chains[4].fields["points"])
    assert not np.allclose(free.chains[5].fields["body"], original.chains[5].fields["body"])


@pytest.mark.slow
def test_when_the_recording_ends_the_scene_runs_on_from_where_it_is(tmp_path, scene_file):
    record_run(scene_file, tmp_path / "a.csv", steps=30)
    scene = load_scene(scene_file)
    replay = Replay(tmp_path / "a.csv", scene)
    for _ in range(30):
        assert replay.drive(scene)
        scene.step()
    arm = scene.chains[1]  # a target on a circle, held by the replay
    assert arm.fields["held"][0] == 1.0
    where = arm.fields["target"].copy()
    assert replay.drive(scene) is False and replay.steps == 30
    assert arm.fields["held"][0] == 0.0
    scene.step()  # its circle goes on from the recorded target, at its phase
    assert 0 < np.hypot(*(arm.fields["target"] - where)) < 10
    assert replay.drive(scene) is False


def test_a_recording_that_does_not_match_the_scene_is_refused_naming_the_first_mismatch(tmp_path, scene_file):
    record_run(scene_file, tmp_path / "a.csv", steps=3)
    with pytest.raises(RecordingError) as info:
        Replay(tmp_path / "a.csv", default_scene())
    assert str(info.value) == ("a.csv: line 2: step 0 does not match the scene: chain 5 (a walker chain of 18 "
                               "joints) is in the recording but not in the scene")  # 8 of its legs, 10 antennae
    other = load_scene(scene_file)
    other.set_solver(other.chains[2], "ccd")
    with pytest.raises(RecordingError, match="chain 2 is a fabrik chain of 7 joints in the recording and a ccd "
                                             "chain of 7 joints in the scene$"):
        Replay(tmp_path / "a.csv", other)
    (tmp_path / "empty.csv").write_text("step,chain,solver,joint,angle_deg,x,y,target_x,target_y\n")
    with pytest.raises(RecordingError, match=r"^empty\.csv: holds no steps$"):
        Replay(tmp_path / "empty.csv", other)


@pytest.mark.slow
def test_a_chain_the_recording_added_later_stops_the_replay(tmp_path, scene_file):
    def add_at_10(scene, k):
        if k == 10:
            scene.new_chain("fabrik", (500.0, 500.0))
    record_run(scene_file, tmp_path / "a.csv", steps=20, extra=add_at_10)
    scene = load_scene(scene_file)
    replay = Replay(tmp_path / "a.csv", scene)
    for _ in range(10):
        assert replay.drive(scene)
        scene.step()
    with pytest.raises(RecordingError) as info:
        replay.drive(scene)
    assert str(info.value).startswith("a.csv: line ")
    assert str(info.value).endswith("step 10 no longer matches the scene: chain 8 (a fabrik chain of 7 joints) is "
                                    "in the recording but not in the scene")
    assert all(c.fields["held"][0] == 0.0 for c in scene.chains if c.is_ik)  # let go


def test_first_mismatch_in_words():
    assert first_mismatch([("ccd", 3)], [("ccd", 3)]) is None
    assert first_mismatch([("ccd", 3)], [("ccd", 3), ("snake", 9)]) == (
        "chain 1 (a snake chain of 9 joints) is in the scene but not in the recording")


# --- seeds -------------------------------------------------------------------------------
def wandering(seed: int) -> Scene:
    scene = Scene(seed=seed)
    scene.add(build.straight_snake((300.0, 300.0), 0.0, nodes=6, wander=True))
    for _ in range(200):
        scene.step()
    return scene


@pytest.mark.slow
def test_the_seed_is_kept_in_the_file_and_sets_the_wander_the_ground_and_the_stress_scene(tmp_path):
    a, b, c = wandering(3), wandering(3), wandering(4)
    assert np.array_equal(a.chains[0].fields["points"], b.chains[0].fields["points"])
    assert not np.allclose(a.chains[0].fields["points"], c.chains[0].fields["points"])
    assert wander_offset(0) == 0.0 and 0 < wander_offset(1) < 2 * math.pi
    assert a.terrain == b.terrain and a.terrain != c.terrain
    assert Scene().terrain == Scene(seed=0).terrain
    assert stress_scene(10, seed=3).seed == 3
    heads = [stress_scene(10, seed=s).chains[4].fields["heading"][0] for s in (3, 3, 4)]
    assert heads[0] == heads[1] != heads[2]
    path = tmp_path / "seeded.json"
    save_scene(a, path)
    assert '"version": 1, "seed": 3,\n' in path.read_text()
    assert load_scene(path).seed == 3
    save_scene(Scene(), path)
    assert "seed" not in path.read_text() and load_scene(path).seed == 0


@pytest.mark.parametrize(("seed", "message"), [
    ("-1", "seed: must be between 0 and 4294967295 (got -1)"),
    ("4294967296", "seed: must be between 0 and 4294967295 (got 4294967296)"),
    ("2.5", "seed: must be a whole number (got 2.5)"),
    ('"7"', 'seed: must be a whole number (got "7")'),
])
def test_a_bad_seed_is_refused_naming_it(seed, message):
    with pytest.raises(SceneFileError) as info:
        parse_scene(f'{{"format": "ikplayground-scene", "version": 1, "seed": {seed}, "chains": []}}', "s.json")
    assert str(info.value) == f"s.json: {message}"
    assert parse_scene('{"format": "ikplayground-scene", "version": 1, "seed": 9.0, "chains": []}').seed == 9
