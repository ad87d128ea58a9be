"""Presets in the App: the panel's Preset menu and ``--scene NAME``; a preset never becomes the save file."""

from __future__ import annotations

import pytest

import pygame

from ikplayground import cli
from ikplayground.app.app import App
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


def test_cli_a_mistyped_preset_name_is_refused_naming_the_presets(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        cli.main(["--headless", "--frames", "5", "--scene", "spidr"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ikplayground: --scene spidr: no such file or preset (the presets are default, seeds")
    assert err.endswith("Did you mean spider?") and "\n" not in err
    assert not (tmp_path / "spidr").exists()


@pytest.mark.slow
def test_cli_a_new_scene_file_opens_the_default_preset_in_motion_and_ctrl_s_creates_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    seen = {}
    real_run = App.run

    def run(app, max_frames=None):
        real_run(app, max_frames=max_frames)
        if not seen:  # the command line's run: look, then save (ctrl() runs frames too)
            seen["chains"] = len(app.scene.chains)
            seen["path"], seen["message"], seen["preset"] = app.scene_path, app.message, app.panel.preset
            ctrl(app, pygame.K_s, "\x13")

    monkeypatch.setattr(App, "run", run)
    assert cli.main(["--headless", "--frames", "5", "--scene", "new.json"]) == 0
    assert seen["chains"] == len(presets.load_preset("default").chains) and seen["preset"] == "default"
    assert seen["path"].name == "new.json" and "Ctrl+S creates new.json" in seen["message"]
    assert (tmp_path / "new.json").is_file()


def test_the_help_names_every_preset():
    text = " ".join(cli.build_parser().format_help().split())
    assert all(name in text for name in presets.PRESETS), text
