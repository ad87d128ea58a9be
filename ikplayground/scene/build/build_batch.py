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
                         "bend_limits", "rate_limit", "rate_deg", *(s.field for s in _SNAKE_OPTIONS)))
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
    return ik_columns(solver, n, len(kws), as_columns(kws))


def as_columns(kws: list[dict]) -> dict[str, list]:
    """``kws`` (one dict a chain) as columns: each key any of them has -> ``kw.get(key)`` of each."""
    return {key: [kw.get(key) for kw in kws] for key in dict.fromkeys(k for kw in kws for k in kw)}


def _col(cols: dict, shared: dict, key: str, default=None):
    """``key``'s values: one all rows share (``shared``'s, or ``default`` when no row has one), else a list a row
    (an array column as it is), None -> ``default``."""
    if key in shared:
        return default if shared[key] is None else shared[key]
    c = cols.get(key)
    if isinstance(c, np.ndarray):
        return c
    if c is None or all(v is None for v in c):
        return default
    return [default if v is None else v for v in c]


def ik_columns(solver: str, n: int, count: int, cols: dict, shared: dict | None = None,
               ) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """:func:`ik_group` of ``count`` chains given as columns: ``cols`` (keyword -> a value a chain, None: not
    given) and ``shared`` (keyword -> the value every chain takes: checked once, written a whole column at once).
    """
    shared = shared or {}

    def col(key, default=None):
        return _col(cols, shared, key, default)

    f = empty_fields(solver, n, rows=count)
    for name in ("root", "target", "lengths"):
        f[name][:] = col(name)
    lim = f["limits"]
    limits = col("limits")
    given = np.array([v is not None for v in limits] if isinstance(limits, list) else [limits is not None] * count,
                     dtype=bool).reshape(count)
    if given.any():
        lim[given] = [v for v in limits if v is not None] if isinstance(limits, list) else limits
    set_joint = col("joint_limit")
    joint = np.empty(count)
    joint[:] = col("joint_limit", DEFAULT_JOINT_LIMIT_DEG)
    if solver in ITERATIVE and n >= 2:  # no joint-limit setting: the widest given limit past the root
        derived = given & (np.array([v is None for v in set_joint], dtype=bool) if isinstance(set_joint, list)
                           else set_joint is None)
        joint[derived] = np.degrees(np.max(lim[derived, 1:, 1], axis=1))
    lim[~given] = default_limits(solver, n, joint[~given])
    lo, hi = lim[..., 0], lim[..., 1]
    raw = np.empty((count, n))
    raw[:] = np.array(col("angles"), dtype=float).reshape(-1, n)
    a = wrap_array(raw)
    # an angle inside its range is kept as given (-pi stays -pi); others are wrapped, then clamped
    inside = (raw >= lo) & (raw <= hi)
    f["angles"][:] = np.where(clamped_joints(lim), np.where(inside, raw, np.clip(a, lo, hi)), a)
    f["goal"][:] = f["angles"]
    f["bend"][:, 0] = np.where(np.array(col("mirror", False), dtype=bool), -1.0, 1.0)
    rate_deg = rate_columns(f, count, col("rate_limit"), col("rate_deg", DEFAULT_RATE_DEG))  # each on or None (off)
    f["iterations"][:, 0] = col("iterations", DEFAULT_ITERATIONS)
    f["tolerance"][:, 0] = col("tolerance", DEFAULT_TOLERANCE)
    ik_options.fill(f, col)
    refresh_ik_points(f)
    rest = {k: col(k) for k in (*cols, *shared) if k not in _IK_ARGS}
    return f, _chains(solver, f, count, col("palette_index", 0), rest, rate_deg=_one(rate_deg),
                      joint_limit=_one(joint.tolist()))


def _one(column):
    """A list of one value repeated as that value; anything else as it is."""
    if isinstance(column, list) and column and column.count(column[0]) == len(column):
        return column[0]
    return column


def _each(value, count: int) -> list:
    """A column as a list of ``count`` values: the list as it is, else ``value`` for every row."""
    return value if isinstance(value, list) else [value] * count


