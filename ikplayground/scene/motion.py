"""One step of a group of chains: solve, the angular rate limit, the snake's steering.

Everything works on whole groups of chains (arrays with a leading chain axis).
"""

from __future__ import annotations

import numpy as np

from ikplayground.solvers._validate import wrap_array
from ikplayground.solvers.batched import ccd_batch, fabrik_batch, snake_batch
from ikplayground.solvers.kinematics import chain_points_batch
from ikplayground.solvers.two_bone import two_bone_arrays

from .chain import SNAKE_ACCEL, SNAKE_DECAY, clamped_joints, is_reached


def step_ik(solver: str, f: dict[str, np.ndarray]) -> None:
    """One step of a group of IK chains: solve, rate-limit, forward kinematics, reached.

    Parameters
    ----------
    solver : {"two-bone", "ccd", "fabrik"}
        The group's solver.
    f : dict of str -> ndarray
        The group's fields (``IK_FIELDS`` with a leading chain axis of N),
        updated in place: ``goal``, ``angles`` (rad), ``points`` (px),
        ``error`` (px, the shown tip to the target) and ``reached`` (1 where
        that error is within the chain's ``tolerance``, else 0: whatever held
        the tip short, reach, joint limits or the rate limit).
    """
    if solver == "two-bone":
        _, _, t1, t2, _ = two_bone_arrays(f["root"], f["target"], f["lengths"][:, 0],
                                          f["lengths"][:, 1], f["bend"][:, 0])
        desired = np.stack([t1, t2], axis=1)
    else:
        solve = ccd_batch if solver == "ccd" else fabrik_batch
        # from the solver's own last answer, not the rate-limited pose: a
        # solve from a lagging pose can stall short of the target (FABRIK at
        # a joint limit returns the pose it was given)
        desired, _, _ = solve(f["root"], f["goal"], f["lengths"], f["target"],
                              f["iterations"][:, 0].astype(np.int64), f["tolerance"][:, 0], f["limits"])
    f["goal"][:] = desired
    f["angles"][:] = rate_limited(f["angles"], desired, f["rate"][:, 0], f["limits"])
    f["points"][:] = chain_points_batch(f["root"], f["angles"], f["lengths"])
    f["error"][:, 0] = np.hypot(*(f["target"] - f["points"][:, -1]).T)
    f["reached"][:, 0] = is_reached(f["error"][:, 0], f["tolerance"][:, 0])


def step_snakes(f: dict[str, np.ndarray], stage) -> None:
    """One step of a group of snakes: steer the heads, drag the bodies."""
    heads = steer_snakes(f, stage)
    lim = f["bend_limits"]
    moved = np.any(heads != f["points"][:, 0], axis=1)
    if moved.all():
        f["points"][:] = snake_batch(f["points"], heads, f["lengths"], lim[:, 0], lim[:, 1])
    elif moved.any():  # a snake at rest stays exactly where it is
        f["points"][moved] = snake_batch(f["points"][moved], heads[moved], f["lengths"][moved],
                                         lim[moved, 0], lim[moved, 1])


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
    full = ~clamped_joints(limits)
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
