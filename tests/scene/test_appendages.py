"""Appendages: a walker's antennae and a rig's tail and ears jiggle after their parent, in one batched step, and are
saved, flipped, undone and replayed (docs/design.md, "Appendages")."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ikplayground.scene.build import rig_build, walker_build
from ikplayground.scene.core.mirror import flip_chain
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit.edits import set_recorded
from ikplayground.scene.edit.history import History
from ikplayground.scene.files import scene_file
from ikplayground.scene.step import appendages

STAGE = (980.0, 720.0)


def bone_lengths(points: np.ndarray) -> np.ndarray:
    return np.hypot(*np.moveaxis(np.diff(points, axis=-2), -1, 0))


def assert_lengths_held(f: dict) -> None:
    used = f["app_lengths"] > 0
    np.testing.assert_allclose(bone_lengths(f["app_points"])[used], f["app_lengths"][used], rtol=0, atol=1e-6)


def rest_of(chain) -> np.ndarray:
    """Where ``chain``'s appendages would lie in their rest pose from its parent as it now is."""
    group = {k: v[None].copy() for k, v in chain.fields.items()}
    appendages.rest_pose(group)
    return group["app_points"][0]


def walking_spider(scene: Scene):
    spider = scene.new_chain("walker", (300.0, 300.0))
    scene.set_setting(spider, "auto_walk", False)
    for _ in range(40):  # its feet on the ground
        scene.step()
    return spider


def test_a_new_spider_has_two_antennae_on_the_front_of_its_head_and_a_quadruped_a_tail_and_ears():
    spider = walker_build.make_walker((300.0, 300.0))
    f = spider.fields
    assert f["app_on"][0] == 1.0
    used = f["app_lengths"][:, 0] > 0
    assert used.tolist() == [True, True, False]
    assert (f["app_points"][used, 0, 0] > 300.0).all()  # ahead of its body's centre (it faces +x)
    assert (f["app_points"][used, -1, 1] < f["app_points"][used, 0, 1]).all()  # pointing up
    dog = rig_build.quadruped_rig((400.0, 300.0))
    assert (dog.fields["app_lengths"][:, 0] > 0).sum() == 3
    assert (rig_build.humanoid_rig((400.0, 300.0)).fields["app_lengths"][:, 0] > 0).sum() == 1


def test_antennae_lag_a_walking_spider_and_settle_back_to_rest_when_it_stops():
    scene = Scene(STAGE)
    spider = walking_spider(scene)
    f = spider.fields
    scene.selected = spider
    lag = []
    for _ in range(120):  # walked right with the arrow key
        scene.steer(False, 1)
        scene.step()
        assert_lengths_held(f)
        lag.append(np.abs(f["app_points"] - rest_of(spider)).max())
    assert float(f["velocity"][0]) > 1.0
    assert max(lag) > 2.0  # they trail behind the rest pose while it walks
    scene.steer(False, 0)
    speeds = []
    for _ in range(600):
        scene.step()
        assert_lengths_held(f)
        speeds.append(np.abs(f["app_points"] - f["app_previous"]).max())
    assert float(f["velocity"][0]) == 0.0
    assert speeds[-1] < 1e-3  # px a step: at rest within 600 steps (issue 28)
    np.testing.assert_allclose(f["app_points"], rest_of(spider), atol=1e-3)


def test_stiffness_1_holds_the_rest_pose_exactly_while_the_body_walks():
    scene = Scene(STAGE)
    spider = walking_spider(scene)
    scene.set_setting(spider, "app_stiffness", 1.0)
    scene.selected = spider
    for _ in range(60):
        scene.steer(False, 1)
        scene.step()
        np.testing.assert_allclose(spider.fields["app_points"], rest_of(spider), atol=1e-9)


