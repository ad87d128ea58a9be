"""The frame's annotations, placed together so that none covers another: the math labels, the status badges and
the race's name tags, in SCREEN pixels (y down).

Each frame the drawing code adds its texts (rendered surfaces) with their anchors and the target rings as
obstacles; :meth:`Notes.draw` places them all at once (:func:`~ikplayground.insight.label_place.place_labels`,
inside the stage, the panel outside it), draws a thin leader line to a label moved away from its anchor, and keeps
the spots for the next frame (no flicker). A label with no free spot is left out, not drawn over another.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

import numpy as np
import pygame

from ikplayground.insight.label_place import Label, leader_end, place_labels, ring_box, spots

LEADER = (150, 158, 176)  # a leader line's colour
NEAR = 260.0  # px: an obstacle farther than this from every anchor cannot meet a label (3 rings out, a wide label)
# priorities: a badge says what a chain is doing, a name tag which chain it is; the math's labels come after
BADGE, TAG, MATH = 3.0, 2.0, 1.0


class Note(NamedTuple):
    """One annotation: its ``surface``, where it points (``anchor`` (x, y) px), and its placer's ``label``."""

    surface: pygame.Surface
    anchor: tuple[float, float]
    label: Label
    patch: bool  # a dark patch under it (plain text over the stage); False: the surface is its own badge


class Notes:
    """The frame's annotations and obstacles; ``last_boxes`` (k, 4) px: where the last frame's went."""

    def __init__(self):
        self.notes: list[Note] = []
        self.obstacles: list[np.ndarray] = []
        self.previous: dict = {}
        self.last_boxes = np.zeros((0, 4))
        self.last_obstacles = np.zeros((0, 4))
        self._patches: OrderedDict[tuple[int, int], pygame.Surface] = OrderedDict()  # the dark patches, one a size

    def begin(self) -> None:
        """A new frame: no annotations yet."""
        self.notes.clear()
        self.obstacles.clear()

    def add(self, surface: pygame.Surface, anchor, key, priority: float, home=None, gap: float = 6.0,
            patch: bool = True) -> None:
        """Annotate ``anchor`` (x, y) px with ``surface``; ``home`` (x, y) px: the top-left where it is meant to go
        (None: beside the anchor); ``key`` names it from frame to frame."""
        ax, ay = float(anchor[0]), float(anchor[1])
        if not (np.isfinite(ax) and np.isfinite(ay)):
            return
        w, h = surface.get_size()
        pad = 6 if patch else 0  # the dark patch's margin belongs to the box
        size = (float(w + pad), float(h + (2 if patch else 0)))
        home_box = None if home is None else (float(home[0]) - pad / 2, float(home[1]) - (1 if patch else 0))
        self.notes.append(Note(surface, (ax, ay), Label((ax, ay), size, key, priority, gap, home_box), patch))

    def ring(self, centre, radius: float) -> None:
        """A ring of ``radius`` px about ``centre`` (x, y) px that no annotation may cover."""
        self.obstacles.append(np.asarray(ring_box(centre, radius), dtype=float))

    def rings(self, centres: np.ndarray, radius: float) -> None:
        """Rings of ``radius`` px about each of ``centres`` (k, 2) px."""
        c = np.asarray(centres, dtype=float).reshape(-1, 2)
        if len(c):
            self.obstacles.append(np.column_stack([c - radius, np.full((len(c), 2), 2.0 * radius)]))

    def place(self, bounds) -> list:
        """Place the frame's annotations inside ``bounds`` (x, y, w, h) px; the boxes (k, 4) go to ``last_boxes``."""
        labels = [n.label for n in self.notes]
        obstacles = np.vstack([o.reshape(-1, 4) for o in self.obstacles]) if self.obstacles else np.zeros((0, 4))
        if labels and len(obstacles):  # only the rings a label could reach
            anchors = np.array([lab.anchor for lab in labels])
            centres = obstacles[:, :2] + obstacles[:, 2:] / 2
            d = np.abs(centres[:, None, :] - anchors[None, :, :]).max(axis=2).min(axis=1)
            obstacles = obstacles[d <= NEAR + obstacles[:, 2] / 2]
        placed = place_labels(labels, obstacles, bounds, self.previous) if labels else []
        self.previous = spots(labels, placed)
        self.last_boxes = np.array([p.box for p in placed if p is not None], dtype=float).reshape(-1, 4)
        self.last_obstacles = obstacles
        return placed

    def draw(self, surface: pygame.Surface, stage: pygame.Rect) -> None:
        """Place the frame's annotations on ``stage`` and draw them (a leader line where one moved away)."""
        placed = self.place((stage.x, stage.y, stage.width, stage.height))
        clip = surface.get_clip()
        surface.set_clip(stage)
        try:
            for note, p in zip(self.notes, placed):
                if p is None:
                    continue
                x, y, w, h = p.box
                if p.leader:
                    end = leader_end(p.box, note.anchor)
                    pygame.draw.aaline(surface, LEADER, note.anchor, end)
                    pygame.draw.circle(surface, LEADER, (round(note.anchor[0]), round(note.anchor[1])), 2)
                if note.patch:
                    surface.blit(self._patch((round(w), round(h))), (round(x), round(y)))
                    surface.blit(note.surface, (round(x + 3), round(y + 1)))
                else:
                    surface.blit(note.surface, (round(x), round(y)))
        finally:
            surface.set_clip(clip)

    def _patch(self, size: tuple[int, int]) -> pygame.Surface:
        """The translucent dark patch of ``size`` (w, h) px under a plain label (kept: labels' sizes repeat)."""
        patch = self._patches.get(size)
        if patch is None:
            patch = self._patches[size] = pygame.Surface(size, pygame.SRCALPHA)
            patch.fill((22, 25, 32, 185))
            if len(self._patches) > 256:  # changing texts (an error in px) make new sizes: the least recent goes
                self._patches.popitem(last=False)
        else:
            self._patches.move_to_end(size)
        return patch
