"""Scene files (docs/scene-format.md, format version 1): round trip, format, errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.files.scene_file import SceneFileError, load_scene, save_scene
from tests.scene.scene_cases import assert_scene_ok, wrap

PI = math.pi
POS_TOL = 5e-4 + 1e-9  # positions are written to 3 decimals
DEG_TOL = 5e-5 + 1e-9  # angles to 4 decimals of a degree

# The example scene of the design's "Scene files" section, verbatim.
DESIGN_EXAMPLE = """
{"format": "ikplayground-scene", "version": 1,
 "chains": [
  {"solver": "two-bone", "root": [300, 400], "lengths": [120, 100],
   "angles": [-40.0, 70.0], "target": [480, 330], "mirror": false, "rate_limit": 3.0},
  {"solver": "ccd", "root": [700, 600], "lengths": [50, 50, 50, 50, 50, 50],
   "angles": [-90, 0, 0, 0, 0, 0], "target": [760, 380], "rate_limit": null,
   "limits": [[-180, 180], [-45, 45], [-45, 45], [-45, 45], [-45, 45], [-45, 45]],
   "iterations": 10, "tolerance": 0.5},
  {"solver": "snake", "points": [[500, 200], [460, 200], [420, 200]],
   "lengths": [40, 40], "heading": 0.0, "bend_limits": [-30, 30],
   "max_speed": 10, "turn_rate": 5}
 ]}
"""

_ITERATIVE_KEYS = {"solver", "number", "root", "lengths", "angles", "target", "rate_limit", "rate_limit_setting",
                   "limits", "iterations", "tolerance", "mix"}
DOCUMENTED_KEYS = {  # what a chain without a pole, auto bend or shown limits writes (those only when set)
    "two-bone": {"solver", "number", "root", "lengths", "angles", "target", "mirror", "rate_limit",
                 "rate_limit_setting", "softness", "stretch", "mix"},
    "ccd": _ITERATIVE_KEYS,
    "fabrik": _ITERATIVE_KEYS,
    "dls": _ITERATIVE_KEYS | {"damping"},
    "snake": {"solver", "number", "points", "lengths", "heading", "bend_limits", "max_speed", "turn_rate"},
}

TMP_FIXTURE = settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- strategies ---------------------------------------------------------------------
coord = st.floats(-200.0, 1200.0)
point = st.tuples(coord, coord)
length = st.floats(1.0, 200.0)
limit_value = st.floats(-PI + 1e-4, PI)


@st.composite
def limit_pairs(draw):
    a, b = draw(limit_value), draw(limit_value)
    return (min(a, b), max(a, b))


@st.composite
def ik_chains(draw):
    solver = draw(st.sampled_from(["two-bone", "ccd", "fabrik", "dls"]))
    n = 2 if solver == "two-bone" else draw(st.integers(1, 10))
    lengths = draw(st.lists(length, min_size=n, max_size=n))
    if solver == "two-bone":
        limits = np.array([(-PI, PI)] * n)
    else:
        limits = np.array([(-PI, PI)] + draw(st.lists(limit_pairs(), min_size=n - 1, max_size=n - 1)))
    u = draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n))
    angles = limits[:, 0] + np.array(u) * (limits[:, 1] - limits[:, 0])
    angles[0] = draw(st.floats(-PI + 1e-4, PI))
    rate = draw(st.one_of(st.none(), st.floats(0.01, 180.0)))
    return build.make_ik_chain(
        solver, draw(point), angles, lengths, draw(point), limits=limits,
        mirror=draw(st.booleans()) if solver == "two-bone" else False, rate_limit=rate,
        iterations=draw(st.integers(1, 1000)), tolerance=draw(st.floats(0.0, 100.0)))


@st.composite
def snakes(draw):
    n = draw(st.integers(1, 12))
    head = np.array(draw(point))
    segs = draw(st.lists(st.tuples(st.floats(1.0, 80.0), st.floats(-PI, PI)), min_size=n, max_size=n))
    pts = [head]
    for seg, ang in segs:
        pts.append(pts[-1] + seg * np.array([math.cos(ang), math.sin(ang)]))
    lo, hi = draw(limit_pairs())
    return build.make_snake(np.array(pts), heading=draw(st.floats(-PI + 1e-4, PI)), bend_limits=(lo, hi),
                            max_speed=draw(st.floats(0.0, 1000.0)), turn_deg=draw(st.floats(0.0, 180.0)))


scenes_chains = st.lists(st.one_of(ik_chains(), snakes()), min_size=0, max_size=6)


def scene_of(chains) -> Scene:
    scene = Scene()
    for c in chains:
        scene.add(c, select=False)
    return scene


def assert_same_chain(a, b):
    """``b`` is ``a`` read back from its file: equal to the file's rounding."""
    fa, fb = a.fields, b.fields
    assert b.solver == a.solver
    np.testing.assert_allclose(fb["lengths"], fa["lengths"], rtol=0, atol=POS_TOL)
    if a.is_snake:
        np.testing.assert_allclose(fb["points"], fa["points"], rtol=0, atol=POS_TOL)
        for name in ("heading", "bend_limits", "turn_rate"):
            np.testing.assert_allclose(np.degrees(wrap(fb[name] - fa[name])), 0.0, atol=DEG_TOL, err_msg=name)
        np.testing.assert_allclose(fb["max_speed"], fa["max_speed"], rtol=0, atol=POS_TOL)
        return
    np.testing.assert_allclose(fb["root"], fa["root"], rtol=0, atol=POS_TOL)
    np.testing.assert_allclose(fb["target"], fa["target"], rtol=0, atol=POS_TOL)
    np.testing.assert_allclose(np.degrees(wrap(fb["angles"] - fa["angles"])), 0.0, atol=DEG_TOL, err_msg="angles")
    np.testing.assert_allclose(np.degrees(fb["limits"]), np.degrees(fa["limits"]), rtol=0, atol=DEG_TOL)
    if a.rate_limit is None:
        assert b.rate_limit is None
    else:
        assert b.rate_limit == pytest.approx(a.rate_limit, abs=DEG_TOL)
    if a.solver == "two-bone":
        assert b.mirror == a.mirror
    else:
        assert b.iterations == a.iterations
        assert b.tolerance == pytest.approx(a.tolerance, abs=5e-5 + 1e-12)


