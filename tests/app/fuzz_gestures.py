"""Random gestures for the App fuzz (see ``fuzz_events.py``), spread over several frames:
drags from targets and roots, real clicks on the panel's widgets, slider drags, held arrow keys."""

from __future__ import annotations

from tests.app.fuzz_singles import ARROWS, BUTTONS, CHECK_BOXES, MENUS

CLICKABLE = CHECK_BOXES + BUTTONS + MENUS + ("path_entry",)


class Gestures:
    """The gestures of :class:`fuzz_events.EventFuzzer` (a mixin: it uses the fuzzer's state and helpers)."""

    def _gesture(self) -> list:
        rng = self.rng
        solver = rng.choices(("drag", "widget", "slider_drag", "steer"), weights=(5, 4, 2, 2))[0]
        if solver == "drag":
            return self._drag()
        if solver == "widget":
            return self._widget_click()
        if solver == "slider_drag":
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
