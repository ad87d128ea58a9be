"""The two-bone arm's construction, as primitives: its reach annulus, its triangle and the angles phi, psi, gamma.

The raylib multi-chain demo's law of cosines (docs/sources.md, :mod:`ikplayground.solvers.two_bone`): with
``t = target - root``, ``r = |t|`` clamped into ``[|l1 - l2|, l1 + l2]``, ``phi = atan2(t_y, t_x)``, ``psi`` the
root's angle and ``gamma`` the knee's, ``theta1 = phi - bend * psi``, ``theta2 = bend * (pi - gamma)``.
Pixels, y down; radians (degrees only in labels).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ikplayground.insight.primitives import Circle, Label, Polyline, Ring, arc_points
from ikplayground.solvers import chain_points, pole_bend, soft_reach, wrap

PHI_RADIUS = 56.0  # px: the phi arc's radius at most (and 0.6 of bone 1)
PSI_SHARE = 0.65  # the psi arc's radius as a share of the phi arc's
GAMMA_RADIUS = 30.0  # px: the gamma arc's radius at most (and 0.35 of the shorter bone)
LABEL_GAP = 14.0  # px: an angle's label sits this far outside its arc
AXIS_EXTRA = 14.0  # px: the +x reference ray reaches this far past the phi arc


class Annulus(NamedTuple):
    """Reach radii (px) about the root: ``inner`` ``|l1 - l2|``, ``outer`` ``stretch * (l1 + l2)``, ``soft_start``
    where the soft ease begins (``outer`` without softness)."""

    inner: float
    outer: float
    soft_start: float


class Triangle(NamedTuple):
    """One two-bone solve's triangle: corners ``root``, ``knee``, ``end`` (2,) px, side ``r`` px, angles (rad),
    ``bend`` (+1 or -1, after the pole) and the bones' stretch ``scale``."""

    root: np.ndarray
    knee: np.ndarray
    end: np.ndarray
    r: float
    phi: float
    psi: float
    gamma: float
    theta1: float
    theta2: float
    bend: float
    scale: float


def annulus(l1: float, l2: float, softness: float = 0.0, stretch: float = 1.0) -> Annulus:
    """The reach annulus of bones ``l1``, ``l2`` px with ``softness`` px and ``stretch`` (>= 1), from
    :func:`~ikplayground.solvers.soft_reach`; ``soft_start`` kept within ``[inner, outer]``."""
    total = float(l1) + float(l2)
    outer, _, limit = soft_reach(math.inf, total, float(softness), float(stretch))
    inner = abs(float(l1) - float(l2))
    return Annulus(inner, outer, min(max(limit, inner), outer))


def triangle(root, target, l1: float, l2: float, bend: float = 1, *, pole=None, softness: float = 0.0,
             stretch: float = 1.0) -> Triangle:
    """The triangle ``solve_two_bone`` builds for ``root``, ``target`` (2,) px, bones ``l1``, ``l2`` px, ``bend``
    (+1 or -1), ``pole`` (2,) px (None or NaN: none), ``softness`` px and ``stretch``, step by step: its angles,
    knee, end and scale equal the solver's answer (to rounding)."""
    rx, ry = (float(v) for v in root)
    dx, dy = float(target[0]) - rx, float(target[1]) - ry
    b = 1.0 if bend >= 0 else -1.0
    if pole is not None and not math.isnan(float(pole[0])):
        b = pole_bend(dx, dy, float(pole[0]) - rx, float(pole[1]) - ry, b)
    dist = math.hypot(dx, dy)
    reach, scale = dist, 1.0
    if softness != 0.0 or stretch != 1.0:
        reach, scale, _ = soft_reach(dist, float(l1) + float(l2), float(softness), float(stretch))
    a, c = scale * float(l1), scale * float(l2)
    r = min(max(reach, abs(a - c)), a + c)
    phi = math.atan2(dy, dx)
    psi = math.acos(min(max((r * r + a * a - c * c) / (2.0 * a * r), -1.0), 1.0)) if r > 0.0 else 0.0
    gamma = math.acos(min(max((a * a + c * c - r * r) / (2.0 * a * c), -1.0), 1.0))
    if scale > 1.0:  # stretched bones lie straight, exactly (as the solver has them)
        psi, gamma = 0.0, math.pi
    theta1 = wrap(phi - b * psi)
    theta2 = b * (math.pi - gamma)
    if theta2 <= -math.pi:
        theta2 = math.pi
    pts = chain_points(rx, ry, [theta1, theta2], [a, c])
    return Triangle(np.array(pts[0]), np.array(pts[1]), np.array(pts[2]), r, phi, psi, gamma, theta1, theta2, b,
                    scale)


