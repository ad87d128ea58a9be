"""Jiggle bones as a per-chain setting of IK chains and snakes (docs/design.md, "Jiggle bones")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene.core.constants import IK_SOLVERS
from ikplayground.scene.core.mirror import flip_chain
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit.edits import set_recorded
from ikplayground.scene.files import scene_file
from ikplayground.scene.step.group_step import step_ik
from tests.scene.scene_cases import assert_chain_ok

STAGE = (980.0, 720.0)
STATE = ("points", "angles", "goal", "error", "heading", "speed", "previous", "rest_points")


def bone_lengths(points: np.ndarray) -> np.ndarray:
    return np.hypot(*np.diff(points, axis=-2).T).T


def twin_scenes():
    """Two like scenes: one chain of every IK solver (two of CCD, so a group holds a jiggling row and a still one)
    and two wandering snakes each."""
    out = []
    for _ in range(2):
        scene = Scene(STAGE)
        for k, solver in enumerate(IK_SOLVERS + ["ccd"]):
            scene.new_chain(solver, (120.0 + 95 * k, 420.0))
        for k in range(2):
            snake = scene.new_chain("snake", (300.0 + 200 * k, 200.0))
            scene.set_setting(snake, "wander", True)
        out.append(scene)
    return out


def drive(scene, k: int) -> None:
    """Move every IK chain's target a little and step, ``k`` times."""
    for i in range(k):
        for c in scene.chains:
            if c.is_ik:
                scene.move_target(c, c.fields["root"] + (60.0 * math.cos(0.05 * i), -70.0 + 40.0 * math.sin(0.07 * i)))
        scene.step()


def state(scene) -> list:
    return [{k: c.fields[k].copy() for k in STATE if k in c.fields} for c in scene.chains]


def test_stiffness_1_leaves_every_result_bit_for_bit_and_a_jiggling_row_leaves_its_groups_others_alone():
    plain, other = twin_scenes()
    for c in other.chains:  # the other jiggle settings do nothing while the stiffness is 1
        other.set_setting(c, "jiggle_damping", 0.7)
        other.set_setting(c, "jiggle_gravity", 1500.0)
        other.set_setting(c, "jiggle", 0.4)
        other.set_setting(c, "jiggle", 1.0)
    drive(plain, 40)
    drive(other, 40)
    for a, b in zip(state(plain), state(other)):
        for k in a:
            if k not in ("previous", "rest_points"):
                np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    third, _ = twin_scenes()
    ccds = [c for c in third.chains if c.solver == "ccd"]
    snakes = [c for c in third.chains if c.is_snake]
    third.set_setting(ccds[0], "jiggle", 0.3)
    third.set_setting(snakes[0], "jiggle", 0.3)
    drive(third, 40)
    for a, b, c in zip(state(plain), state(third), third.chains):
        if c is ccds[0] or c is snakes[0]:
            assert not np.array_equal(a["points"], b["points"])
            continue
        for k in a:
            if k not in ("previous", "rest_points"):
                np.testing.assert_array_equal(a[k], b[k], err_msg=f"{c.label} {k}")


@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_a_jiggling_tip_lags_a_moving_target_then_settles_on_the_solved_pose(solver):
    scenes = [Scene(STAGE), Scene(STAGE)]
    still, jiggly = (s.new_chain(solver, (450.0, 450.0)) for s in scenes)
    scenes[1].set_setting(jiggly, "jiggle", 0.25)
    scenes[1].set_setting(jiggly, "jiggle_damping", 0.1)
    lag = 0.0
    for i in range(40):  # the targets sweep across
        for s, c in zip(scenes, (still, jiggly)):
            s.move_target(c, (370.0 + 4.0 * i, 360.0))
            s.step()
        # the solve is the jiggle's rest pose and is not changed by it: the same angles, exactly
        np.testing.assert_array_equal(jiggly.fields["angles"], still.fields["angles"])
        np.testing.assert_array_equal(jiggly.fields["goal"], still.fields["goal"])
        np.testing.assert_allclose(bone_lengths(jiggly.fields["points"]),
                                   jiggly.fields["lengths"] * jiggly.fields["scale"], rtol=0, atol=1e-6)
        lag = max(lag, math.dist(jiggly.fields["points"][-1], still.fields["points"][-1]))
        assert_chain_ok(jiggly)
    assert lag > 1.0  # the tip lagged the solve
    for _ in range(600):
        for s in scenes:
            s.step()
    np.testing.assert_allclose(jiggly.fields["points"], still.fields["points"], rtol=0, atol=1e-3)
    assert np.abs(jiggly.fields["points"] - jiggly.fields["previous"]).max() < 1e-3


