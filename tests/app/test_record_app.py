"""Record and replay in the real App: Ctrl+R, the Keep page's button, the status line, --record / --replay.

The App is driven by posted events; the command line is run through ``cli.main``, headless.
"""

from __future__ import annotations

import csv
import os
import re

import numpy as np
import pygame
import pytest

from ikplayground import cli
from ikplayground.app import commands
from ikplayground.app.app import App
from ikplayground.scene import load_scene, save_scene
from ikplayground.scene.build import presets
from ikplayground.scene.record.recording_read import read_steps
from tests.app.conftest import SIZE, ctrl, drag, frames, key_down, key_up, press_button, tap


@pytest.fixture
def facts(monkeypatch):
    """The facts the status line draws, frame by frame (the last one is ``facts[-1]``)."""
    seen: list[str] = []

    def spy(surface, rect, text, message, fonts):
        seen.append(text)

    monkeypatch.setattr("ikplayground.app.draw.chrome.draw_status", spy)
    return seen


@pytest.mark.slow
def test_ctrl_r_records_every_step_beside_the_scene_file_and_again_saves_it(app, scene_file, facts):
    ctrl(app, pygame.K_r)
    assert app.record.active
    path = app.record.path
    assert path.parent == scene_file.parent and re.fullmatch(r"s-\d{8}-\d{6}\.csv", path.name)
    assert app.panel.record_button.text == "Stop recording"
    frames(app, 9)
    assert app.record.steps == 10
    assert facts[-1].count(f"Recording {path.name}: 10 steps") == 1
    assert path.with_name(path.name + ".part").exists() and not path.exists()
    ctrl(app, pygame.K_r)
    assert not app.record.active and app.message == f"Saved 10 steps to {path.name}"
    assert app.panel.record_button.text == "Record (Ctrl+R)"
    assert "Recording" not in facts[-1]
    assert path.exists() and not path.with_name(path.name + ".part").exists()
    steps = list(read_steps(path))
    assert [s.step for s in steps] == list(range(10))
    assert steps[-1].chains() == [(c.solver, len(c.fields["angles"]) if c.is_ik else 9) for c in app.scene.chains]
    assert app.record.path == path and app.record.steps == 10
    assert set(app.record.rig) == {(i, c.solver, n) for i, (c, n) in enumerate(zip(app.scene.chains, (2, 7, 7, 7, 9)))}


@pytest.mark.slow
def test_r_without_ctrl_is_still_the_race(app):
    tap(app, pygame.K_r)
    assert app.race.on and not app.record.active


@pytest.mark.slow
def test_the_record_button_toggles_and_keeps_its_label_through_a_rebuild(app, facts):
    press_button(app, app.panel.record_button, k=3)
    assert app.record.active and app.record.steps == 3
    post_resize = pygame.event.Event(pygame.VIDEORESIZE, size=(1100, 700), w=1100, h=700)
    pygame.event.post(post_resize)
    frames(app)
    assert app.panel.record_button.text == "Stop recording"
    press_button(app, app.panel.record_button)
    assert not app.record.active and app.panel.record_button.text == "Record (Ctrl+R)"
    assert app.record.path.exists() and sum(1 for _ in read_steps(app.record.path)) == 4


@pytest.mark.slow
def test_a_recording_that_cannot_be_opened_is_one_line_and_nothing_changes(app, tmp_path):
    app.scene_path = tmp_path / "missing" / "s.json"
    ctrl(app, pygame.K_r)
    assert not app.record.active and app.message_is_error
    assert re.fullmatch(r"Not recording: s-\d{8}-\d{6}\.csv: cannot be written \(No such file or directory\)",
                        app.message)
    assert app.panel.record_button.text == "Record (Ctrl+R)"
    frames(app, 3)
    assert app.record.path is None and app.record.steps == 0


@pytest.mark.slow
def test_closing_the_app_saves_the_recording(tmp_path):
    app = App(size=SIZE, realtime=False, scene_path=tmp_path / "s.json")
    app.record.start(tmp_path / "run.csv")
    app.run(max_frames=12)
    app.close()
    assert sum(1 for _ in read_steps(tmp_path / "run.csv")) == 12
    assert not (tmp_path / "run.csv.part").exists()


def test_the_help_lists_the_record_key_and_button():
    assert ("Ctrl+R / Record button", commands.BY_NAME["record"].help) in commands.help_rows()


def hold_keys_and_drag(app) -> None:
    """Scripted input: the snake driven by the arrow keys, the arm's target dragged."""
    app.scene.select(next(c for c in app.scene.chains if c.is_snake))
    key_down(pygame.K_UP)
    key_down(pygame.K_LEFT)
    frames(app, 25)
    key_up(pygame.K_LEFT)
    frames(app, 10)
    key_up(pygame.K_UP)
    arm = app.scene.chains[0]
    drag(app, arm.fields["target"], arm.fields["target"] + (60, 40))


