"""Drawing rigs (an adapter of :mod:`ikplayground.scene.step.rig_step`): skeletons of capsules with their targets.

A rig is drawn side on by its skin (capsules, the bone sprite or lines), as a character sheet shows one: the far
limbs (bones named ``..._r``) first and darker, then the trunk, the head as a round skull over its bone, then the
near limbs (``..._l``); its jiggling tails and ears under them, tapering lines. Each target is a green ring, tied
to its bone's end while missed, with a short arrow for its heading (an aimed bone's direction; dragged by its tip,
it turns). The halo of the selected rig follows the
tree, each bone from its parent's end (its limit wedges and their knobs: :mod:`.shapes`). Pixels, y down.
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from ikplayground.app.draw.skins import BONE_WIDTH, JOINT_RADIUS, capsule_radii, draw_appendages, shade
from ikplayground.scene import bone_starts

HEADING_ARROW = 26  # px: a heading's arrow, from the target's centre
HEADING_PICK = 8  # px from the arrow's tip that grabs it (dragged, it turns the heading)
REACH_LINE = (120, 150, 130)
FAR_SHADE = -0.35  # the far limbs' colour, darker
HEAD_BONE = "head"


def bone_layers(names) -> list[list[int]]:
    """The bones in drawing order, as three layers: far limbs (``_r``), the rest, near limbs (``_l``)."""
    far = [i for i, name in enumerate(names) if name.endswith("_r")]
    near = [i for i, name in enumerate(names) if name.endswith("_l")]
    rest = [i for i in range(len(names)) if i not in far and i not in near]
    return [far, rest, near]


def draw_rig(surface: pygame.Surface, chain, colour, draw_target, hot: int | None = None, sprite=None) -> None:
    """Draw rig ``chain`` in ``colour`` by its skin: its root's base, its bones by layer, its targets (``hot``:
    the index of the target under the mouse or held, drawn bright) through ``draw_target(surface, point, hot)``.
    ``sprite(length, angle)``: the bone sprite turned and stretched (the ``sprite`` skin; None: capsules)."""
    f = chain.fields
    ends, starts = f["points"][1:], bone_starts(f)
    names = getattr(chain, "bone_names", None) or tuple(f"bone{i}" for i in range(len(ends)))
    radii = capsule_radii(np.stack([starts, ends], axis=1).reshape(-1, 2))[::2]
    rx, ry = f["points"][0].tolist()
    draw_appendages(surface, f, shade(colour, FAR_SHADE / 2), width=max(2.0, float(radii.mean())))  # tails, ears
    base = pygame.Rect(0, 0, 18, 18)
    base.center = (round(rx), round(ry))
    for layer, tone in zip(bone_layers(names), (FAR_SHADE, 0.0, 0.0)):
        c = shade(colour, tone) if tone else tuple(colour)
        if chain.skin not in ("lines", "sprite") or sprite is None and chain.skin == "sprite":
            _capsules(surface, starts[layer].tolist(), ends[layer].tolist(), radii[layer].tolist(), c)
        for i in layer:
            a, b = starts[i].tolist(), ends[i].tolist()
            if chain.skin == "lines":
                pygame.draw.aaline(surface, c, a, b, BONE_WIDTH)
                pygame.draw.aacircle(surface, shade(c, 0.45), a, JOINT_RADIUS)
            elif chain.skin == "sprite" and sprite is not None:
                d = ends[i] - starts[i]
                image = sprite(float(np.hypot(*d)), math.atan2(d[1], d[0]))
                surface.blit(image, image.get_rect(center=((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)))
            if names[i] == HEAD_BONE:
                mid = ((starts[i] + ends[i]) / 2).tolist()
                length = float(np.hypot(*(ends[i] - starts[i])))
                r = max(6.0, min(0.75 * length, 0.5 * float(np.hypot(*(ends - starts).T).mean())))
                pygame.draw.aacircle(surface, shade(c, 0.45), mid, r)
                pygame.draw.aacircle(surface, c, mid, r - 1.5)
    pygame.draw.rect(surface, (45, 50, 62), base, border_radius=4)
    pygame.draw.rect(surface, colour, base, 2, border_radius=4)
    targets, bones = f["targets"].tolist(), f["target_bones"].astype(int).tolist()
    errors, tolerance = f["errors"].tolist(), float(f["tolerance"][0])
    for k, (target, bone) in enumerate(zip(targets, bones)):
        if errors[k] > tolerance:
            pygame.draw.aaline(surface, REACH_LINE, ends[bone].tolist(), target, 1)
        draw_target(surface, target, hot == k)
        heading = float(f["headings"][k])
        if math.isfinite(heading):
            draw_heading(surface, target, heading)


def _capsules(surface: pygame.Surface, starts: list, ends: list, radii: list, colour) -> None:
    """Capsules from ``starts[i]`` to ``ends[i]`` (a lighter rim under the colour), a round cap drawn once at each
    shared joint (the widest bone's there), a pin at each bone's start."""
    caps: dict[tuple, float] = {}
    for a, b, r in zip(starts, ends, radii):
        for p in (tuple(a), tuple(b)):
            caps[p] = max(caps.get(p, 0.0), r)
    for c, inset in ((shade(colour, 0.45), 0.0), (colour, 1.5)):
        for a, b, r in zip(starts, ends, radii):
            pygame.draw.aaline(surface, c, a, b, max(1, round(2 * (r - inset))))
        for p, r in caps.items():
            pygame.draw.aacircle(surface, c, p, r - inset)
    pin = shade(colour, 0.65)
    for a, r in {tuple(a): r for a, r in zip(starts, radii)}.items():
        pygame.draw.aacircle(surface, pin, a, max(2.5, r * 0.5))


def draw_heading(surface: pygame.Surface, at, heading: float) -> None:
    """A short arrow from ``at`` along ``heading`` rad (y down): the direction the target's bone is aimed."""
    ux, uy = math.cos(heading), math.sin(heading)
    tip = (at[0] + ux * HEADING_ARROW, at[1] + uy * HEADING_ARROW)
    colour = (170, 255, 190)
    pygame.draw.aaline(surface, colour, at, tip, 2)
    for side in (0.5, -0.5):
        c, s = math.cos(math.pi - side), math.sin(math.pi - side)
        back = (tip[0] + 8 * (ux * c - uy * s), tip[1] + 8 * (ux * s + uy * c))
        pygame.draw.aaline(surface, colour, tip, back, 2)


def rig_halo_lines(chain) -> list[np.ndarray]:
    """The selection halo's strokes of a rig: one (2, 2) line a bone, px."""
    f = chain.fields
    return [np.stack([a, b]) for a, b in zip(bone_starts(f), f["points"][1:])]
