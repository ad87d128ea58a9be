"""The one table of commands: what keys, panel buttons and the help all name.

A command: a name, one line of help, ``run(app, value)`` (``value`` None from a key; the path from Save, the
solver from "New chain"...) and whether a held key repeats it. The keymap (``keymap.py``) and the panel's
buttons (``buttons.py``) name commands; the F1 help and docs/controls.md are :func:`help_rows`. Every command
runs through :class:`CommandRunner`, whose observers see it first (the fuzz test and soak); a name not in the
table is a setting of the selected chain, which ``App.apply`` sets.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, NamedTuple

from ikplayground.app import keymap, undo
from ikplayground.app.camera import STEP
from ikplayground.app.draw import screenshot
from ikplayground.app.modes import capture_mode, obstacle_mode, timeline_mode
from ikplayground.app.panel import buttons
from ikplayground.scene import (PRESETS, SOLVER_LABELS, SceneFileError, SceneFull, axis_name, load_scene, save_scene,
                                shown, shown_name)
from ikplayground.scene import load_preset as preset_scene
from ikplayground.scene.edit import edits

CHAIN_CAP = 2000  # chains N may add (files and the stress test may hold more)
DEFAULT_SCENE_PATH = "ikplayground-scene.json"
PLACE_SPACING = 40.0  # screen px: N keeps a new chain's root and target this far from others'
PLACE_MARGIN = 16.0  # screen px: ... and this far inside the stage's edges


class Command(NamedTuple):
    """A named thing the user can make the App do."""

    name: str
    help: str  # one line, for the F1 help and docs/controls.md's controls table
    run: Callable[..., object]  # run(app, value); value is None when a key runs it
    repeats: bool = False  # a held key runs it again at each auto-repeat


def add_chain(app, value=None) -> None:
    """N: a chain near the mouse (else a free spot) at a clear spot in view, its target within reach; held N
    fills further clear spots (``Scene.place_chain``)."""
    on_stage = app.mouse is not None and app.on_stage(app.mouse)
    if len(app.scene.chains) >= CHAIN_CAP:
        app.say(f"Not added: N adds up to {CHAIN_CAP} chains (remove some, or try the stress test)", error=True)
        return
    zoom = app.view.camera.zoom
    near = app.world(app.mouse) if on_stage else app.scene.free_spot()
    margin = PLACE_MARGIN / zoom
    x0, y0, x1, y1 = app.view.visible_box()
    try:
        chain = app.scene.place_chain(app.panel.new_solver, near, (x0 + margin, y0 + margin, x1 - margin,
                                                                   y1 - margin), PLACE_SPACING / zoom)
    except SceneFull as e:
        app.say(f"Not added: {e}", error=True)
        return
    app.undo.added(chain)
    app.say(f"Added {chain.label}")
    app.selected_changed()


def remove_last(app, value=None) -> None:
    index = len(app.scene.chains) - 1
    chain = app.scene.remove_last()
    if chain is not None:
        app.undo.removed(index, chain)
    app.say("Nothing to remove" if chain is None else f"Removed {chain.label}")
    app.selected_changed()


def remove_selected(app, value=None) -> None:
    chain = app.scene.selected
    if chain is None:
        app.say("Nothing selected to remove" if app.scene.chains else "Nothing to remove")
        return
    index = app.scene.chains.index(chain)
    app.scene.remove(chain)
    app.undo.removed(index, chain)
    app.say(f"Removed {chain.label}")
    app.selected_changed()


def select_next(app, value=None) -> None:
    app.scene.select_next()
    app.selected_changed()


def mirror(app, on=None) -> None:
    """The selected two-bone chain's bend flipped (the key), or set to ``on`` (the check box)."""
    chain = app.scene.selected
    if chain is None or chain.solver != "two-bone":
        if on is None:
            app.say("Mirror bends two-bone chains: select one first")
        return
    app.undo.setting(chain, "mirror", not chain.mirror if on is None else on)
    app.selected_changed()