def test_all_appendages_step_in_one_call_as_each_group_alone():
    scene = Scene(STAGE)
    spiders = [scene.new_chain("walker", (200.0 + 150 * i, 300.0)) for i in range(3)]
    scene.add(rig_build.quadruped_rig(standing_on=(700.0, 600.0)))
    scene.set_setting(spiders[1], "app_damping", 0.4)
    for _ in range(30):
        scene.step()
    groups = scene.groups
    alone = [{k: v.copy() for k, v in g.fields.items()} for g in groups]
    for _ in range(20):
        appendages.step_appendages(groups)
        for f in alone:
            appendages.step_appendages([type("G", (), {"fields": f})()])
    for g, f in zip(groups, alone):
        np.testing.assert_array_equal(g.fields["app_points"], f["app_points"])
        assert_lengths_held(g.fields)


def test_turned_off_they_hold_their_rest_pose_and_are_not_drawn_to_swing_once_on_again():
    scene = Scene(STAGE)
    spider = walking_spider(scene)
    scene.selected = spider
    scene.set_setting(spider, "appendages", False)
    for _ in range(30):
        scene.steer(False, 1)
        scene.step()
        np.testing.assert_allclose(spider.fields["app_points"], rest_of(spider), atol=1e-9)


def test_toggling_appendages_is_undone_and_redone():
    scene = Scene(STAGE)
    spider = scene.new_chain("walker", (300.0, 300.0))
    history = History()
    new, edit = set_recorded(scene, spider, "appendages", False)
    assert edit is not None and new.fields["app_on"][0] == 0.0
    history.push(edit)
    history.undo()
    assert scene.chains[0].fields["app_on"][0] == 1.0
    history.redo()
    assert scene.chains[0].fields["app_on"][0] == 0.0


def test_a_file_round_trip_keeps_them_and_a_file_without_them_loads():
    scene = Scene(STAGE)
    spider = scene.new_chain("walker", (300.0, 300.0))
    scene.set_setting(spider, "app_stiffness", 0.3)
    scene.set_setting(spider, "appendages", False)
    dog = scene.add(rig_build.quadruped_rig(standing_on=(700.0, 600.0)))
    text = scene_file.scene_to_text(scene)
    again = scene_file.parse_scene(text, stage=STAGE)
    s2, d2 = again.chains
    assert s2.fields["app_on"][0] == 0.0 and s2.fields["app_stiffness"][0] == 0.3
    np.testing.assert_allclose(s2.fields["app_points"], spider.fields["app_points"], atol=1e-3)  # body: 3 decimals
    for name in ("app_bone", "app_lengths", "app_gravity"):
        np.testing.assert_allclose(d2.fields[name], dog.fields[name], atol=1e-3)
    np.testing.assert_allclose(d2.fields["app_points"], dog.fields["app_points"], atol=0.05)
    assert scene_file.scene_to_text(again) == scene_file.scene_to_text(scene_file.parse_scene(
        scene_file.scene_to_text(again), stage=STAGE))  # rounded once, then stable
    doc = json.loads(text)
    for line in doc["chains"]:  # as a file written before appendages
        for key in ("appendage_shapes", "appendages", "app_stiffness", "app_damping"):
            line.pop(key, None)
    old = scene_file.parse_scene(json.dumps(doc), stage=STAGE)
    assert old.chains[0].fields["app_on"][0] == 1.0  # a walker: its antennae by default
    assert not (old.chains[1].fields["app_lengths"] > 0).any()  # a rig: none were saved


@pytest.mark.parametrize("line, says", [
    ('"appendage_shapes": [{"bone": 99, "at": [0, 0], "angle": 0, "lengths": [5]}]', "appendage_shapes[0].bone"),
    ('"appendage_shapes": [{"bone": 0, "at": [0, 0], "angle": 0, "lengths": [5, 5], "rest": [1]}]',
     "appendage_shapes[0].rest"),
    ('"appendage_shapes": [{"bone": 0, "at": [0, 0], "angle": 0, "lengths": [0]}]', "appendage_shapes"),
    ('"appendage_shapes": [{"bone": 0, "at": [0, 0], "angle": 0, "lengths": [1, 1, 1, 1, 1, 1, 1]}]',
     "appendage_shapes"),
])
def test_a_bad_appendage_is_refused_in_one_line_and_the_scene_kept(line, says):
    text = scene_file.scene_to_text(_one_rig())
    bad = text.replace('"solver": "rig",', '"solver": "rig", ' + line + ",", 1)
    assert bad != text
    with pytest.raises(scene_file.SceneFileError) as e:
        scene_file.parse_scene(bad, stage=STAGE)
    assert says in str(e.value) and "\n" not in str(e.value)


