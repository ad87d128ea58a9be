"""What "Show the math" draws over one chain, as primitives (:mod:`.primitives`).

IK chains: limit arcs with needles, the error line, the ghost of the solver's goal pose, the pole's side
(and a two-bone arm's construction, :mod:`.two_bone_view`). Snakes (the Flash snake tutorial's
follow-the-leader): bend-range wedges and the follow distance. Walkers: each leg's reach, the planted feet.
Either with jiggle bones on, a rope, a path chain and a walker's appendages: each joint's velocity and the rest
pose (:mod:`.jiggle_view`, :mod:`.motion_view`).
Pixels, y down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.insight.jiggle_view import jiggle_view
from ikplayground.insight.motion_view import appendage_view, path_view, rope_view
from ikplayground.insight.primitives import Circle, Label, Polygon, Polyline, Primitive
from ikplayground.insight.two_bone_view import two_bone_overlay
from ikplayground.scene import clamped_joints
from ikplayground.solvers import ON_LINE, chain_points

LIMIT_RADIUS = 22.0  # px: a limit arc's radius at most (and 0.45 of the joint's bone)
LIMIT_SHARE = 0.45
NEEDLE_EXTRA = 6.0  # px: a needle reaches this far past its arc
AT_END = math.radians(0.5)  # rad: a joint this close to an end of its range shows a hot needle
ERROR_MIN_PX = 0.05  # px: no error line below this
LABEL_GAP = 10.0  # px: the error label sits this far beside the line's middle (its upper side)
GHOST_MIN_PX = 0.5  # px: the ghost shows when a joint of the goal pose is this far from the shown one
GHOST_FADE = 0.5
FOLLOW_FADE = 0.4
REACH_FADE = 0.45  # a walker leg's reach circle
FOOT_MARK = 8.0  # px: the radius of a walker foot's mark
WEDGE_SHARE = 1.0  # a snake wedge's radius as a share of the segment after its node: the next node is on its arc


def limit_arcs(chain) -> list:
    """Each clamped joint's range as an arc (role "limit") and a needle at its angle ("needle", "needle_hot"
    within ``AT_END`` of an end); the range is relative to the parent bone. [] for snakes and free joints."""
    if not chain.is_ik:
        return []
    f = chain.fields
    limits = f["limits"]
    clamped = clamped_joints(limits)
    if not clamped.any():
        return []
    idx = np.flatnonzero(clamped)
    angles = f["angles"]
    parent = np.concatenate([[0.0], np.cumsum(angles)[:-1]])[idx]
    lo, hi = limits[idx, 0], limits[idx, 1]
    radius = np.minimum(LIMIT_RADIUS, LIMIT_SHARE * f["lengths"][idx] * f["scale"][0])
    centres = f["points"][idx]
    arcs = arcs_points(centres, radius, parent + lo, parent + hi)
    a = angles[idx]
    hot = ((np.abs(a - lo) <= AT_END) | (np.abs(a - hi) <= AT_END)).tolist()
    turn = parent + a
    tips = centres + (radius + NEEDLE_EXTRA)[:, None] * np.stack([np.cos(turn), np.sin(turn)], axis=1)
    needles = np.stack([centres, tips], axis=1)
    out = []
    for k in range(len(idx)):
        out.append(Polyline(arcs[k], "limit"))
        out.append(Polyline(needles[k], "needle_hot" if hot[k] else "needle", width=2))
    return out


def arcs_points(centres: np.ndarray, radius: np.ndarray, start: np.ndarray, stop: np.ndarray,
                step: float = math.radians(6)) -> np.ndarray:
    """``k`` arcs at once: ``centres`` (k, 2) px, ``radius``, ``start``, ``stop`` (k,) -> (k, m, 2) px."""
    count = max(2, int(math.ceil(float(np.max(np.abs(stop - start), initial=0.0)) / step)) + 1)
    t = start[:, None] + (stop - start)[:, None] * np.linspace(0.0, 1.0, count)[None, :]
    r = radius[:, None]
    return np.stack([centres[:, :1] + r * np.cos(t), centres[:, 1:] + r * np.sin(t)], axis=2)


def error_line(chain) -> list:
    """The end effector-to-target line (role "error") and its "12.3 px" label above its middle."""
    if not chain.is_ik:
        return []
    tip = chain.fields["points"][-1].copy()
    target = chain.fields["target"].copy()
    d = target - tip
    length = math.hypot(d[0], d[1])
    if length < ERROR_MIN_PX:
        return []
    nx, ny = -d[1] / length, d[0] / length
    if ny > 0:
        nx, ny = -nx, -ny
    mid = (tip + target) / 2 + LABEL_GAP * np.array((nx, ny))
    return [Polyline(np.stack([tip, target]), "error"), Label(mid, f"{length:.1f} px", "error")]


def goal_points(chain) -> np.ndarray:
    """The joints (n + 1, 2) px of the solver's goal pose, bones scaled by ``scale``."""
    f = chain.fields
    rx, ry = f["root"].tolist()
    scale = float(f["scale"][0])
    return np.array(chain_points(rx, ry, f["goal"].tolist(), [scale * v for v in f["lengths"].tolist()]))


