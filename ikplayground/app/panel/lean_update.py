"""A leaner ``UIManager.update`` for pygame_gui 0.6.14 (a work-around): only shown widgets are updated.

The panel keeps the widgets of its three pages (``panel.py``) and hides those of the pages not up, so most of
its ~200 elements are hidden at any time. pygame_gui's ``LayeredGUIGroup.update`` updates every element each
frame, hidden or not (their shapes' state machines, their text effects), and its ``_handle_hovering`` scans the
whole sprite list once per layer. :func:`install` makes the manager's group update the shown elements only (a
hidden one is updated again from the frame it is shown: nothing of it can change on screen meanwhile) and finds
the hovered element in one pass over the list (kept sorted by layer, so the top layer's last element comes
first, as pygame_gui's per-layer loop takes them). Without the private names it relies on, nothing changes.
Source: pygame_gui 0.6.14, ``ui_manager.py`` and ``core/layered_gui_group.py``.
"""

from __future__ import annotations

from typing import Any

from pygame_gui.core.interfaces import IUIElementInterface


def install(manager) -> bool:
    """Make ``manager`` update only its shown elements and check hovering in one pass; False if not possible."""
    group: Any = getattr(manager, "ui_group", None)
    sprites = getattr(group, "_spritelist", None)
    if not (isinstance(sprites, list) and hasattr(group, "update_visibility")
            and hasattr(manager, "_handle_hovering") and hasattr(manager, "root_container")):
        return False

    def update(time_delta: float, *args, **kwargs) -> None:
        for sprite in group._spritelist.copy():  # (an update may add or remove elements)
            if sprite.visible:
                sprite.update(time_delta, *args, **kwargs)
        if group.should_update_visibility:
            group.should_update_visibility = False
            group.update_visibility()

    def handle_hovering(time_delta: float) -> None:
        hover_handled = False
        for element in reversed(group._spritelist.copy()):  # top layer first, the last added first within one
            if (element.visible and isinstance(element, IUIElementInterface)  # (an ABC's check is slow)
                    and element.check_hover(time_delta, hover_handled)):
                if element != manager.root_container:
                    hover_handled = True
                    manager.hovering_any_ui_element = True
                else:  # hovering the root container alone is hovering no element
                    manager.hovering_any_ui_element = False

    group.update = update
    manager._handle_hovering = handle_hovering
    return True
