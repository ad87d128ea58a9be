"""Drawing a crowd of chains in a few array passes: no Python call per chain.

Past ``render.DETAIL_LIMIT`` chains (the stress test, a crowd scene) every
chain but the selected one is drawn from its group's arrays:

- **bones** are rasterized with numpy into a stage-sized buffer of palette
  indices (0 = nothing): each bone is sampled at least once a pixel along its
  longer axis (a digital differential analyser, as in Bresenham's and DDA
  line drawing), the samples' pixels are set to the chain's colour, and the
  buffer is then widened by a maximum filter (a morphological dilation:
  3x3 for an IK chain's 3 px bones, an octagon of radius 3 for a snake's
  7 px body). The buffer is shown by one blit of an 8-bit surface over it
  (``pygame.image.frombuffer``, colour key 0);
- **joints, anchors and targets** are the antialiased sprites of
  ``render.py``, blitted with one ``Surface.fblits`` per sprite kind and
  colour, their positions fed lazily from one flat list (no list per point, so
  the cyclic garbage collector is not set off).

Level of detail: where a group's bones are shorter than ``DOT_MIN_BONE`` its
joint dots would only hide them and are left out; where its chains reach less
than ``SMALL_MIN_REACH`` (a dense crowd: 5,000 chains on a 980x694 stage
reach 14 px) its snakes are 3 px strokes and its anchors and targets get
small sprites, so that each chain still shows apart from its neighbours. Arrays are y-down screen px, ``points`` (N, K, 2).
"""

from __future__ import annotations

from itertools import repeat

import numpy as np
import pygame

RAGGED_SAMPLES = 16  # a group whose longest bone needs more samples is sampled bone by bone
CLIP_OVER = 64  # px: a bone longer than this is first cut to the stage (a file's bone may be 10^6 px)
DOT_MIN_BONE = 2.0  # px: a group whose median bone is shorter gets no joint dots (they would hide it)
SMALL_MIN_REACH = 24.0  # px: a group whose chains reach less gets the small anchor and target sprites


def dilate_square(buf: np.ndarray, tmp: np.ndarray) -> None:
    """``buf`` (h, w) replaced by its 3x3 maximum filter, in place (``tmp`` the same shape, scratch)."""
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
    """Cut segments ``a`` to ``a + d`` to the box [-1, w] x [-1, h], in place (Liang and Barsky's clipping).

    ``a`` and ``d`` are (S, 2) px; a segment wholly outside becomes the point ``(-2, -2)``.
    """
    t0 = np.zeros(len(a))
    t1 = np.ones(len(a))
    with np.errstate(divide="ignore", invalid="ignore"):
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
    """Points along every bone's part on the stage, at most a pixel apart along the bone's longer axis.

    Parameters
    ----------
    points : ndarray, shape (N, K, 2)
        Each chain's joints, px (y down).
    w, h : float
        The stage's size, px: a long bone is cut to it first (:func:`clip_segments`).

    Returns
    -------
    x, y : ndarray of float, shape (M,)
        The samples, px.
    chain : ndarray of intp, shape (M,)
        The row of ``points`` each sample belongs to.
    """
    n, k = points.shape[:2]
    a = points[:, :-1].reshape(-1, 2)
    d = points[:, 1:].reshape(-1, 2) - a
    steps = np.abs(d).max(axis=1)
    long = ~(steps <= CLIP_OVER)  # NaN too
    if long.any():
        a, d = a.copy(), d.copy()
        cut_a, cut_d = np.nan_to_num(a[long]), np.nan_to_num(d[long])
        clip_segments(cut_a, cut_d, w, h)
        a[long], d[long] = cut_a, cut_d
        steps[long] = np.abs(cut_d).max(axis=1)
    np.ceil(steps, out=steps)
    owner = np.arange(n).repeat(k - 1)
    most = int(steps.max()) if steps.size else 0
    if most <= RAGGED_SAMPLES:  # short bones: the same number of samples each, one broadcast
        t = np.linspace(0.0, 1.0, most + 1)
        x = (a[:, :1] + d[:, :1] * t).ravel()
        y = (a[:, 1:] + d[:, 1:] * t).ravel()
        return x, y, owner.repeat(most + 1)
    counts = steps.astype(np.intp) + 1
    seg = np.arange(len(counts)).repeat(counts)
    first = np.cumsum(counts) - counts
    t = (np.arange(seg.size) - first[seg]) / np.maximum(counts - 1, 1)[seg]
    return a[seg, 0] + d[seg, 0] * t, a[seg, 1] + d[seg, 1] * t, owner[seg]


def dense(group) -> bool:
    """Whether ``group``'s chains are small (median reach under ``SMALL_MIN_REACH`` px): a dense crowd,
    drawn with thin snakes and the small anchor and target sprites."""
    lengths = group.fields["lengths"]
    return not lengths.size or float(np.median(lengths.sum(axis=1))) < SMALL_MIN_REACH


