"""The control panel: pygame_gui widgets for the selected chain and the scene.

Every widget has an ``object_id`` (styled in ``ikplayground/assets/theme.json``). The panel
never touches the scene: :meth:`Panel.process` turns a widget's event into a
named command ``(action, value)`` for the App, and :meth:`Panel.sync` shows a
chain's current settings. Widgets that mean nothing for the selected chain's
solver are disabled, with a hint saying why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UICheckBox,
    UIDropDownMenu,
    UIHorizontalSlider,
    UILabel,
    UIPanel,
    UIScrollingContainer,
    UITextEntryLine,
)

from ikplayground.scene.chain import MAX_BONES, SOLVER_LABELS, SOLVERS, Chain

from . import keymap
from .glyphs import REPLACEMENT, undrawable
from .limits import PATH_MAX_BYTES

WIDTH = 300  # the panel's width in a roomy window
MIN_WIDTH = 220  # ... and in a small one
SCROLLBAR = 20
PAD = 12
LABEL_W = 94
VALUE_W = 84
WIDE_INNER = 240  # px inside the padding from which rows get their full label and value widths
CONTENT_HEIGHT = 612  # the height of everything in the panel (it scrolls in a shorter window)


def fit(label: UILabel, text: str) -> None:
    """Set ``text`` on ``label``, cut with an ellipsis where it would not fit its width."""
    font = label.font
    width = label.relative_rect.width - 4
    if font is not None and font.get_rect(text).width > width:
        while text and font.get_rect(text + "…").width > width:
            text = text[:-1]
        text = text.rstrip() + "…" if text else ""
    label.set_text(text)


def make_label(rect, text: str, manager, container, object_id) -> UILabel:
    """A label whose text is cut to fit (a narrow panel must not overflow its labels)."""
    label = UILabel(rect, "", manager, container, object_id=object_id)
    fit(label, text)
    return label


def column_widths(inner: int) -> tuple[int, int]:
    """(label, value) column widths of a slider row in a panel ``inner`` px wide inside its padding."""
    if inner >= WIDE_INNER:
        return LABEL_W, VALUE_W
    return inner * 2 // 5, inner // 4


def panel_width(window_width: int) -> int:
    """How wide the panel is in a window ``window_width`` px wide."""
    return int(min(WIDTH, max(MIN_WIDTH, window_width * 0.45)))
ROW = 28
PATH_NOTICE = pygame.event.custom_type()  # the path box's word for the status line: event.text
KIND_OF_LABEL = {label: kind for kind, label in SOLVER_LABELS.items()}


@dataclass(frozen=True)
class ParamSpec:
    """A slider: its action, label, range, unit, and the solvers it applies to."""

    action: str
    label: str
    lo: float
    hi: float
    unit: str
    solvers: tuple[str, ...]
    integer: bool = False
    digits: int = 1


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("rate", "Rate limit", 0.5, 30.0, "°/step", ("two-bone", "ccd", "fabrik")),
    ParamSpec("joint_limit", "Joint limit ±", 0.0, 180.0, "°", ("ccd", "fabrik"), digits=0),
    ParamSpec("bend_range", "Bend range ±", 0.0, 180.0, "°", ("snake",), digits=0),
    ParamSpec("bones", "Bones", 1, MAX_BONES, "", ("ccd", "fabrik", "snake"), integer=True),
    ParamSpec("bone_length", "Bone length", 5.0, 200.0, "px", SOLVERS, digits=0),
    ParamSpec("iterations", "Iterations", 1, 100, "", ("ccd", "fabrik"), integer=True),
    ParamSpec("tolerance", "Tolerance", 0.1, 10.0, "px", ("ccd", "fabrik")),
    ParamSpec("max_speed", "Top speed", 1.0, 30.0, "px/step", ("snake",)),
    ParamSpec("turn_rate", "Turn rate", 1.0, 20.0, "°/step", ("snake",)),
)
SPEC = {p.action: p for p in PARAMS}


def format_value(spec: ParamSpec, value: float) -> str:
    text = f"{int(round(value))}" if spec.integer else f"{value:.{spec.digits}f}"
    return f"{text} {spec.unit}".strip()


def chain_value(chain: Chain, action: str) -> float:
    """The current value of a slider's setting on ``chain``."""
    f = chain.fields
    if action == "rate":
        return chain.rate_limit if chain.rate_limit is not None else chain.rate_deg
    if action == "joint_limit":
        return chain.joint_limit
    if action == "bend_range":
        return float(abs(f["bend_limits"]).max()) * 180.0 / math.pi
    if action == "bones":
        return chain.bones
    if action == "bone_length":
        return float(f["lengths"].mean())
    if action == "iterations":
        return chain.iterations
    if action == "tolerance":
        return chain.tolerance
    if action == "max_speed":
        return float(f["max_speed"][0])
    if action == "turn_rate":
        return float(f["turn_rate"][0]) * 180.0 / math.pi
    raise KeyError(action)