def ghost_pose(chain) -> list:
    """The goal pose as a faint polyline (role "ghost") while the shown pose lags it by ``GHOST_MIN_PX`` or more."""
    if not chain.is_ik:
        return []
    ghost = goal_points(chain)
    gap = np.max(np.hypot(*(ghost - chain.fields["points"]).T))
    if not gap >= GHOST_MIN_PX:
        return []
    return [Polyline(ghost, "ghost", width=2, fade=GHOST_FADE)]


def pole_side(root, target, pole) -> int:
    """+1 if ``pole`` is right of the root-to-target line on screen (y down), -1 left, 0 on it (``ON_LINE``) or
    with the target on the root."""
    ux, uy = float(target[0]) - float(root[0]), float(target[1]) - float(root[1])
    px, py = float(pole[0]) - float(root[0]), float(pole[1]) - float(root[1])
    cross = ux * py - uy * px
    if abs(cross) <= ON_LINE * math.hypot(ux, uy) * math.hypot(px, py) or not (ux or uy):
        return 0
    return 1 if cross > 0 else -1


SIDE_WORDS = {1: "bends right", -1: "bends left", 0: "on the line: no side"}


def pole_view(chain) -> list:
    """The line from the root-target middle to the pole (role "pole") and a label of the side it picks."""
    pole = chain.pole
    if pole is None:
        return []
    f = chain.fields
    pole = pole.copy()
    mid = (f["root"] + f["target"]) / 2
    side = pole_side(f["root"], f["target"], pole)
    return [Polyline(np.stack([mid, pole]), "pole"),
            Label(pole + (0.0, -18.0), SIDE_WORDS[side], "pole")]


def snake_view(chain) -> list:
    """A snake's bend-range wedges (role "wedge") about each inner node, radius ``WEDGE_SHARE`` of the next
    segment, and its follow distance: a circle about the head and a "40 px" label. [] for an IK chain."""
    if not chain.is_snake:
        return []
    f = chain.fields
    pts = f["points"]
    lo, hi = f["bend_limits"].tolist()
    lengths = f["lengths"]
    d = pts[1:] - pts[:-1]
    ang = np.arctan2(d[:, 1], d[:, 0])
    centres = pts[1:-1]
    arcs = arcs_points(centres, WEDGE_SHARE * lengths[1:], ang[:-1] + lo, ang[:-1] + hi)
    wedges = np.concatenate([centres[:, None], arcs], axis=1)
    out: list[Primitive] = [Polygon(w, "wedge") for w in wedges]
    out += [Polyline(a, "wedge") for a in arcs]  # the arc the next node may sit on
    head = pts[0].copy()
    seg = float(lengths[0])
    out.append(Circle(head, seg, "follow", fade=FOLLOW_FADE))
    mid = (pts[0] + pts[1]) / 2
    first = float(ang[0])
    normal = np.array((-math.sin(first), math.cos(first)))
    out.append(Label(mid + LABEL_GAP * normal, f"{round(seg, 1):g} px", "follow"))
    return out


def walker_view(chain) -> list:
    """A walker's legs: each one's reach, the circle about its hip of radius its bones' total length (role
    "reach"), and its foot, a filled ring while planted ("step_target") or a thin ring while stepping ("step"); a label
    of the reach over the body."""
    f = chain.fields
    m = f["lengths"].shape[-1]
    legs = f["points"].reshape(-1, m + 1, 2)
    reach = f["lengths"].sum(axis=1)
    planted = f["state"] < 0.5
    out: list[Primitive] = [Circle(leg[0].copy(), float(r), "reach", fade=REACH_FADE) for leg, r in zip(legs, reach)]
    for foot, down in zip(f["foot"], planted):
        out.append(Circle(foot.copy(), FOOT_MARK, "step_target" if down else "step", width=2 if down else 1))
        if down:
            out.append(Circle(foot.copy(), FOOT_MARK, "step_target", width=0))  # filled (translucent)
    top = float(legs[:, 0, 1].min()) - float(reach.max())
    words = f"leg reach {reach.min():.0f} px" if np.ptp(reach) < 0.5 else \
        f"leg reach {reach.min():.0f}-{reach.max():.0f} px"
    out.append(Label(np.array((float(f["body"][0]), top - LABEL_GAP)), f"{words}; filled rings: planted feet", "text"))
    return out


def math_overlay(chain, previous=None) -> list:
    """Everything "Show the math" draws over ``chain``, bottom to top; ``previous`` (n + 1, 2) px: a path chain's
    joints a step ago (:class:`~.motion_view.StepMemory`; None: no arrows)."""
    if chain.is_snake:
        return snake_view(chain) + jiggle_view(chain)
    if chain.is_walker:
        return walker_view(chain) + appendage_view(chain)
    if chain.is_rope:
        return rope_view(chain)
    if chain.is_path:
        return path_view(chain, previous)
    out = two_bone_overlay(chain) if chain.solver == "two-bone" else []
    return out + ghost_pose(chain) + jiggle_view(chain) + limit_arcs(chain) + error_line(chain) + pole_view(chain)
