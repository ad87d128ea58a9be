"""The chains' skins but the bone sprite (``render.py`` caches that): how a chain's points become shapes.

IK ``lines`` (a line per bone) and ``capsules`` (a rimmed capsule per bone, a pin at each joint); snake
``blocks`` (a rectangle per node, the Flash snake tutorial), ``body`` (one smooth outline round a Catmull-Rom
spine, with a head, a taper and a stripe) and ``lines``. Pixels, y down; numpy geometry, pygame strokes.
"""

from __future__ import annotations

import numpy as np
import pygame

from ikplayground.app.draw.shapes import snake_quads, units

BONE_WIDTH = 6
JOINT_RADIUS = 5
CAPSULE_RATIO = 0.3  # a capsule's thickness per px of bone length ...
CAPSULE_THICKNESS = (6.0, 30.0)  # ... kept within this, px
CAPSULE_EDGE = 1.5  # px: a capsule's lighter rim
BODY_HALF_WIDTH = 11.0  # px: the snake body's widest half width
# (place head 0 .. tail 1, share of the widest)
BODY_PROFILE = ((0.0, 0.04, 0.09, 0.2, 0.45, 1.0), (0.95, 0.95, 0.74, 1.0, 0.9, 0.12))
BODY_SAMPLES = 4  # spline samples per spine segment
BODY_RIM = 1.5  # px: the body's lighter rim
SNOUT = 1.35  # how far the head's round end reaches forward, in head half widths
EYE_WHITE = (236, 236, 222)
EYE_PUPIL = (18, 18, 22)
_SNOUT = np.linspace(0.0, np.pi, 9)


def shade(colour, amount: float) -> tuple[int, ...]:
    """``colour`` moved toward white (``amount`` > 0) or black (< 0) by ``|amount|`` (0..1)."""
    if amount >= 0:
        return tuple(int(c + (255 - c) * amount) for c in colour[:3])
    return tuple(int(c * (1 + amount)) for c in colour[:3])


def capsule_radii(points: np.ndarray) -> np.ndarray:
    """Half thicknesses (n,) px of the capsules over the bones between ``points`` (n + 1, 2): ``CAPSULE_RATIO``
    of each bone's length, within ``CAPSULE_THICKNESS``, halved."""
    d = points[1:] - points[:-1]
    lo, hi = CAPSULE_THICKNESS
    return np.clip(np.hypot(d[:, 0], d[:, 1]) * CAPSULE_RATIO, lo, hi) / 2


def catmull_rom(points: np.ndarray, samples: int) -> np.ndarray:
    """A uniform Catmull-Rom spline through ``points`` (m, 2), ``samples`` a segment, ends mirrored:
    ((m - 1) * samples + 1, 2)."""
    p = np.concatenate([2 * points[:1] - points[1:2], points, 2 * points[-1:] - points[-2:-1]])
    p0, p1, p2, p3 = p[:-3], p[1:-2], p[2:-1], p[3:]
    t = (np.arange(samples) / samples)[None, :, None]
    t2, t3 = t * t, t * t * t
    seg = 0.5 * (2 * p1[:, None] + (p2 - p0)[:, None] * t + (2 * p0 - 5 * p1 + 4 * p2 - p3)[:, None] * t2
                 + (3 * p1 - p0 - 3 * p2 + p3)[:, None] * t3)
    return np.concatenate([seg.reshape(-1, 2), points[-1:]])


def body_widths(count: int) -> np.ndarray:
    """Half widths (count,) px of a snake body, head first (``BODY_PROFILE``)."""
    place = np.linspace(0.0, 1.0, count)
    return np.interp(place, *BODY_PROFILE) * BODY_HALF_WIDTH


