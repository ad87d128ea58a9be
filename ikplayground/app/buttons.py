"""The panel's buttons: each one names a command of the table (``commands.py``).

A press becomes ``(command, value)`` for the App: the value is the path in the
scene file box for Save and Load, else None. The F1 help lists each button
beside the keys of the same command (``commands.help_rows``).
"""

from __future__ import annotations

from typing import NamedTuple

import pygame
from pygame_gui.elements import UIButton


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
    ButtonSpec("stress", "stress", "Stress test", "Stress test",
               "Swap in 1000 chains on scripted paths; press again to get your scene back"),
    ButtonSpec("save", "save", "Save", "Save", "Save the scene to this file (Ctrl+S)"),
    ButtonSpec("load", "load", "Load", "Load", "Load the scene from this file (Ctrl+O)"),
)
SPECS = {b.attr: b for b in BUTTONS}
TAKE_THE_PATH = frozenset({"save", "load"})  # commands whose value is the path in the box
STRESS_LABELS = ("Stress test: 1000 chains", "Stop the stress test")  # off, on


def names_for(command: str) -> list[str]:
    """The labels of the buttons that run ``command`` (as the help shows them)."""
    return [b.name for b in BUTTONS if b.command == command]


def make(attr: str, rect: pygame.Rect, manager, container, wide: bool) -> UIButton:
    """The button ``attr`` (e.g. "add_button") at ``rect``, labelled for a roomy panel or a narrow one."""
    spec = SPECS[attr]
    return UIButton(rect, spec.wide if wide else spec.name, manager, container, object_id=f"#{spec.id}",
                    tool_tip_text=spec.tip)


def command_of(panel, element) -> tuple[str, object] | None:
    """The command a press of ``element`` stands for, if it is one of ``panel``'s buttons."""
    for spec in BUTTONS:
        if element is getattr(panel, spec.attr, None):
            value = panel.path_entry.get_text() if spec.command in TAKE_THE_PATH else None
            return spec.command, value
    return None
