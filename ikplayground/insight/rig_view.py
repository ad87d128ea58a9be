"""What "Show the math" draws over a rig, as primitives (:mod:`.primitives`).

A rig is solved by multi-end-effector FABRIK (Aristidou and Lasenby 2011: where branches meet, a *sub-base*
takes the average of the positions its branches ask for) or by damped least squares on the stacked Jacobian
(docs/sources.md). The view shows what a learner needs to follow it: the ghost of the solver's goal pose, each
limited joint's range as an arc about its parent bone with a needle at its angle, every sub-base (a bone end
with two or more children) as a ring, each target's error line with its length, and each heading's error; its
appendages' velocities and rest pose (:mod:`.motion_view`).
Pixels, y down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.insight.chain_view import (AT_END, ERROR_MIN_PX, GHOST_FADE, GHOST_MIN_PX, LABEL_GAP, LIMIT_RADIUS,
                                             LIMIT_SHARE, NEEDLE_EXTRA, arcs_points)
from ikplayground.insight.motion_view import appendage_view
from ikplayground.insight.primitives import Circle, Label, Polyline, Primitive
from ikplayground.scene import clamped_joints
from ikplayground.solvers import absolute_angles, skeleton_points

SUB_BASE_RING = 9.0  # px: a sub-base's ring


def starts_and_headings(f: dict, angles) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rig's bone starts and ends (n, 2) px and each bone's absolute direction (n,) rad for ``angles``."""
    parents = f["parents"].astype(int)
    ends = skeleton_points(parents, f["root"], angles, f["lengths"])
    starts = np.vstack([f["root"][None], ends])[parents + 1]
    return starts, ends, np.array(absolute_angles(parents.tolist(), list(angles)))


def rig_ghost(f: dict) -> list:
    """The goal pose, a faint stroke a bone (role "ghost"), while the shown pose lags it by ``GHOST_MIN_PX``."""
    starts, ends, _ = starts_and_headings(f, f["goal"])
    if not np.max(np.hypot(*(ends - f["points"][1:]).T)) >= GHOST_MIN_PX:
        return []
    return [Polyline(np.stack([a, b]), "ghost", width=2, fade=GHOST_FADE) for a, b in zip(starts, ends)]


def rig_limit_arcs(f: dict) -> list:
    """Each limited joint's range about its parent bone (bone 0's absolute) as an arc ("limit") with a needle at
    its angle ("needle", "needle_hot" at an end of its range)."""
    clamped = clamped_joints(f["limits"])
    if not clamped.any():
        return []
    idx = np.flatnonzero(clamped)
    starts, _, heading = starts_and_headings(f, f["angles"])
    parents = f["parents"].astype(int)[idx]
    base = np.where(parents >= 0, heading[np.maximum(parents, 0)], 0.0)
    lo, hi, a = f["limits"][idx, 0], f["limits"][idx, 1], f["angles"][idx]
    radius = np.minimum(LIMIT_RADIUS, LIMIT_SHARE * f["lengths"][idx])
    arcs = arcs_points(starts[idx], radius, base + lo, base + hi)
    hot = ((np.abs(a - lo) <= AT_END) | (np.abs(a - hi) <= AT_END)).tolist()
    turn = base + a
    tips = starts[idx] + (radius + NEEDLE_EXTRA)[:, None] * np.stack([np.cos(turn), np.sin(turn)], axis=1)
    out: list[Primitive] = []
    for k in range(len(idx)):
        out.append(Polyline(arcs[k], "limit"))
        out.append(Polyline(np.stack([starts[idx][k], tips[k]]), "needle_hot" if hot[k] else "needle", width=2))
    return out


def sub_bases(f: dict) -> list:
    """A ring ("step") at every bone end two or more bones start from (where FABRIK's branches meet)."""
    parents = f["parents"].astype(int)
    counts = np.bincount(parents[parents >= 0], minlength=len(parents))
    return [Circle(f["points"][1 + i].copy(), SUB_BASE_RING, "step", width=2) for i in np.flatnonzero(counts >= 2)]


def heading_misses(f: dict) -> np.ndarray:
    """How far (k,) rad each target's bone points from its heading, >= 0 (NaN for a target without one)."""
    heading = starts_and_headings(f, f["angles"])[2][f["target_bones"].astype(int)]
    return np.abs(np.remainder(heading - f["headings"] + np.pi, 2 * np.pi) - np.pi)


def target_errors(f: dict) -> list:
    """Each target's error line ("error", from its bone's end) with its length in px, and a heading's error in
    degrees where the bone is aimed."""
    out: list[Primitive] = []
    ends, misses = f["points"][1:], heading_misses(f).tolist()
    for k, bone in enumerate(f["target_bones"].astype(int).tolist()):
        tip, target = ends[bone], f["targets"][k]
        d = target - tip
        length = math.hypot(d[0], d[1])
        words = []
        if length >= ERROR_MIN_PX:
            out.append(Polyline(np.stack([tip, target]), "error"))
            words.append(f"{length:.1f} px")
        if misses[k] >= math.radians(0.05):  # (NaN: no heading, never true)
            words.append(f"{math.degrees(misses[k]):.1f}°")
        if words:
            out.append(Label(target + (0.0, -LABEL_GAP - 12.0), " ".join(words), "error"))
    return out


def rig_overlay(chain) -> list:
    """Everything "Show the math" draws over a rig, bottom to top."""
    f = chain.fields
    return rig_ghost(f) + appendage_view(chain) + rig_limit_arcs(f) + sub_bases(f) + target_errors(f)
