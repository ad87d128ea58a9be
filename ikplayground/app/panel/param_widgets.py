"""The panel's controls for the selected chain's settings, made from the table of settings, and the small
layout helpers the whole panel uses.

One row per setting (a check box for a flag, a menu for a choice, else a slider with its value and unit); only
the rows of the chain's solver are shown, disabled where the flag a setting ``needs`` is off. A control's event
becomes ``(setting name, value)`` for ``Scene.set_setting``; :func:`panel_help_rows` describes the rows.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UICheckBox, UIDropDownMenu, UIHorizontalSlider, UILabel

from ikplayground.scene import IK_SOLVERS, SETTINGS, SETTINGS_BY_NAME, SOLVER_LABELS, SOLVERS, Setting

PAD = 12
LABEL_W = 100  # "Step threshold" fits
VALUE_W = 88  # "10.0 px/step" fits
WIDE_INNER = 240  # px inside the padding from which rows get their full label and value widths
ROW = 24  # px a slider row: 24 px labels and 20 px sliders, packed (the tallest kinds have 19 rows)
FLAG_ROW = ROW - 2  # a check box's row is a little shorter than a slider's


def fit(label: UILabel, text: str) -> bool:
    """Set ``text`` on ``label``, cut with an ellipsis where it would not fit; True when cut."""
    font = label.font
    width = label.relative_rect.width - 4
    cut = font is not None and font.get_rect(text).width > width
    if font is not None and cut:
        while text and font.get_rect(text + "…").width > width:
            text = text[:-1]
        text = text.rstrip() + "…" if text else ""
    label.set_text(text)
    return cut


def tip_whole(label: UILabel, text: str, tip: str) -> None:
    """Give ``label`` the tool tip ``tip``, led by its whole ``text`` when the label shows it cut."""
    label.set_tooltip(tip if label.text == text else f"{text}: {tip[:1].lower()}{tip[1:]}")


def make_label(rect, text: str, manager, container, object_id) -> UILabel:
    """A label whose text is cut to fit (a narrow panel must not overflow its labels)."""
    label = UILabel(rect, "", manager, container, object_id=object_id)
    fit(label, text)
    return label


def param_label(name: str, text: str, rect, manager, container) -> UILabel:
    """A row's label (object id ``#<name>_label``, class ``@param_label``), cut to fit."""
    return make_label(rect, text, manager, container, pygame_gui.core.ObjectID(f"#{name}_label", "@param_label"))


def column_widths(inner: int) -> tuple[int, int]:
    """(label, value) column widths of a slider row ``inner`` px wide."""
    if inner >= WIDE_INNER:
        return LABEL_W, VALUE_W
    return inner * 9 // 20, inner // 4  # a narrow panel's values leave out the unit (its tool tip names it)


def format_value(setting: Setting, value: float, unit: bool = True) -> str:
    """A slider's value as its label shows it: its digits, then its ``unit`` (False: left out)."""
    text = f"{int(round(value))}" if setting.kind == "whole" else f"{value:.{setting.digits}f}"
    return f"{text} {setting.unit}".strip() if unit else text


def setting_tip(setting: Setting) -> str:
    """The tool tip of a setting's controls: what it does, and its unit and range (or choices)."""
    text = setting.help[:1].upper() + setting.help[1:]
    if setting.kind == "flag":
        return text + "."
    if setting.kind == "choice":
        return f"{text}: {', '.join(setting.choices)}."
    lo, hi = setting.span
    span = f"{format_value(setting, lo).removesuffix(setting.unit).strip()} to {format_value(setting, hi)}"
    if setting.unit:
        return f"{text}: {span}."
    return f"{text}: {span} ({'a whole number' if setting.kind == 'whole' else 'no unit'})."


def set_tip(tip: str, *widgets) -> None:
    """Give each of ``widgets`` (None skipped) the tool tip ``tip``."""
    for w in widgets:
        if w is not None:
            w.set_tooltip(tip)


def show_all(widgets, visible: bool) -> None:
    """Show ``widgets`` when ``visible``, else hide them."""
    for w in widgets:
        w.show() if visible else w.hide()


def enable_all(widgets, enabled: bool) -> None:
    """Enable ``widgets`` when ``enabled``, else disable them."""
    for w in widgets:
        w.enable() if enabled else w.disable()


class TippedDropDown(UIDropDownMenu):
    """A drop-down menu whose buttons show ``tip`` (pygame_gui 0.6's takes none, and remakes its buttons);
    ``up``: its list opens upward (a menu near the window's bottom)."""

    def __init__(self, *args, tip: str, up: bool = False, **kwargs):
        self.tip = tip
        super().__init__(*args, **kwargs)
        self.set_tooltip(tip)
        if up:
            self.expand_direction = "up"
            for state in self.menu_states.values():
                state.expand_direction = "up"
            self.rebuild()

    def update(self, time_delta: float) -> None:
        super().update(time_delta)
        for button in getattr(self.current_state, "active_buttons", ()):
            if button.tool_tip_text is None:
                button.set_tooltip(self.tip)


