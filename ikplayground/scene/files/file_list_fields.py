"""The scene file's list-valued fields of the per-chain settings: joint limits, a snake's bend range, a pole.

Fields of :mod:`.file_fields` (see there for what a field does) whose values are
lists: ``limits`` (a ``[lo, hi]`` pair of degrees per bone), ``bend_limits`` (one
pair) and ``pole`` (a point in px). docs/scene-format.md gives every key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ikplayground.scene.files.file_fields import (
    OMIT,
    WIDEST_FLOAT,
    Doubt,
    Field,
    degrees_array,
    quick_list,
    quick_number,
    round_array,
    rows_within,
    stack_numbers,
    widest_number,
)


@dataclass(frozen=True)
class JointLimits(Field):
    """``limits``: one ``[lo, hi]`` pair of degrees per bone, ``-180 <= lo <= hi <= 180``;
    optional (missing or null: the joint-limit default past the root, the root free)."""

    key: str = "limits"

    def write(self, setting, chains):
        return [(self.key, degrees_array(np.array([c.fields["limits"] for c in chains])))]

    def read(self, setting, reader, where, d, n):
        limits = d.get(self.key)
        if limits is None:
            return {}
        return {"limits": np.radians(reader.pairs(f"{where}.{self.key}", limits, n, lo=-180.0, hi=180.0,
                                                  ordered=True))}

    def quick(self, setting, d, n):
        if d.get(self.key) is not None:
            quick_list(d[self.key], n)  # the pairs themselves: quick_group
        return {}

    def quick_group(self, setting, ds, kws, n):
        ok = np.ones(len(ds), dtype=bool)
        given = [j for j, d in enumerate(ds) if d.get(self.key) is not None]
        if given:
            limits = stack_numbers([ds[j][self.key] for j in given], (len(given), n, 2))
            ok[given] = rows_within(limits, -180.0, 180.0) & (limits[..., 0] <= limits[..., 1]).all(axis=1)
            radians = np.radians(limits)
            for row, j in enumerate(given):
                kws[j]["limits"] = radians[row]
        return ok

    def widest(self, setting, n):
        return {self.key: [[widest_number(-180.0, 180.0, 4)] * 2] * n}


@dataclass(frozen=True)
class BendLimits(Field):
    """``bend_limits``: ``[lo, hi]`` degrees, ``-180 <= lo <= hi <= 180``, written unrounded
    (a snake's nodes must stay inside it); optional (missing or null: +-the setting's default)."""

    key: str = "bend_limits"

    def write(self, setting, chains):
        return [(self.key, np.degrees(np.array([c.fields["bend_limits"] for c in chains])).tolist())]

    def read(self, setting, reader, where, d, n):
        lo, hi = reader.pair(f"{where}.{self.key}", reader.optional(d, self.key, [-setting.default, setting.default]))
        return {"bend_limits": (math.radians(lo), math.radians(hi))}

    def quick(self, setting, d, n):
        bend = d.get(self.key)
        if bend is None:
            lo, hi = -setting.default, setting.default
        else:
            lo, hi = (quick_number(v, -180.0, 180.0) for v in quick_list(bend, 2))
        if lo > hi:
            raise Doubt
        return {"bend_limits": (math.radians(lo), math.radians(hi))}

    def widest(self, setting, n):
        return {self.key: [WIDEST_FLOAT, WIDEST_FLOAT]}


@dataclass(frozen=True)
class Pole(Field):
    """``pole``: a point in px, or missing / null for none; written only when the chain has one."""

    key: str = "pole"

    def write(self, setting, chains):
        column = [OMIT if c.pole is None else round_array(c.pole) for c in chains]
        return [(self.key, column)]

    def read(self, setting, reader, where, d, n):
        value = d.get(self.key)
        return {"pole": None if value is None else reader.point(f"{where}.{self.key}", value).tolist()}

    def quick(self, setting, d, n):
        value = d.get(self.key)
        if value is None:
            return {"pole": None}
        x, y = (quick_number(v, -1_000_000.0, 1_000_000.0) for v in quick_list(value, 2))
        return {"pole": [x, y]}

    def widest(self, setting, n):
        return {self.key: [-999999.999, -999999.999]}
