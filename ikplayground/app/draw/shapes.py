"""Shapes the renderer draws, as geometry: snake quads (the Flash snake tutorial), limit wedges (the solvers'
clamping rule), dashed lines, and the part of a drawing in view. Pixels, y down; radians."""

from __future__ import annotations

import math

import numpy as np
import pygame

from ikplayground.scene import Chain, bone_starts, clamped_joints, settable, tree_parents
from ikplayground.solvers import absolute_angles

WEDGE_FILL = (255, 214, 102, 60)
WEDGE_EDGE = (255, 214, 102)
DASH = 6  # px: dashes and gaps of a dashed line


def units(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors of the rows of ``d`` (k, 2) (a zero row: +x) and their lengths, px."""
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.where(length > 0, length, 1.0)[:, None]
    u[length == 0] = (1.0, 0.0)
    return u, length


def snake_quads(points: np.ndarray) -> np.ndarray:
    """One rectangle per snake node: ``points`` (m, 2) px head first -> corners (m - 1, 4, 2), each centred
    on its segment, as long as it, narrowing toward the tail."""
    seg = points[:-1] - points[1:]  # toward the head
    u, length = units(seg)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    m = len(seg)
    half_w = (9.0 - 4.0 * np.arange(m) / max(m - 1, 1))[:, None]
    half_l = (length * 0.5 + 1.0)[:, None]
    c = (points[:-1] + points[1:]) / 2
    return np.stack([c - u * half_l - v * half_w, c + u * half_l - v * half_w,
                     c + u * half_l + v * half_w, c - u * half_l + v * half_w], axis=1)


def visible_box(points: np.ndarray, margin: float, view: pygame.Rect) -> pygame.Rect | None:
    """The part of ``view`` within ``margin`` px of the box round ``points`` (n, 2) px; None if none or not finite."""
    if not np.isfinite(points).all():
        return None
    lo = np.floor(points.min(axis=0) - margin)
    hi = np.ceil(points.max(axis=0) + margin)
    x0, y0 = max(float(lo[0]), view.left), max(float(lo[1]), view.top)
    x1, y1 = min(float(hi[0]), view.right), min(float(hi[1]), view.bottom)
    if x1 <= x0 or y1 <= y0:
        return None
    return pygame.Rect(int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def limit_wedges(chain: Chain) -> list[tuple[tuple[float, float], float, float]]:
    """``(centre, lo, hi)`` absolute angle ranges (rad) of ``chain``'s clamped joints (:func:`joint_wedges`), or a
    snake's bend range at every inner node; [] for a walker, a rope or a path chain."""
    f = chain.fields
    out: list[tuple[tuple[float, float], float, float]] = []
    if chain.is_walker or chain.is_rope or chain.is_path:  # a walker's legs, a rope, a path: no limits to show
        return out
    if chain.is_snake:
        pts = f["points"]
        lo, hi = f["bend_limits"].tolist()
        d = pts[1:] - pts[:-1]
        ang = np.arctan2(d[:, 1], d[:, 0])
        for k in range(1, len(d)):
            out.append((tuple(pts[k].tolist()), ang[k - 1] + lo, ang[k - 1] + hi))
        return out
    return [w[1:] for w in joint_wedges(chain)]


def joint_wedges(chain: Chain) -> list[tuple[int, tuple[float, float], float, float]]:
    """``(joint, centre, lo, hi)``: the absolute ranges (rad) of an IK chain's or a rig's clamped joints, each
    about its parent bone's direction at the bone's start (bone 0's is absolute)."""
    f = chain.fields
    parents = tree_parents(f)
    heading = absolute_angles(parents.tolist(), f["angles"].tolist())
    starts = bone_starts(f)
    out = []
    for i in np.flatnonzero(clamped_joints(f["limits"])).tolist():
        lo, hi = f["limits"][i].tolist()
        base = heading[parents[i]] if parents[i] >= 0 else 0.0
        out.append((i, tuple(starts[i].tolist()), base + lo, base + hi))
    return out


def knobs(chain: Chain, selected: bool) -> list[tuple[int, tuple[float, float], float, float]]:
    """``(joint, centre, lo, hi)`` of the wedge edges a drag turns, each a knob: with "Show limits" on, every joint
    whose range the user sets (``settable``; a free one's two edges meet at its seam, pointing back along its
    parent bone, where one knob drags a range out); on the selected rig or two-bone arm, its limited joints'."""
    held = selected and (chain.is_rig or chain.solver == "two-bone")
    if not (chain.is_ik or chain.is_rig) or not (chain.show_limits or held):
        return []
    mine = settable(chain)
    out = [w for w in joint_wedges(chain) if mine[w[0]]]
    if chain.show_limits:  # the free joints' seams too
        f = chain.fields
        parents = tree_parents(f)
        heading = absolute_angles(parents.tolist(), f["angles"].tolist())
        starts = bone_starts(f)
        free = np.flatnonzero(mine & ~clamped_joints(f["limits"])).tolist()
        for i in free:
            base = heading[parents[i]] if parents[i] >= 0 else 0.0
            out.append((i, tuple(starts[i].tolist()), base - math.pi, base + math.pi))
    return out


def limit_edge_at(edges, pos, radius: float, pick: float) -> str | None:
    """The edge of ``edges`` (:func:`knobs`) whose knob (``radius`` px out along it from the joint) lies within
    ``pick`` px of ``pos``: ``"limit_lo:3"`` or ``"limit_hi:3"``, the last drawn first (a seam's: "limit_hi");
    None."""
    for joint, centre, lo, hi in reversed(edges):
        for name, a in (("limit_hi", hi), ("limit_lo", lo)):
            if math.hypot(centre[0] + radius * math.cos(a) - pos[0], centre[1] + radius * math.sin(a) - pos[1]) <= pick:
                return f"{name}:{joint}"
    return None


def draw_wedge(surface: pygame.Surface, centre, lo: float, hi: float, radius: float) -> None:
    """A translucent pie slice from ``lo`` to ``hi`` rad about ``centre``."""
    size = int(radius * 2 + 4)
    patch = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    steps = max(2, int((hi - lo) / 0.12) + 1)
    arc = [(c + radius * math.cos(a), c + radius * math.sin(a)) for a in np.linspace(lo, hi, steps).tolist()]
    if hi - lo > 1e-6:
        pygame.draw.polygon(patch, WEDGE_FILL, [(c, c)] + arc)
    pygame.draw.aalines(patch, WEDGE_EDGE, False, [arc[0], (c, c), arc[-1]])
    surface.blit(patch, (centre[0] - c, centre[1] - c))


def dashes(points: np.ndarray) -> list[tuple[list, list]]:
    """The dashes (pairs of end points) of a dashed line through ``points`` (k, 2) px."""
    out = []
    on, left = True, float(DASH)
    pts = np.asarray(points, dtype=float).tolist()  # plain floats: numpy's sums without its per-call cost
    for (ax, ay), (bx, by) in zip(pts[:-1], pts[1:]):
        sx, sy = bx - ax, by - ay
        length = math.hypot(sx, sy)
        if length == 0.0:
            continue
        ux, uy = sx / length, sy / length
        pos = 0.0
        while pos < length:
            run = min(left, length - pos)
            if on:
                end = pos + run
                out.append(([ax + ux * pos, ay + uy * pos], [ax + ux * end, ay + uy * end]))
            pos += run
            left -= run
            if left <= 1e-9:
                on, left = not on, float(DASH)
    return out
