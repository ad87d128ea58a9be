"""Rigs that walk when asked (docs/design.md, "The rig"): the root along x over the terrain, the feet stepping by
the walker's rules, the hands along, turns at the stage's edges, the arrow keys; saved, flipped and replayed."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from ikplayground.scene import Scene, humanoid_rig, make_rig, quadruped_rig
from ikplayground.scene.files.scene_file import SceneFileError, load_scene, parse_scene, save_scene, scene_to_text
from ikplayground.scene.record.recording import Recorder
from ikplayground.scene.record.replay import Replay
from ikplayground.scene.step import rig_walk, target_paths, walker
from tests.scene.scene_cases import assert_chain_ok

STAGE = (980.0, 694.0)


def standing(build=humanoid_rig, x: float = 400.0, **kw) -> tuple[Scene, object]:
    """A scene with one rig standing on its terrain at ``x``, its rate limit off unless ``kw`` says."""
    scene = Scene(STAGE)
    kw.setdefault("rate_limit", None)
    size = {"height": 0.55 * STAGE[1]} if build is humanoid_rig else {"length": 0.26 * STAGE[0]}
    rig = scene.add(build(standing_on=(x, float(scene.terrain.height_at(x))), **size, **kw))
    return scene, rig


def feet_of(rig) -> np.ndarray:
    return np.flatnonzero(rig.fields["gait"] >= 0)


def hands_of(rig) -> np.ndarray:
    return np.flatnonzero(rig.fields["gait"] < 0)


class Watch:
    """What a walk did, step by step: the root, the feet's state, the errors, the turns."""

    def __init__(self, scene: Scene, rig):
        self.scene, self.rig = scene, rig
        self.roots, self.errors, self.facing, self.lifted, self.margins = [], [], [], [], []
        self.off_ground = 0.0  # the most a planted foot's target is off the ground (px)
        self.slid = 0.0  # the most a planted foot's target moved while it stayed planted (px)
        self.hand_drift = 0.0  # the most a hand's offset from the root changed in a step without a turn (px)

    def step(self) -> None:
        f = self.rig.fields
        feet, hands = feet_of(self.rig), hands_of(self.rig)
        was_planted = f["state"][feet] < 0.5
        before = f["targets"][feet].copy()
        offset = f["targets"][hands] - f["root"]
        facing = float(f["facing"][0])
        self.margins.append(rig_walk.margin(f))  # how far inside the edges this step keeps it
        self.scene.step()
        f = self.rig.fields
        planted = f["state"][feet] < 0.5
        ground = self.scene.terrain.height_at(f["targets"][feet, 0])
        self.off_ground = max(self.off_ground, np.abs(f["targets"][feet, 1] - ground)[planted].max(initial=0.0))
        if float(f["facing"][0]) == facing:
            still = was_planted & planted
            self.slid = max(self.slid, np.hypot(*(f["targets"][feet] - before)[still].T).max(initial=0.0))
            self.hand_drift = max(self.hand_drift, np.abs(f["targets"][hands] - f["root"] - offset).max(initial=0.0))
        self.lifted.append(set(f["gait"][feet][~planted].astype(int).tolist()))
        self.roots.append(f["root"].copy())
        self.errors.append(f["errors"].copy())
        self.facing.append(float(f["facing"][0]))

    def run(self, steps: int) -> Watch:
        for _ in range(steps):
            self.step()
        return self

    def reached(self) -> float:
        """The share of steps with every target within the tolerance."""
        return float(np.mean(np.array(self.errors).max(axis=1) <= self.rig.fields["tolerance"][0]))