def row_height(setting: Setting) -> int:
    return FLAG_ROW if setting.kind == "flag" else ROW


def rows_height() -> int:
    """The setting rows' height, px: that of the solver with the most."""
    return max(sum(row_height(s) for s in SETTINGS if s.applies(solver)) for solver in SOLVERS)


class SliderRow:
    """One slider row: label, slider, value and unit."""

    def __init__(self, setting: Setting, y: int, inner: int, manager, container):
        self.setting = setting
        name = setting.name
        label_w, value_w = column_widths(inner)
        self.unit = value_w >= VALUE_W  # a narrow value column shows the digits alone
        slider_w = inner - label_w - value_w - 4
        self._x = (PAD, PAD + label_w + 2, PAD + inner - value_w)
        self.label = param_label(name, setting.label, pygame.Rect(PAD, y, label_w, 24), manager, container)
        lo, hi = setting.span
        value_range = (int(lo), int(hi)) if setting.kind == "whole" else (float(lo), float(hi))
        self.slider = UIHorizontalSlider(pygame.Rect(PAD + label_w + 2, y + 3, slider_w, 20), value_range[0],
                                         value_range, manager, container, object_id=f"#{name}",
                                         click_increment=setting.click_step)
        self.value = UILabel(pygame.Rect(PAD + inner - value_w, y, value_w, 24), "", manager, container,
                             object_id=pygame_gui.core.ObjectID(f"#{name}_value", "@param_value"))
        slider = self.slider  # its arrow buttons and handle are widgets of their own: each gets the tip
        set_tip(setting_tip(setting), slider, self.value, slider.sliding_button,
                getattr(slider, "left_button", None), getattr(slider, "right_button", None))
        tip_whole(self.label, setting.label, setting_tip(setting))
        holder = getattr(slider, "button_container", None)
        if holder is not None:
            # pygame_gui 0.6's container over the track takes the hover without a tip: let it through
            holder.hover_point = lambda x, y: False

    @property
    def widgets(self) -> tuple:
        return self.label, self.slider, self.value

    def move(self, y: int) -> None:
        """Put the row's top at ``y``."""
        for w, x, dy in zip(self.widgets, self._x, (0, 3, 0)):
            w.set_relative_position((x, y + dy))

    def show(self, value: float, enabled: bool) -> None:
        """Put the handle at ``value`` (within the slider), the label at its text."""
        lo, hi = self.setting.span
        v = min(max(value, lo), hi)
        self.slider.set_current_value(int(round(v)) if self.setting.kind == "whole" else float(v), warn=False)
        fit(self.value, format_value(self.setting, value, self.unit) if enabled else "—")
        enable_all(self.widgets, enabled)

    def read(self) -> float:
        """The slider's value (whole for a whole-number setting), its label updated."""
        v = self.slider.get_current_value()
        v = int(round(v)) if self.setting.kind == "whole" else float(v)
        fit(self.value, format_value(self.setting, v, self.unit))
        return v


class FlagRow:
    """One flag's row: a check box labelled with the setting's label."""

    def __init__(self, setting: Setting, y: int, inner: int, manager, container):
        self.setting = setting
        self.box = UICheckBox(pygame.Rect(PAD, y + 4, 18, 18), setting.label, manager, container,
                              object_id=f"#{setting.name}", tool_tip_text=setting_tip(setting))
        self.widgets = (self.box,)

    def move(self, y: int) -> None:
        self.box.set_relative_position((PAD, y + 4))


def _selected(menu) -> str:
    """The text of a drop-down menu's selected option."""
    option = menu.selected_option
    return option[0] if isinstance(option, tuple) else option


class ChoiceRow:
    """One choice's row: its label, and a drop-down menu of its choices."""

    def __init__(self, setting: Setting, y: int, inner: int, manager, container):
        self.setting = setting
        self.manager, self.container = manager, container
        label_w, _ = column_widths(inner)
        self.label = param_label(setting.name, setting.label, pygame.Rect(PAD, y, label_w, 24), manager, container)
        self.rect = pygame.Rect(PAD + label_w + 2, y - 1, inner - label_w - 2, 26)
        self.tip = setting_tip(setting)
        tip_whole(self.label, setting.label, self.tip)
        self._make = lambda value: TippedDropDown(list(setting.choices), value, self.rect, manager, container,
                                                  object_id=f"#{setting.name}", tip=self.tip)
        self.menu = self._make(str(setting.default))

    @property
    def widgets(self) -> tuple:
        return self.label, self.menu

    def move(self, y: int) -> None:
        self.label.set_relative_position((PAD, y))
        self.rect.y = y - 1
        self.menu.set_relative_position(self.rect.topleft)

    def show(self, value, enabled: bool) -> None:
        """Show ``value`` as the menu's choice (pygame_gui's menu cannot be told: a new one is made)."""
        if value in self.setting.choices and _selected(self.menu) != value:
            visible = self.menu.visible
            self.menu.kill()
            self.menu = self._make(value)
            if not visible:
                self.menu.hide()
        enable_all(self.widgets, enabled)


