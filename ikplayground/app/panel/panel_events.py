"""The panel's events as commands ``(name, value)``: buttons and command boxes (``buttons.py``), the setting
rows, the menus, the typed scene path, a pose on the joint-space map. A tab shows its page and a click on a
box's text ticks it; neither is a command."""

from __future__ import annotations

import pygame
import pygame_gui

from ikplayground.app import keymap
from ikplayground.app.panel import buttons
from ikplayground.app.panel.path_entry import PATH_NOTICE
from ikplayground.scene import PRESETS, SOLVER_LABELS

MAP_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEBUTTONUP)


def toggle_by_label(panel, pos) -> bool:
    """A click on a check box's text ticks it, through pygame_gui's own event; True if one was."""
    if not panel.box.rect.collidepoint(pos):  # scrolled out of view, or the panel hidden
        return False
    boxes = [getattr(panel, attr) for attr in buttons.BOX_SPECS if attr in panel.__dict__]
    for box in (*panel.setting_rows.boxes.values(), *boxes):
        label = getattr(box, "text_label", None)
        if (label is not None and box.is_enabled and box.visible and label.rect.collidepoint(pos)
                and not box.rect.collidepoint(pos)):
            box.set_state(not box.is_checked)
            return True
    return False


def command_of(panel, event) -> tuple[str, object] | None:
    """The command that ``event`` on ``panel`` stands for, or None."""
    t = event.type
    pose = panel.math_page.map_command(event) if t in MAP_EVENTS else None
    if pose is not None:
        return pose
    if t == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == 1:
        toggle_by_label(panel, event.pos)
        return None
    if t == pygame.KEYDOWN and panel.typing() and event.mod & pygame.KMOD_CTRL:
        # Ctrl+S / Ctrl+O while typing a path act on the path as typed
        command = keymap.command_for(event.key, event.mod)
        if command in buttons.TAKE_THE_PATH:
            panel.path_entry.unfocus()
            return command, panel.path_entry.get_text()
    el = getattr(event, "ui_element", None)
    if el is None:
        return None
    setting = panel.setting_rows.process(event, el) or panel.keep_page.timeline.command_of(event, el)
    if setting is not None:
        return setting
    if t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
        if el is panel.preset_menu:
            if event.text not in PRESETS:  # the "—" entry: nothing to load
                return None
            return "preset", event.text  # (the load shows it as the preset; its undo, the one before)
        solver = next((k for k, label in SOLVER_LABELS.items() if label == event.text), None)
        if solver is None:
            return None
        if el is panel.solver:
            panel._shown_solver = solver  # the menu shows it already: sync need not remake it
            return "solver", solver
        if el is panel.new_chain:
            panel.new_solver = solver
            return "new_solver", solver
    elif t in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
        on = t == pygame_gui.UI_CHECK_BOX_CHECKED
        return buttons.box_command_of(panel, el, on)
    elif t == pygame_gui.UI_BUTTON_PRESSED:
        for page, tab in panel.tabs.items():
            if el is tab:
                panel.show_page(page)
                return None
        return buttons.command_of(panel, el)
    elif t == pygame_gui.UI_TEXT_ENTRY_FINISHED and el is panel.path_entry:
        panel.path_entry.unfocus()  # Enter ends typing: the keys go back to the scene
        return "scene_path", panel.path_entry.get_text()
    elif t == PATH_NOTICE and el is panel.path_entry:
        return "notice", event.text
    return None
