"""Text that fits: the status line keeps left of the panel (the whole message in the log), the F1 help scrolls
through every row, menus near the bottom open upward, the path box shows its end, panel labels fit or say
their whole text in a tool tip, the Math card wraps its notes."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.app import App
from ikplayground.app.draw import help_view, overlay
from ikplayground.app.draw.fonts import fit_message, shorten_path
from ikplayground.app.panel.math_card import MathCard
from ikplayground.insight.metrics import ChainMetrics
from ikplayground.scene import PRESETS, SETTINGS, straight_snake
from tests.app.conftest import SIZE, click, ctrl, frames, post, press_button, started, tap

LONG_PATH = "/home/someone/projects/ikplayground/work/scenes/tentacles-and-snakes.json"


def blits(monkeypatch, module) -> list[str]:
    """The texts ``module`` renders from now on (its ``render_text`` spied on)."""
    seen: list[str] = []
    real = module.render_text

    def spy(font, text, colour):
        seen.append(text)
        return real(font, text, colour)

    monkeypatch.setattr(module, "render_text", spy)
    return seen


def test_a_path_is_shortened_in_its_middle_and_a_message_to_its_width():
    assert shorten_path(LONG_PATH) == "/home/.../scenes/tentacles-and-snakes.json"
    assert shorten_path("scenes/s.json") == "scenes/s.json"
    pygame.font.init()
    font = overlay.Fonts().small
    text = f"Saved 12 chains to {LONG_PATH}"
    for width in (600, 320, 120, 3):
        fitted = fit_message(font, text, width)
        assert font.size(fitted)[0] <= width
    short = "Saved 12 chains to /home/.../scenes/tentacles-and-snakes.json"
    assert fit_message(font, text, font.size(short)[0]) == short
    assert fit_message(font, text, 2000) == text


@pytest.mark.parametrize("width", [980, 420, 200])
def test_the_status_line_draws_nothing_past_its_end(width):
    pygame.font.init()
    drawn = []
    real = pygame.Surface.blit

    class Spy(pygame.Surface):
        def blit(self, source, dest, area=None, *args, **kwargs):
            size = area.size if area is not None else source.get_size()
            drawn.append(pygame.Rect(dest, (min(size[0], source.get_width()), size[1])))
            return real(self, source, dest, area, *args, **kwargs)

    spy = Spy((1280, 720))
    rect = pygame.Rect(0, 694, width, 26)
    facts = "60 FPS   ·   5 chains   ·   CCD #3  error 0.3 px  reached  4 it   ·   step 1.1 ms  draw 2.0 ms"
    overlay.draw_status(spy, rect, facts, "Exported 7 tracks (1512 keyframes) to " + LONG_PATH, overlay.Fonts())
    assert drawn and all(r.right <= rect.right for r in drawn), drawn


def test_every_message_goes_whole_to_the_log_that_ctrl_l_or_a_click_on_the_status_line_opens(app):
    long = "Saved " + LONG_PATH + " " + "x" * 300
    app.say(long)
    app.say("second")
    frames(app)
    assert [text for _, text, _ in app.status.log][-2:] == [long, "second"]
    ctrl(app, pygame.K_l, "\x0c")
    assert app.status.log_open and app.log_pane.scroll == app.log_pane.max_scroll
    ctrl(app, pygame.K_l, "\x0c")
    assert not app.status.log_open
    click(app, (200, SIZE[1] - 10))  # the status line
    assert app.status.log_open
    tap(app, pygame.K_ESCAPE)  # closes the log, does not quit
    assert not app.status.log_open and app.running
    click(app, (200, SIZE[1] - 10))
    click(app, (200, SIZE[1] - 10))
    assert not app.status.log_open


def test_the_help_scrolls_by_wheel_and_keys(app):
    tap(app, pygame.K_F1)
    pane = app.help_pane
    assert app.show_help and pane.max_scroll > 0 and pane.scroll == 0
    post(pygame.MOUSEMOTION, pos=(300, 300), rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False, precise_x=0.0, precise_y=-2.0)
    frames(app)
    assert pane.scroll == min(2 * help_view.LINE_STEP, pane.max_scroll)
    tap(app, pygame.K_UP)
    assert pane.scroll == min(2 * help_view.LINE_STEP, pane.max_scroll) - help_view.LINE_STEP
    assert "throttle" not in app.held  # Up scrolled the help, not the snake
    tap(app, pygame.K_END)
    assert pane.scroll == pane.max_scroll
    tap(app, pygame.K_PAGEUP)
    assert pane.scroll == max(pane.max_scroll - pane.page, 0)
    tap(app, pygame.K_HOME)
    assert pane.scroll == 0
    tap(app, pygame.K_PAGEDOWN)
    tap(app, pygame.K_DOWN)
    assert pane.scroll == min(pane.page + help_view.LINE_STEP, pane.max_scroll)


@pytest.mark.parametrize("size", [(1280, 720), (640, 360)])
def test_scrolling_the_help_shows_every_row_whole(monkeypatch, size):
    pygame.font.init()
    fonts = overlay.Fonts()
    stage = pygame.Rect(0, 0, size[0] - 300, size[1] - overlay.STATUS_HEIGHT)
    rows = help_view.help_content("two-bone")
    _, _, lines, _ = help_view.box_and_lines(stage, fonts, rows)
    seen = blits(monkeypatch, help_view)
    pane = help_view.draw_help(pygame.Surface(size), stage, fonts, "two-bone")
    assert "…" not in "".join(seen)
    while pane.scroll < pane.max_scroll:
        pane.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEDOWN))
        help_view.draw_help(pygame.Surface(size), stage, fonts, "two-bone", pane)
    wanted = {t for line in lines for t in (line.keys, line.text) if t}
    assert wanted <= set(seen), wanted - set(seen)
    words = " ".join(seen).split()
    assert all(w in words for k, t, _ in rows for w in (k or "").split() + t.split())


def test_the_preset_menu_opens_upward_and_shows_its_last_preset(app):
    menu = app.panel.preset_menu
    assert menu.expand_direction == "up"
    press_button(app, app.panel.preset_menu.current_state.open_button)
    state = app.panel.preset_menu.current_state
    listed = state.options_selection_list
    box = listed.get_abs_rect()
    assert box.top >= 0 and box.bottom <= SIZE[1]
    assert listed.scroll_bar is None  # every preset shows, the last too
    assert [item["text"] for item in listed.item_list][-1] == list(PRESETS)[-1]
    assert app.panel.solver.expand_direction == "down"  # near the top: downward as ever


def test_the_path_box_shows_the_end_of_its_path(app):
    entry = app.panel.path_entry
    entry.set_text(LONG_PATH)
    frames(app)
    layout = entry.drawable_shape.text_box_layout
    assert entry.edit_position == len(LONG_PATH) and layout.x_scroll_offset > 0
    entry.focus()
    entry.unfocus()
    frames(app)
    assert entry.edit_position == len(LONG_PATH) and layout.x_scroll_offset > 0


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 720), (500, 350)])
def test_every_panel_label_fits_or_tells_its_whole_text_in_its_tool_tip(tmp_path, size):
    app = started(App(size=size, realtime=False, scene_path=tmp_path / "s.json"))
    try:
        cut = 0
        for s in SETTINGS:
            row = app.panel.setting_rows.rows[s.name]
            label = getattr(row, "label", None)
            if label is None:
                continue
            if label.text != s.label:
                cut += 1
                assert label.text.endswith("…") and label.tool_tip_text.startswith(s.label + ":")
            else:
                assert not label.tool_tip_text.startswith(s.label + ":")
            value = getattr(row, "value", None)
            if value is not None and not label.text.endswith("…"):
                assert not value.text.endswith("…")
        assert (cut == 0) == (size == (1280, 720))  # a roomy panel cuts none
        for row in app.panel.setting_rows.sliders.values():
            assert "…" not in row.value.text
    finally:
        app.close()


def test_the_math_card_wraps_a_snake_s_note_to_its_width():
    pygame.font.init()
    card = MathCard((180, 300))
    drawn = []
    real = card.text

    def spy(text, pos, colour=(0, 0, 0), font=None):
        width = real(text, pos, colour, font)
        drawn.append((text, pos[0] + width))
        return width

    card.text = spy  # type: ignore[method-assign]
    snake = straight_snake(np.array((100.0, 100.0)), 0.0, 8, 20.0)
    card.render(snake, ChainMetrics(), [])
    assert all(right <= 180 for _, right in drawn), drawn
    assert "measure." in " ".join(t for t, _ in drawn).split()