@pytest.mark.parametrize("method", ["fabrik", "dls"])
@pytest.mark.parametrize("build", [humanoid_rig, quadruped_rig])
def test_a_rig_on_auto_walk_walks_back_and_forth_its_feet_planted_one_gait_group_up_at_a_time(build, method):
    scene, rig = standing(build, method=method)
    scene.set_setting(rig, "rig_walk", True)
    scene.step()  # its first walking step puts its planted feet on the ground under them
    watch = Watch(scene, rig).run(1200)
    x = np.array(watch.roots)[:, 0]
    turns = np.flatnonzero(np.diff(watch.facing)) + 1
    assert len(turns) >= 2 and {watch.facing[t] for t in turns} == {-1.0, 1.0}  # back and forth
    for t in turns:  # each turn just inside an edge, as far in as the rig reaches out
        assert min(x[t], STAGE[0] - x[t]) == pytest.approx(watch.margins[t], abs=1e-9)
    assert x.max() - x.min() > STAGE[0] - 2 * max(watch.margins) - 1.0  # (all the way across between them)
    assert watch.off_ground <= 0.5  # a planted foot's target on the ground
    assert watch.slid == 0.0  # and held exactly where it landed
    assert all(len(up) <= 1 for up in watch.lifted)  # one gait group lifts at a time
    assert sum(len(up) == 1 for up in watch.lifted) > 100  # (and they do step)
    assert {0, 1} <= set().union(*watch.lifted)
    assert watch.hand_drift <= 1e-9  # the other targets go along with the root
    assert watch.reached() >= 0.9  # measured: humanoid 0.974 / 0.959, quadruped 0.996 / 0.993 (FABRIK / DLS)
    assert_chain_ok(rig)


def test_a_walking_humanoids_shown_feet_stand_on_the_ground_when_their_targets_are_reached():
    scene, rig = standing()
    scene.set_setting(rig, "rig_walk", True)
    f = rig.fields
    feet = feet_of(rig)
    bones = f["target_bones"][feet].astype(int)
    near = []
    for _ in range(600):
        scene.step()
        f = rig.fields
        planted = (f["state"][feet] < 0.5) & (f["errors"][feet] <= 0.5)
        tips = f["points"][bones + 1][planted]
        near.extend(np.abs(tips[:, 1] - scene.terrain.height_at(tips[:, 0])).tolist())
    assert len(near) > 600 and max(near) <= 0.5 + 1e-9


def test_a_rig_standing_still_is_left_as_it_is():
    scene, rig = standing()
    for _ in range(60):
        scene.step()
    scene.move_target(rig, rig.fields["targets"][2] + (30.0, -40.0), "target:2")  # a foot lifted by hand
    targets, root = rig.fields["targets"].copy(), rig.fields["root"].copy()
    for _ in range(60):
        scene.step()
    np.testing.assert_array_equal(rig.fields["targets"], targets)
    np.testing.assert_array_equal(rig.fields["root"], root)
    assert not rig_walk.walking(scene.groups[0].fields).any()


@pytest.mark.parametrize("method", ["fabrik", "dls"])
def test_the_arrow_keys_walk_the_selected_rig_and_up_runs(method):
    scene, rig = standing(method=method)
    other = scene.add(humanoid_rig(standing_on=(800.0, float(scene.terrain.height_at(800.0)))))
    scene.select(rig)
    x0 = float(rig.fields["root"][0])
    for _ in range(60):
        assert scene.steer(False, -1) is rig
        scene.step()
    assert rig.fields["facing"][0] == -1.0 and x0 - float(rig.fields["root"][0]) > 60  # it turned and walked left
    assert rig.fields["velocity"][0] == pytest.approx(-rig.fields["speed"][0])
    for _ in range(60):
        scene.steer(True, -1)
        scene.step()
    assert rig.fields["velocity"][0] == pytest.approx(-2 * rig.fields["speed"][0])  # Up: twice the speed
    assert other.fields["velocity"][0] == 0.0 and other.fields["root"][0] == 800.0  # the other one stood still
    for _ in range(120):  # released: it slows to a stop, then stands
        scene.steer(False, 0)
        scene.step()
    assert rig.fields["velocity"][0] == 0.0
    root = rig.fields["root"].copy()
    scene.step()
    np.testing.assert_array_equal(rig.fields["root"], root)
    assert_chain_ok(rig)


