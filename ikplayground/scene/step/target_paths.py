"""Animated targets: an IK chain's target moving by itself, one fixed step at a time.

A chain's motion is one of :data:`PATHS`:

* ``"bounce"`` (the pygame CCD tutorial's moving target): ``speed`` px a step,
  starting :data:`BOUNCE_HEADING`, reflected at the stage's edges;
* ``"circle"``: ``centre + size (cos p, sin p)``, ``p`` growing by ``speed / size``
  a step (clockwise on screen, y down);
* ``"figure-eight"``: ``centre + (size sin p, size/2 sin 2p)``, at a mean pace
  of ``speed`` px a step.

A curve may run backward (``motion_reverse``: a mirror flip's). :func:`start`
centres a motion on the target, phase 0; while the target is ``held`` the
motion waits, and :func:`recentre` moves the curve with a dragged target. No
clock, no randomness: the same steps give the same targets, bit for bit.
Pixels (y down), radians; arrays with a leading chain axis.
"""

from __future__ import annotations

import math

import numpy as np

PATHS = ("none", "bounce", "circle", "figure-eight")  # fields["motion"] holds the index
BOUNCE, CIRCLE, FIGURE_EIGHT = 1, 2, 3
DEFAULT_SPEED = 2.0  # px per step
DEFAULT_SIZE = 80.0  # px
MAX_SPEED = 1000.0  # px per step
MIN_SIZE = 1.0  # px: a smaller curve would turn its phase by more than MAX_SPEED rad a step
MAX_SIZE = 10_000.0  # px
BOUNCE_HEADING = math.radians(30.0)  # a new bounce's direction: down-right (y down)
# the figure-eight's length over its size: the integral of sqrt(cos^2 p + cos^2 2p) over one turn
FIGURE_EIGHT_LENGTH = 6.0972234701

def offsets(code, phase, size) -> np.ndarray:
    """Where the curve puts the target relative to its centre, (N, 2) px: ``code`` (N,) ``CIRCLE`` or
    ``FIGURE_EIGHT``, ``phase`` (N,) rad, ``size`` (N,) px (a circle's radius, a figure-eight's half-width).
    """
    code, phase, size = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (code, phase, size)))
    out = np.empty(code.shape + (2,))
    _offsets_into(out, code == CIRCLE, phase, size)
    return out


def _offsets_into(out, circle, phase, size) -> None:
    """:func:`offsets` into ``out`` (N, 2), ``circle`` (N,) bool the circles' rows (the others figure-eights)."""
    sine = np.sin(phase)
    out[..., 0] = size * np.where(circle, np.cos(phase), sine)
    out[..., 1] = np.where(circle, size * sine, 0.5 * size * np.sin(2.0 * phase))


def phase_rate(code, speed, size) -> np.ndarray:
    """How far the phase goes in one step (N,) rad, for ``speed`` px per step along the curve."""
    code, speed, size = (np.asarray(a, dtype=float) for a in (code, speed, size))
    return np.where(code == CIRCLE, speed / size, 2.0 * math.pi * speed / (FIGURE_EIGHT_LENGTH * size))


def advance(f: dict[str, np.ndarray], stage) -> None:
    """Move each moving target of a group (fields ``f``, leading axis N) by one step, in place, kept on
    ``stage`` (width, height) px: ``target``, a curve's phase and a bounce's velocity change.
    """
    code = f["motion"][:, 0]
    if not code.any():
        return
    moving = (code > 0) & (f["held"][:, 0] == 0)
    edge = np.array(stage, dtype=float)
    bounce = moving & (code == BOUNCE)
    if bounce.any():
        hop = np.flatnonzero(bounce)
        p = f["target"][hop] + f["motion_velocity"][hop]
        v = f["motion_velocity"][hop]
        low, high = p < 0.0, p > edge
        p = np.where(low, -p, np.where(high, 2.0 * edge - p, p))
        v = np.where(low | high, -v, v)
        f["motion_velocity"][hop] = v
        f["target"][hop] = np.clip(p, 0.0, edge)
    curve = moving & (code > BOUNCE)
    rows: slice | np.ndarray = slice(None)  # (a whole group on curves, the usual case: views, not copies)
    if not curve.all():
        rows = np.flatnonzero(curve)
        if not rows.size:
            return
    c, size = code[rows], f["motion_size"][rows, 0]
    rate = phase_rate(c, f["motion_speed"][rows, 0], size)
    phase = f["motion_phase"][rows, 0]
    phase = np.mod(np.where(f["motion_reverse"][rows, 0] > 0, phase - rate, phase + rate), 2.0 * math.pi)
    f["motion_phase"][rows, 0] = phase
    at = np.empty((len(phase), 2))
    _offsets_into(at, c == CIRCLE, phase, size)
    at += f["motion_centre"][rows]
    np.maximum(at, 0.0, out=at)
    f["target"][rows] = np.minimum(at, edge, out=at)


