"""The Keep page's timeline in the real App: open a recording (Load last, the file box), play, pause, scrub, step
([ ]), loop, onion skins, Esc giving the live scene back as it was, a bad file refused in one line. Driven by
posted events."""

from __future__ import annotations

import csv
import time

import numpy as np
import pygame
import pygame_gui
import pytest

from ikplayground.app.draw.render import chain_colour
from ikplayground.app.draw.timeline_draw import ONION_FADE, faded
from ikplayground.app.modes.timeline_mode import ONION_SKINS
from tests.app.conftest import check, ctrl, drag, frames, post, press_button, tap

pytestmark = pytest.mark.slow


@pytest.fixture
def recorded(app):
    """``app`` after a recording of 90 steps (Ctrl+R, a drag of the CCD chain's target over 33 frames, 56 more,
    Ctrl+R), on its Keep page; the recording's path."""
    ctrl(app, pygame.K_r)
    target = app.view.camera.to_screen(app.scene.chains[1].fields["target"])
    drag(app, target, target + (-150, 80), steps=30)
    frames(app, 56)
    ctrl(app, pygame.K_r)
    assert app.message.startswith("Saved 90 steps")
    press_button(app, app.panel.tabs["keep"])
    return app.record.path


def snapshot(app) -> list[dict[str, np.ndarray]]:
    return [{k: v.copy() for k, v in c.fields.items()} for c in app.scene.chains]


def same(a, b) -> bool:
    return len(a) == len(b) and all(x.keys() == y.keys() and all(np.array_equal(x[k], y[k], equal_nan=True)
                                                                    for k in x) for x, y in zip(a, b))


def csv_joints(path, step: int) -> np.ndarray:
    with open(path, newline="", encoding="utf-8") as file:
        return np.array([(float(r["x"]), float(r["y"])) for r in csv.DictReader(file) if int(r["step"]) == step])


def open_last(app) -> None:
    press_button(app, app.panel.timeline_last_button)
    assert app.timeline.open, app.message


def scrub(app, value: int) -> None:
    slider = app.panel.keep_page.timeline.slider
    slider.set_current_value(value, warn=False)
    post(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=slider, value=value)
    frames(app)


@pytest.fixture
def facts(monkeypatch):
    """The facts the status line draws, frame by frame (the last one is ``facts[-1]``)."""
    seen: list[str] = []
    monkeypatch.setattr("ikplayground.app.draw.chrome.draw_status", lambda surface, rect, text, *_: seen.append(text))
    return seen


def test_load_last_opens_the_recording_and_the_scene_waits(app, recorded, facts):
    before = snapshot(app)
    open_last(app)
    assert len(app.timeline.frames) == 90 and app.timeline.playhead == 0
    assert app.message == f"Opened {recorded.name} in the timeline: 90 steps (1.50 s); the scene waits"
    assert facts[-1] == "Timeline: step 0 / 89 (0.00 s), Space plays, [ ] step, Esc closes"  # the status line's
    frames(app, 5)
    assert same(snapshot(app), before)  # no steps while it is open
    assert app.panel.keep_page.timeline.entry.get_text() == str(recorded)


def test_space_plays_and_pauses_and_esc_gives_the_scene_back_as_it_was(app, recorded):
    tap(app, pygame.K_SPACE)  # the scene paused: Esc's frame takes no step, so it is exactly as it was
    assert app.paused
    before = snapshot(app)
    open_last(app)
    tap(app, pygame.K_SPACE)  # let go: it plays (one step this frame)
    assert app.timeline.playing and app.panel.timeline_play_button.text == "Pause"
    frames(app, 9)
    assert app.timeline.playhead == 10
    tap(app, pygame.K_SPACE)
    held = app.timeline.playhead
    frames(app, 5)
    assert not app.timeline.playing and app.timeline.playhead == held and app.paused
    tap(app, pygame.K_ESCAPE)
    assert not app.timeline.open and same(snapshot(app), before) and app.paused
    assert app.message == "Timeline closed: the scene is back as it was, paused (Space resumes)"
    tap(app, pygame.K_SPACE)  # Space pauses and resumes the scene again
    assert not app.paused and not same(snapshot(app), before)


def test_playing_stops_at_the_end(app, recorded):
    open_last(app)
    scrub(app, 85)
    press_button(app, app.panel.timeline_play_button, k=10)
    assert app.timeline.playhead == 89 and not app.timeline.playing
    press_button(app, app.panel.timeline_play_button)  # at the end: from the start again
    assert app.timeline.playing and app.timeline.playhead == 1