def goal_triangle(chain) -> Triangle:
    """The triangle of a two-bone scene chain's last solve: corners from ``fields["goal"]`` scaled by
    ``fields["scale"]``; ``phi`` the target's direction, ``psi``, ``gamma`` and the side read off the corners."""
    f = chain.fields
    rx, ry = f["root"].tolist()
    tx, ty = f["target"].tolist()
    theta1, theta2 = (wrap(v) for v in f["goal"].tolist())
    scale = float(f["scale"][0])
    a, c = (scale * v for v in f["lengths"].tolist())
    pts = chain_points(rx, ry, [theta1, theta2], [a, c])
    phi = math.atan2(ty - ry, tx - rx)
    b = -1.0 if theta2 < 0.0 else 1.0
    return Triangle(np.array(pts[0]), np.array(pts[1]), np.array(pts[2]), math.dist(pts[0], pts[2]), phi,
                    abs(wrap(theta1 - phi)), math.pi - abs(theta2), theta1, theta2, b, scale)


def two_bone_overlay(chain) -> list:
    """The construction of a two-bone scene chain's solve: reach circles (role "reach") and the soft
    band ("soft"), the goal triangle ("guide") with ``r`` labelled and a +x ray, and the angles phi, psi and gamma
    as labelled arcs ("angle"). A list of primitives, px."""
    f = chain.fields
    root = f["root"].copy()
    l1, l2 = f["lengths"].tolist()
    softness, stretch = float(f["softness"][0]), float(f["stretch"][0])
    ring = annulus(l1, l2, softness, stretch)
    out: list = [Circle(root, ring.outer, "reach")]
    if ring.inner > 0.5:
        out.append(Circle(root, ring.inner, "reach"))
    if stretch > 1.0:
        out.append(Circle(root, l1 + l2, "reach", fade=0.5))
    if softness > 0.0 and ring.soft_start < ring.outer:
        out.append(Ring(root, ring.soft_start, ring.outer, "soft"))
    tri = goal_triangle(chain)
    out.append(Polyline(np.stack([tri.root, tri.knee, tri.end]), "guide", closed=True))
    a, c = tri.scale * l1, tri.scale * l2
    mid = (tri.root + tri.end) / 2
    away = _normal(tri.end - tri.root, tri.bend)  # the side of the r side away from the knee
    out.append(Label(mid + 12.0 * away, f"r {tri.r:.1f} px", "guide"))
    # phi: from +x to the target's direction, at the root
    r_phi = min(PHI_RADIUS, 0.6 * a)
    out.append(Polyline(np.stack([root, root + (r_phi + AXIS_EXTRA, 0.0)]), "guide", dashed=True))
    out += _angle(root, r_phi, 0.0, tri.phi, "phi", tri.phi, gap=2.2 * LABEL_GAP)  # clear of psi's, inside it
    # psi: from the root-target line to bone 1 (theta1 = phi - bend * psi)
    out += _angle(root, PSI_SHARE * r_phi, tri.phi, tri.phi + wrap(tri.theta1 - tri.phi), "psi", tri.psi)
    # gamma: at the knee, from the bone back to the root round to bone 2
    r_gamma = min(GAMMA_RADIUS, 0.35 * min(a, c))
    start = tri.theta1 + math.pi
    out += _angle(tri.knee, r_gamma, start, start - tri.bend * tri.gamma, "gamma", tri.gamma, outside=True)
    return out


def _angle(centre, radius: float, start: float, stop: float, name: str, value: float, outside: bool = False,
           gap: float = LABEL_GAP) -> list:
    """An arc from ``start`` to ``stop`` rad about ``centre`` and its label past the middle (``outside``: opposite)."""
    centre = np.asarray(centre, dtype=float)
    middle = (start + stop) / 2 + (math.pi if outside else 0.0)
    pos = centre + (radius + gap) * np.array((math.cos(middle), math.sin(middle)))
    return [Polyline(arc_points(centre, radius, start, stop), "angle"),
            Label(pos, f"{name} {math.degrees(value):.1f}\N{DEGREE SIGN}", "angle")]


def _normal(v, side: float) -> np.ndarray:
    """The unit normal (2,) of ``v`` turned +90 degrees on screen, times ``side``; 0 for a zero ``v``."""
    n = math.hypot(v[0], v[1])
    if n == 0.0:
        return np.zeros(2)
    return side * np.array((-v[1], v[0])) / n