def _one_rig() -> Scene:
    scene = Scene(STAGE)
    scene.add(rig_build.make_rig((400.0, 300.0), [-1, 0], [0.5, 0.3], [60.0, 50.0]))
    return scene


@pytest.mark.parametrize("kind", ["walker", "rig"])
def test_a_flip_is_exact_and_the_mirror_image_jiggles_as_the_mirror_image(kind):
    scene = Scene(STAGE)
    if kind == "walker":
        chain = walking_spider(scene)
        scene.selected = chain
        for _ in range(20):
            scene.steer(False, 1)
            scene.step()
    else:
        chain = scene.add(rig_build.quadruped_rig(standing_on=(500.0, 600.0)))
        for _ in range(10):
            chain.fields["root"][0] += 3.0  # swung
            scene.step()
    x0 = float(chain.fields["body" if kind == "walker" else "root"][0])
    before = {k: v.copy() for k, v in chain.fields.items()}
    flip_chain(chain)
    f = chain.fields
    for name in ("app_points", "app_previous"):
        np.testing.assert_array_equal(f[name][..., 0], x0 - (before[name][..., 0] - x0))
        np.testing.assert_array_equal(f[name][..., 1], before[name][..., 1])
    np.testing.assert_array_equal(f["app_rest"], -before["app_rest"])
    mirrored = {k: v[None].copy() for k, v in f.items()}
    flip_chain(chain)
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)
    one = {k: v[None].copy() for k, v in before.items()}
    root, _ = appendages.roots(one)
    root_m, _ = appendages.roots(mirrored)
    np.testing.assert_allclose(root_m[..., 0], x0 - (root[..., 0] - x0), atol=1e-9)
    np.testing.assert_allclose(root_m[..., 1], root[..., 1], atol=1e-9)
    for _ in range(40):  # their parents held still: the jiggle alone
        appendages.step_appendages([type("G", (), {"fields": one})()])
        appendages.step_appendages([type("G", (), {"fields": mirrored})()])
    np.testing.assert_allclose(mirrored["app_points"][..., 0], x0 - (one["app_points"][..., 0] - x0), atol=1e-9)
    np.testing.assert_allclose(mirrored["app_points"][..., 1], one["app_points"][..., 1], atol=1e-9)


@pytest.mark.parametrize("kind", ["walker", "rig"])
def test_a_recorded_run_replays_their_joints_exactly(tmp_path, kind):
    from ikplayground.scene.record.recording import Recorder
    from ikplayground.scene.record.replay import Replay

    made = Scene(STAGE)
    if kind == "walker":
        made.new_chain("walker", (300.0, 300.0))
    else:
        made.add(rig_build.quadruped_rig(standing_on=(500.0, 600.0)))
    made.set_setting(made.chains[0], "walk_speed", 3.0)
    made.set_setting(made.chains[0], "auto_walk", True)
    scene_file.save_scene(made, tmp_path / "start.json")
    scene = scene_file.load_scene(tmp_path / "start.json", STAGE)
    recorder = Recorder(tmp_path / "run.csv")
    for _ in range(150):
        scene.step()
        recorder.record(scene)
    recorder.close()
    again = scene_file.load_scene(tmp_path / "start.json", STAGE)
    replay = Replay(tmp_path / "run.csv", again)
    while replay.drive(again):
        again.step()
    assert np.abs(scene.chains[0].fields["app_points"] - again.chains[0].fields["app_points"]).max() == 0.0
    assert (scene.chains[0].fields["app_points"] != made.chains[0].fields["app_points"]).any()  # they moved
