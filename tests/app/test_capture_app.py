"""GIF and video capture: ``--gif``, ``--video`` and their options on the command line, F9 and the Keep page's
button in the real App, ``--replay ... --gif``. Every GIF is read back with Pillow."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pygame
import pytest
from PIL import Image

from ikplayground import cli
from ikplayground.app.app import App
from ikplayground.app.draw import gif_writer
from ikplayground.app.modes import capture_mode
from tests.app.conftest import SIZE, frames, press_button, started, tap


def run_cli(*args) -> int:
    return cli.main([*map(str, args), "--headless"])


def gif_facts(path) -> tuple[int, tuple[int, int], list[int], list[np.ndarray]]:
    """(frames, size, durations in ms, the first, middle and last frames as RGB) of the GIF at ``path``."""
    with Image.open(path) as im:
        n, size, durations, shots = im.n_frames, im.size, [], []
        for i in range(n):
            im.seek(i)
            durations.append(im.info["duration"])
            if i in (0, n // 2, n - 1):
                shots.append(np.asarray(im.convert("RGB")).astype(int))
    return n, size, durations, shots


def one_line_error(capsys, *args) -> str:
    """The command line's error for ``args``: exit status 2 and one line, which is returned."""
    with pytest.raises(SystemExit) as info:
        run_cli("--frames", 3, *args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ikplayground: "), err
    return err.strip()


@pytest.mark.slow
def test_gif_has_a_frame_per_slot_the_size_asked_and_frames_that_move(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("--frames", 60, "--gif", "run.gif") == 0  # the stage at 50 frames a second
    n, size, durations, (first, middle, last) = gif_facts(tmp_path / "run.gif")
    app_stage = (1280 - 300, 720 - 26)  # the panel's 300 px and the status line's 26 px off the window
    assert n == 50 and size == app_stage and set(durations) == {20}
    assert np.abs(first - middle).max() > 100 and np.abs(middle - last).max() > 100  # the scene moves
    assert run_cli("--frames", 60, "--gif", "half.gif", "--gif-fps", 25, "--gif-scale", 0.5, "--gif-window") == 0
    n, size, durations, _ = gif_facts(tmp_path / "half.gif")
    assert n == 25 and size == (640, 360) and set(durations) == {40}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["half.gif", "run.gif"]  # no temporary file left


@pytest.mark.slow
def test_gif_of_a_replay_covers_the_whole_recording(tmp_path):
    scene = tmp_path / "s.json"
    assert run_cli("--scene", "snakes", "--frames", 30, "--record", tmp_path / "a.csv") == 0
    assert run_cli("--scene", "snakes", "--replay", tmp_path / "a.csv", "--gif", tmp_path / "a.gif") == 0
    n, size, _, (first, _middle, last) = gif_facts(tmp_path / "a.gif")
    assert 25 <= n <= 27  # the replay's 30 or 31 frames at 50 of 60 a second
    assert np.abs(first - last).max() > 100
    assert not scene.exists()


def test_capture_options_are_checked_before_the_window_opens(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert one_line_error(capsys, "--gif", "a.gif", "--gif-scale", "2") == (
        "ikplayground: --gif-scale 2: must be above 0 and at most 1 (it shrinks the frames)")
    assert one_line_error(capsys, "--gif", "a.gif", "--gif-scale", "0").startswith("ikplayground: --gif-scale 0:")
    assert one_line_error(capsys, "--gif", "a.gif", "--gif-fps", "60").startswith(
        "ikplayground: --gif-fps 60: must be above 0 and at most 50 (GIF delays are whole hundredths")
    assert one_line_error(capsys, "--gif", "a.gif", "--gif-fps", "fast") == (
        "ikplayground: --gif-fps fast: expected a number of frames a second, such as 25")
    assert one_line_error(capsys, "--gif", tmp_path / "no" / "a.gif").endswith("no does not exist")
    assert one_line_error(capsys, "--gif", tmp_path) == f"ikplayground: --gif {tmp_path}: is a folder, not a file"
    assert one_line_error(capsys, "--gif-window") == "ikplayground: --gif-window needs --gif OUT.gif or --video OUT.mp4"
    assert list(tmp_path.iterdir()) == []


def test_video_without_imageio_ffmpeg_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # as if it were not installed
    assert one_line_error(capsys, "--video", "a.mp4") == (
        'ikplayground: --video needs imageio-ffmpeg: pip install "ikplayground[video]" (or .[video] in a checkout)')
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_video_has_every_frame_at_60_a_second(tmp_path):
    ffmpeg = pytest.importorskip("imageio_ffmpeg")
    assert run_cli("--frames", 45, "--video", tmp_path / "a.mp4", "--gif-window", "--gif-scale", 0.5) == 0
    reader = ffmpeg.read_frames(str(tmp_path / "a.mp4"))
    meta = next(reader)
    reader.close()
    assert meta["size"] == (640, 360) and meta["fps"] == 60
    assert ffmpeg.count_frames_and_secs(str(tmp_path / "a.mp4")) == (45, 0.75)
    assert [p.name for p in tmp_path.iterdir()] == ["a.mp4"]


def encoded(app) -> None:
    """Run frames until the capture's worker is through (its status said), at most 10 s of them."""
    for _ in range(600):
        if app.capture.encoding is None:
            return
        frames(app, 1)
        app.capture.encoding and app.capture.encoding.thread and app.capture.encoding.thread.join(0.01)
    raise AssertionError("the GIF was not finished")


@pytest.mark.slow
def test_f9_captures_the_window_beside_the_scene_file(app, scene_file):
    tap(app, pygame.K_F9)
    assert app.capture.active and app.message == "Capturing the window to s-capture.gif (F9 stops)"
    assert app.panel.gif_button.text == "Stop and save GIF (F9)"
    frames(app, 59)  # 60 frames captured: F9's frame and these
    capture = app.capture.current
    assert app.capture.status_text() == f"Capturing: {capture.taken} frames"
    tap(app, pygame.K_F9)
    assert not app.capture.active and app.panel.gif_button.text == "Capture GIF (F9)"
    encoded(app)
    out = scene_file.with_name("s-capture.gif")
    assert app.message.startswith(f"Saved {out.name}: {capture.taken} frames, 1.0 s")
    assert capture.taken + capture.skipped == 50  # 60 frames at 60 a second: slots 0..49 at 50 a second
    n, size, _, (first, _middle, last) = gif_facts(out)
    assert n == capture.taken and size == SIZE
    assert np.abs(first - last).max() > 100
    tap(app, pygame.K_F9)  # again: a new name beside the first
    tap(app, pygame.K_F9)
    encoded(app)
    assert scene_file.with_name("s-capture-2.gif").is_file()


@pytest.mark.slow
def test_the_keep_page_button_captures_and_the_status_line_counts_the_encoding(app, scene_file, monkeypatch):
    gate = threading.Event()
    real_add = gif_writer.GifWriter.add

    def slow_add(self, rgb, slot):
        gate.wait(10)
        real_add(self, rgb, slot)

    monkeypatch.setattr(gif_writer.GifWriter, "add", slow_add)
    monkeypatch.setattr(capture_mode, "QUEUED", 4)
    monkeypatch.setattr(capture_mode, "PROCESS", False)  # the encoder on a thread, which the gate holds
    press_button(app, app.panel.tabs["keep"])
    press_button(app, app.panel.gif_button, k=12)  # 10 slots: one being written, 4 waiting, the rest skipped
    current = app.capture.current
    assert current.skipped > 0  # the queue was full: frames skipped, the loop went on
    assert current.taken + current.skipped == current.due_last + 1  # each slot counted once, taken or skipped
    press_button(app, app.panel.gif_button)
    taken = app.capture.encoding.taken
    assert app.capture.status_text() == f"Encoding GIF: 0/{taken} frames"
    app.panel.rebuild(SIZE)  # (the label survives a rebuild)
    assert app.panel.gif_button.text == "Capture GIF (F9)"
    gate.set()
    encoded(app)
    assert gif_facts(scene_file.with_name("s-capture.gif"))[0] == taken
    assert app.message.startswith(f"Saved s-capture.gif: {taken} frames")
    assert "skipped to hold the frame rate" in app.message


@pytest.mark.slow
def test_closing_while_encoding_finishes_the_gif(tmp_path):
    scene_file = tmp_path / "s.json"
    app = started(App(size=SIZE, realtime=False, scene_path=scene_file))
    tap(app, pygame.K_F9)
    frames(app, 20)
    tap(app, pygame.K_ESCAPE)  # Esc never stops it
    assert app.capture.active
    taken = app.capture.current.taken
    app.close()
    assert gif_facts(tmp_path / "s-capture.gif")[0] == taken
    assert [p.name for p in tmp_path.iterdir()] == ["s-capture.gif"]
