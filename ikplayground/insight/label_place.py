"""Placing annotations so that none covers another: labels, badges and name tags around their anchors.

A greedy point-feature placer in the manner of Imhof's rules and the
candidate-position method of Christensen, Marks & Shieber, "An Empirical Study
of Algorithms for Point-Feature Label Placement" (ACM TOG 14(3), 1995): each
label has a few candidate boxes around its anchor, tried nearest first; labels
are placed in priority order, each in the first candidate that overlaps no box
already placed, no obstacle (a target ring) and stays inside the bounds. A
label placed away from its anchor gets a leader line; a label with no free
candidate is left out rather than drawn over another. Boxes are ``(x, y, w,
h)`` in pixels, y down.
"""

from __future__ import annotations

import math
from typing import Hashable, NamedTuple, Sequence

import numpy as np

# Candidate directions, nearest-looking first: right, left, above, below, then the diagonals.
_DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1))
RINGS = 3  # rings of candidates, each a label's height (and a gap) further out; beyond the first, a leader line
GAP = 6.0  # px between an anchor and its label's nearest edge


class Label(NamedTuple):
    """A label to place: its ``size`` (w, h) px beside the ``anchor`` (x, y) px.

    ``priority``: higher is placed first (and so keeps its nearest spot);
    ``key``: names the label from frame to frame, so that a label stays where it
    was while that spot is still free (no flicker); ``gap``: px between the
    anchor and the label's nearest edge; ``home``: (x, y) px, the top-left of a
    box tried before all others (where the drawing meant the label to go), or None.
    """

    anchor: tuple[float, float]
    size: tuple[float, float]
    key: Hashable = None
    priority: float = 0.0
    gap: float = GAP
    home: tuple[float, float] | None = None


class Placed(NamedTuple):
    """Where a label went: ``box`` (x, y, w, h) px, and whether it needs a ``leader`` line to its anchor."""

    box: tuple[float, float, float, float]
    leader: bool
    spot: int  # the candidate's index, which :func:`place_labels` prefers next time


def candidates(label: Label) -> np.ndarray:
    """The label's candidate boxes (k, 4) px (x, y, w, h), in the order they are tried."""
    return np.array(_candidates(label), dtype=float)


def _candidates(label: Label) -> list[tuple[float, float, float, float]]:
    """:func:`candidates` as a list of float tuples."""
    (ax, ay), (w, h) = label.anchor, label.size
    ax, ay, w, h = float(ax), float(ay), float(w), float(h)
    out = [] if label.home is None else [(float(label.home[0]), float(label.home[1]), w, h)]
    for ring in range(RINGS):
        gap = label.gap + ring * (h + label.gap)
        for dx, dy in _DIRECTIONS:
            x = ax + gap if dx > 0 else ax - gap - w if dx < 0 else ax - w / 2
            y = ay + gap if dy > 0 else ay - gap - h if dy < 0 else ay - h / 2
            out.append((float(x), float(y), w, h))
    return out


def overlaps(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Whether each of ``boxes`` (k, 4) overlaps any of ``others`` (m, 4): (k,) bool (touching edges do not)."""
    if len(others) == 0:
        return np.zeros(len(boxes), dtype=bool)
    b, o = boxes[:, None, :], others[None, :, :]
    apart = ((b[..., 0] + b[..., 2] <= o[..., 0]) | (o[..., 0] + o[..., 2] <= b[..., 0])
             | (b[..., 1] + b[..., 3] <= o[..., 1]) | (o[..., 1] + o[..., 3] <= b[..., 1]))
    return ~apart.all(axis=1)


def ring_box(centre, radius: float) -> tuple[float, float, float, float]:
    """The square (x, y, w, h) px about a ring of ``radius`` px at ``centre`` (x, y): an obstacle."""
    x, y = centre
    return (x - radius, y - radius, 2.0 * radius, 2.0 * radius)


def place_labels(labels: Sequence[Label], obstacles: Sequence | np.ndarray = (), bounds=None,
                 previous: dict | None = None) -> list[Placed | None]:
    """Place ``labels`` so that no two overlap, none covers an obstacle, and all stay in ``bounds``.

    Parameters
    ----------
    labels : sequence of Label
        What to place.
    obstacles : sequence of (x, y, w, h), or an (m, 4) array
        Boxes (px) no label may cover: target rings (:func:`ring_box`), the panel.
    bounds : (x, y, w, h) or None
        The box (px) every label must stay inside; None: anywhere.
    previous : dict or None
        ``{key: spot}`` from the last frame's placement (:func:`spots`): a label keeps
        its spot while it is free.

    Returns
    -------
    list of Placed or None
        One entry per label, in the order given; None for a label that found no free spot.
    """
    placed: list[Placed | None] = [None] * len(labels)
    taken = [tuple(map(float, o)) for o in np.asarray(obstacles, dtype=float).reshape(-1, 4).tolist()]
    order = sorted(range(len(labels)), key=lambda i: -labels[i].priority)
    for i in order:
        label = labels[i]
        boxes = _candidates(label)
        # the spot kept from the last frame while it is free, else the first free one: tried one by one, not all
        # worked out (the result is the same); a few labels, a few boxes each: plain floats beat numpy here
        last = previous.get(label.key) if previous is not None and label.key is not None else None
        spot = last if last is not None and 0 <= last < len(boxes) and _free(boxes[last], taken, bounds) else None
        if spot is None:
            spot = next((k for k, b in enumerate(boxes) if _free(b, taken, bounds)), None)
        if spot is None:
            continue
        box = boxes[spot]
        near = len(_DIRECTIONS) + (label.home is not None)  # the home box and the first ring need no leader
        placed[i] = Placed(box, spot >= near, spot)
        taken.append(box)
    return placed


def _free(box, taken, bounds) -> bool:
    """Whether ``box`` (x, y, w, h) px lies inside ``bounds`` (None: anywhere) and overlaps none of ``taken``."""
    x, y, w, h = box
    if bounds is not None:
        bx, by, bw, bh = bounds
        if not (x >= bx and y >= by and x + w <= bx + bw and y + h <= by + bh):
            return False
    for ox, oy, ow, oh in taken:
        if not (x + w <= ox or ox + ow <= x or y + h <= oy or oy + oh <= y):
            return False
    return True


def spots(labels: Sequence[Label], placed: Sequence[Placed | None]) -> dict:
    """``{key: spot}`` of the placed labels that have a key: the ``previous`` of the next frame."""
    return {label.key: p.spot for label, p in zip(labels, placed) if p is not None and label.key is not None}


def leader_end(box, anchor) -> tuple[float, float]:
    """The point of ``box`` (x, y, w, h) nearest ``anchor`` (x, y): where a leader line meets the label."""
    x, y, w, h = box
    return (min(max(anchor[0], x), x + w), min(max(anchor[1], y), y + h))


def distance(box, anchor) -> float:
    """How far (px) ``box`` lies from ``anchor``: 0 when it covers it."""
    ex, ey = leader_end(box, anchor)
    return math.hypot(ex - anchor[0], ey - anchor[1])