def flip(app, value=None) -> None:
    """H: the selected chain turned into its mirror image about its root's vertical; H again gives it back."""
    chain = app.scene.selected
    if chain is None:
        app.say("Flip mirrors the selected chain: select one first (click it, or Tab)")
        return
    name = chain.label
    try:
        app.scene.flip(chain)
    except ValueError as e:  # nothing changed
        app.say(f"Not flipped: {name}: {e}", error=True)
        return
    if app.undo.recording:  # H again, or Ctrl+Z, flips it back
        app.undo.record(edits.Flipped(app.scene, app.scene.chains.index(chain), chain))
    app.math.session = None  # a stepped solve of the pose before is over
    app.say(f"Flipped {name} about its {axis_name(chain)}'s vertical")
    app.selected_changed()  # the panel shows the flipped settings (the Mirror box of a two-bone arm)


def pause(app, value=None) -> None:
    app.paused = not app.paused
    app.say("Paused (Space resumes)" if app.paused else "Running")


def show_messages(app, value=None) -> None:
    app.status.log_open = not app.status.log_open
    if app.status.log_open:
        app.show_help = False
        app.log_pane.scroll = 10 ** 9  # the newest at the bottom, in view


def show_panel(app, value=None) -> None:
    size = app.screen.get_size()
    app.panel.set_visible(not app.panel.visible, size)
    app.scene.resize(app.stage_size(size))
    app.selected_changed()


def escape(app, value=None) -> None:
    """Esc: close the innermost thing open (a drop-down list, the help, a path box's typing, the timeline), else end
    a mode (the stress test, the race, the step-through) as its own key would; it never quits."""
    if app.panel.close_menus():
        return
    if app.show_help:
        app.show_help = False
    elif app.panel.typing():
        app.panel.unfocus_typing()  # the typed text stays in the box
    elif app.timeline.open:
        app.timeline.close()
    elif app.stress.on:
        app.stress.stop()
    elif app.race.on:
        app.undo.toggle_race()
    elif app.math.stepping:
        app.paused = False  # running again ends the stepped solve, as Space does
        app.math.session = None
        app.say("Step-through ended: running again")
    else:
        app.say("Quit: Ctrl+Q (Esc never quits)")


def chains(count: int) -> str:
    """"1 chain", "2 chains"."""
    return f"{count} chain{'' if count == 1 else 's'}"


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (False when it cannot be looked up)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def save(app, path=None) -> None:
    """Save the scene to ``path`` (the scene file's by default); a failure is one status line."""
    path = Path(path) if path else app.scene_path
    name = shown_name(path)
    if app.stress.refuses_save(name) or app.race.refuses_save(name):
        return
    app.view.store(app.scene)  # the file keeps the view
    try:
        save_scene(app.scene, path)
    except (OSError, ValueError) as e:  # ValueError: a value the file could not load again (nothing is written)
        reason = getattr(e, "strerror", None) or e
        app.say(f"Not saved: {name}: {reason}. Nothing was lost: the scene is still here"
                + (" and the file on disk is as it was" if _is_file(path) else ""), error=True)
        return
    app.scene_path = path
    app.undo.mark_saved()
    app.say(f"Saved {chains(len(app.scene.chains))} to {name}")


def load(app, path=None) -> None:
    """Replace the scene with the file at ``path`` (the scene file's by default), or say why not."""
    path = Path(path) if path else app.scene_path
    name = shown_name(path)
    if _replace_scene(app, lambda: load_scene(path, app.scene.stage), None, path, f"load of {name}"):
        app.undo.mark_saved()  # the scene is the file's
        app.say(f"Loaded {chains(len(app.scene.chains))} from {name}")


def load_preset(app, name=None) -> None:
    """Replace the scene with the preset ``name``; the scene file stays as it is."""
    if _replace_scene(app, lambda: preset_scene(name, app.scene.stage), name, app.scene_path,
                      f"preset {name}"):
        app.say(f"Preset {name}: {PRESETS[name]}. Ctrl+S saves to {shown_name(app.scene_path)}")


