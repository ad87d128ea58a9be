"""The scene file as msgspec types: one Struct per solver, a tagged union of them, the terrain, the obstacles.

docs/scene-format.md gives every field; msgspec's docs the machinery ("Structs",
"Tagged Unions" on ``solver``, "Constraints", "Raw"). A Struct holds its solver's
shape (here) and its settings' fields (one row of the settings table each,
:meth:`~.file_fields.Field.types`). What a type cannot say is checked in :mod:`.file_decode`.
"""

from __future__ import annotations

from typing import Annotated, Union

import msgspec

from ikplayground.scene.core.chain import MAX_NUMBER
from ikplayground.scene.core.obstacles import MAX_OBSTACLES
from ikplayground.scene.core.constants import (APPENDAGE_BONES, APPENDAGE_SLOTS, BONE_NAME_PATTERN, IK_SOLVERS,
                                               MAX_BONES, MAX_COORD, MAX_RIG_TARGETS, SOLVERS, VIEW_ZOOM)
from ikplayground.scene.core.scene import MAX_SEED
from ikplayground.scene.core.settings import FILE_SETTINGS, SETTINGS
from ikplayground.scene.core.solver_kinds import on_change
from ikplayground.scene.files.file_fields import Choice, Whole, bounded
from ikplayground.scene.files.file_format import MAX_SNAKE_COORD
from ikplayground.scene.files.file_list_fields import COORD, POINT, RANGE
from ikplayground.scene.step import target_paths as tm
from ikplayground.scene.step.terrain import MAX_TERRAIN_POINTS

LENGTH = bounded(0.0, MAX_COORD, positive=True)
SNAKE_POINT = tuple[bounded(-MAX_SNAKE_COORD, MAX_SNAKE_COORD), bounded(-MAX_SNAKE_COORD, MAX_SNAKE_COORD)]


def _at_most(item, most: int, least: int = 0):
    return Annotated[list[item], msgspec.Meta(min_length=least, max_length=most)]


_BONES = _at_most(LENGTH, MAX_BONES, 1)
_ANGLES = _at_most(COORD, MAX_BONES)
BONE_NAME = Annotated[str, msgspec.Meta(pattern=BONE_NAME_PATTERN)]


class RigTargetValue(msgspec.Struct, kw_only=True):
    """One of a rig's ``targets``: the bone whose end it pulls, where, and optionally its heading (degrees),
    weight, FK/IK mix and, for a foot, its gait group (0 or 1)."""

    bone: bounded(0, MAX_BONES - 1)
    at: POINT
    heading: COORD | None = None
    weight: bounded(0.0, MAX_COORD, positive=True) | None = None
    mix: bounded(0.0, 1.0) | None = None
    gait: bounded(0, 1) | None = None

class AppendageValue(msgspec.Struct, kw_only=True):
    """One of a rig's ``appendage_shapes``: the bone it hangs from, where on it (along, across px), its rest direction
    from the bone's (degrees), its bones' lengths, optionally their bends (degrees) and its gravity (px/s^2)."""

    bone: bounded(0, MAX_BONES - 1)
    at: POINT
    angle: COORD
    lengths: _at_most(LENGTH, APPENDAGE_BONES, 1)
    rest: _at_most(COORD, APPENDAGE_BONES) | None = None
    gravity: COORD | None = None


# the fields of each solver's shape, (key, type) required or (key, type, default)
SHAPES: dict[str, list[tuple]] = {
    "two-bone": [("root", POINT), ("lengths", tuple[LENGTH, LENGTH]), ("angles", _ANGLES), ("target", POINT)],
    **{solver: [("root", POINT), ("lengths", _BONES), ("angles", _ANGLES), ("target", POINT)]
       for solver in ("ccd", "fabrik", "dls")},
    "snake": [("points", _at_most(SNAKE_POINT, MAX_BONES + 1, 2)),
              ("lengths", _at_most(LENGTH, MAX_BONES) | None, None), ("heading", COORD | None, None)],
    "rope": [("root", SNAKE_POINT), ("lengths", _BONES), ("points", _at_most(SNAKE_POINT, MAX_BONES + 1, 2)),
             ("target", POINT)],
    "path": [("control", _at_most(POINT, 4, 4)), ("lengths", _BONES)],
    "walker": [("body", POINT), ("lengths", _at_most(LENGTH, 3, 2)), ("facing", float | None, None)],
    "rig": [("root", POINT), ("parents", _at_most(bounded(-1, MAX_BONES - 2), MAX_BONES, 1)),
            ("bones", _at_most(BONE_NAME, MAX_BONES, 1)), ("lengths", _BONES), ("angles", _ANGLES),
            ("rest", _ANGLES | None, None), ("ranges", _at_most(RANGE, MAX_BONES) | None, None),
            ("targets", _at_most(RigTargetValue, MAX_RIG_TARGETS)), ("facing", float | None, None),
            ("appendage_shapes", _at_most(AppendageValue, APPENDAGE_SLOTS) | None, None)],
}


