"""One decoded chain of a scene file (:mod:`.file_schema`'s Struct) as its builder's arguments and its identity,
after the checks across fields that types cannot make (a :class:`~.file_fields.Refused` naming the field).
docs/scene-format.md gives the fields. Pixels, y down; the file's angles in degrees, the builders' in radians."""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.build import build, walker_build
from ikplayground.scene.core.chain import checked_name
from ikplayground.scene.core.constants import MAX_COORD
from ikplayground.scene.files.file_errors import show_value
from ikplayground.scene.files.file_fields import Refused, whole
from ikplayground.scene.files.file_schema import SETTING_KEYS


def _settings(c, solver: str, n: int) -> dict:
    """The constructor's keyword arguments from the settings' fields of the decoded chain ``c``."""
    kw: dict = {}
    for setting, keys in SETTING_KEYS[solver]:
        value = getattr(c, keys[0]) if len(keys) == 1 else tuple(getattr(c, key) for key in keys)
        kw.update(setting.file.kwargs(setting, value, n))
    return kw


def _snake(c) -> tuple:
    points = np.array(c.points, dtype=float)
    n = len(points) - 1
    lengths = None
    if c.lengths is not None:
        if len(c.lengths) != n:
            raise Refused("lengths", f"must have {n} entries (got {len(c.lengths)})")
        lengths = np.array(c.lengths, dtype=float)
    else:
        seg = np.hypot(*np.diff(points, axis=0).T)
        if np.any(seg <= 0):
            i = int(np.argmax(seg <= 0))
            raise Refused(f"points[{i + 1}]", f"coincides with points[{i}] and no lengths are given "
                                              f"(got {show_value(points[i + 1].tolist())})")
        if np.any(seg > MAX_COORD):  # the lengths it implies must be valid lengths
            i = int(np.argmax(seg > MAX_COORD))
            raise Refused(f"points[{i + 1}]",
                          f"is {seg[i]:.0f} px from points[{i}]; a segment must be <= {MAX_COORD:.0f} px")
    heading = None if c.heading is None else math.radians(c.heading)
    return build.make_snake, {"points": points, "lengths": lengths, "heading": heading, **_settings(c, "snake", n)}


def chain_spec(c) -> tuple:
    """``(make, kwargs)`` of the decoded chain ``c`` after the checks types cannot make (:class:`Refused`)."""
    solver = type(c).__struct_config__.tag
    if solver == "snake":
        return _snake(c)
    if solver == "walker":
        kw = _settings(c, "walker", 0)
        if len(c.lengths) != kw["leg_bones"]:
            raise Refused("lengths", f"must have {kw['leg_bones']} entries (got {len(c.lengths)})")
        facing = 1.0 if c.facing is None else c.facing
        if facing not in (1.0, -1.0):
            raise Refused("facing", f"must be 1 or -1 (got {show_value(facing)})")
        return walker_build.make_walker, {"body": np.array(c.body, dtype=float),
                                          "lengths": np.array(c.lengths, dtype=float), "facing": facing, **kw}
    n = len(c.lengths)
    if len(c.angles) != n:
        raise Refused("angles", f"must have {n} entries (got {len(c.angles)})")
    return build.make_ik_chain, {"solver": solver, "root": np.array(c.root, dtype=float),
                                 "angles": np.radians(np.array(c.angles, dtype=float)),
                                 "lengths": np.array(c.lengths, dtype=float),
                                 "target": np.array(c.target, dtype=float), **_settings(c, solver, n)}


def chain_ident(c) -> tuple[int, str]:
    """The decoded chain ``c``'s ``(number, name)`` (0 and "" where the file has none), checked (:class:`Refused`)."""
    number = 0 if c.number is None else whole(c.number, "number")
    try:
        return number, checked_name("" if c.name is None else c.name) or _no_empty_name(c.name)
    except ValueError as e:
        raise Refused("name", str(e)) from None


def _no_empty_name(name) -> str:
    if name is not None:  # "" would be no name: the file leaves the key out instead
        raise ValueError('must not be empty (leave "name" out for none)')
    return ""