def _replace_scene(app, read, preset, path, label: str) -> bool:
    """Show ``read()``'s scene as the user's, an undoable edit ``label``; False, saying why, if unreadable."""
    try:
        scene = read()
    except SceneFileError as e:
        app.say(f"Not loaded: {e}. Your scene is unchanged.", error=True)
        return False
    swap = undo.swap_from(app, label)  # the user's scene as it is, even while the stress test or race runs
    app.stress.forget()
    app.race.forget()
    app.show_scene(scene)
    app.panel.show_preset(preset)
    app.scene_path = path
    app.undo.record(swap.done())
    return True


def take_screenshot(app, value=None) -> None:
    """Draw the frame, then save the window as a PNG in the scene file's folder."""
    folder = app.scene_path.parent
    app.draw()  # the frame as it is now (the window may not have been drawn yet, headless)
    try:
        path = screenshot.save_screenshot(app.screen, folder)
    except OSError as e:
        app.say(f"Screenshot not saved: {e.strerror or e}", error=True)
        return
    app.say(f"Screenshot saved: {shown(os.path.abspath(path), shorten=False)}")


COMMANDS: tuple[Command, ...] = (
    Command("add_chain", "add a chain of the \"New chain\" solver near the mouse, clear of the others, its target "
                         "in reach; held, more at the next clear spots",
            add_chain, repeats=True),
    Command("remove_last", "remove the chain added last", remove_last, repeats=True),
    Command("remove_selected", "remove the obstacle under the mouse, else the selected chain",
            obstacle_mode.obstacle_first(remove_selected), repeats=True),
    Command("add_obstacle", "add an obstacle (a circle) at the mouse, else at a free spot", obstacle_mode.add),
    Command("select_next", "select the next chain", select_next, repeats=True),
    Command("mirror", "mirror the selected two-bone chain's bend", mirror),
    Command("flip", "mirror the selected chain about its root (a snake's head, a walker's body); again to "
                    "undo", flip),
    Command("pause", "pause / resume (while the timeline is open: play / pause it)",
            timeline_mode.playing_first(pause)),
    Command("help", "show / hide the help (this list)",
            lambda app, value=None: setattr(app, "show_help", not app.show_help)),
    Command("panel", "hide / show the panel (more room for the stage)", show_panel),
    Command("messages", "show / hide every status message, whole (also a click on the status line)",
            show_messages),
    Command("escape", "close a menu, the help, typing or the timeline, else end stress test, race or step-through; "
                      "never quits",
            escape),
    Command("quit", "quit; with unsaved changes, first ask Save / Discard / Cancel (as the window's close button)",
            lambda app, value=None: app.quit.request()),
    Command("save", "save the scene to the scene file (the panel's path box; --scene sets it at start)", save),
    Command("load", "load the scene file again (the panel's path box)", load),
    Command("stress", "1,000 chains on scripted paths; again for your scene (meanwhile Save is refused)",
            lambda app, value=None: app.stress.toggle()),
    Command("new_solver", "choose the solver that N adds",
            lambda app, solver: app.say(f"N now adds {SOLVER_LABELS[solver]} chains")),
    Command("scene_path", "set the scene file's path (Enter in the path box)",
            lambda app, text=None: setattr(app, "scene_path", Path(text or DEFAULT_SCENE_PATH))),
    Command("preset", "load a preset scene (the panel's Scene menu; the scene file stays as it is)", load_preset),
    Command("notice", "say on the status line what the path box refused or left out",
            lambda app, text: app.say(text, error=True)),
    Command("show_math", "show / hide the math of the selected chain on the stage (reach, angles, limits, error...)",
            lambda app, on=None: app.math.set_shown(on)),
    Command("step", "step-through: pause, then one CCD joint update or FABRIK half-pass of the selected "
                    "chain", lambda app, value=None: app.math.step("record"), repeats=True),
    Command("step_sweep", "step-through: one whole CCD sweep or FABRIK pass",
            lambda app, value=None: app.math.step("sweep"), repeats=True),
    Command("step_finish", "step-through: the rest of the solve", lambda app, value=None: app.math.step("finish")),
    Command("race", "race the solvers on the selected chain's bones and limits; again for your scene",
            lambda app, value=None: app.undo.toggle_race()),
    Command("moving_target", "the race's target runs a figure-eight by itself, or stays where you drag it",
            lambda app, on=None: app.race.set_moving(on)),
    Command("map_pose", "set the selected two-bone arm to a pose picked on the joint-space map",
            lambda app, angles: app.undo.map_pose(angles)),
    Command("record", "record every step to a CSV file beside the scene file; again to stop and save it",
            lambda app, value=None: app.record.toggle()),
    Command("export_animation", "bake the last recording into a JSON file of keyframes beside it",
            lambda app, value=None: app.export.export()),
    Command("export_spine", "export the last run as Spine JSON", lambda app, value=None: app.export.export_spine()),
    Command("export_selected", "Export animation bakes only the selected chain",
            lambda app, on=None: app.export.set_selected_only(on)),
    Command("screenshot", "save the window as a PNG, named by the time, in the scene file's folder", take_screenshot),
    Command("gif", "capture the window to a GIF beside the scene file; again to stop and save it", capture_mode.toggle),
    Command("undo", "undo the last edit: a setting, an add or remove, a drag, a load, the race",
            lambda app, value=None: app.undo.undo(), repeats=True),
    Command("redo", "redo what was undone last", lambda app, value=None: app.undo.redo(), repeats=True),
    Command("zoom_in", "zoom in about the stage's centre", lambda app, value=None: app.view.zoom(STEP), repeats=True),
    Command("zoom_out", "zoom out about the stage's centre", lambda app, value=None: app.view.zoom(1 / STEP),
            repeats=True),
    Command("fit_view", "fit every chain, target, snake, walker and obstacle into the view",
            lambda app, value=None: app.view.fit()),
    Command("home_view", "the home view: zoom 1x, the stage's top-left corner at the top-left",
            lambda app, value=None: app.view.home()),
    *(Command(*row) for row in timeline_mode.TIMELINE_ROWS),  # the Keep page's timeline
)
BY_NAME: dict[str, Command] = {c.name: c for c in COMMANDS}


