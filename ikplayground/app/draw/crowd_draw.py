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
reach 14 px) its snakes are 3 px strokes, and its joints, anchors and targets
are small shapes stamped into the index buffer (5 px squares and rings, no
blit at all), so that each chain still shows apart from its neighbours.
Arrays are y-down screen px, ``points`` (N, K, 2).
"""

from __future__ import annotations

import weakref
from itertools import repeat

import numpy as np
import pygame

RAGGED_SAMPLES = 16  # a group whose longest bone needs more samples is sampled bone by bone
CLIP_OVER = 64  # px: a bone longer than this is first cut to the stage (a file's bone may be 10^6 px)
DOT_MIN_BONE = 2.0  # px: a group whose mean bone is shorter gets no joint dots (they would hide it)
SMALL_MIN_REACH = 24.0  # px: a group whose chains reach less is dense: thin snakes, stamped shapes


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
    """Points along every bone's part on the stage, at most a pixel apart along the bone's longer axis.

    Parameters
    ----------
    points : ndarray, shape (N, K, 2)
        Each chain's joints, px (y down).
    w, h : float
        The stage's size, px: a long bone is cut to it first (:func:`clip_segments`).

    Returns
    -------
    x, y : ndarray of float
        The samples, px: shape (N, M) when every bone of the group is short
        (each bone sampled alike from its start, in a row's order that is
        quickest to compute, and the chain's last joint at its end), else
        (P,), bone after bone.
    owner : ndarray of intp
        The row of ``points`` of each sample, broadcastable to ``x``: (N, 1) or (P,).
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
    """The flat index ``row * w + column`` of the pixel nearest each point (x, y) px; ``w * h`` off the stage."""
    xi = np.floor(x + 0.5)
    yi = np.floor(y + 0.5)
    flat = yi * w + xi
    flat[~((xi >= 0) & (xi < w) & (yi >= 0) & (yi < h))] = w * h  # NaN too
    return flat.astype(np.intp)


def dense(group) -> bool:
    """Whether ``group``'s chains are small (mean reach under ``SMALL_MIN_REACH`` px): a dense crowd,
    drawn with thin snakes and stamped shapes."""
    lengths = group.fields["lengths"]
    return not lengths.size or float(lengths.sum()) < SMALL_MIN_REACH * len(lengths)


def has_dots(group) -> bool:
    """Whether ``group``'s joints get dots: its mean bone is ``DOT_MIN_BONE`` px or longer."""
    lengths = group.fields["lengths"]
    return bool(lengths.size) and float(lengths.sum()) >= DOT_MIN_BONE * lengths.size


def joints(group) -> np.ndarray:
    """The points (N, J, 2) px that get a joint dot: a snake's head, an IK chain's joints past its root."""
    pts = group.fields["points"]
    return pts[:, :1] if group.solver == "snake" else pts[:, 1:]


def _ring(r_in: float, r_out: float) -> np.ndarray:
    """Offsets (S, 2) of the pixels of a (2R+1)-square whose centres lie between radii ``r_in`` and ``r_out``."""
    k = int(np.ceil(r_out))
    dx, dy = np.meshgrid(np.arange(-k, k + 1), np.arange(-k, k + 1))
    r = np.hypot(dx, dy)
    keep = (r >= r_in) & (r <= r_out)
    return np.stack([dx[keep], dy[keep]], axis=1)


ANCHOR_EDGE = np.array([(x, y) for x in range(-2, 3) for y in range(-2, 3) if max(abs(x), abs(y)) == 2])
ANCHOR_INSIDE = np.array([(x, y) for x in range(-1, 2) for y in range(-1, 2)])
TARGET_RING = _ring(1.5, 2.3)
JOINT_CROSS = np.array([(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)])


def stamp(buf: np.ndarray, w: int, h: int, centres: np.ndarray, offsets: np.ndarray, values) -> None:
    """Set the pixels ``offsets`` (S, 2) around each of ``centres`` (M, 2) px in ``buf`` (w * h + 1,) to
    ``values``: a palette index, or one per centre (M,)."""
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
    """The crowd's bones as one palette-indexed buffer, and its sprites in batches.

    Parameters
    ----------
    palette : sequence of (r, g, b)
        The chains' colours; a chain's is ``palette[palette_index % len(palette)]``.
    dots, anchors : sequence of pygame.Surface
        A joint dot and an anchor sprite per palette colour.
    target : pygame.Surface
        The target sprite.
    fill, target_colour : (r, g, b)
        A dense group's anchor squares' inside and its target rings.
    joint_colours : sequence of (r, g, b)
        A dense group's joint crosses, per palette colour.
    """

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

    def colours(self, group) -> np.ndarray:
        """Palette indices (N,) of ``group``'s members, kept per group (a changed membership is a new group)."""
        return self._kept(group)[0]

    def _kept(self, group) -> tuple:
        """``(colours (N,), by_colour)`` of ``group``: ``by_colour`` lists (colour, rows) with the rows (R,) of
        each colour in order. Worked out once per group and kept while the group lives (weakly: a dropped
        scene's groups are not held)."""
        kept = self._colours.get(group)
        if kept is None:
            k = len(self.palette)
            colours = np.fromiter((m.palette_index % k for m in group.members), np.intp, len(group.members))
            kept = (colours, [(c, np.flatnonzero(colours == c)) for c in np.unique(colours).tolist()])
            self._colours[group] = kept
        return kept

    def _buffers(self, size: tuple[int, int]):
        """Two index buffers (thin strokes, wide strokes) and a scratch one, each (w * h + 1,) bytes, and the
        8-bit surface over the first (palette and colour key set once; it shares the buffer's memory)."""
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
        """Every non-walker group of ``groups`` onto ``surface``: bones first, then joints, anchors, targets.

        ``size`` is the stage's (w, h) in px: the bone buffer covers it, from (0, 0).
        """
        groups = [g for g in groups if g.solver != "walker" and len(g.members)]
        if not groups:
            return
        w, h = size
        flat_ik, flat_body, flat_tmp, layer = self._buffers((w, h))
        flat_ik.fill(0)
        flat_body.fill(0)
        packed = {g: dense(g) for g in groups}
        drew = {False: False, True: False}
        for g in groups:
            wide = g.solver == "snake" and not packed[g]  # a dense crowd's snakes are thin strokes too
            drew[wide] |= self._rasterize(flat_body if wide else flat_ik, g, w, h)
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
        surface.blit(layer, (0, 0))
        for g in groups:
            if not packed[g]:
                self._sprites(surface, g)

    def _rasterize(self, buf: np.ndarray, group, w: int, h: int) -> bool:
        """Set the pixels of ``group``'s bones in ``buf`` (w * h + 1,: the stage's rows, then a cell for what
        falls off it) to its chains' palette index + 1."""
        x, y, owner = bone_samples(group.fields["points"], w, h)
        buf[pixel_index(x, y, w, h)] = (self.colours(group) + 1).astype(np.uint8)[owner]
        return x.size > 0

    def _sprites(self, surface: pygame.Surface, group) -> None:
        """Joint dots (unless the bones are too short for them), anchors and targets of a sparse ``group``:
        antialiased sprites."""
        f = group.fields
        if has_dots(group):
            self._blit_by_colour(surface, self._dots, group, joints(group), 3)
        if group.solver == "snake":
            return
        self._blit_by_colour(surface, self._anchors, group, f["root"][:, None], self._anchors[0].get_width() // 2)
        self._blit_all(surface, self._target, f["target"], self._target.get_width() // 2)

    def _stamps(self, buf: np.ndarray, group, w: int, h: int) -> None:
        """Joint dots (unless the bones are too short for them), anchors and targets of a dense ``group``:
        small shapes stamped into the index buffer ``buf`` (w * h + 1,)."""
        f = group.fields
        colours = self.colours(group)
        if has_dots(group):
            at = joints(group)
            each = np.repeat(colours + self._joint_base, at.shape[1])
            stamp(buf, w, h, at.reshape(-1, 2), JOINT_CROSS, each)
        if group.solver == "snake":
            return
        stamp(buf, w, h, f["root"], ANCHOR_INSIDE, self._fill)
        stamp(buf, w, h, f["root"], ANCHOR_EDGE, colours + 1)
        stamp(buf, w, h, f["target"], TARGET_RING, self._target_index)

    def _blit_by_colour(self, surface, sprites, group, at: np.ndarray, half: int) -> None:
        """``sprites[c]`` centred on every point of ``at`` (N, J, 2) whose row's chain of ``group`` has colour c."""
        for c, rows in self._kept(group)[1]:
            self._blit_all(surface, sprites[c], at[rows], half)

    @staticmethod
    def _blit_all(surface, sprite, at: np.ndarray, half: int) -> None:
        flat = (np.asarray(at, float).reshape(-1) - half).tolist()
        it = iter(flat)
        surface.fblits(zip(repeat(sprite), zip(it, it)))
