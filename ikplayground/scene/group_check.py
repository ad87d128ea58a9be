"""Checking many parsed chains at once: one numpy pass per field of a group of chains of one solver and size.

:meth:`~ikplayground.scene.file_reader.Reader.chain` checks one chain with
a few numpy calls per list; for 20,000 chains that fixed cost is most of a
load. :func:`check_chains` instead looks at each chain's shape and scalar
fields in plain Python, then stacks the lists of a group of chains of one
solver and bone count into arrays and checks their types, ranges and order
in one pass per field.

It only ever *accepts*: a chain it accepts is one ``Reader.chain`` accepts,
and its spec (what builds it) is equal to the one ``Reader.chain`` returns.
A chain it has any doubt about comes back as None, and the reader checks it
one field at a time, which names the first bad value exactly as it always
has.
"""

from __future__ import annotations

import math
from itertools import chain as _concat

import numpy as np

from . import build
from .chain import IK_SOLVERS, MAX_BONES
from .file_format import MAX_COORD, MAX_SNAKE_COORD

_NUMBER_TYPES = {float, int}
_RAD = math.radians


class _Doubt(Exception):
    """Something the fast check does not accept: leave the chain to the one-at-a-time check."""


def _number(value, lo: float = -MAX_COORD, hi: float = MAX_COORD, positive: bool = False) -> float:
    """``value`` as a float if it is a plain int or float in ``[lo, hi]`` (and > 0 if ``positive``)."""
    if type(value) not in _NUMBER_TYPES:
        raise _Doubt
    try:
        v = float(value)
    except OverflowError:
        raise _Doubt from None
    if not lo <= v <= hi or (positive and not v > 0):  # NaN fails both
        raise _Doubt
    return v


def _list(value, count: int | None = None) -> list:
    if type(value) is not list or (count is not None and len(value) != count):
        raise _Doubt
    return value


def _ik_scalars(d: dict, kind: str) -> dict:
    """The keyword arguments of an IK chain's spec but its limits (see ``Reader.chain``)."""
    rate = d.get("rate_limit", 3.0)  # here null means "off", not "default"
    if rate is not None:
        rate = _number(rate, hi=180.0, positive=True)
    setting = d.get("rate_limit_setting")
    if setting is not None:
        setting = _number(setting, hi=180.0, positive=True)
    kw = {"rate_limit": rate, "rate_deg": setting if rate is None else rate}
    if kind == "two-bone":
        mirror = d.get("mirror")
        if mirror is None:
            mirror = False
        if type(mirror) is not bool:
            raise _Doubt
        kw["mirror"] = mirror
        return kw
    iterations = d.get("iterations")
    if iterations is None:
        iterations = 10
    if type(iterations) is float and iterations.is_integer():
        iterations = int(iterations)
    if type(iterations) is not int or not 1 <= iterations <= 1000:
        raise _Doubt
    tolerance = d.get("tolerance")
    kw["iterations"] = iterations
    kw["tolerance"] = 0.5 if tolerance is None else _number(tolerance, lo=0.0, hi=1e6)
    return kw


def _ik_key(d) -> tuple:
    """``(key, kw)`` of an IK chain whose lists have the right lengths: key ``(kind, bones)``."""
    kind = d["solver"]
    n = len(_list(d["lengths"]))
    if not 1 <= n <= MAX_BONES or (kind == "two-bone" and n != 2):
        raise _Doubt
    _list(d["angles"], n), _list(d["root"], 2), _list(d["target"], 2)
    if kind != "two-bone" and d.get("limits") is not None:
        _list(d["limits"], n)
    return (kind, n), _ik_scalars(d, kind)


def _snake_key(d) -> tuple:
    """``(key, kw)`` of a snake: key ``("snake", nodes)``; kw holds its scalar fields, checked."""
    nodes = len(_list(d["points"]))
    if not 2 <= nodes <= MAX_BONES + 1:
        raise _Doubt
    if d.get("lengths") is not None:
        _list(d["lengths"], nodes - 1)
    heading = d.get("heading")
    bend = d.get("bend_limits")
    lo, hi = (-30.0, 30.0) if bend is None else (_number(v, -180.0, 180.0) for v in _list(bend, 2))
    if lo > hi:
        raise _Doubt
    max_speed, turn = d.get("max_speed"), d.get("turn_rate")
    return ("snake", nodes), {
        "heading": None if heading is None else _RAD(_number(heading)),
        "bend_limits": (_RAD(lo), _RAD(hi)),
        "max_speed": 10.0 if max_speed is None else _number(max_speed, 0.0, 1000.0),
        "turn_deg": 5.0 if turn is None else _number(turn, 0.0, 180.0)}


def _key(d) -> tuple | None:
    """What :func:`check_chains` groups a chain by, and its checked scalars; None if in doubt."""
    try:
        if type(d) is not dict:
            return None
        kind = d["solver"]
        if kind == "snake":
            return _snake_key(d)
        if type(kind) is not str or kind not in IK_SOLVERS:
            return None
        return _ik_key(d)
    except (_Doubt, KeyError, TypeError):
        return None


