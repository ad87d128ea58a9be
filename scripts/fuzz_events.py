"""Seeded random input for the real App, shared by tests/app/test_fuzz.py and scripts/soak.py.

    fuzz = EventFuzzer(app, seed, sandbox=folder)   # also wraps the App (see Recorder)
    for _ in range(frames):
        fuzz.post_frame()                    # this frame's pygame / pygame_gui events
        app.run(max_frames=app.frames + 1)
        fuzz.after_frame()                   # Esc / QUIT: running again; stress: off soon

What it posts: mouse motion, presses and releases of buttons 1-5 and the wheel,
anywhere in the window and outside it, and drags that start on chains' targets
and roots; every key of the keymap (with and without Ctrl), held arrow keys,
other keys and typed text; VIDEORESIZE (and the WINDOW* size events) from
100x100 to 3840x2160; window leave / focus / minimize / restore events; real
clicks and slider drags on the centres of the panel's widgets; and the
pygame_gui events those widgets post (slider moved, drop-down changed, check
box ticked, button pressed), posted directly.

Bounded on purpose, so long runs stay comparable: no more than ``soft_cap``
chains are added by the input (adds turn into removes above it), the stress
test (1000 chains) is switched back off a few frames after it came on, and
long pauses, minimized windows, a focused text field and 4K windows are ended
after a while.

The :class:`Recorder` wraps the App's command entry points (``apply``, the
keymap actions, ``press``, ``drag_to``, ``resize``) on the instance, so a test can tell
which chains a command touched in a frame, and keeps every save and load
inside ``sandbox`` (the path field can be typed into: a relative or stray path
would otherwise write into the working directory).

Needs ``SDL_VIDEODRIVER=dummy`` set before pygame is imported for headless use.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from pathlib import Path

import pygame
import pygame_gui

MENU_TEXTS = ("two-bone", "CCD", "FABRIK", "snake", "bogus")
CHECK_BOXES = ("mirror", "rate_on", "sprites")
BUTTONS = ("add_button", "remove_button", "help_button", "save_button", "load_button")
MENUS = ("solver", "new_chain")
CLICKABLE = CHECK_BOXES + BUTTONS + MENUS + ("path_entry",)
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
BIG_AREA = 1920 * 1080


def _event(type_, **attrs) -> pygame.event.Event:
    return pygame.event.Event(type_, attrs)


class Recorder:
    """Wraps an App's command entry points to see what each frame did.

    Per frame (reset by :meth:`begin_frame`): ``touched`` holds the ids of the
    chains a panel command (``App.apply``) acted on (the selected chain before
    and after it), ``dragged`` the chains a mouse drag moved (``App.drag_to``),
    ``resized`` is True when ``App.resize`` ran, ``scene_swapped`` when a
    command put another scene in (load, stress test), ``commands`` lists what
    ran. ``stats`` counts, over the whole run, the commands and
    their effects (chains added / removed, solver switched, scene loaded...).
    """

    def __init__(self, app, sandbox: Path | None = None):
        self.app = app
        self.sandbox = Path(sandbox).resolve() if sandbox is not None else None
        self.stats: Counter = Counter()
        self.touched: set[int] = set()
        self.dragged: set[int] = set()
        self.commands: list[str] = []
        self.resized = False
        self.scene_swapped = False
        self._wrap()

    def begin_frame(self) -> None:
        self.touched = set()
        self.dragged = set()
        self.commands = []
        self.resized = False
        self.scene_swapped = False

    # --- wrapping --------------------------------------------------------------
    def _selected_id(self):
        sel = self.app.scene.selected
        return None if sel is None else sel.id

    def _wrap(self) -> None:
        app = self.app
        apply, resize, press, drag_to = app.apply, app.resize, app.press, app.drag_to

        def wrapped_apply(action, value):
            before = app.scene.selected
            kind = None if before is None else before.kind
            count, scene = len(app.scene.chains), app.scene
            if before is not None:
                self.touched.add(before.id)
            self.commands.append(f"apply:{action}")
            self.stats[f"apply:{action}"] += 1
            try:
                return apply(action, value)
            finally:
                after = app.scene.selected
                if after is not None:
                    self.touched.add(after.id)
                if action == "solver" and after is not None and kind is not None and after.kind != kind:
                    self.stats["solver_switched"] += 1
                self._effects(count, scene)

        def wrapped_resize(size):
            self.resized = True
            self.commands.append("resize")
            self.stats["resized"] += 1
            return resize(size)

        def wrapped_press(pos):
            self.commands.append("press")
            self.stats["press"] += 1
            out = press(pos)
            if app.drag is not None:
                self.stats[f"grab_{app.drag[1]}"] += 1
            return out

        def wrapped_drag_to(pos):
            if app.drag is not None:
                self.dragged.add(app.drag[0].id)
                self.stats[f"drag_{app.drag[1]}"] += 1
            return drag_to(pos)

        app.apply, app.resize, app.press, app.drag_to = wrapped_apply, wrapped_resize, wrapped_press, wrapped_drag_to
        for name, fn in list(app.actions.items()):
            app.actions[name] = self._wrap_action(name, fn)

    def _wrap_action(self, name, fn):
        app = self.app

        def wrapped(*args):
            count, scene = len(app.scene.chains), app.scene
            self.commands.append(f"action:{name}")
            self.stats[f"action:{name}"] += 1
            if name in ("save", "load"):
                args = self._inside_sandbox(name, args)
            try:
                return fn(*args)
            finally:
                self._effects(count, scene)

        return wrapped

    def _effects(self, count: int, scene) -> None:
        app = self.app
        if app.scene is not scene:
            self.scene_swapped = True
            self.stats["scene_replaced"] += 1
        elif len(scene.chains) > count:
            self.stats["chains_added"] += len(scene.chains) - count
        elif len(scene.chains) < count:
            self.stats["chains_removed"] += count - len(scene.chains)

    def _inside_sandbox(self, name: str, args: tuple) -> tuple:
        """The path argument for save / load, moved into the sandbox when it points elsewhere."""
        if self.sandbox is None:
            return args
        given = args[0] if args else None
        path = Path(given) if given else Path(self.app.scene_path)
        try:
            full = (path if path.is_absolute() else Path.cwd() / path).resolve()
        except (OSError, RuntimeError, ValueError):
            full = None
        if full is not None and (full == self.sandbox or self.sandbox in full.parents):
            return args
        self.stats[f"{name}_redirected"] += 1
        safe = self.sandbox / (path.name or "stray.json")
        if safe.is_dir():
            safe = self.sandbox / "stray.json"
        return (str(safe),)


class EventFuzzer:
    """Posts a frame's worth of seeded random events for ``app``.

    Parameters
    ----------
    app : ikplayground.app.app.App
    seed : int
    sandbox : Path or None
        Folder every save / load is kept inside (see :class:`Recorder`).
    soft_cap : int
        Above this many chains the input removes instead of adding.
    stress_chance : float
        Chance, per random event, of pressing the stress-test button (1000 chains).
    """

    def __init__(self, app, seed: int, sandbox=None, soft_cap: int = 40, stress_chance: float = 0.002):
        self.app = app
        self.rng = random.Random(seed)
        self.soft_cap = soft_cap
        self.stress_chance = stress_chance
        self.recorder = Recorder(app, sandbox)
        self.counts: Counter = Counter()
        self.pending: deque[list[pygame.event.Event]] = deque()
        self.pos = (0, 0)
        self.held_buttons = [0, 0, 0]
        self.stress_frames = 0
        self.stress_limit = 3
        self.paused_frames = 0
        self.minimized_frames = 0
        self.typing_frames = 0
        self.big_frames = 0
        self.frame_events: list[str] = []
        self.frame_no = 0
        self.busy_until = 0  # a drag / click gesture runs until this frame

    # --- per frame -----------------------------------------------------------
    def post_frame(self) -> list[str]:
        """Post this frame's events; returns their labels (also counted in ``counts``)."""
        self.recorder.begin_frame()
        self.frame_events = []
        self.frame_no += 1
        events = self.pending.popleft() if self.pending else []
        rng = self.rng
        if self.frame_no >= self.busy_until and rng.random() < 0.3:
            events += self._gesture()
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
            events += self._single()
        for e in events:
            pygame.event.post(e)
        return self.frame_events

    def after_frame(self) -> None:
        """Undo what would end or stall the run: quit, long stress / pause / minimize / typing."""
        app = self.app
        if not app.running:
            self.counts["quit_reset"] += 1
            app.running = True
        if getattr(app, "stress_count", 0):
            self.stress_frames += 1
            if self.stress_frames >= self.stress_limit:
                self._later(0, _event(pygame_gui.UI_BUTTON_PRESSED, ui_element=app.panel.stress_button))
                self.counts["stress_off_requested"] += 1
        else:
            self.stress_frames = 0
        self.paused_frames = self.paused_frames + 1 if app.paused else 0
        if self.paused_frames > 10:
            self.paused_frames = 0
            self.counts["unpause"] += 1
            self._later(0, self._stage_click_event_down(), self._stage_click_event_up(),
                        *self._key_pair(pygame.K_SPACE, 0, " "))
        self.minimized_frames = self.minimized_frames + 1 if getattr(app, "minimized", False) else 0
        if self.minimized_frames > 30:
            self.minimized_frames = 0
            self._later(0, _event(pygame.WINDOWRESTORED))
        typing = app.panel.typing() if hasattr(app.panel, "typing") else False
        self.typing_frames = self.typing_frames + 1 if typing else 0
        if self.typing_frames > 30:
            self.typing_frames = 0
            self.counts["unfocus"] += 1
            self._later(0, self._stage_click_event_down(), self._stage_click_event_up())
        w, h = app.screen.get_size()
        self.big_frames = self.big_frames + 1 if w * h > BIG_AREA else 0
        if self.big_frames > 8:
            self.big_frames = 0
            self._later(0, self._resize_event((self.rng.randint(640, 1600), self.rng.randint(400, 1000))))

    # --- helpers -----------------------------------------------------------------
    def _later(self, frames_ahead: int, *events) -> None:
        while len(self.pending) <= frames_ahead:
            self.pending.append([])
        self.pending[frames_ahead].extend(events)

    def _count(self, label: str) -> None:
        self.counts[label] += 1
        self.frame_events.append(label)

    def _steer_count(self, what: str, add: str, remove: str) -> str:
        """Keep the chain count between about ten and ``soft_cap``.

        ``what`` is an action or widget name; adds turn into removes above the
        cap, removes into adds below ten (half the time). Saves while the
        stress test runs are left in: the App must refuse them.
        """
        n = len(self.app.scene.chains)
        if what == add and n >= self.soft_cap:
            return remove
        if what == remove and n < 10 and self.rng.random() < 0.5:
            return add
        return what

    def _size(self):
        return self.app.screen.get_size()

    def _widget(self, name):
        return getattr(self.app.panel, name, None)

    def _random_pos(self):
        rng = self.rng
        w, h = self._size()
        r = rng.random()
        if r < 0.08:
            self._count("pos_outside")
            x = rng.choice((rng.randint(-400, -1), rng.randint(w, w + 400), rng.randint(0, w - 1)))
            y = rng.choice((rng.randint(-400, -1), rng.randint(h, h + 400))) if 0 <= x < w else rng.randint(-300, h + 300)
            return x, y
        if r < 0.35:
            p = self._chain_point()
            if p is not None:
                return p
        panel_w = min(getattr(self.app.panel, "width", 300), w)
        if r < 0.5 and panel_w > 0:
            return rng.randint(max(w - panel_w, 0), w - 1), rng.randint(0, h - 1)
        return rng.randint(0, w - 1), rng.randint(0, h - 1)

    def _chain_point(self):
        chains = self.app.scene.chains
        if not chains:
            return None
        rng = self.rng
        c = chains[rng.randrange(len(chains))]
        f = c.fields
        if not c.is_snake and rng.random() < 0.6:
            p = f["target"]
        elif rng.random() < 0.5:
            p = c.anchor
        else:
            pts = f["points"]
            p = pts[rng.randrange(len(pts))]
        if not (math.isfinite(p[0]) and math.isfinite(p[1])):
            return None
        return round(float(p[0])) + rng.randint(-6, 6), round(float(p[1])) + rng.randint(-6, 6)

    def _motion(self, pos, buttons=None):
        rel = (pos[0] - self.pos[0], pos[1] - self.pos[1])
        self.pos = pos
        b = tuple(self.held_buttons) if buttons is None else buttons
        return _event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=b, touch=False)

    def _button(self, down: bool, pos, button: int):
        if button <= 3:
            self.held_buttons[button - 1] = 1 if down else 0
        return _event(pygame.MOUSEBUTTONDOWN if down else pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False)

    def _stage_click_event_down(self):
        w, h = self.app.stage_rect.size
        self.pos = (self.rng.randint(0, max(w - 1, 0)), self.rng.randint(0, max(h - 1, 0)))
        return self._button(True, self.pos, 1)

    def _stage_click_event_up(self):
        return self._button(False, self.pos, 1)

    def _key_pair(self, key, mod, unicode):
        scancode = self.rng.randint(0, 290)
        return (_event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=scancode),
                _event(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=scancode))

    def _resize_event(self, size):
        w, h = size
        return _event(pygame.VIDEORESIZE, size=(w, h), w=w, h=h)

    # --- gestures: events spread over several frames ------------------------------
    def _gesture(self) -> list:
        rng = self.rng
        kind = rng.choices(("drag", "widget", "slider_drag", "steer"), weights=(5, 4, 2, 2))[0]
        if kind == "drag":
            return self._drag()
        if kind == "widget":
            return self._widget_click()
        if kind == "slider_drag":
            return self._slider_drag()
        return self._steer()

    def _drag(self) -> list:
        """Press on (or near) a target / root / bone, move a few frames, release (or not)."""
        rng = self.rng
        self._count("drag")
        start = self._chain_point() or self._random_pos()
        first = [self._motion(start, (0, 0, 0))]
        self._later(0, self._button(True, start, 1))
        x, y = start
        w, h = self._size()
        steps = rng.randint(1, 12)
        for i in range(1, steps + 1):
            if rng.random() < 0.1:
                x, y = rng.randint(-300, w + 300), rng.randint(-300, h + 300)
            else:
                x, y = x + rng.randint(-60, 60), y + rng.randint(-60, 60)
            self._later(i, self._motion((x, y), (1, 0, 0)))
        end = rng.random()
        if end < 0.8:
            self._later(steps + 1, self._button(False, (x, y), 1))
        elif end < 0.9:  # released outside the window: only a motion without the button
            self._later(steps + 1, self._motion((x, y), (0, 0, 0)))
            self.held_buttons[0] = 0
        # else: left held; a later release (or not) ends it
        self.busy_until = self.frame_no + steps + 2
        return first

    def _widget_click(self) -> list:
        rng = self.rng
        names = [n for n in CLICKABLE if self._widget(n) is not None]
        names += ["param"] * 3
        if rng.random() < 0.05:
            names.append("stress_button")
        name = self._steer_count(rng.choice(names), "add_button", "remove_button")
        if name == "param":
            params = getattr(self.app.panel, "params", {})
            if not params:
                return []
            action = rng.choice(sorted(params))
            widget = params[action].slider
            name = f"slider:{action}"
        else:
            widget = self._widget(name)
        self._count(f"click:{name}")
        c = widget.get_abs_rect().center
        out = [self._motion(c, (0, 0, 0)), self._button(True, c, 1)]
        self._later(0, self._button(False, c, 1))
        if name in MENUS and rng.random() < 0.7:  # pick an entry of the opened list
            k = rng.randint(1, 5)
            p = (c[0] + rng.randint(-20, 20), c[1] + 28 * k)
            self._later(1, self._motion(p, (0, 0, 0)), self._button(True, p, 1))
            self._later(2, self._button(False, p, 1))
        self.busy_until = self.frame_no + 3
        return out

    def _slider_drag(self) -> list:
        rng = self.rng
        params = getattr(self.app.panel, "params", {})
        if not params:
            return []
        action = rng.choice(sorted(params))
        r = params[action].slider.get_abs_rect()
        self._count(f"slider_drag:{action}")
        p = (rng.randint(r.left, r.right), r.centery)
        out = [self._motion(p, (0, 0, 0)), self._button(True, p, 1)]
        x = p[0]
        steps = rng.randint(1, 6)
        for i in range(steps):
            x += rng.randint(-60, 60)
            self._later(i, self._motion((x, p[1] + rng.randint(-5, 5)), (1, 0, 0)))
        self._later(steps, self._button(False, (x, p[1]), 1))
        self.busy_until = self.frame_no + steps + 1
        return out

    def _steer(self) -> list:
        """Hold an arrow key (or two) for a few frames."""
        rng = self.rng
        keys = rng.sample(ARROWS, rng.randint(1, 2))
        self._count("steer")
        out = []
        for k in keys:
            down, up = self._key_pair(k, 0, "")
            out.append(down)
            self._later(rng.randint(0, 30), up)
        return out  # other gestures need not wait for the key-ups

    # --- single events ---------------------------------------------------------------
    def _single(self) -> list:
        rng = self.rng
        kind = rng.choices(
            ("motion", "down", "up", "wheel", "keymap", "arrow", "other_key", "text", "resize", "window",
             "slider", "menu", "check", "button", "stress", "quit"),
            weights=(20, 5, 5, 3, 12, 4, 5, 2, 1.2, 2.5, 6, 3, 3, 3, 0, 0.05))[0]
        if rng.random() < self.stress_chance:
            kind = "stress"
        return getattr(self, f"_ev_{kind}")()

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
        return [_event(pygame.MOUSEWHEEL, x=x, y=y, flipped=False, precise_x=float(x), precise_y=float(y),
                       touch=False, which=0)]

    def _mod(self, ctrl: bool) -> int:
        rng = self.rng
        mod = rng.choice((pygame.KMOD_LCTRL, pygame.KMOD_RCTRL, pygame.KMOD_CTRL)) if ctrl else 0
        if rng.random() < 0.1:
            mod |= rng.choice((pygame.KMOD_LSHIFT, pygame.KMOD_ALT, pygame.KMOD_NUM, pygame.KMOD_CAPS))
        return mod

    def _ev_keymap(self):
        from ikplayground.app import keymap

        rng = self.rng
        b = rng.choice(keymap.KEYMAP)
        action = self._steer_count(b.action, "add_chain", "remove_last")
        b = next(x for x in keymap.KEYMAP if x.action == action)
        ctrl = b.ctrl if rng.random() < 0.8 else not b.ctrl
        mod = self._mod(ctrl)
        name = pygame.key.name(b.key)
        unicode = name if len(name) == 1 and not ctrl else ""
        self._count(f"key:{b.action}" + ("" if ctrl == b.ctrl else ":wrong_ctrl"))
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
        return [_event(pygame.TEXTINPUT, text=text)]

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
        out = [self._resize_event(size)]
        if rng.random() < 0.3:
            out.append(_event(rng.choice((pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED)), x=size[0], y=size[1]))
        return out

    def _ev_window(self):
        name = self.rng.choice(WINDOW_EVENTS)
        self._count(name)
        return [_event(getattr(pygame, name))]

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
        return [_event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=slider, value=v)]

    def _ev_menu(self):
        rng = self.rng
        name = rng.choice(MENUS)
        text = rng.choice(MENU_TEXTS)
        self._count(f"menu:{name}:{text}")
        return [_event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=self._widget(name), text=text)]

    def _ev_check(self):
        rng = self.rng
        name = rng.choice(CHECK_BOXES)
        on = rng.random() < 0.5
        self._count(f"check:{name}:{'on' if on else 'off'}")
        t = pygame_gui.UI_CHECK_BOX_CHECKED if on else pygame_gui.UI_CHECK_BOX_UNCHECKED
        return [_event(t, ui_element=self._widget(name))]

    def _ev_button(self):
        rng = self.rng
        name = self._steer_count(rng.choice(BUTTONS), "add_button", "remove_button")
        self._count(f"button:{name}")
        return [_event(pygame_gui.UI_BUTTON_PRESSED, ui_element=self._widget(name))]

    def _ev_stress(self):
        if getattr(self.app, "stress_count", 0):
            return []
        self._count("button:stress")
        self.stress_limit = self.rng.randint(1, 5)
        return [_event(pygame_gui.UI_BUTTON_PRESSED, ui_element=self._widget("stress_button"))]

    def _ev_quit(self):
        self._count("quit_event")
        return [_event(pygame.QUIT)]
