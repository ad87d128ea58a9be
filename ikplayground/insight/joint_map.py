"""The two-bone arm's joint space: the (theta1, theta2) map, its two answers and what lies out of reach.

Every pose of a two-bone arm is a point ``(theta1, theta2)`` of the square
``[-pi, pi] x [-pi, pi]`` (``theta1`` bone 1's absolute angle, ``theta2`` bone 2's
angle relative to bone 1). A target within reach is met by two poses, the
elbow's two branches: the law-of-cosines answers of ``bend = +1`` and ``-1``
(the raylib multi-chain demo's formula, docs/sources.md; here
:func:`~ikplayground.solvers.solve_two_bone` itself). The end effector's
distance from the root depends on ``theta2`` alone,
``r(theta2) = sqrt(l1^2 + l2^2 + 2 l1 l2 cos theta2)``, so the map's rows say how
far each pose reaches. Picking a point of the map poses the arm there
(:func:`apply_pose`). Pixels with y down, radians (positive turns clockwise on screen).
"""

from __future__ import annotations

import math
from typing import NamedTuple, cast

import numpy as np

from ikplayground.insight.two_bone_view import annulus
from ikplayground.scene import clamped_joints
from ikplayground.solvers import solve_two_bone
from ikplayground.solvers import wrap
from ikplayground.solvers import chain_points

TAU = 2.0 * math.pi