# --- round trip ---------------------------------------------------------------------
@pytest.mark.slow
@given(scenes_chains)
@TMP_FIXTURE
def test_save_then_load_gives_the_same_scene(tmp_path, chains):
    scene = scene_of(chains)
    path = tmp_path / "round-trip.json"
    save_scene(scene, path)
    loaded = load_scene(path)
    assert len(loaded.chains) == len(scene.chains)
    for a, b in zip(scene.chains, loaded.chains):
        assert_same_chain(a, b)
    assert loaded.selected is (loaded.chains[0] if loaded.chains else None)
    # a second save of what was loaded writes the same file
    save_scene(loaded, path)
    again = load_scene(path)
    assert scene_file.scene_to_text(again) == scene_file.scene_to_text(loaded)
    # and what was loaded is a working scene (a snake's rounded nodes settle in one step)
    loaded.step()
    assert_scene_ok(loaded)


def test_a_played_scene_round_trips(tmp_path):
    scene = default_scene()
    scene.new_chain("fabrik", (300.0, 700.0)).rate_limit = None
    scene.chains[0].mirror = True
    scene.chains[1].set_joint_limit(20.0)
    scene.chains[1].iterations = 25
    scene.chains[1].tolerance = 0.125
    for i in range(40):
        scene.steer(True, (0, 1)[i % 2])
        scene.step()
    path = tmp_path / "played.json"
    save_scene(scene, path)
    loaded = load_scene(path)
    for a, b in zip(scene.chains, loaded.chains, strict=True):
        assert_same_chain(a, b)
    for _ in range(5):
        loaded.step()
    assert_scene_ok(loaded)


# --- the format ---------------------------------------------------------------------
def strict_json(text: str):
    def no_constants(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=no_constants)


def test_the_saved_text_is_the_documented_json(tmp_path):
    scene = default_scene()
    scene.new_chain("fabrik", (300.0, 700.0))
    scene.chains[1].rate_limit = None
    path = tmp_path / "format.json"
    save_scene(scene, path)
    doc = strict_json(path.read_text(encoding="utf-8"))
    assert doc["format"] == "ikplayground-scene"
    assert doc["version"] == 1 and type(doc["version"]) is int
    assert [d["solver"] for d in doc["chains"]] == [c.solver for c in scene.chains]
    for d, c in zip(doc["chains"], scene.chains):
        assert set(d) == DOCUMENTED_KEYS[c.solver], c.solver
        f = c.fields
        assert d["lengths"] == pytest.approx(f["lengths"].tolist(), abs=POS_TOL)
        if c.is_snake:  # degrees, not radians
            np.testing.assert_allclose(d["points"], f["points"], rtol=0, atol=POS_TOL)
            assert d["heading"] == pytest.approx(math.degrees(f["heading"][0]), abs=DEG_TOL)
            assert d["bend_limits"] == pytest.approx([-30.0, 30.0], abs=DEG_TOL)
            assert d["turn_rate"] == pytest.approx(5.0, abs=DEG_TOL)
            assert d["max_speed"] == pytest.approx(10.0)
            continue
        assert d["root"] == pytest.approx(f["root"].tolist(), abs=POS_TOL)
        assert d["target"] == pytest.approx(f["target"].tolist(), abs=POS_TOL)
        assert d["angles"] == pytest.approx(np.degrees(f["angles"]).tolist(), abs=DEG_TOL)
        if c.rate_limit is None:
            assert d["rate_limit"] is None
        else:
            assert d["rate_limit"] == pytest.approx(3.0)
        if c.solver == "two-bone":
            assert d["mirror"] is False
        else:
            np.testing.assert_allclose(d["limits"], np.degrees(f["limits"]), rtol=0, atol=DEG_TOL)
            assert d["limits"][0] == [-180.0, 180.0] and d["limits"][1] == [-45.0, 45.0]
            assert d["iterations"] == 10 and type(d["iterations"]) is int
            assert d["tolerance"] == pytest.approx(0.5)
    assert doc["chains"][1]["rate_limit"] is None


