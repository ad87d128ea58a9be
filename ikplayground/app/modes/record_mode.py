"""Recording in the App: Ctrl+R (or the Keep page's button, or ``--record FILE``) records every step.

While it records, the App hands the scene to a :class:`~ikplayground.scene.record.recording.Recorder`
after each step (:meth:`RecordMode.after_step`) and the status line shows the
file and the step count. Ctrl+R records to ``<scene file stem>-<date>-<time>.csv``
beside the scene file; ``--record FILE`` records to FILE from the first step
(Ctrl+R then stops it, and the next Ctrl+R records to a new file).
Stopping (Ctrl+R again, or closing the App) gives the file its name. A file
that cannot be opened or written is one status line; the recording stops and
nothing else is lost.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from ikplayground.scene import Recorder, RecordingError, shown_name


def recording_path(scene_path, now: datetime.datetime | None = None) -> Path:
    """Where Ctrl+R records: ``<stem>-<YYYYMMDD>-<HHMMSS>.csv`` in the scene file's folder (``-2``,
    ``-3``... added when that file exists)."""
    scene_path = Path(scene_path)
    now = now or datetime.datetime.now()
    base = f"{scene_path.stem or 'ikplayground'}-{now:%Y%m%d-%H%M%S}"
    path = scene_path.with_name(base + ".csv")
    k = 2
    while _exists(path) or _exists(path.with_name(path.name + ".part")):
        path = scene_path.with_name(f"{base}-{k}.csv")
        k += 1
    return path


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


class RecordMode:
    """Whether ``app`` records, and the current (or last) recording.

    Attributes
    ----------
    path : Path or None
        The current or last recording's file (None before any).
    """

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
        """The current (or last) recorder's rig (:attr:`~ikplayground.scene.record.recording.Recorder.rig`)."""
        return self.recorder.rig if self.recorder is not None else self._last_rig

    def start(self, path=None) -> str | None:
        """Record from the next step on to ``path`` (None: :func:`recording_path`, a new file beside the
        scene file); returns the error said on the status line, or None."""
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

    def stop(self) -> None:
        """Finish the recording: the file gets its name, and the status line says so."""
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            return
        self._last_steps, self._last_rig = recorder.steps, recorder.rig
        self.app.panel.show_recording(False)
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
        """After a step: its rows go to the file (a write that fails stops the recording, saying why)."""
        recorder = self.recorder
        if recorder is None:
            return
        try:
            recorder.record(self.app.scene)
        except RecordingError as e:
            self.recorder = None
            self._last_steps, self._last_rig = recorder.steps, recorder.rig
            self.app.panel.show_recording(False)
            self.app.say(f"Recording stopped: {e}", error=True)

    def summary(self) -> str:
        """The Keep page's line: the recording going on, or the last one ("" before any)."""
        if self.recorder is not None:
            return f"Recording ({self.recorder.steps} steps): {shown_name(self.recorder.path)}"
        if self.path is None:
            return ""
        return f"Last recording ({self._last_steps} steps): {shown_name(self.path)}"

    def status_text(self) -> str:
        """What the status line shows while it records ("" when it does not)."""
        if self.recorder is None:
            return ""
        return f"Recording {shown_name(self.recorder.path)}: {self.recorder.steps} steps"
