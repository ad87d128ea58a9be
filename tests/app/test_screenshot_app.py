"""Screenshots: F12 or the Keep page's button saves the window, as drawn, as a PNG beside the scene file.

A real App driven by posted events: the PNG lands in the scene file's folder
under a name with the date and time, has the window's size and shows the
frame (not a blank surface), and the status line names it. A folder that
cannot take it gives one error line, and the App runs on.
"""

from __future__ import annotations

import os
import re
from datetime import datetime

import numpy as np
import pygame
import pytest

from ikplayground.app.app import App
from ikplayground.app.draw import screenshot
from tests.app.conftest import SIZE, click, frames, key_down, rect_centre, tap

NAME = re.compile(r"ikplayground-\d{4}-\d\d-\d\d-\d{6}(-\d+)?\.png")


def pngs(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if NAME.fullmatch(n))


def assert_a_picture_of_the_window(app, path) -> None:
    image = pygame.image.load(str(path))
    assert image.get_size() == app.screen.get_size()
    colours = np.unique(pygame.surfarray.array3d(image).reshape(-1, 3), axis=0)
    assert len(colours) > 20, "the PNG is (nearly) one colour: the frame was not drawn"


@pytest.mark.slow
def test_f12_saves_the_window_as_a_png_beside_the_scene_file(app, tmp_path):
    tap(app, pygame.K_F12)
    (name,) = pngs(tmp_path)
    path = tmp_path / name
    assert_a_picture_of_the_window(app, path)
    assert str(path) in app.message and not app.message_is_error
    assert sorted(os.listdir(tmp_path)) == [name], "a temporary file was left behind"
    when = datetime.strptime(name[len("ikplayground-"):-len(".png")], "%Y-%m-%d-%H%M%S")
    assert abs((datetime.now() - when).total_seconds()) < 3600


@pytest.mark.slow
def test_f12_before_the_first_frame_still_shows_the_frame(tmp_path):
    """Headless, nothing is on the window until the App draws: the command draws first."""
    app = App(size=SIZE, realtime=False, scene_path=tmp_path / "s.json")
    try:
        pygame.event.get()  # (not clear(): pygame-ce keeps a cleared event's dict, and pygame_gui's hold its widgets)
        key_down(pygame.K_F12)
        app.run(max_frames=1)
        (name,) = pngs(tmp_path)
        assert_a_picture_of_the_window(app, tmp_path / name)
    finally:
        app.close()


def press(app, widget) -> None:
    """A real click on a panel button; pygame_gui posts its press, which the next frame handles."""
    click(app, rect_centre(widget))
    frames(app, 1)


@pytest.mark.slow
def test_the_keep_pages_button_does_the_same_and_never_overwrites(app, tmp_path):
    press(app, app.panel.tabs["keep"])
    assert app.panel.page == "keep"
    button = app.panel.screenshot_button
    assert button.visible and button.text.startswith("Screenshot")
    for _ in range(3):
        press(app, button)
    names = pngs(tmp_path)
    assert len(names) == 3  # within one second the names go on -2, -3
    newest = max(names, key=lambda n: (tmp_path / n).stat().st_mtime_ns)
    assert str(tmp_path / newest) in app.message
    for name in names:
        assert_a_picture_of_the_window(app, tmp_path / name)


def test_a_name_already_taken_gets_a_number_and_the_old_file_stays(tmp_path):
    surface = pygame.Surface((40, 30))
    surface.fill((200, 10, 10))
    when = datetime(2026, 11, 25, 20, 30, 12)
    taken = tmp_path / "ikplayground-2026-11-25-203012.png"
    taken.write_bytes(b"mine")
    assert screenshot.save_screenshot(surface, tmp_path, when) == tmp_path / "ikplayground-2026-11-25-203012-2.png"
    assert screenshot.save_screenshot(surface, tmp_path, when) == tmp_path / "ikplayground-2026-11-25-203012-3.png"
    assert taken.read_bytes() == b"mine"
    assert pygame.image.load(str(tmp_path / "ikplayground-2026-11-25-203012-3.png")).get_at((5, 5))[:3] == (200, 10, 10)
    assert sorted(os.listdir(tmp_path)) == ["ikplayground-2026-11-25-203012-2.png",
                                            "ikplayground-2026-11-25-203012-3.png",
                                            "ikplayground-2026-11-25-203012.png"]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["a file", "missing"])
def test_a_folder_that_cannot_take_it_gives_one_error_line_and_the_app_runs_on(tmp_path, where):
    (tmp_path / "a file").write_text("not a folder", encoding="utf-8")
    app = App(size=SIZE, realtime=False, scene_path=tmp_path / where / "s.json")
    try:
        pygame.event.get()  # (not clear(): pygame-ce keeps a cleared event's dict, and pygame_gui's hold its widgets)
        app.run(max_frames=1)
        tap(app, pygame.K_F12)
        assert app.message_is_error and app.message.startswith("Screenshot not saved: the folder ")
        assert ("is not a folder" if where == "a file" else "does not exist") in app.message
        assert "\n" not in app.message
        frames(app, 2)
        assert app.running
        assert sorted(os.listdir(tmp_path)) == ["a file"]
    finally:
        app.close()


@pytest.mark.slow
def test_an_image_that_cannot_be_written_leaves_nothing_behind(app, tmp_path, monkeypatch):
    def refuse(surface, name, *args):
        open(name, "wb").close()  # a partial file, as a full disk would leave
        raise pygame.error("No space left on device")

    monkeypatch.setattr(pygame.image, "save", refuse)
    tap(app, pygame.K_F12)
    assert app.message_is_error and "No space left on device" in app.message
    assert app.running and sorted(os.listdir(tmp_path)) == []