def test_an_empty_scene_is_a_valid_file(tmp_path):
    path = tmp_path / "empty.json"
    save_scene(Scene(), path)
    assert strict_json(path.read_text(encoding="utf-8")) == {"format": "ikplayground-scene", "version": 1, "chains": []}
    loaded = load_scene(path)
    assert loaded.chains == [] and loaded.selected is None


def test_the_design_example_loads(tmp_path):
    path = tmp_path / "design.json"
    path.write_text(DESIGN_EXAMPLE, encoding="utf-8")
    scene = load_scene(path)
    arm, ccd, snake = scene.chains
    assert (arm.solver, ccd.solver, snake.solver) == ("two-bone", "ccd", "snake")
    np.testing.assert_array_equal(arm.fields["root"], (300, 400))
    np.testing.assert_array_equal(arm.fields["lengths"], (120, 100))
    np.testing.assert_allclose(arm.fields["angles"], np.radians([-40.0, 70.0]))
    np.testing.assert_array_equal(arm.fields["target"], (480, 330))
    assert arm.mirror is False and arm.rate_limit == pytest.approx(3.0)
    np.testing.assert_array_equal(ccd.fields["lengths"], np.full(6, 50.0))
    np.testing.assert_allclose(ccd.fields["angles"], np.radians([-90, 0, 0, 0, 0, 0]))
    np.testing.assert_allclose(ccd.fields["limits"][1:], np.radians([[-45, 45]] * 5))
    assert ccd.rate_limit is None and ccd.iterations == 10 and ccd.tolerance == 0.5
    np.testing.assert_array_equal(snake.fields["points"], [[500, 200], [460, 200], [420, 200]])
    np.testing.assert_allclose(snake.fields["bend_limits"], np.radians([-30, 30]))
    assert snake.fields["max_speed"][0] == 10
    assert snake.fields["turn_rate"][0] == pytest.approx(math.radians(5))
    assert scene.selected is arm
    # the CCD chain's points follow from its angles: straight up from the root
    np.testing.assert_allclose(ccd.tip, (700, 300), atol=1e-9)


def test_unknown_fields_are_ignored(tmp_path):
    doc = json.loads(DESIGN_EXAMPLE)
    doc["future"] = {"anything": [1, 2, 3]}
    for d in doc["chains"]:
        d["colour"] = "teal"
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    plain = tmp_path / "plain.json"
    plain.write_text(DESIGN_EXAMPLE, encoding="utf-8")
    assert scene_file.scene_to_text(load_scene(path)) == scene_file.scene_to_text(load_scene(plain))


# --- bad files ----------------------------------------------------------------------
def design_doc():
    return json.loads(DESIGN_EXAMPLE)


def edit(change):
    doc = design_doc()
    change(doc)
    return json.dumps(doc)


def _set(path, value):
    def change(doc):
        obj = doc
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return change


def _delete(path):
    def change(doc):
        obj = doc
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]
    return change