def test_the_arrow_keys_drive_the_selected_rig_or_walker_else_the_only_walker_else_the_only_rig():
    scene, rig = standing()
    scene.select(None)
    assert scene.steer(False, 1) is rig and rig.fields["drive"][0] == 1.0
    strider = scene.new_chain("walker", (700.0, 300.0))
    scene.select(None)
    assert scene.steer(False, 1) is strider  # a walker and a rig, neither selected: the walker, as before rigs
    assert rig.fields["drive"][0] == 0.0
    scene.select(strider)
    assert scene.steer(False, -1) is strider and rig.fields["drive"][0] == 0.0
    scene.select(rig)
    assert scene.steer(False, -1) is rig and strider.fields["drive"][0] == 0.0


def test_a_turn_mirrors_the_rig_about_its_root():
    scene, rig = standing(x=600.0)
    for _ in range(30):
        scene.step()
    scene.select(rig)
    scene.steer(False, -1)
    f = rig.fields
    limits, rest = f["limits"].copy(), f["rest"].copy()
    scene.step()
    f = rig.fields
    assert f["facing"][0] == -1.0
    feet = feet_of(rig)
    np.testing.assert_array_equal(f["headings"][feet], np.pi)  # the flat feet point the other way
    np.testing.assert_allclose(f["limits"][1:], -limits[1:, ::-1])  # the knees bend the other way
    np.testing.assert_allclose(f["rest"][1:], -rest[1:])
    for _ in range(120):
        scene.step()
    assert f["errors"].max() <= 0.5 and f["velocity"][0] < 0  # and it walks on, facing the way it goes


def test_a_held_target_stays_where_it_is_put():
    scene, rig = standing()
    scene.set_setting(rig, "rig_walk", True)
    for _ in range(30):
        scene.step()
    hand = int(hands_of(rig)[0])
    f = rig.fields
    target_paths.hold(f, True, hand)
    where = f["targets"][hand].copy()
    for _ in range(30):
        scene.step()
    np.testing.assert_array_equal(rig.fields["targets"][hand], where)
    target_paths.hold(rig.fields, False, hand)
    offset = rig.fields["targets"][hand] - rig.fields["root"]
    scene.step()
    np.testing.assert_allclose(rig.fields["targets"][hand] - rig.fields["root"], offset, atol=1e-9)


def test_feet_rest_under_the_start_of_their_legs_and_a_new_rigs_steps_are_sized_to_its_legs():
    rig = humanoid_rig(height=300.0)
    f = rig.fields
    names = rig.bone_names
    feet = feet_of(rig)
    spots = rig_walk.rest_spots(f, feet)
    hips = f["points"][names.index("hips") + 1]
    np.testing.assert_allclose(spots[:, 0], hips[0] - f["root"][0] + 0.08 * 300.0, atol=1e-9)  # toes ahead
    leg = (0.24 + 0.23 + 0.08) * 300.0  # thigh, shin and foot
    assert rig_walk.leg_length(f["parents"], f["lengths"], f["target_bones"][feet]) == pytest.approx(leg)
    assert f["threshold"][0] == pytest.approx(rig_walk.STEP[0] * leg)
    assert f["step_height"][0] == pytest.approx(rig_walk.STEP[1] * leg)
    animal = quadruped_rig()
    starts = rig_walk.leg_starts(animal.fields["parents"].astype(int),
                                 animal.fields["target_bones"][feet_of(animal)].astype(int))
    assert [animal.bone_names[b] for b in starts] == ["pelvis", "chest", "pelvis", "chest"]
    assert animal.fields["gait"].tolist() == [0, 1, 1, 0]  # a trot


