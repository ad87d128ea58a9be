"""The App's camera (``camera.py``) driven by the user: the wheel zooms about the mouse, + / - about the stage's
centre, a right- or middle-button drag (or Space + left drag) pans, F fits everything, Home resets, a click on an
edge marker centres the view on the chain it stands for. The scene keeps the view for its file (``Scene.view``)."""

from __future__ import annotations

import numpy as np
import pygame

from ikplayground.app.camera import STEP, Camera
from ikplayground.app.draw.view import chain_spot, marker_at, out_of_view
from ikplayground.scene import MAX_COORD

PAN_BUTTONS = (2, 3)  # middle and right
FIT_MIN_BOX = 200.0  # px: what F fits is at least this wide and high (one chain is not blown up)


class ViewControl:
    """The camera of ``app``'s stage, the pan in progress, Space's state, and the edge markers drawn last."""

    def __init__(self, app):
        self.app = app
        self.camera = Camera()
        self.panning: tuple[int, int] | None = None  # the last mouse position of a pan drag
        self.pan_button = 0
        self.space_armed = False  # Space is down, and pauses when let go unless it panned meanwhile
        self.space_panned = False
        self.markers: list = []  # (chain, (x, y, angle)) of the last frame's edge markers

    # --- input ------------------------------------------------------------------------------------
    def handle(self, event) -> bool:
        """Take the wheel, a pan drag or a click on an edge marker; True when ``event`` was the view's."""
        app = self.app
        if event.type == pygame.MOUSEWHEEL:
            pos = app.mouse
            if pos is None or not app.on_stage(pos) or not event.y:
                return False
            self.camera.zoom_about(pos, STEP ** max(min(event.y, 5), -5))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and app.on_stage(event.pos):
            if event.button in PAN_BUTTONS or (event.button == 1 and self.space_armed):
                self.panning, self.pan_button = event.pos, event.button
                self.space_panned |= event.button == 1
                return True
            if event.button == 1:
                chain = marker_at(self.markers, event.pos)
                if chain is not None and chain in app.scene.chains:
                    self.centre_on(chain)
                    return True
        if event.type == pygame.MOUSEMOTION and self.panning is not None:
            app.mouse = event.pos
            buttons = getattr(event, "buttons", (0, 0, 0))
            if not buttons[self.pan_button - 1]:  # released outside the window
                self.panning = None
                return True
            self.camera.pan(np.subtract(event.pos, self.panning))
            self.panning = event.pos
            self.keep_in_bounds()
            return True
        if event.type == pygame.MOUSEBUTTONUP and self.panning is not None and event.button == self.pan_button:
            self.panning = None
            return True
        return False

    def space_down(self) -> None:
        self.space_armed, self.space_panned = True, False

    def space_up(self) -> bool:
        """Space let go: True when it was a tap (no pan while it was down), which pauses."""
        tap = self.space_armed and not self.space_panned
        self.space_armed = self.space_panned = False
        return tap

    def forget_keys(self) -> None:
        """The window lost the keyboard: Space is no longer down, no pan goes on."""
        self.space_armed = self.space_panned = False
        self.panning = None

    # --- commands ---------------------------------------------------------------------------------
    def zoom(self, factor: float) -> None:
        """+ / -: zoom about the stage's centre."""
        w, h = self.app.stage_rect.size
        self.camera.zoom_about((w / 2, h / 2), factor)
        self.keep_in_bounds()
        self.app.say(f"Zoom {self.camera.zoom:.2f}x (Home: 1x, F: fit everything)")

    def fit(self, quiet: bool = False) -> None:
        """F: every chain, target, snake, walker and obstacle in view (``quiet``: nothing said)."""
        box = self.world_box()
        if box is None:
            if not quiet:
                self.app.say("Nothing to fit: the scene is empty")
            return
        x0, y0, x1, y1 = box
        w, h = max(x1 - x0, FIT_MIN_BOX), max(y1 - y0, FIT_MIN_BOX)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        self.camera.fit((cx - w / 2, cy - h / 2, w, h), self.app.stage_rect.size)
        self.keep_in_bounds()
        if not quiet:
            n = len(self.app.scene.chains)
            self.app.say(f"Fitted {n} chain{'' if n == 1 else 's'} in view (zoom {self.camera.zoom:.2f}x)")

    def show_all(self, margin: float = 16.0) -> None:
        """Fit, quietly, when some chain or target reaches within ``margin`` screen px of the view's edge or past it
        (a race laid out wider than the stage)."""
        box = self.world_box()
        if box is None:
            return
        lo = self.camera.to_screen(box[:2])
        hi = self.camera.to_screen(box[2:])
        w, h = self.app.stage_rect.size
        if lo[0] < margin or lo[1] < margin or hi[0] > w - margin or hi[1] > h - margin:
            self.fit(quiet=True)

    def home(self) -> None:
        """Home: the start view, scene px on screen px."""
        self.camera.reset()
        self.app.say("Home view: zoom 1x")

    def centre_on(self, chain) -> None:
        """Centre the view on ``chain`` (a click on its edge marker), keeping the zoom."""
        w, h = self.app.stage_rect.size
        self.camera.origin = chain_spot(chain) - np.array((w, h), dtype=float) / (2 * self.camera.zoom)
        self.keep_in_bounds()

    def world_box(self) -> tuple[float, float, float, float] | None:
        """The box (x0, y0, x1, y1) px round every chain's points, target and pole and every obstacle; None for an
        empty scene."""
        los, his = [], []
        circles = self.app.scene.obstacles
        if len(circles):
            los.append((circles[:, :2] - circles[:, 2:]).min(axis=0))
            his.append((circles[:, :2] + circles[:, 2:]).max(axis=0))
        for g in self.app.scene.groups:
            parts = [g.fields["points"].reshape(-1, 2)]
            if g.solver not in ("snake", "walker"):  # a rope has a target but no pole
                parts += [g.fields[k] for k in ("target", "pole") if k in g.fields]
            if "control" in g.fields:  # a path chain's handles
                parts.append(g.fields["control"].reshape(-1, 2))
            pts = np.concatenate(parts)
            pts = pts[np.isfinite(pts).all(axis=1)]
            if len(pts):
                los.append(pts.min(axis=0))
                his.append(pts.max(axis=0))
        if not los:
            return None
        lo, hi = np.min(los, axis=0), np.max(his, axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])

    def keep_in_bounds(self) -> None:
        """Keep the origin where a scene file can hold it (+-``MAX_COORD`` px)."""
        self.camera.origin = np.clip(self.camera.origin, -MAX_COORD, MAX_COORD)

    # --- the window and the scene -----------------------------------------------------------------
    def resized(self, old_size, new_size) -> None:
        """The stage changed from ``old_size`` to ``new_size`` px: the world point at its centre stays there."""
        shift = (np.asarray(new_size, dtype=float) - np.asarray(old_size, dtype=float)) / 2
        self.camera.pan(shift)
        self.keep_in_bounds()

    def load(self, scene) -> None:
        """Look at ``scene`` as its file last did (its ``view``), or from home."""
        view = getattr(scene, "view", None)
        self.camera.reset()
        if view is not None:
            self.camera.set_zoom(float(view["zoom"]))  # (clamped to the file's range, VIEW_ZOOM)
            self.camera.origin = np.array(view["origin"], dtype=float)
            self.keep_in_bounds()

    def store(self, scene) -> None:
        """Keep the view in ``scene`` for its file (None at home, which the file leaves out)."""
        scene.view = None if self.camera.home else self.camera.state()

    # --- drawing ----------------------------------------------------------------------------------
    def visible_box(self) -> tuple[float, float, float, float]:
        """The world box (x0, y0, x1, y1) px the stage shows."""
        x, y, w, h = self.camera.visible(self.app.stage_rect.size)
        return x, y, x + w, y + h

    def update_markers(self) -> list:
        """The edge markers of this frame: chains wholly out of view (:func:`.view.out_of_view`)."""
        self.markers = out_of_view(self.app.scene.groups, self.camera, self.app.stage_rect.size)
        return self.markers
