"""The App's save and load with odd names and odd paths: one status line each, and the App keeps running.

Driven as a person would: a path typed into the Scene file box, Enter, then
Ctrl+S or Ctrl+O; the command line's ``--scene`` too.
"""

from __future__ import annotations

import os
import stat

import pygame
import pytest

from ikplayground import cli
from ikplayground.scene.files.scene_file import load_scene
from tests.app.conftest import ctrl, frames, tap


def type_path(app, path) -> None:
    """Type ``path`` into the Scene file box and press Enter (as test_app does)."""
    entry = app.panel.path_entry
    entry.set_text(str(path))
    app.ui.set_focus_set(entry)
    tap(app, pygame.K_RETURN, unicode="\r", k=2)
    app.ui.set_focus_set(None)


def one_line_error(app) -> str:
    assert app.message_is_error
    assert "\n" not in app.message and "\r" not in app.message
    return app.message


@pytest.mark.slow
def test_ctrl_s_with_a_name_too_long_says_so_and_the_app_runs_on(app, tmp_path):
    path = tmp_path / ("a" * 300 + ".json")
    type_path(app, path)
    chains = list(app.scene.chains)
    ctrl(app, pygame.K_s, "\x13")
    message = one_line_error(app)
    assert message.startswith("Not saved: aaaa")
    assert "the file name is too long (305 bytes; a name may have at most 255)" in message
    assert "Nothing was lost" in message
    assert app.running and app.scene.chains == chains
    frames(app, 3)
    ctrl(app, pygame.K_o, "\x0f")  # and loading it says so too
    assert "the file name is too long" in one_line_error(app)
    assert os.listdir(tmp_path) == []


def test_ctrl_s_with_a_name_of_250_bytes_saves(app, tmp_path):
    path = tmp_path / ("s" * 245 + ".json")
    type_path(app, path)
    ctrl(app, pygame.K_s, "\x13")
    assert not app.message_is_error, app.message
    assert len(load_scene(path).chains) == len(app.scene.chains)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_ctrl_s_onto_a_named_pipe_leaves_it_alone(app, tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    type_path(app, path)
    ctrl(app, pygame.K_s, "\x13")
    message = one_line_error(app)
    assert message.startswith("Not saved: pipe.json: is not a regular file (a named pipe); it was left alone.")
    assert stat.S_ISFIFO(os.lstat(path).st_mode) and os.listdir(tmp_path) == ["pipe.json"]
    ctrl(app, pygame.K_o, "\x0f")
    assert one_line_error(app) == "Not loaded: pipe.json: is not a regular file. Your scene is unchanged."
    assert app.running


def test_a_name_with_a_newline_is_shown_escaped(app, tmp_path):
    path = tmp_path / "two\nlines.json"
    type_path(app, path)
    ctrl(app, pygame.K_o, "\x0f")
    assert one_line_error(app) == "Not loaded: two\\nlines.json: no such file. Your scene is unchanged."
    ctrl(app, pygame.K_s, "\x13")
    assert app.message == f"Saved {len(app.scene.chains)} chains to two\\nlines.json"
    ctrl(app, pygame.K_o, "\x0f")
    assert app.message == f"Loaded {len(app.scene.chains)} chains from two\\nlines.json"


def test_cli_scene_with_a_name_too_long_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / ("a" * 300 + ".json")
    assert cli.main(["--headless", "--frames", "2", "--scene", str(path)]) == 2
    _, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("ikplayground: aaaa") and "the file name is too long (305 bytes" in err