def test_the_slider_scrubs_and_the_pose_drawn_is_the_csvs(app, recorded):
    open_last(app)
    scrub(app, 40)
    assert app.timeline.playhead == 40 and "step 40 / 89" in app.timeline.status_text()
    joints = csv_joints(recorded, 40)
    lines = app.timeline.lines()
    drawn = np.concatenate([line.points[1:] for line in lines])  # each led by a point not in the rows: a root, a head
    assert np.array_equal(drawn, joints)
    app.draw()
    camera, checked = app.view.camera, 0
    for line in lines:
        if line.solver == "snake":
            continue
        colour = chain_colour(app.scene.chains[line.chain])
        others = np.concatenate([o.points for o in lines if o.chain != line.chain])
        for p in line.points:
            if np.hypot(*(others - p).T).min() > 8:  # no other chain's joint nearby
                x, y = np.round(camera.to_screen(p)).astype(int)
                assert tuple(app.screen.get_at((x, y)))[:3] == colour
                checked += 1
    assert checked >= 10
    step_before = app.timeline.playhead
    tap(app, pygame.K_ESCAPE)
    assert not app.timeline.open and app.message == "Timeline closed: the scene runs on" and step_before == 40


def test_brackets_step_one_frame_and_pause(app, recorded):
    open_last(app)
    scrub(app, 20)
    tap(app, pygame.K_RIGHTBRACKET)
    assert app.timeline.playhead == 21
    tap(app, pygame.K_LEFTBRACKET)
    tap(app, pygame.K_LEFTBRACKET)
    assert app.timeline.playhead == 19
    tap(app, pygame.K_SPACE, k=4)
    assert app.timeline.playing
    tap(app, pygame.K_RIGHTBRACKET)
    assert not app.timeline.playing and app.timeline.playhead == 19 + 4 + 1
    scrub(app, 0)
    tap(app, pygame.K_LEFTBRACKET)
    assert app.timeline.playhead == 0  # the first frame holds


def test_brackets_with_the_timeline_closed_say_how_to_open_it(app):
    tap(app, pygame.K_RIGHTBRACKET)
    assert not app.timeline.open and app.message.startswith("The timeline is closed")


def test_a_loop_range_wraps(app, recorded):
    open_last(app)
    scrub(app, 10)
    press_button(app, app.panel.loop_from_button)
    scrub(app, 20)
    press_button(app, app.panel.loop_to_button)
    assert app.timeline.loop == (10, 20) and "loop 10-20" in app.timeline.status_text()
    assert "loop 10-20" in app.panel.keep_page.timeline.label.text
    press_button(app, app.panel.timeline_play_button)  # at the loop's end: from its start
    seen = [app.timeline.playhead]
    for _ in range(25):
        frames(app)
        seen.append(app.timeline.playhead)
    assert seen == [10 + (1 + i) % 11 for i in range(26)]
    press_button(app, app.panel.loop_clear_button)
    assert app.timeline.loop is None


def test_a_loop_end_set_past_the_other_keeps_a_range(app, recorded):
    open_last(app)
    scrub(app, 50)
    press_button(app, app.panel.loop_from_button)
    assert app.timeline.loop == (50, 89)
    scrub(app, 30)
    press_button(app, app.panel.loop_to_button)  # before the loop's start: from the first step
    assert app.timeline.loop == (0, 30)
    scrub(app, 60)
    press_button(app, app.panel.loop_from_button)  # past the loop's end: to the last step
    assert app.timeline.loop == (60, 89) and app.message == "Loop: steps 60 to 89"


def onion_pixels(app) -> int:
    """Stage pixels of an onion skin's colour (any chain's, any nearness)."""
    colours = {faded(chain_colour(c), ONION_FADE[0] + (ONION_FADE[1] - ONION_FADE[0]) * (d + 1) / ONION_SKINS)
               for c in app.scene.chains for d in range(ONION_SKINS)}
    app.draw()
    stage = pygame.surfarray.array3d(app.screen)[:app.stage_rect.width, :app.stage_rect.height]
    packed = (stage[..., 0].astype(np.int64) << 16) | (stage[..., 1].astype(np.int64) << 8) | stage[..., 2]
    return int(np.isin(packed, [(r << 16) | (g << 8) | b for r, g, b in colours]).sum())


def test_onion_skins_are_drawn_and_the_box_turns_them_off(app, recorded):
    open_last(app)
    scrub(app, 45)
    assert [i for i, _ in app.timeline.onion_frames()] == [27, 63, 33, 57, 39, 51]
    assert onion_pixels(app) > 50
    check(app, app.panel.onion_skins_box, False)
    assert not app.timeline.onion and app.timeline.onion_frames() == []
    assert onion_pixels(app) == 0
    check(app, app.panel.onion_skins_box, True)
    assert onion_pixels(app) > 50


