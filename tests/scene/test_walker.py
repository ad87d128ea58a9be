"""The walker: planted feet stay put, feet on the ground are on the terrain, steps start past the
threshold, the two gait groups never lift together; terrain, settings, files and conversions."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ikplayground.scene.core.scene import Scene
from ikplayground.scene.core.settings import BY_NAME
from ikplayground.scene.files import scene_file
from ikplayground.scene.step.terrain import Terrain, generated
from ikplayground.scene.step.walker import rest_x

STAGE = (980.0, 720.0)
TOL = 0.5  # px


def walking_scene(legs: int, facing: int, speed: float = 2.5, seed: int = 7,
                  leg_bones: int = 2) -> tuple[Scene, object]:
    scene = Scene(STAGE, terrain=generated(STAGE, seed=seed))
    w = scene.new_chain("walker", (STAGE[0] / 2, 100.0))
    scene.set_setting(w, "legs", legs)
    scene.set_setting(scene.selected, "leg_bones", leg_bones)
    w = scene.selected
    scene.set_setting(w, "walk_speed", speed)
    w.fields["facing"][0] = facing
    scene.step()  # groups the chains (its fields become views of its group's) and stands it on the ground
    return scene, w


def test_generated_terrain_has_hills_and_steps_scaled_to_the_stage():
    t = generated(STAGE)
    assert t.points[0, 0] == 0.0 and t.points[-1, 0] == STAGE[0]
    assert np.all(np.diff(t.points[:, 0]) >= 0)
    dy = np.abs(np.diff(t.height_at(np.arange(0.0, STAGE[0], 1.0))))
    assert (dy > 10).sum() >= 3  # steps: the ground jumps by tens of px within a pixel or two
    assert np.ptp(t.points[:, 1]) > 40  # hills
    wide = generated((1960.0, 720.0))
    assert wide.points[-1, 0] == 1960.0
    assert t == generated(STAGE) and t != wide


def leg_tips(f) -> np.ndarray:
    """Each leg's last joint (n, 2) px."""
    return f["points"].reshape(f["foot"].shape[0], -1, 2)[:, -1]


@pytest.mark.slow
@pytest.mark.parametrize("leg_bones", [2, 3])
@pytest.mark.parametrize("legs", [2, 4, 6, 8])
@pytest.mark.parametrize("facing", [1, -1])
def test_gait_properties_over_hundreds_of_steps(legs, facing, leg_bones):
    scene, w = walking_scene(legs, facing, seed=legs * 3 + (facing > 0), leg_bones=leg_bones)
    assert w.fields["lengths"].shape == (legs, leg_bones)
    f = w.fields
    terrain = scene.terrain
    start_x = float(f["body"][0])
    starts = 0
    travelled = 0.0
    for _ in range(600):
        was_planted = f["state"] < 0.5
        before = f["foot"].copy()
        x0 = float(f["body"][0])
        scene.step()
        travelled += abs(float(f["body"][0]) - x0)
        planted = f["state"] < 0.5
        held = was_planted & planted
        # planted feet stay put
        assert np.all(np.hypot(*(f["foot"][held] - before[held]).T) <= TOL)
        # every foot on the ground is on the terrain
        assert np.all(np.abs(f["foot"][planted, 1] - terrain.height_at(f["foot"][planted, 0])) <= TOL)
        # the two gait groups are never in the air together
        up = ~planted
        group = f["gait"] > 0.5
        assert not ((up & group).any() and (up & ~group).any())
        starts += int((was_planted & up).sum())
        assert np.isfinite(f["points"]).all()
        # every foot within its leg's reach is on its leg's tip
        hips = f["points"].reshape(legs, leg_bones + 1, 2)[:, 0]
        gap = np.hypot(*(f["foot"] - hips).T)
        total = f["lengths"].sum(axis=1)
        reachable = (gap < total - 1.0) & (gap > 2 * f["lengths"].max(axis=1) - total + 1.0)
        assert np.all(np.hypot(*(leg_tips(f) - f["foot"])[reachable].T) <= TOL)
    assert travelled > 600  # it walked (and turned at an edge, on its own)
    assert starts >= 10
    assert float(f["body"][0]) != start_x


