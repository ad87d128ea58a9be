"""The scene file's ``motion`` field: an IK chain's animated target (:mod:`.target_motion`) as one object.

``{"path": "circle", "speed": 2.0, "size": 80, "centre": [400, 300], "phase": 57.3}``:
``path`` one of ``none``, ``bounce``, ``circle``, ``figure-eight`` (required in the
object); ``speed`` px per step and ``size`` px, each > 0 (missing or null: 2 and 80);
and the motion's state, so that a saved scene goes on where it was: a circle's or
figure-eight's ``centre`` (px, missing: the target), ``phase`` (degrees,
missing: 0) and ``reverse`` (true: it runs backward, a mirror flip's; written
only then, missing: false), a bounce's ``heading`` (degrees, ``atan2(dy, dx)``
y down, missing: 30). Written only when the path is not ``none`` or the speed or size is not the
default. A :class:`~ikplayground.scene.files.file_fields.Field` (see there for what a
field does); docs/scene-format.md gives the keys.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ikplayground.scene.core.constants import MAX_COORD
from ikplayground.scene.files.file_fields import (
    OMIT,
    Doubt,
    Field,
    quick_list,
    quick_number,
    round_array,
    round_number,
    round_positive,
    widest_number,
)
from ikplayground.scene.files.file_values import show_value
from ikplayground.scene.step import target_paths as tm


def _object_of(value) -> dict:
    """What a chain's line holds for its motion (:func:`~ikplayground.scene.step.target_paths.read`'s dict), rounded."""
    out = {"path": value["path"], "speed": round_positive(value["speed"], 4), "size": round_positive(value["size"], 3)}
    if value["path"] in ("circle", "figure-eight"):
        out["centre"] = round_array(np.clip(value["centre"], -MAX_COORD, MAX_COORD))
        out["phase"] = round_number(math.degrees(value["phase"]), 4)
        if value["reverse"]:
            out["reverse"] = True
    elif value["path"] == "bounce":
        out["heading"] = round_number(math.degrees(value["heading"]), 4)
    return out


@dataclass(frozen=True)
class Motion(Field):
    """``motion``: the object above, or missing / null for none (the default speed and size)."""

    key: str = "motion"

    def write(self, setting, chains):
        column = []
        for c in chains:
            value = tm.read(c.fields)
            still = (value["path"] == "none" and value["speed"] == tm.DEFAULT_SPEED
                     and value["size"] == tm.DEFAULT_SIZE)
            column.append(OMIT if still else _object_of(value))
        return [(self.key, column)]

    def read(self, setting, reader, where, d, n):
        value = d.get(self.key)
        if value is None:
            return {"motion": None}
        place = f"{where}.{self.key}"
        if not isinstance(value, dict):
            reader.fail(place, f'must be an object such as {{"path": "circle", "speed": 2, "size": 80}} '
                               f"(got {show_value(value)})")
        reader.require(place, value, ["path"])
        path = value["path"]
        if type(path) is not str or path not in tm.PATHS:
            reader.fail(f"{place}.path", f"must be one of {', '.join(tm.PATHS)} (got {path!r:.40})")
        out = {"path": path,
               "speed": reader.number(f"{place}.speed", reader.optional(value, "speed", tm.DEFAULT_SPEED),
                                      positive=True, lo=0.0, hi=tm.MAX_SPEED),
               "size": reader.number(f"{place}.size", reader.optional(value, "size", tm.DEFAULT_SIZE),
                                     positive=True, lo=0.0, hi=tm.MAX_SIZE),
               "centre": None, "phase": 0.0, "heading": None,
               "reverse": reader.flag(f"{place}.reverse", reader.optional(value, "reverse", False))}
        if value.get("centre") is not None:
            out["centre"] = reader.point(f"{place}.centre", value["centre"]).tolist()
        if value.get("phase") is not None:
            out["phase"] = math.radians(reader.number(f"{place}.phase", value["phase"]))
        if value.get("heading") is not None:
            out["heading"] = math.radians(reader.number(f"{place}.heading", value["heading"]))
        return {"motion": out}

    def quick(self, setting, d, n):
        value = d.get(self.key)
        if value is None:
            return {"motion": None}
        if type(value) is not dict or type(value.get("path")) is not str or value["path"] not in tm.PATHS:
            raise Doubt
        speed, size, centre, phase, heading = (value.get(k) for k in ("speed", "size", "centre", "phase", "heading"))
        reverse = value.get("reverse")
        if reverse is not None and type(reverse) is not bool:
            raise Doubt
        out = {"path": value["path"], "reverse": bool(reverse),
               "speed": tm.DEFAULT_SPEED if speed is None else quick_number(speed, 0.0, tm.MAX_SPEED, True),
               "size": tm.DEFAULT_SIZE if size is None else quick_number(size, 0.0, tm.MAX_SIZE, True),
               "centre": None, "phase": 0.0, "heading": None}
        if centre is not None:
            out["centre"] = [quick_number(v, -MAX_COORD, MAX_COORD) for v in quick_list(centre, 2)]
        if phase is not None:
            out["phase"] = math.radians(quick_number(phase, -MAX_COORD, MAX_COORD))
        if heading is not None:
            out["heading"] = math.radians(quick_number(heading, -MAX_COORD, MAX_COORD))
        return {"motion": out}

    def widest(self, setting, n):
        angle = widest_number(-MAX_COORD, MAX_COORD, 4)
        return {self.key: {"path": max(tm.PATHS, key=len),
                           "speed": widest_number(0.0, tm.MAX_SPEED, 4, positive=True),
                           "size": widest_number(0.0, tm.MAX_SIZE, 3, positive=True),
                           "centre": [widest_number(-MAX_COORD, MAX_COORD, 3)] * 2, "phase": angle, "heading": angle,
                           "reverse": False}}
