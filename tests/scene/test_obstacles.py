"""The scene's circle obstacles (scene/core/obstacles.py): edits, the stage, undo, the scene file."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene import (DEFAULT_RADIUS, MAX_OBSTACLES, MAX_RADIUS, MIN_RADIUS, History, Scene,
                                SceneFileError, load_scene, make_ik_chain, record_obstacles, save_scene)
from ikplayground.scene.files.scene_file import parse_scene, scene_to_text
from ikplayground.solvers import forward_kinematics, segment_gaps

STAGE = (980.0, 720.0)
HEAD = '{"format": "ikplayground-scene", "version": 1, "chains": []'


def with_obstacles(*rows) -> Scene:
    scene = Scene(STAGE)
    scene.set_obstacles(np.array(rows, dtype=float).reshape(-1, 3))
    return scene


# --- the model -----------------------------------------------------------------------------------------------
def test_a_scene_starts_with_no_obstacles_and_its_array_cannot_be_written():
    scene = Scene(STAGE)
    assert scene.obstacles.shape == (0, 3) and scene.obstacles.dtype == np.float64
    scene.add_obstacle((100.0, 200.0))
    with pytest.raises(ValueError):
        scene.obstacles[0, 2] = 5.0  # only the edits change it
    assert Scene(STAGE).obstacles.shape == (0, 3)  # another scene's are its own


def test_an_edit_puts_a_new_array_and_leaves_the_old_one_as_it_was():
    scene = with_obstacles([100, 100, 30])
    before = scene.obstacles
    scene.move_obstacle(0, (150.0, 120.0))
    assert before.tolist() == [[100.0, 100.0, 30.0]]
    assert scene.obstacles.tolist() == [[150.0, 120.0, 30.0]]


def test_add_at_a_point_pulls_it_onto_the_stage_and_keeps_it_to_the_files_decimals():
    scene = Scene(STAGE)
    assert scene.add_obstacle((123.456789, 50.0)) == 0
    assert scene.add_obstacle((2000.0, -40.0), radius=55.5) == 1
    assert scene.obstacles.tolist() == [[123.457, 50.0, DEFAULT_RADIUS], [980.0, 0.0, 55.5]]


@pytest.mark.parametrize("radius, kept", [(1.0, MIN_RADIUS), (1000.0, MAX_RADIUS), (77.7777, 77.778),
                                          (math.nan, DEFAULT_RADIUS)])
def test_a_radius_is_kept_within_its_range(radius, kept):
    scene = Scene(STAGE)
    scene.add_obstacle((10.0, 10.0), radius)
    scene.add_obstacle((10.0, 10.0))
    scene.resize_obstacle(1, radius)
    assert scene.obstacles[:, 2].tolist() == [kept, kept]


def test_add_without_a_point_finds_a_spot_clear_of_the_chains_and_the_other_obstacles():
    scene = Scene(STAGE)
    for root in ((200.0, 600.0), (500.0, 600.0), (800.0, 600.0)):
        scene.add(make_ik_chain("ccd", root, np.full(5, -math.pi / 10), np.full(5, 40.0), (root[0], 420.0)))
    for _ in range(6):
        i = scene.add_obstacle()
        x, y, r = scene.obstacles[i]
        assert 0 <= x <= STAGE[0] and 0 <= y <= STAGE[1]
        for c in scene.chains:
            gaps = segment_gaps(c.fields["points"], scene.obstacles[i:i + 1])
            assert gaps.min() > 0.0 and math.dist((x, y), c.fields["target"]) > r  # no bone, no target in it
        others = np.delete(scene.obstacles, i, axis=0)
        assert np.all(np.hypot(others[:, 0] - x, others[:, 1] - y) >= others[:, 2] + r)  # nor another circle


def test_a_full_scene_refuses_another_obstacle_and_is_left_as_it_was():
    scene = Scene(STAGE)
    for k in range(MAX_OBSTACLES):
        scene.add_obstacle((10.0 * k, 10.0))
    before = scene.obstacles
    with pytest.raises(ValueError, match=f"at most {MAX_OBSTACLES} obstacles"):
        scene.add_obstacle()
    assert scene.obstacles is before


def test_remove_gives_back_its_row_and_keeps_the_others_in_order():
    scene = with_obstacles([10, 10, 10], [20, 20, 20], [30, 30, 30])
    assert scene.remove_obstacle(1).tolist() == [20.0, 20.0, 20.0]
    assert scene.obstacles.tolist() == [[10.0, 10.0, 10.0], [30.0, 30.0, 30.0]]


def test_obstacle_at_picks_the_topmost_its_rim_to_resize_and_its_inside_to_move():
    scene = with_obstacles([100, 100, 50], [130, 100, 40])  # the second drawn over the first
    assert scene.obstacle_at((130.0, 100.0), 6.0) == (1, "inside")
    assert scene.obstacle_at((170.0 + 5.0, 100.0), 6.0) == (1, "rim")  # 5 px outside its edge
    assert scene.obstacle_at((55.0, 100.0), 6.0) == (0, "rim")
    assert scene.obstacle_at((80.0, 100.0), 6.0) == (0, "inside")
    assert scene.obstacle_at((300.0, 300.0), 6.0) is None
    assert Scene(STAGE).obstacle_at((0.0, 0.0), 6.0) is None


@pytest.mark.parametrize("rows, message", [
    ([[1, 2]], r"^obstacles: expected rows \(x, y, r\)"),
    ([[1, 2, 30], [1, 2, -3]], r"^obstacles\[1\]: the radius must be > 0 px, got -3"),
    ([[1, 2, 3]], r"^obstacles\[0\]: the radius must be 8 to 300 px, got 3"),
    ([[1, 2, 301]], r"^obstacles\[0\]: the radius must be 8 to 300 px, got 301"),
    ([[1, 2e6, 30]], r"^obstacles\[0\]: the centre must lie within"),
    ([[1, math.inf, 30]], r"^obstacles.*finite"),
    ([[1, 2, 30]] * (MAX_OBSTACLES + 1), rf"at most {MAX_OBSTACLES} obstacles"),
])
def test_set_obstacles_refuses_a_bad_row_naming_it_and_changes_nothing(rows, message):
    scene = with_obstacles([100, 100, 50])
    before = scene.obstacles
    with pytest.raises(ValueError, match=message):
        scene.set_obstacles(rows)
    assert scene.obstacles is before


def test_a_shrinking_stage_pushes_the_centres_in_and_a_growing_one_takes_them_back():
    scene = with_obstacles([900, 650, 40], [100, 100, 30])
    scene.resize((500.0, 400.0))
    assert scene.obstacles.tolist() == [[500.0, 400.0, 40.0], [100.0, 100.0, 30.0]]
    scene.resize((700.0, 500.0))  # still too small for it: as far as the stage allows
    assert scene.obstacles.tolist() == [[700.0, 500.0, 40.0], [100.0, 100.0, 30.0]]
    scene.resize(STAGE)
    assert scene.obstacles.tolist() == [[900.0, 650.0, 40.0], [100.0, 100.0, 30.0]]
    scene.resize((500.0, 400.0))
    scene.move_obstacle(1, (50.0, 60.0))  # an edit meanwhile: where they are now is where they belong
    scene.resize(STAGE)
    assert scene.obstacles.tolist() == [[500.0, 400.0, 40.0], [50.0, 60.0, 30.0]]


def test_a_stage_of_odd_size_keeps_a_centre_on_it_whatever_the_rounding():
    scene = with_obstacles([100, 100, 30])
    scene.resize((20.4375, 20.0))
    assert scene.obstacles[0, 0] <= 20.4375 and scene.obstacles[0, 0] == 20.437


# --- undo ------------------------------------------------------------------------------------------------------
def test_each_edit_is_an_undo_entry_that_puts_the_rows_back_exactly():
    scene, history = Scene(STAGE), History()
    states = [scene.obstacles]
    edits = [lambda: scene.add_obstacle((100.0, 100.0)), lambda: scene.add_obstacle(),
             lambda: scene.move_obstacle(0, (300.5, 200.25)), lambda: scene.resize_obstacle(1, 120.0),
             lambda: scene.remove_obstacle(0)]
    for k, edit in enumerate(edits):
        before = scene.obstacles
        edit()
        history.push(record_obstacles(scene, f"edit {k}", before))
        states.append(scene.obstacles)
    for state in reversed(states[:-1]):
        history.undo()
        assert np.array_equal(scene.obstacles, state)
    for state in states[1:]:
        history.redo()
        assert np.array_equal(scene.obstacles, state)


def test_no_change_is_no_entry_and_an_undo_after_a_shrink_keeps_them_on_the_stage():
    scene = with_obstacles([900, 600, 40])
    assert record_obstacles(scene, "nothing", scene.obstacles) is None
    before = scene.obstacles
    scene.remove_obstacle(0)
    edit = record_obstacles(scene, "obstacle 1 removed", before)
    scene.resize((400.0, 300.0))
    edit.undo()
    assert scene.obstacles.tolist() == [[400.0, 300.0, 40.0]]


# --- the scene file ----------------------------------------------------------------------------------------------
rows = st.lists(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.floats(MIN_RADIUS, MAX_RADIUS)),
                max_size=MAX_OBSTACLES)


@settings(max_examples=60, deadline=None)
@given(rows=rows)
def test_obstacles_save_and_load_back_exactly(rows):
    scene = Scene(STAGE)
    scene.set_obstacles(np.array(rows, dtype=float).reshape(-1, 3))
    text = scene_to_text(scene)
    loaded = parse_scene(text, "scene.json", STAGE)
    assert loaded.obstacles.tobytes() == scene.obstacles.tobytes()
    assert scene_to_text(loaded) == text
    assert ('"obstacles"' in text) == bool(rows)


def test_a_scene_without_obstacles_is_written_as_before(tmp_path):
    scene = Scene(STAGE)
    scene.new_chain("fabrik", (300.0, 500.0))
    plain = scene_to_text(scene)
    scene.add_obstacle((50.0, 50.0))
    assert scene_to_text(scene) == plain[:-1] + ',\n "obstacles": [[50.0, 50.0, 40.0]]}'
    scene.remove_obstacle(0)
    assert scene_to_text(scene) == plain and "obstacles" not in plain


def test_a_saved_file_keeps_them_with_the_view_and_the_terrain(tmp_path):
    scene = Scene(STAGE)
    scene.add(make_ik_chain("two-bone", (400.0, 400.0), [-1.0, 1.0], [120.0, 100.0], (500.0, 300.0)))
    scene.add_obstacle((600.5, 420.25), 45.0)
    scene.add_obstacle((330.0, 250.0), 60.0)
    scene.view = {"origin": [10.0, 20.0], "zoom": 1.5}
    path = tmp_path / "s.json"
    save_scene(scene, path)
    loaded = load_scene(path, STAGE)
    assert np.array_equal(loaded.obstacles, scene.obstacles) and loaded.view == scene.view
    assert loaded.obstacles.flags.writeable is False


@pytest.mark.parametrize("value, message", [
    ("[[1, 2, -3]]", "obstacles[0]: the radius must be > 0 px, got -3"),
    ("[[1, 2, 30], [1, 2, 500]]", "obstacles[1]: the radius must be 8 to 300 px, got 500"),
    ("[[1, 2]]", "obstacles[0]: must have 3 entries (got 2)"),
    ('[[1, 2, "30"]]', 'obstacles[0][2]: must be a number (got "30")'),
    ("[[1, 2000000, 30]]", "obstacles[0][1]: must be <= 1000000 (got 2000000)"),
    ("[[1, 2, NaN]]", "obstacles[0][2]: must be a finite number (got NaN)"),
    ("{}", "obstacles: must be a list (got an object)"),
    (str([[1, 2, 30]] * (MAX_OBSTACLES + 1)), f"obstacles: must have at most {MAX_OBSTACLES} entries"),
])
def test_a_bad_obstacle_in_a_file_is_one_line_naming_it(value, message):
    with pytest.raises(SceneFileError) as info:
        parse_scene(HEAD + f', "obstacles": {value}}}', "scene.json")
    text = str(info.value)
    assert text.startswith(f"scene.json: {message}") and "\n" not in text


def test_null_or_an_empty_list_is_no_obstacles():
    for value in ("null", "[]"):
        assert parse_scene(HEAD + f', "obstacles": {value}}}').obstacles.shape == (0, 3)


def test_a_pose_inside_an_obstacle_is_what_segment_gaps_call_inside():
    # the model's circles are the solvers' rows: a bone through a centre is inside, one clear of it is not
    scene = with_obstacles([200, 100, 30])
    points = forward_kinematics((100.0, 100.0), [0.0, 0.0], [80.0, 80.0])
    assert segment_gaps(points, scene.obstacles).min() < 0.0
    points = forward_kinematics((100.0, 100.0), [-math.pi / 2, 0.0], [80.0, 80.0])
    assert segment_gaps(points, scene.obstacles).min() > 0.0
