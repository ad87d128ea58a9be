"""One step of a group of chains: solve, pole, mix, the angular rate limit, jiggle, status, the snake's steering.

Everything works on whole groups of chains (arrays with a leading chain axis).
"""

from __future__ import annotations

import time

import numpy as np

from ikplayground.scene.core.chain import clamped_joints, is_reached
from ikplayground.scene.core.constants import SNAKE_ACCEL, SNAKE_DECAY
from ikplayground.scene.core.ik_options import rest_pose
from ikplayground.scene.core.solver_kinds import SOLVER_KINDS
from ikplayground.scene.step.jiggle_step import jiggle_ik, jiggle_snakes, jiggling, snake_rest
from ikplayground.solvers import (chain_points_batch, clear_moves, rate_limited, settle_batch, snake_batch,
                                  tip_error, two_bone_arrays, wrap_array)

CRAWL_PX = 0.01  # px: a solve that gains less than this in a whole step counts as stalled (the status)
WANDER_RATE = 0.02  # rad a step: how fast a wandering snake's rule moves on
WANDER_MARGIN = 90.0  # px: a wandering snake this near the stage's edge heads for the middle
GOLDEN_ANGLE = np.pi * (3.0 - np.sqrt(5.0))  # rad: the seed's step of the wander's phase
AUTO_BEND_BAND = 0.05  # auto bend's hysteresis: +- this share of the arm's reach about the root's vertical


def step_ik(solver: str, f: dict[str, np.ndarray], obstacles: np.ndarray | None = None) -> None:
    """One step of a group of IK chains: solve, mix, rate-limit, forward kinematics, jiggle (the rows with it on,
    :mod:`.jiggle_step`), status.

    Parameters
    ----------
    solver : str
        "two-bone", or an iterative solver of the registry (:mod:`~ikplayground.scene.core.solver_kinds`).
    f : dict of str -> ndarray
        The group's fields (``IK_FIELDS``, leading axis N), updated in place: ``goal`` and ``angles``
        (rad), ``points`` and ``error`` (px), ``reached``, ``scale``, ``used``, ``side``, ``status``
        (``STATUSES``) and ``solve_us`` (the solver call's microseconds shared over the chains).
    obstacles : ndarray, shape (k, 3), optional
        The scene's circles ``(x, y, r)`` px, passed to the engine of a solver that keeps clear of them
        (``SolverKind.avoids``) when there are some.
    """
    root, target, lengths, limits = f["root"], f["target"], f["lengths"], f["limits"]
    poles = f["pole"]
    jig = jiggling(f)
    shown_before = f["points"][jig] if len(jig) else None  # (a copy: where the jiggling rows were shown)
    kind = SOLVER_KINDS[solver]
    extra = {"obstacles": obstacles} if kind.avoids and obstacles is not None and len(obstacles) else {}
    was = f["angles"].copy() if extra else None  # (the shown pose, which may not pass through a circle)
    has_pole = not np.isnan(poles[:, 0]).all()
    if solver == "two-bone":
        bend = f["bend"][:, 0] * auto_bend_side(f)
        elbow = limits[:, 1] if clamped_joints(limits[:, 1]).any() else None  # (free: every result as it was)
        t0 = time.perf_counter()
        _, end, t1, t2, _, scale = two_bone_arrays(root, target, lengths[:, 0], lengths[:, 1], bend,
                                                   pole=poles if has_pole else None, softness=f["softness"][:, 0],
                                                   stretch=f["stretch"][:, 0], elbow_limit=elbow)
        seconds = time.perf_counter() - t0
        desired = np.stack([t1, t2], axis=1)
        f["scale"][:, 0] = scale
        f["used"][:, 0] = 0
        solved = np.hypot(*(target - end).T)
        stalled = np.zeros(len(solved), dtype=bool)
    else:
        # from the solver's own last answer: a lagging (rate-limited) pose can stall short of the target
        iterations = f["iterations"][:, 0].astype(np.int64)
        args = (root, f["goal"], lengths, target, iterations, f["tolerance"][:, 0], limits)
        engine = kind.engine
        assert engine is not None  # an iterative solver has one (SolverKind checks)
        t0 = time.perf_counter()
        desired, solved, used = engine(*args, f, **extra)  # (the pole is the engine's: fields["pole"])
        seconds = time.perf_counter() - t0
        f["used"][:, 0] = used
        # stopped by its stall rule, or gaining next to nothing a step (crawling along its limits): the gain is
        # worked out only for a solve that used every iteration (f["goal"] is still the last step's answer)
        stalled = used < iterations
        full = np.flatnonzero(~stalled)
        if len(full):
            before = tip_error(root[full], f["goal"][full], lengths[full], target[full])
            stalled[full] = before - solved[full] < CRAWL_PX
    f["solve_us"][:, 0] = seconds * 1e6 / max(len(root), 1)
    f["goal"][:] = desired
    mix = f["mix"][:, 0]
    shown = desired if (mix >= 1.0).all() else mixed(rest_pose(limits), desired, mix, limits)
    settle_batch(f["angles"], shown, f["rate"][:, 0], limits, root, lengths * f["scale"], target, f["points"],
                 f["error"][:, 0])
    if was is not None and obstacles is not None:
        hold_clear(f, was, obstacles)
    if shown_before is not None:
        jiggle_ik(f, jig, shown_before, bool(clamped_joints(limits[jig]).any()))
    error = f["error"][:, 0]
    tolerance = f["tolerance"][:, 0]
    reached = is_reached(error, tolerance)
    f["reached"][:, 0] = reached
    f["status"][:, 0] = status_codes(solver, f, reached, is_reached(solved, tolerance), stalled)


