"""Undo and redo in the App: what is recorded into ``app.history``, when, and what Ctrl+Z and Ctrl+Shift+Z do.

The history holds the scene's edits (:mod:`ikplayground.scene.edit.edits`) and two of the App's: :class:`SceneSwap`
(a load or preset) and :class:`RaceStarted`. Edits in the stress test's or the race's scene are not recorded;
undo is refused during the stress test, and during the race Ctrl+Z ends it. An edit made while the left button
is down merges into the entry made since that press (one slider or map drag, one entry). Another feature
records its own edit as ``if app.undo.recording: app.undo.record(Edit(label, undo=f, redo=f))``.
"""

from __future__ import annotations

import pygame

from ikplayground.scene import SETTINGS_BY_NAME as SETTINGS
from ikplayground.scene import Edit, Refused, SceneFull, pose, record_move, record_obstacles, record_pose
from ikplayground.scene.edit import edits, moves

MERGING = ("number", "whole")  # the settings' kinds a slider sets: one entry a drag
DONE = {"undo": "Undid", "redo": "Redid"}  # how the status line begins
NOT_DONE = {"undo": "Not undone", "redo": "Not redone"}
STALE = object()  # Undo.saved_top when no entry of the history stands for the saved scene any more


class SceneSwap(Edit):
    """The scene was replaced (a load, a preset): ``old`` and ``new`` are (scene, scene file path, preset)."""

    def __init__(self, app, label: str, old: tuple, new: tuple):
        super().__init__(label, weight=len(old[0].chains) + len(new[0].chains))
        self.app, self.old, self.new = app, old, new

    def _show(self, state: tuple):
        scene, path, preset = state
        app = self.app
        app.show_scene(scene)
        app.scene_path = path
        app.panel.path_entry.set_text(str(path))
        app.panel.show_preset(preset)
        return None  # the scene's own selection

    def undo(self):
        return self._show(self.old)

    def redo(self):
        return self._show(self.new)

    def done(self) -> SceneSwap:
        """This swap with what the App shows now as its new state."""
        app = self.app
        self.new = (app.scene, app.scene_path, app.panel.preset)
        self.weight = len(self.old[0].chains) + len(app.scene.chains)
        return self


def swap_from(app, label: str) -> SceneSwap:
    """A :class:`SceneSwap` from the user's scene as it is (the one kept aside by the stress test or race)."""
    scene = next(s for s in (app.stress.kept, app.race.kept, app.scene) if s is not None)
    state = (scene, app.scene_path, app.panel.preset)
    return SceneSwap(app, label, state, state)


class RaceStarted(Edit):
    """The race was started on ``template`` (the chain selected then): undone, the race ends. ``below``: the
    entry under it (the race changes nothing of the user's scene)."""

    def __init__(self, app, template, below: Edit | None = None):
        super().__init__("race")
        self.app, self.template, self.below = app, template, below

    def undo(self):
        self.app.race.stop()
        return None

    def redo(self):
        app = self.app
        if self.template is not None and self.template in app.scene.chains:
            app.scene.select(self.template)
        app.race.start()
        app.undo.race_entry = self  # R ends it: then it goes
        return None


