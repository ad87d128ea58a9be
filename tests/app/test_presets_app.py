"""Presets in the App: the panel's Preset menu and ``--scene NAME``; a preset never becomes the save file."""

from __future__ import annotations

import pytest

import pygame

from ikplayground import cli
from ikplayground.resources import asset_path
from ikplayground.scene.build import presets
from tests.app.conftest import choose, ctrl, frames


@pytest.mark.slow
def test_the_preset_menu_loads_a_preset_and_keeps_the_scene_file(app, scene_file):
    before = asset_path("scenes/tentacles.json").read_bytes()
    choose(app, app.panel.preset_menu, "tentacles")
    assert len(app.scene.chains) == len(presets.load_preset("tentacles").chains)
    assert app.scene_path == scene_file and str(scene_file.name) in app.message
    frames(app, 30)
    ctrl(app, pygame.K_s, "\x13")
    assert scene_file.is_file() and "Saved" in app.message
    assert asset_path("scenes/tentacles.json").read_bytes() == before  # the shipped preset is untouched
    assert app.panel.preset == "tentacles"


@pytest.mark.slow
def test_loading_a_file_after_a_preset_clears_the_menu(app, scene_file):
    choose(app, app.panel.preset_menu, "snakes")
    ctrl(app, pygame.K_s, "\x13")
    ctrl(app, pygame.K_o, "\x0f")
    assert app.panel.preset is None


@pytest.mark.slow
def test_cli_scene_name_loads_the_preset_and_saves_elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shot = tmp_path / "spider.png"
    assert cli.main(["--headless", "--frames", "20", "--scene", "spider", "--screenshot", str(shot)]) == 0
    assert shot.is_file() and not (tmp_path / "spider").exists()
    assert not (tmp_path / "ikplayground-scene.json").exists()  # nothing saved by itself


@pytest.mark.slow
def test_cli_opens_on_the_default_preset_in_motion(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no scene file here
    assert cli.main(["--headless", "--frames", "5"]) == 0
    assert not (tmp_path / "ikplayground-scene.json").exists()