class SettingRows:
    """The rows of every setting, from ``y`` down, ``inner`` px wide: ``rows`` by name (``sliders``,
    ``boxes``, ``menus`` by kind); only the shown solver's are visible, packed from the top."""

    def __init__(self, y: int, inner: int, manager, container):
        kinds: dict[str, type[FlagRow | ChoiceRow | SliderRow]] = {"flag": FlagRow, "choice": ChoiceRow}
        self.rows: dict[str, FlagRow | ChoiceRow | SliderRow] = {}
        self.top = y
        for s in SETTINGS:
            self.rows[s.name] = kinds.get(s.kind, SliderRow)(s, y, inner, manager, container)
            y += row_height(s)
        self.sliders = {n: r for n, r in self.rows.items() if isinstance(r, SliderRow)}
        self.boxes = {n: r.box for n, r in self.rows.items() if isinstance(r, FlagRow)}
        self.menus = {n: r for n, r in self.rows.items() if isinstance(r, ChoiceRow)}
        self.bottom = self.top + rows_height()
        self.visible = True  # False while the panel shows another page: every row hidden
        self._arranged: str | None = None
        self._solver = "ccd"
        self.arrange("ccd")

    def set_visible(self, visible: bool) -> None:
        """Show the rows (of the last solver arranged) or hide them all."""
        self.visible = visible
        self._arranged = None
        self.arrange(self._solver)

    def arrange(self, solver: str) -> None:
        """Show the rows of ``solver``'s settings, packed from the top; hide the others."""
        if solver == self._arranged:
            return
        self._arranged = self._solver = solver
        y = self.top
        for s in SETTINGS:
            row = self.rows[s.name]
            if s.applies(solver):
                row.move(y)
                y += row_height(s)
            show_all(row.widgets, s.applies(solver) and self.visible)

    def sync(self, chain, show_state) -> None:
        """Show ``chain``'s settings (None: every control disabled); ``show_state(box, state)`` ticks a box
        without it counting as a click."""
        if chain is not None:
            self.arrange(chain.solver)
        for s in SETTINGS:
            applies = chain is not None and s.applies(chain.solver)
            enabled = applies and (s.needs is None or bool(SETTINGS_BY_NAME[s.needs].read(chain)))
            row = self.rows[s.name]
            if isinstance(row, FlagRow):
                if chain is not None:
                    show_state(row.box, bool(s.read(chain)) if applies else False)
                enable_all(row.widgets, enabled)
            elif isinstance(row, ChoiceRow):
                row.show(s.read(chain) if applies else None, enabled)
            else:
                row.show(s.read(chain) if applies else s.span[0], enabled)

    def process(self, event, element) -> tuple[str, object] | None:
        """``(setting name, value)`` when ``event`` moved a slider, ticked a box or chose a choice."""
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
            for name, row in self.sliders.items():
                if element is row.slider:
                    return name, row.read()
        elif event.type in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
            for name, box in self.boxes.items():
                if element is box:
                    return name, event.type == pygame_gui.UI_CHECK_BOX_CHECKED
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for name, menu_row in self.menus.items():
                if element is menu_row.menu and event.text in menu_row.setting.choices:
                    return name, event.text
        return None


def _solvers_text(solvers: tuple[str, ...]) -> str:
    if set(solvers) == set(SOLVERS):
        return "every solver"
    if set(solvers) == set(IK_SOLVERS):
        return "every IK solver"
    if set(solvers) == set(IK_SOLVERS) | {"rig"}:
        return "every IK solver and rigs"
    return ", ".join(SOLVER_LABELS[k] for k in solvers)


def panel_help_rows(solver: str | None = None) -> list[tuple[str, str]]:
    """(control, what it does) rows of the setting controls for the F1 help: help, range and unit, and
    solvers; with ``solver``, only that solver's."""
    rows = []
    for s in SETTINGS:
        if solver is not None and not s.applies(solver):
            continue
        text = s.help
        if s.kind == "choice":
            text += f": {', '.join(s.choices)}"
        elif s.kind != "flag":
            lo, hi = s.span
            unit = f" {s.unit}" if s.unit else ""
            text += f", {format_value(s, lo).removesuffix(unit)} to {format_value(s, hi)}"
        rows.append((s.label, f"{text} · {_solvers_text(s.solver_names)}"))
    return rows