def test_a_recording_of_many_chains_draws_no_onion_skins(app, recorded, monkeypatch):
    open_last(app)
    scrub(app, 45)
    monkeypatch.setattr("ikplayground.app.modes.timeline_mode.ONION_MOST_CHAINS", len(app.scene.chains) - 1)
    assert app.timeline.onion and app.timeline.onion_frames() == [] and onion_pixels(app) == 0


def test_the_file_box_opens_a_recording_and_a_bad_one_changes_nothing(app, recorded, tmp_path):
    entry = app.panel.keep_page.timeline.entry
    entry.set_text(str(recorded))
    press_button(app, app.panel.timeline_open_button)
    assert app.timeline.open and app.timeline.path == recorded
    scrub(app, 30)
    loaded = app.timeline.frames
    bad = tmp_path / "bad.csv"
    bad.write_text(recorded.read_text(encoding="utf-8").replace(",two-bone,", ",jacobian,", 1), encoding="utf-8")
    entry.set_text(str(bad))
    post(pygame_gui.UI_TEXT_ENTRY_FINISHED, ui_element=entry, text=str(bad))
    frames(app)
    assert app.message_is_error and "\n" not in app.message
    assert app.message.startswith("Not opened: bad.csv: line 2: solver: must be one of ")
    assert app.timeline.frames is loaded and app.timeline.playhead == 30 and app.timeline.path == recorded


def test_a_bad_file_with_the_timeline_closed_leaves_it_closed(app, tmp_path):
    before = snapshot(app)
    bad = tmp_path / "empty.csv"
    bad.write_text("", encoding="utf-8")
    app.panel.keep_page.timeline.entry.set_text(str(bad))
    press_button(app, app.panel.timeline_open_button)
    assert not app.timeline.open and app.message.startswith("Not opened: empty.csv: line 1: the file is empty")
    assert not same(snapshot(app), before)  # the scene ran on


def test_load_last_without_a_recording_says_so(app):
    press_button(app, app.panel.timeline_last_button)
    assert not app.timeline.open and app.message.startswith("No recording yet")


def test_the_stage_does_not_drag_while_open(app, recorded):
    open_last(app)
    before = snapshot(app)
    chain = app.scene.chains[0]
    target = app.view.camera.to_screen(chain.fields["target"])
    drag(app, target, target + 60)
    assert same(snapshot(app), before) and app.drag is None


def test_a_resize_keeps_the_timeline_and_its_box(app, recorded):
    open_last(app)
    scrub(app, 12)
    app.resize((900, 600))
    frames(app)
    section = app.panel.keep_page.timeline
    assert section.entry.get_text() == str(recorded) and section.slider.get_current_value() == 12
    assert app.timeline.playhead == 12 and section.label.text == "Step 12 / 89   0.20 s"


def until(app, done, seconds: float = 20.0) -> None:
    """Run frames until ``done()`` or ``seconds`` pass (the reading thread's pace is the machine's, not the frames')."""
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        frames(app)
        time.sleep(0.002)


def test_a_recording_read_on_a_thread_opens_a_few_frames_later_while_the_window_goes_on(app, recorded, monkeypatch):
    import ikplayground.app.modes.timeline_mode as mode

    gate = __import__("threading").Event()
    real = mode.load_frames
    monkeypatch.setattr(mode, "load_frames", lambda path: gate.wait(10) and real(path))
    app.timeline.load(recorded, background=True)  # as a window in real time does
    assert app.timeline.reading and not app.timeline.open
    assert app.message == f"Opening {recorded.name} in the timeline..."
    before = app.frames
    frames(app, 3)  # the window goes on meanwhile
    assert app.frames == before + 3 and not app.timeline.open
    app.timeline.load(recorded, background=True)
    assert app.message == f"Still opening {recorded.name}: a moment"
    gate.set()
    until(app, lambda: app.timeline.open)
    assert app.timeline.open and not app.timeline.reading and app.message.startswith(f"Opened {recorded.name}")
    bad = recorded.with_name("bad.csv")
    bad.write_text("step,chain\n1,2,3\n", encoding="utf-8")
    app.timeline.load(bad, background=True)
    until(app, lambda: not app.timeline.reading)
    assert app.message.startswith("Not opened: ") and app.timeline.path == recorded  # the open one stays
