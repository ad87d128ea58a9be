"""The panel's buttons and command check boxes: each names a command of ``commands.py`` (Save and Load with the
path in the box), and the F1 help lists it beside the command's keys."""

from __future__ import annotations

from typing import NamedTuple

import pygame
from pygame_gui.elements import UIButton, UICheckBox


class ButtonSpec(NamedTuple):
    """A button of the panel and the command it runs."""

    id: str  # its object id is #id; the Panel holds it as ``<id>_button``
    command: str  # a name in commands.COMMANDS
    name: str  # its label in a narrow panel, and in the help
    wide: str  # its label in a roomy panel
    tip: str

    @property
    def attr(self) -> str:
        return f"{self.id}_button"


BUTTONS: tuple[ButtonSpec, ...] = (
    ButtonSpec("add", "add_chain", "Add", "Add (N)", "Add a chain of the 'New chain' solver (N)"),
    ButtonSpec("remove", "remove_selected", "Remove", "Remove", "Remove the selected chain (Delete)"),
    ButtonSpec("help", "help", "Help", "Help (F1)", "Every control (F1)"),
    ButtonSpec("obstacle", "add_obstacle", "Add obstacle", "Add obstacle (O)",
               "Add a circle obstacle at a free spot (O: at the mouse); drag it to move it, its rim to resize it; "
               "Delete over it removes it"),
    ButtonSpec("stress", "stress", "Stress test", "Stress test",
               "Swap in 1000 chains on scripted paths; press again to get your scene back"),
    ButtonSpec("save", "save", "Save", "Save", "Save the scene to this file (Ctrl+S)"),
    ButtonSpec("load", "load", "Load", "Load", "Load the scene from this file (Ctrl+O)"),
    ButtonSpec("step", "step", "Step", "Step (.)",
               "Pause and move the selected CCD or FABRIK chain by one joint update or half-pass (.)"),
    ButtonSpec("sweep", "step_sweep", "Sweep", "Sweep (,)", "Pause and run one whole CCD sweep or FABRIK pass (,)"),
    ButtonSpec("finish", "step_finish", "Finish", "Finish (/)", "Run the rest of the stepped solve (/)"),
    ButtonSpec("race", "race", "Race", "Race (R)",
               "One chain of each solver with the selected chain's bones, chasing one target; again to end it (R)"),
    ButtonSpec("record", "record", "Record", "Record (Ctrl+R)",
               "Record every step to a CSV file beside the scene file; again to stop and save it (Ctrl+R)"),
    ButtonSpec("export", "export_animation", "Export", "Export animation",
               "Bake the last recording into a JSON file of keyframes beside it: bone lengths and per-step angles "
               "(stops a running recording first)"),
    ButtonSpec("spine", "export_spine", "Spine", "Export to Spine",
               "Export the last recording as a Spine 4.x skeleton JSON beside it: a bone per chain bone, one "
               "animation 'run' (stops a running recording first)"),
    ButtonSpec("screenshot", "screenshot", "Screenshot", "Screenshot (F12)",
               "Save the window as a PNG named by the date and time, beside the scene file (F12)"),
    ButtonSpec("gif", "gif", "Capture GIF", "Capture GIF (F9)",
               "Capture the window to an animated GIF beside the scene file, 50 frames a second; again to stop "
               "and save it (F9)"),
    ButtonSpec("undo", "undo", "Undo", "Undo (Ctrl+Z)",
               "Undo the last edit of the scene: a setting, an add or remove, a drag, a load (Ctrl+Z)"),
    ButtonSpec("redo", "redo", "Redo", "Redo (Ctrl+Y)", "Redo what was undone last (Ctrl+Shift+Z or Ctrl+Y)"),
    ButtonSpec("flip", "flip", "Flip", "Flip (H)",
               "Mirror the selected chain about its root's vertical (a snake: its head's, a walker: its body's); "
               "again to undo (H)"),
    ButtonSpec("timeline_open", "timeline_open", "Open", "Open", "Open the recording in the box in the timeline"),
    ButtonSpec("timeline_last", "timeline_last", "Load last", "Load last",
               "Open the last recording made in the timeline (stops a running recording first)"),
    ButtonSpec("timeline_play", "timeline_play", "Play", "Play", "Play or pause the timeline (Space)"),
    ButtonSpec("timeline_close", "timeline_close", "Close", "Close",
               "Close the timeline: the live scene runs on exactly as it was (Esc)"),
    ButtonSpec("timeline_back", "timeline_back", "[ Back", "[ Back", "Pause and step one step back ([)"),
    ButtonSpec("timeline_forward", "timeline_forward", "Next ]", "Next ]", "Pause and step one step on (])"),
    ButtonSpec("loop_from", "loop_from", "Loop from", "Loop from", "Loop the timeline from the playhead"),
    ButtonSpec("loop_to", "loop_to", "Loop to", "Loop to", "Loop the timeline up to the playhead"),
    ButtonSpec("loop_clear", "loop_clear", "No loop", "No loop", "Play the whole recording again, no loop"),
)
SPECS = {b.attr: b for b in BUTTONS}
TAKE_THE_PATH = frozenset({"save", "load"})  # commands whose value is the path in the box
STRESS_LABELS = ("Stress test: 1000 chains", "Stop the stress test")  # off, on
RACE_LABELS = (("Race", "Race (R)"), ("End race", "End race (R)"))  # off, on: (narrow, wide)
RECORD_LABELS = (("Record", "Record (Ctrl+R)"), ("Stop recording", "Stop recording"))  # off, on: (narrow, wide)
GIF_LABELS = (("Capture GIF", "Capture GIF (F9)"), ("Stop GIF", "Stop and save GIF (F9)"))  # off, on


