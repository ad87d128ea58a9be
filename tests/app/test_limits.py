"""Input the App must survive without freezing or crashing: huge pastes and bursts of
typing into the scene file box, text no font can draw, windows too big to hold."""

from __future__ import annotations

import os

import pygame
import pytest

from ikplayground.app import app as app_module
from ikplayground.app.app import App
from ikplayground.app.size_caps import MAX_PIXELS, MAX_SIDE, PATH_MAX_BYTES, capped_size
from tests.app.conftest import SIZE, frames, key_down, post, press_button, tap

CAP = PATH_MAX_BYTES
assert CAP == 4095  # Linux's PATH_MAX less its closing NUL, in UTF-8 bytes


def focus_box(app):
    entry = app.panel.path_entry
    app.ui.set_focus_set(entry)
    assert entry.is_focused
    return entry


def type_chars(text: str) -> None:
    """Post ``text`` one character per TEXTINPUT event, as fast typing or a typing tool sends it."""
    for ch in text:
        post(pygame.TEXTINPUT, text=ch)


def paste(app, text: str) -> None:
    pygame.scrap.put_text(text)
    key_down(pygame.K_v, pygame.KMOD_CTRL)
    frames(app)


# --- the scene file box: length ----------------------------------------------------------
@pytest.mark.slow
def test_a_10000_character_paste_leaves_the_box_within_the_cap_and_says_why(app):
    entry = focus_box(app)
    before = entry.get_text()
    paste(app, "a" * 10_000)
    assert len(entry.get_text().encode()) <= CAP
    assert entry.get_text() == before  # a path cut short is a wrong path: the paste is refused whole
    frames(app)
    assert app.message_is_error and "Not pasted" in app.message and f"{CAP:,}" in app.message
    assert app.running


@pytest.mark.slow
def test_a_paste_that_fits_goes_in_at_the_cursor_whole(app):
    entry = focus_box(app)
    entry.set_text("")
    paste(app, "/tmp/" + "d" * 3000 + ".json")
    assert entry.get_text() == "/tmp/" + "d" * 3000 + ".json"
    assert entry.edit_position == len(entry.get_text())


@pytest.mark.slow
def test_gathered_typing_edits_like_typing(app):
    entry = focus_box(app)
    entry.set_text("ac.json")
    for _ in range(6):
        tap(app, pygame.K_LEFT)
    type_chars("b")
    frames(app)
    assert entry.get_text() == "abc.json"
    tap(app, pygame.K_a, pygame.KMOD_CTRL)  # select all, then type over it
    type_chars("new")
    frames(app)
    assert entry.get_text() == "new"
    tap(app, pygame.K_a, pygame.KMOD_CTRL)  # select all, then paste over it
    paste(app, "pasted.json")
    assert entry.get_text() == "pasted.json" and entry.edit_position == len("pasted.json")
    tap(app, pygame.K_BACKSPACE)
    assert entry.get_text() == "pasted.jso"


@pytest.mark.slow
def test_typing_stops_at_the_cap_and_says_so(app):
    entry = focus_box(app)
    entry.set_text("a" * (CAP - 5))
    type_chars("b" * 40)
    frames(app, 2)
    assert entry.get_text() == "a" * (CAP - 5) + "b" * 5
    assert app.message_is_error and "limit" in app.message
    # a 2-byte character does not fit in the last byte: the cap counts bytes
    entry.set_text("a" * (CAP - 1))
    type_chars("\u00e9")
    frames(app)
    assert entry.get_text() == "a" * (CAP - 1)


@pytest.mark.slow
def test_a_burst_of_typing_is_laid_out_once_a_frame_not_once_a_character(app, monkeypatch):
    """pygame_gui lays out and draws the whole line for every character it inserts, a cost
    that grows with the line; 2000 characters typed in a frame took seconds. Now they are
    gathered and laid out once."""
    entry = focus_box(app)
    entry.set_text("")
    layouts = []
    shape = entry.drawable_shape
    for name in ("set_text", "insert_text"):
        real = getattr(shape, name)
        monkeypatch.setattr(shape, name, lambda *a, _real=real, _name=name: layouts.append(_name) or _real(*a))
    type_chars("x" * 300)
    frames(app)
    assert entry.get_text() == "x" * 300
    assert len(layouts) <= 2, layouts