class Undo:
    """What ``app`` records into ``app.history``, and its undo and redo."""

    def __init__(self, app):
        self.app = app
        self.presses = 0  # left presses seen
        self.pressed = False  # the left button is down
        self._open = None  # (press, entry): the newest entry, made while that press was down
        self._grab = None  # (scene, chain, part, start) of the hold in progress, if recorded
        self.race_entry = None  # the running race's entry
        self.saved_top: object = None  # the newest entry when the scene was last loaded or saved (None: none yet)

    @property
    def history(self):
        return self.app.history

    @property
    def recording(self) -> bool:
        """Whether edits are recorded: the user's own scene is shown."""
        return not (self.app.stress.on or self.app.race.on)

    @property
    def unsaved(self) -> bool:
        """Whether the user's scene differs from what was last loaded or saved: the history's newest entry (a race
        counts as the entry under it) is not the one of then, or has taken in an edit since."""
        top = self.history.top
        while isinstance(top, RaceStarted):
            top = top.below
        return top is not self.saved_top

    def mark_saved(self) -> None:
        """The scene shown is now the one in its file (a save or a load)."""
        self.saved_top = self.history.top

    def see(self, event) -> None:
        """Every event, first: which left press is down (an edit made meanwhile may merge)."""
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == 1:
            self.presses += 1
            self.pressed = True
        elif (event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 0) == 1) or \
                event.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            self.pressed = False

    def record(self, edit: Edit | None, merge: bool = False) -> None:
        """Push ``edit`` (None: no change); with ``merge``, into the newest entry if made during the current press."""
        if edit is None:
            return
        top = self.history.top
        same_press = merge and self._open is not None and self._open == (self.presses, top)
        self.history.push(edit, merge=same_press)
        if self.history.top is top and top is self.saved_top:  # merged into the saved state's entry
            self.saved_top = STALE
        top = self.history.top
        self._open = (self.presses, top) if merge and self.pressed else None

    def setting(self, chain, name: str, value):
        """Set ``name`` (a setting or "solver") of ``chain`` to ``value``, recorded; returns the chain in its place."""
        app = self.app
        if self.recording:
            new, edit = edits.set_recorded(app.scene, chain, name, value)
            self.record(edit, merge=name in SETTINGS and SETTINGS[name].kind in MERGING)
        else:
            new = edits.put_setting(app.scene, chain, name, value)
        app.chain_replaced(chain, new)
        return new

    def added(self, chain) -> None:
        """``chain`` was just added to the scene (on top)."""
        scene = self.app.scene
        if self.recording:
            self.record(edits.ChainAdded(scene, scene.chains.index(chain), chain))

    def removed(self, index: int, chain) -> None:
        """``chain`` was just removed from the scene, where it was at ``index``."""
        if self.recording:
            self.record(edits.ChainRemoved(self.app.scene, index, chain))

    def hold(self, old, new) -> None:
        """``App.drag`` changed from ``old`` to ``new``: a hold that ends is one entry (if it moved something); a
        hold moved onto a replacing chain (``Drag.onto``) goes on."""
        if old is new:
            return
        going_on = old is not None and new is not None and new.offset is old.offset and new.part == old.part
        if going_on:
            if self._grab is not None:
                self._grab = (self._grab[0], new.chain, *self._grab[2:])
            return
        if old is not None and self._grab is not None:
            scene, chain, part, start = self._grab
            self._grab = None  # (an obstacle's hold: no chain, its label in place of a part)
            self.record(record_move(scene, chain, part, start) if chain is not None
                        else record_obstacles(scene, part, start))
        if new is not None and self.recording:
            scene = self.app.scene
            if new.chain is None:  # an obstacle: the scene's obstacles before it
                label = f"obstacle {new.row + 1} {'moved' if new.part == 'obstacle' else 'resized'}"
                self._grab = (scene, None, label, scene.obstacles)
            else:
                self._grab = (scene, new.chain, new.part, moves.where(new.chain, new.part))

    def map_pose(self, angles) -> None:
        """The command map_pose: the selected two-bone arm posed on the joint-space map, recorded."""
        app = self.app
        chain = app.scene.selected
        start = pose(chain) if chain is not None and chain.solver == "two-bone" and self.recording else None
        app.math.set_pose(angles)
        if start is not None:
            self.record(record_pose(app.scene, chain, start), merge=True)

    def toggle_race(self) -> None:
        """The command race: start it (an entry) or end it (its entry goes)."""
        race = self.app.race
        if race.on:
            race.stop()
            return
        template = self.app.scene.selected
        race.start()
        if race.on:
            self.race_entry = RaceStarted(self.app, template, below=self.history.top)
            self.record(self.race_entry)

    def race_ended(self) -> None:
        """The race ended: its entry goes, if it is the newest."""
        if self.race_entry is not None:
            self.history.drop(self.race_entry)
            self.race_entry = None

    def undo(self) -> None:
        """Ctrl+Z: undo the newest edit, select the chain it touched, and say what it was."""
        app = self.app
        if app.stress.on:
            app.say("Undo is off during the stress test: stop it for your scene, then undo")
            return
        app.drag = None  # a hold in progress ends first: its move is the newest edit
        if app.race.on and not isinstance(self.history.top, RaceStarted):
            app.race.stop()
            return
        self._step("undo", self.history.undo)

    def redo(self) -> None:
        """Ctrl+Shift+Z / Ctrl+Y: redo the edit undone last."""
        app = self.app
        if app.stress.on or app.race.on:
            what = "the stress test" if app.stress.on else "the race (R ends it)"
            app.say(f"Redo is off during {what}")
            return
        app.drag = None
        self._step("redo", self.history.redo)

    def _step(self, word: str, step) -> None:
        app = self.app
        self._open = None
        entry = self.history.top if word == "undo" else self.history.next_redo
        try:
            result = step()
        except Refused as e:  # nothing changed; the entry stays to be tried again
            app.say(f"{NOT_DONE[word]}: {entry.label}: {e}", error=True)
            return
        except (IndexError, ValueError, TypeError, SceneFull) as e:  # the history no longer fits the scene
            self.history.clear()
            self.saved_top = STALE
            app.say(f"Could not {word} that ({e}); the undo history is cleared", error=True)
            return
        if result is None:
            app.say(f"Nothing to {word}")
            return
        edit, chain = result
        if chain is not None and chain in app.scene.chains:
            app.scene.select(chain)
        app.selected_changed()
        app.say(f"{DONE[word]}: {edit.label}")