@pytest.mark.slow
def test_a_replay_in_the_app_is_the_recorded_run_and_ignores_the_keys_and_the_mouse(tmp_path):
    scene_file = tmp_path / "s.json"
    app = App(size=SIZE, realtime=False, scene_path=scene_file)
    app.run(max_frames=1)
    ctrl(app, pygame.K_s)
    key_down(pygame.K_o, pygame.KMOD_CTRL)  # the scene as the file has it, as the replay will start from it,
    app.record.start(tmp_path / "a.csv")  # recorded from its first step
    frames(app)
    key_up(pygame.K_o, pygame.KMOD_CTRL)
    hold_keys_and_drag(app)
    frames(app, 5)
    steps = app.record.steps
    arm_target = app.scene.chains[0].fields["target"].copy()
    app.close()
    assert np.any(arm_target != load_scene(scene_file).chains[0].fields["target"])

    app = App(size=SIZE, realtime=False, scene=load_scene(scene_file), scene_path=scene_file)
    try:
        assert app.replay.start(tmp_path / "a.csv") is None
        app.record.start(tmp_path / "b.csv")
        snake = next(c for c in app.scene.chains if c.is_snake)
        app.scene.select(snake)
        key_down(pygame.K_UP)
        frames(app, 3)
        assert snake.fields["steered"][0] == 0.0 and snake.fields["throttle"][0] == 0.0  # the keys wait
        key_up(pygame.K_UP)
        root = app.scene.chains[1].fields["root"].copy()
        drag(app, root, root + (80, -30), release=False)  # a press only selects: nothing is held or moved
        assert app.drag is None and np.array_equal(app.scene.chains[1].fields["root"], root)
        assert app.scene.selected is app.scene.chains[1]
        drag(app, app.scene.chains[0].fields["target"], (500, 200))
        assert app.replay.active
        frames(app, steps - app.record.steps)
        assert app.replay.active and app.record.steps == steps
        frames(app)
        assert not app.replay.active and app.message == f"Replay finished: {steps} steps"
        app.record.stop()
    finally:
        app.close()
    a = (tmp_path / "a.csv").read_bytes()
    b = (tmp_path / "b.csv").read_bytes()
    assert b.startswith(a) and len(b.splitlines()) > len(a.splitlines())  # and the scene ran on


def run_cli(*args) -> int:
    return cli.main([*map(str, args), "--headless"])


@pytest.mark.slow
def test_record_and_replay_from_the_command_line(tmp_path, capsys):
    scene_file = tmp_path / "s.json"
    save_scene(presets.load_preset("snakes"), scene_file)  # snakes that wander
    assert run_cli("--scene", scene_file, "--record", tmp_path / "a.csv", "--frames", 90) == 0
    assert run_cli("--scene", scene_file, "--replay", tmp_path / "a.csv", "--record", tmp_path / "b.csv",
                   "--frames", 90) == 0
    with open(tmp_path / "a.csv", newline="") as fa, open(tmp_path / "b.csv", newline="") as fb:
        a, b = list(csv.reader(fa)), list(csv.reader(fb))
    assert len(a) == len(b) > 90
    assert [r[:4] for r in a] == [r[:4] for r in b]
    assert max(abs(float(x) - float(y)) for ra, rb in zip(a[1:], b[1:]) for x, y in zip(ra[4:9], rb[4:9])) <= 1e-9
    capsys.readouterr()
    assert run_cli("--scene", "default", "--replay", tmp_path / "a.csv", "--frames", 5) == 2
    err = capsys.readouterr().err
    assert err.startswith("ikplayground: Not replayed: a.csv: line 2: step 0 does not match the scene: chain ")
    assert err.count("\n") == 1
    assert run_cli("--scene", scene_file, "--record", tmp_path / "no" / "x.csv", "--frames", 5) == 2
    assert capsys.readouterr().err == ("ikplayground: Not recording: x.csv: cannot be written "
                                       "(No such file or directory)\n")


@pytest.mark.parametrize("case", ["the scene file", "a folder", "a named pipe to replay", "a device to replay"])
def test_the_command_line_refuses_what_it_must_not_record_to_or_replay(tmp_path, capsys, case):
    scene_file = tmp_path / "s.json"
    save_scene(presets.load_preset("default"), scene_file)
    before = scene_file.read_bytes()
    if case == "the scene file":
        args, message = ("--record", scene_file), "s.json: holds something that is not a recording"
    elif case == "a folder":
        (tmp_path / "out").mkdir()
        args, message = ("--record", tmp_path / "out"), "out: is a folder"
    elif case == "a named pipe to replay":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no named pipes here")
        os.mkfifo(tmp_path / "pipe.csv")
        args, message = ("--replay", tmp_path / "pipe.csv"), "pipe.csv: is not a regular file"
    else:
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero here")
        args, message = ("--replay", "/dev/zero"), "zero: is not a regular file"
    assert run_cli("--scene", scene_file, "--frames", 3, *args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert scene_file.read_bytes() == before
