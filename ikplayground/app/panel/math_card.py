"""The Math page's card, drawn on one surface while the page is up: the selected chain's live numbers and
error plot (:class:`~ikplayground.insight.metrics.ChainMetrics`), the race table, the joint-space map
(:mod:`ikplayground.insight.joint_map`)."""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pygame

from ikplayground.app.draw.fonts import cut_to, ui_font
from ikplayground.app.draw.overlay import render_text, wrap_text
from ikplayground.insight import joint_map
from ikplayground.insight.motion_view import motion_words
from ikplayground.insight.rig_view import heading_misses
from ikplayground.app.draw.render import PALETTE
from ikplayground.scene import SOLVER_KINDS, clamped_joints

BG = (30, 33, 42)
PLOT_BG = (20, 22, 29)
EDGE = (58, 64, 80)
HEADING = (143, 184, 255)
TEXT = (220, 224, 232)
DIM = (150, 156, 170)
ERROR_LINE = (255, 120, 120)
TOLERANCE = (80, 220, 120)
SHADE = (240, 95, 105)
LIMIT_BOX = (230, 200, 120)
OBSTACLE = (150, 162, 196)  # the poses an obstacle forbids (the stage draws obstacles in its hue)
BRANCH = (143, 184, 255)
POSE = (255, 255, 255)
TRAIL = (255, 214, 102)
PLOT_HEIGHT = 54
LINE = 17  # px between text lines
MAP_MIN = 120  # px: a smaller map is not drawn
MASK_GAPS = 250_000  # bone-circle gaps an obstacle mask may take: fewer, coarser cells for many obstacles
TEXT_CACHE = 256  # rendered texts kept, the least recently drawn dropped first
# the race table's columns: heading, and left edge as a share of the card's width (276 px in a roomy panel)
RACE_COLUMNS = (("solver", 0.0), ("error", 0.235), ("it", 0.375), ("µs", 0.487), ("jitter", 0.612), ("reached", 0.797))


def point(frame, theta1: float, theta2: float) -> tuple[float, float]:
    """Where (theta1, theta2) rad lies on the map ``frame``, card px."""
    x, y = frame.to_map(theta1, theta2)
    return float(x), float(y)


def shade_map(surface: pygame.Surface, rect: pygame.Rect, shade: np.ndarray) -> None:
    """Over ``rect`` (filled with ``PLOT_BG``), tint each row by its ``shade`` (rect.height,) in [0, 1]: 0.15 to 0.6
    of the way to ``SHADE``; rows of 0 stay ``PLOT_BG``. One column is worked out and stretched across."""
    if not shade.any():
        return
    on = shade > 0
    base = np.array(PLOT_BG, dtype=float)
    tint = base + (np.array(SHADE, dtype=float) - base) * (0.15 + 0.45 * np.where(on, shade, 0.0))[:, None]
    column = np.where(on[:, None], tint, base).astype(np.uint8)  # truncated, as int() of these (positive) values
    strip = pygame.surfarray.make_surface(column[None, :, :])
    surface.blit(pygame.transform.scale(strip, rect.size), rect.topleft)


def mask_surface(mask: np.ndarray, size) -> pygame.Surface:
    """The cells of ``mask`` (rows, cols) that are set, in ``OBSTACLE`` over a clear ground, stretched to ``size``."""
    rgba = np.zeros((*mask.shape, 4), dtype=np.uint8)
    rgba[mask] = (*OBSTACLE, 150)
    cells = pygame.image.frombuffer(rgba.tobytes(), (mask.shape[1], mask.shape[0]), "RGBA")
    return pygame.transform.scale(cells, size)


