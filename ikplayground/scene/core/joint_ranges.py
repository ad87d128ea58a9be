"""One joint's range at a time, for a CCD, FABRIK or DLS chain, a two-bone arm's elbow and a rig's bones.

What the limit wedges' edges drag (``"limit_lo:3"``, ``"limit_hi:3"``: the edge turns about the joint, never
past the other bound), a range set whole, and how the status line names a range.
A chain is a tree whose bone ``i`` hangs from bone ``i - 1``, so one implementation serves chains and rigs:
joint ``i``'s range ``limits[i] = (lo, hi)`` is on bone ``i``'s angle relative to its parent's direction (bone
0's on its heading), drawn about the bone's start (Spine's and Godot's per-bone constraints, docs/sources.md).
Pixels, y down; radians (degrees only in :func:`range_text`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ikplayground.scene.core.solver_kinds import has_trait
from ikplayground.solvers import FULL_CIRCLE, absolute_angles, limit_headings, wrap_array

if TYPE_CHECKING:  # (the settings' puts use this module, and the chain is made from the settings)
    from ikplayground.scene.core.chain import Chain

ELBOW = 1  # a two-bone arm's one range the user sets: its elbow's (joint 1)


def tree_parents(f) -> np.ndarray:
    """Each bone's parent (n,) ints: a rig's ``parents``, a chain's the bone before it (-1 for bone 0)."""
    return f["parents"].astype(int) if "parents" in f else np.arange(len(f["lengths"])) - 1


def settable(chain: Chain) -> np.ndarray:
    """Which joints' ranges (n,) bool the user sets: every bone of a rig or an iterative chain, a two-bone arm's
    elbow, none of a snake's or a walker's (a snake has its bend range)."""
    n = chain.bones
    if chain.is_rig or (chain.is_ik and has_trait(chain.solver, ("iterative",))):
        return np.ones(n, dtype=bool)
    return np.arange(n) == ELBOW if chain.solver == "two-bone" else np.zeros(n, dtype=bool)


def limit_edge(chain: Chain, part: str) -> tuple[int, int] | None:
    """Which edge of which joint's range ``part`` names: ``(joint, 0)`` for "limit_lo:3", ``(joint, 1)`` for
    "limit_hi:3", or None (not an edge, or of a joint whose range the user does not set)."""
    head, _, index = part.partition(":")
    if head not in ("limit_lo", "limit_hi") or not index.isdigit() or not (chain.is_rig or chain.is_ik):
        return None
    joint = int(index)
    return (joint, int(head == "limit_hi")) if joint < chain.bones and settable(chain)[joint] else None


def parent_heading(chain: Chain, joint: int) -> float:
    """The absolute direction (rad) joint ``joint``'s angle is measured from: its parent bone's (0 for bone 0)."""
    f = chain.fields
    parents = tree_parents(f).tolist()
    p = parents[joint]
    return absolute_angles(parents, f["angles"].tolist())[p] if p >= 0 else 0.0


def move_limit(chain: Chain, pos, part: str) -> bool:
    """Turn an edge of a joint's range (``"limit_lo:3"``, ``"limit_hi:3"``) to point from the bone's start at
    ``pos`` (2,) px: the range's bound becomes that direction about the parent bone, wrapped to [-pi, pi] and
    never past the other bound; whether ``part`` names an edge."""
    edge = limit_edge(chain, part)
    if edge is None:
        return False
    joint, side = edge
    f = chain.fields
    start = f["points"][tree_parents(f)[joint] + 1]
    d = np.asarray(pos, dtype=float) - start
    if d[0] or d[1]:
        a = float(np.remainder(np.arctan2(d[1], d[0]) - parent_heading(chain, joint) + np.pi, 2 * np.pi) - np.pi)
        lim = f["limits"][joint]
        lim[side] = max(a, lim[0]) if side else min(a, lim[1])
    return True


def clamped(angles: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Angles (n,) rad wrapped, each limited one put in its range (joint 0's as a heading, round the circle)."""
    free = (limits[:, 1] - limits[:, 0]) >= FULL_CIRCLE
    inside = (angles >= limits[:, 0]) & (angles <= limits[:, 1])
    out = np.where(free | inside, np.where(inside, angles, wrap_array(angles)), np.clip(angles, *limits.T))
    if not free[0] and not inside[0]:
        out[0] = limit_headings(np.array([angles[0]]), limits[:1, 0], limits[:1, 1])[0]
    return out


def set_range(chain: Chain, joint: int, lo: float, hi: float) -> None:
    """Set joint ``joint``'s range to ``lo..hi`` rad (checked: ``-pi <= lo <= hi <= pi``, else ValueError, nothing
    changed); the shown angles, the solver's last answer and a rig's rest pose are put inside it. The caller lays
    the chain out again."""
    lo, hi = float(lo), float(hi)
    if not -math.pi <= lo <= hi <= math.pi:
        raise ValueError(f"range: must have -pi <= lo <= hi <= pi rad (got {lo!r}, {hi!r})")
    f = chain.fields
    f["limits"][joint] = (lo, hi)
    for name in ("angles", "goal", "rest"):
        if name in f:
            f[name][:] = clamped(f[name], f["limits"])


def joint_name(chain: Chain, joint: int) -> str:
    """How the status line names joint ``joint``: a rig's bone's name, a two-bone arm's "elbow", "joint 3"."""
    if chain.is_rig and joint < len(chain.bone_names):
        return chain.bone_names[joint]
    return "elbow" if chain.solver == "two-bone" and joint == ELBOW else f"joint {joint}"


def range_text(chain: Chain, joint: int) -> str:
    """The status line's words for joint ``joint``'s range: ``"CCD #3, joint 2: -30° to 45°"`` (or "free")."""
    lo, hi = chain.fields["limits"][joint].tolist()
    turns = "free" if hi - lo >= FULL_CIRCLE else f"{_degrees(lo)}° to {_degrees(hi)}°"
    return f"{chain.label}, {joint_name(chain, joint)}: {turns}"


def _degrees(a: float) -> str:
    text = f"{math.degrees(a):.0f}"
    return "0" if text == "-0" else text
