"""What the status line says: facts about the scene, and the latest message (or error) for a while.

Text only, no drawing (``overlay.draw_status`` and ``overlay.draw_error`` draw it):
a message shows for :data:`MESSAGE_SECONDS`, an error (drawn whole, in a red
box) for :data:`ERROR_SECONDS`. Times are the App's clock in seconds.
"""

from __future__ import annotations

from ikplayground.scene import SOLVER_LABELS, Scene

MESSAGE_SECONDS = 4.0
ERROR_SECONDS = 8.0


class StatusLine:
    """The message of the status line and when it goes."""

    def __init__(self):
        self.message = ""
        self.is_error = False
        self.until = 0.0  # the App's time at which the message goes

    def say(self, text: str, error: bool, now: float) -> None:
        """Show ``text`` from ``now`` on (an error: for longer), in place of what showed."""
        self.message = text
        self.is_error = error
        self.until = now + (ERROR_SECONDS if error else MESSAGE_SECONDS)

    def shown(self, now: float) -> tuple[str, str]:
        """(message, error) to draw at ``now``: one of them is empty, or both once the time is up."""
        text = self.message if now < self.until else ""
        return ("", text) if self.is_error else (text, "")


def status_facts(scene: Scene, fps: float | None, step_ms: float, render_ms: float, stress: bool,
                 paused: bool, stepping: str = "", keeping: tuple[str, ...] = ()) -> str:
    """The facts on the left of the status line: frame rate (None: "fixed step"), chains, the selected
    chain, its error, its status and the iterations its last solve used, what a step and a drawing cost
    (per solver, too, under the stress test),
    where a step-through is (``stepping``) while paused, and what a replay and a recording are at
    (``keeping``: "Recording run.csv: 1234 steps"; empty texts are left out)."""
    parts = ["fixed step" if fps is None else f"{fps:4.0f} FPS", f"{len(scene.chains)} chains"]
    chain = scene.selected
    if chain is not None:
        part = f"{SOLVER_LABELS[chain.solver]} #{chain.id}"
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
