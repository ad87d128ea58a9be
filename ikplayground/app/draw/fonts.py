"""The overlays' fonts and text fitting: Noto Sans (the panel's font, shipped with pygame_gui) in place of
pygame's default font, whose hinting at small sizes breaks the letter spacing ("but ton", "set tings"); text cut
to a width at its end, or a path shortened in its middle."""

from __future__ import annotations

from importlib import resources

import pygame

ELLIPSIS = "…"


def ui_font(size: int, bold: bool = False) -> pygame.font.Font:
    """Noto Sans of ``size`` px (pygame_gui's copy, as the panel uses), regular or ``bold``."""
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    with resources.as_file(resources.files("pygame_gui.data") / name) as path:
        return pygame.font.Font(str(path), size)


def cut_to(font: pygame.font.Font, text: str, width: int) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width`` px in ``font``."""
    if font.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)  # the longest start that fits with the ellipsis (binary search: a text may be long)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid].rstrip() + ELLIPSIS)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS if font.size(ELLIPSIS)[0] <= width else ""


def shorten_path(path: str, keep_parts: int = 2) -> str:
    """``path`` shortened in its middle, its first folder and last ``keep_parts`` parts kept:
    ``/home/.../scenes/s.json``; a path of few parts is returned as it is."""
    sep = "\\" if "\\" in path and "/" not in path else "/"
    parts = path.split(sep)
    if len(parts) <= keep_parts + 2:
        return path
    return sep.join([*parts[:2], "...", *parts[-keep_parts:]])


def fit_message(font: pygame.font.Font, text: str, width: int) -> str:
    """A status message that fits ``width`` px in ``font``: its paths (words holding a ``/`` or ``\\``)
    shortened in the middle first, keeping their last two parts, then their file name alone; if still too
    wide, cut at its end with an ellipsis."""
    if font.size(text)[0] <= width:
        return text
    words = text.split(" ")
    for keep in (2, 1):
        shorter = " ".join(shorten_path(w, keep) if ("/" in w or "\\" in w) else w for w in words)
        if font.size(shorter)[0] <= width:
            return shorter
    return cut_to(font, shorter, width)
