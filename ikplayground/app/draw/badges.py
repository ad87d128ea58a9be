"""What the renderer draws of a chain's solve: a status badge by a tip off its target (red rings on a stalled
chain's joints at their limits), and a pole's diamond tied to the middle joint. Pixels, y down."""

from __future__ import annotations

import math

import numpy as np
import pygame

from ikplayground.app.draw.annotate import BADGE, Notes
from ikplayground.app.draw.fonts import ui_font
from ikplayground.app.draw.shapes import dashes
from ikplayground.scene import Chain, clamped_joints

BADGE_TEXT = (20, 22, 28)
BADGE_COLOURS = {
    "out of reach": (255, 170, 90),
    "stalled": (240, 95, 105),
    "iterating": (255, 214, 102),
    "mixed": (150, 185, 255),
    "eased": (150, 220, 200),
}
PINNED = (240, 95, 105)
POLE_RADIUS = 8  # px from the diamond's centre to a corner; also what a press must come within to grab it
AT_LIMIT = 1e-9  # rad: a joint this close to an end of its range sits at the limit


class BadgeFont:
    """The badges' font (made on first use) and its rendered badges."""

    def __init__(self):
        self._font = None
        self._words: dict[tuple, pygame.Surface] = {}

    def badge(self, status: str) -> pygame.Surface:
        """The badge for ``status``: its word on a rounded patch of the status's colour."""
        return self.tag(status, BADGE_COLOURS.get(status, (200, 200, 200)))

    def tag(self, text: str, colour) -> pygame.Surface:
        """``text`` in dark letters on a rounded patch of ``colour`` (a status badge, a race's name tag)."""
        key = (text, tuple(colour))
        surf = self._words.get(key)
        if surf is None:
            if self._font is None:
                self._font = ui_font(11, bold=True)
            words = self._font.render(text, True, BADGE_TEXT)
            w, h = words.get_width() + 10, words.get_height()
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            pygame.draw.rect(surf, tuple(colour) + (235,), surf.get_rect(), border_radius=h // 2)
            surf.blit(words, (5, 0))
            self._words[key] = surf
        return surf


def draw_status_badge(surface: pygame.Surface, chain: Chain, font: BadgeFont, notes: Notes | None = None) -> None:
    """The badge beside ``chain``'s tip when not reached, and a stalled chain's pinned joints; ``notes``: the
    frame's annotations, which the badge joins to be placed clear of the others (None: drawn here)."""
    status = chain.status
    if status == "reached":
        return
    f = chain.fields
    if status == "stalled":
        for p in pinned_joints(f["points"], f["angles"], f["limits"]).tolist():
            pygame.draw.circle(surface, PINNED, p, 8, 2)
    badge = font.badge(status)
    tip = f["points"][-1]
    centre = tip + badge_offset(tip - f["points"][-2], badge.get_size())
    rect = badge.get_rect(center=(round(centre[0]), round(centre[1])))
    if notes is not None:
        notes.add(badge, tip, ("badge", chain.id), BADGE, home=rect.topleft, patch=False)
    else:
        surface.blit(badge, rect)


def badge_offset(along, size) -> np.ndarray:
    """Where a badge of ``size`` (w, h) goes from the tip: beside the last bone (``along`` (2,)), on its upper
    side, clear of the bone."""
    d = math.hypot(*along)
    ux, uy = (along / d) if d > 0 else (1.0, 0.0)
    nx, ny = -uy, ux
    if ny > 0 or (ny == 0 and nx < 0):
        nx, ny = -nx, -ny  # the upper side, or the right of a level bone
    w, h = size
    reach = abs(nx) * (w / 2 + 6.0) + abs(ny) * (h / 2 + 6.0) + 4.0
    return np.array((nx * reach, ny * reach))


def pinned_joints(points: np.ndarray, angles: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """The joints (k, 2) px at an end of their clamped range: ``points`` (n + 1, 2) px, relative ``angles``
    (n,) rad, ``limits`` (n, 2) rad."""
    at = clamped_joints(limits) & ((np.abs(angles - limits[:, 0]) <= AT_LIMIT)
                                   | (np.abs(angles - limits[:, 1]) <= AT_LIMIT))
    return points[:-1][at]


def pole_link(chain: Chain) -> np.ndarray:
    """The joint the pole's dashed line starts from: the middle one (a two-bone arm's knee)."""
    pts = chain.fields["points"]
    return pts[max(1, (len(pts) - 1) // 2)]


def draw_pole(surface: pygame.Surface, chain: Chain, colour, hot: bool = False) -> None:
    """``chain``'s pole: a diamond tied to its middle joint by a dashed line."""
    pole = chain.pole
    if pole is None:
        return
    px, py = pole.tolist()
    link = pole_link(chain)
    if math.dist(link.tolist(), (px, py)) >= 1.0:  # a dashed line to the middle joint
        for a, b in dashes(np.array([link, pole], float)):
            pygame.draw.line(surface, colour, a, b, 1)
    r = POLE_RADIUS + (2 if hot else 0)
    corners = [(px, py - r), (px + r, py), (px, py + r), (px - r, py)]
    pygame.draw.polygon(surface, (30, 34, 44), corners)
    pygame.draw.polygon(surface, colour, corners, 2)
