"""Draw the bone sprite shipped in ``assets/`` (run once; the PNG is committed).

    python scripts/make_sprites.py

``bone.png`` is a light-grey bone, 128 x 32 px, lying along +x with its two
joint ends at x = 16 and x = 112 (16 px of knob each side), so the renderer
scales it to ``length + 32`` px and centres it on the bone. It is grey so that
multiplying by a chain's colour tints it.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

ASSETS = Path(__file__).resolve().parent.parent / "assets"
W, H = 128, 32


def bone_surface() -> pygame.Surface:
    """A shaded bone: two knobs joined by a shaft that narrows toward the middle."""
    s = pygame.Surface((W, H), pygame.SRCALPHA)
    big = pygame.Surface((W * 4, H * 4), pygame.SRCALPHA)  # draw large, smooth by scaling down
    k = 4
    cy = H * k / 2
    outline = (70, 70, 70, 255)
    for grow, colour in ((3 * k, outline), (0, (235, 235, 235, 255))):
        # shaft: a polygon, wider at the ends
        pts = []
        for i in range(0, 41):
            x = (16 + i * (W - 32) / 40) * k
            t = i / 40
            half = (5.0 + 2.5 * (2 * t - 1) ** 2) * k + grow
            pts.append((x, cy - half))
        for i in range(40, -1, -1):
            x = (16 + i * (W - 32) / 40) * k
            t = i / 40
            half = (5.0 + 2.5 * (2 * t - 1) ** 2) * k + grow
            pts.append((x, cy + half))
        pygame.draw.polygon(big, colour, pts)
        for x in (16 * k, (W - 16) * k):
            pygame.draw.circle(big, colour, (x, cy), 11 * k + grow)
    # a highlight along the top edge for a little depth
    for i in range(0, 40):
        x0 = (16 + i * (W - 32) / 40) * k
        x1 = (16 + (i + 1) * (W - 32) / 40) * k
        t = i / 40
        half = (5.0 + 2.5 * (2 * t - 1) ** 2) * k
        pygame.draw.line(big, (255, 255, 255, 255), (x0, cy - half * 0.55), (x1, cy - half * 0.55), 2 * k)
    for x in (16 * k, (W - 16) * k):
        pygame.draw.circle(big, (150, 150, 150, 255), (x, cy), 4 * k)
        pygame.draw.arc(big, (255, 255, 255, 255), (x - 8 * k, cy - 8 * k, 16 * k, 16 * k), math.radians(40),
                        math.radians(140), 2 * k)
    s.blit(pygame.transform.smoothscale(big, (W, H)), (0, 0))
    return s


def main() -> None:
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    out = ASSETS / "bone.png"
    pygame.image.save(bone_surface(), str(out))
    print(f"wrote {out.name} ({W}x{H})")


if __name__ == "__main__":
    main()
