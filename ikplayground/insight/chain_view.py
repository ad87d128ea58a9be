"""What "Show the math" draws over one chain, as geometry: limits, error, ghost, pole side, snake wedges.

For IK chains (two-bone, CCD, FABRIK, DLS): each clamped joint's allowed range
as an arc about the joint with a needle at its angle (the solvers' one clamping
rule, :func:`~ikplayground.scene.core.chain.clamped_joints`, as the renderer's limit
wedges); the error line from the end effector to the target with its length;
the solver's desired pose (``goal``) as a ghost while the shown pose lags it
(rate limit, Mix); a pole's line and the side it picks. For snakes (the Flash
snake tutorial's follow-the-leader, :mod:`ikplayground.solvers.snake`): each
node's bend-range wedge and the follow distance. A two-bone arm also gets its
construction (:mod:`.two_bone_view`). Primitives of :mod:`.primitives`; pixels
with y down, radians (positive turns clockwise on screen).
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.insight.primitives import Circle, Label, Polygon, Polyline, Primitive
from ikplayground.insight.two_bone_view import two_bone_overlay
from ikplayground.scene import clamped_joints
from ikplayground.solvers import chain_points
from ikplayground.solvers import ON_LINE

LIMIT_RADIUS = 22.0  # px: a limit arc's radius at most (and 0.45 of the joint's bone)
LIMIT_SHARE = 0.45
NEEDLE_EXTRA = 6.0  # px: a needle reaches this far past its arc
AT_END = math.radians(0.5)  # rad: a joint this close to an end of its range shows a hot needle
ERROR_MIN_PX = 0.05  # px: no error line below this
LABEL_GAP = 10.0  # px: the error label sits this far beside the line's middle (its upper side)
GHOST_MIN_PX = 0.5  # px: the ghost shows when a joint of the goal pose is this far from the shown one
GHOST_FADE = 0.5
FOLLOW_FADE = 0.4
WEDGE_SHARE = 1.0  # a snake wedge's radius as a share of the segment after its node: the next node is on its arc


def limit_arcs(chain) -> list:
    """The allowed range of each clamped joint as an arc, and a needle at its angle.

    Joint i's range ``limits[i] = (lo, hi)`` is drawn about joint i relative to
    its parent bone's direction (joint 0: absolute, from +x) as a ``Polyline``
    arc of role "limit" of radius ``min(LIMIT_RADIUS, 0.45 * bone i)``; its
    needle (a ``Polyline`` from the joint, role "needle") points along bone i
    at the shown angle, role "needle_hot" within ``AT_END`` of ``lo`` or
    ``hi``. A free joint (a full-circle range) gets nothing. Snakes: [] (see
    :func:`snake_view`).
    """
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
    """:func:`~ikplayground.insight.primitives.arc_points` for ``k`` arcs at once: (k, m, 2) px.

    ``centres`` (k, 2) px, ``radius``, ``start``, ``stop`` (k,) px and rad; all
    arcs get the point count of the longest, so points are no more than
    ``step`` rad apart on each.
    """
    count = max(2, int(math.ceil(float(np.max(np.abs(stop - start), initial=0.0)) / step)) + 1)
    t = start[:, None] + (stop - start)[:, None] * np.linspace(0.0, 1.0, count)[None, :]
    r = radius[:, None]
    return np.stack([centres[:, :1] + r * np.cos(t), centres[:, 1:] + r * np.sin(t)], axis=2)


def error_line(chain) -> list:
    """The line from the end effector to the target (role "error") and its length "12.3 px" beside its middle.

    The label sits ``LABEL_GAP`` px off the line's middle on its upper side
    (y down), so the line does not strike it through. Nothing for a snake or
    an error below ``ERROR_MIN_PX``.
    """
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
    """The joints (n + 1, 2) px of the solver's desired pose: forward kinematics of ``goal``, bones scaled by
    ``scale``."""
    f = chain.fields
    rx, ry = f["root"].tolist()
    scale = float(f["scale"][0])
    return np.array(chain_points(rx, ry, f["goal"].tolist(), [scale * v for v in f["lengths"].tolist()]))


def ghost_pose(chain) -> list:
    """The solver's desired pose as a faint ``Polyline`` (role "ghost") while the shown pose differs from it.

    The shown angles move toward the Mix-blended answer at the rate limit
    (:mod:`ikplayground.scene.step.group_step`); the ghost is the answer itself
    (``goal``). Shown when some joint of it lies ``GHOST_MIN_PX`` or more
    from the shown joint; nothing for a snake.
    """
    if not chain.is_ik:
        return []
    ghost = goal_points(chain)
    gap = np.max(np.hypot(*(ghost - chain.fields["points"]).T))
    if not gap >= GHOST_MIN_PX:
        return []
    return [Polyline(ghost, "ghost", width=2, fade=GHOST_FADE)]


def pole_side(root, target, pole) -> int:
    """The side of the root-to-target line the pole is on, as seen on screen looking from root to target.

    +1 right, -1 left, 0 on the line: the sign of the cross product of
    ``target - root`` and ``pole - root`` (y down, so a positive cross product
    is to the right), 0 when its sine is within the solvers' ``ON_LINE``
    (:mod:`ikplayground.solvers.pole`) or the target sits on the root.
    """
    ux, uy = float(target[0]) - float(root[0]), float(target[1]) - float(root[1])
    px, py = float(pole[0]) - float(root[0]), float(pole[1]) - float(root[1])
    cross = ux * py - uy * px
    if abs(cross) <= ON_LINE * math.hypot(ux, uy) * math.hypot(px, py) or not (ux or uy):
        return 0
    return 1 if cross > 0 else -1


SIDE_WORDS = {1: "bends right", -1: "bends left", 0: "on the line: no side"}


def pole_view(chain) -> list:
    """A chain's pole, as the solver reads it: the line from the root-target line's middle to the pole
    (role "pole") and a label beside the pole saying the side it picks (:func:`pole_side`).

    The pole's own diamond and its dashed tie to the middle joint are the
    renderer's (``app/draw/badges.py``): not drawn here. Nothing without a pole.
    """
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
    """A snake's bend-range wedges and its follow distance.

    With ``d_k = points[k+1] - points[k]`` (head to tail) the next segment
    from node k (1 <= k < n) may point along ``angle(d_(k-1)) + b`` for a bend
    ``b`` in ``bend_limits = (lo, hi)`` (:mod:`ikplayground.solvers.snake`): a
    filled ``Polygon`` wedge (role "wedge") of those directions about node k,
    of radius ``WEDGE_SHARE`` of segment k, and its arc as a ``Polyline``: where
    node k+1 may sit. The follow distance: a faint
    ``Circle`` of segment 0's length about the head (role "follow"; node 1
    sits on it) and a label "40 px" beside segment 0's middle. [] for an IK chain.
    """
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


def math_overlay(chain) -> list:
    """Everything "Show the math" draws over ``chain``, bottom to top.

    A snake: :func:`snake_view`. An IK chain: a two-bone arm's construction
    (:func:`~ikplayground.insight.two_bone_view.two_bone_overlay`), the ghost,
    the limit arcs, the error line and the pole's side.
    """
    if chain.is_snake:
        return snake_view(chain)
    if chain.is_walker:
        return []
    out = two_bone_overlay(chain) if chain.solver == "two-bone" else []
    return out + ghost_pose(chain) + limit_arcs(chain) + error_line(chain) + pole_view(chain)
