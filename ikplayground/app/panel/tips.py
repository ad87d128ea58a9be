"""Tool tips of the panel's menus and path box, and a drop-down menu that keeps its tip (pygame_gui 0.6's takes
none, and remakes its buttons whenever it opens or closes).
"""

from __future__ import annotations

from pygame_gui.elements import UIDropDownMenu

SOLVER_TIP = ("The solver that drives the selected chain: Two-bone (exact), CCD, FABRIK, DLS or Snake; "
              "the chain stays where it is.")
NEW_CHAIN_TIP = "The solver of the chains that N and the Add button make."
PRESET_TIP = ("Load a preset scene: default, seeds, tentacles, snakes, spider or crowd; your scene file is left "
              "as it is.")
PATH_TIP = "The scene file that Save (Ctrl+S) writes and Load (Ctrl+O) reads; Enter keeps a typed path."


class TippedDropDown(UIDropDownMenu):
    """A drop-down menu whose buttons, however often remade, show ``tip`` when hovered."""

    def __init__(self, *args, tip: str, **kwargs):
        self.tip = tip
        super().__init__(*args, **kwargs)
        self.set_tooltip(tip)

    def update(self, time_delta: float) -> None:
        super().update(time_delta)
        for button in getattr(self.current_state, "active_buttons", ()):
            if button.tool_tip_text is None:
                button.set_tooltip(self.tip)
