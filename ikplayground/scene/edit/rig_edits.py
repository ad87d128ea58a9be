"""A rig's own edits: a target's heading, weight or FK/IK mix, a joint's range, a bone's length; and their undo.

Each ``set_...`` checks its value (a ValueError naming it changes nothing) and
sets it in place, the pose laid out again; :func:`record_rig` then makes the
undoable :class:`RigEdited` from the rig's arrays before the edit (:func:`rig_state`).
A joint's range is what the playground's limit wedges show, dragged by their
edges (Spine's and Godot's per-bone constraints, docs/sources.md). Pixels, y
down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.core import joint_ranges
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import MAX_COORD
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit.edits import chain_label, changed
from ikplayground.scene.edit.history import Edit

TARGET_OPTIONS = ("heading", "weight", "mix")  # a target's options, by name (the field: its plural, or "mix")
_FIELD = {"heading": "headings", "weight": "weights", "mix": "mix"}


def _index(chain: Chain, index, count: int, what: str) -> int:
    if not chain.is_rig:
        raise ValueError(f"{chain.label} is not a rig")
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < count:
        raise ValueError(f"{what}: must be 0 to {count - 1} (got {index!r})")
    return int(index)


def set_target_option(scene: Scene, chain: Chain, index: int, name: str, value) -> None:
    """Set target ``index``'s ``name`` (``TARGET_OPTIONS``): a heading in rad (None or NaN: none), a weight > 0,
    a mix 0..1."""
    index = _index(chain, index, len(chain.fields["targets"]), "target")
    if name not in TARGET_OPTIONS:
        raise ValueError(f"name: must be one of {', '.join(TARGET_OPTIONS)} (got {name!r})")
    v = math.nan if name == "heading" and value is None else value
    if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name}: must be a number (got {value!r})")
    v = float(v)
    bad = ((name == "heading" and (math.isinf(v) or abs(v) > MAX_COORD))
           or (name == "weight" and not 0.0 < v <= MAX_COORD) or (name == "mix" and not 0.0 <= v <= 1.0))
    if bad:
        raise ValueError(f"{name}: out of range (got {value!r})")
    chain.fields[_FIELD[name]][index] = v


def set_range(scene: Scene, chain: Chain, bone: int, lo: float, hi: float) -> None:
    """Set bone ``bone``'s range to ``lo..hi`` rad (``-pi <= lo <= hi <= pi``; bone 0's on its heading); its shown
    angle, the solver's answer and the rest pose are put inside it."""
    joint_ranges.set_range(chain, _index(chain, bone, chain.bones, "bone"), lo, hi)
    scene.lay_out(chain)


def set_bone_length(scene: Scene, chain: Chain, bone: int, length: float) -> None:
    """Set bone ``bone``'s length, px (> 0, at most ``MAX_COORD``); the bones after it move along."""
    bone = _index(chain, bone, chain.bones, "bone")
    if isinstance(length, bool) or not 0.0 < float(length) <= MAX_COORD:
        raise ValueError(f"length: must be > 0 and <= {MAX_COORD:g} px (got {length!r})")
    chain.fields["lengths"][bone] = float(length)
    scene.lay_out(chain)


def rig_state(chain: Chain) -> dict[str, np.ndarray]:
    """Copies of all a rig's arrays (what :func:`record_rig` compares)."""
    return {name: a.copy() for name, a in chain.fields.items()}


class RigEdited(Edit):
    """The rig at ``index`` was edited (``label``): the arrays it changed, ``start`` to ``end``, put back whole."""

    def __init__(self, scene: Scene, index: int, label: str, start: dict, end: dict):
        super().__init__(label, lambda: self._put(self.start), lambda: self._put(self.end))
        self.scene, self.index, self.start, self.end = scene, index, start, end

    def _put(self, arrays: dict) -> Chain:
        chain = self.scene.chains[self.index]
        for name, value in arrays.items():
            chain.fields[name][...] = value
        self.scene.lay_out(chain)
        return chain

    def absorb(self, newer: Edit) -> bool:
        """One entry for one drag of a wedge's edge: the same rig, the same edit."""
        if not (isinstance(newer, RigEdited) and newer.scene is self.scene and newer.index == self.index
                and newer.label == self.label):
            return False
        self.start = {**newer.start, **self.start}
        self.end = {**self.end, **newer.end}
        return True


def record_rig(scene: Scene, chain: Chain, what: str, start: dict) -> RigEdited | None:
    """The edit ``what`` ("range of bone 3") just made on ``chain``, from its arrays ``start`` (a
    :func:`rig_state`); None when nothing changed."""
    if chain not in scene.chains:
        return None
    now = rig_state(chain)
    was = changed(start, now)
    if not was:
        return None
    return RigEdited(scene, scene.chains.index(chain), f"{what} on {chain_label(chain)}", was,
                     {k: now[k] for k in was})