def body_frame(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A snake's nodes (m, 2) px, head first, as ``(spine, widths, tangent, normal)``: the spline (k, 2) px,
    k = (m - 1) * BODY_SAMPLES + 1, its half widths (k,) px, and unit vectors (k, 2) toward the tail and to its left."""
    spine = catmull_rom(points, BODY_SAMPLES)
    tangent, _ = units(np.gradient(spine, axis=0))
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    return spine, body_widths(len(spine)), tangent, normal


def body_outline(spine: np.ndarray, widths: np.ndarray, tangent: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """The closed outline (j, 2) px round ``spine`` at ``widths`` (:func:`body_frame`'s arguments): left side
    tail to head, a snout reaching ``SNOUT`` head half widths, right side, a pointed tail."""
    w = widths[:, None]
    left, right = spine + normal * w, spine - normal * w
    forward, side, w0 = -tangent[0], normal[0], float(widths[0])
    snout = spine[0] + w0 * (np.cos(_SNOUT)[:, None] * side + SNOUT * np.sin(_SNOUT)[:, None] * forward)
    tail = spine[-1] + tangent[-1] * (2.0 * float(widths[-1]) + 2.0)
    return np.concatenate([tail[None], left[:0:-1], snout, right[1:]])


def halo_width(chain) -> int:
    """The selection halo's width under ``chain``, px: 6 px each side past its skin."""
    if chain.is_snake:
        return int(2 * (BODY_HALF_WIDTH + BODY_RIM)) + 12 if chain.snake_skin == "body" else 26
    if chain.skin == "capsules" and len(chain.fields["points"]) > 1:
        return int(2 * capsule_radii(chain.fields["points"]).max()) + 12
    return 18


def draw_bone_lines(surface: pygame.Surface, plist: list, colour) -> None:
    """The IK ``lines`` skin: a line per bone, a ring at each inner joint."""
    for a, b in zip(plist[:-1], plist[1:]):
        pygame.draw.aaline(surface, colour, a, b, BONE_WIDTH)
    joint = shade(colour, 0.45)
    for p in plist[1:-1]:
        pygame.draw.aacircle(surface, joint, p, JOINT_RADIUS)


def draw_capsules(surface: pygame.Surface, points: np.ndarray, colour) -> None:
    """The ``capsules`` skin: a capsule per bone root first (a light rim, then the colour), pins at the joints."""
    r = capsule_radii(points)
    edge, pin, hole = shade(colour, 0.45), shade(colour, 0.65), shade(colour, -0.6)
    plist = points.tolist()
    aaline, aacircle = pygame.draw.aaline, pygame.draw.aacircle
    for a, b, rad in zip(plist[:-1], plist[1:], r.tolist()):
        for c, w in ((edge, rad), (colour, rad - CAPSULE_EDGE)):
            aaline(surface, c, a, b, max(1, round(2 * w)))
            aacircle(surface, c, a, w)
            aacircle(surface, c, b, w)
    joint_r = np.minimum(np.concatenate([r[:1], r[:-1]]), r)  # the thinner of a joint's two bones
    for p, jr in zip(plist[:-1], joint_r.tolist()):
        aacircle(surface, pin, p, max(2.5, jr * 0.5))
        aacircle(surface, hole, p, max(1.2, jr * 0.22))


def draw_blocks(surface: pygame.Surface, points: np.ndarray, colour) -> None:
    """The snake ``blocks`` skin: a rectangle per node, tail first, eyes on the head."""
    outline = shade(colour, 0.55)
    quads = snake_quads(points)
    for quad in quads[::-1].tolist():  # tail first, head on top
        pygame.draw.polygon(surface, colour, quad)
        pygame.draw.aalines(surface, outline, True, quad)
    head = quads[0]
    front = (head[1] + head[2]) / 2
    for corner in (head[1], head[2]):
        eye = (front * 0.35 + corner * 0.65).tolist()
        pygame.draw.aacircle(surface, EYE_PUPIL, eye, 3)


def draw_body(surface: pygame.Surface, points: np.ndarray, colour) -> None:
    """The snake ``body`` skin: a light rim, the body, a dark stripe down the back, eyes."""
    spine, widths, tangent, normal = body_frame(points)
    back = slice(BODY_SAMPLES, None)  # the stripe starts behind the head
    for shape, c in ((body_outline(spine, widths + BODY_RIM, tangent, normal), shade(colour, 0.5)),
                     (body_outline(spine, widths, tangent, normal), colour),
                     (body_outline(spine[back], widths[back] * 0.38, tangent[back], normal[back]),
                      shade(colour, -0.22))):
        poly = shape.tolist()
        pygame.draw.polygon(surface, c, poly)
        pygame.draw.aalines(surface, c, True, poly)
    head, forward, side, w0 = spine[0], -tangent[0], normal[0], float(widths[0])
    for s in (1.0, -1.0):
        eye = head + forward * (0.4 * w0) + side * (s * 0.5 * w0)
        pygame.draw.aacircle(surface, EYE_WHITE, eye.tolist(), max(2.0, 0.34 * w0))
        pygame.draw.aacircle(surface, EYE_PUPIL, (eye + forward * 0.12 * w0).tolist(), max(1.0, 0.18 * w0))


def draw_snake_lines(surface: pygame.Surface, points: np.ndarray, colour) -> None:
    """The snake ``lines`` skin: a polyline through the nodes, a dot at each, the head's bigger."""
    plist = points.tolist()
    for a, b in zip(plist[:-1], plist[1:]):
        pygame.draw.aaline(surface, colour, a, b, 3)
    dot = shade(colour, 0.45)
    for p in plist[1:]:
        pygame.draw.aacircle(surface, dot, p, 3)
    pygame.draw.aacircle(surface, shade(colour, 0.7), plist[0], 6)


def draw_rope(surface: pygame.Surface, points: np.ndarray, colour) -> None:
    """A rope: a smooth cord through its joints (a Catmull-Rom curve), a dark rim, a twist tick every other
    sample (a laid rope's strands), a knot at the end."""
    curve = catmull_rom(points, 4) if len(points) > 1 else points
    line = curve.tolist()
    dark = shade(colour, -0.35)
    if len(line) > 1:
        pygame.draw.lines(surface, dark, False, line, 7)
        pygame.draw.lines(surface, colour, False, line, 5)
        d = np.diff(curve, axis=0)
        unit = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
        twist = 2.5 * (unit[:, ::-1] * (-1.0, 1.0) + 0.6 * unit)  # across the cord, leaning along it
        for c, t in zip(curve[:-1:2].tolist(), twist[::2].tolist()):
            pygame.draw.aaline(surface, dark, (c[0] - t[0], c[1] - t[1]), (c[0] + t[0], c[1] + t[1]))
    pygame.draw.aacircle(surface, shade(colour, 0.45), line[-1], 4)



def draw_appendages(surface, f, colour, knob: bool = False, width: float = 5.0) -> None:
    """A walker's or rig's appendages (its fields ``f`` as the screen shows them, "Appendages" on): each a line
    tapering from ``width`` px at its root to 1 px at its tip, with a small knob there when ``knob`` (an
    antenna's)."""
    if not f["app_on"][0] > 0:
        return
    for points, lengths in zip(f["app_points"], f["app_lengths"]):
        k = int((lengths > 0.0).sum())
        if k == 0:
            continue
        pts = points[:k + 1].tolist()
        for i in range(k):
            w = max(1, int(round(width + (1.0 - width) * i / k)))
            pygame.draw.line(surface, colour, pts[i], pts[i + 1], w)
        if knob:
            pygame.draw.circle(surface, shade(colour, 0.35), pts[k], max(2.0, 0.6 * width))
