"""How big the window and the scene-file path may get (plain Python: the command line
checks ``--size`` with it before pygame is imported).

Window: at most :data:`MAX_SIDE` px a side and :data:`MAX_PIXELS` pixels in all.
The pixel cap is an 8K UHD screen (7680x4320, the largest sold), so any real
monitor is filled at 1:1; the App's memory grows with the window's area (the
screen, the stage background, pygame_gui's layers): about 0.46 GB at the peak at
8K, against 4.8 GB for a 20000x20000 window. The side cap is 16384, the largest
texture most GPUs take, which still lets a window span three 4K screens side by side.

Path: :data:`PATH_MAX_BYTES`, Linux's PATH_MAX (4096 bytes with the closing NUL):
no longer path can be opened there, so the box never refuses a path that works.
"""

from __future__ import annotations

import math

MAX_SIDE = 16384
MAX_PIXELS = 7680 * 4320
PATH_MAX_BYTES = 4095


def capped_size(size) -> tuple[int, int]:
    """``size`` (w, h) shrunk to within :data:`MAX_SIDE` and :data:`MAX_PIXELS`, keeping its shape."""
    w, h = min(int(size[0]), MAX_SIDE), min(int(size[1]), MAX_SIDE)
    if w * h > MAX_PIXELS:
        scale = math.sqrt(MAX_PIXELS / (w * h))
        w, h = max(1, int(w * scale)), max(1, int(h * scale))
    return w, h


def size_limit_text() -> str:
    """The window caps in words, for messages."""
    return f"at most {MAX_SIDE} px a side and {MAX_PIXELS / 1e6:.0f} million pixels (an 8K screen)"