class Param:
    """One slider row: name on the left, slider, value with its unit on the right."""

    def __init__(self, spec: ParamSpec, y: int, inner: int, manager, container):
        self.spec = spec
        label_w, value_w = column_widths(inner)
        slider_w = inner - label_w - value_w - 4
        self.label = make_label(pygame.Rect(PAD, y, label_w, 24), spec.label, manager, container,
                                pygame_gui.core.ObjectID(f"#{spec.action}_label", "@param_label"))
        start = int(spec.lo) if spec.integer else float(spec.lo)
        value_range = (int(spec.lo), int(spec.hi)) if spec.integer else (float(spec.lo), float(spec.hi))
        self.slider = UIHorizontalSlider(pygame.Rect(PAD + label_w + 2, y + 3, slider_w, 20), start, value_range,
                                         manager, container, object_id=f"#{spec.action}",
                                         click_increment=1 if spec.integer else (spec.hi - spec.lo) / 50)
        self.value = UILabel(pygame.Rect(PAD + inner - value_w, y, value_w, 24), "", manager, container,
                             object_id=pygame_gui.core.ObjectID(f"#{spec.action}_value", "@param_value"))

    def show(self, value: float, enabled: bool) -> None:
        v = min(max(value, self.spec.lo), self.spec.hi)
        self.slider.set_current_value(int(round(v)) if self.spec.integer else float(v), warn=False)
        fit(self.value, format_value(self.spec, value) if enabled else "—")
        for w in (self.label, self.slider, self.value):
            w.enable() if enabled else w.disable()

    def read(self) -> float:
        v = self.slider.get_current_value()
        return int(round(v)) if self.spec.integer else float(v)


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


