"""Drawing a crowd of chains (past ``render.DETAIL_LIMIT``) in a few array passes, no Python call per chain.

Bones are sampled a pixel apart (as in DDA line drawing) into a stage-sized buffer of palette indices, widened by
a maximum filter and shown by one blit of an 8-bit surface; joints, anchors and targets are sprites blitted with
one ``fblits`` per kind and colour, or, for a dense group, shapes stamped into the buffer. Px, y down.
This is the numpy path; :mod:`.crowd_fast`'s compiled kernels draw the same pixels when numba has them loaded.
"""

from __future__ import annotations

import weakref
from itertools import repeat

import numpy as np
import pygame

from ikplayground.app.draw import crowd_fast
from ikplayground.app.draw.crowd_parts import joints, shown_targets, split

RAGGED_SAMPLES = 16  # a group whose longest bone needs more samples is sampled bone by bone
CLIP_OVER = 64  # px: a bone longer than this is first cut to the stage (a file's bone may be 10^6 px)
DOT_MIN_BONE = 2.0  # px: a group whose mean bone is shorter gets no joint dots (they would hide it)
SMALL_MIN_REACH = 24.0  # px: a group whose chains reach less is dense: thin snakes, stamped shapes


def dilate_square(buf: np.ndarray, tmp: np.ndarray) -> None:
    """``buf`` (h, w) replaced by its 3x3 maximum filter, in place (``tmp``: scratch of its shape)."""
    tmp[...] = buf
    np.maximum(tmp[:, 1:], buf[:, :-1], out=tmp[:, 1:])
    np.maximum(tmp[:, :-1], buf[:, 1:], out=tmp[:, :-1])
    buf[...] = tmp
    np.maximum(buf[1:], tmp[:-1], out=buf[1:])
    np.maximum(buf[:-1], tmp[1:], out=buf[:-1])


def dilate_cross(buf: np.ndarray, tmp: np.ndarray) -> None:
    """``buf`` (h, w) replaced by its maximum over each pixel and its four neighbours, in place."""
    tmp[...] = buf
    np.maximum(tmp[:, 1:], buf[:, :-1], out=tmp[:, 1:])
    np.maximum(tmp[:, :-1], buf[:, 1:], out=tmp[:, :-1])
    np.maximum(tmp[1:], buf[:-1], out=tmp[1:])
    np.maximum(tmp[:-1], buf[1:], out=tmp[:-1])
    buf[...] = tmp


def clip_segments(a: np.ndarray, d: np.ndarray, w: float, h: float) -> None:
    """Cut segments ``a`` to ``a + d`` ((S, 2) px) to [-1, w] x [-1, h] in place (Liang-Barsky); a segment
    wholly outside becomes the point (-2, -2)."""
    t0 = np.zeros(len(a))
    t1 = np.ones(len(a))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for axis, hi in ((0, w), (1, h)):
            p, q = d[:, axis], a[:, axis]
            for num, den in ((q + 1.0, -p), (hi - q, p)):  # -1 <= q + t p <= hi
                r = num / den
                entering = den < 0
                leaving = den > 0
                np.maximum(t0, np.where(entering, r, -np.inf), out=t0)
                np.minimum(t1, np.where(leaving, r, np.inf), out=t1)
                t1[(den == 0) & (num < 0)] = -1.0  # parallel to this edge and outside it
    gone = ~(t0 <= t1)
    a += d * t0[:, None]
    d *= (t1 - t0)[:, None]
    a[gone] = -2.0
    d[gone] = 0.0


