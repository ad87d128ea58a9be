"""The list- and object-valued fields of the per-chain settings: limits, bend range, pole, motion.

See :mod:`.file_fields` for what a field does and docs/scene-format.md
("Chains", "Animated targets") for every key. The types are msgspec's
(fixed-length tuples, nested Structs); a pair's order is checked after the decode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec
import numpy as np

from ikplayground.scene.core.constants import MAX_BONES, MAX_COORD
from ikplayground.scene.files.file_errors import show_value
from ikplayground.scene.files.file_fields import (OMIT, WIDEST_FLOAT, Field, Refused, bounded, degrees_array,
                                                  round_array, round_number, round_positive, widest_number)
from ikplayground.scene.step import target_paths as tm

COORD = bounded(-MAX_COORD, MAX_COORD)
POINT = tuple[COORD, COORD]
DEGREES = bounded(-180.0, 180.0)
RANGE = tuple[DEGREES, DEGREES]


def ordered(pair, where: str) -> tuple[float, float]:
    """A ``[lo, hi]`` pair with ``lo <= hi`` (:class:`Refused` at ``where`` otherwise)."""
    lo, hi = pair
    if lo > hi:
        raise Refused(where, f"lo must be <= hi (got [{show_value(lo)}, {show_value(hi)}])")
    return lo, hi


@dataclass(frozen=True)
class JointLimits(Field):
    """``limits``: a ``[lo, hi]`` pair of degrees per bone; optional (the joint-limit default, the root free)."""

    key: str = "limits"

    def write(self, setting, chains):
        return [(self.key, degrees_array(np.array([c.fields["limits"] for c in chains])))]

    def kind(self, setting):
        return Annotated[list[RANGE], msgspec.Meta(max_length=MAX_BONES)]

    def kwargs(self, setting, value, n):
        if value is None:
            return {}
        if len(value) != n:
            raise Refused(self.key, f"must have {n} entries (got {len(value)})")
        limits = np.array(value, dtype=float).reshape(n, 2)
        out_of_order = limits[:, 0] > limits[:, 1]
        if out_of_order.any():  # name the first
            i = int(np.argmax(out_of_order))
            ordered(value[i], f"{self.key}[{i}]")
        return {"limits": np.radians(limits)}

    def widest(self, setting, n):
        return {self.key: [[widest_number(-180.0, 180.0, 4)] * 2] * n}


@dataclass(frozen=True)
class ElbowLimit(Field):
    """``elbow_limit``: a two-bone arm's elbow range, ``[lo, hi]`` degrees (4 decimals); missing or null: free.
    Written only when limited."""

    key: str = "elbow_limit"

    def write(self, setting, chains):
        return [(self.key, [degrees_array(c.fields["limits"][1]) if setting.read(c) else OMIT for c in chains])]

    def kind(self, setting):
        return RANGE

    def kwargs(self, setting, value, n):
        if value is None:
            return {}
        limits = np.array([(-math.pi, math.pi), np.radians(ordered(value, self.key))])
        return {"limits": limits}

    def widest(self, setting, n):
        return {self.key: [widest_number(-180.0, 180.0, 4)] * 2}


@dataclass(frozen=True)
class BendLimits(Field):
    """``bend_limits``: ``[lo, hi]`` degrees, unrounded; optional (+-the setting's default)."""

    key: str = "bend_limits"

    def write(self, setting, chains):
        return [(self.key, np.degrees(np.array([c.fields["bend_limits"] for c in chains])).tolist())]

    def kind(self, setting):
        return RANGE

    def kwargs(self, setting, value, n):
        lo, hi = ordered(value, self.key) if value is not None else (-setting.default, setting.default)
        return {"bend_limits": (math.radians(lo), math.radians(hi))}

    def widest(self, setting, n):
        return {self.key: [WIDEST_FLOAT, WIDEST_FLOAT]}


@dataclass(frozen=True)
class Pole(Field):
    """``pole``: a point in px, or missing / null for none; written only when the chain has one."""

    key: str = "pole"

    def write(self, setting, chains):
        return [(self.key, [OMIT if c.pole is None else round_array(c.pole) for c in chains])]

    def kind(self, setting):
        return POINT

    def kwargs(self, setting, value, n):
        return {"pole": None if value is None else list(value)}

    def widest(self, setting, n):
        return {self.key: [-999999.999, -999999.999]}


class MotionValue(msgspec.Struct, kw_only=True):
    """The ``motion`` object: ``path`` required, the rest optional (missing or null: the default)."""

    path: Literal[tm.PATHS]
    speed: bounded(0.0, tm.MAX_SPEED, positive=True) | None = None
    size: bounded(tm.MIN_SIZE, tm.MAX_SIZE) | None = None
    centre: POINT | None = None
    phase: COORD | None = None
    reverse: bool | None = None
    heading: COORD | None = None


def _object_of(value) -> dict:
    """A chain's motion (:func:`~ikplayground.scene.step.target_paths.read`'s dict) as the file holds it."""
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
    """``motion``: ``{"path": "circle", "speed": 2.0, "size": 80, "centre": [400, 300], "phase": 57.3}``,
    or missing / null for none; written with its state unless at the defaults.
    """

    key: str = "motion"

    def write(self, setting, chains):
        column = []
        for c in chains:
            value = tm.read(c.fields)
            still = (value["path"] == "none" and value["speed"] == tm.DEFAULT_SPEED
                     and value["size"] == tm.DEFAULT_SIZE)
            column.append(OMIT if still else _object_of(value))
        return [(self.key, column)]

    def kind(self, setting):
        return MotionValue

    def kwargs(self, setting, value, n):
        if value is None:
            return {"motion": None}
        return {"motion": {
            "path": value.path, "reverse": bool(value.reverse),
            "speed": tm.DEFAULT_SPEED if value.speed is None else value.speed,
            "size": tm.DEFAULT_SIZE if value.size is None else value.size,
            "centre": None if value.centre is None else list(value.centre),
            "phase": 0.0 if value.phase is None else math.radians(value.phase),
            "heading": None if value.heading is None else math.radians(value.heading)}}

    def widest(self, setting, n):
        angle = widest_number(-MAX_COORD, MAX_COORD, 4)
        return {self.key: {"path": max(tm.PATHS, key=len),
                           "speed": widest_number(0.0, tm.MAX_SPEED, 4, positive=True),
                           "size": widest_number(tm.MIN_SIZE, tm.MAX_SIZE, 3),
                           "centre": [widest_number(-MAX_COORD, MAX_COORD, 3)] * 2, "phase": angle, "heading": angle,
                           "reverse": False}}
