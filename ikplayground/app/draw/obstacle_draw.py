"""Drawing the scene's circle obstacles: a shaded disc with a rim each, under the chains and targets.

The discs are the scene's ``(k, 3)`` rows ``(x, y, r)`` px seen through the camera (docs/design.md, "Obstacles").
A disc up to ``SPRITE_MOST`` screen px in radius is one blit of a sprite kept per whole radius and look (fill and
antialiased rim drawn once); a larger one (a high zoom) is filled on a patch no bigger than what shows of it and
its rim drawn on the stage, so nothing is drawn off the stage's clip. The one under the mouse or held is lit: its
fill inside (a press moves it), its rim near the edge (a press resizes it).
"""

from __future__ import annotations

import math
from collections import OrderedDict

import pygame

FILL = (92, 104, 134, 110)
FILL_HOT = (118, 132, 170, 150)
RIM = (150, 162, 196)  # the Math page's joint-space map shades the poses obstacles forbid in this hue
RIM_HOT = (225, 232, 255)
RIM_WIDTH = 2  # px (screen); a lit rim is 2 px wider
SPRITE_MOST = 200  # screen px: a disc's radius up to which it is a kept sprite
SPRITES_KEPT = 96  # sprites kept, the least recently drawn dropped first

_sprites: OrderedDict[tuple[int, str | None], pygame.Surface] = OrderedDict()


def look(lit: str | None) -> tuple[tuple, tuple, int]:
    """(fill, rim colour, rim width) of a disc lit ``lit`` ("inside", "rim" or None)."""
    return (FILL_HOT if lit == "inside" else FILL, RIM_HOT if lit else RIM, RIM_WIDTH + 2 * (lit == "rim"))


def disc_sprite(radius: int, lit: str | None) -> pygame.Surface:
    """A disc of ``radius`` px with its rim, centred on a square of ``2 * radius + 1`` px (kept, LRU)."""
    key = (radius, lit)
    sprite = _sprites.get(key)
    if sprite is not None:
        _sprites.move_to_end(key)
        return sprite
    fill, rim, width = look(lit)
    sprite = pygame.Surface((2 * radius + 1, 2 * radius + 1), pygame.SRCALPHA)
    pygame.draw.circle(sprite, fill, (radius, radius), radius)
    pygame.draw.aacircle(sprite, rim, (radius, radius), radius, width)
    _sprites[key] = sprite
    if len(_sprites) > SPRITES_KEPT:
        _sprites.popitem(last=False)
    return sprite


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
        if r <= SPRITE_MOST:
            whole = round(r)
            surface.blit(disc_sprite(whole, lit), (round(cx) - whole, round(cy) - whole))
            continue
        fill, rim, width = look(lit)
        patch = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.circle(patch, fill, (cx - box.x, cy - box.y), r)
        surface.blit(patch, box.topleft)
        pygame.draw.aacircle(surface, rim, (cx, cy), r, width)