def bone_samples(points: np.ndarray, w: float, h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along every bone's part on a ``w`` x ``h`` px stage, at most a pixel apart along its longer axis.

    ``points`` (N, K, 2) px -> ``(x, y, owner)``: samples (N, M) when every bone is short, else (P,) bone after bone,
    and the row of ``points`` of each, broadcastable to ``x``.
    """
    n, k = points.shape[:2]
    px, py = points[..., 0], points[..., 1]
    dx = px[:, 1:] - px[:, :-1]
    dy = py[:, 1:] - py[:, :-1]
    most = max(np.abs(dx).max(initial=0.0), np.abs(dy).max(initial=0.0))
    if most <= RAGGED_SAMPLES:  # short bones: the same samples each, one broadcast (NaN fails the test)
        s = max(int(np.ceil(most)), 1)
        t = np.arange(s) / s
        out = []
        for p, d in ((px, dx), (py, dy)):
            v = np.empty((n, s * (k - 1) + 1))
            if s >= k - 1:  # a row: bone after bone, s samples each, then the tip
                np.multiply(d[:, :, None], t, out=v[:, :-1].reshape(n, k - 1, s))
                v[:, :-1].reshape(n, k - 1, s)[...] += p[:, :-1, None]
            else:  # a row: every bone's sample j in turn (whole-group operations: a short inner axis is slow)
                body = v[:, :-1].reshape(n, s, k - 1)
                for j in range(s):
                    np.multiply(d, t[j], out=body[:, j])
                    body[:, j] += p[:, :-1]
            v[:, -1] = p[:, -1]
            out.append(v)
        return out[0], out[1], np.arange(n)[:, None]
    a = points[:, :-1]
    d = points[:, 1:] - a
    steps = np.abs(d).max(axis=2)
    a = a.reshape(-1, 2)
    d = d.reshape(-1, 2)
    steps = steps.reshape(-1)
    long = ~(steps <= CLIP_OVER)  # NaN too
    if long.any():
        a, d = a.copy(), d.copy()
        cut_a, cut_d = np.nan_to_num(a[long]), np.nan_to_num(d[long])
        clip_segments(cut_a, cut_d, w, h)
        a[long], d[long] = cut_a, cut_d
        steps[long] = np.abs(cut_d).max(axis=1)
    counts = np.ceil(steps).astype(np.intp) + 1
    seg = np.arange(len(counts)).repeat(counts)
    first = np.cumsum(counts) - counts
    t = (np.arange(seg.size) - first[seg]) / np.maximum(counts - 1, 1)[seg]
    return a[seg, 0] + d[seg, 0] * t, a[seg, 1] + d[seg, 1] * t, np.arange(n).repeat(k - 1)[seg]


def pixel_index(x: np.ndarray, y: np.ndarray, w: int, h: int) -> np.ndarray:
    """The flat index ``row * w + column`` of the pixel nearest each point; ``w * h`` off the stage."""
    xi = np.floor(x + 0.5)
    yi = np.floor(y + 0.5)
    flat = yi * w + xi
    flat[~((xi >= 0) & (xi < w) & (yi >= 0) & (yi < h))] = w * h  # NaN too
    return flat.astype(np.intp)


def dense(group, total: float | None = None) -> bool:
    """Whether ``group``'s chains reach less than ``SMALL_MIN_REACH`` px on average (``total``: its lengths' sum,
    if known)."""
    lengths = group.fields["lengths"]
    total = float(lengths.sum()) if total is None else total
    return not lengths.size or total < SMALL_MIN_REACH * len(lengths)


def has_dots(group, total: float | None = None) -> bool:
    """Whether ``group``'s mean bone is ``DOT_MIN_BONE`` px or longer (``total``: its lengths' sum, if known)."""
    lengths = group.fields["lengths"]
    total = float(lengths.sum()) if total is None else total
    return bool(lengths.size) and total >= DOT_MIN_BONE * lengths.size


def _ring(r_in: float, r_out: float) -> np.ndarray:
    """Pixel offsets (S, 2) whose centres lie between radii ``r_in`` and ``r_out``."""
    k = int(np.ceil(r_out))
    dx, dy = np.meshgrid(np.arange(-k, k + 1), np.arange(-k, k + 1))
    r = np.hypot(dx, dy)
    keep = (r >= r_in) & (r <= r_out)
    return np.stack([dx[keep], dy[keep]], axis=1).astype(np.int64)


ANCHOR_EDGE = np.array([(x, y) for x in range(-2, 3) for y in range(-2, 3) if max(abs(x), abs(y)) == 2], np.int64)
ANCHOR_INSIDE = np.array([(x, y) for x in range(-1, 2) for y in range(-1, 2)], np.int64)
TARGET_RING = _ring(1.5, 2.3)
JOINT_CROSS = np.array([(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)], np.int64)


def stamp(buf: np.ndarray, w: int, h: int, centres: np.ndarray, offsets: np.ndarray, values) -> None:
    """Set the pixels ``offsets`` (S, 2) about each of ``centres`` (M, 2) px in ``buf`` (w * h + 1,) to ``values``
    (one index, or one per centre)."""
    cx = np.floor(centres[:, 0] + 0.5)
    cy = np.floor(centres[:, 1] + 0.5)
    values = np.asarray(values, np.uint8)
    r = int(np.abs(offsets).max())
    inner = (cx >= r) & (cx < w - r) & (cy >= r) & (cy < h - r)  # the whole shape on the stage (False for NaN)
    if inner.all():
        picked = values
    else:  # the rest pixel by pixel (off the stage: the buffer's last cell)
        out = ~inner
        v = values[out, None] if values.ndim else values
        buf[pixel_index(cx[out, None] + offsets[:, 0], cy[out, None] + offsets[:, 1], w, h)] = v
        cx, cy = cx[inner], cy[inner]
        picked = values[inner] if values.ndim else values
    centre = (cy * w + cx).astype(np.intp)
    buf[centre[:, None] + (offsets[:, 1] * w + offsets[:, 0])] = picked[:, None] if values.ndim else picked


class CrowdLayer:
    """The crowd's bones as one palette-indexed buffer, and its sprites in batches: ``dots`` and ``anchors``
    (a sprite per ``palette`` colour) and ``target``; a dense group's shapes in ``fill``, ``target_colour`` and
    ``joint_colours`` (one per palette colour)."""

    def __init__(self, palette, dots, anchors, target, *, fill, target_colour, joint_colours):
        self.palette = [tuple(c[:3]) for c in palette]
        self._dots, self._anchors, self._target = dots, anchors, target
        k = len(self.palette)
        self._fill, self._target_index, self._joint_base = k + 1, k + 2, k + 3  # after 0 and the chains' 1..k
        self._indexed = ([(0, 0, 0)] + self.palette + [tuple(fill[:3]), tuple(target_colour[:3])]
                         + [tuple(c[:3]) for c in joint_colours])
        self._indexed += [(0, 0, 0)] * (256 - len(self._indexed))
        self._bufs: dict[tuple[int, int], tuple] = {}
        self._colours: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._fast = crowd_fast.Kept()
        self._totals: dict = {}

    def colours(self, group) -> np.ndarray:
        """Palette indices (N,) of ``group``'s members."""
        return self._kept(group)[0]

    def _kept(self, group) -> tuple:
        """``(colours (N,), [(colour, rows)])`` of ``group``, kept weakly while the group lives."""
        kept = self._colours.get(group)
        if kept is None:
            k = len(self.palette)
            colours = np.fromiter((m.palette_index % k for m in group.members), np.intp, len(group.members))
            kept = (colours, [(c, np.flatnonzero(colours == c)) for c in np.unique(colours).tolist()])
            self._colours[group] = kept
        return kept

    def _buffers(self, size: tuple[int, int]):
        """Index buffers (thin, wide, scratch), each (w * h + 1,) bytes, and the 8-bit surface over the first."""
        bufs = self._bufs.get(size)
        if bufs is None:
            self._bufs.clear()
            w, h = size
            ik, body, tmp = (np.zeros(w * h + 1, np.uint8) for _ in range(3))
            # an ndarray is a buffer, but numpy's stubs declare __buffer__ only for Python 3.12+
            layer = pygame.image.frombuffer(ik[:-1].reshape(h, w), (w, h), "P")  # type: ignore[arg-type]
            layer.set_palette(self._indexed)
            layer.set_colorkey(0)
            bufs = self._bufs[size] = (ik, body, tmp, layer)
        return bufs

    def draw(self, surface: pygame.Surface, groups, size: tuple[int, int]) -> None:
        """Every group of chains and snakes of ``groups`` onto ``surface`` (a stage of ``size`` (w, h) px): bones
        first, then joints, anchors and targets; by the compiled kernels (:mod:`.crowd_fast`) when they are loaded.
        Walkers and rigs are drawn on their own, but for walkers' appendages: strokes under the bones."""
        groups, strokes = split(groups, self.colours)
        if not groups and not strokes:
            return
        self._totals = {g: float(g.fields["lengths"].sum()) for g in groups}  # (read thrice a frame)
        try:
            self._draw(surface, groups, size, strokes)
        finally:
            self._totals = {}  # (the groups are not kept)

    def _draw(self, surface: pygame.Surface, groups, size: tuple[int, int], strokes) -> None:
        packed = {g: dense(g, self._totals[g]) for g in groups}
        k = crowd_fast.kernels() if crowd_fast.Canvas.fits(surface) else None
        if k is None:
            surface.blit(self._paint(groups, packed, size, strokes), (0, 0))
            for g in groups:
                if not packed[g]:
                    self._sprites(surface, g)
            return
        bufs = self._fast.buffers(size)
        crowd_fast.rasterize(k, bufs, groups, packed, self.colours, self._shapes, strokes)
        canvas = crowd_fast.Canvas(surface, k)
        try:
            canvas.show(bufs, self._fast.table(canvas, self._indexed))
            for g in groups:
                if not packed[g]:
                    self._sprites(canvas, g)
        finally:
            canvas.close()

    def indices(self, groups, size: tuple[int, int], kernels=None) -> np.ndarray:
        """The palette indices (h, w) ``draw`` shows of ``groups`` (non-empty; walkers: their appendages): by numpy,
        or by ``kernels`` (:mod:`._crowd_kernels`)."""
        groups, strokes = split(groups, self.colours)
        packed = {g: dense(g) for g in groups}
        w, h = size
        if kernels is None:
            self._paint(groups, packed, size, strokes)
            return self._buffers(size)[0][:-1].reshape(h, w).copy()
        bufs = crowd_fast.Buffers(size)
        crowd_fast.rasterize(kernels, bufs, groups, packed, self.colours, self._shapes, strokes)
        return bufs.index.copy()

    def _paint(self, groups, packed, size: tuple[int, int], strokes=()) -> pygame.Surface:
        """The numpy path: ``strokes``, ``groups``' bones and dense shapes into the 8-bit layer, returned."""
        w, h = size
        flat_ik, flat_body, flat_tmp, layer = self._buffers((w, h))
        flat_ik.fill(0)
        flat_body.fill(0)
        drew = {False: False, True: False}
        for points, colours in strokes:  # walkers' appendages, thin as arms
            drew[False] |= self._rasterize(flat_ik, points, colours, w, h)
        for g in groups:
            wide = g.solver == "snake" and not packed[g]  # a dense crowd's snakes are thin strokes too
            drew[wide] |= self._rasterize(flat_body if wide else flat_ik, g.fields["points"], self.colours(g), w, h)
        ik, body, tmp = (b[:-1].reshape(h, w) for b in (flat_ik, flat_body, flat_tmp))
        if drew[False]:
            dilate_square(ik, tmp)
        if drew[True]:  # 7 px: a 5x5 square rounded by a cross
            dilate_square(body, tmp)
            dilate_square(body, tmp)
            dilate_cross(body, tmp)
            np.copyto(ik, body, where=body != 0)  # snakes over arms, as their group is drawn last
        for g in groups:
            if packed[g]:
                self._stamps(flat_ik, g, w, h)
        return layer

    @staticmethod
    def _rasterize(buf: np.ndarray, points: np.ndarray, colours: np.ndarray, w: int, h: int) -> bool:
        """Set the bone pixels of ``points`` (N, K, 2) px in ``buf`` to their row's ``colours`` (N,) + 1; False if
        none."""
        x, y, owner = bone_samples(points, w, h)
        buf[pixel_index(x, y, w, h)] = (colours + 1).astype(np.uint8)[owner]
        return x.size > 0

    def _sprites(self, surface: pygame.Surface | crowd_fast.Canvas, group) -> None:
        """A sparse ``group``'s joint dots, anchors and targets as antialiased sprites."""
        f = group.fields
        if has_dots(group, self._totals.get(group)):
            self._blit_by_colour(surface, self._dots, group, joints(group), 3)
        if group.solver == "snake":
            return
        self._blit_by_colour(surface, self._anchors, group, f["root"][:, None], self._anchors[0].get_width() // 2)
        self._blit_all(surface, self._target, shown_targets(f), self._target.get_width() // 2)

    def _stamps(self, buf: np.ndarray, group, w: int, h: int) -> None:
        """A dense ``group``'s joint dots, anchors and targets stamped into ``buf``."""
        colours = self.colours(group)
        for at, base, per_chain, offsets in self._shapes(group):
            values = np.repeat(colours + base, at.shape[1]) if per_chain else base
            stamp(buf, w, h, at.reshape(-1, 2), offsets, values)

    def _shapes(self, group) -> list:
        """A dense ``group``'s shapes in drawing order: ``(at (N, J, 2) px, base, per_chain, offsets)``, each
        point's shape set to ``base`` plus, if ``per_chain``, its chain's palette index."""
        f = group.fields
        out = [(joints(group), self._joint_base, 1, JOINT_CROSS)] if has_dots(group, self._totals.get(group)) else []
        if group.solver != "snake":
            root = f["root"][:, None]
            out += [(root, self._fill, 0, ANCHOR_INSIDE), (root, 1, 1, ANCHOR_EDGE),
                    (shown_targets(f)[:, None], self._target_index, 0, TARGET_RING)]
        return out

    def _blit_by_colour(self, surface, sprites, group, at: np.ndarray, half: int) -> None:
        """``sprites[c]`` centred on every point of ``at`` (N, J, 2) of a chain of colour c."""
        for c, rows in self._kept(group)[1]:
            self._blit_all(surface, sprites[c], at[rows], half)

    @staticmethod
    def _blit_all(surface, sprite, at: np.ndarray, half: int) -> None:
        """``sprite`` with its corner at every point of ``at`` less ``half`` (onto a surface or a canvas)."""
        if isinstance(surface, crowd_fast.Canvas):
            surface.blit(sprite, at, half)
            return
        flat = (np.asarray(at, float).reshape(-1) - half).tolist()
        it = iter(flat)
        surface.fblits(zip(repeat(sprite), zip(it, it)))