@pytest.mark.parametrize("leg_bones", [2, 3])
def test_a_foot_steps_once_it_drifts_past_the_threshold_and_not_before(leg_bones):
    scene, w = walking_scene(6, 1, leg_bones=leg_bones)
    scene.set_setting(w, "auto_walk", False)
    scene.set_setting(w, "walk_speed", 0.0)
    f = w.fields
    f["velocity"][0] = 0.0
    f["settled"][0] = 0.0  # stand it again, at rest
    for _ in range(3):
        scene.step()
    assert np.all(f["state"] == 0)
    threshold = float(f["threshold"][0])
    group0 = f["gait"] < 0.5
    # the body shifts so that group 0's feet (at their rest spots) lie just inside the threshold: no step
    drift0 = f["foot"][group0, 0] - rest_x({"body": f["body"][None], "home": f["home"][None]})[0, group0]
    assert np.all(np.abs(drift0) < 1e-6)
    f["body"][0] += threshold - 2.0
    scene.step()
    assert np.all(f["state"] == 0)
    # ... and just past it: group 0 steps at once; group 1 (now nearer its rest spots) stays down
    f["body"][0] += 4.0
    scene.step()
    assert np.all(f["state"][group0] == 1)
    assert np.all(f["state"][~group0] == 0)
    for _ in range(40):
        scene.step()
    assert np.all(f["state"] == 0)
    drift = f["foot"][:, 0] - (f["body"][0] + f["home"])
    assert np.all(np.abs(drift) <= threshold)


def test_the_body_follows_the_feet_over_a_slope():
    slope = Terrain([[0.0, 700.0], [980.0, 400.0]])  # rising to the right, y down
    scene = Scene(STAGE, terrain=slope)
    w = scene.new_chain("walker", (490.0, 100.0))
    scene.set_setting(w, "auto_walk", False)
    for _ in range(80):
        scene.step()
    f = w.fields
    assert float(f["tilt"][0]) == pytest.approx(np.arctan(-300.0 / 980.0), abs=0.03)
    reach = float(f["lengths"].sum(axis=1).mean())
    ground = float(slope.height_at(f["body"][0]))
    assert 0.15 * reach < ground - float(f["body"][1]) < 0.6 * reach


def test_arrow_keys_drive_the_selected_walker_and_only_it():
    scene = Scene(STAGE)
    a = scene.new_chain("walker", (250.0, 100.0))
    b = scene.new_chain("walker", (700.0, 100.0))
    for w in (a, b):
        scene.set_setting(w, "auto_walk", False)
    scene.step()
    xa, xb = float(a.fields["body"][0]), float(b.fields["body"][0])
    assert scene.steer(False, -1) is b
    for _ in range(60):
        scene.step()
    assert float(b.fields["body"][0]) < xb - 40
    assert float(a.fields["body"][0]) == xa
    scene.steer(False, 0)
    assert b.fields["drive"][0] == 0


def test_resize_makes_the_default_ground_again_and_stands_walkers_on_it():
    scene = Scene(STAGE)
    w = scene.new_chain("walker")
    for _ in range(10):
        scene.step()
    scene.resize((1400.0, 900.0))
    assert scene.terrain == generated((1400.0, 900.0))
    scene.step()
    f = w.fields
    planted = f["state"] < 0.5
    assert np.all(np.abs(f["foot"][planted, 1] - scene.terrain.height_at(f["foot"][planted, 0])) <= TOL)


def test_save_and_load_round_trip_the_walker_and_a_custom_terrain(tmp_path):
    scene = Scene(STAGE, terrain=Terrain([[0.0, 600.0], [300.0, 560.0], [301.0, 520.0], [980.0, 580.0]]))
    w = scene.new_chain("walker", (400.0, 100.0))
    for name, value in (("legs", 4), ("step_threshold", 50.0), ("step_height", 12.5), ("walk_speed", 3.5),
                        ("auto_walk", False), ("bone_length", 60.0)):
        w = scene.set_setting(w, name, value)
    for _ in range(30):
        scene.step()
    path = tmp_path / "w.json"
    scene_file.save_scene(scene, path)
    loaded = scene_file.load_scene(path, stage=STAGE)
    assert loaded.terrain == scene.terrain and loaded.terrain.generated_for is None
    (v,) = loaded.chains
    assert v.solver == "walker" and v.bones == 4
    for name in ("legs", "step_threshold", "step_height", "walk_speed", "auto_walk", "bone_length"):
        assert BY_NAME[name].read(v) == pytest.approx(BY_NAME[name].read(w)), name
    np.testing.assert_allclose(v.fields["body"], w.fields["body"], atol=1e-3)
    # a scene on the default ground keeps no terrain in its file
    plain = Scene(STAGE)
    plain.new_chain("walker")
    assert "terrain" not in scene_file.scene_to_dict(plain)


