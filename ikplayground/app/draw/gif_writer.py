"""Animated GIFs written frame by frame: nothing but the last frame is held, whatever the length.

Each frame (RGB, shape (h, w, 3) uint8) is mapped without dithering to one palette: the first frame's own 191
colours (Pillow's fast octree) and a 4x4x4 cube of 64, for colours that turn up later; then only the box that
changed since the frame before is written, with the unchanged pixels in it transparent (index 255), so a still
background costs nothing. Frames come with their slot ``k`` at ``fps`` frames a second: a frame shows from ``k /
fps`` s to the next frame's slot, delays in whole centiseconds rounded cumulatively (so the total time stays true).
GIF delays under 2 cs play at 10 cs in web browsers, hence at most :data:`MAX_FPS` frames a second.

The file is written under a temporary name beside ``path`` and takes its name only at :meth:`GifWriter.close`:
a half-written GIF never stays.
"""

from __future__ import annotations

import os
import secrets
import struct
from pathlib import Path
from typing import Any

import numpy as np

MAX_FPS = 50  # 2 cs a frame: the shortest delay web browsers honour
TRANSPARENT = 255  # the palette index of "unchanged since the last frame"
COLOURS = 255  # palette entries for the picture (0..254)
OWN = 191  # of them, the first frame's own; the other 64 are a colour cube
CUBE = [v for r in range(4) for g in range(4) for b in range(4) for v in (85 * r, 85 * g, 85 * b)]


def pillow():
    """The ``PIL.Image`` module, imported only when a GIF is made (Pillow is a dependency of the package)."""
    from PIL import Image

    return Image


def delays_cs(slots, fps: float) -> list[int]:
    """Delays (cs) of frames at slots ``slots`` (ascending ints) at ``fps``, the last one slot long: cumulative
    rounding, so that ``sum`` equals the whole time in cs. ``delays_cs([0, 1, 2], 60) == [2, 1, 2]``."""
    ends = [*slots[1:], slots[-1] + 1] if len(slots) else []
    return [round(b * 100 / fps) - round(a * 100 / fps) for a, b in zip(slots, ends)]


def temp_beside(path: Path, suffix: str) -> Path:
    """A new temporary file name in ``path``'s folder (hidden, ending in ``suffix``)."""
    return path.with_name(f".ikplayground-{secrets.token_hex(4)}{suffix}")


class GifWriter:
    """An animated GIF being written to ``path``, frames of ``size`` (w, h) px at ``fps`` (<= 50) slots a second.

    Raises OSError when the temporary file cannot be created beside ``path``.
    """

    def __init__(self, path, size: tuple[int, int], fps: float = MAX_FPS):
        self.path = Path(path)
        self.size = (int(size[0]), int(size[1]))
        self.fps = float(fps)
        self.frames = 0  # frames written so far (the held one not counted)
        self.tmp = temp_beside(self.path, ".gif.part")
        self._file = open(self.tmp, "xb")
        self._palette: Any = None  # the "P" image whose palette every frame is mapped to
        self._last: np.ndarray | None = None  # indices (h, w) of the picture as shown so far
        self._held: Any = None  # (P image, offset, slot) of the newest frame: its delay waits for the next slot
        self._image = pillow()

    def add(self, rgb: np.ndarray, slot: int) -> None:
        """Add frame ``rgb`` (shape (h, w, 3) uint8, of ``size``) shown from slot ``slot`` on; a frame whose slot
        is not after the last one's is dropped."""
        if self._held is not None and slot <= self._held[2]:
            return
        h, w = rgb.shape[:2]
        if (w, h) != self.size:
            raise ValueError(f"frame of {w}x{h} px in a GIF of {self.size[0]}x{self.size[1]} px")
        Image = self._image
        picture = Image.frombuffer("RGB", (w, h), np.ascontiguousarray(rgb), "raw", "RGB", 0, 1)
        if self._palette is None:
            own = picture.quantize(OWN, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            colours = (own.getpalette() or [])[: 3 * OWN] + CUBE
            self._palette = Image.new("P", (1, 1))
            self._palette.putpalette(colours)
            self._write_header(colours)
        indexed = np.asarray(picture.quantize(palette=self._palette, dither=Image.Dither.NONE))
        indexed = np.minimum(indexed, TRANSPARENT - 1)  # (never the transparent index)
        if self._last is None:
            box, patch = (0, 0, w, h), indexed
        else:
            changed = indexed != self._last
            rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            if rows.size == 0:  # nothing moved: one transparent pixel keeps the frame's time
                box, patch = (0, 0, 1, 1), np.full((1, 1), TRANSPARENT, np.uint8)
            else:
                box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
                x0, y0, x1, y1 = box
                patch = np.where(changed[y0:y1, x0:x1], indexed[y0:y1, x0:x1], TRANSPARENT).astype(np.uint8)
        self._last = indexed
        frame = Image.fromarray(patch, "P")
        self._flush(slot)
        self._held = (frame, box[:2], slot)

    def _write_header(self, palette: list[int]) -> None:
        """The GIF's header: its size, the 256-entry palette, and "loop for ever"."""
        table = bytes(palette[: 3 * COLOURS]).ljust(3 * 256, b"\0")
        w, h = self.size
        self._file.write(b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, 0, 0) + table
                         + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")

    def _flush(self, next_slot: int | None) -> None:
        """Write the held frame, now that its delay is known (the slot after it: ``next_slot``, else one slot)."""
        if self._held is None:
            return
        from PIL import GifImagePlugin

        frame, offset, slot = self._held
        end = slot + 1 if next_slot is None else next_slot
        (delay,) = delays_cs([slot, end], self.fps)[:1]
        params = {"duration": delay * 10, "disposal": 1, "interlace": 0}
        if self.frames:
            params["transparency"] = TRANSPARENT
        for chunk in GifImagePlugin.getdata(frame, offset, **params):
            self._file.write(chunk)
        self.frames += 1
        self._held = None

    def close(self) -> Path:
        """Write the last frame and the trailer and give the file its name; returns the path. OSError (the
        temporary file removed) when it cannot be written; ValueError when no frame came."""
        try:
            if self._held is None:
                raise ValueError("no frames to write")
            self._flush(None)
            self._file.write(b";")
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            os.replace(self.tmp, self.path)
        except BaseException:
            self.abort()
            raise
        return self.path

    def abort(self) -> None:
        """Stop and remove the temporary file: nothing is left behind."""
        try:
            self._file.close()
        finally:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