def test_a_walking_rig_saves_and_loads_and_a_rig_written_before_walking_existed_loads_standing(tmp_path):
    scene, rig = standing()
    scene.set_setting(rig, "rig_walk", True)
    scene.set_setting(rig, "rig_step_threshold", 30.0)
    scene.set_setting(rig, "walk_speed", 3.0)
    scene.flip(rig)
    line = json.loads(scene_to_text(scene).splitlines()[2].rstrip(","))
    assert line["auto_walk"] is True and line["facing"] == -1 and line["step_threshold"] == 30.0
    assert [t.get("gait") for t in line["targets"]] == [None, None, 0, 1]
    save_scene(scene, tmp_path / "w.json")
    loaded = load_scene(tmp_path / "w.json").chains[0]
    for name in ("auto", "threshold", "step_height", "speed", "facing", "gait"):
        np.testing.assert_allclose(loaded.fields[name], rig.fields[name], rtol=0, atol=5e-4, err_msg=name)  # 3 places
    old = {"solver": "rig", "root": [300, 400], "parents": [-1, 0], "bones": ["upper", "lower"],
           "lengths": [50, 50], "angles": [-90, 10], "targets": [{"bone": 1, "at": [330, 320]}]}
    bare = parse_scene('{"format": "ikplayground-scene", "version": 2, "chains": [' + json.dumps(old) + "]}")
    chain = bare.chains[0]
    assert chain.fields["auto"][0] == 0.0 and chain.fields["facing"][0] == 1.0 and chain.fields["gait"][0] == -1
    for bad, message in ((0.5, "must be a whole number"), (2, "must be between 0 and 1")):
        doc = dict(old, targets=[{"bone": 1, "at": [330, 320], "gait": bad}])
        with pytest.raises(SceneFileError, match=message):
            parse_scene('{"format": "ikplayground-scene", "version": 2, "chains": [' + json.dumps(doc) + "]}")
    with pytest.raises(SceneFileError, match="facing: must be 1 or -1"):
        parse_scene('{"format": "ikplayground-scene", "version": 2, "chains": [' + json.dumps(dict(old, facing=0))
                    + "]}")


def test_make_rig_checks_the_gait():
    with pytest.raises(ValueError, match="gait"):
        make_rig((0, 0), [-1, 0], [0.0, 0.0], [10.0, 10.0], [1], gait=[2])
    with pytest.raises(ValueError, match="gait"):
        make_rig((0, 0), [-1, 0], [0.0, 0.0], [10.0, 10.0], [1], gait=[0, 1])


def test_a_flip_turns_a_walking_rig_round_and_twice_gives_it_back():
    scene, rig = standing()
    scene.set_setting(rig, "rig_walk", True)
    for _ in range(40):
        scene.step()
    f = rig.fields
    before = {k: v.copy() for k, v in f.items()}
    scene.flip(rig)
    assert f["facing"][0] == -before["facing"][0] and f["velocity"][0] == -before["velocity"][0]
    scene.flip(rig)
    for name, value in before.items():
        assert f[name].tobytes() == value.tobytes(), name
    scene.flip(rig)
    x = float(f["root"][0])
    for _ in range(30):
        scene.step()
    assert float(rig.fields["root"][0]) < x  # it walks on the way it now faces


def test_the_ground_is_drawn_for_a_rig_with_feet_or_one_that_walks():
    scene, rig = standing()
    assert rig_walk.on_terrain(scene.groups[0])  # it has feet: it walks there when asked
    scene.move_chain(rig, (200.0, 200.0))  # in the air: the ground it would walk on stays drawn
    assert rig_walk.on_terrain(scene.groups[0])
    footless = Scene((980.0, 694.0))
    footless.add(make_rig((300.0, 300.0), [-1, 0], [0.0, 0.5], [40.0, 40.0], [1]))
    assert not rig_walk.on_terrain(footless.groups[0])  # no feet, not walking: no ground
    footless.select(footless.chains[0])
    footless.steer(False, 1)
    assert rig_walk.on_terrain(footless.groups[0])  # walking (its root glides): the ground shows
    footless.new_chain("walker", (700.0, 300.0))
    assert any(rig_walk.on_terrain(g) for g in footless.groups)