def recentre(fields: dict[str, np.ndarray]) -> None:
    """One chain's target was moved by hand: its curve follows, so the motion goes on from there at its phase."""
    code = int(fields["motion"][0])
    if code > BOUNCE:
        fields["motion_centre"][:] = fields["target"] - offsets(code, fields["motion_phase"][0],
                                                                fields["motion_size"][0])


def start(fields: dict[str, np.ndarray], path: str) -> None:
    """Start one chain's motion ``path`` where its target is: the centre there, phase 0."""
    fields["motion"][0] = PATHS.index(path)
    fields["motion_centre"][:] = fields["target"]
    fields["motion_phase"][0] = 0.0
    fields["motion_reverse"][0] = 0.0
    fields["motion_velocity"][:] = velocity(fields["motion_speed"][0], BOUNCE_HEADING)


def velocity(speed: float, heading: float) -> np.ndarray:
    """``speed`` px/step heading ``heading`` rad (``atan2(dy, dx)``, y down): shape (2,)."""
    return np.array((speed * math.cos(heading), speed * math.sin(heading)))


def set_speed(fields: dict[str, np.ndarray], speed: float) -> None:
    """One chain's speed, px per step; a bounce keeps its direction."""
    v = fields["motion_velocity"]
    fields["motion_velocity"][:] = velocity(speed, math.atan2(v[1], v[0]) if v.any() else BOUNCE_HEADING)
    fields["motion_speed"][0] = speed


def hold(fields: dict[str, np.ndarray], on: bool, index: int = 0) -> None:
    """The user takes one IK chain's target, or a rig's target ``index`` (``on``), or lets it go: no motion while it
    is held (a walking rig's target stays where it is put)."""
    fields["held"][index] = 1.0 if on else 0.0


def fill(f: dict[str, np.ndarray], motions: list) -> None:
    """Set the motion fields of a group's arrays ``f`` (``target`` set), row by row, from ``motions``: None
    or a dict of ``path``, ``speed`` (px/step), ``size`` (px), optional ``centre`` px, ``phase``, ``heading`` rad,
    ``reverse``."""
    f["held"][:, 0] = 0.0
    # no motion (None or {}) in every row first, with whole-column writes (a stress scene's thousands)
    f["motion"][:, 0] = PATHS.index("none")
    f["motion_speed"][:, 0] = float(DEFAULT_SPEED)
    f["motion_size"][:, 0] = float(DEFAULT_SIZE)
    f["motion_centre"][:] = f["target"]
    f["motion_phase"][:, 0] = 0.0
    f["motion_reverse"][:, 0] = 0.0
    f["motion_velocity"][:] = velocity(float(DEFAULT_SPEED), BOUNCE_HEADING)
    for row, m in enumerate(motions):
        if not m:
            continue
        speed = float(m.get("speed", DEFAULT_SPEED))
        f["motion"][row, 0] = PATHS.index(m.get("path", "none"))
        f["motion_speed"][row, 0] = speed
        f["motion_size"][row, 0] = float(m.get("size", DEFAULT_SIZE))
        centre = m.get("centre")
        f["motion_centre"][row] = f["target"][row] if centre is None else centre
        f["motion_phase"][row, 0] = float(m.get("phase") or 0.0)
        f["motion_reverse"][row, 0] = 1.0 if m.get("reverse") else 0.0
        heading = m.get("heading")
        f["motion_velocity"][row] = velocity(speed, BOUNCE_HEADING if heading is None else heading)


def read(fields: dict[str, np.ndarray]) -> dict:
    """One chain's motion as :func:`fill` takes it (what a conversion or a new bone count keeps)."""
    v = fields["motion_velocity"]
    return {"path": PATHS[int(fields["motion"][0])], "speed": float(fields["motion_speed"][0]),
            "size": float(fields["motion_size"][0]), "centre": fields["motion_centre"].tolist(),
            "phase": float(fields["motion_phase"][0]), "reverse": bool(fields["motion_reverse"][0] > 0),
            "heading": math.atan2(v[1], v[0])}
