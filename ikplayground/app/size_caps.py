"""How big the window and the scene-file path may get (plain Python: ``--size`` is checked before pygame loads).
The window: ``MAX_PIXELS``, an 8K UHD screen (memory grows with the area), and ``MAX_SIDE``, the largest texture
most GPUs take. The path: ``PATH_MAX_BYTES``, Linux's PATH_MAX without the closing NUL."""

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
