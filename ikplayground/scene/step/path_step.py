"""One step of a group of path chains: each chain's joints laid along its cubic Bezier curve.

A path chain is Spine's path constraint or Godot's spline IK on a curve of four control points: joint i sits at
arc length ``start + sum(lengths[:i])`` px along it (:func:`ikplayground.solvers.path_rows`, one call a group),
and past the curve's end the chain goes on along the end's tangent. "Slide" moves ``start`` by that many px a
second, so the chain crawls along its curve; past the control polygon's length (a Bezier curve's arc is never
longer: Farin, *Curves and Surfaces for CAGD*) it comes round again from one chain's length before the curve's
start. docs/design.md, "The path". Pixels, y down; seconds (a step is ``DT``).
"""

from __future__ import annotations

import numpy as np

from ikplayground.solvers import path_rows

DT = 1.0 / 60.0  # s: a step


def lay(f: dict[str, np.ndarray]) -> None:
    """Lay a group's joints along their curves, fields ``f`` (``PATH_FIELDS``, leading axis N) in place: ``root``
    on control point 0, ``points`` (N, n + 1, 2) px from ``start`` (N, 1) px along ``control`` (N, 4, 2) px."""
    f["root"][:] = f["control"][:, 0]
    f["points"][:] = path_rows(f["control"], f["lengths"], f["start"][:, 0])


def lay_rows(f: dict[str, np.ndarray], rows: np.ndarray) -> None:
    """Lay the joints of a group's chains ``rows`` (M,) along their curves again (:func:`lay`), fields ``f`` in
    place: what a drag of a handle does to one (a replay's, for the chains whose recorded curve moved)."""
    part = {k: f[k][rows] for k in ("control", "root", "lengths", "points", "start")}
    lay(part)
    for k in ("root", "points"):
        f[k][rows] = part[k]


def slid(start: np.ndarray, slide: np.ndarray, control: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``start`` (N,) px after a step at ``slide`` (N,) px/s: kept in [-chain length, control polygon length)
    (``control`` (N, 4, 2) px, ``lengths`` (N, n) px), coming round from the other end once past one."""
    d = np.diff(control, axis=1)
    hi = np.hypot(d[..., 0], d[..., 1]).sum(axis=1)
    lo = -lengths.sum(axis=1)
    moved = start + slide * DT
    inside = (moved >= lo) & (moved < hi)
    return np.where(inside, moved, lo + np.mod(moved - lo, hi - lo))


def step_paths(f: dict[str, np.ndarray]) -> None:
    """One step of a group of path chains, fields ``f`` in place: ``start`` moved by ``slide`` where it is not 0
    (:func:`slid`), and those chains' joints laid along their curves again (:func:`lay`), with any whose first
    control point was moved without it (a replay's: ``root`` no longer on it). Every other edit of a curve, its
    lengths or its start lays its joints at once (:func:`settle`), so a still chain costs nothing."""
    moving = f["slide"][:, 0] != 0.0
    due = moving | np.any(f["root"] != f["control"][:, 0], axis=1)
    if due.all():
        f["start"][:, 0] = np.where(moving, slid(f["start"][:, 0], f["slide"][:, 0], f["control"], f["lengths"]),
                                    f["start"][:, 0])
        lay(f)
    elif due.any():
        rows = np.flatnonzero(due)
        part = {k: f[k][rows] for k in ("control", "root", "lengths", "points", "start", "slide")}
        part["start"][:, 0] = np.where(part["slide"][:, 0] != 0.0, slid(part["start"][:, 0], part["slide"][:, 0],
                                                                         part["control"], part["lengths"]),
                                       part["start"][:, 0])
        lay(part)
        for k in ("root", "points", "start"):
            f[k][rows] = part[k]


def settle(f: dict[str, np.ndarray]) -> None:
    """After a move of one chain's control points or an edit of its lengths or start (fields ``f`` of one chain, in
    place): its joints laid along its curve again."""
    lay({k: f[k][None] for k in ("control", "root", "lengths", "points", "start")})