def _shape(solver: str) -> list[tuple]:
    """The shape fields of ``solver``'s chains: its own, or CCD's for an iterative solver registered later."""
    return SHAPES[solver] if solver in SHAPES else SHAPES["ccd"]


def _struct(solver: str) -> type:
    fields = [("number", NUMBER | None, None), ("name", str | None, None), *_shape(solver)]
    keys = SETTING_KEYS[solver] = []
    for setting in FILE_SETTINGS[solver]:
        assert setting.file is not None  # FILE_SETTINGS holds only the settings the file keeps
        types = setting.file.types(setting)
        fields += types
        keys.append((setting, [key for key, *_ in types]))
    name = "".join(part.title() for part in solver.split("-")) + "Chain"
    return msgspec.defstruct(name, fields, kw_only=True, tag_field="solver", tag=solver)


# per registered solver its Struct and the settings the file keeps with their keys (made again on a change)
SETTING_KEYS: dict[str, list] = {}
CHAIN_TYPES: dict[str, type] = {}
CHAIN: object = None


def chain_union():
    """The tagged union of every registered solver's chain Struct (what a chain of the file decodes as)."""
    return CHAIN


class TerrainValue(msgspec.Struct):
    """``terrain``: the ground's polyline."""

    points: _at_most(POINT, MAX_TERRAIN_POINTS, 2)


class ViewValue(msgspec.Struct):
    """``view``: where the window looked, the scene point (px) at its top-left and its zoom."""

    origin: POINT
    zoom: Annotated[float, msgspec.Meta(ge=VIEW_ZOOM[0], le=VIEW_ZOOM[1])]


# ``obstacles``: circles [x, y, r] px (the radius checked after the decode: :func:`.obstacles.checked_obstacles`)
OBSTACLES = _at_most(tuple[COORD, COORD, float], MAX_OBSTACLES)
SEED = bounded(0, MAX_SEED) | None
NUMBER = bounded(1, MAX_NUMBER)  # a chain's number
# the keys of whole numbers, with their range (for messages: "must be between 1 and 1000")
WHOLE_KEYS = {"seed": (0, MAX_SEED), "number": (1, MAX_NUMBER), "parents": (-1, MAX_BONES - 2),
              "targets.bone": (0, MAX_BONES - 1), "targets.gait": (0, 1),
              "appendage_shapes.bone": (0, MAX_BONES - 1),
              **{s.file.key: (int(s.lo), int(s.hi)) for s in SETTINGS if isinstance(s.file, Whole)}}
# the keys of strings of a few choices: {(solver, key): choices}
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {}


def _rebuild() -> None:
    global CHAIN
    CHAIN_TYPES.clear()
    SETTING_KEYS.clear()
    CHAIN_TYPES.update({solver: _struct(solver) for solver in SOLVERS})
    CHAIN = Union[tuple(CHAIN_TYPES.values())]  # noqa: UP007 (a runtime union of Struct types)
    CHOICES.clear()
    CHOICES.update({(solver, s.file.key): s.choices for solver in SOLVERS for s in FILE_SETTINGS[solver]
                    if isinstance(s.file, Choice)})
    CHOICES.update({(solver, "motion.path"): tm.PATHS for solver in IK_SOLVERS})


_rebuild()
on_change(_rebuild)  # after the settings' own listener: FILE_SETTINGS is up to date by then