class MathCard:
    """Renders the card at ``size`` (w, h) px; ``map_rect``: the map, in card px."""

    def __init__(self, size):
        self.size = (max(int(size[0]), 1), max(int(size[1]), 1))
        self.surface = pygame.Surface(self.size)
        self.map_rect: pygame.Rect | None = None
        self._font = ui_font(12)
        self._heading = ui_font(11, bold=True)
        self._texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._rules: dict[tuple, list] = {}  # (a solver's rule, the width): its wrapped lines
        self._mask: tuple[tuple, pygame.Surface | None] = ((), None)  # the obstacle shading and what it is of
        self.obstacles = np.zeros((0, 3))  # the scene's, shaded on the joint-space map

    def render(self, chain, metrics, race_rows, obstacles=None) -> pygame.Surface:
        """The card for ``chain`` (or None), its ``metrics``, the race's rows and the scene's ``obstacles`` (k, 3)."""
        self.obstacles = np.zeros((0, 3)) if obstacles is None else obstacles
        s = self.surface
        s.fill(BG)
        self.map_rect = None
        if metrics.chain is not chain:  # recorded for another chain (selected while paused): not this one's
            metrics = None
        y = self.numbers(chain, metrics, 0)
        if race_rows:
            y = self.race(race_rows, y + 8)
        if chain is not None and chain.solver == "two-bone":
            y = self.joint_space(chain, metrics, y + 8)
        elif not race_rows:
            self.hints(y + 8)
        return s

    def text(self, text: str, pos, colour=TEXT, font=None) -> int:
        """Draw ``text`` at ``pos`` (top-left); returns its width. Rendered texts are kept a while."""
        key = (text, colour, font is None)
        surf = self._texts.get(key)
        if surf is None:
            surf = self._texts[key] = render_text(font or self._font, text, colour)
            if len(self._texts) > TEXT_CACHE:  # the least recently drawn goes (headings and axes stay)
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        self.surface.blit(surf, pos)
        return surf.get_width()

    def paragraph(self, text: str, y: int, colour=TEXT) -> int:
        """``text`` wrapped to the card's width from ``y``; returns the y under it."""
        for line in wrap_text(text, self._font, self.size[0] - 2):
            self.text(line, (0, y), colour)
            y += LINE
        return y

    def heading(self, text: str, y: int) -> int:
        self.text(text, (0, y), HEADING, self._heading)
        return y + LINE

    def numbers(self, chain, metrics, y: int) -> int:
        if chain is None:
            y = self.heading("SELECTED CHAIN", y)
            return self.paragraph("Select a chain to see its numbers.", y, DIM)
        y = self.heading(chain.label.upper(), y)
        rule = SOLVER_KINDS[chain.solver].rule
        if rule:  # the solver's update rule, its lines kept (they change only with the solver or the width)
            key = (rule, self.size[0])
            lines = self._rules.get(key)
            if lines is None:
                lines = self._rules[key] = wrap_text(rule, self._font, self.size[0] - 2)
            for line in lines:
                self.text(line, (0, y), DIM)
                y += LINE
        words = motion_words(chain)  # its secondary motion's rule and settings
        if chain.is_rig:
            return self.rig_numbers(chain, self.paragraph(words, y, DIM) if words else y)
        if not chain.is_ik:
            what = ("A snake follows its head" if chain.is_snake else
                    "A rope hangs and swings" if chain.is_rope else
                    f"A path chain lies along its curve from {float(chain.fields['start'][0]):.0f} px"
                    if chain.is_path else
                    "A walker's legs are two-bone arms" if chain.fields["lengths"].shape[1] == 2
                    else "A walker's legs are three-bone CCD chains")
            y = self.paragraph(f"{what}: no solve to measure.", y, DIM)
            return self.paragraph(words, y, DIM) if words else y
        # the chain's own error and status: a step-through changes them while the scene (and the metrics) wait
        self.text(f"error {chain.error:.2f} px   ·   {chain.status}", (0, y))
        y = self.paragraph(words, y + LINE, DIM) if words else y + LINE
        row = metrics.latest() if metrics is not None else None
        if row is None:
            return self.paragraph("More numbers once the scene runs (Space)", y, DIM)
        its = "exact" if chain.solver == "two-bone" else f"{row.iterations} it"
        self.text(f"{its}  ·  {row.solve_us:.0f} µs solve  ·  max turn {row.max_change_deg:.1f}°", (0, y))
        y += LINE + 2
        return self.plot(metrics.errors(), chain.tolerance, y)

    def rig_numbers(self, chain, y: int) -> int:
        """A rig's status and each target's error (px; a heading's in degrees), named by its bone."""
        f = chain.fields
        self.text(f"worst error {chain.error:.2f} px   ·   {chain.status}", (0, y))
        y += LINE
        names, misses = chain.bone_names, heading_misses(f).tolist()
        for k, bone in enumerate(f["target_bones"].astype(int).tolist()):
            words = f"{names[bone]}: {float(f['errors'][k]):.2f} px"
            if math.isfinite(misses[k]):
                words += f", aimed within {math.degrees(misses[k]):.1f}°"
            self.text(words, (0, y), TEXT if f["errors"][k] <= chain.tolerance else DIM)
            y += LINE
        return y

    def plot(self, errors: np.ndarray, tolerance: float, y: int) -> int:
        """The error of the last 5 s as a line, with the tolerance as a green line."""
        w = self.size[0]
        rect = pygame.Rect(0, y, w, PLOT_HEIGHT)
        pygame.draw.rect(self.surface, PLOT_BG, rect)
        pygame.draw.rect(self.surface, EDGE, rect, 1)
        top = max(float(errors.max()) if len(errors) else 0.0, 4 * tolerance, 1.0)
        inner = rect.inflate(-4, -6)

        def y_of(v):
            return inner.bottom - min(v / top, 1.0) * inner.height

        ty = y_of(tolerance)
        pygame.draw.line(self.surface, TOLERANCE, (inner.x, ty), (inner.right, ty))
        if len(errors) >= 2:
            capacity = 300  # the plot spans 5 s of 1/60 s steps, newest at the right
            xs = inner.right - (len(errors) - 1 - np.arange(len(errors))) * inner.width / (capacity - 1)
            pts = np.stack([xs, inner.bottom - np.minimum(errors / top, 1.0) * inner.height], axis=1)
            pygame.draw.aalines(self.surface, ERROR_LINE, False, pts.tolist())
        self.text(f"{top:.3g} px", (rect.x + 4, rect.y + 2), DIM)
        self.text("error, last 5 s", (rect.right - 92, rect.y + 2), DIM)
        return rect.bottom

    def race(self, rows, y: int) -> int:
        y = self.heading("RACE (LAST 5 S)", y)
        columns = [int(share * self.size[0]) for _, share in RACE_COLUMNS]  # narrower in a narrow panel
        for (name, _), x in zip(RACE_COLUMNS, columns):
            self.text(name, (x, y), DIM)
        y += LINE
        room = columns[1] - columns[0] - 15  # px for a racer's name: its short one, cut to fit if need be
        for r in rows:
            kind = SOLVER_KINDS[r.solver]
            name = kind.short if r.label == kind.label else r.label  # (a rig's racers: their own labels)
            cells = (cut_to(self._font, name, room), f"{r.error_px:.1f}", f"{r.iterations:.1f}", f"{r.solve_us:.0f}",
                     f"{r.jitter_deg:.2f}°", f"{100 * r.reached_share:.0f}%")
            colour = PALETTE[SOLVER_KINDS[r.solver].colour % len(PALETTE)]  # as its chain and its name tag
            pygame.draw.circle(self.surface, colour, (columns[0] + 4, y + LINE // 2), 4)
            for x, cell in zip(columns, cells):
                self.text(cell, (x + (11 if x == columns[0] else 0), y))
            y += LINE
        self.text("error px · mean iterations · µs a solve", (0, y), DIM)
        return y + LINE

    def joint_space(self, chain, metrics, y: int) -> int:
        y = self.heading("JOINT SPACE (θ1, θ2): CLICK TO POSE", y)
        legend = LINE if len(self.obstacles) else 0  # a line saying what the obstacles' shading is
        side = min(self.size[0] - 30, self.size[1] - y - 22 - legend)
        if side < MAP_MIN:
            self.text("(a taller window shows the map)", (0, y), DIM)
            return y + LINE
        rect = pygame.Rect(24, y, side, side)
        self.map_rect = rect
        s = self.surface
        pygame.draw.rect(s, PLOT_BG, rect)
        f = chain.fields
        l1, l2 = (float(v) for v in f["lengths"] * f["scale"][0])
        root, target = f["root"], f["target"]
        frame = joint_map.MapFrame(*rect)
        shade_map(s, rect, joint_map.shade_rows(l1, l2, math.dist(root, target), rect.height))
        shaded = self.obstacle_shading(root, l1, l2, rect.size)
        if shaded is not None:
            s.blit(shaded, rect.topleft)
        # axes through zero
        cx, cy = point(frame, 0.0, 0.0)
        pygame.draw.line(s, EDGE, (rect.x, cy), (rect.right - 1, cy))
        pygame.draw.line(s, EDGE, (cx, rect.y), (cx, rect.bottom - 1))
        box = joint_map.limit_box(f["limits"]) if clamped_joints(f["limits"]).any() else None
        if box is not None:
            lo1, hi1, lo2, hi2 = box
            a = point(frame, lo1, hi2)
            b = point(frame, hi1, lo2)
            pygame.draw.rect(s, LIMIT_BOX, pygame.Rect(min(a[0], b[0]), min(a[1], b[1]),
                                                       abs(b[0] - a[0]) + 1, abs(b[1] - a[1]) + 1), 1)
        trail = metrics.trail(2.0) if metrics is not None else np.empty((0, 2))
        if len(trail) >= 2 and trail.shape[1] == 2:
            self.map_trail(trail, frame)
        for (t1, t2), name in zip(joint_map.branches(root, target, l1, l2), ("+", "−")):
            p = point(frame, t1, t2)
            pygame.draw.circle(s, BRANCH, p, 5, 2)
            self.text(name, (p[0] + 6, p[1] - 8), BRANCH)
        a = f["angles"]
        pygame.draw.circle(s, POSE, point(frame, float(a[0]), float(a[1])), 4)
        pygame.draw.rect(s, EDGE, rect, 1)
        self.text("θ2", (0, rect.centery - 8), DIM)
        self.text("-180°", (rect.x, rect.bottom + 2), DIM)
        self.text("θ1", (rect.centerx - 6, rect.bottom + 2), DIM)
        self.text("180°", (rect.right - 28, rect.bottom + 2), DIM)
        if legend:
            pygame.draw.rect(s, OBSTACLE, pygame.Rect(0, rect.bottom + LINE + 4, 10, 10))
            self.text("a bone inside an obstacle" if shaded is not None else "no pose of the arm meets an obstacle",
                      (14, rect.bottom + LINE), DIM)
        return rect.bottom + LINE + legend

    def obstacle_shading(self, root, l1: float, l2: float, size) -> pygame.Surface | None:
        """The map's cells whose pose puts a bone inside one of ``self.obstacles``, drawn at ``size``; None when
        none does. Worked out again only when the arm's root or bones, the obstacles or the size change."""
        obstacles = self.obstacles
        if not len(obstacles):
            return None
        key = (tuple(map(float, root)), l1, l2, obstacles.tobytes(), tuple(size))
        if self._mask[0] != key:
            cells = max(16, min(size[1] // 2, int(math.sqrt(MASK_GAPS / (2 * len(obstacles))))))
            mask = joint_map.obstacle_mask(root, l1, l2, obstacles, cells)
            self._mask = (key, mask_surface(mask, size) if mask.any() else None)
        return self._mask[1]

    def map_trail(self, trail: np.ndarray, frame) -> None:
        """The last 2 s of poses, broken where a joint wraps."""
        x, y = frame.to_map(trail[:, 0], trail[:, 1])
        pts = np.stack([x, y], axis=1)
        jumps = np.flatnonzero(np.abs(np.diff(pts, axis=0)).max(axis=1) > frame.w / 2) + 1
        for part in np.split(pts, jumps):
            if len(part) >= 2:
                pygame.draw.aalines(self.surface, TRAIL, False, part.tolist())

    def map_angles(self, pos) -> tuple[float, float] | None:
        """The (theta1, theta2) rad at card pixel ``pos``, or None off the map."""
        if self.map_rect is None or not self.map_rect.collidepoint(pos):
            return None
        t1, t2 = joint_map.MapFrame(*self.map_rect).from_map(pos[0], pos[1])
        return float(t1), float(t2)

    def hints(self, y: int) -> None:
        y = self.heading("TRY", y)
        for line in ("G: the math over the selected chain",
                     ". , /: pause and step through a CCD or FABRIK solve, joint by joint",
                     "R: race the solvers on these bones (a rig: FABRIK against DLS)",
                     "Click a two-bone arm: its joint map"):
            y = self.paragraph(line, y, DIM)