class PathEntry(UITextEntryLine):
    """The scene file box: pygame_gui's text line, kept fast and safe for any input.

    * Typing is gathered and goes into the box once a frame. pygame_gui lays out
      and draws the whole line again for every character it inserts (its cost
      grows with the text's length), so text that arrives as many characters in
      one frame (a typing tool, a held key, a long TEXTINPUT) would cost that
      once per character. Paste (Ctrl+V) goes in as one piece too.
    * The box holds at most :data:`PATH_MAX_BYTES` bytes of UTF-8 (Linux's
      PATH_MAX): typing stops there, and a paste that would not fit is refused
      whole; either way the App is told (a :data:`PATH_NOTICE` event).
    * Characters the font cannot draw (lone surrogates, control characters
      such as a pasted line break, zero-width ones, ones without a glyph) are
      left out of typed and pasted text, and shown as � (or ?) in a path set by
      code, e.g. a file name that is not valid UTF-8. ``get_text`` still gives
      that path exactly until the box is edited.
    * The App's key repeat is kept (pygame_gui sets its own on focus and turns
      repeat off on unfocus, which would leave held keys dead in the scene).
    """

    def __init__(self, relative_rect, manager, container, path: str = "", **kwargs):
        self._pending: list[str] = []  # typed text not yet in the box
        self._path = self._shown = ""  # a path set by code, and how the box shows it
        super().__init__(relative_rect, manager, container, **kwargs)
        self.set_text(path)

    # --- what the box shows and gives ---------------------------------------------
    def drawable(self, ch: str) -> bool:
        """True when the box's font draws ``ch`` with some width (pygame_gui's own test
        for a typed character, plus control characters, surrogates and zero width)."""
        if undrawable(ch) or self.font is None:
            return False
        metrics = self.font.get_metrics(ch)
        return bool(metrics) and metrics[0] is not None and metrics[0][4] > 0

    def clean(self, text: str) -> tuple[str, int]:
        """``text`` without what the box cannot draw, and how many characters were left out."""
        kept = "".join(ch for ch in text if self.drawable(ch))
        return kept, len(text) - len(kept)

    def set_text(self, text: str | None) -> None:
        """Show ``text``: what cannot be drawn as �, and past the length cap only its end.
        :meth:`get_text` gives ``text`` itself as long as the box is not edited."""
        self._pending.clear()
        path = text or ""
        mark = REPLACEMENT if self.drawable(REPLACEMENT) else "?"
        shown = "".join(ch if self.drawable(ch) else mark for ch in path)
        if utf8_size(shown) > PATH_MAX_BYTES:  # a path no system opens: show its end only
            shown = shown.encode("utf-8")[-(PATH_MAX_BYTES - 3):].decode("utf-8", "ignore")
            shown = "…" + shown
        self._path, self._shown = path, shown
        super().set_text(shown)

    def get_text(self) -> str:
        """The path in the box (the path set by code, while the box still shows it)."""
        self._flush()
        return self._path if self.text == self._shown else self.text

    # --- input --------------------------------------------------------------------------
    def process_event(self, event) -> bool:
        mine = self.is_enabled and self.is_focused
        if mine and event.type == pygame.TEXTINPUT:
            mods = pygame.key.get_mods()
            if event.text == "v" and mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self._flush()  # pygame_gui's case: on a Mac a paste can come as this alone
                self.paste()
            else:
                self._pending.append(event.text)
            return True
        self._flush()  # before anything else reads or moves the text
        if (mine and event.type == pygame.KEYDOWN and event.key == pygame.K_v
                and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META) and not event.mod & pygame.KMOD_ALT):
            self.paste()
            return True
        return super().process_event(event)

    def update(self, time_delta: float) -> None:
        self._flush()
        super().update(time_delta)

    def focus(self) -> None:
        repeat = pygame.key.get_repeat()
        super().focus()
        pygame.key.set_repeat(*repeat)

    def unfocus(self) -> None:
        self._flush()  # pygame_gui moves the cursor to the start on unfocus
        repeat = pygame.key.get_repeat()
        super().unfocus()
        pygame.key.set_repeat(*repeat)

    def paste(self) -> None:
        """Ctrl+V: the clipboard's text in one piece, or nothing and a word why."""
        if not self.ui_manager.paste_text_enabled or not self.paste_text_enabled:
            return
        text = pygame.scrap.get_text() or ""
        if len(text) > 2 * PATH_MAX_BYTES:  # could not fit even with characters left out: no need to look
            self.notice(f"Not pasted: {len(text):,} characters are far more than a path can hold "
                        f"({PATH_MAX_BYTES:,} bytes, Linux's PATH_MAX). The box is unchanged.")
            return
        self.insert(text, whole=True)

    def _flush(self) -> None:
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            self.insert(text, whole=False)

    def insert(self, text: str, whole: bool) -> None:
        """Put ``text`` in for the selection or at the cursor, within the length cap.

        ``whole``: a paste, all or nothing; else typing, which stops at the cap.
        """
        text, dropped = self.clean(text)
        words = []
        if dropped:
            words.append(f"Left out {dropped} character{'s' if dropped > 1 else ''} the box cannot show "
                         "(control characters, or ones its font has no shape for).")
        if text and self.validate_text_string(text):
            lo, hi = sorted(self.select_range)
            if lo == hi:
                lo = hi = self.edit_position
            before, after = self.text[:lo], self.text[hi:]
            room = PATH_MAX_BYTES - utf8_size(before) - utf8_size(after)
            if utf8_size(text) > room:
                if whole:
                    words.append(f"Not pasted: the path would be {utf8_size(before + text + after):,} bytes, "
                                 f"and a path holds at most {PATH_MAX_BYTES:,} (Linux's PATH_MAX). "
                                 "The box is unchanged.")
                    text = ""
                else:
                    fits = text.encode("utf-8")[:max(room, 0)].decode("utf-8", "ignore")
                    words.append(f"The scene file path is at its limit of {PATH_MAX_BYTES:,} bytes "
                                 f"(Linux's PATH_MAX): {len(text) - len(fits):,} more characters were not added.")
                    text = fits
            if text:
                self._put(before + text + after, text, lo)
                pygame.event.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, text=self.text,
                                                     ui_element=self,
                                                     ui_object_id=self.most_specific_combined_id))
        if words:
            self.notice(" ".join(words))

    def _put(self, final: str, new: str, at: int) -> None:
        """Make the text ``final`` by putting ``new`` in at ``at`` (for the selection, if any):
        one insertion into the line's layout, as pygame_gui's own paste does, however much came."""
        shape = self.drawable_shape
        layout = shape.text_box_layout if shape is not None else None
        self.text = final
        if layout is not None:
            if self.select_range[0] != self.select_range[1]:
                layout.delete_selected_text()
                shape.apply_active_text_changes()
            shape.insert_text(new, at)
        self.edit_position = at + len(new)
        if layout is not None:
            layout.set_cursor_position(self.edit_position)
            shape.apply_active_text_changes()
        self.select_range = [0, 0]
        self.cursor_has_moved_recently = True

    def notice(self, text: str) -> None:
        pygame.event.post(pygame.event.Event(PATH_NOTICE, text=text, ui_element=self))