class BoxSpec(NamedTuple):
    """A check box of the panel that switches a command's state (its value: the box's new state)."""

    id: str  # its object id is #id; the Panel holds it as ``<id>_box``
    command: str  # a name in commands.COMMANDS, run with True or False
    name: str  # its label in the panel and the help
    tip: str


BOXES: tuple[BoxSpec, ...] = (
    BoxSpec("show_math", "show_math", "Show the math (G)",
            "Draw the selected chain's geometry: reach, triangle and angles, limit arcs, error in px, "
            "the pose the rate limit holds back, the pole's side, a snake's bend ranges (G)"),
    BoxSpec("moving_target", "moving_target", "Moving target (T)",
            "The race's target runs a figure-eight by itself (T)"),
    BoxSpec("export_selected", "export_selected", "Selected chain only",
            "Export animation bakes only the selected chain (else every chain of the recording)"),
    BoxSpec("onion_skins", "onion_skins", "Onion skins",
            "Draw the timeline's poses a few steps before and after the playhead, faded"),
)
BOX_SPECS = {f"{b.id}_box": b for b in BOXES}


def names_for(command: str) -> list[str]:
    """The help's labels of the buttons and boxes that run ``command``."""
    return ([f"{b.name} button" for b in BUTTONS if b.command == command]
            + [f"{b.name.split(' (')[0]} box" for b in BOXES if b.command == command])


def make(attr: str, rect: pygame.Rect, manager, container, wide: bool) -> UIButton:
    """The button ``attr`` (e.g. "add_button") at ``rect``, labelled for a roomy or a narrow panel."""
    spec = SPECS[attr]
    return UIButton(rect, spec.wide if wide else spec.name, manager, container, object_id=f"#{spec.id}",
                    tool_tip_text=spec.tip)


def make_box(attr: str, rect: pygame.Rect, manager, container, state: bool) -> UICheckBox:
    """The check box ``attr`` (e.g. "show_math_box") at ``rect``, ticked when ``state``."""
    spec = BOX_SPECS[attr]
    return UICheckBox(rect, spec.name, manager, container, object_id=f"#{spec.id}", tool_tip_text=spec.tip,
                      initial_state=state)


def make_row(panel, attrs, x: int, y: int, width: int, wide: bool) -> list:
    """The buttons and boxes ``attrs`` side by side in equal widths from (x, y), each set as that attribute of
    ``panel`` (a box ticked as ``panel.box_states`` keeps it)."""
    each = (width - 4 * (len(attrs) - 1)) // len(attrs)
    made = []
    for i, attr in enumerate(attrs):
        at = x + i * (each + 4)
        widget: UIButton | UICheckBox
        if attr.endswith("_box"):
            widget = make_box(attr, pygame.Rect(at, y + 5, 18, 18), panel.manager, panel.box,
                              bool(panel.box_states.get(attr, False)))
        else:
            widget = make(attr, pygame.Rect(at, y, each, 28), panel.manager, panel.box, wide)
        setattr(panel, attr, widget)
        made.append(widget)
    return made


def box_command_of(panel, element, on: bool) -> tuple[str, object] | None:
    """The command a tick (``on``) or untick of ``element`` stands for, if it is one of the boxes."""
    for attr, spec in BOX_SPECS.items():
        if element is getattr(panel, attr, None):
            panel.box_states[attr] = on  # kept through a rebuild of the panel
            return spec.command, on
    return None


def command_of(panel, element) -> tuple[str, object] | None:
    """The command a press of ``element`` stands for, if it is one of the buttons."""
    for spec in BUTTONS:
        if element is getattr(panel, spec.attr, None):
            value = panel.path_entry.get_text() if spec.command in TAKE_THE_PATH else \
                panel.keep_page.timeline.entry.get_text() if spec.command == "timeline_open" else None
            return spec.command, value
    return None
