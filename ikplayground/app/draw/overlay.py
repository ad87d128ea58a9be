"""Text drawn over the stage: the status line, the F1 help, and text made safe for a font (lone surrogates and
control characters replaced)."""

from __future__ import annotations

import unicodedata

import pygame

from ikplayground.app.commands import help_rows
from ikplayground.app.panel.param_widgets import panel_help_rows

STATUS_HEIGHT = 26
STATUS_BG = (14, 16, 21)
STATUS_TEXT = (200, 206, 218)
STATUS_MESSAGE = (255, 214, 102)
HELP_BG = (12, 14, 19, 225)
ERROR_BG = (90, 24, 30, 235)
ERROR_EDGE = (235, 110, 120, 255)
ERROR_TEXT = (255, 230, 232)
HELP_KEY = (143, 184, 255)
HELP_TEXT = (220, 224, 232)
HELP_HEADING = (143, 184, 255)
PANEL_HEADING = "The panel, for the selected chain"
HEADING_GAP = 30  # px: the panel's heading and the space above it
NO_CHAIN_HELP = "select a chain (click it, or Tab) to see its settings here"
REPLACEMENT = "\ufffd"  # the Unicode replacement character (�)


def undrawable(ch: str) -> bool:
    """True for a character no font draws: a lone surrogate or a control character."""
    return unicodedata.category(ch) in ("Cs", "Cc")


def printable(text: str, replacement: str = REPLACEMENT) -> str:
    """``text`` with lone surrogates and control characters replaced by ``replacement``."""
    if text.isprintable():  # the common case: nothing to replace
        return text
    return "".join(replacement if undrawable(ch) else ch for ch in text)


class Fonts:
    """The fonts of the overlays (pygame's default font, shipped with pygame)."""

    def __init__(self):
        self.small = pygame.font.Font(None, 20)
        self.body = pygame.font.Font(None, 22)
        self.title = pygame.font.Font(None, 32)


def render_text(font: pygame.font.Font, text: str, colour) -> pygame.Surface:
    """``text`` drawn by ``font``, what a font cannot take replaced or drawn as nothing instead of raising."""
    text = printable(text)
    if font.size(text)[0] == 0:
        return pygame.Surface((0, font.get_height()), pygame.SRCALPHA)
    return font.render(text, True, colour)


def draw_status(surface: pygame.Surface, rect: pygame.Rect, facts: str, message: str, fonts: Fonts) -> None:
    """The status strip: the facts, then the latest message, cut at the strip's end (errors: ``draw_error``)."""
    pygame.draw.rect(surface, STATUS_BG, rect)
    text = render_text(fonts.small, facts, STATUS_TEXT)
    y = rect.y + (rect.height - text.get_height()) // 2
    surface.blit(text, (rect.x + 10, y))
    if message:
        message = message[:max(0, rect.width // 2)]  # no glyph is under 2 px wide: the rest is cut off anyway
        msg = render_text(fonts.small, message, STATUS_MESSAGE)
        x = rect.x + 10 + text.get_width() + 24
        surface.blit(msg, (x, y), area=pygame.Rect(0, 0, max(0, rect.right - x - 6), msg.get_height()))


def wrap_text(text: str, font: pygame.font.Font, width: int, max_lines: int | None = None) -> list[str]:
    """``text`` in lines at most ``width`` px wide (long words cut); only the first ``max_lines``."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if max_lines is not None and len(lines) >= max_lines:
            return lines[:max_lines]
        trial = f"{line} {word}".strip()
        if font.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
        while font.size(line)[0] > width and len(line) > 1:  # one word wider than the box
            if max_lines is not None and len(lines) >= max_lines:
                return lines[:max_lines]
            cut = max(1, int(len(line) * width / font.size(line)[0]))
            lines.append(line[:cut])
            line = line[cut:]
    if line:
        lines.append(line)
    return lines


def draw_error(surface: pygame.Surface, status: pygame.Rect, message: str, fonts: Fonts) -> None:
    """A red box just above the status strip with the whole message."""
    width = max(40, status.width - 20)
    # six lines of glyphs at least 2 px wide hold no more than this: the rest would not show
    lines = wrap_text(printable(message[:3 * width]), fonts.body, width - 20, max_lines=6)
    line_h = fonts.body.get_linesize()
    box = pygame.Rect(status.x + 10, 0, width, line_h * len(lines) + 14)
    box.bottom = status.y - 6
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, ERROR_BG, shade.get_rect(), border_radius=6)
    pygame.draw.rect(shade, ERROR_EDGE, shade.get_rect(), 1, border_radius=6)
    surface.blit(shade, box.topleft)
    for i, line in enumerate(lines):
        surface.blit(render_text(fonts.body, line, ERROR_TEXT), (box.x + 10, box.y + 7 + i * line_h))


def draw_help(surface: pygame.Surface, stage: pygame.Rect, fonts: Fonts, solver: str | None = None) -> None:
    """The F1 help: every control (the command table, keymap and buttons), then the panel's rows for
    ``solver`` (None: no chain). In a short window the lines close up, and what still does not fit ends in "…"."""
    panel = panel_help_rows(solver) if solver else [("", NO_CHAIN_HELP)]
    sections = [(None, help_rows(), fonts.body, fonts.body.get_linesize() + 4),
                (PANEL_HEADING, panel, fonts.small, fonts.small.get_linesize() + 2)]
    room = stage.height - 20 - 60 - 30
    if _rows_height(sections) > room:  # close up: the commands in the small font too
        sections[0] = (None, sections[0][1], fonts.small, fonts.small.get_linesize() + 2)
    key_w = max(font.size(k)[0] for _, rows, font, _ in sections for k, _ in rows) + 24
    text_w = max(font.size(t)[0] for _, rows, font, _ in sections for _, t in rows)
    w = min(stage.width - 20, key_w + text_w + 48)
    h = min(stage.height - 20, 60 + _rows_height(sections) + 30)
    box = pygame.Rect(0, 0, w, h)
    box.center = stage.center
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, HELP_BG, shade.get_rect(), border_radius=10)
    surface.blit(shade, box.topleft)
    surface.blit(fonts.title.render("ikplayground controls", True, (255, 255, 255)), (box.x + 24, box.y + 18))
    y = box.y + 60
    last = box.bottom - 30  # the closing hint's line
    for title, rows, font, line in sections:
        if title:
            if y + HEADING_GAP + line > last:
                break
            surface.blit(fonts.body.render(title, True, HELP_HEADING), (box.x + 24, y + 6))
            y += HEADING_GAP
        for keys, text in rows:
            if y + line > last:
                break
            if y + 2 * line > last and (keys, text) != rows[-1]:
                surface.blit(font.render("…", True, HELP_TEXT), (box.x + 24, y))
                y = last
                break
            surface.blit(font.render(keys, True, HELP_KEY), (box.x + 24, y))
            surface.blit(font.render(cut_to(font, text, box.right - 24 - (box.x + 24 + key_w)), True, HELP_TEXT),
                         (box.x + 24 + key_w, y))
            y += line
    foot = fonts.small.render("F1 or Esc closes this help", True, (130, 138, 152))
    surface.blit(foot, (box.x + 24, box.bottom - 26))


def cut_to(font: pygame.font.Font, text: str, width: int) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width`` px in ``font``."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _rows_height(sections) -> int:
    return sum(line * len(rows) + (HEADING_GAP if title else 0) for title, rows, _, line in sections)
