"""What the status line says: facts about the scene, and the latest message for ``MESSAGE_SECONDS`` (an error,
drawn whole in a red box, for ``ERROR_SECONDS``); every message, whole, in a log (Ctrl+L, or a click on the
status line, shows it). Text only; ``overlay.py`` and ``help_view.py`` draw it."""

from __future__ import annotations

from collections import deque

from ikplayground.scene import SOLVER_LABELS, Scene

MESSAGE_SECONDS = 4.0
ERROR_SECONDS = 8.0
LOG_SIZE = 100  # messages the log keeps
LOG_CHARS = 2000  # characters of a message the log keeps (a refused paste may quote far more)


class StatusLine:
    """The message of the status line and when it goes."""

    def __init__(self):
        self.message = ""
        self.is_error = False
        self.until = 0.0  # the App's time at which the message goes
        self.log: deque[tuple[float, str, bool]] = deque(maxlen=LOG_SIZE)  # (time s, text, error), newest last
        self.log_open = False

    def say(self, text: str, error: bool, now: float) -> None:
        """Show ``text`` from ``now`` on (an error: for longer), in place of what showed."""
        self.message = text
        self.is_error = error
        self.until = now + (ERROR_SECONDS if error else MESSAGE_SECONDS)
        if text:
            self.log.append((now, text[:LOG_CHARS], error))

    def shown(self, now: float) -> tuple[str, str]:
        """(message, error) to draw at ``now``: one of them empty, or both once the time is up."""
        text = self.message if now < self.until else ""
        return ("", text) if self.is_error else (text, "")


def status_facts(scene: Scene, fps: float | None, step_ms: float, render_ms: float, stress: bool,
                 paused: bool, stepping: str = "", keeping: tuple[str, ...] = ()) -> str:
    """The status line's facts: frame rate (None: "fixed step"), chains, the selected chain's error,
    status and iterations, where a paused step-through is, ``keeping`` (replay, recording; empty ones left out),
    what a step and a drawing cost (per solver under the stress test), PAUSED."""
    n = len(scene.chains)
    parts = ["fixed step" if fps is None else f"{fps:4.0f} FPS", f"{n} chain{'' if n == 1 else 's'}"]
    chain = scene.selected
    if chain is not None:
        part = chain.label
        if chain.is_ik:
            part += f"  error {chain.error:.1f} px  {chain.status}"
            if chain.solver != "two-bone":
                part += f"  {int(chain.fields['used'][0])} it"
        parts.append(part)
    if stepping:  # where the step-through is comes before the timings, which a narrow window cuts
        parts.append(f"PAUSED: {stepping}")
    parts += [text for text in keeping if text]
    parts.append(f"step {step_ms:.1f} ms  draw {render_ms:.1f} ms")
    if stress:
        parts.append("  ".join(f"{SOLVER_LABELS[k]} {v:.1f}" for k, v in scene.solver_ms.items()) + " ms")
    if paused and not stepping:
        parts.append("PAUSED")
    return "   ·   ".join(parts)