BAD = [
    (edit(_set(["chains", 0, "lengths", 1], -5)), "chains[0].lengths[1]", "must be > 0"),
    (edit(_set(["chains", 1, "lengths", 3], 0)), "chains[1].lengths[3]", "must be > 0"),
    (edit(_set(["format"], "something-else")), "format", "must be 'ikplayground-scene'"),
    (edit(_set(["version"], 3)), "version", "must be 1 or 2"),
    (edit(_set(["version"], True)), "version", "must be 1 or 2"),
    (edit(_delete(["chains", 0, "root"])), "chains[0]", "missing field 'root'"),
    (edit(_set(["chains", 2, "solver"], "jacobian")), "chains[2].solver", "must be one of"),
    (edit(_set(["chains", 0, "lengths"], [120, 100, 80])), "chains[0].lengths", "2 entries"),
    (edit(_set(["chains", 0, "angles"], [10.0])), "chains[0].angles", "must have 2 entries"),
    (edit(_set(["chains", 1, "limits", 2], [30, -30])), "chains[1].limits[2]", "lo must be <= hi"),
    (edit(_set(["chains", 1, "limits", 2], [-200, 30])), "chains[1].limits[2][0]", "must be >= -180"),
    (edit(_set(["chains", 0, "rate_limit"], -1)), "chains[0].rate_limit", "must be > 0"),
    (edit(_set(["chains", 0, "mirror"], "yes")), "chains[0].mirror", "true or false"),
    (edit(_set(["chains", 1, "iterations"], 0)), "chains[1].iterations", "between 1 and 1000"),
    (edit(_set(["chains", 1, "iterations"], 2.5)), "chains[1].iterations", "whole number"),
    (edit(_set(["chains", 0, "root"], [1, "x"])), "chains[0].root[1]", "must be a number"),
    (edit(_set(["chains", 2, "points"], [[1, 2]])), "chains[2].points", "at least 2"),
    (edit(_set(["chains", 2, "bend_limits"], [40, -40])), "chains[2].bend_limits", "lo must be <= hi"),
    (edit(_set(["chains", 2, "lengths", 0], -40)), "chains[2].lengths[0]", "must be > 0"),
    (edit(_set(["chains"], {"a": 1})), "chains", "must be a list"),
    (edit(_set(["chains", 1], [1, 2])), "chains[1]", "must be an object"),
    ('{"format": "ikplayground-scene", "version": 1, "chains": [', "", "not valid JSON"),
    ("[1, 2, 3]", "", "must hold a JSON object"),
    (DESIGN_EXAMPLE.replace("[300, 400]", "[NaN, 400]"), "chains[0].root[0]", "must be a finite number (got NaN)"),
    (DESIGN_EXAMPLE.replace("[300, 400]", "[1e999, 400]"), "chains[0].root[0]", "(got 1e999, out of range)"),
    ("[" * 100 + "]" * 100, "", "nested"),
]


@pytest.mark.parametrize(("text", "place", "fragment"), BAD)
def test_bad_files_raise_scene_file_error_naming_file_and_place(tmp_path, text, place, fragment):
    path = tmp_path / "bad-scene.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SceneFileError) as info:
        load_scene(path)
    message = str(info.value)
    assert message.startswith("bad-scene.json: "), message
    if place:
        assert f": {place}: " in message, message
    assert fragment in message, message


def test_the_negative_length_message_in_full(tmp_path):
    path = tmp_path / "scene.json"
    path.write_text(edit(_set(["chains", 0, "lengths", 1], -5)), encoding="utf-8")
    with pytest.raises(SceneFileError, match=r"^scene\.json: chains\[0\]\.lengths\[1\]: must be > 0 \(got -5\)$"):
        load_scene(path)


def test_a_missing_file_a_folder_and_bad_bytes_are_scene_file_errors(tmp_path):
    with pytest.raises(SceneFileError, match=r"^nowhere\.json: no such file"):
        load_scene(tmp_path / "nowhere.json")
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(SceneFileError, match=r"^folder\.json: .*directory"):
        load_scene(tmp_path / "folder.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"format": "\xff\xfe"}')
    with pytest.raises(SceneFileError, match=r"^binary\.json: not UTF-8"):
        load_scene(binary)


def test_an_angle_at_minus_180_with_a_lower_limit_of_minus_180_loads_as_itself(tmp_path):
    doc = design_doc()
    doc["chains"][1]["limits"][3] = [-180, 30]
    doc["chains"][1]["angles"][3] = -180
    path = tmp_path / "edge.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ccd = load_scene(path).chains[1]
    assert abs(wrap(ccd.fields["angles"][3] - math.radians(-180))) < 1e-9, math.degrees(ccd.fields["angles"][3])


# Atomic saving is tested in test_save_atomic.py, hostile inputs in test_file_validation.py.


def test_tiny_positive_lengths_and_rates_are_written_so_that_they_load_again(tmp_path):
    """Rounding to the file's decimals must not turn a positive length or rate into 0 (refused on load)."""
    arm = build.make_ik_chain("ccd", (100.0, 100.0), [0.0, 0.0], [0.0001, 50.0], (200.0, 100.0), rate_limit=0.00001)
    snake = build.make_snake([[10.0, 10.0], [10.0, 10.0002]], lengths=[0.0002])
    path = tmp_path / "tiny.json"
    save_scene(scene_of([arm, snake]), path)
    loaded = load_scene(path)
    assert loaded.chains[0].fields["lengths"][0] == pytest.approx(0.0001)
    assert loaded.chains[0].rate_limit == pytest.approx(0.00001)
    assert loaded.chains[1].fields["lengths"][0] == pytest.approx(0.0002)