def branches(root, target, l1: float, l2: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two answers ``((theta1, theta2) of bend +1, (theta1, theta2) of bend -1)``, rad.

    Exactly :func:`~ikplayground.solvers.solve_two_bone`'s (no pole, softness
    or stretch). Bend +1 has ``theta2 >= 0``, bend -1 ``theta2 <= 0`` (but a
    fully folded arm, ``theta2 = pi``, which both share).
    """
    up = solve_two_bone(root, target, l1, l2, 1)
    down = solve_two_bone(root, target, l1, l2, -1)
    # one arm, so floats (the solution's fields are arrays only for a batch)
    return cast("tuple[tuple[float, float], tuple[float, float]]",
                ((up.theta1, up.theta2), (down.theta1, down.theta2)))


class MapFrame(NamedTuple):
    """The map's rectangle on screen, ``(x, y, w, h)`` px: ``theta1`` runs left to right from -pi to
    pi, ``theta2`` bottom to top from -pi to pi (up is positive, as on a plot; screen rows grow down)."""

    x: float
    y: float
    w: float
    h: float

    def to_map(self, theta1, theta2):
        """Map pixels ``(px, py)`` of the angles ``theta1``, ``theta2`` (rad, in [-pi, pi]; floats or arrays)."""
        px = self.x + (np.asarray(theta1) + math.pi) / TAU * self.w
        py = self.y + (math.pi - np.asarray(theta2)) / TAU * self.h
        return px, py

    def from_map(self, px, py):
        """The angles ``(theta1, theta2)`` rad at map pixels ``(px, py)``, clipped to [-pi, pi]."""
        theta1 = (np.asarray(px) - self.x) / self.w * TAU - math.pi
        theta2 = math.pi - (np.asarray(py) - self.y) / self.h * TAU
        return np.clip(theta1, -math.pi, math.pi), np.clip(theta2, -math.pi, math.pi)

    def contains(self, px, py) -> bool:
        """Whether the pixel ``(px, py)`` lies on the map."""
        return self.x <= px <= self.x + self.w and self.y <= py <= self.y + self.h


def limit_box(limits) -> tuple[float, float, float, float] | None:
    """The allowed box ``(lo1, hi1, lo2, hi2)`` rad of a two-bone arm's ``limits`` (2, 2), or None when
    neither joint is clamped (:func:`~ikplayground.scene.core.chain.clamped_joints`); a free joint spans [-pi, pi]."""
    limits = np.asarray(limits, dtype=float)
    clamped = clamped_joints(limits)
    if not clamped.any():
        return None
    (lo1, hi1), (lo2, hi2) = (limits[i].tolist() if clamped[i] else (-math.pi, math.pi) for i in range(2))
    return lo1, hi1, lo2, hi2


def row_angles(rows: int) -> np.ndarray:
    """The ``theta2`` (rows,) rad at the centres of ``rows`` map rows, top (near pi) to bottom (near -pi)."""
    return math.pi - (np.arange(rows) + 0.5) / rows * TAU


def shade_rows(l1: float, l2: float, distance: float, rows: int) -> np.ndarray:
    """How unreachable the target is from each map row: (rows,) in [0, 1].

    Row i stands for ``theta2`` at its centre (:func:`row_angles`, as
    :class:`MapFrame` lays it out). When the target's ``distance`` (px) from
    the root is within reach (``|l1 - l2| <= distance <= l1 + l2``) some pose
    reaches it: all zeros. Otherwise every pose misses, and row i gets
    ``|r(theta2_i) - distance|`` divided by its largest value over the rows: 1
    for the row farthest off, the least (but above 0) for the row that gets
    nearest (theta2 = 0 past full reach, the fold inside the hole).
    """
    if abs(l1 - l2) <= distance <= l1 + l2:
        return np.zeros(rows)
    r = np.sqrt(np.maximum(l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * np.cos(row_angles(rows)), 0.0))
    gap = np.abs(r - distance)
    return gap / gap.max()


def pose_from_map(chain, theta1: float, theta2: float) -> tuple[np.ndarray, np.ndarray]:
    """The pose ``(angles (2,) rad, end (2,) px)`` of a two-bone ``chain`` at a map point.

    The angles are wrapped to (-pi, pi] and a clamped joint's put inside its
    range; the end effector comes from forward kinematics with the chain's
    bone lengths unscaled (scale 1).
    """
    f = chain.fields
    limits = f["limits"]
    angles = np.array([wrap(float(theta1)), wrap(float(theta2))])
    clamped = clamped_joints(limits)
    angles = np.where(clamped, np.clip(angles, limits[:, 0], limits[:, 1]), angles)
    rx, ry = f["root"].tolist()
    end = np.array(chain_points(rx, ry, angles.tolist(), f["lengths"].tolist())[-1])
    return angles, end


def apply_pose(scene, chain, theta1: float, theta2: float) -> str | None:
    """Pose a two-bone ``chain`` of ``scene`` at a map point, so that the next steps keep it.

    Its shown angles and ``goal`` become :func:`pose_from_map`'s (in place),
    its bones unstretched (``scale`` 1); its target moves to the end effector
    (``scene.move_target``, which keeps it on the stage); Mirror bend is set to
    the branch of ``theta2`` (``theta2 < 0`` is bend -1, mirrored; ``theta2 =
    0``, the straight arm, leaves it); the joints are laid out again.

    Returns
    -------
    str or None
        A note when the next step may not keep the pose: auto bend or a pole
        picks the elbow's side itself (left on: the step may flip the branch),
        the end lay off the stage (the target was kept on it), or soft reach
        eases an end near full reach. None otherwise.
    """
    angles, end = pose_from_map(chain, theta1, theta2)
    f = chain.fields
    f["angles"][:] = angles
    f["goal"][:] = angles
    f["scale"][0] = 1.0
    scene.move_target(chain, end)
    if angles[1] != 0.0:
        chain = scene.set_setting(chain, "mirror", bool(angles[1] < 0.0))
    scene.lay_out(chain)
    notes = []
    if f["auto_bend"][0] > 0:
        notes.append("auto bend picks the elbow's side")
    if chain.pole is not None:
        notes.append("the pole picks the elbow's side")
    if not np.array_equal(f["target"], end):
        notes.append("the end was off the stage")
    l1, l2 = f["lengths"].tolist()
    ring = annulus(l1, l2, float(f["softness"][0]), float(f["stretch"][0]))
    if f["softness"][0] > 0 and math.dist(f["root"].tolist(), f["target"].tolist()) > ring.soft_start:
        notes.append("soft reach eases the end")
    return "; ".join(notes) + ": the next step may move it" if notes else None
