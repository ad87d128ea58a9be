"""Text drawn over the stage: the status line and the F1 help (read from the keymap)."""

from __future__ import annotations

import pygame

from .keymap import help_rows

STATUS_HEIGHT = 26
STATUS_BG = (14, 16, 21)
STATUS_TEXT = (200, 206, 218)
STATUS_MESSAGE = (255, 214, 102)
HELP_BG = (12, 14, 19, 225)
HELP_KEY = (143, 184, 255)
HELP_TEXT = (220, 224, 232)


class Fonts:
    """The fonts of the overlays (pygame's default font, shipped with pygame)."""

    def __init__(self):
        self.small = pygame.font.Font(None, 20)
        self.body = pygame.font.Font(None, 22)
        self.title = pygame.font.Font(None, 32)


def draw_status(surface: pygame.Surface, rect: pygame.Rect, facts: str, message: str, fonts: Fonts) -> None:
    """The status strip: facts on the left, the latest message after them."""
    pygame.draw.rect(surface, STATUS_BG, rect)
    text = fonts.small.render(facts, True, STATUS_TEXT)
    y = rect.y + (rect.height - text.get_height()) // 2
    surface.blit(text, (rect.x + 10, y))
    if message:
        msg = fonts.small.render(message, True, STATUS_MESSAGE)
        x = rect.x + 10 + text.get_width() + 24
        surface.blit(msg, (x, y), area=pygame.Rect(0, 0, max(0, rect.right - x - 6), msg.get_height()))


def draw_help(surface: pygame.Surface, stage: pygame.Rect, fonts: Fonts) -> None:
    """The help overlay: every control, as the keymap defines it."""
    rows = help_rows()
    line = fonts.body.get_linesize() + 4
    key_w = max(fonts.body.size(k)[0] for k, _ in rows) + 24
    text_w = max(fonts.body.size(t)[0] for _, t in rows)
    w = min(stage.width - 20, key_w + text_w + 48)
    h = min(stage.height - 20, 70 + line * len(rows) + 30)
    box = pygame.Rect(0, 0, w, h)
    box.center = stage.center
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, HELP_BG, shade.get_rect(), border_radius=10)
    surface.blit(shade, box.topleft)
    surface.blit(fonts.title.render("ikplayground controls", True, (255, 255, 255)), (box.x + 24, box.y + 18))
    y = box.y + 60
    for keys, text in rows:
        surface.blit(fonts.body.render(keys, True, HELP_KEY), (box.x + 24, y))
        surface.blit(fonts.body.render(text, True, HELP_TEXT), (box.x + 24 + key_w, y))
        y += line
    foot = fonts.small.render("F1 or Esc closes this help", True, (130, 138, 152))
    surface.blit(foot, (box.x + 24, box.bottom - 26))
