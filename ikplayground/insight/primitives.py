"""Draw primitives: what an overlay is made of, before anything is drawn (after pymunk's debug drawing).

Lines, filled shapes, rings, circles and labels in stage pixels (y down), each with a *role* (the App's draw
adapter gives it a colour) and a *fade* (1 opaque, toward 0 fainter).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

# Every role a primitive may have; the App's draw adapter has a colour for each.
ROLES = (
    "guide",        # construction lines: the triangle's sides, the pole's line
    "reach",        # a two-bone arm's reachable annulus (its edges)
    "soft",         # the soft-reach band (filled)
    "limit",        # a joint's limit arc
    "needle",       # a joint's current angle, inside its range
    "needle_hot",   # ... at an end of its range (red)
    "error",        # the error line from end effector to target, and its length
    "ghost",        # the solver's desired pose while the rate limit holds the chain back
    "angle",        # angle arcs and their values (phi, psi, gamma; a CCD turn)
    "pole",         # a pole's line and the side it picks
    "wedge",        # a snake node's bend range (filled)
    "follow",       # a snake's follow distance
    "step",         # step-through: what the current record moved
    "step_target",  # step-through: joint to target
    "step_ghost",   # step-through: earlier records, fading
    "text",         # plain labels
    "velocity",     # a jiggling joint's velocity (px/step)
)


class Polyline(NamedTuple):
    """Connected line segments through ``points`` (k, 2) px; ``closed`` joins the last to the first."""

    points: np.ndarray
    role: str
    width: int = 1
    closed: bool = False
    dashed: bool = False
    fade: float = 1.0


class Polygon(NamedTuple):
    """A filled, translucent polygon through ``points`` (k, 2) px."""

    points: np.ndarray
    role: str
    fade: float = 1.0


class Ring(NamedTuple):
    """The band between circles of radius ``inner`` and ``outer`` (px) about ``centre`` (2,), filled translucent."""

    centre: np.ndarray
    inner: float
    outer: float
    role: str
    fade: float = 1.0


class Circle(NamedTuple):
    """A circle of ``radius`` px about ``centre`` (2,); ``width`` 0 fills it."""

    centre: np.ndarray
    radius: float
    role: str
    width: int = 1
    fade: float = 1.0


class Label(NamedTuple):
    """``text`` at ``pos`` (2,) px; ``anchor`` is where ``pos`` sits on the text: "center", "left" or "right"."""

    pos: np.ndarray
    text: str
    role: str
    anchor: str = "center"
    fade: float = 1.0


Primitive = Polyline | Polygon | Ring | Circle | Label


def arc_points(centre, radius: float, start: float, stop: float, step: float = math.radians(6)) -> np.ndarray:
    """Points (k, 2) px along the arc of ``radius`` about ``centre`` from ``start`` to ``stop`` rad (clockwise on
    screen where ``stop > start``), at least two, at most ``step`` rad apart."""
    count = max(2, int(math.ceil(abs(stop - start) / step)) + 1)
    t = np.linspace(start, stop, count)
    c = np.asarray(centre, dtype=float)
    return np.stack([c[0] + radius * np.cos(t), c[1] + radius * np.sin(t)], axis=1)
