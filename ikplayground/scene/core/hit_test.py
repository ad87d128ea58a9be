"""Which chain is under a point of the stage; "topmost" is the chain drawn last. Pixels, y down."""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.core.chain import Chain


def target_at(groups, order: dict[int, int], pos, radius: float) -> Chain | None:
    """The topmost IK chain or pinned rope of ``groups`` with its target within ``radius`` px of ``pos``
    (``order``: draw order)."""
    p = np.asarray(pos, dtype=float)
    best, best_index = None, -1
    for g in groups:
        if "target" not in g.fields:  # a snake, walker or rig
            continue
        d = g.fields["target"] - p
        near = np.einsum("ij,ij->i", d, d) <= radius * radius
        if "pin_end" in g.fields:  # a rope's target is there to drag only with "Pin end" on
            near &= g.fields["pin_end"][:, 0] > 0
        for row in np.flatnonzero(near).tolist():
            chain = g.members[row]
            index = order[id(chain)]
            if index > best_index:
                best, best_index = chain, index
    return best


def rig_target_at(groups, order: dict[int, int], pos, radius: float) -> tuple[Chain, str] | None:
    """The topmost rig or path chain of ``groups`` with a target or a control point within ``radius`` px of ``pos``
    and which (``"target:2"``, ``"control:1"``; the last of them there), or None (``order``: draw order)."""
    p = np.asarray(pos, dtype=float)
    best, best_index = None, -1
    for g in groups:
        name = "targets" if "targets" in g.fields else "control" if "control" in g.fields else None
        if name is None:
            continue
        d = g.fields[name] - p
        near = np.einsum("ijk,ijk->ij", d, d) <= radius * radius
        part = "target" if name == "targets" else "control"
        for row, index in zip(*np.nonzero(near)):
            chain = g.members[int(row)]
            if order[id(chain)] >= best_index:
                best, best_index = (chain, f"{part}:{int(index)}"), order[id(chain)]
    return best


def bone_distances(chain: Chain, pos) -> np.ndarray:
    """How far (n,) px each bone of ``chain`` is from ``pos`` (a rig's bones from their parents' ends; a walker's
    segments as its points run)."""
    p = np.asarray(pos, dtype=float)
    pts = chain.fields["points"]
    a, b = (pts[chain.fields["parents"].astype(int) + 1] if chain.is_rig else pts[:-1]), pts[1:]
    ab = b - a
    denom = np.einsum("ij,ij->i", ab, ab)
    t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.where(denom > 0, denom, 1.0), 0.0, 1.0)
    return np.hypot(*(a + t[:, None] * ab - p).T)


def chain_at(chains: list[Chain], pos, radius: float) -> tuple[Chain, str] | None:
    """The topmost of ``chains`` with a bone or joint within ``radius`` px of ``pos``: ``(chain, part)``,
    ``part`` "anchor" (an IK chain's, a rig's or a rope's root, any part of a snake, walker or path chain) or
    "bone".
    """
    for c in reversed(chains):
        if bone_distances(c, pos).min() <= radius or (c.is_walker and math.dist(pos, c.anchor) <= radius * 3):
            if not (c.has_targets or c.is_rope) or math.dist(pos, c.anchor) <= radius * 1.5:
                return c, "anchor"
            return c, "bone"
    return None
