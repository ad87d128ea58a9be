"""The camera: which part of the world (scene pixels, y down) the stage's view shows, and how large.

``screen = (world - origin) * zoom``, with ``origin`` the world point at the
view's top-left corner and ``zoom`` screen pixels per world pixel. Zooming
about a point keeps the world point under it where it is, as map viewers and
editors do; fitting frames a world box with a margin. No pygame: the App
turns wheel, keys and drags into these calls, and every drawing, hit test and
drag goes through :meth:`Camera.to_screen` / :meth:`Camera.to_world`.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene import VIEW_ZOOM

MIN_ZOOM, MAX_ZOOM = VIEW_ZOOM  # (0.05, 8.0): what a scene file's "view" may hold too
STEP = 1.2  # one wheel notch, or one + / - press, zooms by this factor
FIT_MARGIN = 40.0  # screen px left around what F fits


class Camera:
    """A view's origin (world px at its top-left) and zoom (screen px per world px).

    Parameters
    ----------
    origin : (float, float)
        The world point (px, y down) at the view's top-left corner.
    zoom : float
        Screen pixels per world pixel, clamped to ``[MIN_ZOOM, MAX_ZOOM]``.
    """

    def __init__(self, origin=(0.0, 0.0), zoom: float = 1.0):
        self.origin = np.array(origin, dtype=float)
        self.zoom = 1.0
        self.set_zoom(zoom)

    @property
    def home(self) -> bool:
        """Whether this is the start view: origin (0, 0), zoom 1 (screen px are world px)."""
        return self.zoom == 1.0 and not self.origin.any()

    def set_zoom(self, zoom: float) -> None:
        """Set the zoom, clamped to ``[MIN_ZOOM, MAX_ZOOM]`` (a non-finite zoom is ignored)."""
        if math.isfinite(zoom) and zoom > 0:
            self.zoom = min(max(float(zoom), MIN_ZOOM), MAX_ZOOM)

    def to_screen(self, points) -> np.ndarray:
        """World points (..., 2) px to screen points (..., 2) px (relative to the view's top-left)."""
        return (np.asarray(points, dtype=float) - self.origin) * self.zoom

    def to_world(self, points) -> np.ndarray:
        """Screen points (..., 2) px (relative to the view's top-left) to world points (..., 2) px."""
        return np.asarray(points, dtype=float) / self.zoom + self.origin

    def length(self, world_px: float) -> float:
        """A world length (px) on the screen (px)."""
        return world_px * self.zoom

    def zoom_about(self, screen_point, factor: float) -> None:
        """Zoom by ``factor`` keeping the world point under ``screen_point`` (x, y) where it is."""
        anchor = self.to_world(screen_point)
        self.set_zoom(self.zoom * factor)
        self.origin = anchor - np.asarray(screen_point, dtype=float) / self.zoom

    def pan(self, screen_delta) -> None:
        """Move the view so that the world follows a drag of ``screen_delta`` (dx, dy) screen px."""
        self.origin = self.origin - np.asarray(screen_delta, dtype=float) / self.zoom

    def fit(self, box, view_size, margin: float = FIT_MARGIN) -> None:
        """Frame the world ``box`` (x, y, w, h) px in a view of ``view_size`` (w, h) screen px, centred,
        with ``margin`` screen px around it (never zoomed in beyond 1:1 for a small box)."""
        x, y, w, h = (float(v) for v in box)
        vw, vh = (max(float(v) - 2 * margin, 1.0) for v in view_size)
        self.set_zoom(min(vw / max(w, 1.0), vh / max(h, 1.0), 1.0))
        centre = np.array((x + w / 2, y + h / 2))
        self.origin = centre - np.asarray(view_size, dtype=float) / (2 * self.zoom)

    def reset(self) -> None:
        """Back to the start view."""
        self.origin = np.zeros(2)
        self.zoom = 1.0

    def visible(self, view_size) -> tuple[float, float, float, float]:
        """The world box (x, y, w, h) px a view of ``view_size`` (w, h) screen px shows."""
        w, h = (float(v) / self.zoom for v in view_size)
        return (float(self.origin[0]), float(self.origin[1]), w, h)

    def state(self) -> dict:
        """What a scene file keeps of the view: ``{"origin": [x, y], "zoom": z}``."""
        return {"origin": [float(v) for v in self.origin], "zoom": self.zoom}


def edge_marker(screen_point, view_size, inset: float = 14.0):
    """Where a marker for an off-view ``screen_point`` (x, y) sits on the view's edge, and its direction.

    Returns None when the point is inside the view; else ``(x, y, angle)``: the
    point where the line from the view's centre to it leaves the view, pulled in by
    ``inset`` px, and the angle (rad, ``atan2(dy, dx)``, y down) the marker points.
    """
    px, py = (float(v) for v in screen_point)
    w, h = (float(v) for v in view_size)
    if 0.0 <= px <= w and 0.0 <= py <= h:
        return None
    cx, cy = w / 2, h / 2
    dx, dy = px - cx, py - cy
    half_w, half_h = max(cx - inset, 1.0), max(cy - inset, 1.0)
    t = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    return (cx + dx * t, cy + dy * t, math.atan2(dy, dx))
