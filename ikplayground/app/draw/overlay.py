"""Text drawn over the stage: the status line, the error box, and text made safe for a font (lone surrogates and
control characters replaced)."""

from __future__ import annotations

import unicodedata

import pygame

from ikplayground.app.draw.fonts import cut_to, fit_message, ui_font

STATUS_HEIGHT = 26
STATUS_BG = (14, 16, 21)
STATUS_TEXT = (200, 206, 218)
STATUS_MESSAGE = (255, 214, 102)
ERROR_BG = (90, 24, 30, 235)
ERROR_EDGE = (235, 110, 120, 255)
ERROR_TEXT = (255, 230, 232)
STATUS_MIN_ROOM = 240  # px: a message with less room than this beside the facts takes the whole line
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
    """The fonts of the overlays: Noto Sans, the panel's (``fonts.py``)."""

    def __init__(self):
        self.small = ui_font(13)
        self.body = ui_font(14)
        self.keys = ui_font(14, bold=True)
        self.title = ui_font(21, bold=True)


def render_text(font: pygame.font.Font, text: str, colour) -> pygame.Surface:
    """``text`` drawn by ``font``, what a font cannot take replaced or drawn as nothing instead of raising."""
    text = printable(text)
    if font.size(text)[0] == 0:
        return pygame.Surface((0, font.get_height()), pygame.SRCALPHA)
    return font.render(text, True, colour)


def draw_status(surface: pygame.Surface, rect: pygame.Rect, facts: str, message: str, fonts: Fonts) -> None:
    """The status strip: the facts, then the latest message, cut at the strip's end (errors: ``draw_error``)."""
    pygame.draw.rect(surface, STATUS_BG, rect)
    text = render_text(fonts.small, cut_to(fonts.small, printable(facts), rect.width - 16), STATUS_TEXT)
    y = rect.y + (rect.height - text.get_height()) // 2
    surface.blit(text, (rect.x + 10, y))
    if message:
        x = rect.x + 10 + text.get_width() + 24
        room = rect.right - x - 6
        message = printable(message[:max(0, 4 * rect.width)])  # no glyph is under 1/4 px wide
        if room < min(fonts.small.size(message)[0], STATUS_MIN_ROOM):  # the facts leave too little: the message
            x, room = rect.x + 10, rect.width - 16                        # takes the whole line
            pygame.draw.rect(surface, STATUS_BG, rect)
        msg = render_text(fonts.small, fit_message(fonts.small, message, room), STATUS_MESSAGE)
        surface.blit(msg, (x, y), area=pygame.Rect(0, 0, max(0, room), msg.get_height()))


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
