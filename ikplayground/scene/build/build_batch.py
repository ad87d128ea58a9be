"""Making many chains at once: one numpy pass per group of chains of one solver and bone count.

A scene file of 20,000 chains would take seconds to build one chain at a
time (:func:`~ikplayground.scene.build.build.make_ik_chain`,
:func:`~ikplayground.scene.build.build.make_snake`): most of it is the fixed cost
of many small numpy calls. Here the chains of one solver and size are filled,
checked and laid out in shared arrays, ``_BATCH`` at a time, and each comes
out equal, field for field, to the chain its one-at-a-time constructor makes.
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
from ikplayground.solvers import wrap_array
from ikplayground.solvers import snake_batch
from ikplayground.solvers import chain_points_batch

_BATCH = 4096  # chains filled by one pass (bounds the temporary arrays)
_SNAKE_ARGS = ("points", "lengths", "heading", "bend_deg", "max_speed", "turn_deg", "palette_index", "bend_limits",
               "wander")
_IK_ARGS = frozenset(("solver", "root", "angles", "lengths", "target", "limits", "mirror", "rate_limit", "iterations",
                      "tolerance", "palette_index", "rate_deg",
                      "joint_limit")) | ik_options.DEFAULTS.keys()  # the rest go to the Chain (see make_ik_chain)


def _groups(keys) -> dict:
    """Indices by key, in order of first appearance."""
    out: dict = {}
    for i, key in enumerate(keys):
        out.setdefault(key, []).append(i)
    return out


def make_ik_chains(chains: list[Any], consume: bool = False) -> list[Chain]:
    """Many two-bone, CCD and FABRIK chains at once: what :func:`~ikplayground.scene.build.build.make_ik_chain` makes.

    Parameters
    ----------
    chains : list of dict
        Keyword arguments of ``make_ik_chain``, its positional ones by name
        too: ``solver``, ``root`` (2,) px, ``angles`` (n,) rad relative,
        ``lengths`` (n,) px, ``target`` (2,) px; optional ``limits`` (n, 2)
        rad, ``mirror``, ``rate_limit`` (deg per step or None), ``iterations``,
        ``tolerance`` (px), ``palette_index``, ``rate_deg``, ``joint_limit`` (deg),
        ``preferred_bones`` and the kept settings.
    consume : bool
        Set each entry of ``chains`` to None once its chain is built.

    Returns
    -------
    list of Chain
        In the order of ``chains``, each equal field for field to
        ``make_ik_chain(**kw)``; their fields are views into arrays shared by
        up to ``_BATCH`` chains of one solver and bone count.

    Raises
    ------
    ValueError
        A rate limit ``make_ik_chain`` refuses (see :func:`~ikplayground.scene.core.chain.checked_rate`).
    """
    out: list[Chain | None] = [None] * len(chains)
    for (solver, n), members in _groups((kw["solver"], len(kw["lengths"])) for kw in chains).items():
        for start in range(0, len(members), _BATCH):
            part = members[start:start + _BATCH]
            for i, chain in zip(part, ik_group(solver, n, [chains[i] for i in part])[1]):
                out[i] = chain
                if consume:
                    chains[i] = None
    return cast("list[Chain]", out)  # every entry filled


def ik_group(solver: str, n: int, kws: list[dict]) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """The chains of ``kws`` (keyword arguments of ``make_ik_chain``), all of solver ``solver`` with ``n`` bones,
    and the arrays they share: (fields, chains), ``fields[name]`` of shape (len(kws), ...) and row ``i``
    of each the fields of ``chains[i]`` (so a scene's group can take them as they are)."""
    rates = [None if kw.get("rate_limit") is None else checked_rate(kw["rate_limit"], "rate_limit") for kw in kws]
    f = {name: np.zeros((len(kws),) + shape) for name, shape in field_shapes(solver, n).items()}
    f["root"][:] = [kw["root"] for kw in kws]
    f["target"][:] = [kw["target"] for kw in kws]
    f["lengths"][:] = [kw["lengths"] for kw in kws]
    lim = f["limits"]
    lim[:] = FULL
    given = np.array([kw.get("limits") is not None for kw in kws])
    if given.any():
        lim[given] = [kw["limits"] for kw in kws if kw.get("limits") is not None]
    joint = np.array([DEFAULT_JOINT_LIMIT_DEG if kw.get("joint_limit") is None else kw["joint_limit"]
                      for kw in kws], dtype=float)
    if solver in ITERATIVE and n >= 2:
        derived = given & np.array([kw.get("joint_limit") is None for kw in kws])
        joint[derived] = np.degrees(np.max(lim[derived, 1:, 1], axis=1))
        r = np.radians(joint[~given])[:, None]
        lim[~given, 1:, 0] = -r
        lim[~given, 1:, 1] = r
    lo, hi = lim[..., 0], lim[..., 1]
    raw = np.array([kw["angles"] for kw in kws], dtype=float).reshape(len(kws), n)
    a = wrap_array(raw)
    # as make_ik_chain: an angle inside its range is kept as given; others are wrapped, then clamped
    inside = (raw >= lo) & (raw <= hi)
    f["angles"][:] = np.where(clamped_joints(lim), np.where(inside, raw, np.clip(a, lo, hi)), a)
    f["goal"][:] = f["angles"]
    f["bend"][:, 0] = [-1.0 if kw.get("mirror", False) else 1.0 for kw in kws]
    f["rate"][:, 0] = [math.inf if r is None else math.radians(r) for r in rates]
    f["iterations"][:, 0] = [kw.get("iterations", DEFAULT_ITERATIONS) for kw in kws]
    f["tolerance"][:, 0] = [kw.get("tolerance", DEFAULT_TOLERANCE) for kw in kws]
    ik_options.fill(f, kws)
    f["points"][:] = chain_points_batch(f["root"], f["angles"], f["lengths"])
    # math.dist per chain, as make_ik_chain (np.hypot may differ in the last bit)
    f["error"][:, 0] = list(map(math.dist, f["points"][:, -1].tolist(), f["target"].tolist()))
    f["reached"][:, 0] = is_reached(f["error"][:, 0], f["tolerance"][:, 0])
    args = []
    for kw, rate, joint_limit in zip(kws, rates, joint.tolist()):
        setting = rate  # as make_ik_chain: a limit that is on is its own setting
        if setting is None:
            setting = DEFAULT_RATE_DEG if kw.get("rate_deg") is None else kw["rate_deg"]
        rest = {k: v for k, v in kw.items() if k not in _IK_ARGS}
        args.append(dict(rest, palette_index=kw.get("palette_index", 0), rate_deg=setting, joint_limit=joint_limit))
    return f, chains_of_rows(solver, f, args)


def chains_of_rows(solver: str, f: dict[str, np.ndarray], args: list[dict]) -> list[Chain]:
    """One chain per row of the group arrays ``f`` (each field of shape (N, ...)), its fields views of that
    row; ``args[i]``: the other arguments of chain ``i``'s :class:`Chain` (``len(args) == N``)."""
    names = list(f)
    rows = zip(*(list(arr) for arr in f.values()))  # iterating an array gives its rows, as views
    return [Chain(solver, dict(zip(names, views)), **kw) for views, kw in zip(rows, args)]


def snakes_are_sound(points: np.ndarray, lengths: np.ndarray, bend_limits: np.ndarray,
                     tol: float = 1e-9) -> np.ndarray:
    """:func:`~ikplayground.scene.build.build.snake_is_sound` for a group of snakes of one node count at once.

    Parameters
    ----------
    points : ndarray, shape (N, n + 1, 2)
    lengths : ndarray, shape (N, n)
    bend_limits : ndarray, shape (N, 2)

    Returns
    -------
    ndarray of bool, shape (N,)
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
    """Many snakes at once: what :func:`~ikplayground.scene.build.build.make_snake` makes from each dict of its
    arguments.

    The snakes come out as ``make_snake(**kw)`` would make them one by one,
    but the fields are filled, the nodes checked (:func:`snakes_are_sound`)
    and the unsound snakes laid out again after their heads with one numpy
    call per group of snakes with the same node count (up to ``_BATCH``
    at a time), not one per snake: a file of 20,000 hand-made snakes loads in
    a fraction of the time.

    Parameters
    ----------
    snakes : list of dict
        Keyword arguments of :func:`~ikplayground.scene.build.build.make_snake` (``points`` required).
    consume : bool
        Set each entry of ``snakes`` to None once it is read, so that a
        large batch's arguments are let go as its fields fill.

    Returns
    -------
    list of Chain
        In the order of ``snakes``. Their fields are views into arrays shared
        by their group (as a scene's groups keep them).
    """
    out: list[Chain | None] = [None] * len(snakes)
    groups: dict[int, list[int]] = {}
    for i, kw in enumerate(snakes):
        groups.setdefault(len(kw["points"]), []).append(i)
    extras: list[tuple | None] = [None] * len(snakes)  # palette_index and settings, once the arguments are let go
    for nodes, members in groups.items():
        f = {name: np.zeros((len(members),) + shape) for name, shape in field_shapes("snake", nodes - 1).items()}
        derived = []  # rows whose lengths come from their points
        for row, i in enumerate(members):
            kw = snakes[i]
            pts = f["points"][row]
            pts[:] = np.asarray(kw["points"], dtype=float)
            if kw.get("lengths") is None:
                derived.append(row)
            else:
                f["lengths"][row] = kw["lengths"]
            heading = kw.get("heading")
            if heading is None:
                d = pts[0] - pts[1]
                heading = math.atan2(d[1], d[0]) if (d[0] or d[1]) else 0.0
            f["heading"][row, 0] = heading
            bend_limits = kw.get("bend_limits")
            if bend_limits is None:
                r = math.radians(kw.get("bend_deg", SNAKE_BEND_DEG))
                bend_limits = (-r, r)
            f["bend_limits"][row] = bend_limits
            f["max_speed"][row, 0] = kw.get("max_speed", SNAKE_MAX_SPEED)
            f["turn_rate"][row, 0] = math.radians(kw.get("turn_deg", SNAKE_TURN_DEG))
            f["wander"][row, 0] = float(kw.get("wander", False))
            f["wander_phase"][row, 0] = wander_phase(pts[0])
            extras[i] = (kw.get("palette_index", 0), {k: v for k, v in kw.items() if k not in _SNAKE_ARGS})
            if consume:
                snakes[i] = None
        for start in range(0, len(derived), _BATCH):  # batches bound the temporary arrays
            derived_rows = derived[start:start + _BATCH]
            f["lengths"][derived_rows] = np.linalg.norm(np.diff(f["points"][derived_rows], axis=1), axis=2)
        for start in range(0, len(members), _BATCH):
            part = slice(start, start + _BATCH)
            rows = start + np.flatnonzero(~snakes_are_sound(f["points"][part], f["lengths"][part],
                                                            f["bend_limits"][part]))
            if rows.size:
                pts, lim = f["points"][rows], f["bend_limits"][rows]
                f["points"][rows] = snake_batch(pts, pts[:, 0], f["lengths"][rows], lim[:, 0], lim[:, 1])
        for row, i in enumerate(members):
            extra = extras[i]
            assert extra is not None  # filled in the first loop over members
            palette_index, settings = extra
            extras[i] = None
            out[i] = Chain("snake", {name: arr[row] for name, arr in f.items()}, palette_index=palette_index,
                           **settings)
    return cast("list[Chain]", out)  # every entry filled


def straight_snakes(heads, headings, nodes: int, segments,
                    palette_indices) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """Many straight snakes at once: what :func:`~ikplayground.scene.build.build.straight_snake` makes, field
    for field.

    Parameters
    ----------
    heads : array_like, shape (N, 2)
        Each snake's head, px.
    headings : sequence of float, length N
        Where each one faces, rad (``atan2(dy, dx)``, y down).
    nodes : int
        Nodes of every snake (``nodes - 1`` segments).
    segments : array_like, shape (N,)
        Each one's segment length, px.
    palette_indices : sequence of int, length N

    Returns
    -------
    (fields, chains)
        The group arrays (``fields[name]`` of shape (N, ...)) and the snakes
        in order, snake ``i``'s fields views of row ``i``; the other arguments
        of ``make_snake`` take their defaults.
    """
    heads = np.asarray(heads, dtype=float).reshape(-1, 2)
    headings = [float(a) for a in headings]
    seg = np.asarray(segments, dtype=float).reshape(-1)
    f = {name: np.zeros((len(headings),) + shape) for name, shape in field_shapes("snake", nodes - 1).items()}
    back = np.array([(-math.cos(a), -math.sin(a)) for a in headings]).reshape(-1, 2)  # math's, as straight_snake
    f["points"][:] = heads[:, None, :] + (np.arange(nodes)[None, :, None] * seg[:, None, None]) * back[:, None, :]
    f["lengths"][:] = seg[:, None]
    f["heading"][:, 0] = headings
    r = math.radians(SNAKE_BEND_DEG)
    f["bend_limits"][:] = (-r, r)
    for start in range(0, len(headings), _BATCH):  # as make_snake: an unsound body is laid out after its head
        rows = start + np.flatnonzero(~snakes_are_sound(f["points"][start:start + _BATCH],
                                                        f["lengths"][start:start + _BATCH],
                                                        f["bend_limits"][start:start + _BATCH]))
        if rows.size:
            pts, lim = f["points"][rows], f["bend_limits"][rows]
            f["points"][rows] = snake_batch(pts, pts[:, 0], f["lengths"][rows], lim[:, 0], lim[:, 1])
    f["max_speed"][:, 0] = SNAKE_MAX_SPEED
    f["turn_rate"][:, 0] = math.radians(SNAKE_TURN_DEG)
    head = f["points"][:, 0]
    f["wander_phase"][:, 0] = (0.0131 * head[:, 0] + 0.0173 * head[:, 1]) % (2 * math.pi)  # wander_phase's sum
    return f, chains_of_rows("snake", f, [{"palette_index": int(p)} for p in palette_indices])


def wander_phase(head) -> float:
    """Where a wandering snake's rule starts (rad), from where its head is: deterministic, and apart for
    snakes apart (a file gives the same wandering every time it is loaded)."""
    return float((0.0131 * head[0] + 0.0173 * head[1]) % (2 * math.pi))
