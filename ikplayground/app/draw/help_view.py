"""Panes over the stage that scroll: the F1 help (every control, then the panel's rows for the selected chain)
and the message log (every status message, whole). Rows are wrapped to the pane's width, never cut; what does
not fit scrolls (mouse wheel, Page Up/Down, Up/Down, Home/End). Pixels, y down."""

from __future__ import annotations

from typing import NamedTuple

import pygame

from ikplayground.app.commands import help_rows
from ikplayground.app.draw.overlay import Fonts, render_text, wrap_text
from ikplayground.app.panel.param_widgets import panel_help_rows

PANE_BG = (12, 14, 19, 225)
HELP_KEY = (143, 184, 255)
HELP_TEXT = (220, 224, 232)
HELP_HEADING = (143, 184, 255)
FOOT = (130, 138, 152)
BAR = (90, 98, 116)
PANEL_HEADING = "The panel, for the selected chain"
NO_CHAIN_HELP = "select a chain (click it, or Tab) to see its settings here"
HELP_FOOT = "F1 or Esc closes this help"
LOG_FOOT = "Ctrl+L or a click on the status line closes the messages"
SCROLL_FOOT = "  ·  wheel, Page Up/Down, Up/Down, Home/End scroll"
TOP = 60  # px: the title's band
BOTTOM = 30  # px: the closing hint's band
MARGIN = 24  # px: left and right of the rows
KEY_SHARE = 0.4  # the key column's width at most, a share of the rows' width
LINE_STEP = 40  # px an arrow key or a wheel notch scrolls


class Line(NamedTuple):
    """One drawn line of a pane: ``y`` px from the rows' top, its key part and text part (either may be "")."""

    y: int
    keys: str
    text: str
    font: pygame.font.Font
    colour: tuple[int, int, int]


def help_content(solver: str | None) -> list[tuple[str | None, str, str]]:
    """The help's rows: (keys, text, "body" or "small"); keys None is a heading."""
    rows: list[tuple[str | None, str, str]] = [(k, t, "body") for k, t in help_rows()]
    rows.append((None, PANEL_HEADING, "body"))
    panel = panel_help_rows(solver) if solver else [("", NO_CHAIN_HELP)]
    return rows + [(k, t, "small") for k, t in panel]


def lay_out(rows, fonts: Fonts, width: int) -> tuple[int, list[Line], int]:
    """``rows`` (keys, text, size) wrapped into ``width`` px: (key column px, lines, total height px)."""
    natural = max((fonts.keys.size(k)[0] for k, _, _ in rows if k), default=0)
    key_w = min(natural + 20, int(width * KEY_SHARE)) if natural else 0
    lines: list[Line] = []
    y = 0
    for keys, text, size in rows:
        if keys is None:  # a heading
            y += 10
            lines.append(Line(y, "", text, fonts.keys, HELP_HEADING))
            y += fonts.keys.get_linesize() + 6
            continue
        font = fonts.body if size == "body" else fonts.small
        key_lines = wrap_text(keys, fonts.keys, max(key_w - 12, 20)) if keys else []
        text_lines = wrap_text(text, font, max(width - key_w, 40)) or [""]
        step = font.get_linesize() + 2
        for i in range(max(len(key_lines), len(text_lines))):
            lines.append(Line(y, key_lines[i] if i < len(key_lines) else "",
                              text_lines[i] if i < len(text_lines) else "", font, HELP_TEXT))
            y += step
    return key_w, lines, y


class Pane:
    """A scrolling pane's state: how far it is scrolled (px) and how far it can be."""

    def __init__(self):
        self.scroll = 0
        self.max_scroll = 0
        self.page = 300  # px a Page Up/Down scrolls: the visible rows' height, set as drawn
        self._cache: tuple | None = None

    def handle(self, event) -> bool:
        """Scroll by a wheel or key event; True when the event was the pane's."""
        step = None
        if event.type == pygame.MOUSEWHEEL:
            step = -event.y * LINE_STEP
        elif event.type == pygame.KEYDOWN:
            step = {pygame.K_UP: -LINE_STEP, pygame.K_DOWN: LINE_STEP, pygame.K_PAGEUP: -self.page,
                    pygame.K_PAGEDOWN: self.page, pygame.K_HOME: -10 ** 9, pygame.K_END: 10 ** 9}.get(event.key)
        if step is None:
            return False
        self.scroll = min(max(self.scroll + step, 0), self.max_scroll)
        return True

    def draw(self, surface: pygame.Surface, stage: pygame.Rect, fonts: Fonts, title: str, rows, foot: str) -> None:
        """Draw ``rows`` in a box over ``stage`` (laid out again only when they or the stage change)."""
        key = (stage.size, tuple(rows))
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, box_and_lines(stage, fonts, rows))
        box, key_w, lines, height = self._cache[1]
        view_h = box.height - TOP - BOTTOM
        self.max_scroll = max(0, height - view_h)
        self.page = max(view_h - LINE_STEP, LINE_STEP)
        self.scroll = min(max(self.scroll, 0), self.max_scroll)
        draw_lines(surface, box, fonts, title, key_w, lines, height, self.scroll,
                   foot + (SCROLL_FOOT if self.max_scroll else ""))