class CommandRunner:
    """Runs commands by name for one App, telling its observers about each first."""

    def __init__(self, app):
        self.app = app
        self._observers: list[Callable[[str, Any], None]] = []

    def observe(self, observer: Callable[[str, Any], None]) -> Callable[[], None]:
        """Call ``observer(name, value)`` before every command (settings too); returns its remover."""
        self._observers.append(observer)
        return lambda: self._observers.remove(observer)

    def run(self, name: str, value=None) -> bool:
        """Tell the observers, then run ``name`` if it is in the table; False when it is not."""
        for observer in tuple(self._observers):
            observer(name, value)
        command = BY_NAME.get(name)
        if command is None:
            return False
        command.run(self.app, value)
        return True


def how(name: str) -> str:
    """How the user runs command ``name``: its keys and panel buttons ("" for neither)."""
    return " / ".join(keymap.keys_for(name) + buttons.names_for(name))


def help_rows() -> list[tuple[str, str]]:
    """(how, what it does) rows of the F1 help and docs/controls.md: mouse, steering, keyed commands."""
    rows = list(keymap.MOUSE_HELP) + [keymap.STEER_HELP]
    rows += [(how(c.name), c.help) for c in COMMANDS if how(c.name)]
    return rows


def controls_table() -> str:
    """:func:`help_rows` as docs/controls.md's Markdown table."""
    lines = ["| Control | What it does |", "| --- | --- |"]
    lines += [f"| {keys} | {text} |" for keys, text in help_rows()]
    return "\n".join(lines)
