"""The two-bone arm's joint space: the (theta1, theta2) map, its two answers, what lies out of reach and what
obstacles forbid.

A pose is a point of ``[-pi, pi]^2`` (``theta1`` bone 1's absolute angle, ``theta2`` bone 2's relative one); a
target within reach has two, the elbow's branches (:func:`~ikplayground.solvers.solve_two_bone`, the raylib
multi-chain demo's formula). The reach depends on ``theta2`` alone: ``r = sqrt(l1^2 + l2^2 + 2 l1 l2 cos theta2)``.
A circle obstacle forbids the poses that put a bone inside it: the configuration-space obstacle of motion
planning (Lozano-Perez, "Spatial planning: a configuration space approach", 1983), here sampled on the map's
cells with the solvers' bone-to-circle gap (:func:`~ikplayground.solvers.segment_gaps`). Pixels, y down; radians.
"""

from __future__ import annotations

import math
from typing import NamedTuple, cast

import numpy as np

from ikplayground.insight.two_bone_view import annulus
from ikplayground.scene import clamped_joints
from ikplayground.solvers import chain_points, segment_gaps, solve_two_bone, wrap

TAU = 2.0 * math.pi
MASK_BUDGET = 400_000  # bone-circle gaps an obstacle mask works out at a time (its memory: some 50 bytes each)


def branches(root, target, l1: float, l2: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((theta1, theta2) of bend +1, (theta1, theta2) of bend -1)`` rad, exactly ``solve_two_bone``'s."""
    up = solve_two_bone(root, target, l1, l2, 1)
    down = solve_two_bone(root, target, l1, l2, -1)
    # one arm, so floats (the solution's fields are arrays only for a batch)
    return cast("tuple[tuple[float, float], tuple[float, float]]",
                ((up.theta1, up.theta2), (down.theta1, down.theta2)))


class MapFrame(NamedTuple):
    """The map's rect ``(x, y, w, h)`` px: ``theta1`` -pi to pi left to right, ``theta2`` -pi to pi bottom to top."""

    x: float
    y: float
    w: float
    h: float

    def to_map(self, theta1, theta2):
        """Map pixels ``(px, py)`` of angles ``theta1``, ``theta2`` rad (floats or arrays)."""
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
    """The allowed box ``(lo1, hi1, lo2, hi2)`` rad of ``limits`` (2, 2) (a free joint spans [-pi, pi]);
    None when neither joint is clamped."""
    limits = np.asarray(limits, dtype=float)
    clamped = clamped_joints(limits)
    if not clamped.any():
        return None
    (lo1, hi1), (lo2, hi2) = (limits[i].tolist() if clamped[i] else (-math.pi, math.pi) for i in range(2))
    return lo1, hi1, lo2, hi2


def row_angles(rows: int) -> np.ndarray:
    """``theta2`` (rows,) rad at the centres of ``rows`` map rows, top (near pi) first."""
    return math.pi - (np.arange(rows) + 0.5) / rows * TAU


def shade_rows(l1: float, l2: float, distance: float, rows: int) -> np.ndarray:
    """How far each map row's poses miss a target ``distance`` px from the root: (rows,) in [0, 1].

    All zeros when the target is within reach; else ``|r(theta2_i) - distance|`` over its largest value.
    """
    if abs(l1 - l2) <= distance <= l1 + l2:
        return np.zeros(rows)
    r = np.sqrt(np.maximum(l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * np.cos(row_angles(rows)), 0.0))
    gap = np.abs(r - distance)
    return gap / gap.max()


def column_angles(cols: int) -> np.ndarray:
    """``theta1`` (cols,) rad at the centres of ``cols`` map columns, left (near -pi) first."""
    return (np.arange(cols) + 0.5) / cols * TAU - math.pi


def obstacle_mask(root, l1: float, l2: float, obstacles, rows: int, cols: int | None = None) -> np.ndarray:
    """Which map cells put a bone of the arm inside an obstacle: (rows, cols) bool, rows top (``theta2`` near pi)
    first as :func:`row_angles`, columns as :func:`column_angles`.

    Parameters
    ----------
    root : (2,) px
        The arm's root (y down).
    l1, l2 : float
        Its bones' lengths, px (as drawn: a stretched arm's scaled lengths).
    obstacles : ndarray, shape (k, 3)
        Circles ``(x, y, r)`` px; a bone is inside one when some point of it is nearer the centre than ``r``
        (touching is clear).
    rows, cols : int
        The cells (``cols`` None: as many as ``rows``), at whose centres the poses are taken.
    """
    cols = rows if cols is None else cols
    blocked = np.zeros((rows, cols), dtype=bool)
    circles = np.asarray(obstacles, dtype=float).reshape(-1, 3)
    rx, ry = (float(v) for v in root)
    gaps = np.hypot(circles[:, 0] - rx, circles[:, 1] - ry) - circles[:, 2]
    circles = circles[np.flatnonzero(gaps < l1 + l2)]  # the circles the arm can meet
    if not len(circles) or rows < 1 or cols < 1:
        return blocked
    t1 = column_angles(cols)
    knee = np.stack([rx + l1 * np.cos(t1), ry + l1 * np.sin(t1)], axis=-1)  # (cols, 2)
    upper = np.stack([np.broadcast_to([rx, ry], knee.shape), knee], axis=1)  # bone 1 of each column
    blocked |= np.asarray((segment_gaps(upper, circles) < 0.0).any(axis=(-2, -1))).reshape(1, cols)
    t2 = row_angles(rows)
    step = max(1, MASK_BUDGET // (cols * len(circles)))  # rows at a time
    for top in range(0, rows, step):
        a = t1[None, :] + t2[top:top + step, None]  # bone 2's absolute angle, (chunk, cols)
        end = knee + l2 * np.stack([np.cos(a), np.sin(a)], axis=-1)
        lower = np.stack([np.broadcast_to(knee, end.shape), end], axis=-2)  # (chunk, cols, 2, 2)
        blocked[top:top + step] |= (segment_gaps(lower, circles) < 0.0).any(axis=(-2, -1))
    return blocked


def pose_from_map(chain, theta1: float, theta2: float) -> tuple[np.ndarray, np.ndarray]:
    """``(angles (2,) rad, end (2,) px)`` of a two-bone ``chain`` at a map point: wrapped, clamped joints
    kept in range, the end by forward kinematics with unscaled bones."""
    f = chain.fields
    limits = f["limits"]
    angles = np.array([wrap(float(theta1)), wrap(float(theta2))])
    clamped = clamped_joints(limits)
    angles = np.where(clamped, np.clip(angles, limits[:, 0], limits[:, 1]), angles)
    rx, ry = f["root"].tolist()
    end = np.array(chain_points(rx, ry, angles.tolist(), f["lengths"].tolist())[-1])
    return angles, end


def apply_pose(scene, chain, theta1: float, theta2: float) -> str | None:
    """Pose a two-bone ``chain`` of ``scene`` at a map point so that the next steps keep it: angles and goal
    set, bones unstretched, the target at the end, Mirror bend the branch of ``theta2``. Returns why the next step
    may move it anyway (auto bend, a pole, the stage's edge, soft reach), or None."""
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
