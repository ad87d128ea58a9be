"""Drawing a path chain: its Bezier curve, the control polygon and four handles under the chain, so a learner sees
how the handles shape the curve the joints lie on (docs/design.md, "The path"). Screen px, y down."""

from __future__ import annotations

import numpy as np
import pygame

from ikplayground.app.draw import skins

CURVE_SAMPLES = 48  # line pieces drawn along the curve
HANDLE_RADIUS = 7  # px: a control point's handle
POLYGON = (120, 128, 150)  # the control polygon's thin lines
HANDLE_HOT = (255, 236, 170)


def bezier_samples(control: np.ndarray, samples: int = CURVE_SAMPLES) -> np.ndarray:
    """``samples + 1`` points (k, 2) px of the cubic Bezier curve of ``control`` (4, 2) px (Bernstein form)."""
    t = np.linspace(0.0, 1.0, samples + 1)[:, None]
    m = 1.0 - t
    c = np.asarray(control, dtype=float)
    return m * m * m * c[0] + 3.0 * m * m * t * c[1] + 3.0 * m * t * t * c[2] + t * t * t * c[3]


def draw_path(surface: pygame.Surface, fields, colour, hot: int | None = None) -> None:
    """A path chain from its ``fields`` (screen px): the control polygon in thin lines, the curve a shade of its
    colour, its bones as capsules, then its handles (the first, where the curve starts, a square); ``hot``: the
    handle under the mouse or held, drawn lit."""
    control = np.asarray(fields["control"], dtype=float)
    plist = control.tolist()
    pygame.draw.aalines(surface, POLYGON, False, plist)
    pygame.draw.aalines(surface, skins.shade(colour, -0.35), False, bezier_samples(control).tolist())
    skins.draw_capsules(surface, np.asarray(fields["points"], dtype=float), colour)
    for j, p in enumerate(plist):
        ring = HANDLE_HOT if j == hot else skins.shade(colour, 0.45)
        if j == 0:
            box = pygame.Rect(0, 0, 2 * HANDLE_RADIUS, 2 * HANDLE_RADIUS)
            box.center = (round(p[0]), round(p[1]))
            pygame.draw.rect(surface, ring, box, 2, border_radius=2)
        else:
            pygame.draw.aacircle(surface, ring, p, HANDLE_RADIUS, 2)
        pygame.draw.aacircle(surface, ring, p, 2)
