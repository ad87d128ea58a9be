"""One-frame random events for the App fuzz (see ``fuzz_events.py``): mouse, wheel, keys of the
keymap and others, typed text, resizes, window events, and the pygame_gui events the panel's
widgets post, posted directly."""

from __future__ import annotations

import pygame
import pygame_gui

from ikplayground.app import keymap
from ikplayground.app.panel import buttons

MENU_TEXTS = ("two-bone", "CCD", "FABRIK", "snake", "bogus")
CHECK_BOXES = ("mirror", "rate_on", "show_limits")
BUTTONS = tuple(b.attr for b in buttons.BUTTONS if b.command != "stress")  # the stress test has its own odds
MENUS = ("solver", "new_chain")
OTHER_KEYS = (
    [getattr(pygame, f"K_{c}") for c in "abcdefghijklmnopqrstuvwxyz0123456789"]
    + [getattr(pygame, f"K_F{i}") for i in range(1, 13)]
    + [pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_HOME, pygame.K_END, pygame.K_DOWN,
       pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_INSERT, pygame.K_LSHIFT, pygame.K_LCTRL, pygame.K_RALT,
       pygame.K_MINUS, pygame.K_PLUS, pygame.K_SLASH, pygame.K_PERIOD]
)
ARROWS = (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT)
WINDOW_EVENTS = ("WINDOWLEAVE", "WINDOWENTER", "WINDOWFOCUSLOST", "WINDOWFOCUSGAINED", "WINDOWMINIMIZED",
                 "WINDOWRESTORED", "WINDOWMAXIMIZED", "WINDOWEXPOSED", "WINDOWSHOWN", "WINDOWHIDDEN")


def event(type_, **attrs) -> pygame.event.Event:
    return pygame.event.Event(type_, attrs)


