"""The timeline (the Keep page): a recording loaded whole (:func:`~ikplayground.scene.load_frames`), played at 60
steps/s by the wall clock, paused, scrubbed, stepped a frame at a time (``[`` ``]``), looped over a range, its
pose at the playhead drawn over the dimmed stage with onion skins. While it is open the live scene waits (no
steps, no drags on the stage); Esc closes it and the scene goes on exactly where it was."""

from __future__ import annotations

import threading
from pathlib import Path

from ikplayground.app.draw.timeline_draw import TimelineDrawer
from ikplayground.scene import STEP, STEPS_PER_SECOND, ChainLine, Frames, RecordingError, load_frames, shown_name

ONION_SKINS = 3  # poses drawn faded before and after the playhead
ONION_SPACING = 6  # steps between onion skins
ONION_MOST_CHAINS = 200  # a recording of more chains draws no onion skins (they would cost the frame rate)


def read(path) -> tuple[Frames | None, str | None]:
    """``(frames, None)`` of the recording at ``path``, or ``(None, its one-line error)``."""
    try:
        return load_frames(path), None
    except RecordingError as e:
        return None, str(e)


class TimelineMode:
    """``frames``: the recording loaded (None: closed); ``playhead`` its frame index; ``loop`` (first, last) frame
    indices or None; ``onion``: whether the onion skins are drawn."""

    def __init__(self, app):
        self.app = app
        self.frames: Frames | None = None
        self.path: Path | None = None
        self.playhead = 0
        self.playing = False
        self.loop: tuple[int, int] | None = None
        self.onion = True
        self._clock = 0.0  # s of play not yet a whole step
        self._first_bones: dict[int, float] = {}
        self.drawer = TimelineDrawer()
        self._reading: tuple | None = None  # (thread, path, {"read": (frames, error)}) while a file is read

    @property
    def open(self) -> bool:
        return self.frames is not None

    @property
    def last(self) -> int:
        """The last frame's index."""
        return len(self.frames) - 1 if self.frames is not None else 0

    def load(self, path, background: bool | None = None) -> None:
        """Open the recording at ``path`` at its first frame: read on a thread (``background``; by default in real
        time, so the window goes on, "Opening..." meanwhile), else at once (a fixed-step run: tests, headless); a
        bad file is one line and nothing changes."""
        if not path:
            self.app.say("Not opened: type a recording's path (.csv) in the timeline's box first", error=True)
            return
        if self._reading is not None:
            self.app.say(f"Still opening {shown_name(self._reading[1])}: a moment", error=True)
            return
        if not (self.app.realtime if background is None else background):
            self._opened(path, *read(path))
            return
        box: dict = {}
        thread = threading.Thread(target=lambda: box.update(read=read(path)), name="ikplayground-timeline",
                                  daemon=True)
        self._reading = (thread, path, box)
        thread.start()
        self.app.say(f"Opening {shown_name(path)} in the timeline...")

    @property
    def reading(self) -> bool:
        """A recording is being read on a thread."""
        return self._reading is not None

    def _poll(self) -> None:
        if self._reading is not None and not self._reading[0].is_alive():
            _, path, box = self._reading
            self._reading = None
            self._opened(path, *box.get("read", (None, "the reading stopped")))

    def _opened(self, path, frames: Frames | None, error: str | None) -> None:
        if frames is None:
            self.app.say(f"Not opened: {error}", error=True)
            return
        self.frames, self.path, self.playhead, self.playing, self.loop, self._clock = frames, Path(path), 0, False, \
            None, 0.0
        self.app.drag = None  # the stage is the recording's now
        self._first_bones = self._bones_of(self.app.scene)
        self.app.panel.keep_page.timeline.set_path(str(path))
        self.app.say(f"Opened {frames.name} in the timeline: {len(frames)} steps "
                     f"({len(frames) / STEPS_PER_SECOND:.2f} s); the scene waits")

    def load_last(self) -> None:
        """Open the last recording made (a running one is stopped and saved first)."""
        if self.app.record.active:
            self.app.record.stop()
        if self.app.record.path is None:
            self.app.say("No recording yet: record one with Ctrl+R (or Record), then Load last", error=True)
            return
        self.load(self.app.record.path)

    def close(self) -> None:
        """Close the timeline: the live scene goes on from where it waited."""
        if self.frames is not None:
            self.frames, self.playing = None, False
            self.app.say("Timeline closed: the scene is back as it was, paused (Space resumes)" if self.app.paused
                         else "Timeline closed: the scene runs on")

    def _bones_of(self, scene) -> dict[int, float]:
        """Bone 0's length (px, as drawn) of each live IK chain of the recording's first layout, by index."""
        out: dict[int, float] = {}
        assert self.frames is not None
        for c, ((solver, k), chain) in enumerate(zip(self.frames.chains(0), scene.chains)):
            points = chain.fields.get("points") if chain.is_ik else None
            if chain.solver == solver and points is not None and len(points) == k + 1:
                out[c] = float(((points[1] - points[0]) ** 2).sum() ** 0.5)
        return out

    def lines(self, index: int | None = None) -> list[ChainLine]:
        """The chains of frame ``index`` (the playhead's by default), as :meth:`Frames.lines` gives them."""
        assert self.frames is not None
        return self.frames.lines(self.playhead if index is None else index, self._first_bones)

    def polylines(self, index: int | None = None):
        """Frame ``index``'s chains at once (the playhead's by default), as :meth:`Frames.polylines` gives them."""
        assert self.frames is not None
        return self.frames.polylines(self.playhead if index is None else index, self._first_bones)

    def onion_frames(self) -> list[tuple[int, float]]:
        """The frames the onion skins show, farthest first, each with its nearness (1 the nearest, to 1 /
        ``ONION_SKINS`` the farthest); only frames within the recording, none past ``ONION_MOST_CHAINS`` chains."""
        if not self.onion or self.frames is None or len(self.frames.chains(self.playhead)) > ONION_MOST_CHAINS:
            return []
        near = [(self.playhead + s * d * ONION_SPACING, (ONION_SKINS + 1 - d) / ONION_SKINS)
                for d in range(ONION_SKINS, 0, -1) for s in (-1, 1)]
        return [(i, nearness) for i, nearness in near if 0 <= i <= self.last]

    def draw(self, screen, stage) -> None:
        """Over the stage while open: the scene dimmed, the onion skins, the pose at the playhead."""
        if self.frames is not None:
            self.drawer.draw(screen, stage, self, self.app.scene, self.app.view.camera)

    def _refuse(self) -> bool:
        if self.frames is None:
            self.app.say("The timeline is closed: open a recording on the Keep page (Load last, or its file box)")
            return True
        return False

    def toggle_play(self) -> None:
        """Play (from the loop's start, or the start, when at the end) or pause."""
        if self._refuse():
            return
        self.playing = not self.playing
        self._clock = 0.0
        first, last = self.loop or (0, self.last)
        if self.playing and (self.playhead >= last or self.playhead < first):
            self.playhead = first

    def seek(self, index) -> None:
        """Put the playhead at frame ``index`` (clamped)."""
        if self._refuse():
            return
        self.playhead = min(max(int(round(float(index))), 0), self.last)

    def step(self, by: int) -> None:
        """``[`` / ``]``: pause and move the playhead ``by`` frames."""
        if self._refuse():
            return
        self.playing = False
        self.seek(self.playhead + by)

    def set_loop(self, end: str) -> None:
        """``end`` "from" / "to": the loop's first / last frame at the playhead; "clear": no loop."""
        if self._refuse():
            return
        if end == "clear":
            self.loop = None
            return
        first, last = self.loop or (0, self.last)  # the end set is the playhead; the other end keeps a range
        if end == "from":
            first, last = self.playhead, last if last >= self.playhead else self.last
        else:
            first, last = first if first <= self.playhead else 0, self.playhead
        self.loop = (first, last)
        self.app.say(f"Loop: steps {self.frames.steps[first]} to {self.frames.steps[last]}")  # type: ignore

    def set_onion(self, on=None) -> None:
        self.onion = not self.onion if on is None else bool(on)

    def hold(self, dt: float) -> bool:
        """Each frame: while open, play by ``dt`` s (the live scene waits: True); closed, False."""
        self._poll()
        if self.frames is None:
            return False
        if self.playing:
            self._clock += dt
            due = int(self._clock / STEP + 1e-9)
            self._clock -= due * STEP
            first, last = self.loop or (0, self.last)
            at = self.playhead + due
            if at > last:
                if self.loop is None:
                    at, self.playing = last, False
                else:
                    at = first + (at - first) % (last - first + 1)
            self.playhead = at
        return True

    def status_text(self) -> str:
        """The status line's words while open ("" closed)."""
        f = self.frames
        if f is None:
            return ""
        loop = "" if self.loop is None else f", loop {f.steps[self.loop[0]]}-{f.steps[self.loop[1]]}"
        verb = "Space pauses" if self.playing else "Space plays"
        step = int(f.steps[self.playhead])
        return (f"Timeline: step {step} / {f.steps[-1]} ({step / STEPS_PER_SECOND:.2f} s{loop}), {verb}, "
                "[ ] step, Esc closes")

    def label(self) -> str:
        """The Keep page's line under the slider."""
        f = self.frames
        if f is None:
            return "No recording open: Load last, or type a .csv"
        loop = "" if self.loop is None else f"   loop {f.steps[self.loop[0]]}-{f.steps[self.loop[1]]}"
        step = int(f.steps[self.playhead])
        return f"Step {step} / {f.steps[-1]}   {step / STEPS_PER_SECOND:.2f} s{loop}"


