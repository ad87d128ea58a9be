"""Checking many parsed chains at once: one numpy pass per field of a group of chains of one solver and size.

:meth:`~ikplayground.scene.files.file_reader.Reader.chain` checks one chain with
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

import numpy as np

from ikplayground.scene.build import build
from ikplayground.scene.core.constants import IK_SOLVERS, MAX_BONES
from ikplayground.scene.core.settings import FILE_SETTINGS
from ikplayground.scene.files.file_fields import Doubt as _Doubt
from ikplayground.scene.files.file_fields import quick_list as _list
from ikplayground.scene.files.file_fields import quick_number
from ikplayground.scene.files.file_fields import rows_within as _within
from ikplayground.scene.files.file_fields import stack_numbers as _stack
from ikplayground.scene.files.file_format import MAX_COORD, MAX_SNAKE_COORD

_RAD = math.radians


def _number(value, lo: float = -MAX_COORD, hi: float = MAX_COORD, positive: bool = False) -> float:
    """``value`` as a float if it is a plain int or float in ``[lo, hi]`` (and > 0 if ``positive``)."""
    return quick_number(value, lo, hi, positive)


def _settings(d: dict, solver: str, n: int) -> dict:
    """The keyword arguments of the chain's settings, as ``Reader.settings`` gives them (lists but
    checked later, over the group: ``Field.quick_group``)."""
    kw: dict = {}
    for setting in FILE_SETTINGS[solver]:
        kw.update(setting.file.quick(setting, d, n))
    return kw


def _ik_key(d) -> tuple:
    """``(key, kw)`` of an IK chain whose lists have the right lengths: key ``(solver, bones)``."""
    solver = d["solver"]
    n = len(_list(d["lengths"]))
    if not 1 <= n <= MAX_BONES or (solver == "two-bone" and n != 2):
        raise _Doubt
    _list(d["angles"], n), _list(d["root"], 2), _list(d["target"], 2)
    return (solver, n), _settings(d, solver, n)


def _snake_key(d) -> tuple:
    """``(key, kw)`` of a snake: key ``("snake", nodes)``; kw holds its scalar fields, checked."""
    nodes = len(_list(d["points"]))
    if not 2 <= nodes <= MAX_BONES + 1:
        raise _Doubt
    if d.get("lengths") is not None:
        _list(d["lengths"], nodes - 1)
    heading = d.get("heading")
    return ("snake", nodes), {"heading": None if heading is None else _RAD(_number(heading)),
                              **_settings(d, "snake", nodes - 1)}


def _key(d) -> tuple | None:
    """What :func:`check_chains` groups a chain by, and its checked scalars; None if in doubt."""
    try:
        if type(d) is not dict:
            return None
        solver = d["solver"]
        if solver == "snake":
            return _snake_key(d)
        if type(solver) is not str or solver not in IK_SOLVERS:
            return None
        return _ik_key(d)
    except (_Doubt, KeyError, TypeError):
        return None


def _ik_group(solver: str, n: int, ds: list, kws: list) -> list:
    m = len(ds)
    lengths = _stack([d["lengths"] for d in ds], (m, n))
    angles = _stack([d["angles"] for d in ds], (m, n))
    root = _stack([d["root"] for d in ds], (m, 2))
    target = _stack([d["target"] for d in ds], (m, 2))
    ok = _within(lengths, -MAX_COORD, MAX_COORD) & (lengths > 0).all(axis=1)
    ok &= _within(angles, -MAX_COORD, MAX_COORD) & _within(root, -MAX_COORD, MAX_COORD)
    ok &= _within(target, -MAX_COORD, MAX_COORD)
    ok &= _settings_group(solver, n, ds, kws)
    radians = np.radians(angles)
    return [(build.make_ik_chain, (solver, root[j], radians[j], lengths[j], target[j]), kw) if good else None
            for j, (good, kw) in enumerate(zip(ok.tolist(), kws))]


def _settings_group(solver: str, n: int, ds: list, kws: list) -> np.ndarray:
    """Which of ``ds`` pass the settings' checks over the whole group (``Field.quick_group``)."""
    ok = np.ones(len(ds), dtype=bool)
    for setting in FILE_SETTINGS[solver]:
        passed = setting.file.quick_group(setting, ds, kws, n)
        if passed is not None:
            ok &= passed
    return ok


def _snake_group(nodes: int, ds: list, kws: list) -> list:
    m = len(ds)
    points = _stack([d["points"] for d in ds], (m, nodes, 2))
    ok = _within(points, -MAX_SNAKE_COORD, MAX_SNAKE_COORD) & _settings_group("snake", nodes - 1, ds, kws)
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
        :meth:`~ikplayground.scene.files.file_reader.Reader.chain` returns for a
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
    for (solver, n), members in groups.items():
        group = [ds[i] for i in members]
        try:
            if solver == "snake":
                specs = _snake_group(n, group, [kws[i] for i in members])
            else:
                specs = _ik_group(solver, n, group, [kws[i] for i in members])
        except _Doubt:
            continue
        for i, spec in zip(members, specs):
            out[i] = spec
    return out
