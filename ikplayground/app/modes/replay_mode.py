"""Replay in the App: ``--replay FILE`` drives the targets, snake heads and walker bodies from a recording
before each step; meanwhile the arrow keys steer nothing and a press only selects. A recording that does not
match the scene is refused (or later stopped) in one line; showing another scene stops it."""

from __future__ import annotations

from pathlib import Path

from ikplayground.scene import RecordingError, Replay, shown_name


class ReplayMode:
    """Whether a recording drives ``app``'s scene."""

    def __init__(self, app):
        self.app = app
        self.replay: Replay | None = None
        self.path: Path | None = None

    @property
    def active(self) -> bool:
        return self.replay is not None

    @property
    def steps(self) -> int:
        """Steps the current replay has driven."""
        return self.replay.steps if self.replay is not None else 0

    def start(self, path) -> str | None:
        """Drive the scene from the recording at ``path``; returns the error said, or None."""
        self.stop()
        try:
            self.replay = Replay(path, self.app.scene)
        except RecordingError as e:
            message = f"Not replayed: {e}"
            self.app.say(message, error=True)
            return message
        self.path = Path(path)
        self.app.drag = None  # a held target is let go: the recording drives it now
        self.app.say(f"Replaying {shown_name(path)}: the mouse and the arrow keys wait until it ends")
        return None

    def stop(self) -> None:
        """End the replay where it is (the scene runs on as usual)."""
        replay, self.replay = self.replay, None
        if replay is not None:
            replay.close(self.app.scene)

    def drive(self) -> None:
        """Before a step: the recorded targets; at the recording's end, the replay ends."""
        replay = self.replay
        if replay is None:
            return
        try:
            driving = replay.drive(self.app.scene)
        except RecordingError as e:
            self.replay = None
            self.app.say(f"Replay stopped: {e}", error=True)
            return
        if not driving:
            self.replay = None
            self.app.say(f"Replay finished: {replay.steps} steps")

    def held_keys(self, held: set) -> set:
        """The steering keys that count: none while a replay drives the scene."""
        return set() if self.replay is not None else held

    def allowed(self, drag):
        """What a press may hold: nothing while a replay drives the scene."""
        return None if self.replay is not None else drag

    def status_text(self) -> str:
        r = self.replay
        return "" if r is None else f"Replaying {r.name}: step {r.steps}"
