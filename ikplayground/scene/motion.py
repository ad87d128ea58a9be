"""Per-step motion rules: the angular rate limit and the snake's steering.

Both work on whole groups of chains (arrays with a leading chain axis).
"""

from __future__ import annotations

import numpy as np

from ikplayground.solvers._validate import wrap_array
from ikplayground.solvers.ccd import FULL_CIRCLE

from .chain import SNAKE_ACCEL, SNAKE_DECAY


def rate_limited(current: np.ndarray, desired: np.ndarray, rate: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Move joint angles toward ``desired`` by at most ``rate`` each.

    Parameters
    ----------
    current, desired : ndarray, shape (N, n)
        Relative joint angles in radians, both inside ``limits``.
    rate : ndarray, shape (N,)
        Largest change per joint this step, radians (``inf`` = no limit).
    limits : ndarray, shape (N, n, 2)
        Joint ranges. A joint with a full-circle range takes the shorter way
        round; a limited joint moves inside its range, never across the
        forbidden arc.

    Returns
    -------
    ndarray, shape (N, n)
        New angles, wrapped to (-pi, pi], still inside ``limits``.
    """
    full = (limits[..., 1] - limits[..., 0]) >= FULL_CIRCLE
    diff = desired - current
    diff = np.where(full, wrap_array(diff), diff)
    r = rate[:, None]
    moved = current + np.clip(diff, -r, r)
    lo = limits[..., 0]
    hi = limits[..., 1]
    return np.where(full, np.clip(wrap_array(moved), lo, hi), moved)


def steer_snakes(f: dict[str, np.ndarray], stage: tuple[float, float]) -> np.ndarray:
    """Seed 004's steering for a group of snakes; returns the new head positions.

    ``turn`` (-1, 0 or +1 per snake) turns the heading by ``turn_rate``;
    ``throttle`` > 0 adds 1 px/step of speed up to ``max_speed``, otherwise the
    speed decays by x0.8. The head moves along the heading and is kept inside
    the stage ``(width, height)``. Updates ``heading`` and ``speed`` in place.
    """
    heading = f["heading"][:, 0]
    speed = f["speed"][:, 0]
    heading += f["turn"][:, 0] * f["turn_rate"][:, 0]
    heading[:] = wrap_array(heading)
    pressed = f["throttle"][:, 0] > 0
    speed[:] = np.where(pressed, np.minimum(speed + SNAKE_ACCEL, f["max_speed"][:, 0]), speed * SNAKE_DECAY)
    head = f["points"][:, 0] + speed[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=1)
    np.clip(head[:, 0], 0.0, stage[0], out=head[:, 0])
    np.clip(head[:, 1], 0.0, stage[1], out=head[:, 1])
    return head