class Panel:
    """The right-hand panel.

    Parameters
    ----------
    manager : pygame_gui.UIManager
    window_size : (int, int)
    new_kind : str
        Solver that N adds, shown in the "New chain" selector.
    skin : str
        "sprites" or "lines".
    scene_path : str
        The scene file Ctrl+S writes.
    """

    def __init__(self, manager, window_size, new_kind="ccd", skin="sprites", scene_path=""):
        self.manager = manager
        self.new_kind = new_kind
        self.skin = skin
        self.scene_path = scene_path
        self.chain: Chain | None = None
        self._shown_kind: str | None = None
        self.visible = True
        self.stress_on = False
        self.width = 0
        self.build(window_size)

    @property
    def rect(self) -> pygame.Rect:
        return self.root.get_abs_rect()

    # --- layout --------------------------------------------------------------
    def build(self, window_size) -> None:
        """Lay the widgets out for ``window_size``: narrower in a small window, scrolling in a short one."""
        w, h = window_size
        m = self.manager
        self.width = panel_width(w) if self.visible else 0
        width = max(self.width, MIN_WIDTH)
        self.root = UIPanel(pygame.Rect(w - self.width, 0, width, h), manager=m, object_id="#panel")
        scrolls = h < CONTENT_HEIGHT
        # A scrolling container only when the window is too short: pygame_gui
        # builds theme ids that grow steeply with nesting (megabytes per
        # widget at this depth), so a roomy window keeps the panel flat.
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
        make_label(pygame.Rect(PAD, y, label_w, 28), "Solver", m, box,
                   pygame_gui.core.ObjectID("#solver_label", "@param_label"))
        self.solver_rect = pygame.Rect(PAD + label_w + 2, y, inner - label_w - 2, 28)
        self.solver = self._solver_menu("two-bone")
        y += ROW + 4
        self.mirror = UICheckBox(pygame.Rect(PAD, y + 4, 18, 18), "Mirror bend", m, box, object_id="#mirror",
                                 tool_tip_text="Two-bone only: bend the knee to the other side (M)")
        y += ROW - 2
        self.rate_on = UICheckBox(pygame.Rect(PAD, y + 4, 18, 18), "Rate limit on", m, box, object_id="#rate_on",
                                  tool_tip_text="Cap how far any joint turns in one step")
        y += ROW - 2
        self.params: dict[str, Param] = {}
        for spec in PARAMS:
            self.params[spec.action] = Param(spec, y, inner, m, box)
            y += ROW
        self.hint = make_label(pygame.Rect(PAD, y, inner, 20), "", m, box, pygame_gui.core.ObjectID("#hint", "@hint"))
        y += 26
        UILabel(pygame.Rect(PAD, y, inner, 20), "SCENE", m, box, object_id="#section")
        y += 22
        make_label(pygame.Rect(PAD, y, label_w, 28), "New chain", m, box,
                   pygame_gui.core.ObjectID("#new_chain_label", "@param_label"))
        self.new_chain = UIDropDownMenu([SOLVER_LABELS[k] for k in SOLVERS], SOLVER_LABELS[self.new_kind],
                                        pygame.Rect(PAD + label_w + 2, y, inner - label_w - 2, 28), m, box,
                                        object_id="#new_chain")
        y += ROW + 6
        third = (inner - 8) // 3
        self.add_button = UIButton(pygame.Rect(PAD, y, third, 28), "Add (N)" if wide else "Add", m, box,
                                   object_id="#add", tool_tip_text="Add a chain of the 'New chain' solver (N)")
        self.remove_button = UIButton(pygame.Rect(PAD + third + 4, y, third, 28), "Remove", m, box, object_id="#remove",
                                      tool_tip_text="Remove the selected chain (Delete)")
        self.help_button = UIButton(pygame.Rect(PAD + 2 * third + 8, y, third, 28), "Help (F1)" if wide else "Help",
                                    m, box, object_id="#help", tool_tip_text="Every control (F1)")
        y += ROW + 4
        self.stress_button = UIButton(pygame.Rect(PAD, y, inner, 28), "", m, box, object_id="#stress",
                                      tool_tip_text="Swap in 1000 chains on scripted paths; press again to get your scene back")
        self.show_stress(self.stress_on)
        y += ROW + 8
        self.sprites = UICheckBox(pygame.Rect(PAD, y + 4, 18, 18), "Bone sprites (off: lines)" if wide else "Bone sprites", m, box,
                                  object_id="#sprites", initial_state=self.skin == "sprites")
        y += ROW
        button_w = 52 if wide else 44
        self.path_entry = PathEntry(pygame.Rect(PAD, y, inner - 2 * button_w - 8, 28), m, box,
                                    path=self.scene_path, object_id="#scene_path")
        self.save_button = UIButton(pygame.Rect(PAD + inner - 2 * button_w - 4, y, button_w, 28), "Save", m, box,
                                    object_id="#save", tool_tip_text="Save the scene to this file (Ctrl+S)")
        self.load_button = UIButton(pygame.Rect(PAD + inner - button_w, y, button_w, 28), "Load", m, box,
                                    object_id="#load", tool_tip_text="Load the scene from this file (Ctrl+O)")
        y += ROW + 8
        if scrolls:
            self.scroller.set_scrollable_area_dimensions((width - 2 - SCROLLBAR, max(y, h - 2)))
        if not self.visible:
            self.root.hide()
        self._shown_kind = None
        self.sync(self.chain)

    def _solver_menu(self, kind: str) -> UIDropDownMenu:
        return UIDropDownMenu([SOLVER_LABELS[k] for k in SOLVERS], SOLVER_LABELS[kind], self.solver_rect,
                              self.manager, self.box, object_id="#solver")

    def rebuild(self, window_size) -> None:
        """Lay the panel out again for a new window size, keeping its state."""
        self.scene_path = self.path_entry.get_text()
        self.root.kill()
        # pygame_gui 0.6.14 appends every killed widget's rect to its sprite
        # group's lostsprites and never reads the list: empty it, or each
        # rebuild leaks a few KB
        group = self.manager.get_sprite_group()
        if isinstance(getattr(group, "lostsprites", None), list):
            group.lostsprites.clear()
        self.build(window_size)

    def set_visible(self, visible: bool, window_size) -> None:
        """Show or hide the panel (F2); hidden, it takes no room from the stage."""
        self.visible = visible
        self.rebuild(window_size)

    # --- showing the selected chain ---------------------------------------------
    def show_stress(self, on: bool) -> None:
        self.stress_on = on
        self.stress_button.set_text("Stop the stress test" if on else "Stress test: 1000 chains")

    def sync(self, chain: Chain | None) -> None:
        """Show ``chain``'s settings (or disable everything when None)."""
        self.chain = chain
        if chain is None:
            fit(self.title, "No chain selected")
            for p in self.params.values():
                p.show(p.spec.lo, False)
            for w in (self.solver, self.mirror, self.rate_on, self.remove_button):
                w.disable()
            fit(self.hint, "Press N to add a chain, or click one to select it.")
            return
        kind = chain.kind
        if self._shown_kind != kind:
            self.solver.kill()
            self.solver = self._solver_menu(kind)
            self._shown_kind = kind
        fit(self.title, f"{SOLVER_LABELS[kind]} chain #{chain.id}")
        self.solver.enable()
        self.remove_button.enable()
        if kind == "two-bone":
            self.mirror.enable()
            self.show_state(self.mirror, chain.mirror)
        else:
            self.show_state(self.mirror, False)
            self.mirror.disable()
        if not chain.is_snake:
            self.rate_on.enable()
            self.show_state(self.rate_on, chain.rate_limit is not None)
        else:
            self.show_state(self.rate_on, False)
            self.rate_on.disable()
        for action, p in self.params.items():
            enabled = kind in p.spec.solvers
            if action == "rate":
                enabled = enabled and chain.rate_limit is not None
            applies = kind in p.spec.solvers
            p.show(chain_value(chain, action) if applies else p.spec.lo, enabled)
        fit(self.hint, {
            "two-bone": "Two-bone: exact law-of-cosines solve, 2 bones.",
            "ccd": "CCD: turns each joint toward the target, tip first.",
            "fabrik": "FABRIK: drags the joints to the target and back.",
            "snake": "Snake: arrow keys steer; no target, no rate limit.",
        }[kind])

    def show_state(self, box: UICheckBox, state: bool) -> None:
        """Tick or untick ``box`` to show a setting, without it counting as a click.

        pygame_gui's ``set_state`` posts a checked/unchecked event as a click
        does; that echo is taken back off the queue at once, so it can never
        reach the App as a command (for this chain or, later, another one).
        """
        if box.get_state() == state:
            return
        box.set_state(state)
        kinds = (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED)
        others = [e for e in pygame.event.get(kinds) if getattr(e, "ui_element", None) is not box]
        for e in others:
            pygame.event.post(e)

    def toggle_by_label(self, pos) -> bool:
        """A click on a check box's text ticks it, as in any desktop toolkit (pygame_gui only
        reacts to the box itself). The toggle posts pygame_gui's own event, so it becomes a
        command the same way a click on the box does. True if a box was toggled."""
        if not self.box.rect.collidepoint(pos):  # scrolled out of view, or the panel hidden
            return False
        for box in (self.mirror, self.rate_on, self.sprites):
            label = getattr(box, "text_label", None)
            if (label is not None and box.is_enabled and box.visible and label.rect.collidepoint(pos)
                    and not box.rect.collidepoint(pos)):
                box.set_state(not box.is_checked)
                return True
        return False

    # --- events -> commands ---------------------------------------------------
    def process(self, event) -> tuple[str, object] | None:
        """The command a pygame_gui event stands for, or None."""
        t = event.type
        if t == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == 1:
            self.toggle_by_label(event.pos)
            return None
        if t == pygame.KEYDOWN and self.typing() and event.mod & pygame.KMOD_CTRL:
            # Ctrl+S / Ctrl+O while typing a path act on the path as typed
            action = keymap.action_for(event.key, event.mod)
            if action in ("save", "load"):
                self.path_entry.unfocus()
                return action, self.path_entry.get_text()
        el = getattr(event, "ui_element", None)
        if el is None:
            return None
        if t == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
            for action, p in self.params.items():
                if el is p.slider:
                    value = p.read()
                    fit(p.value, format_value(p.spec, value))
                    return action, value
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            kind = KIND_OF_LABEL.get(event.text)
            if kind is None:
                return None
            if el is self.solver:
                self._shown_kind = kind
                return "solver", kind
            if el is self.new_chain:
                self.new_kind = kind
                return "new_kind", kind
        elif t in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
            on = t == pygame_gui.UI_CHECK_BOX_CHECKED
            if el is self.mirror:
                return "set_mirror", on
            if el is self.rate_on:
                return "rate_on", on
            if el is self.sprites:
                self.skin = "sprites" if on else "lines"
                return "skin", self.skin
        elif t == pygame_gui.UI_BUTTON_PRESSED:
            if el is self.add_button:
                return "add_chain", None
            if el is self.remove_button:
                return "remove_selected", None
            if el is self.help_button:
                return "help", None
            if el is self.stress_button:
                return "stress", None
            if el is self.save_button:
                return "save", self.path_entry.get_text()
            if el is self.load_button:
                return "load", self.path_entry.get_text()
        elif t == pygame_gui.UI_TEXT_ENTRY_FINISHED and el is self.path_entry:
            self.path_entry.unfocus()  # Enter ends typing: the keys go back to the scene
            return "scene_path", self.path_entry.get_text()

        elif t == PATH_NOTICE and el is self.path_entry:
            return "notice", event.text
        return None

    def typing(self) -> bool:
        """True while a text field has the keyboard (keys must not reach the scene)."""
        return self.path_entry.is_focused
