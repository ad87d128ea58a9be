"""The camera's side of drawing: chains, groups and overlay primitives moved from the world onto the screen, the
world's grid, and the markers of things out of view. Positions are world px (y down) in, screen px out; line
widths and radii of symbols stay in screen px, as a map's do."""

from __future__ import annotations

import copy
import math
import weakref

import numpy as np
import pygame

from ikplayground.app.camera import Camera, edge_marker
from ikplayground.insight.primitives import Circle, Label, Polygon, Polyline, Ring
from ikplayground.scene import rope_points

# fields that hold positions (px), moved by the camera; "lengths" is scaled; the rest passes through
POSITIONS = frozenset(("points", "root", "target", "targets", "pole", "body", "foot", "step_from", "step_to",
                       "motion_centre", "app_points", "app_previous", "control"))
MARKER_SIZE = 11  # px from a marker's tip to its back
MARKER_PICK = 16  # px from a marker's centre that a click takes
MARKER_APART = 2 * MARKER_SIZE + 8  # px: markers closer than this to one shown are left out


class ScreenFields(dict):
    """A chain's or group's fields as the screen shows them: positions moved, lengths scaled, lazily."""

    def __init__(self, fields, camera: Camera):
        super().__init__()
        self.world, self.camera = fields, camera

    def __missing__(self, name: str):
        value = self.world[name]
        if name in POSITIONS:
            value = self.camera.to_screen(value)
        elif name == "lengths":
            value = value * self.camera.zoom
        self[name] = value
        return value

    def __contains__(self, name) -> bool:
        return name in self.world

    def get(self, name, default=None):
        return self[name] if name in self.world else default


def screen_chain(chain, camera: Camera):
    """A shallow copy of ``chain`` whose fields are :class:`ScreenFields` (its own when the camera is at home)."""
    if camera.home:
        return chain
    view = copy.copy(chain)
    view.fields = ScreenFields(chain.fields, camera)
    return view


def as_drawn(chain):
    """``chain``, or, for a rope whose root was dragged since the last step (while paused: the step lays it out),
    a shallow copy whose joints are laid out from the root as the step will."""
    if not chain.is_rope:
        return chain
    points = rope_points(chain.fields)
    if points is chain.fields["points"]:
        return chain
    view = copy.copy(chain)
    view.fields = {**chain.fields, "points": points}
    return view


class ScreenGroups:
    """Screen copies of groups, one kept per group while it lives (the crowd caches by group)."""

    def __init__(self):
        self._kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def of(self, groups, camera: Camera) -> list:
        if camera.home:
            return list(groups)
        out = []
        for g in groups:
            view = self._kept.get(g)
            if view is None:
                view = self._kept[g] = copy.copy(g)
            view.fields = ScreenFields(g.fields, camera)  # fresh each frame: the arrays move
            out.append(view)
        return out


def screen_primitives(primitives, camera: Camera) -> list:
    """Overlay primitives (:mod:`ikplayground.insight.primitives`) with their positions and radii on the screen."""
    if camera.home:
        return list(primitives)
    z, out = camera.zoom, []
    for p in primitives:
        kind = type(p)
        if kind is Polyline or kind is Polygon:
            out.append(p._replace(points=camera.to_screen(p.points)))
        elif kind is Circle:
            out.append(p._replace(centre=camera.to_screen(p.centre), radius=p.radius * z))
        elif kind is Ring:
            out.append(p._replace(centre=camera.to_screen(p.centre), inner=p.inner * z, outer=p.outer * z))
        elif kind is Label:
            out.append(p._replace(pos=camera.to_screen(p.pos)))
        else:
            out.append(p)
    return out


def grid_step(zoom: float, base: float = 40.0) -> float:
    """The world spacing (px) of the grid's lines: ``base`` times a power of 5, at least 16 screen px apart."""
    step = base
    while step * zoom < 16.0:
        step *= 5.0
    while step * zoom > 16.0 * 5.0 and step > base / 125.0:
        step /= 5.0
    return step