@pytest.mark.parametrize("text, message", [
    ('"terrain": 5', "terrain: must be an object (got 5)"),
    ('"terrain": {"points": [[0, 1]]}', "terrain.points: must have at least 2 entries (got 1)"),
    ('"terrain": {"points": [[0, 1], [2, 2e9]]}', "terrain.points[1][1]: must be <= 1000000"),
    ('"terrain": {}', "terrain: missing field 'points'"),
])
def test_a_bad_terrain_is_refused_with_its_place(text, message):
    doc = '{"format": "ikplayground-scene", "version": 1, "chains": [], ' + text + "}"
    with pytest.raises(scene_file.SceneFileError, match=re.escape(message)):
        scene_file.parse_scene(doc)


@pytest.mark.parametrize("line, message", [
    ('{"solver": "walker", "body": [1, 2], "lengths": [1, 2], "legs": 9}', "chains[0].legs: must be between 2 and 8"),
    ('{"solver": "walker", "body": [1, 2], "lengths": [0, 2]}', "chains[0].lengths[0]: must be > 0"),
    ('{"solver": "walker", "lengths": [1, 2]}', "chains[0]: missing field 'body'"),
    ('{"solver": "walker", "body": [1, 2], "lengths": [1, 2], "facing": 0}', "chains[0].facing: must be 1 or -1"),
    ('{"solver": "walker", "body": [1, 2], "lengths": [1, 2], "leg_bones": 4}',
     "chains[0].leg_bones: must be between 2 and 3"),
    ('{"solver": "walker", "body": [1, 2], "lengths": [1, 2], "leg_bones": 2.5}', "chains[0].leg_bones: must be"),
    ('{"solver": "walker", "body": [1, 2], "lengths": [1, 2], "leg_bones": 3}', "chains[0].lengths: must have 3"),
])
def test_a_bad_walker_is_refused_with_its_place(line, message):
    doc = '{"format": "ikplayground-scene", "version": 1, "chains": [' + line + "]}"
    with pytest.raises(scene_file.SceneFileError, match=re.escape(message)):
        scene_file.parse_scene(doc)


@pytest.mark.parametrize("other", ["two-bone", "ccd", "fabrik", "dls", "snake"])
def test_converting_to_a_walker_and_back(other):
    scene = Scene(STAGE)
    c = scene.new_chain(other, (300.0, 400.0))
    w = scene.set_solver(c, "walker")
    assert w.is_walker and scene.selected is w
    scene.step()
    back = scene.set_solver(w, other)
    assert back.solver == other
    scene.step()
    assert np.isfinite(back.fields["points"]).all()


@pytest.mark.slow
def test_three_bone_legs_bend_one_way_as_an_insect_s_and_rebuild_the_walker():
    scene, w = walking_scene(6, 1, leg_bones=3)
    _, two = walking_scene(6, 1)
    assert w.group_key != two.group_key  # walkers of other leg shapes step in other groups
    f = w.fields
    # the three bones split a two-bone leg's thigh + shin (70 + 80 px) as 0.45 / 0.35 / 0.3
    np.testing.assert_allclose(f["lengths"][0], [67.5, 52.5, 45.0])
    out = np.where(f["home"] < 0, -1.0, 1.0)
    for _ in range(200):
        scene.step()
        assert np.all(out * f["angles"][:, 1] >= 0.15 - 1e-9)  # knees bend outward only
        assert np.all(out * f["angles"][:, 2] >= -1e-9)  # and ankles
        legs = f["points"].reshape(6, 4, 2)
        assert np.all(legs[:, 1, 1] < legs[:, 3, 1])  # knees above the feet
    back = scene.set_setting(w, "leg_bones", 2)
    assert back is not w and back.fields["lengths"].shape == (6, 2) and scene.selected is back
    np.testing.assert_allclose(back.fields["lengths"][0].sum() * 1.1, 165.0)
    assert scene.set_setting(back, "leg_bones", 2) is back


def test_three_bone_legs_round_trip_a_file(tmp_path):
    scene, w = walking_scene(4, -1, leg_bones=3)
    w = scene.set_setting(w, "bone_length", 50.0)
    for _ in range(20):
        scene.step()
    text = scene_file.scene_to_text(scene)
    assert '"leg_bones": 3' in text
    (v,) = scene_file.parse_scene(text).chains
    assert v.fields["lengths"].shape == (4, 3) and BY_NAME["leg_bones"].read(v) == 3
    np.testing.assert_allclose(v.fields["lengths"], w.fields["lengths"], rtol=0, atol=5e-4)  # 3 decimals
    assert v.fields["lengths"].mean() == pytest.approx(50.0, abs=5e-4)  # the bones scaled to a mean of 50 px
    two, _ = walking_scene(4, 1)
    assert "leg_bones" not in scene_file.scene_to_text(two)  # the default is left out
