"""Recording in the App (Ctrl+R, ``--record FILE``): a :class:`~ikplayground.scene.Recorder` gets the scene after
each step, to ``<scene file stem>-<date>-<time>.csv`` beside the scene file (or FILE); stopping gives the file
its name. A file that cannot be written stops the recording, in one status line."""

from __future__ import annotations

import datetime
from pathlib import Path

from ikplayground.scene import Recorder, RecordingError, free_name, nothing_at, shown_name


def recording_path(scene_path, now: datetime.datetime | None = None) -> Path:
    """Where Ctrl+R records: ``<stem>-<YYYYMMDD>-<HHMMSS>.csv`` beside the scene file (``-2``, ``-3``... when taken)."""
    scene_path = Path(scene_path)
    now = now or datetime.datetime.now()
    base = f"{scene_path.stem or 'ikplayground'}-{now:%Y%m%d-%H%M%S}"
    return free_name(scene_path.with_name(base + ".csv"),
                     lambda path: nothing_at(path) and nothing_at(path.with_name(path.name + ".part")))


class RecordMode:
    """Whether ``app`` records; ``path``: the current or last recording's file (None before any)."""

    def __init__(self, app):
        self.app = app
        self.recorder: Recorder | None = None
        self.path: Path | None = None
        self._last_steps = 0
        self._last_rig: dict = {}

    @property
    def active(self) -> bool:
        return self.recorder is not None

    @property
    def steps(self) -> int:
        """Steps of the current (or last) recording."""
        return self.recorder.steps if self.recorder is not None else self._last_steps

    @property
    def rig(self) -> dict:
        """The current (or last) recorder's rig."""
        return self.recorder.rig if self.recorder is not None else self._last_rig

    def start(self, path=None) -> str | None:
        """Record from the next step on to ``path`` (None: :func:`recording_path`); returns the error said, or None."""
        if self.active:
            self.stop()
        if path is None:
            path = recording_path(self.app.scene_path)
        try:
            self.recorder = Recorder(path)
        except RecordingError as e:
            message = f"Not recording: {e}"
            self.app.say(message, error=True)
            return message
        self.path = self.recorder.path
        self._last_steps, self._last_rig = 0, {}
        self.app.panel.show_recording(True)
        self.app.say(f"Recording every step to {shown_name(self.path)} (Ctrl+R stops and saves it)")
        return None

    def _end(self) -> Recorder | None:
        """Stop feeding the recorder, keeping its steps and rig; returns it (None if none ran)."""
        recorder, self.recorder = self.recorder, None
        if recorder is not None:
            self._last_steps, self._last_rig = recorder.steps, recorder.rig
            self.app.panel.show_recording(False)
        return recorder

    def stop(self) -> None:
        """Finish the recording: the file gets its name."""
        recorder = self._end()
        if recorder is None:
            return
        try:
            recorder.close()
        except RecordingError as e:
            self.app.say(f"Recording lost: {e}", error=True)
            return
        kept = ""
        if recorder.replaced is not None:
            kept = f" ({shown_name(recorder.replaced)} changed while it recorded, so it is kept)"
        self.app.say(f"Saved {recorder.steps} steps to {shown_name(recorder.path)}{kept}")

    def toggle(self) -> None:
        self.stop() if self.active else self.start()

    def after_step(self) -> None:
        """After a step: its rows go to the file (a failed write stops the recording)."""
        if self.recorder is None:
            return
        try:
            self.recorder.record(self.app.scene)
        except RecordingError as e:
            self._end()
            self.app.say(f"Recording stopped: {e}", error=True)

    def summary(self) -> str:
        """The Keep page's line: the recording going on, or the last one ("" before any)."""
        if self.recorder is not None:
            return f"Recording ({self.recorder.steps} steps): {shown_name(self.recorder.path)}"
        if self.path is None:
            return ""
        return f"Last recording ({self._last_steps} steps): {shown_name(self.path)}"

    def status_text(self) -> str:
        """The status line's words while it records."""
        r = self.recorder
        return "" if r is None else f"Recording {shown_name(r.path)}: {r.steps} steps"
