"""Making chains, many at once or one: one numpy pass per group of chains of one solver and bone count.

The chains of one solver and size are filled, checked and laid out in shared
arrays, ``_BATCH`` at a time (a 20,000-chain file builds in a fraction of a
second); the one-chain constructors of :mod:`.build` are these with one entry.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np

from ikplayground.scene.core import ik_options
from ikplayground.scene.core.chain import FULL, Chain, checked_rate, clamped_joints, field_shapes, is_reached
from ikplayground.scene.core.constants import (DEFAULT_ITERATIONS, DEFAULT_JOINT_LIMIT_DEG, DEFAULT_RATE_DEG,
                                               DEFAULT_TOLERANCE, ITERATIVE, SNAKE_BEND_DEG, SNAKE_MAX_SPEED,
                                               SNAKE_TURN_DEG)
from ikplayground.scene.core.settings import field_settings, fill_fields
from ikplayground.solvers import wrap_array
from ikplayground.solvers import snake_batch
from ikplayground.solvers import chain_points_batch

_BATCH = 4096  # chains filled by one pass (bounds the temporary arrays)
_SNAKE_OPTIONS = field_settings("snake")  # the settings kept in a one-number field (a keyword of make_snake each)
_SNAKE_ARGS = frozenset(("points", "lengths", "heading", "bend_deg", "max_speed", "turn_deg", "palette_index",
                         "bend_limits", *(s.field for s in _SNAKE_OPTIONS)))
_IK_ARGS = frozenset(("solver", "root", "angles", "lengths", "target", "limits", "mirror", "rate_limit", "iterations",
                      "tolerance", "palette_index", "rate_deg",
                      "joint_limit")) | ik_options.DEFAULTS.keys()  # the rest go to the Chain (see make_ik_chain)


def empty_fields(solver: str, *dims: int, rows: int | None = None) -> dict[str, np.ndarray]:
    """Zeroed fields of a chain of ``solver`` of size ``dims``, or of ``rows`` such chains (a leading axis)."""
    lead = () if rows is None else (rows,)
    return {name: np.zeros(lead + shape) for name, shape in field_shapes(solver, *dims).items()}


def default_limits(solver: str, n: int, joint_deg=DEFAULT_JOINT_LIMIT_DEG) -> np.ndarray:
    """Full circle at the root, +-``joint_deg`` past it (CCD/FABRIK): (n, 2) rad, or (N, n, 2) for (N,) degrees."""
    r = np.radians(np.asarray(joint_deg, dtype=float))[..., None]
    lim = np.empty(np.shape(joint_deg) + (n, 2))
    lim[:] = FULL
    if solver in ITERATIVE:
        lim[..., 1:, 0] = -r
        lim[..., 1:, 1] = r
    return lim


def _groups(keys) -> dict:
    """Indices by key, in order of first appearance."""
    out: dict = {}
    for i, key in enumerate(keys):
        out.setdefault(key, []).append(i)
    return out


def make_ik_chains(chains: list[Any], consume: bool = False) -> list[Chain]:
    """Many IK chains at once, each as :func:`~.build.make_ik_chain` makes it, in order.

    Parameters
    ----------
    chains : list of dict
        Keywords of ``make_ik_chain``, the positional ones by name too (absent ``rate_limit``: off).
    consume : bool
        Set each entry to None once its chain is built.

    Returns
    -------
    list of Chain
        Their fields are views into arrays shared by up to ``_BATCH`` chains of one solver and bone count
        (ValueError for a rate limit :func:`~.chain.checked_rate` refuses).
    """
    return _batched(chains, lambda kw: (kw["solver"], len(kw["lengths"])),
                    lambda key, kws: ik_group(key[0], key[1], kws), consume)


def _batched(kws: list[Any], key, group, consume: bool) -> list[Chain]:
    """The chains of ``kws`` in order, ``group(key(kw), kws)`` making up to ``_BATCH`` of one key at a time."""
    out: list[Chain | None] = [None] * len(kws)
    for k, members in _groups(map(key, kws)).items():
        for start in range(0, len(members), _BATCH):
            part = members[start:start + _BATCH]
            for i, chain in zip(part, group(k, [kws[i] for i in part])[1]):
                out[i] = chain
                if consume:
                    kws[i] = None
    return cast("list[Chain]", out)  # every entry filled


def ik_group(solver: str, n: int, kws: list[dict]) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """(fields, chains) of ``kws``, all of ``solver`` with ``n`` bones: group arrays (N, ...), row i chain i's."""
    rates = [None if kw.get("rate_limit") is None else checked_rate(kw["rate_limit"], "rate_limit") for kw in kws]
    f = empty_fields(solver, n, rows=len(kws))
    for name in ("root", "target", "lengths"):
        f[name][:] = [kw[name] for kw in kws]
    lim = f["limits"]
    given = np.array([kw.get("limits") is not None for kw in kws])
    if given.any():
        lim[given] = [kw["limits"] for kw in kws if kw.get("limits") is not None]
    joint = np.array([DEFAULT_JOINT_LIMIT_DEG if kw.get("joint_limit") is None else kw["joint_limit"]
                      for kw in kws], dtype=float)
    if solver in ITERATIVE and n >= 2:  # no joint-limit setting: the widest given limit past the root
        derived = given & np.array([kw.get("joint_limit") is None for kw in kws])
        joint[derived] = np.degrees(np.max(lim[derived, 1:, 1], axis=1))
    lim[~given] = default_limits(solver, n, joint[~given])
    lo, hi = lim[..., 0], lim[..., 1]
    raw = np.array([kw["angles"] for kw in kws], dtype=float).reshape(len(kws), n)
    a = wrap_array(raw)
    # an angle inside its range is kept as given (-pi stays -pi); others are wrapped, then clamped
    inside = (raw >= lo) & (raw <= hi)
    f["angles"][:] = np.where(clamped_joints(lim), np.where(inside, raw, np.clip(a, lo, hi)), a)
    f["goal"][:] = f["angles"]
    f["bend"][:, 0] = [-1.0 if kw.get("mirror", False) else 1.0 for kw in kws]
    f["rate"][:, 0] = [math.inf if r is None else math.radians(r) for r in rates]
    f["iterations"][:, 0] = _column(kws, "iterations", DEFAULT_ITERATIONS)
    f["tolerance"][:, 0] = _column(kws, "tolerance", DEFAULT_TOLERANCE)
    ik_options.fill(f, kws)
    refresh_ik_points(f)
    args = []
    for kw, rate, joint_limit in zip(kws, rates, joint.tolist()):
        setting = rate  # a limit that is on is its own setting
        if setting is None:
            setting = DEFAULT_RATE_DEG if kw.get("rate_deg") is None else kw["rate_deg"]
        rest = {k: v for k, v in kw.items() if k not in _IK_ARGS}
        args.append(dict(rest, palette_index=kw.get("palette_index", 0), rate_deg=setting, joint_limit=joint_limit))
    return f, chains_of_rows(solver, f, args)


