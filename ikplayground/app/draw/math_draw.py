"""The draw adapter of the math overlays (after pymunk's ``pygame_util``): :mod:`ikplayground.insight.primitives`
onto a surface, a colour per role, a fade blended toward the background, fills translucent on a patch."""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pygame

from ikplayground.app.draw.annotate import MATH, Notes
from ikplayground.app.draw.fonts import ui_font
from ikplayground.app.draw.overlay import render_text
from ikplayground.app.draw.render import BACKGROUND
from ikplayground.app.draw.shapes import dashes
from ikplayground.insight.primitives import ROLES, Circle, Label, Polygon, Polyline, Ring

COLOURS = {
    "guide": (200, 206, 218),
    "reach": (120, 190, 140),
    "soft": (120, 190, 140),
    "limit": (230, 200, 120),
    "needle": (255, 236, 170),
    "needle_hot": (245, 90, 100),
    "error": (255, 120, 120),
    "ghost": (185, 190, 255),
    "angle": (143, 184, 255),
    "pole": (255, 170, 90),
    "wedge": (205, 165, 255),
    "follow": (150, 160, 180),
    "step": (255, 214, 102),
    "step_target": (80, 220, 120),
    "step_ghost": (200, 206, 218),
    "text": (220, 224, 232),
    "velocity": (120, 230, 230),
}
FILL_ALPHA = 46  # of a filled shape at fade 1
HUGE = 8  # a circle wider than this many views is not drawn
LABEL_CACHE = 256  # rendered labels kept, the least recently drawn dropped first (numbers change every frame)
assert set(COLOURS) == set(ROLES), "every role needs a colour"


def faded(role: str, fade: float) -> tuple[int, ...]:
    """The role's colour, ``fade`` (0..1) of the way from the background to it."""
    c = COLOURS[role]
    f = min(max(fade, 0.0), 1.0)
    return tuple(int(b + (v - b) * f) for v, b in zip(c, BACKGROUND))


class MathPainter:
    """Draws lists of primitives; keeps the rendered labels of recent frames."""

    def __init__(self):
        self._font: pygame.font.Font | None = None
        self._labels: OrderedDict[tuple[str, str, float], pygame.Surface] = OrderedDict()
        self.notes: Notes | None = None  # where labels go to be placed with the frame's others (None: drawn here)
        self._counts: dict[str, int] = {}  # labels of each role this draw: their keys from frame to frame

    def label(self, text: str, role: str, fade: float = 1.0) -> pygame.Surface:
        key = (text, role, round(fade, 2))
        surf = self._labels.get(key)
        if surf is None:
            if self._font is None:
                self._font = ui_font(12)
            surf = self._labels[key] = render_text(self._font, text, faded(role, fade))
            if len(self._labels) > LABEL_CACHE:  # the least recently drawn goes (the steady names stay)
                self._labels.popitem(last=False)
        else:
            self._labels.move_to_end(key)
        return surf

    def draw(self, surface: pygame.Surface, primitives, notes: Notes | None = None) -> None:
        """Draw ``primitives`` in order; circles far bigger than the view are left out. ``notes``: the frame's
        annotations, which the labels join to be placed clear of each other (None: labels drawn in place)."""
        self.notes = notes
        self._counts.clear()
        clip = surface.get_clip()
        too_big = HUGE * max(clip.width, clip.height, 1)
        for p in primitives:
            kind = type(p)
            if (kind is Circle and p.radius > too_big) or (kind is Ring and p.outer > too_big):
                continue
            if kind is Polyline:
                self.polyline(surface, p)
            elif kind is Label:
                self.text(surface, p)
            elif kind is Circle:
                centre = np.asarray(p.centre, dtype=float).tolist()
                if p.width == 0:
                    self.fill_patch(surface, p.role, p.fade, centre, p.radius,
                                    lambda s, c, at: pygame.draw.circle(s, c, at, p.radius))
                else:
                    pygame.draw.circle(surface, faded(p.role, p.fade), centre, p.radius, p.width)
            elif kind is Polygon:
                pts = np.asarray(p.points, dtype=float)
                if len(pts) >= 3:
                    lo = pts.min(axis=0)
                    size = np.ceil(pts.max(axis=0) - lo).astype(int) + 2
                    patch = pygame.Surface(size.tolist(), pygame.SRCALPHA)
                    pygame.draw.polygon(patch, COLOURS[p.role] + (int(FILL_ALPHA * p.fade),), (pts - lo).tolist())
                    surface.blit(patch, lo.tolist())
            elif kind is Ring:
                centre = np.asarray(p.centre, dtype=float).tolist()
                width = max(int(round(p.outer - p.inner)), 1)
                self.fill_patch(surface, p.role, p.fade, centre, p.outer,
                                lambda s, c, at: pygame.draw.circle(s, c, at, p.outer, width))

    @staticmethod
    def fill_patch(surface, role, fade, centre, radius, paint) -> None:
        """A translucent round shape of ``radius`` about ``centre``, painted on a patch by ``paint``."""
        clip = surface.get_clip()
        r = int(math.ceil(radius)) + 1
        box = pygame.Rect(int(centre[0]) - r, int(centre[1]) - r, 2 * r, 2 * r).clip(clip)
        if box.width <= 0 or box.height <= 0:
            return
        patch = pygame.Surface(box.size, pygame.SRCALPHA)
        paint(patch, COLOURS[role] + (int(FILL_ALPHA * fade),), (centre[0] - box.x, centre[1] - box.y))
        surface.blit(patch, box.topleft)

    @staticmethod
    def polyline(surface, p: Polyline) -> None:
        pts = np.asarray(p.points, dtype=float)
        if len(pts) < 2:
            return
        colour = faded(p.role, p.fade)
        if p.closed:
            pts = np.vstack([pts, pts[:1]])
        if p.dashed:
            for a, b in dashes(pts):
                pygame.draw.aaline(surface, colour, a, b, p.width)
        elif p.width <= 1:
            pygame.draw.aalines(surface, colour, False, pts.tolist())
        else:
            pygame.draw.lines(surface, colour, False, pts.tolist(), p.width)

    def text(self, surface, p: Label) -> None:
        surf = self.label(p.text, p.role, p.fade)
        x, y = np.asarray(p.pos, dtype=float).tolist()
        rect = surf.get_rect()
        if p.anchor == "left":
            rect.midleft = (x, y)
        elif p.anchor == "right":
            rect.midright = (x, y)
        else:
            rect.center = (x, y)
        if self.notes is not None:  # placed with the frame's other annotations, clear of them
            k = self._counts[p.role] = self._counts.get(p.role, 0) + 1
            self.notes.add(surf, (x, y), ("math", p.role, k), MATH, home=rect.topleft, gap=4.0)
            return
        rect.clamp_ip(surface.get_clip())  # a label near the stage's edge stays readable, inside it
        # a dark patch under the text, so it reads over bones and the grid
        back = pygame.Surface((rect.width + 6, rect.height + 2), pygame.SRCALPHA)
        back.fill(BACKGROUND + (170,))
        surface.blit(back, (rect.x - 3, rect.y - 1))
        surface.blit(surf, rect)