class SingleEvents:
    """The single events of :class:`fuzz_events.EventFuzzer` (a mixin: it uses the fuzzer's state and helpers)."""

    def _single(self) -> list:
        rng = self.rng
        solver = rng.choices(
            ("motion", "down", "up", "wheel", "keymap", "arrow", "other_key", "text", "resize", "window",
             "slider", "menu", "check", "button", "stress", "quit"),
            weights=(20, 5, 5, 3, 12, 4, 5, 2, 1.2, 2.5, 6, 3, 3, 3, 0, 0.05))[0]
        if rng.random() < self.stress_chance:
            solver = "stress"
        return getattr(self, f"_ev_{solver}")()

    def _ev_motion(self):
        self._count("motion")
        return [self._motion(self._random_pos())]

    def _ev_down(self):
        button = self.rng.randint(1, 5)
        self._count(f"down{button}")
        return [self._button(True, self._random_pos(), button)]

    def _ev_up(self):
        button = self.rng.randint(1, 5)
        self._count(f"up{button}")
        return [self._button(False, self._random_pos(), button)]

    def _ev_wheel(self):
        rng = self.rng
        self._count("wheel")
        x, y = rng.choice((0, 0, -1, 1)), rng.choice((-3, -1, 1, 3))
        return [event(pygame.MOUSEWHEEL, x=x, y=y, flipped=False, precise_x=float(x), precise_y=float(y),
                       touch=False, which=0)]

    def _mod(self, ctrl: bool) -> int:
        rng = self.rng
        mod = rng.choice((pygame.KMOD_LCTRL, pygame.KMOD_RCTRL, pygame.KMOD_CTRL)) if ctrl else 0
        if rng.random() < 0.1:
            mod |= rng.choice((pygame.KMOD_LSHIFT, pygame.KMOD_ALT, pygame.KMOD_NUM, pygame.KMOD_CAPS))
        return mod

    def _ev_keymap(self):
        rng = self.rng
        b = rng.choice(keymap.KEYMAP)
        command = self._steer_count(b.command, "add_chain", "remove_last")
        b = next(x for x in keymap.KEYMAP if x.command == command)
        ctrl = b.ctrl if rng.random() < 0.8 else not b.ctrl
        mod = self._mod(ctrl)
        name = pygame.key.name(b.key)
        unicode = name if len(name) == 1 and not ctrl else ""
        self._count(f"key:{b.command}" + ("" if ctrl == b.ctrl else ":wrong_ctrl"))
        down, up = self._key_pair(b.key, mod, unicode)
        r = rng.random()
        if r < 0.85:
            return [down, up]
        if r < 0.95:
            self._later(rng.randint(0, 5), up)
            return [down]
        return [down, down, up]  # a repeat (the same key down twice)

    def _ev_arrow(self):
        rng = self.rng
        k = rng.choice(ARROWS)
        self._count("arrow")
        down, up = self._key_pair(k, self._mod(rng.random() < 0.1), "")
        return [down] if rng.random() < 0.5 else [up]

    def _ev_other_key(self):
        rng = self.rng
        k = rng.choice(OTHER_KEYS)
        ctrl = rng.random() < 0.2
        name = pygame.key.name(k)
        self._count("escape_key" if k == pygame.K_ESCAPE else "other_key")
        down, up = self._key_pair(k, self._mod(ctrl), name if len(name) == 1 and not ctrl else "")
        return [down, up] if rng.random() < 0.8 else [rng.choice((down, up))]

    def _ev_text(self):
        rng = self.rng
        self._count("text")
        text = "".join(rng.choice("abcxyz019._-") for _ in range(rng.randint(1, 4)))
        return [event(pygame.TEXTINPUT, text=text)]

    def _ev_resize(self):
        rng = self.rng
        r = rng.random()
        if r < 0.15:
            size = rng.choice(((100, 100), (3840, 2160), (100, 2160), (3840, 100), (320, 240), (319, 239)))
        elif r < 0.5:
            size = (rng.randint(100, 3840), rng.randint(100, 2160))
        else:
            size = (rng.randint(500, 1800), rng.randint(350, 1100))
        self._count("resize_event")
        out = [self._resizeevent(size)]
        if rng.random() < 0.3:
            out.append(event(rng.choice((pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED)), x=size[0], y=size[1]))
        return out

    def _ev_window(self):
        name = self.rng.choice(WINDOW_EVENTS)
        self._count(name)
        return [event(getattr(pygame, name))]

    def _ev_slider(self):
        rng = self.rng
        params = getattr(self.app.panel, "params", {})
        if not params:
            return []
        action = rng.choice(sorted(params))
        slider = params[action].slider
        lo, hi = slider.value_range
        r = rng.random()
        v = lo if r < 0.25 else hi if r < 0.5 else rng.uniform(lo, hi)
        if isinstance(lo, int) and isinstance(hi, int):
            v = round(v)
        slider.set_current_value(v, warn=False)
        self._count(f"slider:{action}")
        return [event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=slider, value=v)]

    def _ev_menu(self):
        rng = self.rng
        name = rng.choice(MENUS)
        text = rng.choice(MENU_TEXTS)
        self._count(f"menu:{name}:{text}")
        return [event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=self._widget(name), text=text)]

    def _ev_check(self):
        rng = self.rng
        name = rng.choice(CHECK_BOXES)
        on = rng.random() < 0.5
        self._count(f"check:{name}:{'on' if on else 'off'}")
        t = pygame_gui.UI_CHECK_BOX_CHECKED if on else pygame_gui.UI_CHECK_BOX_UNCHECKED
        return [event(t, ui_element=self._widget(name))]

    def _ev_button(self):
        rng = self.rng
        name = self._steer_count(rng.choice(BUTTONS), "add_button", "remove_button")
        self._count(f"button:{name}")
        return [event(pygame_gui.UI_BUTTON_PRESSED, ui_element=self._widget(name))]

    def _ev_stress(self):
        if self.app.stress.on:
            return []
        self._count("button:stress")
        self.stress_limit = self.rng.randint(1, 5)
        return [event(pygame_gui.UI_BUTTON_PRESSED, ui_element=self._widget("stress_button"))]

    def _ev_quit(self):
        self._count("quit_event")
        return [event(pygame.QUIT)]