def box_and_lines(stage: pygame.Rect, fonts: Fonts, rows):
    """The pane's box (centred on ``stage``), key column px, lines and rows' height px."""
    width = stage.width - 20
    natural = max((fonts.keys.size(k)[0] for k, _, _ in rows if k), default=0) + 20
    widest = max((fonts.body.size(t)[0] for _, t, _ in rows), default=0)
    w = min(width, natural + widest + 2 * MARGIN + 8)
    key_w, lines, height = lay_out(rows, fonts, w - 2 * MARGIN)
    box = pygame.Rect(0, 0, w, max(min(stage.height - 20, TOP + height + BOTTOM), TOP + BOTTOM))
    box.center = stage.center
    return box, key_w, lines, height


def draw_lines(surface, box: pygame.Rect, fonts: Fonts, title: str, key_w: int, lines: list[Line], height: int,
               scroll: int, foot: str) -> None:
    """The box, its title, the lines in view (whole lines only) scrolled by ``scroll`` px, a scroll bar, the foot."""
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, PANE_BG, shade.get_rect(), border_radius=10)
    surface.blit(shade, box.topleft)
    surface.blit(render_text(fonts.title, title, (255, 255, 255)), (box.x + MARGIN, box.y + 16))
    top, bottom = box.y + TOP, box.bottom - BOTTOM
    x = box.x + MARGIN
    for line in lines:
        y = top + line.y - scroll
        if y < top or y + line.font.get_linesize() > bottom:
            continue
        if line.keys:
            surface.blit(render_text(fonts.keys, line.keys, HELP_KEY), (x, y))
        if line.text:
            indent = 0 if line.colour == HELP_HEADING else key_w
            surface.blit(render_text(line.font, line.text, line.colour), (x + indent, y))
    view = bottom - top
    if height > view > 0:  # a scroll bar: where the view is in the rows
        track = pygame.Rect(box.right - 10, top, 4, view)
        thumb = pygame.Rect(track.x, top + round(view * scroll / height), 4, max(12, round(view * view / height)))
        pygame.draw.rect(surface, (40, 44, 54), track, border_radius=2)
        pygame.draw.rect(surface, BAR, thumb.clamp(track), border_radius=2)
    surface.blit(render_text(fonts.small, foot, FOOT), (x, box.bottom - 24))


def draw_help(surface: pygame.Surface, stage: pygame.Rect, fonts: Fonts, solver: str | None = None,
              pane: Pane | None = None) -> Pane:
    """The F1 help over ``stage`` for ``solver`` (None: no chain selected), scrolled as ``pane`` is."""
    pane = pane or Pane()
    pane.draw(surface, stage, fonts, "ikplayground controls", help_content(solver), HELP_FOOT)
    return pane


def log_content(entries) -> list[tuple[str | None, str, str]]:
    """The message log's rows from (seconds, text, error) entries, newest last."""
    if not entries:
        return [("", "no messages yet", "body")]
    return [(f"{t:7.1f} s" + ("  error" if error else ""), text, "body") for t, text, error in entries]


def pane_event(app, event) -> bool:
    """While ``app``'s help or message log shows: its scrolling keys and wheel (over the stage), and Esc closing
    the log; True when the event was the pane's (the App goes no further with it)."""
    pane = app.help_pane if app.show_help else app.log_pane if app.status.log_open else None
    if pane is None or app.panel.typing():
        return False
    if event.type == pygame.MOUSEWHEEL and not (app.mouse is not None and app.on_stage(app.mouse)):
        return False
    if pane is app.log_pane and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
        app.status.log_open = False
        return True
    return pane.handle(event)
