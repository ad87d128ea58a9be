"""One step of a group of ropes: a Verlet step under gravity with damping, the bones' lengths restored.

A rope is a chain with no rest pose (``jiggle_rows`` with stiffness 0) pinned at its root; with "Pin end" on its
last joint is tied to its target too, by :func:`~ikplayground.solvers.pin_ends`' FABRIK sweeps (Jakobsen's
"Advanced Character Physics", GDC 2001: a few relaxation sweeps a step). The positions before the step become
``previous``, so what the sweeps move becomes velocity. Pixels, y down (gravity > 0 pulls down the screen), seconds
(a step is ``DT``).
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.constants import ROPE_PASSES
from ikplayground.solvers import jiggle_rows, lay_out, pin_ends

DT = 1.0 / 60.0  # s: a step
DOWN = np.pi / 2  # rad: the rest pose's direction, straight down the screen (y down)


def step_ropes(f: dict[str, np.ndarray]) -> None:
    """One step of a group of ropes, its fields ``f`` (``ROPE_FIELDS``, leading axis N) in place: ``points`` after a
    Verlet step (``gravity`` px/s^2 down the screen, ``damping`` of each joint's velocity removed) with joint 0 on
    ``root``, the ends of the rows with ``pin_end`` on tied to their ``target``; ``previous`` the points before.
    A row whose ``root`` was moved off its joint 0 (a drag moves only the root) is first laid out from it
    (:func:`settle_rows`), so the step depends on where the root is, not on how it got there."""
    count, n = f["lengths"].shape
    moved = np.flatnonzero((f["points"][:, 0] != f["root"]).any(axis=1))
    if len(moved):  # a root moved since the last step (a drag, a replay): laid out from it first, once
        settle_rows(f, moved)
    gravity = np.zeros((count, 2))
    gravity[:, 1] = f["gravity"][:, 0]
    new = jiggle_rows(f["points"], f["previous"], f["lengths"], f["root"], np.full(count, DOWN), np.zeros((count, n)),
                      np.zeros(count), np.clip(f["damping"][:, 0], 0.0, 1.0), gravity, DT, None)
    pinned = f["pin_end"][:, 0] > 0
    if pinned.all():
        pin_ends(new, f["root"], f["target"], f["lengths"], ROPE_PASSES)
    elif pinned.any():
        part = new[pinned]
        pin_ends(part, f["root"][pinned], f["target"][pinned], f["lengths"][pinned], ROPE_PASSES)
        new[pinned] = part
    f["previous"][:] = f["points"]
    f["points"][:] = new


def settle_rows(f: dict[str, np.ndarray], rows: np.ndarray) -> None:
    """Lay the ropes ``rows`` (M,) of a group (fields ``f``, leading axis N) out again from their roots, in place,
    as :func:`settle` does one; ``previous`` kept, so the move swings them."""
    part = {k: f[k][rows] for k in ("points", "root", "target", "lengths")}
    pinned = f["pin_end"][rows, 0] > 0
    if pinned.any():
        tied = {k: v[pinned] for k, v in part.items()}
        pin_ends(tied["points"], tied["root"], tied["target"], tied["lengths"], ROPE_PASSES)
        part["points"][pinned] = tied["points"]
    if not pinned.all():
        loose = part["points"][~pinned]
        lay_out(loose, part["root"][~pinned], part["lengths"][~pinned])
        part["points"][~pinned] = loose
    f["points"][rows] = part["points"]


def laid_points(f) -> np.ndarray:
    """A group's joints (N, n + 1, 2) px as its next step starts from them (fields ``f``, leading axis N): a copy,
    the rows whose root was moved since the last step laid out from it (what a file keeps)."""
    g = {k: np.array(f[k], dtype=float) for k in ("points", "root", "target", "lengths", "pin_end")}
    moved = np.flatnonzero((g["points"][:, 0] != g["root"]).any(axis=1))
    if len(moved):
        settle_rows(g, moved)
    return g["points"]


def shown_points(f: dict[str, np.ndarray]) -> np.ndarray:
    """One rope's joints (n + 1, 2) px as drawn (fields ``f`` of one chain): its ``points``, or, while its root was
    moved and no step has run since (paused), a copy laid out from the root."""
    if np.array_equal(f["points"][0], f["root"]):
        return f["points"]
    g = {k: f[k].copy() for k in ("points", "root", "target", "lengths", "pin_end")}
    settle(g)
    return g["points"]


def settle(f: dict[str, np.ndarray]) -> None:
    """After a move of one rope's root or target, or an edit of its lengths (fields ``f`` of one chain, in place):
    its joints laid out again from the root (tied to the target with "Pin end" on); ``previous`` kept, so the move
    swings it."""
    g = {k: f[k][None] for k in ("points", "root", "target", "lengths")}
    if f["pin_end"][0] > 0:
        pin_ends(g["points"], g["root"], g["target"], g["lengths"], ROPE_PASSES)
    else:
        lay_out(g["points"], g["root"], g["lengths"])