def draw_grid(surface: pygame.Surface, camera: Camera, size, colours) -> None:
    """The world's grid over a view of ``size`` (w, h) px: ``colours`` (background, minor, major); a major line
    every fifth."""
    back, minor, major = colours
    w, h = size
    surface.fill(back, pygame.Rect(0, 0, w, h))
    step = grid_step(camera.zoom)
    x0, y0, vw, vh = camera.visible(size)
    for axis, start, span, length in ((0, x0, vw, h), (1, y0, vh, w)):
        first = math.floor(start / step)
        for k in range(first, first + int(span / step) + 2):
            s = (k * step - start) * camera.zoom
            colour = major if k % 5 == 0 else minor
            a, b = ((s, 0), (s, length)) if axis == 0 else ((0, s), (length, s))
            pygame.draw.line(surface, colour, a, b)


def chain_spot(chain) -> np.ndarray:
    """Where a chain is, for its marker and for centring the view on it: its points' middle (2,) px."""
    pts = chain.fields["points"]
    return (pts.min(axis=0) + pts.max(axis=0)) / 2


def out_of_view(groups, camera: Camera, size, most: int = 64, margin: float = 4.0) -> list:
    """``(chain, marker)`` of up to ``most`` chains of ``groups`` wholly out of a view of ``size`` (w, h) px:
    ``marker`` is :func:`edge_marker`'s ``(x, y, angle)`` for the chain's middle (one array pass a group); a
    marker within ``MARKER_APART`` px of one already there is left out."""
    w, h = size
    out: list = []
    for g in groups:
        pts = g.fields["points"]  # (N, K, 2)
        if not pts.size:
            continue
        with np.errstate(invalid="ignore"):
            first = camera.to_screen(pts[:, 0])  # a chain whose first point is in view is not wholly out of it
            rows = np.flatnonzero((first[:, 0] < 0.0) | (first[:, 0] > w) | (first[:, 1] < 0.0) | (first[:, 1] > h))
            if not len(rows):
                continue
            lo = camera.to_screen(pts[rows].min(axis=1))
            hi = camera.to_screen(pts[rows].max(axis=1))
        off = (hi[:, 0] < -margin) | (lo[:, 0] > w + margin) | (hi[:, 1] < -margin) | (lo[:, 1] > h + margin)
        mid = (lo + hi) / 2
        for k in np.flatnonzero(off & np.isfinite(mid).all(axis=1)).tolist():
            row = int(rows[k])
            marker = edge_marker(mid[k], size)
            if marker is None or any(math.hypot(marker[0] - x, marker[1] - y) < MARKER_APART for _, (x, y, _) in out):
                continue  # one marker a spot: a crowd's would pile up along the edge
            out.append((g.members[row], marker))
            if len(out) >= most:
                return out
    return out


def draw_marker(surface: pygame.Surface, marker, colour) -> None:
    """An arrowhead at ``marker`` (x, y, angle) pointing ``angle``, in ``colour`` on a dark disc."""
    x, y, a = marker
    c, s = math.cos(a), math.sin(a)
    r = MARKER_SIZE
    pygame.draw.circle(surface, (30, 34, 44), (x, y), r + 3)
    pygame.draw.circle(surface, colour, (x, y), r + 3, 1)
    back_x, back_y = x - c * r * 0.75, y - s * r * 0.75
    side_x, side_y = -s * r * 0.6, c * r * 0.6  # long and narrow, notched: its way reads at a glance
    pygame.draw.polygon(surface, colour, [(x + c * r, y + s * r), (back_x + side_x, back_y + side_y),
                                          (x - c * r * 0.35, y - s * r * 0.35), (back_x - side_x, back_y - side_y)])


def marker_at(markers, pos):
    """The chain of the marker nearest ``pos`` within ``MARKER_PICK`` px, or None."""
    best, best_d = None, float(MARKER_PICK)
    for chain, (x, y, _) in markers:
        d = math.hypot(pos[0] - x, pos[1] - y)
        if d <= best_d:
            best, best_d = chain, d
    return best