@pytest.mark.slow
def test_a_10000_character_textinput_event_leaves_at_most_the_cap(app):
    entry = focus_box(app)
    entry.set_text("")
    post(pygame.TEXTINPUT, text="c" * 10_000)
    frames(app, 2)
    assert entry.get_text() == "c" * CAP
    assert "limit" in app.message


@pytest.mark.slow
def test_typed_text_then_enter_in_one_frame_sets_the_whole_path(app, tmp_path):
    entry = focus_box(app)
    entry.set_text(str(tmp_path) + "/")
    type_chars("typed.json")
    key_down(pygame.K_RETURN, unicode="\r")
    frames(app, 2)
    assert app.scene_path == tmp_path / "typed.json"


@pytest.mark.slow
def test_text_typed_in_the_frame_of_a_resize_is_kept(app):
    entry = focus_box(app)
    entry.set_text("")
    type_chars("kept.json")
    post(pygame.VIDEORESIZE, size=(900, 700), w=900, h=700)
    frames(app, 2)
    assert app.panel.path_entry.get_text() == "kept.json"


@pytest.mark.slow
def test_the_app_key_repeat_survives_the_box(app):
    """pygame_gui turns key repeat off when a text box loses focus: held N would stop repeating."""
    repeat = pygame.key.get_repeat()
    assert repeat == app_module.KEY_REPEAT
    focus_box(app)
    frames(app)
    app.ui.set_focus_set(None)
    frames(app)
    assert pygame.key.get_repeat() == repeat


# --- text no font can draw -------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("text", ["\ud800", "a\udcffb", "a\x00b", "\u200b", "x\u200by", "\x07", "path\n"])
def test_typed_or_pasted_text_a_font_cannot_draw_is_left_out_and_said(app, text):
    entry = focus_box(app)
    entry.set_text("")
    post(pygame.TEXTINPUT, text=text)
    frames(app, 3)
    kept = "".join(ch for ch in text if ch.isalnum())
    assert entry.get_text() == kept
    assert "Left out" in app.message
    try:
        pygame.scrap.put_text(text)
    except (ValueError, UnicodeError):  # no clipboard holds a NUL or a lone surrogate
        return
    entry.set_text("")
    key_down(pygame.K_v, pygame.KMOD_CTRL)
    frames(app, 3)
    assert entry.get_text() == kept
    assert app.running


@pytest.mark.slow
@pytest.mark.parametrize("message", ["Saved to \udcff.json", "Not loaded: key \x00 is wrong", "\u200b"])
@pytest.mark.parametrize("error", [False, True])
def test_status_and_error_text_a_font_cannot_draw_is_replaced_not_raised(app, message, error):
    app.say(message, error=error)
    frames(app, 2)
    assert app.running


@pytest.mark.slow
def test_a_scene_path_that_is_not_utf8_shows_and_saves_under_its_own_name(tmp_path):
    raw = os.fsdecode(b"sc\xffene.json")  # how Python hands over such a file name: '\udcff'
    path = tmp_path / raw
    app = App(size=SIZE, realtime=False, scene_path=path)
    try:
        frames(app, 2)
        entry = app.panel.path_entry
        assert "\udcff" not in entry.text and "\ufffd" in entry.text  # drawn as a replacement mark
        assert entry.get_text() == str(path)  # ... but the box still stands for the real name
        press_button(app, app.panel.save_button)
        frames(app, 2)
        assert os.path.exists(os.fsencode(path))
        assert "ene.json" in app.message  # the message names it, and draws
    finally:
        app.close()


# --- the window --------------------------------------------------------------------------
def test_capped_size_keeps_within_both_caps_and_the_shape():
    assert capped_size((1280, 720)) == (1280, 720)
    assert capped_size((7680, 4320)) == (7680, 4320)
    for size in [(20000, 20000), (100_000, 300), (300, 100_000), (16384, 16384), (12000, 6000)]:
        w, h = capped_size(size)
        assert w <= MAX_SIDE and h <= MAX_SIDE and w * h <= MAX_PIXELS
    w, h = capped_size((20000, 20000))
    assert w == h and w * h > 0.99 * MAX_PIXELS