def test_walkers_walk_as_they_did_with_the_walk_factored_out():
    # walker.drive and walker.body_pose are walk_x and support_height now: a walker's walk, checked against a
    # plain restatement of the rules (the body moves by its eased velocity, clipped inside the edges)
    scene = Scene(STAGE)
    strider = scene.new_chain("walker", (300.0, 300.0))
    xs, vs = [], []
    for _ in range(400):
        scene.step()
        xs.append(float(strider.fields["body"][0]))
        vs.append(float(strider.fields["velocity"][0]))
    margin = walker.EDGE * float(walker.reach({k: v[None] for k, v in strider.fields.items()})[0])
    assert min(xs) >= margin - 1e-9 and max(xs) <= STAGE[0] - margin + 1e-9
    speed = float(strider.fields["speed"][0])
    assert max(abs(v) for v in vs) == pytest.approx(speed)
    steps = np.diff(vs)
    assert np.all((np.abs(steps) <= speed * walker.ACCEL + 1e-12) | (np.array(vs[1:]) == 0.0))


def record(scene: Scene, path, steps: int, script=None, replay=None) -> None:
    recorder = Recorder(path)
    driver = Replay(replay, scene) if replay is not None else None
    for k in range(steps):
        if driver is not None:
            scene.steer(False, 0)
            driver.drive(scene)
        elif script is not None:
            script(scene, k)
        scene.step()
        recorder.record(scene)
    recorder.close()


@pytest.mark.parametrize("method", ["fabrik", "dls"])
def test_a_replayed_walk_records_the_same_file_turns_and_all(tmp_path, method):
    scene, rig = standing(x=250.0, method=method, rate_limit=12.0)
    scene.add(quadruped_rig(standing_on=(550.0, float(scene.terrain.height_at(550.0))), auto=True))
    path = tmp_path / "s.json"
    save_scene(scene, path)

    def keys(scene: Scene, k: int) -> None:
        scene.select(scene.chains[0])
        scene.steer(k % 7 == 0, 1 if k < 90 else -1 if k < 200 else 0)  # right, then a turn left, then let go
        if 120 <= k < 140:
            scene.move_target(scene.chains[0], (300.0 - k, 300.0), "target:1")  # a hand dragged

    first = load_scene(path)
    record(first, tmp_path / "a.csv", 260, script=keys)
    second = load_scene(path)
    record(second, tmp_path / "b.csv", 260, replay=tmp_path / "a.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    for a, b in zip(first.chains, second.chains):
        np.testing.assert_array_equal(a.fields["angles"], b.fields["angles"])
        np.testing.assert_array_equal(a.fields["limits"], b.fields["limits"])
    with open(tmp_path / "a.csv", newline="") as fh:
        roots = [float(r[7]) for r in csv.reader(fh) if r[1] == "0" and r[3] == "0"]
    assert max(roots) - roots[0] > 100 and roots[-1] < max(roots) - 100  # it went right and came back
    assert first.chains[0].fields["facing"][0] == -1.0 and first.chains[1].fields["facing"][0] == -1.0  # both turned


def test_a_rig_too_wide_for_the_stage_to_turn_on_stands():
    scene = Scene((500.0, 694.0))  # the quadruped reaches out over 250 px from its root: its image would not fit
    rig = scene.add(quadruped_rig(standing_on=(250.0, float(scene.terrain.height_at(250.0))), auto=True))
    facing, root = [], rig.fields["root"].copy()
    for _ in range(30):
        scene.step()
        facing.append(float(rig.fields["facing"][0]))
    assert set(facing) == {1.0} and rig.fields["root"][0] == root[0] and rig.fields["velocity"][0] == 0.0
