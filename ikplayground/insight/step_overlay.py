"""The overlay of a step-through: what one CCD or FABRIK record moved, and the chain's recent past.

Geometry only, as draw primitives (:mod:`.primitives`) in stage pixels (y
down), angles in radians (``atan2(dy, dx)``, positive clockwise on screen),
degrees in labels. A CCD record (:class:`~ikplayground.solvers.CCDStep`, the
pygame CCD tutorial's one joint turn) shows the pivot's lines to the end
effector and to the target and the arc of the turn between them; a FABRIK
record (:class:`~ikplayground.solvers.FabrikStep`, a half-pass of Aristidou &
Lasenby 2011) shows the chain it left with the joints it moved. The chains of
earlier records fade behind them (:func:`ghost_overlay`).
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
                 "straight": "straight at the target", "mirror": "bend mirrored", "best": "best pose"}


def ghost_overlay(point_sets) -> list:
    """The chains of earlier records as fading polylines, newest first.

    Parameters
    ----------
    point_sets : iterable of ndarray, shape (n + 1, 2)
        Joint positions in px, the most recent first.

    Returns
    -------
    list of Polyline
        Role "step_ghost", fade ``GHOST_FADE * GHOST_DECAY ** age`` (age 0 for the newest).
    """
    return [Polyline(np.asarray(points, dtype=float), "step_ghost", fade=GHOST_FADE * GHOST_DECAY ** age)
            for age, points in enumerate(point_sets)]


def ccd_overlay(record, target) -> list:
    """One CCD turn: pivot to the end effector before it ("step"), and after it (dashed),
    pivot to the target ("step_target"), and the turn's arc with its value in degrees ("angle").

    Parameters
    ----------
    record : CCDStep
        The turn (pivot, effector before and after in px, turn in rad).
    target : array_like, shape (2,)
        The target, px.
    """
    pivot = np.asarray(record.pivot, dtype=float)
    before = np.asarray(record.effector_before, dtype=float)
    target = np.asarray(target, dtype=float)
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
    """One FABRIK half-pass: the chain it left ("step"), small circles at the joints it moved,
    and a label saying which walk it was, beside the middle of the chain (the end effector and
    the root carry the status badge and the anchor).

    Parameters
    ----------
    record : FabrikStep
        The half-pass (points (n + 1, 2) px, direction).
    before : ndarray, shape (n + 1, 2)
        The joints before it, px: a joint counts as moved where it differs.
    """
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
