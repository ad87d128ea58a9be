"""Drawing walkers and their ground (an adapter of :mod:`ikplayground.scene.step.walker`).

The ground: a band under the terrain's polyline, drawn once per terrain and stage size. A walker: far legs
(darker), antennae, body (abdomen and head turned by its tilt, eyes ahead), near legs. A crowd's walkers: a line
per leg.
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from ikplayground.app.draw.skins import draw_appendages, shade

GROUND = (33, 38, 46)
GROUND_DEEP = (26, 29, 36)
GROUND_EDGE = (96, 122, 108)
GROUND_LIP = (58, 74, 70)
EYE = (250, 250, 235)
PUPIL = (20, 20, 24)


class TerrainLayer:
    """The ground's picture, kept until the terrain, the stage size or the view changes."""

    def __init__(self):
        self._key = None
        self._surface: pygame.Surface | None = None

    def surface(self, terrain, size: tuple[int, int], camera=None) -> pygame.Surface:
        view = (0.0, 0.0, 1.0) if camera is None else (float(camera.origin[0]), float(camera.origin[1]), camera.zoom)
        key = (id(terrain), terrain.points.shape, float(terrain.points.sum()), size, view)
        if self._surface is None or key != self._key:
            self._surface = terrain_surface(terrain, size, view)
            self._key = key
        return self._surface


def terrain_surface(terrain, size: tuple[int, int], view=(0.0, 0.0, 1.0)) -> pygame.Surface:
    """The ground under ``terrain``'s polyline across a stage of ``size`` (transparent above), seen from
    ``view`` (origin x, y world px at the top-left, zoom)."""
    w, h = max(int(size[0]), 1), max(int(size[1]), 1)
    ox, oy, zoom = view
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    x0, x1 = ox, ox + w / zoom  # the world's x across the view
    tx = terrain.points[:, 0]
    xs = np.concatenate([[x0], tx[(tx > x0) & (tx < x1)], [x1]])
    top = np.stack([(xs - ox) * zoom, (terrain.height_at(xs) - oy) * zoom], axis=1)
    top[:, 1] = np.clip(top[:, 1], -4.0 * h, 5.0 * h)  # far off the view: drawn at its edge's side
    poly = np.concatenate([top, [[w, h + 2], [0, h + 2]]])
    pygame.draw.polygon(surf, GROUND, poly.tolist())
    # a darker band deeper down, following the surface, for depth
    deep = np.concatenate([top + (0, 40 * zoom), [[w, h + 2], [0, h + 2]]])
    pygame.draw.polygon(surf, GROUND_DEEP, deep.tolist())
    pygame.draw.lines(surf, GROUND_LIP, False, (top + (0, 4)).tolist(), 5)
    pygame.draw.aalines(surf, GROUND_EDGE, False, top.tolist())
    pygame.draw.lines(surf, GROUND_EDGE, False, top.tolist(), 2)
    return surf


def ellipse(centre, rx: float, ry: float, angle: float, count: int = 20) -> list:
    """Points of an ellipse of radii ``rx``, ``ry`` px turned by ``angle`` rad about ``centre``."""
    t = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    x, y = rx * np.cos(t), ry * np.sin(t)
    c, s = math.cos(angle), math.sin(angle)
    return np.stack([centre[0] + c * x - s * y, centre[1] + s * x + c * y], axis=1).tolist()


def leg_joints(f) -> np.ndarray:
    """A walker's (or group's) legs as joints (..., legs, bones + 1, 2) px."""
    m = f["lengths"].shape[-1]
    return f["points"].reshape(f["points"].shape[:-2] + (-1, m + 1, 2))


def _legs(surface, legs, colour, width: int) -> None:
    """Legs (k, m + 1, 2) px: bones thinner toward the foot, dots at the joints and foot."""
    joint = shade(colour, 0.35)
    for leg in legs.tolist():
        for i, (a, b) in enumerate(zip(leg, leg[1:])):
            pygame.draw.line(surface, colour, a, b, max(width - 2 * i, 2))
        for i, p in enumerate(leg[1:-1]):
            pygame.draw.circle(surface, joint, p, max(width // 2 + 1 - i, 2))
        pygame.draw.circle(surface, joint, leg[-1], max(width // 2, 2))


def draw_walker(surface: pygame.Surface, chain, colour) -> None:
    """One walker: far legs, body, near legs."""
    f = chain.fields
    legs = leg_joints(f)
    near = f["gait"] < 0.5
    reach = float(f["lengths"].sum(axis=1).mean())
    width = max(3, min(8, int(round(reach / 22))))
    _legs(surface, legs[~near], shade(colour, -0.45), width)
    draw_appendages(surface, f, shade(colour, 0.15), knob=True, width=max(2.0, width * 0.6))  # its antennae
    tilt = float(f["tilt"][0])
    facing = 1.0 if f["facing"][0] >= 0 else -1.0
    body = f["body"]
    c, s = math.cos(tilt), math.sin(tilt)
    ahead = np.array((c, s)) * facing
    up = np.array((s, -c))
    abdomen = body - ahead * 0.17 * reach + up * 0.03 * reach
    head = body + ahead * 0.16 * reach
    outline = shade(colour, 0.5)
    dark = shade(colour, -0.25)
    for centre, rx, ry, fill in ((abdomen, 0.23, 0.16, dark), (head, 0.14, 0.10, colour)):
        pts = ellipse(centre, rx * reach, ry * reach, tilt)
        pygame.draw.polygon(surface, fill, pts)
        pygame.draw.aalines(surface, outline, True, pts)
    # a stripe on the abdomen, and eyes toward where it walks
    stripe = ellipse(abdomen + up * 0.04 * reach, 0.12 * reach, 0.035 * reach, tilt)
    pygame.draw.polygon(surface, shade(colour, 0.2), stripe)
    for k in (-1.0, 1.0):
        eye = head + ahead * 0.08 * reach + up * (0.035 + 0.02 * k) * reach
        r = max(2, int(round(reach * 0.022)))
        pygame.draw.circle(surface, EYE, eye.tolist(), r)
        pygame.draw.circle(surface, PUPIL, (eye + ahead * r * 0.4).tolist(), max(1, r // 2))
    _legs(surface, legs[near], colour, width)


def draw_walker_group(surface: pygame.Surface, fields, colours) -> None:
    """A crowd's walkers of one group: a polyline per leg, a disc per body."""
    legs = leg_joints(fields).tolist()
    bodies = fields["body"].tolist()
    for colour, walker_legs, body in zip(colours, legs, bodies):
        for leg in walker_legs:
            pygame.draw.lines(surface, colour, False, leg, 3)
        pygame.draw.circle(surface, colour, body, 9)


def walker_halo(chain) -> list:
    """The selection halo's polylines of a walker: each leg and the body's outline."""
    f = chain.fields
    reach = float(f["lengths"].sum(axis=1).mean())
    body = ellipse(f["body"], 0.38 * reach, 0.17 * reach, float(f["tilt"][0]))
    return leg_joints(f).tolist() + [body + body[:1]]