def refresh_ik_points(f: dict[str, np.ndarray]) -> None:
    """Recompute joints, error and reached from the angles, in place: of one chain's fields or a group's."""
    g = f if f["root"].ndim == 2 else {k: f[k][None] for k in ("root", "angles", "lengths", "scale", "points",
                                                                "target", "error", "reached", "tolerance")}
    lengths = g["lengths"] * g["scale"]  # a two-bone arm's bones as stretched now
    g["points"][:] = chain_points_batch(g["root"], g["angles"], lengths)
    # math.dist per chain (np.hypot may differ in the last bit)
    g["error"][:, 0] = list(map(math.dist, g["points"][:, -1].tolist(), g["target"].tolist()))
    g["reached"][:, 0] = is_reached(g["error"][:, 0], g["tolerance"][:, 0])


def chains_of_rows(solver: str, f: dict[str, np.ndarray], args: list[dict]) -> list[Chain]:
    """One chain per row of the group arrays ``f`` (its fields views of the row), ``args[i]`` chain ``i``'s."""
    names = list(f)
    rows = zip(*(list(arr) for arr in f.values()))  # iterating an array gives its rows, as views
    return [Chain(solver, dict(zip(names, views)), **kw) for views, kw in zip(rows, args)]


def snakes_are_sound(points: np.ndarray, lengths: np.ndarray, bend_limits: np.ndarray,
                     tol: float = 1e-9) -> np.ndarray:
    """True where nodes sit ``lengths`` apart (relative ``tol``) and bends are in range (``tol`` rad).

    ``points`` (N, n + 1, 2), ``lengths`` (N, n), ``bend_limits`` (N, 2); returns (N,) bool.
    """
    d = np.diff(points, axis=1)
    seg = np.hypot(d[..., 0], d[..., 1])
    ok = np.all(np.abs(seg - lengths) <= tol * lengths, axis=1)
    ang = np.arctan2(d[..., 1], d[..., 0])
    bend = (np.diff(ang, axis=1) + math.pi) % (2 * math.pi) - math.pi
    ok &= np.all(bend >= bend_limits[:, :1] - tol, axis=1)
    ok &= np.all(bend <= bend_limits[:, 1:] + tol, axis=1)
    return ok


def make_snakes(snakes: list[Any], consume: bool = False) -> list[Chain]:
    """Many snakes at once, each as :func:`~.build.make_snake` makes it (in order), fields in shared arrays.

    ``consume``: set each entry to None once built.
    """
    return _batched(snakes, lambda kw: len(kw["points"]), snake_group, consume)


