"""The crowd of :mod:`.crowd_draw` drawn by compiled kernels (:mod:`._crowd_kernels`, numba), when they are there.

They load on a background thread by the solvers' :class:`ikplayground.solvers.jit.Loader` (from numba's disk
cache after the first run); until then, without numba, with ``IKPLAYGROUND_JIT=0``, or on a surface that is not
32-bit, :mod:`.crowd_draw`'s numpy path draws. The kernels set the same palette indices as the numpy path, touch
only the pixels drawn (no stage-wide filter or blit) and write them, and blend the sprites, straight into the
surface's pixels. Px, y down.
"""

from __future__ import annotations

import numpy as np
import pygame

from ikplayground.solvers import jit

def _build():
    from . import _crowd_kernels  # compiled (or loaded from numba's cache) as it is imported: explicit signatures

    return _crowd_kernels


LOADER = jit.Loader(_build, "ikplayground-crowd-jit", "ikplayground.app.draw.crowd_fast:LOADER")


def warm_up() -> None:
    """Start loading the kernels on a background thread once the solvers' have loaded (one load at a time
    beside the window)."""
    LOADER.warm_up(after=jit.SOLVERS)


def kernels():
    """The compiled kernels, or None (then their loading is started, never waited for)."""
    k = LOADER.kernels()
    if k is None:
        LOADER.warm_up()
    return k


class Buffers:
    """A stage's buffers (h, w) of palette indices: ``index`` (what shows), ``thin`` and ``body_thin`` (the
    bones' samples, zero between frames), ``body`` (snakes widened) and ``tmp``."""

    def __init__(self, size: tuple[int, int]):
        w, h = size
        self.size = size
        self.index, self.thin, self.body_thin, self.body, self.tmp = (np.zeros((h, w), np.uint8) for _ in range(5))


class Kept:
    """A crowd layer's :class:`Buffers` (for one stage size) and pixel values (for one surface format)."""

    def __init__(self):
        self._bufs: Buffers | None = None
        self._table: tuple = (None, None)

    def buffers(self, size: tuple[int, int]) -> Buffers:
        if self._bufs is None or self._bufs.size != size:
            self._bufs = None
            self._bufs = Buffers(size)
        return self._bufs

    def table(self, canvas: Canvas, colours) -> np.ndarray:
        """The pixel values (256,) of the palette ``colours`` on ``canvas``'s surface."""
        key = (canvas.surface.get_masks(), canvas.surface.get_shifts())
        if self._table[0] != key:
            self._table = (key, canvas.table(colours))
        return self._table[1]


class Canvas:
    """A 32-bit surface's pixels (rows of ``pitch``), its clip and channel shifts, while a crowd is drawn on it
    (it is locked meanwhile: blit nothing onto it until :meth:`close`)."""

    def __init__(self, surface: pygame.Surface, kernels):
        self.kernels = kernels
        self.pitch = surface.get_pitch() // 4
        # a BufferProxy is a buffer (numpy's stubs do not say so)
        self.pixels = np.frombuffer(surface.get_buffer(), np.uint32)  # type: ignore[call-overload]
        clip = surface.get_clip()
        self.clip = np.array([clip.left, clip.top, clip.right, clip.bottom], np.int64)
        self.shifts = np.array(surface.get_shifts()[:3], np.int64)
        self.surface = surface

    @staticmethod
    def fits(surface: pygame.Surface) -> bool:
        return surface.get_bytesize() == 4 and not surface.get_masks()[3] and not surface.get_locked()

    def table(self, colours) -> np.ndarray:
        """The pixel values (256,) of ``colours`` (RGB) on this surface."""
        out = np.zeros(256, np.uint32)
        out[:len(colours)] = [self.surface.map_rgb(c) for c in colours]
        return out

    def show(self, bufs: Buffers, table: np.ndarray) -> None:
        """``bufs``' index pixels onto the surface; ``bufs`` left zero."""
        self.kernels.show(bufs.index, self.pixels, self.pitch, table, self.clip)

    def blit(self, sprite: pygame.Surface, at: np.ndarray, half: int) -> None:
        """``sprite`` with its corner at every point of ``at`` (.., 2) px less ``half``, blended as a blit."""
        offsets, rgba = sprite_pixels(sprite)
        pts = np.ascontiguousarray(at, np.float64).reshape(-1, 2)
        self.kernels.blend(self.pixels, self.pitch, pts, half, offsets, rgba, self.clip, self.shifts)

    def close(self) -> None:
        self.pixels = None  # the surface's lock goes with the array


_sprite_cache: dict = {}


def sprite_pixels(sprite: pygame.Surface) -> tuple[np.ndarray, np.ndarray]:
    """The pixels of ``sprite`` not wholly transparent: offsets (S, 2) px and colours (S, 4) RGBA (kept)."""
    kept = _sprite_cache.get(sprite)
    if kept is None:
        rgb = pygame.surfarray.array3d(sprite)
        alpha = pygame.surfarray.array_alpha(sprite)
        xs, ys = np.nonzero(alpha)
        order = np.lexsort((xs, ys, alpha[xs, ys] != 255))  # the opaque first, row by row (the blend's order
        xs, ys = xs[order], ys[order]  # within a sprite is free: its pixels are apart)
        kept = (np.stack([xs, ys], axis=1).astype(np.int64),
                np.concatenate([rgb[xs, ys], alpha[xs, ys, None]], axis=1).astype(np.int64))
        if len(_sprite_cache) > 256:
            _sprite_cache.clear()
        _sprite_cache[sprite] = kept
    return kept


def rasterize(k, bufs: Buffers, groups, packed, colours, stamps, strokes=()) -> None:
    """``strokes`` (``[(points (M, K, 2), colours (M,))]``, 3 px) and every group's bones into ``bufs.index``
    (snakes of a sparse crowd 7 px wide, the rest 3 px), the dense groups' shapes over them: ``stamps(group)``
    gives ``[(at (N, J, 2), base, per_chain, offsets)]``."""
    wide = [g.solver == "snake" and not packed[g] for g in groups]
    for points, c in strokes:  # (as the numpy path: before the bones)
        k.bones(points, c, 1, bufs.thin)
    for g, w in zip(groups, wide):
        k.bones(np.asarray(g.fields["points"], np.float64), colours(g), 1, bufs.body_thin if w else bufs.thin)
    k.square(bufs.thin, bufs.tmp, bufs.index)
    bufs.thin.fill(0)
    if any(wide):  # 7 px: a 5x5 square rounded by a cross, over the arms
        k.square(bufs.body_thin, bufs.tmp, bufs.body)
        k.square(bufs.body, bufs.tmp, bufs.body_thin)
        k.cross(bufs.body_thin, bufs.body)
        bufs.body_thin.fill(0)
        k.overlay(bufs.body, bufs.index)
    for g in groups:
        if packed[g]:
            for at, base, per_chain, offsets in stamps(g):
                k.stamp(bufs.index, np.asarray(at, np.float64), colours(g), base, per_chain, offsets)
