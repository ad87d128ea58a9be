"""The control panel: pygame_gui widgets for the selected chain and the scene, on three pages.

Every widget has an ``object_id`` styled in ``assets/theme.json``. The panel never touches the scene:
:meth:`Panel.process` turns a widget's event into a command ``(name, value)`` (``panel_events.py``) and
:meth:`Panel.sync` shows a chain's settings.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UICheckBox, UIDropDownMenu, UILabel, UIPanel, UIScrollingContainer

from ikplayground.app.panel import buttons
from ikplayground.app.panel.keep_page import KeepPage
from ikplayground.app.panel.math_page import MathPage
from ikplayground.app.panel.panel_events import command_of
from ikplayground.app.panel.param_widgets import (PAD, ROW, WIDE_INNER, SettingRows, TippedDropDown, column_widths,
                                                  enable_all, fit, make_label, param_label, rows_height, show_all,
                                                  tip_whole)
from ikplayground.app.panel.path_entry import PathEntry
from ikplayground.scene import PRESETS, SOLVER_KINDS, SOLVER_LABELS, SOLVERS, Chain, available_presets

WIDTH = 300  # the panel's width in a roomy window
MIN_WIDTH = 220  # ... and in a small one
SCROLLBAR = 20
# the height of everything in the panel (it scrolls in a shorter window): its own rows and the settings' rows
CONTENT_HEIGHT = 406 + rows_height()
TAB_HEIGHT = 26
PAGES = ("chain", "math", "keep")  # the panel's pages, chosen by the tabs under its title
TAB_LABELS = {"chain": "Chain", "math": "Math", "keep": "Keep"}
TAB_TIPS = {"chain": "The selected chain's solver and settings, and the scene",
            "math": "See the math: overlays, live numbers, step-through, the race, the joint-space map",
            "keep": "Keep what you make: record and replay, bake to keyframes, undo, mirror, screenshots"}
SOLVER_TIP = (f"The solver that drives the selected chain: {', '.join(SOLVER_LABELS[k] for k in SOLVERS)}; "
              "the chain stays where it is.")
NEW_CHAIN_TIP = "The solver of the chains that N and the Add button make."
PRESET_TIP = f"Load a preset scene: {', '.join(PRESETS)}; your scene file is left as it is."
PATH_TIP = "The scene file that Save (Ctrl+S) writes and Load (Ctrl+O) reads; Enter keeps a typed path."
MENUS = {"solver": ("Solver", SOLVER_TIP), "preset": ("Preset", PRESET_TIP), "new_chain": ("New chain", NEW_CHAIN_TIP)}


def panel_width(window_width: int) -> int:
    """How wide the panel is in a window ``window_width`` px wide."""
    return int(min(WIDTH, max(MIN_WIDTH, window_width * 0.45)))


NO_PRESET = "—"  # the preset menu's entry while the scene is the user's own


class Panel:
    """The right-hand panel; ``new_solver``: the solver N adds, ``scene_path``: the file Ctrl+S writes.
    ``setting_rows`` holds a control per setting (``params`` its sliders); a check box is also an attribute of its
    setting's name (``panel.mirror``)."""

    def __init__(self, manager, window_size, new_solver="ccd", scene_path=""):
        self.manager = manager
        self.new_solver = new_solver
        self.scene_path = scene_path
        self.chain: Chain | None = None
        self._shown_solver: str | None = None
        self.visible = True
        self.stress_on = False
        self.page = "chain"
        self.preset: str | None = None  # the preset loaded last, while the scene is one
        self.math_shown = False
        self.race_on = False
        self.moving = False
        self.box_states: dict[str, bool] = {}  # the Keep page's boxes' states, kept through a rebuild
        self.recording = self.capturing = False  # the Record and GIF buttons' states, kept through a rebuild
        self.timeline_path = ""  # the timeline's file box, kept through a rebuild
        self.width = 0
        self.build(window_size)

    def __getattr__(self, name):
        """A setting's check box by the setting's name."""
        rows = self.__dict__.get("setting_rows")
        if rows is not None and name in rows.boxes:
            return rows.boxes[name]
        raise AttributeError(name)

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self.root.get_abs_rect())  # (typed Rect | FRect by pygame_gui; a copy)

    def build(self, window_size) -> None:
        """Lay the widgets out for ``window_size``: narrower in a small window, scrolling in a short one."""
        w, h = window_size
        m = self.manager
        self.width = panel_width(w) if self.visible else 0
        width = max(self.width, MIN_WIDTH)
        self.root = UIPanel(pygame.Rect(w - self.width, 0, width, h), manager=m, object_id="#panel")
        scrolls = h < CONTENT_HEIGHT
        # a scroller only in a short window: pygame_gui's theme ids grow steeply with nesting
        self.scroller = (UIScrollingContainer(pygame.Rect(0, 0, width - 2, h - 2), m, container=self.root,
                                              object_id="#panel_scroll", allow_scroll_x=False)
                         if scrolls else None)
        box = self.box = self.scroller if scrolls else self.root
        inner = width - 2 * PAD - (SCROLLBAR if scrolls else 0) - 2
        wide = inner >= WIDE_INNER
        label_w, _ = column_widths(inner)
        y = 8
        self.title = make_label(pygame.Rect(PAD, y, inner, 26), "No chain selected", m, box, "#panel_title")
        y += 30
        tab_w = (inner - 4 * (len(PAGES) - 1)) // len(PAGES)
        self.tabs = {page: UIButton(pygame.Rect(PAD + i * (tab_w + 4), y, tab_w, TAB_HEIGHT), TAB_LABELS[page], m, box,
                                    object_id=f"#tab_{page}", tool_tip_text=TAB_TIPS[page])
                     for i, page in enumerate(PAGES)}
        y += TAB_HEIGHT + 6
        page_top = y
        self._menu_rects: dict[str, pygame.Rect] = {}
        solver_label = self._menu_label("solver", y, label_w, inner)
        self.solver = self._menu("solver", SOLVER_LABELS["two-bone"])
        y += ROW + 4
        self.setting_rows = SettingRows(y, inner, m, box)  # one check box or slider per setting
        self.params = self.setting_rows.sliders
        y = self.setting_rows.bottom
        self.hint = make_label(pygame.Rect(PAD, y, inner, 20), "", m, box, pygame_gui.core.ObjectID("#hint", "@hint"))
        y += 26
        section = UILabel(pygame.Rect(PAD, y, inner, 20), "SCENE", m, box, object_id="#section")
        y += 22
        preset_label = self._menu_label("preset", y, label_w, inner)
        self.preset_menu = self._menu("preset", self.preset or NO_PRESET)
        y += ROW + 6
        new_label = self._menu_label("new_chain", y, label_w, inner)
        self.new_chain = self._menu("new_chain", SOLVER_LABELS[self.new_solver])
        y += ROW + 6
        buttons.make_row(self, ("add_button", "remove_button", "help_button"), PAD, y, inner, wide)
        y += ROW + 4
        self.obstacle_button = buttons.make("obstacle_button", pygame.Rect(PAD, y, inner, 28), m, box, wide)
        y += ROW + 4
        self.stress_button = buttons.make("stress_button", pygame.Rect(PAD, y, inner, 28), m, box, wide)
        self.show_stress(self.stress_on)
        y += ROW + 8
        button_w = 52 if wide else 44
        self.path_entry = PathEntry(pygame.Rect(PAD, y, inner - 2 * button_w - 8, 28), m, box,
                                    path=self.scene_path, object_id="#scene_path")
        self.path_entry.set_tooltip(PATH_TIP)
        self.save_button = buttons.make("save_button", pygame.Rect(PAD + inner - 2 * button_w - 4, y, button_w, 28),
                                        m, box, wide)
        self.load_button = buttons.make("load_button", pygame.Rect(PAD + inner - button_w, y, button_w, 28),
                                        m, box, wide)
        y += ROW + 8
        # the Chain page's widgets but the setting rows and the solver and preset menus (remade: see show_page)
        self.chain_widgets = [solver_label, self.hint, section, preset_label, new_label, self.new_chain,
                              self.add_button, self.remove_button, self.help_button, self.obstacle_button,
                              self.stress_button,
                              self.path_entry, self.save_button, self.load_button]
        self.math_page = MathPage(self, page_top, inner, (h - 2) if not scrolls else CONTENT_HEIGHT, wide,
                                  self.math_shown, self.race_on, self.moving)
        self.keep_page = KeepPage(self, page_top, inner, wide)
        self.show_recording(self.recording)
        self.show_capturing(self.capturing)
        y = max(y, self.math_page.bottom, self.keep_page.bottom)
        if scrolls:
            assert self.scroller is not None  # made above for a panel that scrolls
            self.scroller.set_scrollable_area_dimensions((width - 2 - SCROLLBAR, max(y, h - 2)))
        if not self.visible:
            self.root.hide()
        self._shown_solver = None
        self.show_page(self.page)
        self.sync(self.chain)

    def show_page(self, page: str) -> None:
        """Show page ``page`` (its tab selected), hiding the others' widgets."""
        self.page = page
        show_all((*self.chain_widgets, self.solver, self.preset_menu), page == "chain")
        self.setting_rows.set_visible(page == "chain")
        self.math_page.set_visible(page == "math")
        self.keep_page.set_visible(page == "keep")
        for name, tab in self.tabs.items():
            tab.select() if name == page else tab.unselect()
        if not self.visible:
            self.root.hide()

    def _menu_label(self, name: str, y: int, label_w: int, inner: int) -> UILabel:
        """Menu ``name``'s label (``#<name>_label``) at ``y``; the menu's rect, right of it, is kept."""
        text, tip = MENUS[name]
        label = param_label(name, text, pygame.Rect(PAD, y, label_w, 28), self.manager, self.box)
        tip_whole(label, text, tip)
        self._menu_rects[name] = pygame.Rect(PAD + label_w + 2, y, inner - label_w - 2, 28)
        return label

    def _menu(self, name: str, chosen: str) -> UIDropDownMenu:
        """The Chain page's drop-down menu ``name`` (``#<name>``) showing ``chosen``, hidden off its page."""
        options = [NO_PRESET, *available_presets()] if name == "preset" else [SOLVER_LABELS[k] for k in SOLVERS]
        rect = self._menu_rects[name]
        up = rect.bottom + len(options) * rect.height > self.root.relative_rect.height - 4  # the list would run out
        menu = TippedDropDown(options, chosen, rect, self.manager, self.box, object_id=f"#{name}",
                              tip=MENUS[name][1], up=up)
        if self.page != "chain":
            menu.hide()
        return menu

    def show_preset(self, name: str | None) -> None:
        """Show ``name`` as the loaded preset (None: the scene is the user's own)."""
        if name != self.preset:
            self.preset = name
            self.preset_menu.kill()
            self.preset_menu = self._menu("preset", name or NO_PRESET)

    def rebuild(self, window_size) -> None:
        """Lay the panel out again for a new window size, keeping its state."""
        self.scene_path = self.path_entry.get_text()
        self.timeline_path = self.keep_page.timeline.entry.get_text()
        self.root.kill()
        # pygame_gui 0.6.14 never empties its sprite group's lostsprites: each rebuild would leak a few KB
        group = self.manager.get_sprite_group()
        if isinstance(getattr(group, "lostsprites", None), list):
            group.lostsprites.clear()
        self.build(window_size)

    def set_visible(self, visible: bool, window_size) -> None:
        """Show or hide the panel (F2); hidden, it takes no room from the stage."""
        self.visible = visible
        self.rebuild(window_size)

    def show_stress(self, on: bool) -> None:
        self.stress_on = on
        self.stress_button.set_text(buttons.STRESS_LABELS[on])

    def show_race(self, on: bool, moving: bool) -> None:
        """The race button's label and the "Moving target" box, as the race is."""
        self.race_on, self.moving = on, moving
        self.math_page.show_race(on)
        self.show_state(self.moving_target_box, moving)

    def show_recording(self, on: bool) -> None:
        """The Record button's label, as the recording is."""
        self.recording = on
        self.record_button.set_text(buttons.RECORD_LABELS[on][self.keep_page.wide])

    def show_capturing(self, on: bool) -> None:
        """The GIF button's label, as the capture is."""
        self.capturing = on
        self.gif_button.set_text(buttons.GIF_LABELS[on][self.keep_page.wide])

    def show_math(self, on: bool) -> None:
        """The "Show the math" box, as the overlays are."""
        self.math_shown = on
        self.show_state(self.show_math_box, on)

    def sync(self, chain: Chain | None) -> None:
        """Show ``chain``'s settings (or disable everything when None)."""
        self.chain = chain
        self.setting_rows.sync(chain, self.show_state)
        if chain is None:
            fit(self.title, "No chain selected")
            enable_all((self.solver, self.remove_button), False)
            fit(self.hint, "Press N to add a chain, or click one to select it.")
            return
        solver = chain.solver
        if self._shown_solver != solver:
            self.solver.kill()
            self.solver = self._menu("solver", SOLVER_LABELS[solver])
            self._shown_solver = solver
        fit(self.title, chain.label)
        enable_all((self.solver, self.remove_button), True)
        fit(self.hint, SOLVER_KINDS[solver].hint)

    def show_state(self, box: UICheckBox, state: bool) -> None:
        """Tick or untick ``box`` without it counting as a click: pygame_gui's echo event is taken back."""
        if box.get_state() == state:
            return
        box.set_state(state)
        kinds = (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED)
        others = [e for e in pygame.event.get(kinds) if getattr(e, "ui_element", None) is not box]
        for e in others:
            pygame.event.post(e)

    def process(self, event) -> tuple[str, object] | None:
        """The command a pygame_gui event stands for, or None."""
        return command_of(self, event)

    def typing(self) -> bool:
        """True while a text field has the keyboard."""
        return self.path_entry.is_focused or self.keep_page.timeline.entry.is_focused

    def unfocus_typing(self) -> None:
        """Give the keyboard back to the stage from a text field (its typed text stays)."""
        for entry in (self.path_entry, self.keep_page.timeline.entry):
            if entry.is_focused:
                entry.unfocus()

    def open_menus(self) -> list[UIDropDownMenu]:
        """The drop-down menus showing their lists (the panel's and the setting rows')."""
        return [el for el in self.manager.get_sprite_group().sprites()  # (menu_states: a drop-down's, and a cheaper
                if getattr(el, "menu_states", None) is not None  # test than isinstance through pygame_gui's ABCs)
                and isinstance(el, UIDropDownMenu) and el.current_state is el.menu_states.get("expanded")]

    def close_menus(self) -> bool:
        """Close every open drop-down list (the choice stays); True if one was open."""
        menus = self.open_menus()
        for menu in menus:
            menu.unfocus()  # it folds up at the next update
        if menus:
            self.manager.set_focus_set(None)
        return bool(menus)

    def release_keys(self) -> None:
        """After a click: a button, box, slider or chosen menu entry gives the keyboard back to the stage (Space
        pauses...); only the path box being typed in, or an open drop-down list, keeps it."""
        if self.manager.get_focus_set() and not self.typing() and not self.open_menus():
            self.manager.set_focus_set(None)

    def hide_tips(self, every: bool) -> None:
        """Take down the tool tips of controls the mouse is not over (``every``: all of them, after a click or a
        key, and while a drop-down list is open, which a tip would cover; they come back only when the mouse comes
        onto a control again)."""
        tipped = [el for el in self.manager.get_sprite_group().sprites() if getattr(el, "tool_tip", None) is not None]
        every = bool(tipped) and (every or bool(self.open_menus()))  # (no tip up, the usual frame: one pass)
        for el in tipped:
            tip = el.tool_tip
            if not (every or not el.hovered or not el.visible):
                continue
            tip.kill()
            el.tool_tip = None
            if el.hovered:
                el.hover_time = -float("inf")  # not again until the mouse leaves and comes back