@pytest.mark.slow
def test_a_resize_to_20000_squared_is_capped_and_says_so(app):
    post(pygame.VIDEORESIZE, size=(20000, 20000), w=20000, h=20000)
    frames(app, 2)
    w, h = app.screen.get_size()
    assert w <= MAX_SIDE and h <= MAX_SIDE and w * h <= MAX_PIXELS
    assert "capped" in app.message and f"{w}x{h}" in app.message
    # laid out for the size it has
    assert app.panel.rect.right == w and app.panel.rect.height == h
    assert app.scene.stage == (w - app.panel.width, h - app_module.STATUS_HEIGHT)
    tap(app, pygame.K_n, unicode="n")
    assert app.running


@pytest.mark.slow
def test_a_window_asked_too_big_at_start_is_capped_and_says_so():
    app = App(size=(20000, 20000), realtime=False)
    try:
        w, h = app.screen.get_size()
        assert w * h <= MAX_PIXELS
        assert "capped" in app.message
        frames(app)
    finally:
        app.close()


@pytest.mark.slow
def test_a_window_the_system_cannot_make_keeps_its_size_and_says_so(app, monkeypatch):
    real = pygame.display.set_mode

    def set_mode(size, *args):
        if size[0] * size[1] > 2_000_000:
            raise pygame.error("Out of memory")
        return real(size, *args)

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    size = app.screen.get_size()
    post(pygame.VIDEORESIZE, size=(3000, 2000), w=3000, h=2000)
    frames(app, 2)
    assert app.screen.get_size() == size
    assert app.message_is_error and "could not" in app.message
    assert app.panel.rect.right == size[0]


@pytest.mark.slow
def test_the_notice_event_is_a_panel_command(app):
    app.panel.path_entry.notice("hello")
    frames(app)
    assert app.message == "hello"


class DeadSurface:
    """What ``App.screen`` is after SDL failed to give a resized window a surface (a real X
    window resized to 20000x20000): pygame frees the display surface under the App."""

    def get_size(self):
        raise pygame.error("Surface is not initialized")


@pytest.mark.slow
def test_a_resize_whose_surface_sdl_dropped_makes_a_new_one(app):
    app.screen = DeadSurface()
    post(pygame.VIDEORESIZE, size=(20000, 20000), w=20000, h=20000)
    frames(app, 2)
    w, h = app.screen.get_size()
    assert w * h <= MAX_PIXELS and "capped" in app.message


@pytest.mark.slow
def test_many_resizes_in_one_frame_lay_out_once_for_the_last(app, monkeypatch):
    """Dragging a window edge sends a resize per mouse move; each costs a panel rebuild,
    so handling all of them would slow the frame and let still more pile up."""
    rebuilds = []
    real = app.panel.rebuild
    monkeypatch.setattr(app.panel, "rebuild", lambda size: rebuilds.append(tuple(size)) or real(size))
    for w in range(700, 1200, 50):
        post(pygame.VIDEORESIZE, size=(w, 600), w=w, h=600)
    frames(app)
    assert rebuilds == [(1150, 600)]
    assert app.screen.get_size() == (1150, 600)


@pytest.mark.slow
def test_a_long_error_wraps_only_the_lines_it_shows(app):  # app: fonts initialised
    from ikplayground.app.draw.overlay import Fonts, wrap_text

    message = "Not saved: " + "p" * 10_000 + ": File name too long"
    lines = wrap_text(message, Fonts().body, 400, max_lines=6)
    assert len(lines) == 6
    shown = "".join(lines).replace(" ", "")
    assert shown == message.replace(" ", "")[:len(shown)]


@pytest.mark.parametrize("text", ["20000x20000", "16385x100", "7681x4321"])
def test_the_command_line_refuses_a_window_over_the_cap_in_one_line(text, capsys):
    from ikplayground import cli

    with pytest.raises(SystemExit) as exit_:
        cli.main(["--headless", "--frames", "1", "--size", text])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"--size: {text} is too big" in err and "16384 px a side" in err


def test_the_command_line_takes_a_window_at_the_cap():
    from ikplayground import cli

    assert cli.parse_size("7680x4320") == (7680, 4320)
