"""The window's display surface: at least ``MIN_SIZE``, within ``size_caps.py``'s caps, made again on a resize.

A size over the caps is set back to them, and a size SDL cannot make keeps the old one; each case comes with
its status line. On X11 the window is shown by SDL's shared-memory path, not an OpenGL texture, which costs
many times more with a software renderer (docs/performance.md). Sizes (w, h) px.
"""

from __future__ import annotations

import os

import pygame

from ikplayground.app.size_caps import capped_size, size_limit_text

MIN_SIZE = (320, 240)


def asked_size(size) -> tuple[int, int]:
    """``size`` raised to at least ``MIN_SIZE``, in whole px."""
    return max(int(size[0]), MIN_SIZE[0]), max(int(size[1]), MIN_SIZE[1])


def capped_text(size) -> str:
    """The status line's note that the window was capped at ``size``."""
    return f"Window capped at {size[0]}x{size[1]}: {size_limit_text()}"


FRAMEBUFFER_HINT = "SDL_FRAMEBUFFER_ACCELERATION"


def prefer_x11_framebuffer() -> bool:
    """On SDL's X11 driver, show the window by X11 shared memory, not an OpenGL texture (call after
    ``pygame.display.init()``, before ``set_mode``; a value set in the environment is kept); True if in use."""
    if pygame.display.get_driver() != "x11":
        return False
    os.environ.setdefault(FRAMEBUFFER_HINT, "0")
    return os.environ[FRAMEBUFFER_HINT].strip().lower() in ("0", "false", "software")


def open_window(size) -> tuple[pygame.Surface, tuple[int, int], str | None]:
    """A resizable window of ``size`` within the limits: its surface, its size, and the capped note or None."""
    asked = asked_size(size)
    size = capped_size(asked)
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    return screen, size, (capped_text(size) if size != asked else None)


def resized_window(screen, size, old) -> tuple[pygame.Surface, tuple[int, int], str | None, bool]:
    """The window resized to ``size`` from ``old`` (the size laid out for), as ``(screen, size, message,
    error)``: the size within the limits (``old`` when SDL cannot make it), and the status line's note or None."""
    asked = asked_size(size)
    size = capped_size(asked)
    try:
        current = screen.get_size()
    except pygame.error:  # SDL could not give the resized window a surface (too big): make one
        current = None
    if current == size and size == asked:
        return screen, size, None, False
    try:  # capped: the window itself is bigger, shrink it back
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    except pygame.error as e:  # no memory for it, say: keep the old size
        screen = pygame.display.set_mode(old, pygame.RESIZABLE)
        return screen, old, f"The window could not be made {size[0]}x{size[1]} ({e}); it stays {old[0]}x{old[1]}", True
    return screen, size, (capped_text(size) if size != asked else None), False
