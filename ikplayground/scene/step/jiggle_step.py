"""Jiggle bones as a per-chain setting: an IK chain's or a snake's shown pose follows its step's pose with inertia.

After a group's step has its pose (an IK chain: solve, mix, rate limit, forward kinematics; a snake: follow the
leader), the rows whose "Jiggle" stiffness is below ``JIGGLE_OFF`` take one
:func:`~ikplayground.solvers.jiggle_rows` step (Jakobsen's "Advanced Character Physics", GDC 2001; Godot's jiggle
bones, Spine 4.2's physics constraints) from where they were shown, their rest pose that step's pose: its relative
angles, hung from the chain's root (a snake's head, so its tail jiggles behind the head). The pose the next step
starts from is never the jiggled one (docs/design.md, "Jiggle bones"): an IK solve warm-starts from its own
answer (``goal``) and the rate limit from ``angles``, which stay the un-jiggled pose; a snake keeps its un-jiggled
body in ``rest_points`` and follows the leader from it. ``points`` is what is shown (drawn, hit, recorded, baked);
``previous`` the shown joints a step ago (Verlet's velocity). Pixels, y down; radians; a step is ``DT``.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.constants import JIGGLE_OFF
from ikplayground.solvers import jiggle_rows

DT = 1.0 / 60.0  # s: a step (the jiggle gravity's px/s^2 fall ``gravity * DT**2`` px a step)


def jiggling(f: dict[str, np.ndarray]) -> np.ndarray:
    """The rows (int indices) of a group's fields ``f`` whose jiggle is on (stiffness below ``JIGGLE_OFF``)."""
    return np.flatnonzero(f["jiggle"][:, 0] < JIGGLE_OFF)


def at_rest(f: dict[str, np.ndarray]) -> None:
    """Put a chain's (or a group's) jiggle at rest on its shown pose, in place: no velocity (``previous`` the
    points), and a snake's un-jiggled body the shown one."""
    f["previous"][...] = f["points"]
    if "rest_points" in f:
        f["rest_points"][...] = f["points"]


def _follow(f: dict[str, np.ndarray], rows: np.ndarray, shown: np.ndarray, root: np.ndarray, angles: np.ndarray,
            lengths: np.ndarray, limits: np.ndarray | None) -> None:
    """One jiggle step of ``rows`` from ``shown`` (k, n + 1, 2) px toward the pose of relative ``angles`` (k, n)
    rad (the first absolute) from ``root`` (k, 2): ``points`` the result, ``previous`` ``shown``."""
    gravity = np.zeros((len(rows), 2))
    gravity[:, 1] = f["jiggle_gravity"][rows, 0]
    stiffness = np.clip(f["jiggle"][rows, 0], 0.0, 1.0)
    damping = np.clip(f["jiggle_damping"][rows, 0], 0.0, 1.0)
    new = jiggle_rows(shown, f["previous"][rows], lengths, root, np.zeros(len(rows)), angles, stiffness, damping,
                      gravity, DT, limits)
    f["previous"][rows] = shown
    f["points"][rows] = new


def jiggle_ik(f: dict[str, np.ndarray], rows: np.ndarray, shown: np.ndarray, limited: bool) -> None:
    """After a group of IK chains' step (fields ``f``, in place): its jiggling ``rows`` follow the step's pose
    (``angles``, their ``points`` now its forward kinematics) from ``shown`` (k, n + 1, 2) px, where they were
    shown before the step; their ``error`` (px) is the shown tip's. ``limited``: keep each relative angle in its
    range (``limits``)."""
    limits = f["limits"][rows] if limited else None
    _follow(f, rows, shown, f["root"][rows], f["angles"][rows],
            f["lengths"][rows] * f["scale"][rows], limits)
    tip = f["points"][rows, -1]
    f["error"][rows, 0] = np.hypot(f["target"][rows, 0] - tip[:, 0], f["target"][rows, 1] - tip[:, 1])


def snake_rest(f: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """Before a group of snakes' step: the jiggling ``rows``' shown nodes (k, n + 1, 2) px (a copy), their
    ``points`` now their un-jiggled bodies (``rest_points``), which the step follows the leader from. A row moved
    by an edit since it was shown (its head not where its rest body's is) starts again at rest where it is."""
    shown = f["points"][rows]
    moved = np.any(f["rest_points"][rows, 0] != shown[:, 0], axis=1)
    if moved.any():
        at = rows[moved]
        f["rest_points"][at] = shown[moved]
        f["previous"][at] = shown[moved]
    f["points"][rows] = f["rest_points"][rows]
    return shown


def jiggle_snakes(f: dict[str, np.ndarray], rows: np.ndarray, shown: np.ndarray, angles: np.ndarray) -> None:
    """After a group of snakes' step: the jiggling ``rows``' bodies (``points``, un-jiggled) kept as
    ``rest_points``, and their shown nodes following them from ``shown`` (:func:`snake_rest`) by a jiggle step hung
    from the head, the bends kept in ``bend_limits``; ``angles`` (k, n) rad: the bodies' (``snake_angles``)."""
    body = f["points"][rows]
    f["rest_points"][rows] = body
    n = angles.shape[1]
    limits = np.empty((len(rows), n, 2))
    limits[:, 0] = (-np.pi, np.pi)
    limits[:, 1:] = f["bend_limits"][rows, None, :]
    _follow(f, rows, shown, body[:, 0], angles, f["lengths"][rows], limits)
