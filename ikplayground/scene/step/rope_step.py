"""One step of a group of ropes: a Verlet step under gravity with damping, the bones' lengths restored.

A rope is a chain with no rest pose (``jiggle_rows`` with stiffness 0) pinned at its root; with "Pin end" on its
last joint is tied to its target too. Jakobsen's "Advanced Character Physics" (GDC 2001) satisfies such
constraints by relaxation, a few sweeps a step; for a chain pinned at both ends a sweep here is one FABRIK
pass each way (Aristidou and Lasenby 2011): the end put on the target and each bone laid back toward the root,
then the root put on its pin and each bone laid out toward the end. Ending on the forward pass keeps joint 0 on
the root and every bone exactly its length; the end is on the target once the passes have converged (a target
within reach). The positions before the step become ``previous``, so what the passes move becomes velocity.
Pixels, y down (gravity > 0 pulls down the screen), seconds (a step is ``DT``).
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.constants import ROPE_PASSES
from ikplayground.solvers import jiggle_rows

DT = 1.0 / 60.0  # s: a step
DOWN = np.pi / 2  # rad: the rest pose's direction, straight down the screen (y down)
PIN_TOLERANCE = 0.01  # px: a pinned rope's end this near its target needs no more sweeps this step


def _along(frm: np.ndarray, to: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The points (N, 2) ``length`` (N,) px from ``frm`` (N, 2) toward ``to`` (N, 2) (straight down where they
    coincide)."""
    d = to - frm
    dist = np.sqrt(np.einsum("ij,ij->i", d, d))
    far = dist > 1e-12
    if not far.all():
        d[~far] = (0.0, 1.0)
        dist[~far] = 1.0
    d *= (length / dist)[:, None]
    d += frm
    return d


def lay_out(points: np.ndarray, root: np.ndarray, lengths: np.ndarray) -> None:
    """Put joint 0 of each rope on ``root`` (N, 2) and each next joint its bone's length (N, n) px from the one
    before, toward where it was (follow the leader): ``points`` (N, n + 1, 2) px, in place."""
    points[:, 0] = root
    for i in range(lengths.shape[1]):
        points[:, i + 1] = _along(points[:, i], points[:, i + 1], lengths[:, i])


def _pass(points: np.ndarray, root: np.ndarray, target: np.ndarray, lengths: np.ndarray) -> None:
    """One FABRIK-style sweep each way over ``points`` (N, n + 1, 2) px, in place: end on ``target``, bones laid
    back toward the root, then root on ``root``, bones laid out toward the end."""
    n = lengths.shape[1]
    points[:, n] = target
    for i in range(n - 1, -1, -1):
        points[:, i] = _along(points[:, i + 1], points[:, i], lengths[:, i])
    lay_out(points, root, lengths)


def pin_ends(points: np.ndarray, root: np.ndarray, target: np.ndarray, lengths: np.ndarray,
             passes: int = ROPE_PASSES) -> None:
    """Tie each rope's end to ``target`` (N, 2) px, its root staying on ``root`` (N, 2): up to ``passes``
    FABRIK-style sweeps (:func:`_pass`) over ``points`` (N, n + 1, 2) px, in place, the forward sweep last (every
    bone exactly its length ``lengths`` (N, n) px, joint 0 on the root). A rope stops once its end is within
    ``PIN_TOLERANCE`` px of its target: each row is swept as it would be alone."""
    rows = np.arange(len(points))
    for k in range(passes):
        if k == 0:
            p, r, t, lens = points, root, target, lengths
        else:
            p, r, t, lens = points[rows], root[rows], target[rows], lengths[rows]
        _pass(p, r, t, lens)
        if k:
            points[rows] = p
        gap = p[:, -1] - t
        rows = rows[np.einsum("ij,ij->i", gap, gap) > PIN_TOLERANCE * PIN_TOLERANCE]
        if not len(rows):
            return


def step_ropes(f: dict[str, np.ndarray]) -> None:
    """One step of a group of ropes, its fields ``f`` (``ROPE_FIELDS``, leading axis N) in place: ``points`` after a
    Verlet step (``gravity`` px/s^2 down the screen, ``damping`` of each joint's velocity removed) with joint 0 on
    ``root``, the ends of the rows with ``pin_end`` on tied to their ``target``; ``previous`` the points before."""
    count, n = f["lengths"].shape
    gravity = np.zeros((count, 2))
    gravity[:, 1] = f["gravity"][:, 0]
    new = jiggle_rows(f["points"], f["previous"], f["lengths"], f["root"], np.full(count, DOWN), np.zeros((count, n)),
                      np.zeros(count), np.clip(f["damping"][:, 0], 0.0, 1.0), gravity, DT, None)
    pinned = f["pin_end"][:, 0] > 0
    if pinned.all():
        pin_ends(new, f["root"], f["target"], f["lengths"])
    elif pinned.any():
        part = new[pinned]
        pin_ends(part, f["root"][pinned], f["target"][pinned], f["lengths"][pinned])
        new[pinned] = part
    f["previous"][:] = f["points"]
    f["points"][:] = new


def settle(f: dict[str, np.ndarray]) -> None:
    """After a move of one rope's root or target, or an edit of its lengths (fields ``f`` of one chain, in place):
    its joints laid out again from the root (tied to the target with "Pin end" on); ``previous`` kept, so the move
    swings it."""
    g = {k: f[k][None] for k in ("points", "root", "target", "lengths")}
    if f["pin_end"][0] > 0:
        pin_ends(g["points"], g["root"], g["target"], g["lengths"])
    else:
        lay_out(g["points"], g["root"], g["lengths"])