def test_a_snake_s_tail_jiggles_behind_its_head_its_body_as_without_jiggle():
    scene = Scene(STAGE)
    still = scene.new_chain("snake", (250.0, 300.0))
    jiggly = scene.new_chain("snake", (250.0, 300.0))
    for c in (still, jiggly):
        scene.set_setting(c, "wander", True)
    scene.set_setting(jiggly, "jiggle", 0.2)
    apart = 0.0
    for _ in range(120):
        scene.step()
        f = jiggly.fields
        np.testing.assert_array_equal(f["rest_points"], still.fields["points"])  # the body, followed as before
        np.testing.assert_array_equal(f["points"][0], still.fields["points"][0])  # the head
        np.testing.assert_allclose(bone_lengths(f["points"]), f["lengths"], rtol=0, atol=1e-6)
        apart = max(apart, math.dist(f["points"][-1], still.fields["points"][-1]))
        assert_chain_ok(jiggly)
    assert apart > 1.0


def test_a_jiggling_chain_s_settings_go_through_a_file_and_a_still_one_writes_none():
    scene = Scene(STAGE)
    ccd = scene.new_chain("ccd", (300.0, 400.0))
    snake = scene.new_chain("snake", (600.0, 200.0))
    plain = scene.new_chain("two-bone", (800.0, 400.0))
    for c in (ccd, snake):
        scene.set_setting(c, "jiggle", 0.375)
        scene.set_setting(c, "jiggle_damping", 0.3)
        scene.set_setting(c, "jiggle_gravity", 512.5)
    for _ in range(10):
        scene.step()
    text = scene_file.scene_to_text(scene)
    assert "jiggle" not in text.splitlines()[[i for i, line in enumerate(text.splitlines()) if '"two-bone"' in line][0]]
    loaded = scene_file.parse_scene(text, stage=STAGE)
    for old, new in zip(scene.chains, loaded.chains):
        for name in ("jiggle", "jiggle_damping", "jiggle_gravity"):
            np.testing.assert_array_equal(new.fields[name], old.fields[name], err_msg=name)
        np.testing.assert_array_equal(new.fields["previous"], new.fields["points"])  # loaded at rest
    assert plain.fields["jiggle"][0] == 1.0
    assert scene_file.scene_to_text(loaded) == text


