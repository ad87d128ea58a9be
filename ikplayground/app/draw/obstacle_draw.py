"""Drawing the scene's circle obstacles: a shaded disc with a rim each, under the chains and targets.

The discs are the scene's ``(k, 3)`` rows ``(x, y, r)`` px seen through the camera (docs/design.md, "Obstacles");
each is filled on a patch no bigger than what shows of it (a circle may reach thousands of screen px across at a
high zoom), so nothing is drawn off the stage's clip. The one under the mouse or held is lit: its fill inside
(a press moves it), its rim near the edge (a press resizes it).
"""

from __future__ import annotations

import math

import pygame

FILL = (92, 104, 134, 110)
FILL_HOT = (118, 132, 170, 150)
RIM = (150, 162, 196)  # the Math page's joint-space map shades the poses obstacles forbid in this hue
RIM_HOT = (225, 232, 255)
RIM_WIDTH = 2  # px (screen); a lit rim is 2 px wider


def draw_obstacles(surface: pygame.Surface, obstacles, camera, hot: tuple[int, str] | None = None) -> None:
    """Draw ``obstacles`` (k, 3) world px as ``camera`` shows them, the last on top; ``hot``: (row, "inside" or
    "rim") under the mouse or held."""
    if not len(obstacles):
        return
    view = surface.get_clip()
    centres = camera.to_screen(obstacles[:, :2]).tolist()
    radii = (obstacles[:, 2] * camera.zoom).tolist()
    for i, ((cx, cy), r) in enumerate(zip(centres, radii)):
        reach = r + RIM_WIDTH + 2
        box = pygame.Rect(math.floor(cx - reach), math.floor(cy - reach), math.ceil(2 * reach) + 1,
                          math.ceil(2 * reach) + 1).clip(view)
        if not box.width or not box.height:
            continue
        lit = hot[1] if hot is not None and hot[0] == i else None
        patch = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.circle(patch, FILL_HOT if lit == "inside" else FILL, (cx - box.x, cy - box.y), r)
        surface.blit(patch, box.topleft)
        pygame.draw.aacircle(surface, RIM_HOT if lit else RIM, (cx, cy), r, RIM_WIDTH + 2 * (lit == "rim"))