def hold_clear(f: dict[str, np.ndarray], before: np.ndarray, obstacles: np.ndarray) -> None:
    """Keep the shown poses (``f["angles"]``, rad, in place; their points and errors too) from passing through the
    circles ``obstacles`` (k, 3) px on the way from ``before`` (:func:`~ikplayground.solvers.clear_moves`); a chain
    held back solves on from where it is shown (its ``goal``), so it works its way round."""
    lengths = f["lengths"] * f["scale"]
    shown, held = clear_moves(f["root"], before, f["angles"], lengths, f["limits"], obstacles)
    if not held.any():
        return
    f["angles"][held] = shown[held]
    f["goal"][held] = shown[held]
    pts = chain_points_batch(f["root"][held], shown[held], lengths[held])
    f["points"][held] = pts
    f["error"][held, 0] = np.hypot(*(f["target"][held] - pts[:, -1]).T)


def status_codes(solver, f, reached, solved, stalled) -> np.ndarray:
    """Each chain's code in ``STATUSES``, the first that applies: reached, out of reach, stalled (less
    than ``CRAWL_PX`` gained), mixed, eased (a soft two-bone reach), iterating.
    """
    lengths = f["lengths"]
    target, root = f["target"], f["root"]
    dist = np.hypot(target[:, 0] - root[:, 0], target[:, 1] - root[:, 1])
    tol = f["tolerance"][:, 0]
    far = dist > np.einsum("ij->i", lengths) * f["stretch"][:, 0] + tol  # (the reach: a row sum, 4x numpy's sum)
    if solver == "two-bone":
        far |= dist < np.abs(lengths[:, 0] - lengths[:, 1]) - tol
    codes = np.full(len(dist), 3.0)
    codes[solved & (f["mix"][:, 0] < 1.0)] = 4.0
    if solver == "two-bone":
        codes[~solved] = 5.0
    codes[stalled & ~solved] = 2.0
    codes[far] = 1.0
    codes[reached] = 0.0
    return codes


def auto_bend_side(f: dict[str, np.ndarray]) -> np.ndarray:
    """The two-bone knee's side (+-1) per chain (1 with auto bend off), ``side`` updated in place: it
    turns once the target is ``AUTO_BEND_BAND`` of the reach past the root's vertical (the raylib demo's autoBend).
    """
    side = f["side"][:, 0]
    band = AUTO_BEND_BAND * f["lengths"].sum(axis=1)
    dx = f["target"][:, 0] - f["root"][:, 0]
    side[:] = np.where(dx > band, 1.0, np.where(dx < -band, -1.0, side))
    return np.where(f["auto_bend"][:, 0] > 0, side, 1.0)


