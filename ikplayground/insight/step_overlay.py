"""The step-through's overlay: what one CCD or FABRIK record moved, and the chain's recent past, as primitives.

A CCD record (the pygame CCD tutorial's one joint turn) shows the pivot's lines to the effector and target and
the turn's arc; a FABRIK half-pass (Aristidou & Lasenby 2011) the chain it left and the joints it moved.
Pixels, y down; radians (degrees in labels).
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.insight.primitives import Circle, Label, Polyline, Primitive, arc_points

GHOST_FADE = 0.6  # the fade of the previous record's chain ...
GHOST_DECAY = 0.75  # ... times this for each record older: 0.6, 0.45, 0.34, ...
ARC_RADIUS = 30.0  # px: the turn's arc about the pivot, at most (shorter for a pivot near the tip)
ARC_MIN_RADIUS = 6.0  # px
JOINT_RADIUS = 4.0  # px: the circles at the joints a FABRIK half-pass moved
LABEL_GAP = 16.0  # px: from the arc, or above the effector / root, to the label

FABRIK_LABELS = {"forward": "forward: tip first", "backward": "backward: root first",
                 "straight": "straight at the target", "restart": "restarted", "best": "best pose"}


def ghost_overlay(point_sets) -> list:
    """Earlier records' joints (n + 1, 2) px, newest first, as polylines (role "step_ghost") fading by
    ``GHOST_FADE * GHOST_DECAY ** age``."""
    return [Polyline(np.asarray(points, dtype=float), "step_ghost", fade=GHOST_FADE * GHOST_DECAY ** age)
            for age, points in enumerate(point_sets)]


def ccd_overlay(record, target) -> list:
    """One CCD turn (a ``CCDStep``): pivot to the end effector before ("step") and after it (dashed), pivot to
    ``target`` ("step_target"), and the turn's arc with its degrees ("angle"); for a restart or the return to
    the best pose, the root to the new end (dashed) and a label."""
    pivot = np.asarray(record.pivot, dtype=float)
    before = np.asarray(record.effector_before, dtype=float)
    target = np.asarray(target, dtype=float)
    if record.event != "turn":  # a restart or the return to the best pose: the whole chain moved, no turn to show
        return [Polyline(np.array([pivot, record.effector_after]), "step", dashed=True),
                Label(pivot + np.array((0.0, -LABEL_GAP)), FABRIK_LABELS[record.event], "angle")]
    out: list[Primitive] = [
        Polyline(np.array([pivot, before]), "step", width=2),
        Polyline(np.array([pivot, record.effector_after]), "step", dashed=True),
        Polyline(np.array([pivot, target]), "step_target", dashed=True),
    ]
    v = before - pivot
    start = math.atan2(v[1], v[0])
    stop = start + record.turn
    near = min(math.hypot(*v), math.hypot(*(target - pivot)))
    radius = max(min(ARC_RADIUS, 0.6 * near), ARC_MIN_RADIUS)
    if record.turn:
        out.append(Polyline(arc_points(pivot, radius, start, stop), "angle"))
    mid = 0.5 * (start + stop)
    at = pivot + (radius + LABEL_GAP) * np.array((math.cos(mid), math.sin(mid)))
    out.append(Label(at, f"{math.degrees(record.turn):+.1f}°", "angle"))
    return out


def fabrik_overlay(record, before) -> list:
    """One FABRIK half-pass (a ``FabrikStep``): the chain it left ("step"), circles at the joints that differ
    from ``before`` (n + 1, 2) px, and a label naming the walk."""
    points = np.asarray(record.points, dtype=float)
    moved = np.any(points != np.asarray(before, dtype=float), axis=1)
    out: list[Primitive] = [Polyline(points, "step", width=2)]
    out += [Circle(p, JOINT_RADIUS, "step") for p in points[moved]]
    along = points[-1] - points[0]
    length = math.hypot(*along)
    side = np.array((along[1], -along[0])) / length if length > 0 else np.array((1.0, 0.0))
    if side[0] < 0:  # the right-hand side of the chain on screen
        side = -side
    middle = points[len(points) // 2]
    out.append(Label(middle + side * 2 * LABEL_GAP, FABRIK_LABELS.get(record.direction, record.direction),
                     "step", anchor="left"))
    return out
