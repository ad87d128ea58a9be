"""The scene's undoable edits: adding and removing a chain, a setting, a move, a pose.

Each is an :class:`~.history.Edit` of one scene, made just after the edit it
records. A chain is named by its index in ``scene.chains``, which stays right
under last-in-first-out undo. Chains held outside the scene keep fields of
their own (:func:`detach`). A setting edit that built a new chain swaps the two
back (``Scene.replace``); one in place is undone through ``Scene.set_setting``
with the old value, then the changed parameter arrays (``PARAMETERS``) and the
pose still as the edit left it get their old values exactly.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core import ik_options, settings
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import SOLVER_LABELS
from ikplayground.scene.core.solver_kinds import SOLVER_KINDS
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit.history import Edit, Refused

# The arrays a setting may change in place (everything else is pose and per-step state).
PARAMETERS = {
    "ik": ("lengths", "limits", "rate", "bend", "iterations", "tolerance", "pole", "motion", "motion_speed",
           "motion_size", *(s.field for s in ik_options.OPTION_SETTINGS)),
    "snake": ("lengths", "bend_limits", "rate", "max_speed", "turn_rate", "wander", "jiggle", "jiggle_damping",
              "jiggle_gravity"),
    "walker": ("lengths", "rate", "threshold", "step_height", "speed", "auto"),
    "rig": ("lengths", "limits", "rate", "iterations", "tolerance", "method", "weights", "mix", "headings"),
    "rope": ("lengths", "pin_end", "gravity", "damping"),
    "path": ("lengths", "start", "slide"),
}
SHAPE = ("lengths", "limits", "bend_limits")  # restored: the joints are laid out again
NOUNS = {"bones": "bone count"}  # a setting's name in an edit's label, where its label would not do
TIGHT_UNITS = ("°", "×")  # written right after the number


def chain_label(chain: Chain) -> str:
    """"CCD #3": the chain's solver and number (or name), as the status line names it (``Chain.label``)."""
    return chain.label


def detach(chain: Chain) -> Chain:
    """Give ``chain`` (out of the scene now) arrays of its own: it keeps its numbers, and no group's arrays."""
    chain.fields = {name: np.array(a, copy=True) for name, a in chain.fields.items()}
    return chain


def _kind(chain: Chain) -> str:
    return SOLVER_KINDS[chain.solver].kind


def changed(before: dict, after: dict) -> dict:
    """The arrays of ``before`` that differ from ``after`` (NaN equal to NaN)."""
    return {k: v for k, v in before.items() if k in after and not np.array_equal(v, after[k], equal_nan=True)}


def value_text(name: str, value) -> str:
    """A setting's value as an edit's label gives it: "on" / "off", a choice, a number with its unit."""
    if name == "solver":
        return SOLVER_LABELS.get(value, str(value))
    s = settings.BY_NAME[name]
    if s.kind == "flag":
        return "on" if value else "off"
    if s.kind == "choice":
        return str(value)
    number = f"{int(round(value))}" if s.kind == "whole" else f"{value:.{s.digits}f}"
    sign = "±" if s.label.endswith("±") else ""
    unit = s.unit if not s.unit or s.unit.startswith(TIGHT_UNITS) else f" {s.unit}"
    return f"{sign}{number}{unit}"


def setting_noun(name: str) -> str:
    """"bone count", "rate limit", "joint limit": what an edit's label calls setting ``name``."""
    if name in NOUNS:
        return NOUNS[name]
    if name == "solver":
        return "solver"
    s = settings.BY_NAME[name]
    label = s.label.removesuffix("±").strip()
    if s.kind == "flag":
        label = label.removesuffix(" on")
    return label[0].lower() + label[1:] if label[1:2].islower() else label


def read_setting(chain: Chain, name: str):
    """The value of setting ``name`` (or "solver") on ``chain``."""
    return chain.solver if name == "solver" else settings.BY_NAME[name].read(chain)


def put_setting(scene: Scene, chain: Chain, name: str, value) -> Chain:
    """Set ``name`` (a setting, or "solver") on ``chain`` through the scene; the chain now in its place."""
    return scene.set_solver(chain, value) if name == "solver" else scene.set_setting(chain, name, value)


def _put_back(scene: Scene, index: int, chain: Chain) -> Chain:
    """``chain`` back into ``scene`` at ``index``, selected, on the stage (which may have shrunk meanwhile)."""
    scene.insert(index, chain)
    scene.keep_on_stage(chain)
    return chain


class ChainAdded(Edit):
    """``chain`` was added to ``scene`` at ``index`` (N, the Add button)."""

    def __init__(self, scene: Scene, index: int, chain: Chain):
        super().__init__(f"add {chain_label(chain)}", weight=1)
        self.scene, self.index, self.chain = scene, index, chain

    def undo(self):
        self.scene.remove(detach(self.scene.chains[self.index]))
        return self.scene.selected

    def redo(self):
        return _put_back(self.scene, self.index, self.chain)


class ChainRemoved(Edit):
    """``chain`` was removed from ``scene``, where it was at ``index`` (Backspace, Delete, Remove)."""

    def __init__(self, scene: Scene, index: int, chain: Chain):
        super().__init__(f"remove {chain_label(chain)}", weight=1)
        self.scene, self.index, self.chain = scene, index, detach(chain)

    def undo(self):
        return _put_back(self.scene, self.index, self.chain)

    def redo(self):
        self.scene.remove(detach(self.scene.chains[self.index]))
        return self.scene.selected


