"""Drawing a scene onto a pygame surface (an adapter: the scene knows nothing of it).

The obstacles first (``obstacle_draw.py``), then each chain by its skin (``skins.py``; the tinted bone sprite,
after the Game Maker tutorial, cached here); the selected one with a halo and limit wedges (any chain with "Show
limits" gets the wedges); a missed target tied to the tip, with a status badge (``badges.py``). Past
``DETAIL_LIMIT`` chains all but the selected one are drawn as a crowd (``crowd_draw.py``); walkers and their
ground are ``walker_draw.py``'s.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pygame

from ikplayground.app.camera import Camera
from ikplayground.app.draw import skins
from ikplayground.app.draw.annotate import TAG, Notes
from ikplayground.app.draw.badges import BadgeFont, draw_pole, draw_status_badge
from ikplayground.app.draw import crowd_fast
from ikplayground.app.draw.crowd_draw import CrowdLayer
from ikplayground.app.draw.obstacle_draw import draw_obstacles
from ikplayground.app.draw.path_draw import draw_path
from ikplayground.app.draw.shapes import draw_wedge, knobs, limit_wedges, visible_box
from ikplayground.app.draw.view import ScreenGroups, as_drawn, draw_grid, screen_chain
from ikplayground.app.draw.rig_draw import draw_rig, rig_halo_lines
from ikplayground.app.draw.walker_draw import TerrainLayer, draw_walker, draw_walker_group, walker_halo
from ikplayground.resources import asset_path
from ikplayground.scene import IK_SOLVERS, Chain, current_bone, current_target, on_terrain

BACKGROUND = (22, 25, 32)
GRID = (31, 35, 45)
GRID_MAJOR = (40, 45, 58)
TARGET = (80, 220, 120)
TARGET_HOT = (170, 255, 190)
REACH_LINE = (120, 150, 130)
HALO = (255, 255, 255, 38)
ANCHOR_FILL = (45, 50, 62)

# Chain colours, chosen to read on the dark background and apart from each other.
PALETTE = (
    (240, 170, 80),   # amber
    (100, 180, 255),  # sky
    (235, 110, 150),  # rose
    (170, 140, 255),  # violet
    (90, 210, 200),   # teal
    (245, 225, 100),  # lemon
    (255, 135, 95),   # coral
    (160, 215, 110),  # lime
)

TARGET_RADIUS = 13
JOINT_RADIUS = skins.JOINT_RADIUS
BONE_WIDTH = skins.BONE_WIDTH
WEDGE_RADIUS = 28
KNOB = (255, 236, 170)  # a wedge edge's knob
SNAKE_SKINS = {"blocks": skins.draw_blocks, "body": skins.draw_body, "lines": skins.draw_snake_lines}
DETAIL_LIMIT = 80  # above this many chains, all but the selected one are drawn the fast way
ANGLE_STEP_DEG = 2  # sprite rotations are cached at this resolution
SPRITE_MAX_LENGTH = 2048  # px: longer bones (a scene file's) are drawn as lines, not stretched sprites
SPRITE_CACHE_BYTES = 16 * 1024 * 1024  # turned bone sprites kept, least recently used dropped first


def chain_colour(chain: Chain) -> tuple[int, int, int]:
    return PALETTE[chain.palette_index % len(PALETTE)]



class SceneRenderer:
    """Draws a :class:`~ikplayground.scene.core.scene.Scene` onto a surface, each chain by its own skin."""

    def __init__(self):
        self._background: pygame.Surface | None = None
        self._background_key: tuple | None = None
        self._screen_groups = ScreenGroups()
        self._bone = pygame.image.load(str(asset_path("bone.png"))).convert_alpha()
        self._tinted: dict[int, pygame.Surface] = {}
        self._sprites: OrderedDict[tuple[int, int, int], pygame.Surface] = OrderedDict()
        self._sprite_bytes = 0
        self._dots = [dot_sprite(skins.shade(c, 0.3), 3) for c in PALETTE]
        self._anchors = [anchor_sprite(c) for c in PALETTE]
        self._target = target_sprite(TARGET)
        self._crowd = CrowdLayer(PALETTE, self._dots, self._anchors, self._target, fill=ANCHOR_FILL,
                                 target_colour=TARGET, joint_colours=[skins.shade(c, 0.3) for c in PALETTE])
        self._badges = BadgeFont()
        self.notes = Notes()  # the frame's annotations: badges here, the math's labels, race name tags; placed last
        self._ground = TerrainLayer()

    @staticmethod
    def warm_up() -> None:
        """Start loading the crowd's compiled kernels on a background thread (if numba is there)."""
        crowd_fast.warm_up()

    def background(self, size: tuple[int, int], camera: Camera | None = None) -> pygame.Surface:
        """The stage's grid as ``camera`` shows it, redrawn only when the stage size or the view changes."""
        camera = camera or Camera()
        key = (size, float(camera.origin[0]), float(camera.origin[1]), camera.zoom)
        if self._background is None or self._background_key != key:
            if self._background is None or self._background.get_size() != size:
                self._background = pygame.Surface(size).convert()
            draw_grid(self._background, camera, size, (BACKGROUND, GRID, GRID_MAJOR))
            self._background_key = key
        return self._background

    def bone_sprite(self, colour_index: int, length: float, angle: float) -> pygame.Surface:
        """The bone sprite tinted, stretched to ``length`` px and turned to ``angle`` rad (LRU-cached)."""
        step = ANGLE_STEP_DEG
        deg = int(round(math.degrees(angle) / step)) * step % 360
        key = (colour_index, int(round(length)), deg)
        sprite = self._sprites.get(key)
        if sprite is not None:
            self._sprites.move_to_end(key)  # recently used: evicted last
        else:
            tinted = self._tinted.get(colour_index)
            if tinted is None:
                tinted = self._bone.copy()
                tinted.fill(PALETTE[colour_index % len(PALETTE)] + (255,), special_flags=pygame.BLEND_RGBA_MULT)
                self._tinted[colour_index] = tinted
            knob = 9  # the sprite's knobs reach this far past each joint at this scale
            w = max(int(round(length)) + 2 * knob, 2 * knob + 1)
            scaled = pygame.transform.smoothscale(tinted, (w, 18))
            sprite = pygame.transform.rotozoom(scaled, -deg, 1.0)  # filtered; pygame turns counter-clockwise
            self._sprites[key] = sprite
            self._sprite_bytes += sprite.get_width() * sprite.get_height() * 4
            while self._sprite_bytes > SPRITE_CACHE_BYTES and len(self._sprites) > 1:
                _, old = self._sprites.popitem(last=False)  # the least recently used
                self._sprite_bytes -= old.get_width() * old.get_height() * 4
        return sprite

    def draw(self, surface: pygame.Surface, scene, *, hot_target: Chain | None = None, hot_part: str = "target",
             stage_size: tuple[int, int] | None = None, camera: Camera | None = None,
             hot_obstacle: tuple[int, str] | None = None) -> None:
        """Draw the background, the obstacles and every chain as ``camera`` shows them (None: world px are screen
        px), later ones on top (past ``DETAIL_LIMIT``, as a crowd); ``hot_target``'s target ``hot_part`` (a rig's
        ``"target:2"``) and ``hot_obstacle`` (its row, and "inside" or "rim") are under the mouse or held."""
        camera = camera or Camera()
        size = stage_size or surface.get_size()
        self.notes.begin()
        surface.blit(self.background(size, camera), (0, 0))
        terrain = getattr(scene, "terrain", None)
        if terrain is not None and any(on_terrain(g) for g in scene.groups):  # a walker, or a rig that walks
            surface.blit(self._ground.surface(terrain, size, camera), (0, 0))
        draw_obstacles(surface, getattr(scene, "obstacles", ()), camera, hot_obstacle)  # under every chain
        selected = scene.selected
        if len(scene.chains) > DETAIL_LIMIT:
            self.draw_crowd(surface, scene, size, camera)
            for chain in scene.limits_shown:  # the crowd's own wedges, over it
                if chain is not selected:
                    self.draw_wedges(surface, screen_chain(chain, camera))
            rigs = [c for g in scene.groups if g.solver == "rig" for c in g.members if c is not selected]
            chains = rigs + ([selected] if selected is not None else [])  # rigs are few: each in detail
        else:
            chains = scene.chains
        for chain in chains:
            shown = screen_chain(as_drawn(chain), camera)
            if chain is selected:
                self.draw_selection(surface, shown)
            elif chain.show_limits:  # the "Show limits" setting: wedges without the selection's halo
                self.draw_wedges(surface, shown)
            if chain.is_snake:
                self.draw_snake(surface, shown)
            elif chain.is_rope:
                self.draw_rope(surface, shown, hot=chain is hot_target)
            elif chain.is_path:
                lit = chain is hot_target and hot_part.startswith("control:")
                draw_path(surface, shown.fields, chain_colour(chain), int(hot_part[8:]) if lit else None)
            elif chain.is_walker:
                draw_walker(surface, shown, chain_colour(chain))
            elif chain.is_rig:
                hot = int(hot_part.partition(":")[2]) if chain is hot_target and ":" in hot_part else None
                draw_rig(surface, shown, chain_colour(chain), draw_target, hot,
                         sprite=lambda length, angle: self.bone_sprite(chain.palette_index, length, angle))
            else:
                self.draw_ik_chain(surface, shown, hot=chain is hot_target)
        if hot_target is not None and hot_target not in chains and hot_target.is_ik:
            draw_target(surface, screen_chain(hot_target, camera).fields["target"].tolist(), True)
        # no annotation covers a target ring (a crowd's targets are dots under its chains: only the detailed ones)
        for g in (scene.groups if len(scene.chains) <= DETAIL_LIMIT else ()):
            if g.solver in IK_SOLVERS:
                self.notes.rings(camera.to_screen(g.fields["target"]), TARGET_RADIUS + 2)
            elif g.solver == "rig":
                self.notes.rings(camera.to_screen(g.fields["targets"].reshape(-1, 2)), TARGET_RADIUS + 2)
        if len(scene.chains) > DETAIL_LIMIT:
            targets = np.array([c.fields["target"] for c in chains if c.is_ik]).reshape(-1, 2)
            self.notes.rings(camera.to_screen(targets), TARGET_RADIUS + 2)

    def draw_crowd(self, surface: pygame.Surface, scene, size: tuple[int, int] | None = None,
                   camera: Camera | None = None) -> None:
        """Every chain in a few array passes; walkers a group at a time."""
        groups = self._screen_groups.of(scene.groups, camera or Camera())
        for g in groups:
            if g.solver == "walker":
                draw_walker_group(surface, g.fields, [PALETTE[c] for c in self._crowd.colours(g).tolist()])
        self._crowd.draw(surface, groups, size or surface.get_size())

    def draw_selection(self, surface: pygame.Surface, chain: Chain) -> None:
        """A soft halo under the selected chain and its joint-limit wedges."""
        pts = chain.fields["points"]
        width = skins.halo_width(chain)
        lines = ([np.asarray(line) for line in walker_halo(chain)] if chain.is_walker
                 else rig_halo_lines(chain) if chain.is_rig else [pts])
        box = visible_box(np.concatenate(lines), width, surface.get_clip())
        if box is not None:  # drawn on a patch no bigger than what shows (a chain may reach 12,800 px)
            halo = pygame.Surface(box.size, pygame.SRCALPHA)
            for line in lines:
                local = (line - box.topleft).tolist()
                pygame.draw.lines(halo, HALO, False, local, width)
                for p in local:
                    pygame.draw.circle(halo, HALO, p, width // 2)
            surface.blit(halo, box.topleft)
        self.draw_wedges(surface, chain, selected=True)
        if chain.is_rig:
            self.tag_current(chain)

    def tag_current(self, rig: Chain) -> None:
        """Name the selected rig's target and bone the panel's rig rows act on, beside them (annotations)."""
        f = rig.fields
        bone = current_bone(rig)
        middle = ((f["points"][int(f["parents"][bone]) + 1] + f["points"][bone + 1]) / 2).tolist()
        colour = skins.shade(chain_colour(rig), 0.5)
        self.notes.add(self._badges.tag(f"bone: {rig.bone_names[bone]}", colour), middle, ("rig", "bone"), TAG)
        k = current_target(rig)
        if k is not None:
            self.notes.add(self._badges.tag(f"target: {rig.bone_names[int(f['target_bones'][k])]}", TARGET),
                           f["targets"][k].tolist(), ("rig", "target"), TAG)

    def draw_wedges(self, surface: pygame.Surface, chain: Chain, selected: bool = False) -> None:
        """A wedge at every limited joint of ``chain`` in view; knobs on the edges a drag turns (``shapes.knobs``)."""
        view = surface.get_clip().inflate(2 * WEDGE_RADIUS + 8, 2 * WEDGE_RADIUS + 8)
        for centre, lo, hi in limit_wedges(chain):
            if view.collidepoint(centre):
                draw_wedge(surface, centre, lo, hi, WEDGE_RADIUS)
        spots = []
        for _, centre, lo, hi in knobs(chain, selected):  # a knob on each edge: dragged, it turns that bound
            if view.collidepoint(centre):
                for a in (lo, hi):
                    knob = (centre[0] + WEDGE_RADIUS * math.cos(a), centre[1] + WEDGE_RADIUS * math.sin(a))
                    pygame.draw.aacircle(surface, KNOB, knob, 3)
                    spots.append(knob)
        self.notes.rings(np.array(spots), 5)  # no label covers a knob

    def draw_ik_chain(self, surface: pygame.Surface, chain: Chain, hot: bool = False) -> None:
        colour = chain_colour(chain)
        f = chain.fields
        pts = f["points"]
        plist = pts.tolist()
        # the anchor: a fixed base under the root
        rx, ry = plist[0]
        base = pygame.Rect(0, 0, 22, 22)
        base.center = (round(rx), round(ry))
        pygame.draw.rect(surface, ANCHOR_FILL, base, border_radius=4)
        pygame.draw.rect(surface, colour, base, 2, border_radius=4)
        skin = chain.skin
        if skin == "capsules":
            skins.draw_capsules(surface, pts, colour)
        elif skin == "lines":
            skins.draw_bone_lines(surface, plist, colour)
        else:  # "sprite", the default
            self.draw_sprites(surface, chain, colour)
        pygame.draw.aacircle(surface, skins.shade(colour, 0.7), plist[-1], JOINT_RADIUS - 1)
        # the target, tied to the end effector while the chain misses it (the step's "reached")
        target = f["target"].tolist()
        if not f["reached"][0]:
            pygame.draw.aaline(surface, REACH_LINE, plist[-1], target, 1)
        draw_target(surface, target, hot)
        draw_pole(surface, chain, skins.shade(colour, 0.3))
        draw_status_badge(surface, chain, self._badges, self.notes)

    def draw_sprites(self, surface: pygame.Surface, chain: Chain, colour) -> None:
        """The ``sprite`` skin: the tinted bone sprite over each bone (a line for one too long)."""
        f = chain.fields
        pts = f["points"]
        plist = pts.tolist()
        if f["jiggle"][0] < 1.0:  # jiggling: shown off its angles, each bone as it lies
            d = pts[1:] - pts[:-1]
            absolute = np.arctan2(d[:, 1], d[:, 0])
        else:
            absolute = np.cumsum(f["angles"])
        mids = (pts[:-1] + pts[1:]) / 2
        lengths = f["lengths"] * f["scale"][0]  # a two-bone arm's bones stretch
        for k, ((mx, my), length, ang) in enumerate(zip(mids.tolist(), lengths.tolist(), absolute.tolist())):
            if length > SPRITE_MAX_LENGTH:  # a turned sprite that long would take gigabytes: a line
                pygame.draw.line(surface, colour, plist[k], plist[k + 1], BONE_WIDTH)
                continue
            sprite = self.bone_sprite(chain.palette_index, length, ang)
            surface.blit(sprite, sprite.get_rect(center=(mx, my)))

    def draw_rope(self, surface: pygame.Surface, chain: Chain, hot: bool = False) -> None:
        """A rope: the anchor under its root, the cord (:func:`.skins.draw_rope`), and with "Pin end" on the
        target its end is tied to."""
        f = chain.fields
        colour = chain_colour(chain)
        base = pygame.Rect(0, 0, 16, 16)
        base.center = (round(float(f["root"][0])), round(float(f["root"][1])))
        pygame.draw.rect(surface, ANCHOR_FILL, base, border_radius=3)
        pygame.draw.rect(surface, colour, base, 2, border_radius=3)
        skins.draw_rope(surface, f["points"], colour)
        if f["pin_end"][0] > 0:
            draw_target(surface, f["target"].tolist(), hot)

    def draw_snake(self, surface: pygame.Surface, chain: Chain) -> None:
        """A snake by its skin: blocks, a smooth body, or lines."""
        draw = SNAKE_SKINS.get(chain.snake_skin, skins.draw_blocks)
        draw(surface, chain.fields["points"], chain_colour(chain))


def draw_target(surface: pygame.Surface, target, hot: bool) -> None:
    """A green target ring; brighter, with a glow, under the mouse or while dragged."""
    ring = TARGET_HOT if hot else TARGET
    if hot:
        glow = pygame.Surface((TARGET_RADIUS * 4, TARGET_RADIUS * 4), pygame.SRCALPHA)
        pygame.draw.circle(glow, TARGET + (70,), (TARGET_RADIUS * 2, TARGET_RADIUS * 2), TARGET_RADIUS + 5)
        surface.blit(glow, (target[0] - TARGET_RADIUS * 2, target[1] - TARGET_RADIUS * 2))
    pygame.draw.aacircle(surface, ring, target, TARGET_RADIUS, 3)
    pygame.draw.aacircle(surface, ring, target, 3)


def dot_sprite(colour, radius: int) -> pygame.Surface:
    """A small antialiased disc, for batched joint blits."""
    surf = pygame.Surface((2 * radius + 1, 2 * radius + 1), pygame.SRCALPHA)
    pygame.draw.aacircle(surf, colour, (radius, radius), radius)
    return surf


def anchor_sprite(colour) -> pygame.Surface:
    """A 13 px anchor square in ``colour``, for batched root blits."""
    surf = pygame.Surface((13, 13), pygame.SRCALPHA)
    pygame.draw.rect(surf, ANCHOR_FILL, surf.get_rect(), border_radius=3)
    pygame.draw.rect(surf, colour, surf.get_rect(), 2, border_radius=3)
    return surf


def target_sprite(colour) -> pygame.Surface:
    """A small target ring (9 px radius) for crowds."""
    surf = pygame.Surface((19, 19), pygame.SRCALPHA)
    pygame.draw.aacircle(surf, colour, (9, 9), 8, 2)
    pygame.draw.aacircle(surf, colour, (9, 9), 2)
    return surf