def _stack(lists: list, shape: tuple) -> np.ndarray:
    """``lists`` (of lists of numbers, or of ``[a, b]`` pairs if ``shape`` ends in 2 and has 3 axes) as floats."""
    if len(shape) == 3:  # lists of pairs
        pairs = list(_concat.from_iterable(lists))
        if set(map(type, pairs)) != {list} or set(map(len, pairs)) != {2}:
            raise _Doubt
        lists = pairs
    flat = list(_concat.from_iterable(lists))
    if len(flat) != math.prod(shape) or not set(map(type, flat)) <= _NUMBER_TYPES:
        raise _Doubt
    try:
        return np.array(flat, dtype=float).reshape(shape)
    except OverflowError:
        raise _Doubt from None


def _within(a: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Per row of ``a``: every value in ``[lo, hi]`` (NaN is not)."""
    return ((a >= lo) & (a <= hi)).reshape(len(a), -1).all(axis=1)


def _ik_group(kind: str, n: int, ds: list, kws: list) -> list:
    m = len(ds)
    lengths = _stack([d["lengths"] for d in ds], (m, n))
    angles = _stack([d["angles"] for d in ds], (m, n))
    root = _stack([d["root"] for d in ds], (m, 2))
    target = _stack([d["target"] for d in ds], (m, 2))
    ok = _within(lengths, -MAX_COORD, MAX_COORD) & (lengths > 0).all(axis=1)
    ok &= _within(angles, -MAX_COORD, MAX_COORD) & _within(root, -MAX_COORD, MAX_COORD)
    ok &= _within(target, -MAX_COORD, MAX_COORD)
    limited = [j for j, d in enumerate(ds) if kind != "two-bone" and d.get("limits") is not None]
    limits = None
    if limited:
        limits = _stack([ds[j]["limits"] for j in limited], (len(limited), n, 2))
        ok[limited] &= _within(limits, -180.0, 180.0) & (limits[..., 0] <= limits[..., 1]).all(axis=1)
        limits = np.radians(limits)
    radians = np.radians(angles)
    out = [(build.make_ik_chain, (kind, root[j], radians[j], lengths[j], target[j]), kw) if good else None
           for j, (good, kw) in enumerate(zip(ok.tolist(), kws))]
    for row, j in enumerate(limited):
        if out[j] is not None:
            out[j][2]["limits"] = limits[row]
    return out


def _snake_group(nodes: int, ds: list, kws: list) -> list:
    m = len(ds)
    points = _stack([d["points"] for d in ds], (m, nodes, 2))
    ok = _within(points, -MAX_SNAKE_COORD, MAX_SNAKE_COORD)
    given = [j for j, d in enumerate(ds) if d.get("lengths") is not None]
    derived = np.ones(m, dtype=bool)
    derived[given] = False
    if given:
        lengths = _stack([ds[j]["lengths"] for j in given], (len(given), nodes - 1))
        ok[given] &= _within(lengths, -MAX_COORD, MAX_COORD) & (lengths > 0).all(axis=1)
        for row, j in enumerate(given):
            kws[j]["lengths"] = lengths[row]
    if derived.any():  # the lengths it implies must be valid lengths
        d = np.diff(points[derived], axis=1)
        seg = np.hypot(d[..., 0], d[..., 1])
        ok[derived] &= ((seg > 0) & (seg <= MAX_COORD)).all(axis=1)
    out = []
    for j, (good, kw) in enumerate(zip(ok.tolist(), kws)):
        if good:
            kw = {"points": points[j], "lengths": kw.get("lengths"), **kw}
        out.append((build.make_snake, (), kw) if good else None)
    return out


def check_chains(ds: list) -> list:
    """The spec of each parsed chain in ``ds`` as ``Reader.chain`` makes it, or None where in doubt.

    Parameters
    ----------
    ds : list
        Parsed chain entries (anything JSON can hold).

    Returns
    -------
    list
        Per entry: ``(make, args, kw)``, equal to what
        :meth:`~ikplayground.scene.file_reader.Reader.chain` returns for a
        valid chain; None for a chain that may be invalid (the caller checks
        it one field at a time for the message).
    """
    out: list = [None] * len(ds)
    groups: dict[tuple, list[int]] = {}
    kws: list = [None] * len(ds)
    for i, d in enumerate(ds):
        found = _key(d)
        if found is not None:
            key, kws[i] = found
            groups.setdefault(key, []).append(i)
    for (kind, n), members in groups.items():
        group = [ds[i] for i in members]
        try:
            if kind == "snake":
                specs = _snake_group(n, group, [kws[i] for i in members])
            else:
                specs = _ik_group(kind, n, group, [kws[i] for i in members])
        except _Doubt:
            continue
        for i, spec in zip(members, specs):
            out[i] = spec
    return out
