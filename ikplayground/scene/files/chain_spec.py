"""One decoded chain of a scene file (:mod:`.file_schema`'s Struct) as its builder's arguments and its identity,
after the checks across fields that types cannot make (a :class:`~.file_fields.Refused` naming the field).
docs/scene-format.md gives the fields. Pixels, y down; the file's angles in degrees, the builders' in radians."""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.build import build, path_build, rig_build, rope_build, walker_build
from ikplayground.scene.core.chain import checked_name
from ikplayground.scene.core.constants import MAX_BONES, MAX_COORD
from ikplayground.scene.files.file_errors import show_value
from ikplayground.scene.files.file_fields import Refused, whole
from ikplayground.scene.files.file_list_fields import ordered
from ikplayground.scene.files.file_schema import SETTING_KEYS


def _settings(c, solver: str, n: int) -> dict:
    """The constructor's keyword arguments from the settings' fields of the decoded chain ``c``."""
    kw: dict = {}
    for setting, keys in SETTING_KEYS[solver]:
        value = getattr(c, keys[0]) if len(keys) == 1 else tuple(getattr(c, key) for key in keys)
        kw.update(setting.file.chain_kwargs(setting, value, n, solver))
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


def _rope(c) -> tuple:
    """A rope's builder and arguments: a joint a bone and one more (joints off their lengths are laid out again
    from the root)."""
    n = len(c.lengths)
    if len(c.points) != n + 1:
        raise Refused("points", f"must have {n + 1} entries, one more than lengths (got {len(c.points)})")
    return rope_build.make_rope, {"root": np.array(c.root, dtype=float), "lengths": np.array(c.lengths, dtype=float),
                                  "points": np.array(c.points, dtype=float), "target": np.array(c.target, dtype=float),
                                  **_settings(c, "rope", n)}


def _path(c) -> tuple:
    """A path chain's builder and arguments: four control points, its bones (its joints are laid out on load)."""
    return path_build.make_path, {"control": np.array(c.control, dtype=float),
                                  "lengths": np.array(c.lengths, dtype=float), **_settings(c, "path", len(c.lengths))}


def _rig_parents(c) -> list[int]:
    """A rig's ``parents``, whole numbers in tree order (:class:`Refused` naming the first that is not)."""
    parents = [whole(p, f"parents[{i}]") for i, p in enumerate(c.parents)]
    if parents[0] != -1:
        raise Refused("parents[0]", f"must be -1: bone 0 starts at the root (got {parents[0]})")
    for i, p in enumerate(parents[1:], start=1):
        if not 0 <= p < i:
            raise Refused(f"parents[{i}]", f"must be a bone before it, 0 to {i - 1} (got {p})")
    return parents


def _rig(c) -> tuple:
    """A rig's builder and arguments: its counts agree, its parents make a tree, its targets' bones exist."""
    n, k = len(c.lengths), len(c.targets)
    for key in ("parents", "bones", "angles", "rest", "ranges"):
        value = getattr(c, key)
        if value is not None and len(value) != n:
            raise Refused(key, f"must have {n} entries, one a bone (got {len(value)})")
    if n + k > MAX_BONES:
        raise Refused("targets", f"must have at most {MAX_BONES - n} entries with {n} bones: a rig's bones and "
                                 f"targets are at most {MAX_BONES} together (got {k})")
    parents = _rig_parents(c)
    seen: dict = {}
    for i, name in enumerate(c.bones):
        if name in seen:
            raise Refused(f"bones[{i}]", f"{name!r} is bones[{seen[name]}]'s name too; each bone's name is its own")
        seen[name] = i
    limits = None if c.ranges is None else [ordered(pair, f"ranges[{i}]") for i, pair in enumerate(c.ranges)]
    bones: dict = {}
    for j, t in enumerate(c.targets):
        bone = whole(t.bone, f"targets[{j}].bone")
        if bone >= n:
            raise Refused(f"targets[{j}].bone", f"must be a bone, 0 to {n - 1} (got {bone})")
        if bone in bones:
            raise Refused(f"targets[{j}].bone", f"{bone} is targets[{bones[bone]}]'s bone too; a bone has one target")
        bones[bone] = j
    t = c.targets
    gait = [-1 if x.gait is None else whole(x.gait, f"targets[{j}].gait") for j, x in enumerate(t)]
    return rig_build.make_rig, {
        "root": np.array(c.root, dtype=float), "parents": parents, "angles": np.radians(np.array(c.angles, float)),
        "lengths": np.array(c.lengths, dtype=float), "names": tuple(c.bones),
        "rest": None if c.rest is None else np.radians(np.array(c.rest, dtype=float)),
        "limits": None if limits is None else np.radians(np.array(limits, dtype=float)),
        "target_bones": list(bones), "targets": np.array([x.at for x in t], dtype=float).reshape(k, 2),
        "headings": [math.nan if x.heading is None else math.radians(x.heading) for x in t],
        "weights": [1.0 if x.weight is None else x.weight for x in t],
        "mix": [1.0 if x.mix is None else x.mix for x in t], "gait": gait, "facing": _facing(c),
        "appendages": _appendages(c, n), **_settings(c, "rig", n)}


def _appendages(c, n: int) -> list[dict] | None:
    """A rig's ``appendage_shapes`` as :func:`~.rig_build.make_rig` takes them (None: it has none), each bone one of its
    own and as many bends as bones (else :class:`Refused`)."""
    if c.appendage_shapes is None:
        return None
    out = []
    for j, a in enumerate(c.appendage_shapes):
        bone = whole(a.bone, f"appendage_shapes[{j}].bone")
        if bone >= n:
            raise Refused(f"appendage_shapes[{j}].bone", f"must be a bone, 0 to {n - 1} (got {bone})")
        if a.rest is not None and len(a.rest) != len(a.lengths):
            raise Refused(f"appendage_shapes[{j}].rest", f"must have {len(a.lengths)} entries, one a bone "
                                                   f"(got {len(a.rest)})")
        out.append({"bone": bone, "at": a.at, "angle": math.radians(a.angle), "lengths": a.lengths,
                    "rest": None if a.rest is None else np.radians(np.array(a.rest, dtype=float)),
                    "gravity": 0.0 if a.gravity is None else a.gravity})
    return out


def _facing(c) -> float:
    """A walker's or rig's ``facing``: 1 or -1 (missing: 1), else :class:`Refused`."""
    facing = 1.0 if c.facing is None else c.facing
    if facing not in (1.0, -1.0):
        raise Refused("facing", f"must be 1 or -1 (got {show_value(facing)})")
    return facing


def chain_spec(c) -> tuple:
    """``(make, kwargs)`` of the decoded chain ``c`` after the checks types cannot make (:class:`Refused`)."""
    solver = type(c).__struct_config__.tag
    if solver == "snake":
        return _snake(c)
    if solver == "rig":
        return _rig(c)
    if solver == "rope":
        return _rope(c)
    if solver == "path":
        return _path(c)
    if solver == "walker":
        kw = _settings(c, "walker", 0)
        if len(c.lengths) != kw["leg_bones"]:
            raise Refused("lengths", f"must have {kw['leg_bones']} entries (got {len(c.lengths)})")
        return walker_build.make_walker, {"body": np.array(c.body, dtype=float),
                                          "lengths": np.array(c.lengths, dtype=float), "facing": _facing(c), **kw}
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