@pytest.mark.parametrize("solver", ["two-bone", "ccd", "snake"])
def test_a_jiggling_chain_flipped_twice_is_itself_and_once_jiggles_as_the_mirror_image(solver):
    scene = Scene(STAGE)
    chain = scene.new_chain(solver, (480.0, 420.0))
    scene.set_setting(chain, "jiggle", 0.3)
    scene.set_setting(chain, "jiggle_gravity", 900.0)
    if chain.is_ik:
        scene.move_target(chain, chain.fields["root"] + (70.0, -60.0))
    for _ in range(6):  # mid-swing
        scene.step()
    x0 = float(chain.fields["root"][0] if chain.is_ik else chain.fields["points"][0, 0])
    before = {k: v.copy() for k, v in chain.fields.items()}
    flip_chain(chain)
    for name in ("points", "previous", "rest_points"):
        if name in before:
            np.testing.assert_array_equal(chain.fields[name][..., 0], 2 * x0 - before[name][..., 0], err_msg=name)
    mirrored = {k: v.copy() for k, v in chain.fields.items()}
    flip_chain(chain)
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)
    if chain.is_snake:  # its steering is mirrored by its own rule; its jiggle only is compared here
        return
    one = {k: v[None].copy() for k, v in before.items()}
    other = {k: v[None].copy() for k, v in mirrored.items()}
    for _ in range(30):
        step_ik(solver, one)
        step_ik(solver, other)
    np.testing.assert_allclose(other["points"][0, :, 0], 2 * x0 - one["points"][0, :, 0], atol=1e-6)
    np.testing.assert_allclose(other["points"][0, :, 1], one["points"][0, :, 1], atol=1e-6)


def test_a_jiggle_setting_undone_and_redone():
    scene = Scene(STAGE)
    chain = scene.new_chain("fabrik", (400.0, 400.0))
    scene.move_target(chain, chain.fields["root"] + (50.0, -120.0))
    for _ in range(5):
        scene.step()
    chain, edit = set_recorded(scene, chain, "jiggle", 0.2)
    assert edit is not None and "jiggle stiffness 1.00 → 0.20" in edit.label and chain.fields["jiggle"][0] == 0.2
    for _ in range(5):
        scene.move_target(chain, chain.fields["target"] + (6.0, 0.0))
        scene.step()
    assert not np.allclose(chain.fields["points"][-1], chain.fields["points"][-1] * 0 + chain.fields["target"])
    edit.undo()
    assert chain.fields["jiggle"][0] == 1.0
    assert_chain_ok(chain)  # off: shown as solved again (the points its forward kinematics)
    edit.redo()
    assert chain.fields["jiggle"][0] == 0.2
    np.testing.assert_array_equal(chain.fields["previous"], chain.fields["points"])  # on again, at rest
    scene.step()
    assert_chain_ok(chain)


def test_a_recorded_jiggling_scene_replays_exactly_and_bakes(tmp_path):
    from ikplayground.scene.record.bake import bake_recording
    from ikplayground.scene.record.recording import Recorder
    from ikplayground.scene.record.replay import Replay

    scene = Scene(STAGE)
    ccd = scene.new_chain("ccd", (300.0, 450.0))
    snake = scene.new_chain("snake", (600.0, 200.0))
    for c in (ccd, snake):
        scene.set_setting(c, "jiggle", 0.3)
    scene.set_setting(snake, "wander", True)
    start = scene_file.scene_to_text(scene)
    first = scene_file.parse_scene(start, stage=STAGE)
    recorder = Recorder(tmp_path / "r.csv")
    for k in range(40):
        first.move_target(first.chains[0], first.chains[0].fields["root"] + (-60.0 + 3 * k, -100.0))
        first.step()
        recorder.record(first)
    recorder.close()
    rows = (tmp_path / "r.csv").read_text().splitlines()
    again = scene_file.parse_scene(start, stage=STAGE)
    replay = Replay(tmp_path / "r.csv", again)
    while replay.drive(again):
        again.step()
    for a, b in zip(first.chains, again.chains):
        np.testing.assert_array_equal(b.fields["points"], a.fields["points"])
    cells = [r.split(",") for r in rows[1:]]
    last = [r for r in cells if r[0] == cells[-1][0] and r[2] == "ccd"]
    tip = first.chains[0].fields["points"][-1]  # the recording holds the jiggled joints, as shown
    assert float(last[-1][5]) == tip[0] and float(last[-1][6]) == tip[1]
    lengths = first.chains[0].fields["lengths"]
    baked = bake_recording(tmp_path / "r.csv", {(0, "ccd", len(lengths)): lengths}, tmp_path / "a.json")
    assert baked.frames == 80