def playing_first(run):
    """``run`` (the pause command) made to play / pause the timeline instead while it is open."""
    def either(app, value=None):
        return app.timeline.toggle_play() if app.timeline.open else run(app, value)
    return either


# the command table's rows for the timeline (commands.py): (name, help, run, repeats) each
TIMELINE_ROWS = (
    ("timeline_open", "open a recording (.csv) in the timeline: the path in the Keep page's timeline box",
     lambda app, path=None: app.timeline.load(path), False),
    ("timeline_last", "open the last recording made in the timeline (stops a running recording first)",
     lambda app, value=None: app.timeline.load_last(), False),
    ("timeline_play", "play / pause the timeline (Space while it is open)",
     lambda app, value=None: app.timeline.toggle_play(), False),
    ("timeline_back", "the timeline: pause and step one frame back", lambda app, value=None: app.timeline.step(-1),
     True),
    ("timeline_forward", "the timeline: pause and step one frame on",
     lambda app, value=None: app.timeline.step(1), True),
    ("timeline_seek", "the timeline: scrub to a frame (its slider)", lambda app, i: app.timeline.seek(i), False),
    ("loop_from", "the timeline loops from the playhead", lambda app, value=None: app.timeline.set_loop("from"),
     False),
    ("loop_to", "the timeline loops up to the playhead", lambda app, value=None: app.timeline.set_loop("to"),
     False),
    ("loop_clear", "the timeline plays to the end again (no loop)",
     lambda app, value=None: app.timeline.set_loop("clear"), False),
    ("onion_skins", "the timeline's onion skins: the poses a few steps before and after, faded",
     lambda app, on=None: app.timeline.set_onion(on), False),
    ("timeline_close", "close the timeline (Esc): the live scene runs on as it was",
     lambda app, value=None: app.timeline.close(), False),
)