def _chains(solver: str, f: dict[str, np.ndarray], count: int, palette, rest: dict, **own) -> list[Chain]:
    """The chains of the rows of ``f``: palette index ``palette`` and the keywords ``own`` and ``rest`` of
    :class:`~.chain.Chain` (each one value all share or a list a row; None in ``rest``: not given), the rows
    with alike keywords made together by :meth:`~.chain.Chain.of_rows`."""
    palette = _each(palette.tolist() if isinstance(palette, np.ndarray) else palette, count)
    kw = {**own, **{k: v for k, v in rest.items() if v is not None}}
    one = {k: v for k, v in kw.items() if not isinstance(v, list)}
    columns = {k: v for k, v in kw.items() if isinstance(v, list)}
    if not columns:
        return Chain.of_rows(solver, f, range(count), palette, **one)
    alike: dict = {}
    for row, values in enumerate(zip(*columns.values())):
        settings = {k: v for k, v in zip(columns, values) if v is not None}
        key: tuple = tuple(settings.items())
        try:
            hash(key)
        except TypeError:  # an unhashable setting: a chain of its own
            key = ("row", row)
        alike.setdefault(key, (settings, []))[1].append(row)
    out: list = [None] * count
    for settings, rows in alike.values():
        for row, chain in zip(rows, Chain.of_rows(solver, f, rows, [palette[r] for r in rows], **one, **settings)):
            out[row] = chain
    return out


def refresh_ik_points(f: dict[str, np.ndarray]) -> None:
    """Recompute joints, error and reached from the angles, in place: of one chain's fields or a group's."""
    g = f if f["root"].ndim == 2 else {k: f[k][None] for k in ("root", "angles", "lengths", "scale", "points",
                                                                "target", "error", "reached", "tolerance")}
    lengths = g["lengths"] * g["scale"]  # a two-bone arm's bones as stretched now
    g["points"][:] = chain_points_batch(g["root"], g["angles"], lengths)
    if "previous" in f:
        f["previous"][...] = f["points"]  # a jiggling chain at rest on its new pose
    # math.dist per chain (np.hypot may differ in the last bit)
    g["error"][:, 0] = list(map(math.dist, g["points"][:, -1].tolist(), g["target"].tolist()))
    g["reached"][:, 0] = is_reached(g["error"][:, 0], g["tolerance"][:, 0])


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


def _snake_group(f: dict[str, np.ndarray], kws: list[dict] | dict[str, list]) -> list[Chain]:
    """The snakes of a group's fields ``f`` (nodes, lengths, headings set), an unsound body laid out again;
    ``kws`` one dict a snake or columns (:func:`as_columns`)."""
    count = len(f["points"])
    cols = kws if isinstance(kws, dict) else as_columns(kws)

    def col(key, default=None):
        return _col(cols, {}, key, default)

    r = np.radians(col("bend_deg", SNAKE_BEND_DEG))
    f["bend_limits"][:, 0] = -r
    f["bend_limits"][:, 1] = r
    limits = col("bend_limits")  # they override bend_deg
    given = [row for row, v in enumerate(limits) if v is not None] if isinstance(limits, list) else []
    if given:
        f["bend_limits"][given] = [limits[row] for row in given]
    f["max_speed"][:, 0] = col("max_speed", SNAKE_MAX_SPEED)
    f["turn_rate"][:, 0] = np.radians(col("turn_deg", SNAKE_TURN_DEG))
    fill_fields(f, _SNAKE_OPTIONS, col)
    for start in range(0, count, _BATCH):
        part = slice(start, start + _BATCH)
        rows = start + np.flatnonzero(~snakes_are_sound(f["points"][part], f["lengths"][part], f["bend_limits"][part]))
        if rows.size:
            pts, lim = f["points"][rows], f["bend_limits"][rows]
            f["points"][rows] = snake_batch(pts, pts[:, 0], f["lengths"][rows], lim[:, 0], lim[:, 1])
    f["wander_phase"][:, 0] = wander_phase(f["points"][:, 0])
    f["previous"][:] = f["rest_points"][:] = f["points"]  # a jiggling snake at rest on its body
    rate_deg = rate_columns(f, count, col("rate_limit"), col("rate_deg", DEFAULT_RATE_DEG))
    return _chains("snake", f, count, col("palette_index", 0), {k: col(k) for k in cols if k not in _SNAKE_ARGS},
                   rate_deg=_one(rate_deg))


def rate_columns(f: dict[str, np.ndarray], count: int, limit, rate_deg):
    """Set the ``rate`` column (rad/step, inf: off) of ``count`` chains' fields ``f`` from ``limit`` (degrees
    per step, checked, or None: off; one value or a list a chain); the rate limit's settings (a limit that is on
    is its own setting; else ``rate_deg``, one value or a list)."""
    rates = ([None if r is None else checked_rate(r, "rate_limit") for r in limit] if isinstance(limit, list)
             else None if limit is None else checked_rate(limit, "rate_limit"))
    f["rate"][:, 0] = ([math.inf if r is None else math.radians(r) for r in rates] if isinstance(rates, list)
                       else math.inf if rates is None else math.radians(rates))
    if isinstance(rates, list) or isinstance(rate_deg, list):
        return [d if r is None else r for r, d in zip(_each(rates, count), _each(rate_deg, count))]
    return rate_deg if rates is None else rates


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
    return f, _snake_group(f, {"palette_index": [int(p) for p in palette_indices]})


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
