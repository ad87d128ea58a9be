"""The preset scenes: each ships, loads, runs and saves back as it was; a preset never becomes the save file."""

from __future__ import annotations

import numpy as np
import pytest

from ikplayground.resources import asset_path
from ikplayground.scene.build import presets
from ikplayground.scene.build.presets import PRESETS
from ikplayground.scene.files import scene_file

STAGE = (980.0, 694.0)


def test_every_preset_ships():
    assert presets.available_presets() == list(PRESETS)
    for name in PRESETS:
        assert asset_path(f"scenes/{name}.json").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_loads_runs_300_steps_and_saves_back_equal(name):
    scene = presets.load_preset(name, STAGE)
    assert scene.chains
    text = scene_file.scene_to_text(scene)
    assert scene_file.scene_to_text(scene_file.parse_scene(text, stage=STAGE)) == text  # loads back as it was
    for _ in range(300):
        scene.steer(False, 0)
        scene.step()
    for chain in scene.chains:
        assert np.isfinite(chain.fields["points"]).all()
    text = scene_file.scene_to_text(scene)
    assert scene_file.scene_to_text(scene_file.parse_scene(text, stage=STAGE)) == text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["default", "tentacles", "seeds"])
def test_a_preset_is_in_motion_from_its_first_steps(name):
    scene = presets.load_preset(name, STAGE)
    targets = [c.fields["target"].copy() for c in scene.chains if not c.is_snake]
    for _ in range(30):
        scene.steer(False, 0)
        scene.step()
    moved = [not np.array_equal(t, c.fields["target"]) for t, c in zip(targets, [c for c in scene.chains
                                                                                 if not c.is_snake])]
    assert any(moved)


@pytest.mark.slow
def test_the_same_preset_runs_the_same_every_time():
    a, b = presets.load_preset("default", STAGE), presets.load_preset("default", STAGE)
    for _ in range(200):
        for scene in (a, b):
            scene.steer(False, 0)
            scene.step()
    assert scene_file.scene_to_text(a) == scene_file.scene_to_text(b)


def test_an_unknown_preset_is_refused_in_one_line():
    with pytest.raises(scene_file.SceneFileError, match="no such preset"):
        presets.load_preset("no-such-preset")


def test_the_springs_preset_shows_secondary_motion_moving_by_itself():
    scene = presets.load_preset("springs", STAGE)
    kinds = {c.solver: c for c in scene.chains}
    assert {"rope", "path", "snake", "walker"} <= set(kinds)
    assert any(c.solver == "rope" and c.fields["pin_end"][0] for c in scene.chains)  # a rope tied at both ends
    assert float(kinds["snake"].fields["jiggle"][0]) < 1.0  # its tail jiggles
    assert kinds["walker"].fields["app_on"][0] and (kinds["walker"].fields["app_lengths"] > 0).any()  # antennae
    assert float(kinds["path"].fields["slide"][0]) != 0.0  # the tentacle crawls along its curve
    before = {c.solver: (c.fields["points"].copy(), c.fields.get("app_points", np.zeros(0)).copy())
              for c in scene.chains if c.solver != "rope"}
    for _ in range(60):
        scene.steer(False, 0)
        scene.step()
    for c in scene.chains:
        if c.solver in before:
            assert not np.array_equal(before[c.solver][0], c.fields["points"]), c.solver  # moving by itself
    walker = next(c for c in scene.chains if c.solver == "walker")
    assert not np.array_equal(before["walker"][1], walker.fields["app_points"])  # the antennae move with it
