"""Seeded random input for the real App, shared by tests/app/test_fuzz.py and scripts/soak.py.

    fuzz = EventFuzzer(app, seed, sandbox=folder)   # also watches the App (see fuzz_recorder.Recorder)
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
box ticked, button pressed), posted directly. The single events are in
``fuzz_singles.py``, the gestures over several frames in ``fuzz_gestures.py``.

Bounded on purpose, so long runs stay comparable: no more than ``soft_cap``
chains are added by the input (adds turn into removes above it), the stress
test (1000 chains) is switched back off a few frames after it came on, and
long pauses, minimized windows, a focused text field and 4K windows are ended
after a while.

The :class:`~.fuzz_recorder.Recorder` watches the App through its command
table's observer hook (``app.commands.observe``), so a test can tell which
chains a command touched in a frame. Saves and loads stay inside ``sandbox``:
give the App a relative scene path and make ``sandbox`` the working folder
(the input types no "/", and the clipboard starts empty); the recorder raises
before any save or load that would leave it.

Needs ``SDL_VIDEODRIVER=dummy`` set before pygame is imported for headless use.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque

import pygame
import pygame_gui

from tests.app.fuzz_gestures import Gestures
from tests.app.fuzz_recorder import Recorder, SandboxEscape
from tests.app.fuzz_singles import SingleEvents, event

__all__ = ["EventFuzzer", "Recorder", "SandboxEscape"]

BIG_AREA = 1920 * 1080


class EventFuzzer(Gestures, SingleEvents):
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
        try:  # a paste can bring back only what was copied from the path box (no "/", see above)
            pygame.scrap.put_text("")
        except pygame.error:
            pass
        self.counts: Counter = Counter()
        self.pending: deque[list[pygame.event.Event]] = deque()
        self.pos = (0, 0)
        self.held_buttons = [0, 0, 0]
        self.stress_frames = 0
        self.stress_limit = 3
        self.paused_frames = 0
        self.minimized_frames = 0
        self.typing_frames = 0
        self.timeline_frames = 0
        self.asking_frames = 0
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
        """Count what the frame did; undo what would end or stall the run: quit, long stress / pause /
        minimize / typing."""
        app = self.app
        self.recorder.end_frame()
        if not app.running:
            self.counts["quit_reset"] += 1
            app.running = True
        if app.quit.asking:  # the quit prompt (unsaved changes): answered in a few frames, as a person would
            self.asking_frames += 1
            if self.asking_frames > 3:
                self.asking_frames = 0
                choice = self.rng.choice(("cancel", "discard", "save", "escape"))
                self.counts[f"quit_prompt:{choice}"] += 1
                self._later(0, *(self._key_pair(pygame.K_ESCAPE, 0, "\x1b") if choice == "escape" else
                                 (event(pygame_gui.UI_BUTTON_PRESSED, ui_element=app.quit.buttons[choice]),)))
        else:
            self.asking_frames = 0
        if app.stress.count:
            self.stress_frames += 1
            if self.stress_frames >= self.stress_limit:
                self._later(0, event(pygame_gui.UI_BUTTON_PRESSED, ui_element=app.panel.stress_button))
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
            self._later(0, event(pygame.WINDOWRESTORED))
        typing = app.panel.typing() if hasattr(app.panel, "typing") else False
        self.typing_frames = self.typing_frames + 1 if typing else 0
        if self.typing_frames > 30:
            self.typing_frames = 0
            self.counts["unfocus"] += 1
            self._later(0, self._stage_click_event_down(), self._stage_click_event_up())
        self.timeline_frames = self.timeline_frames + 1 if app.timeline.open else 0
        if self.timeline_frames > 10:  # the stage is the timeline's while it is open: Esc gives it back
            self.timeline_frames = 0
            self.counts["timeline_closed"] += 1
            self._later(0, *self._key_pair(pygame.K_ESCAPE, 0, "\x1b"))
        w, h = app.screen.get_size()
        self.big_frames = self.big_frames + 1 if w * h > BIG_AREA else 0
        if self.big_frames > 8:
            self.big_frames = 0
            self._later(0, self._resizeevent((self.rng.randint(640, 1600), self.rng.randint(400, 1000))))

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
            y = (rng.choice((rng.randint(-400, -1), rng.randint(h, h + 400))) if 0 <= x < w
                 else rng.randint(-300, h + 300))
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
        p = self.app.view.camera.to_screen(p)  # where the camera shows it (the wheel zooms, drags pan)
        if not (abs(p[0]) < 1e9 and abs(p[1]) < 1e9):
            return None
        return round(float(p[0])) + rng.randint(-6, 6), round(float(p[1])) + rng.randint(-6, 6)

    def _motion(self, pos, buttons=None):
        rel = (pos[0] - self.pos[0], pos[1] - self.pos[1])
        self.pos = pos
        b = tuple(self.held_buttons) if buttons is None else buttons
        return event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=b, touch=False)

    def _button(self, down: bool, pos, button: int):
        if button <= 3:
            self.held_buttons[button - 1] = 1 if down else 0
        return event(pygame.MOUSEBUTTONDOWN if down else pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False)

    def _stage_click_event_down(self):
        w, h = self.app.stage_rect.size
        self.pos = (self.rng.randint(0, max(w - 1, 0)), self.rng.randint(0, max(h - 1, 0)))
        return self._button(True, self.pos, 1)

    def _stage_click_event_up(self):
        return self._button(False, self.pos, 1)

    def _key_pair(self, key, mod, unicode):
        scancode = self.rng.randint(0, 290)
        return (event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=scancode),
                event(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=scancode))

    def _resizeevent(self, size):
        w, h = size
        return event(pygame.VIDEORESIZE, size=(w, h), w=w, h=h)
