"""A leaner ``UIManager.update`` for pygame_gui 0.6.14 (a work-around): only shown widgets are updated.

The panel keeps the widgets of its three pages (``panel.py``) and hides those of the pages not up, so most of
its ~200 elements are hidden at any time. pygame_gui's ``LayeredGUIGroup.update`` updates every element each
frame, hidden or not (their shapes' state machines, their text effects), and its ``_handle_hovering`` scans the
whole sprite list once per layer. :func:`install` makes the manager's group update the shown elements only (a
hidden one is updated again from the frame it is shown: nothing of it can change on screen meanwhile; the shown
ones are listed again only when pygame_gui marks the group's visibility stale) and finds
the hovered element in one pass over the list (kept sorted by layer, so the top layer's last element comes
first, as pygame_gui's per-layer loop takes them), skipping a plain element that is neither hovered nor under the
mouse (its ``check_hover`` would do nothing). Without the private names it relies on, nothing changes.

pygame_gui's scroll bars also walk every widget of the container they scroll, asking each whether it is hovered,
for every event the manager passes them, before they look at the event's type (only a wheel event does anything
to them): about 2-3 ms for each mouse motion over the panel and each of the events its sliders post.
:func:`wheel_first` makes them look at the type first, which returns the same for every event.
Source: pygame_gui 0.6.14, ``ui_manager.py``, ``core/layered_gui_group.py`` and ``elements/ui_*_scroll_bar.py``.
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame_gui.core import UIElement
from pygame_gui.core.interfaces import IUIElementInterface
from pygame_gui.elements import UIButton, UIHorizontalScrollBar, UIVerticalScrollBar

# check_hover and hover_point as UIElement has them (UIButton's differs only while held): for such an element
# neither hovered nor under the mouse, check_hover does nothing and returns False, so it is skipped
_PLAIN_CHECK = UIElement.check_hover
_PLAIN_POINT = {UIElement.hover_point, UIButton.hover_point}


def install(manager) -> bool:
    """Make ``manager`` update only its shown elements and check hovering in one pass; False if not possible."""
    wheel_first()
    group: Any = getattr(manager, "ui_group", None)
    sprites = getattr(group, "_spritelist", None)
    if not (isinstance(sprites, list) and hasattr(group, "update_visibility")
            and hasattr(manager, "_handle_hovering") and hasattr(manager, "root_container")):
        return False

    cache: dict[str, list] = {}

    def shown() -> list:
        """The shown elements in layer order, kept until the group's list or an element's visibility changes
        (each change sets ``should_update_visibility``, which only :func:`update` clears, and drops the list)."""
        if group.should_update_visibility or "shown" not in cache:
            cache["shown"] = [sprite for sprite in group._spritelist if sprite.visible]
        return cache["shown"]

    def update(time_delta: float, *args, **kwargs) -> None:
        for sprite in shown():  # (a copy: an update may add or remove elements)
            if sprite.visible:
                sprite.update(time_delta, *args, **kwargs)
        if group.should_update_visibility:
            group.should_update_visibility = False
            group.update_visibility()
            cache.clear()

    kinds: dict[type, tuple[bool, bool]] = {}  # a type: (an element, its check_hover and hover_point plain)

    def handle_hovering(time_delta: float) -> None:
        hover_handled = False
        mouse = manager.get_mouse_position()
        for element in reversed(shown()):  # top layer first, the last added first within one
            kind = type(element)
            traits = kinds.get(kind)
            if traits is None:  # (once a type: an ABC's isinstance check is slow)
                traits = kinds[kind] = (isinstance(element, IUIElementInterface),
                                        kind.check_hover is _PLAIN_CHECK and kind.hover_point in _PLAIN_POINT)
            is_element, plain = traits
            if not is_element:
                continue
            if (plain and not element.hovered and not element.rect.collidepoint(mouse)
                    and not getattr(element, "held", False)):
                continue  # what check_hover would find: not hovered, nothing to do
            if not element.visible:
                continue
            if element.check_hover(time_delta, hover_handled):
                if element != manager.root_container:
                    hover_handled = True
                    manager.hovering_any_ui_element = True
                else:  # hovering the root container alone is hovering no element
                    manager.hovering_any_ui_element = False

    group.update = update
    manager._handle_hovering = handle_hovering
    return True


def wheel_first() -> None:
    """Make pygame_gui's scroll bars look at an event's type before they walk their container's hover states.

    Their ``process_event`` acts on ``MOUSEWHEEL`` events only and returns False for every other event, with no
    side effect on the way; it stays theirs for wheel events. Safe to call more than once.
    """
    for kind in (UIVerticalScrollBar, UIHorizontalScrollBar):
        original = kind.process_event
        if getattr(original, "wheel_first", False):
            continue

        def process_event(self, event, _original=original) -> bool:
            return event.type == pygame.MOUSEWHEEL and _original(self, event)

        process_event.wheel_first = True  # type: ignore[attr-defined]
        kind.process_event = process_event  # type: ignore[method-assign]
