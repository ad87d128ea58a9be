"""Undoable moves: one drag of a target (a rig's: ``"target:2"``), a path chain's control point (``"control:1"``),
a pole or a root, and a two-bone arm posed on
the joint-space map.

Each is an :class:`~.history.Edit` made when the drag ends; a chain is named by
its index in ``scene.chains``. Pixels, y down; radians.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.core.joint_ranges import joint_name, limit_edge
from ikplayground.scene.core.stage import control_index, heading_index, move_controls, target_index
from ikplayground.scene.edit.edits import chain_label, changed
from ikplayground.scene.edit.history import Edit


def where(chain: Chain, part: str) -> dict[str, np.ndarray]:
    """Copies of what a move of ``part`` ("target", "pole", "root", or a rig's "target:2", "heading:2" or
    "limit_lo:3") of ``chain`` changes."""
    edge = limit_edge(chain, part)
    if edge is not None:
        return {part: chain.fields["limits"][edge[0]].copy()}
    if chain.is_rig and part.startswith("heading:"):
        index = heading_index(chain, part)
        return {} if index is None else {part: chain.fields["headings"][index:index + 1].copy()}
    if chain.is_rig and part != "root":
        index = target_index(chain, part)
        return {} if index is None else {part: chain.fields["targets"][index].copy()}
    if chain.is_path:  # a handle, or the whole curve (its root dragged)
        index = control_index(chain, part)
        return {"control": chain.fields["control"].copy()} if part == "root" or index is not None else {}
    if part != "root":
        return {part: chain.fields[part].copy()}
    spot = {"anchor": chain.anchor.copy()}
    if chain.is_ik:
        spot.update(target=chain.fields["target"].copy(), pole=chain.fields["pole"].copy())
    if chain.is_rig:
        spot.update(targets=chain.fields["targets"].copy())
    return spot


class Moved(Edit):
    """The mouse moved ``part`` ("target", "pole" or "root", a rig's target or heading, an edge of a joint's range)
    of the chain at ``index`` from ``start`` to ``end``."""

    def __init__(self, scene: Scene, index: int, part: str, start: dict, end: dict, chain: Chain):
        edge = limit_edge(chain, part)
        what = f"{part} move" if edge is None else f"{joint_name(chain, edge[0])}'s range"
        super().__init__(f"{what} on {chain_label(chain)}", lambda: self._put(self.start),
                         lambda: self._put(self.end))
        self.scene, self.index, self.part, self.start, self.end = scene, index, part, start, end

    def _put(self, spot: dict) -> Chain:
        chain = self.scene.chains[self.index]
        edge = limit_edge(chain, self.part)
        if edge is not None:  # the range itself, exactly
            chain.fields["limits"][edge[0]] = spot[self.part]
            return chain
        index = heading_index(chain, self.part)
        if index is not None:  # the heading itself, exactly (not the direction to a point)
            chain.fields["headings"][index] = spot[self.part][0]
            return chain
        if chain.is_path and "control" in spot:  # every control point exactly where it was, then onto the stage
            move_controls(chain, spot["control"])
            self.scene.keep_on_stage(chain)
            return chain
        if self.part != "root":
            self.scene.move_target(chain, spot[self.part], self.part)
            return chain
        self.scene.move_chain(chain, spot["anchor"])
        for name in ("target", "pole", "targets"):  # exactly where they were, though the stage's edge stopped them
            if name in spot:
                chain.fields[name][:] = spot[name]
        self.scene.keep_on_stage(chain)  # the stage may have shrunk since
        return chain


def record_move(scene: Scene, chain: Chain, part: str, start: dict) -> Moved | None:
    """The drag of ``part`` of ``chain`` from ``start`` (a :func:`where`); None if nothing moved."""
    if chain not in scene.chains or (part == "pole" and chain.pole is None):
        return None
    end = where(chain, part)
    if not changed(start, end):
        return None
    return Moved(scene, scene.chains.index(chain), part, start, end, chain)


POSE = ("angles", "goal", "scale", "bend", "target")  # what the joint-space map sets on a two-bone arm


def pose(chain: Chain) -> dict[str, np.ndarray]:
    """Copies of a two-bone arm's pose as the joint-space map sets it (``POSE``)."""
    return {name: chain.fields[name].copy() for name in POSE}


class Posed(Edit):
    """The two-bone arm at ``index`` was posed on the joint-space map, ``start`` to ``end``: one entry a drag."""

    def __init__(self, scene: Scene, index: int, start: dict, end: dict, chain: Chain):
        super().__init__(f"map pose on {chain_label(chain)}", lambda: self._put(self.start),
                         lambda: self._put(self.end))
        self.scene, self.index, self.start, self.end = scene, index, start, end

    def _put(self, p: dict) -> Chain:
        chain = self.scene.chains[self.index]
        for name in ("angles", "goal", "scale", "bend"):
            chain.fields[name][...] = p[name]
        self.scene.move_target(chain, p["target"])
        self.scene.lay_out(chain)
        return chain

    def absorb(self, newer: Edit) -> bool:
        if not (isinstance(newer, Posed) and newer.scene is self.scene and newer.index == self.index):
            return False
        self.end = newer.end
        return True


def record_pose(scene: Scene, chain: Chain, start: dict) -> Posed | None:
    """The map pose of ``chain`` just set, from ``start`` (a :func:`pose`); None when nothing changed."""
    end = pose(chain)
    if chain not in scene.chains or not changed(start, end):
        return None
    return Posed(scene, scene.chains.index(chain), start, end, chain)