def snake_group(nodes: int, kws: list[dict]) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """(fields, chains) of ``kws`` (keywords of ``make_snake``), all of ``nodes`` nodes, as :func:`ik_group`'s."""
    f = empty_fields("snake", nodes - 1, rows=len(kws))
    f["points"][:] = [kw["points"] for kw in kws]
    derived = [row for row, kw in enumerate(kws) if kw.get("lengths") is None]  # lengths from the points
    f["lengths"][derived] = np.linalg.norm(np.diff(f["points"][derived], axis=1), axis=2)
    for row, kw in enumerate(kws):
        if kw.get("lengths") is not None:
            f["lengths"][row] = kw["lengths"]
        heading = kw.get("heading")
        if heading is None:  # from node 1 to the head
            d = f["points"][row, 0] - f["points"][row, 1]
            heading = math.atan2(d[1], d[0]) if (d[0] or d[1]) else 0.0
        f["heading"][row, 0] = heading
    return f, _snake_group(f, kws)


def _snake_group(f: dict[str, np.ndarray], kws: list[dict]) -> list[Chain]:
    """The snakes of a group's fields ``f`` (nodes, lengths, headings set), an unsound body laid out again."""
    r = np.radians(_column(kws, "bend_deg", SNAKE_BEND_DEG))
    f["bend_limits"][:, 0] = -r
    f["bend_limits"][:, 1] = r
    given = [row for row, kw in enumerate(kws) if kw.get("bend_limits") is not None]  # they override bend_deg
    if given:
        f["bend_limits"][given] = [kws[row]["bend_limits"] for row in given]
    f["max_speed"][:, 0] = _column(kws, "max_speed", SNAKE_MAX_SPEED)
    f["turn_rate"][:, 0] = np.radians(_column(kws, "turn_deg", SNAKE_TURN_DEG))
    fill_fields(f, _SNAKE_OPTIONS, kws)
    for start in range(0, len(kws), _BATCH):
        part = slice(start, start + _BATCH)
        rows = start + np.flatnonzero(~snakes_are_sound(f["points"][part], f["lengths"][part], f["bend_limits"][part]))
        if rows.size:
            pts, lim = f["points"][rows], f["bend_limits"][rows]
            f["points"][rows] = snake_batch(pts, pts[:, 0], f["lengths"][rows], lim[:, 0], lim[:, 1])
    f["wander_phase"][:, 0] = wander_phase(f["points"][:, 0])
    args = [{"palette_index": kw.get("palette_index", 0)} if kw.keys() <= _SNAKE_ARGS else
            dict({k: v for k, v in kw.items() if k not in _SNAKE_ARGS}, palette_index=kw.get("palette_index", 0))
            for kw in kws]
    return chains_of_rows("snake", f, args)


def _column(kws: list[dict], key: str, default):
    """``[kw.get(key, default) for kw in kws]``, or ``default`` alone when no ``kw`` has ``key`` (a fill)."""
    return [kw.get(key, default) for kw in kws] if any(key in kw for kw in kws) else default


def straight_snakes(heads, headings, nodes: int, segments,
                    palette_indices) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """Many straight snakes at once, as :func:`~.build.straight_snake` makes them.

    Parameters
    ----------
    heads : array_like, shape (N, 2), px
    headings : sequence of float, length N, rad (``atan2(dy, dx)``, y down)
    nodes : int
    segments : array_like, shape (N,), px
    palette_indices : sequence of int, length N

    Returns
    -------
    (fields, chains)
        The group arrays (``fields[name]`` of shape (N, ...)) and the snakes, snake ``i``'s fields row ``i``.
    """
    headings = [float(a) for a in headings]
    seg = np.asarray(segments, dtype=float).reshape(-1)
    f = empty_fields("snake", nodes - 1, rows=len(headings))
    f["points"][:] = straight_points(heads, headings, nodes, seg)
    f["lengths"][:] = seg[:, None]
    f["heading"][:, 0] = headings
    return f, _snake_group(f, [{"palette_index": int(p)} for p in palette_indices])


def straight_points(heads, headings, nodes: int, segments) -> np.ndarray:
    """The nodes (N, nodes, 2) px of straight snakes: heads (N, 2) px, headings (N,) rad, segments (N,) px."""
    heads = np.asarray(heads, dtype=float).reshape(-1, 2)
    seg = np.asarray(segments, dtype=float).reshape(-1)
    back = np.array([(-math.cos(a), -math.sin(a)) for a in headings]).reshape(-1, 2)
    return heads[:, None, :] + (np.arange(nodes)[None, :, None] * seg[:, None, None]) * back[:, None, :]


def wander_phase(head):
    """Where a wandering snake's rule starts (rad) from its head (2,) or (N, 2) px: deterministic."""
    head = np.asarray(head, dtype=float)
    phase = (0.0131 * head[..., 0] + 0.0173 * head[..., 1]) % (2 * math.pi)
    return float(phase) if phase.ndim == 0 else phase