def mixed(rest: np.ndarray, ik: np.ndarray, mix: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """The pose ``mix`` (N,) of the way from ``rest`` to ``ik`` (N, n) rad, inside limited ranges."""
    full = ~clamped_joints(limits)
    diff = ik - rest
    diff = np.where(full, wrap_array(diff), diff)
    out = rest + mix[:, None] * diff
    return np.where(full, wrap_array(out), out)


def step_snakes(f: dict[str, np.ndarray], stage, seed: int = 0) -> None:
    """One step of a group of snakes: steer the heads (wander, replay), drag the bodies."""
    jig = jiggling(f)
    shown = snake_rest(f, jig) if len(jig) else None  # the jiggling rows step from their un-jiggled bodies
    heads = steer_snakes(f, stage, seed)
    replayed = f["replayed"][:, 0] > 0
    if replayed.any():  # a replay puts the head where the recording has it, exactly (replay.py)
        heads[replayed] = f["replay_head"][replayed]
        f["replayed"][replayed] = 0.0
    lim = f["bend_limits"]
    moved = np.any(heads != f["points"][:, 0], axis=1)
    limited = moved & ~np.isinf(f["rate"][:, 0])
    before = f["points"][limited] if limited.any() else None  # (a copy)
    if moved.all():
        f["points"][:] = snake_batch(f["points"], heads, f["lengths"], lim[:, 0], lim[:, 1])
    elif 2 * moved.sum() > len(moved):  # most moved: all laid out, a resting one's row left as it is (no copies)
        np.copyto(f["points"], snake_batch(f["points"], heads, f["lengths"], lim[:, 0], lim[:, 1]),
                  where=moved[:, None, None])
    elif moved.any():  # a snake at rest stays exactly where it is
        f["points"][moved] = snake_batch(f["points"][moved], heads[moved], f["lengths"][moved],
                                         lim[moved, 0], lim[moved, 1])
    if before is not None:
        f["points"][limited] = rate_limit_snakes(before, f["points"][limited], f["rate"][limited, 0],
                                                 f["lengths"][limited], lim[limited])
    if shown is not None:
        jiggle_snakes(f, jig, shown, snake_angles(f["points"][jig]))


def snake_angles(points: np.ndarray) -> np.ndarray:
    """Snakes' joint angles (N, n) rad from their nodes (N, n+1, 2) px, head first: segment 0's direction (from
    the head back), then each node's bend (the signed turn from one segment to the next, as ``bend_limits``)."""
    d = points[:, 1:] - points[:, :-1]
    heading = np.arctan2(d[..., 1], d[..., 0])
    return np.concatenate([heading[:, :1], wrap_array(np.diff(heading, axis=1))], axis=1)


def rate_limit_snakes(before: np.ndarray, after: np.ndarray, rate: np.ndarray, lengths: np.ndarray,
                      bend_limits: np.ndarray) -> np.ndarray:
    """Snakes' nodes (N, n+1, 2) px with the head where ``after`` has it and every joint angle
    (:func:`snake_angles`) moved from ``before``'s toward ``after``'s by at most ``rate`` (N,) rad, laid out from
    the head along ``lengths`` (N, n) px: the chains' rate limit (:func:`~ikplayground.solvers.rate_limited`;
    the first joint free, the bends in ``bend_limits`` (N, 2) rad)."""
    limits = np.empty(lengths.shape + (2,))
    limits[:, 0] = (-np.pi, np.pi)
    limits[:, 1:] = bend_limits[:, None, :]
    angles = rate_limited(snake_angles(before), snake_angles(after), rate, limits)
    return chain_points_batch(after[:, 0], angles, lengths)


def wander_offset(seed: int) -> float:
    """What the scene's ``seed`` adds to every wandering snake's phase (rad): ``seed`` golden angles, wrapped."""
    return (int(seed) % 1_000_003) * GOLDEN_ANGLE % (2 * np.pi)


def wander_steer(f: dict[str, np.ndarray], wander: np.ndarray, stage: tuple[float, float], seed: int = 0) -> None:
    """Set the throttle and turn of the wandering snakes (``wander`` (N,) bool) for this step, in place.

    The wished heading is ``phase * 0.7 + 1.1 sin(phase * 2.3)`` (mirrored: ``pi`` less that), or the stage's
    middle within ``WANDER_MARGIN`` px of an edge; throttle on 3 steps in 4.
    """
    stored = f["wander_phase"][:, 0]
    stored[wander] += WANDER_RATE
    phase = stored + wander_offset(seed) if seed else stored
    head = f["points"][:, 0]
    w, h = stage
    wish = phase * 0.7 + 1.1 * np.sin(phase * 2.3)
    wish = np.where(f["wander_mirror"][:, 0] > 0, np.pi - wish, wish)  # a mirror-flipped snake's rule
    near_edge = ((head[:, 0] < WANDER_MARGIN) | (head[:, 0] > w - WANDER_MARGIN)
                 | (head[:, 1] < WANDER_MARGIN) | (head[:, 1] > h - WANDER_MARGIN))
    wish = np.where(near_edge, np.arctan2(h / 2 - head[:, 1], w / 2 - head[:, 0]), wish)
    off = wrap_array(wish - f["heading"][:, 0])
    turn = np.where(np.abs(off) > f["turn_rate"][:, 0] / 2, np.sign(off), 0.0)
    cruise = (np.floor(phase / WANDER_RATE) % 4 != 0).astype(float)
    f["turn"][:, 0] = np.where(wander, turn, f["turn"][:, 0])
    f["throttle"][:, 0] = np.where(wander, cruise, f["throttle"][:, 0])


def steer_snakes(f: dict[str, np.ndarray], stage: tuple[float, float], seed: int = 0) -> np.ndarray:
    """Seed 004's steering for a group of snakes (``heading``, ``speed`` in place); returns the new heads.

    ``turn`` (-1, 0, +1) turns by ``turn_rate``; ``throttle`` > 0 adds 1 px/step up to ``max_speed``, else x0.8.
    """
    heading = f["heading"][:, 0]
    speed = f["speed"][:, 0]
    wander = (f["wander"][:, 0] > 0) & (f["steered"][:, 0] == 0)  # a key held drives it instead
    if wander.any():
        wander_steer(f, wander, stage, seed)
    heading += f["turn"][:, 0] * f["turn_rate"][:, 0]
    heading[:] = wrap_array(heading)
    pressed = f["throttle"][:, 0] > 0
    speed[:] = np.where(pressed, np.minimum(speed + SNAKE_ACCEL, f["max_speed"][:, 0]), speed * SNAKE_DECAY)
    head = f["points"][:, 0] + speed[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=1)
    np.clip(head[:, 0], 0.0, stage[0], out=head[:, 0])
    np.clip(head[:, 1], 0.0, stage[1], out=head[:, 1])
    return head
