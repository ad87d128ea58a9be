"""Animated targets (scene/step/target_paths.py): the paths, the edges, holding, the file, determinism."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.step import target_paths
from ikplayground.scene.step.target_paths import FIGURE_EIGHT_LENGTH, offsets

STAGE = (980.0, 720.0)
HEAD = '{"format": "ikplayground-scene", "version": 1, "chains": ['


def scene_with(solver="ccd", target=(500.0, 300.0), root=(490.0, 600.0)):
    scene = Scene(STAGE)
    chain = scene.new_chain(solver, root)
    scene.move_target(chain, target)
    return scene, chain


def moving(path, speed=2.0, size=80.0, solver="ccd", target=(500.0, 300.0)):
    scene, chain = scene_with(solver, target)
    chain = scene.set_setting(chain, "motion_speed", speed)
    chain = scene.set_setting(chain, "motion_size", size)
    chain = scene.set_setting(chain, "motion", path)
    return scene, chain


def target(chain):
    return chain.fields["target"].copy()


# --- the paths, analytically -----------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls"])
@pytest.mark.parametrize(("speed", "size"), [(2.0, 80.0), (7.5, 40.0), (0.3, 250.0)])
def test_a_circle_goes_round_the_spot_where_it_started_at_speed_px_per_step(solver, speed, size):
    scene, chain = moving("circle", speed, size, solver)
    centre = np.array((500.0, 300.0))
    for k in range(1, 121):
        scene.step()
        p = speed / size * k  # rad: speed px along a circle of radius size, each step
        np.testing.assert_allclose(target(chain), centre + size * np.array((math.cos(p), math.sin(p))),
                                   rtol=0, atol=1e-9)
    # step 1 went clockwise on screen (y down): from the right of the centre, down
    assert chain.fields["motion_phase"][0] == pytest.approx(math.fmod(speed / size * 120, 2 * math.pi))


@pytest.mark.slow
@pytest.mark.parametrize(("speed", "size"), [(2.0, 80.0), (5.0, 120.0)])
def test_a_figure_eight_is_the_documented_lissajous_through_its_start(speed, size):
    scene, chain = moving("figure-eight", speed, size)
    centre = np.array((500.0, 300.0))
    rate = 2 * math.pi * speed / (FIGURE_EIGHT_LENGTH * size)
    path = [target(chain)]
    steps = round(2 * FIGURE_EIGHT_LENGTH * size / speed)  # twice round
    for k in range(1, steps + 1):
        scene.step()
        p = rate * k
        np.testing.assert_allclose(target(chain), centre + (size * math.sin(p), size / 2 * math.sin(2 * p)),
                                   rtol=0, atol=1e-9)
        path.append(target(chain))
    np.testing.assert_array_equal(path[0], centre)  # it starts at its centre: no jump
    # the mean pace along the curve is the speed
    walked = np.hypot(*np.diff(np.array(path), axis=0).T).sum()
    assert walked / steps == pytest.approx(speed, rel=2e-3)


def test_the_figure_eight_length_is_its_curve_s():
    t = np.linspace(0.0, 2 * math.pi, 400_001)
    length = np.hypot(*np.diff(offsets(np.full_like(t, 3), t, np.ones_like(t)), axis=0).T).sum()
    assert FIGURE_EIGHT_LENGTH == pytest.approx(length, rel=1e-9)


def test_a_curve_off_the_stage_waits_at_the_edge():
    scene, chain = moving("circle", 10.0, 200.0, target=(900.0, 300.0))  # its right half is past x = 980
    xs = []
    for _ in range(130):
        scene.step()
        t = target(chain)
        assert 0.0 <= t[0] <= STAGE[0] and 0.0 <= t[1] <= STAGE[1]
        xs.append(t[0])
    assert max(xs) == STAGE[0] and min(xs) < 720.0


# --- bounce ------------------------------------------------------------------------------
def test_a_bounce_starts_down_right_at_its_speed():
    scene, chain = moving("bounce", 4.0)
    scene.step()
    np.testing.assert_allclose(target(chain) - (500.0, 300.0), 4.0 * np.array((math.cos(math.pi / 6), 0.5)),
                               rtol=0, atol=1e-12)


def test_a_bounce_turns_exactly_at_the_edge():
    scene, chain = moving("bounce", 10.0, target=(976.0, 300.0))
    chain.fields["motion_velocity"][:] = (10.0, 0.0)
    scene.step()  # 976 + 10 = 986 is 6 px past the edge: reflected back to 974, now heading left
    np.testing.assert_array_equal(target(chain), (974.0, 300.0))
    np.testing.assert_array_equal(chain.fields["motion_velocity"], (-10.0, 0.0))
    chain.fields["target"][:] = (3.0, 715.0)
    chain.fields["motion_velocity"][:] = (-6.0, 8.0)
    scene.step()  # past the left and the bottom edges at once: both turn
    np.testing.assert_array_equal(target(chain), (3.0, 717.0))
    np.testing.assert_array_equal(chain.fields["motion_velocity"], (6.0, -8.0))


@pytest.mark.slow
@given(x=st.floats(0.0, STAGE[0]), y=st.floats(0.0, STAGE[1]), heading=st.floats(-math.pi, math.pi),
       speed=st.floats(0.1, 300.0))
@settings(max_examples=40, deadline=None)
def test_a_bounce_stays_on_the_stage_at_its_speed_and_turns_only_at_edges(x, y, heading, speed):
    f = {"target": np.array([[x, y]]), "motion_velocity": target_paths.velocity(speed, heading)[None],
         "motion": np.array([[1.0]]), "held": np.zeros((1, 1))}
    edge = np.array(STAGE)
    for _ in range(40):
        before, v = f["target"][0].copy(), f["motion_velocity"][0].copy()
        target_paths.advance(f, STAGE)
        after, w = f["target"][0], f["motion_velocity"][0]
        assert np.all((after >= 0) & (after <= edge))
        assert np.hypot(*w) == pytest.approx(speed, rel=1e-12)
        crossed = (before + v < 0) | (before + v > edge)
        np.testing.assert_array_equal(w, np.where(crossed, -v, v))
        free = ~crossed
        np.testing.assert_allclose(after[free], (before + v)[free], rtol=0, atol=1e-9)


# --- settings -------------------------------------------------------------------------------
def test_speed_and_size_go_on_from_where_the_motion_is():
    scene, chain = moving("bounce", 3.0)
    chain.fields["motion_velocity"][:] = (0.0, -3.0)
    scene.set_setting(chain, "motion_speed", 6.0)
    np.testing.assert_allclose(chain.fields["motion_velocity"], (0.0, -6.0), atol=1e-12)  # its direction kept
    scene, chain = moving("circle", 2.0, 80.0)
    for _ in range(10):
        scene.step()
    scene.set_setting(chain, "motion_size", 120.0)
    scene.step()
    p = 2.0 / 80.0 * 10 + 2.0 / 120.0
    np.testing.assert_allclose(target(chain), (500.0 + 120 * math.cos(p), 300.0 + 120 * math.sin(p)), atol=1e-9)


def test_choosing_a_path_again_starts_it_where_the_target_is():
    scene, chain = moving("circle")
    for _ in range(25):
        scene.step()
    here = target(chain)
    scene.set_setting(chain, "motion", "figure-eight")
    np.testing.assert_array_equal(chain.fields["motion_centre"], here)
    assert chain.fields["motion_phase"][0] == 0.0
    scene.set_setting(chain, "motion", "none")
    for _ in range(5):
        scene.step()
    np.testing.assert_array_equal(target(chain), here)


def test_the_motion_goes_with_the_chain_through_edits_and_conversions():
    scene, chain = moving("figure-eight", 3.0, 60.0)
    for _ in range(7):
        scene.step()
    state = target_paths.read(chain.fields)
    chain = scene.set_setting(chain, "bones", 4)
    for solver in ("two-bone", "fabrik", "dls"):
        chain = scene.set_solver(chain, solver)
        now = target_paths.read(chain.fields)
        assert now.pop("path") == state["path"] and now.pop("centre") == pytest.approx(state["centre"], abs=1e-9)
        assert now == pytest.approx({k: v for k, v in state.items() if k not in ("path", "centre")}, abs=1e-12)
    chain = scene.set_solver(chain, "snake")
    chain = scene.set_solver(chain, "ccd")  # a snake has no target: none again
    assert target_paths.read(chain.fields)["path"] == "none"


def test_a_chain_moved_by_its_root_takes_its_curve_along():
    scene, chain = moving("circle")
    for _ in range(5):
        scene.step()
    centre = chain.fields["motion_centre"].copy()
    scene.move_chain(chain, chain.fields["root"] + (-30.0, -10.0))
    np.testing.assert_allclose(chain.fields["motion_centre"], centre + (-30.0, -10.0), atol=1e-12)


# --- holding the target -------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["circle", "figure-eight", "bounce"])
def test_a_held_target_waits_and_resumes_from_where_it_is_let_go(path):
    scene, chain = moving(path, 3.0, 70.0)
    for _ in range(10):
        scene.step()
    phase, v = chain.fields["motion_phase"][0], chain.fields["motion_velocity"].copy()
    target_paths.hold(chain.fields, True)
    for pos in ((300.0, 200.0), (320.5, 210.25), (350.0, 400.0)):
        scene.move_target(chain, pos)
        scene.step()
        np.testing.assert_array_equal(target(chain), pos)  # the hand has it
    target_paths.hold(chain.fields, False)
    scene.step()
    if path == "bounce":
        np.testing.assert_allclose(target(chain), np.array((350.0, 400.0)) + v, atol=1e-12)
        return
    code = target_paths.PATHS.index(path)
    step = target_paths.phase_rate(code, 3.0, 70.0)
    expected = np.array((350.0, 400.0)) + offsets(code, phase + step, 70.0) - offsets(code, phase, 70.0)
    np.testing.assert_allclose(target(chain), expected, atol=1e-9)


# --- determinism and the file ------------------------------------------------------------------
def busy_scene() -> Scene:
    scene = Scene(STAGE)
    for i, (solver, path) in enumerate([("ccd", "circle"), ("ccd", "bounce"), ("fabrik", "figure-eight"),
                                        ("two-bone", "bounce"), ("dls", "circle"), ("ccd", "none")]):
        chain = scene.new_chain(solver, (120.0 + 140 * i, 650.0))
        scene.set_setting(chain, "motion_speed", 1.5 + i)
        scene.set_setting(chain, "motion_size", 40.0 + 15 * i)
        scene.set_setting(chain, "motion", path)
    scene.new_chain("snake", (500.0, 100.0))
    return scene


def poses(scene):
    return [c.fields["points"].copy() for c in scene.chains] + [c.fields["target"].copy()
                                                                for c in scene.chains if not c.is_snake]


@pytest.mark.slow
def test_the_same_file_and_the_same_steps_give_the_same_poses_bit_for_bit():
    scene = busy_scene()
    for _ in range(33):
        scene.step()
    text = scene_file.scene_to_text(scene)
    runs = []
    for _ in range(2):
        loaded = scene_file.parse_scene(text)
        loaded.resize(STAGE)
        for _ in range(200):
            loaded.step()
        runs.append(poses(loaded))
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.slow
def test_a_chain_moves_the_same_alone_as_in_a_group():
    crowd = busy_scene()
    alone = Scene(STAGE)
    chain = alone.add(build.make_ik_chain("ccd", (400.0, 650.0), np.r_[-math.pi / 2, np.zeros(6)], np.full(7, 36.0),
                                          (470.0, 500.0)))
    twin = crowd.add(build.make_ik_chain("ccd", (400.0, 650.0), np.r_[-math.pi / 2, np.zeros(6)], np.full(7, 36.0),
                                         (470.0, 500.0)))
    for s, c in ((alone, chain), (crowd, twin)):
        s.set_setting(c, "motion", "figure-eight")
        for _ in range(90):
            s.step()
    np.testing.assert_array_equal(chain.fields["target"], twin.fields["target"])
    np.testing.assert_array_equal(chain.fields["points"], twin.fields["points"])


@pytest.mark.slow
def test_a_saved_motion_loads_and_goes_on_where_it_was():
    scene = busy_scene()
    for _ in range(41):
        scene.step()
    text = scene_file.scene_to_text(scene)
    assert '"motion": {"path": "circle", "speed": 1.5, "size": 40.0, "centre": [' in text
    loaded = scene_file.parse_scene(text)
    for a, b in zip(scene.chains, loaded.chains):
        if a.is_snake:
            continue
        sa, sb = target_paths.read(a.fields), target_paths.read(b.fields)
        assert (sb["path"], sb["speed"], sb["size"]) == (sa["path"], sa["speed"], sa["size"])
    for _ in range(30):
        scene.step()
        loaded.step()
    for a, b in zip(scene.chains, loaded.chains):
        if not a.is_snake:
            np.testing.assert_allclose(b.fields["target"], a.fields["target"], atol=0.01)
    assert '"motion"' not in scene_file.scene_to_text(scene_with()[0])  # none at the defaults: not written


def test_a_file_s_motion_without_its_state_starts_where_the_target_is():
    d = {"solver": "ccd", "root": [300, 600], "lengths": [60, 60], "angles": [-90, 0], "target": [320, 450],
         "motion": {"path": "circle", "speed": 2.0, "size": 80}}
    scene = scene_file.parse_scene(HEAD + json.dumps(d) + "]}")
    scene.resize(STAGE)
    scene.step()
    p = 2.0 / 80.0
    np.testing.assert_allclose(scene.chains[0].fields["target"], (320 + 80 * math.cos(p), 450 + 80 * math.sin(p)),
                               atol=1e-9)


BAD = [
    ("circle", 'chains[0].motion: must be an object such as {"path": "circle", "speed": 2, "size": 80} '
               '(got "circle")'),
    ({"speed": 2}, "chains[0].motion: missing field 'path'"),
    ({"path": "spiral"}, "chains[0].motion.path: must be one of none, bounce, circle, figure-eight (got 'spiral')"),
    ({"path": 3}, "chains[0].motion.path: must be one of none, bounce, circle, figure-eight (got 3)"),
    ({"path": "circle", "speed": 0}, "chains[0].motion.speed: must be > 0 (got 0)"),
    ({"path": "circle", "speed": 1001}, "chains[0].motion.speed: must be <= 1000 (got 1001)"),
    ({"path": "bounce", "speed": "fast"}, 'chains[0].motion.speed: must be a number (got "fast")'),
    ({"path": "circle", "size": -5}, "chains[0].motion.size: must be >= 1 (got -5)"),
    ({"path": "circle", "size": 10001}, "chains[0].motion.size: must be <= 10000 (got 10001)"),
    ({"path": "circle", "centre": [1, 2, 3]}, "chains[0].motion.centre: must have 2 entries (got 3)"),
    ({"path": "circle", "centre": [1, 2e6]}, "chains[0].motion.centre[1]: must be <= 1000000 (got 2000000)"),
    ({"path": "circle", "phase": True}, "chains[0].motion.phase: must be a number (got true)"),
    ({"path": "bounce", "heading": [30]}, "chains[0].motion.heading: must be a number (got [30])"),
]


@pytest.mark.parametrize(("motion", "message"), BAD, ids=[m for _, m in BAD])
def test_a_bad_motion_is_refused_naming_the_place_and_the_scene_stays(tmp_path, motion, message):
    scene = busy_scene()
    path = tmp_path / "s.json"
    scene_file.save_scene(scene, path)
    before = path.read_text(encoding="utf-8")
    d = {"solver": "ccd", "root": [300, 600], "lengths": [60, 60], "angles": [-90, 0], "target": [320, 450],
         "motion": motion}
    bad = tmp_path / "bad.json"
    bad.write_text(HEAD + json.dumps(d) + "]}", encoding="utf-8")
    shown = poses(scene)
    with pytest.raises(scene_file.SceneFileError) as e:
        scene_file.load_scene(bad)
    assert str(e.value) == f"{bad.name}: {message}"
    for a, b in zip(shown, poses(scene)):
        np.testing.assert_array_equal(a, b)
    assert path.read_text(encoding="utf-8") == before == scene_file.scene_to_text(scene) + "\n"


@pytest.mark.parametrize("motion", [None, {"path": "none"}, {"path": "bounce", "speed": 5, "heading": -45},
                                    {"path": "circle", "speed": 2.5, "size": 30, "centre": [1, 2], "phase": 90},
                                    {"path": "figure-eight", "size": 1, "later": [1]}])
def test_a_good_motion_loads_with_its_path(motion):
    d = {"solver": "fabrik", "root": [300, 600], "lengths": [60, 60], "angles": [-90, 0], "target": [320, 450],
         "motion": motion}
    chain = scene_file.parse_scene(HEAD + json.dumps(d) + "]}").chains[0]
    assert target_paths.PATHS[int(chain.fields["motion"][0])] == (motion or {"path": "none"})["path"]
