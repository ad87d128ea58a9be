"""How many fixed 1/60 s steps a real-time frame takes: those the wall clock has accrued, but never more than
the frame can afford, so that costly steps slow the simulation down rather than the frame rate (the "spiral of
death" of Glenn Fiedler's "Fix Your Timestep!", avoided by giving up simulated time). Seconds and ms."""

from __future__ import annotations

from ikplayground.scene.core.scene import STEP

MAX_STEPS_PER_FRAME = 5  # the most steps a frame catches up, however long it was
FRAME_MS = 1000.0 / 60.0  # a frame's budget: its steps and its drawing together
SMOOTHING = 0.2  # the weight of the newest frame's cost in the running costs the pacing reads


def steps_allowed(step_ms: float, draw_ms: float) -> int:
    """The steps a frame may take so that they and its drawing fit ``FRAME_MS``, from the last frame's costs
    (ms a step, ms the drawing): at least 1 (the scene never stops), at most ``MAX_STEPS_PER_FRAME`` (all of
    them while no step has been measured, ``step_ms`` 0)."""
    if step_ms <= 0.0:
        return MAX_STEPS_PER_FRAME
    return int(min(MAX_STEPS_PER_FRAME, max(1.0, (FRAME_MS - draw_ms) // step_ms)))


def smoothed(running: float, newest: float) -> float:
    """The running cost (ms) after a frame that cost ``newest``: an exponential average, so that one slow frame
    (a collection, a panel rebuild) does not make the next one give up time; the first cost is taken whole."""
    return newest if running <= 0.0 else running + SMOOTHING * (newest - running)


def due_steps(accrued: float, allowed: int) -> tuple[int, float, float]:
    """The steps to take now out of ``accrued`` s of wall-clock time, at most ``allowed``.

    Returns
    -------
    steps : int
        Whole steps to take (``<= allowed``).
    left : float
        Seconds carried to the next frame (less than one step, unless time was given up: then 0 to one step).
    given_up : float
        Seconds of simulated time dropped because the frame could not afford them (0 when none).
    """
    accrued = min(max(accrued, 0.0), MAX_STEPS_PER_FRAME * STEP)
    due = int((accrued + 1e-9) // STEP)
    steps = min(due, max(int(allowed), 0))
    given_up = (due - steps) * STEP
    return steps, max(accrued - steps * STEP - given_up, 0.0), given_up