class Flipped(Edit):
    """The chain at ``index`` was mirror-flipped (H): undone and redone by flipping it again."""

    def __init__(self, scene: Scene, index: int, chain: Chain):
        super().__init__(f"mirror flip of {chain_label(chain)}")
        self.scene, self.index = scene, index

    def undo(self):
        chain = self.scene.chains[self.index]
        try:
            self.scene.flip(chain)
        except ValueError as e:  # its target moved on, or the stage shrank: the image would leave the stage
            raise Refused(str(e)) from e
        return chain

    redo = undo


class SettingEdit(Edit):
    """Setting ``name`` (or "solver") of the chain at ``index`` went from ``old`` to ``new``.

    ``before`` and ``after``: the chain then and the chain in its place now (one object for an edit in
    place, whose ``delta`` holds the arrays it changed, (before, after)); ``who`` names it ("CCD #3").
    """

    def __init__(self, scene: Scene, index: int, name: str, old, new, before: Chain, after: Chain,
                 delta: tuple[dict, dict] | None = None, who: str | None = None):
        self.who = who or chain_label(before)
        super().__init__("", weight=0 if before is after else 2)
        self.scene, self.index, self.name = scene, index, name
        self.old, self.new, self.before, self.after = old, new, before, after
        self.delta = delta
        self._name_it()

    def _name_it(self) -> None:
        self.label = f"{setting_noun(self.name)} {value_text(self.name, self.old)} → " \
                     f"{value_text(self.name, self.new)} on {self.who}"

    def _swap(self, back: Chain) -> Chain:
        out = self.scene.chains[self.index]
        self.scene.replace(out, back)
        detach(out)
        self.scene.keep_on_stage(back)  # the stage may have shrunk meanwhile
        self.scene.select(back)
        return back

    def _set(self, value, want: dict, left: dict) -> Chain:
        """Set ``value`` through the scene, then the arrays of ``want`` still as the edit ``left`` them."""
        chain = self.scene.chains[self.index]
        params = PARAMETERS[_kind(chain)]
        untouched = all(np.array_equal(chain.fields[k], left[k], equal_nan=True) for k in want if k not in params)
        put_setting(self.scene, chain, self.name, value)
        restored = [k for k in want if k in params or untouched]  # the pose whole, or not at all
        for k in restored:
            chain.fields[k][...] = want[k]
        if set(restored) & set(SHAPE) and "points" not in restored:
            self.scene.lay_out(chain)
        return chain

    def undo(self):
        if self.before is not self.after:
            return self._swap(self.before)
        return self._set(self.old, *self.delta)

    def redo(self):
        if self.before is not self.after:
            return self._swap(self.after)
        return self._set(self.new, self.delta[1], self.delta[0])

    def absorb(self, newer: Edit) -> bool:
        """One entry for a slider dragged: ``newer`` edits the same setting of the chain, the same way."""
        if not (isinstance(newer, SettingEdit) and newer.scene is self.scene and newer.index == self.index
                and newer.name == self.name and newer.before is self.after
                and (self.before is self.after) == (newer.before is newer.after)):
            return False
        if self.delta is not None:  # from the first state to the last, through the one between
            assert newer.delta is not None  # in place too (checked above), so it has its delta
            (b0, a0), (b1, a1) = self.delta, newer.delta
            self.delta = ({**b1, **b0}, {**a0, **a1})
        else:
            detach(self.after)  # a chain between, out of the scene: nothing holds it now
        self.new, self.after = newer.new, newer.after
        self._name_it()
        return True


def snapshot(chain: Chain) -> dict[str, np.ndarray]:
    """Copies of all ``chain``'s arrays."""
    return {name: a.copy() for name, a in chain.fields.items()}


def record_setting(scene: Scene, name: str, old, before: Chain, after: Chain, arrays: dict | None,
                   who: str | None = None) -> SettingEdit | None:
    """The edit of setting ``name`` just made, from the chain ``before`` (``old``, ``arrays``, ``who``)
    to ``after``; None when nothing changed.
    """
    new = read_setting(after, name)
    index = scene.chains.index(after)
    if before is not after:
        detach(before)
        return SettingEdit(scene, index, name, old, new, before, after, who=who)
    now = snapshot(after)
    assert arrays is not None  # an edit in place comes with the snapshot from before it
    was = changed(arrays, now)
    if old == new and not was:
        return None
    return SettingEdit(scene, index, name, old, new, after, after, (was, {k: now[k] for k in was}), who)


def set_recorded(scene: Scene, chain: Chain, name: str, value) -> tuple[Chain, SettingEdit | None]:
    """Set ``name`` (or "solver") of ``chain`` to ``value``: (the chain now in its place, its edit or None)."""
    if name != "solver" and not settings.setting(name).applies(chain.solver):
        return scene.set_setting(chain, name, value), None  # checks the value, changes nothing
    old, arrays, who = read_setting(chain, name), snapshot(chain), chain_label(chain)
    new = put_setting(scene, chain, name, value)
    return new, record_setting(scene, name, old, chain, new, arrays, who)