class CrowdLayer:
    """The crowd's bones as one palette-indexed buffer, and its sprites in batches.

    Parameters
    ----------
    palette : sequence of (r, g, b)
        The chains' colours; a chain's is ``palette[palette_index % len(palette)]``.
    dots, anchors : sequence of pygame.Surface
        A joint dot and an anchor sprite per palette colour.
    target, small_target, small_anchors :
        The target sprite, and the small target and anchors (per colour) of a dense group.
    """

    def __init__(self, palette, dots, anchors, target, small_target, small_anchors):
        self.palette = [tuple(c[:3]) for c in palette]
        self._dots, self._anchors = dots, anchors
        self._target, self._small_target, self._small_anchors = target, small_target, small_anchors
        self._bufs: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._colours: dict[int, tuple[object, np.ndarray]] = {}

    def colours(self, group) -> np.ndarray:
        """Palette indices (N,) of ``group``'s members, kept per group (a changed membership is a new group)."""
        kept = self._colours.get(id(group))
        if kept is None or kept[0] is not group:
            k = len(self.palette)
            kept = (group, np.fromiter((m.palette_index % k for m in group.members), np.intp, len(group.members)))
            if len(self._colours) > 64:
                self._colours.clear()
            self._colours[id(group)] = kept
        return kept[1]

    def _buffers(self, size: tuple[int, int]):
        bufs = self._bufs.get(size)
        if bufs is None:
            self._bufs.clear()
            h, w = size[1], size[0]
            bufs = self._bufs[size] = (np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8),
                                       np.zeros((h, w), np.uint8))
        return bufs

    def draw(self, surface: pygame.Surface, groups, size: tuple[int, int]) -> None:
        """Every non-walker group of ``groups`` onto ``surface``: bones first, then joints, anchors, targets.

        ``size`` is the stage's (w, h) in px: the bone buffer covers it, from (0, 0).
        """
        groups = [g for g in groups if g.solver != "walker" and len(g.members)]
        if not groups:
            return
        w, h = size
        ik, body, tmp = self._buffers((w, h))
        ik.fill(0)
        body.fill(0)
        drew = {False: False, True: False}
        for g in groups:
            wide = g.solver == "snake" and not dense(g)  # a dense crowd's snakes are thin strokes too
            drew[wide] |= self._rasterize(body if wide else ik, g, w, h)
        if drew[False]:
            dilate_square(ik, tmp)
        if drew[True]:  # 7 px: a 5x5 square rounded by a cross
            dilate_square(body, tmp)
            dilate_square(body, tmp)
            dilate_cross(body, tmp)
            np.copyto(ik, body, where=body != 0)  # snakes over arms, as their group is drawn last
        layer = pygame.image.frombuffer(ik, (w, h), "P")
        layer.set_palette([(0, 0, 0)] + self.palette + [(0, 0, 0)] * (255 - len(self.palette)))
        layer.set_colorkey(0)
        surface.blit(layer, (0, 0))
        for g in groups:
            self._sprites(surface, g)

    def _rasterize(self, buf: np.ndarray, group, w: int, h: int) -> bool:
        """Set the pixels of ``group``'s bones in ``buf`` (h, w) to its chains' palette index + 1."""
        pts = group.fields["points"]
        x, y, owner = bone_samples(pts, w, h)
        xi = np.floor(x + 0.5)
        yi = np.floor(y + 0.5)
        inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        flat = (yi[inside] * w + xi[inside]).astype(np.intp)
        buf.reshape(-1)[flat] = (self.colours(group) + 1).astype(np.uint8)[owner[inside]]
        return flat.size > 0

    def _sprites(self, surface: pygame.Surface, group) -> None:
        """Joint dots (unless the bones are too short for them), anchors and targets of ``group``."""
        f = group.fields
        pts = f["points"]
        colours = self.colours(group)
        snake = group.solver == "snake"
        lengths = f["lengths"]
        small = dense(group)
        if lengths.size and float(np.median(lengths)) >= DOT_MIN_BONE:
            joints = pts[:, :1] if snake else pts[:, 1:]
            self._blit_by_colour(surface, self._dots, colours, joints, 3)
        if snake:
            return
        anchors = self._small_anchors if small else self._anchors
        self._blit_by_colour(surface, anchors, colours, f["root"][:, None], anchors[0].get_width() // 2)
        target = self._small_target if small else self._target
        self._blit_all(surface, target, f["target"], target.get_width() // 2)

    def _blit_by_colour(self, surface, sprites, colours, at: np.ndarray, half: int) -> None:
        """``sprites[c]`` centred on every point of ``at`` (N, J, 2) whose row's colour is c."""
        for c in np.unique(colours).tolist():
            self._blit_all(surface, sprites[c], at[colours == c], half)

    @staticmethod
    def _blit_all(surface, sprite, at: np.ndarray, half: int) -> None:
        flat = (np.asarray(at, float).reshape(-1) - half).tolist()
        it = iter(flat)
        surface.fblits(zip(repeat(sprite), zip(it, it)))
