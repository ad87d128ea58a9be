"""Rigs in scene files (docs/scene-format.md, "Rigs"): the round trip, version 2, the checks and their messages."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from ikplayground.resources import asset_path
from ikplayground.scene import Scene, humanoid_rig, make_rig, quadruped_rig
from ikplayground.scene.files import scene_file
from ikplayground.scene.files.file_format import VERSION, chain_to_dict

STAGE = (980.0, 694.0)
HEAD = '{"format": "ikplayground-scene", "version": 2, "chains": ['


def rig_scene() -> Scene:
    scene = Scene(STAGE)
    scene.add(humanoid_rig(standing_on=(300.0, 650.0), method="dls", rate_limit=None, rate_deg=7.5))
    scene.add(quadruped_rig(standing_on=(650.0, 650.0), iterations=25, tolerance=0.25, skin="lines"))
    other = make_rig((100.0, 100.0), [-1, 0, 1], [0.2, -0.4, 0.6], [30.0, 20.0, 10.0], [2, 0],
                     limits=[[-3.0, 3.0], [-1.0, 0.5], [0.0, 1.0]], headings=[1.0, math.nan], weights=[2.5, 1.0],
                     mix=[0.25, 1.0], names=["a", "b.c", "d-e"], rest=[0.1, -0.2, 0.3])
    scene.add(other)
    other.name = "tail"
    for _ in range(5):
        scene.step()
    return scene


def test_a_rig_saved_and_loaded_is_given_back_equal(tmp_path):
    scene = rig_scene()
    path = tmp_path / "rigs.json"
    scene_file.save_scene(scene, path)
    loaded = scene_file.load_scene(path, STAGE)
    assert scene_file.scene_to_text(loaded) == path.read_text(encoding="utf-8").rstrip("\n")  # equal as written
    for a, b in zip(scene.chains, loaded.chains):
        assert (b.solver, b.label, b.bone_names, b.skin) == (a.solver, a.label, a.bone_names, a.skin)
        assert (b.rate_limit, b.rate_deg, b.iterations, b.tolerance) == (a.rate_limit, a.rate_deg, a.iterations,
                                                                        a.tolerance)
        for name in ("parents", "target_bones", "method"):
            np.testing.assert_array_equal(b.fields[name], a.fields[name])
        for name in ("root", "lengths", "targets", "points"):
            np.testing.assert_allclose(b.fields[name], a.fields[name], atol=1e-3)
        for name in ("angles", "rest", "limits", "headings"):
            np.testing.assert_allclose(b.fields[name], a.fields[name], atol=1e-6)
        np.testing.assert_allclose(b.fields["weights"], a.fields["weights"], rtol=1e-4)
        np.testing.assert_allclose(b.fields["mix"], a.fields["mix"], atol=1e-4)


def test_a_file_with_a_rig_is_version_2_and_one_without_stays_version_1():
    assert json.loads(scene_file.scene_to_text(rig_scene()))["version"] == 2
    scene = Scene(STAGE)
    scene.new_chain("ccd")
    assert json.loads(scene_file.scene_to_text(scene))["version"] == VERSION == 1


def test_an_old_version_file_loads_as_before():
    text = asset_path("scenes/default.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    assert doc["version"] == 1
    scene = scene_file.parse_scene(text, "default.json", STAGE)
    again = json.loads(scene_file.scene_to_text(scene))
    assert again["version"] == 1 and len(again["chains"]) == len(doc["chains"])
    for old, new in zip(doc["chains"], again["chains"]):
        assert {k: v for k, v in new.items() if k != "number"} == old  # every field as the file has it


def test_a_rigs_line_holds_its_bones_and_targets():
    line = chain_to_dict(make_rig((1.0, 2.0), [-1, 0], [0.0, 0.5], [10.0, 20.0], [1], headings=[0.5],
                                  names=["upper", "lower"]))
    assert line["parents"] == [-1, 0] and line["bones"] == ["upper", "lower"]
    assert line["ranges"] == [[-180.0, 180.0], [-180.0, 180.0]]
    assert line["targets"] == [{"bone": 1, "at": line["targets"][0]["at"], "heading": 28.6479}]


GOOD = {"solver": "rig", "root": [300, 400], "parents": [-1, 0, 0], "bones": ["a", "b", "c"],
        "lengths": [40, 30, 30], "angles": [-90, 20, -20], "targets": [{"bone": 1, "at": [320, 330]},
                                                                      {"bone": 2, "at": [280, 330]}]}


def with_(**changes) -> str:
    d = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if value is None:
            del d[key]
        else:
            d[key] = value
    return HEAD + json.dumps(d) + "]}"


@pytest.mark.parametrize(("text", "message"), [
    (with_(parents=[-1, 0]), "chains[0].parents: must have 3 entries, one a bone (got 2)"),
    (with_(parents=[-1, 2, 0]), "chains[0].parents[1]: must be a bone before it, 0 to 0 (got 2)"),
    (with_(parents=[0, 0, 0]), "chains[0].parents[0]: must be -1: bone 0 starts at the root (got 0)"),
    (with_(parents=[-1, 0.5, 0]), "chains[0].parents[1]: must be a whole number (got 0.5)"),
    (with_(parents=[-1, 0, 99]), "chains[0].parents[2]: must be between -1 and 62 (got 99)"),
    (with_(bones=["a", "b", "a"]), "chains[0].bones[2]: 'a' is bones[0]'s name too; each bone's name is its own"),
    (with_(bones=["a", "b", "c d"]), "chains[0].bones[2]"),
    (with_(angles=[0, 0]), "chains[0].angles: must have 3 entries, one a bone (got 2)"),
    (with_(ranges=[[-10, 10], [5, -5], [0, 1]]), "chains[0].ranges[1]: lo must be <= hi (got [5, -5])"),
    (with_(ranges=[[-10, 10], [0, 190], [0, 1]]), "chains[0].ranges[1][1]: must be <= 180 (got 190)"),
    (with_(targets=[{"bone": 3, "at": [1, 2]}]), "chains[0].targets[0].bone: must be a bone, 0 to 2 (got 3)"),
    (with_(targets=[{"bone": 1, "at": [1, 2]}, {"bone": 1, "at": [3, 4]}]),
     "chains[0].targets[1].bone: 1 is targets[0]'s bone too; a bone has one target"),
    (with_(targets=[{"bone": 1, "at": [1, 2], "weight": 0}]), "chains[0].targets[0].weight: must be > 0 (got 0)"),
    (with_(targets=[{"bone": 1, "at": [1, 2], "mix": 2}]), "chains[0].targets[0].mix: must be <= 1 (got 2)"),
    (with_(targets=[{"bone": 1}]), "chains[0].targets[0]: missing field 'at'"),
    (with_(targets=None), "chains[0]: missing field 'targets'"),
    (with_(method="ccd"), "chains[0].method: must be one of fabrik, dls (got 'ccd')"),
])
def test_a_bad_rig_file_is_refused_naming_the_place_and_the_scene_is_left_as_it_was(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    scene = rig_scene()
    before = scene_file.scene_to_text(scene)
    with pytest.raises(scene_file.SceneFileError) as e:
        scene = scene_file.load_scene(path, STAGE)
    assert str(e.value).startswith(f"bad.json: {message}")
    assert scene_file.scene_to_text(scene) == before


def test_a_good_rig_line_loads():
    scene = scene_file.parse_scene(with_(), "ok.json", STAGE)
    rig = scene.chains[0]
    assert rig.is_rig and rig.bone_names == ("a", "b", "c") and rig.fields["target_bones"].tolist() == [1, 2]
    assert rig.fields["method"][0] == 0 and rig.rate_deg == 3.0
