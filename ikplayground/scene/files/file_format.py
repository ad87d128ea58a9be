"""The scene file format, versions 1 and 2 (docs/scene-format.md): chains to JSON text, and the format's bounds.

Writing turns each chain into a dict of plain numbers (stage pixels, degrees,
rounded as documented) and the scene into one chain a line. The bounds come
from the writer: its widest chain times ``MAX_CHAINS`` gives ``MAX_FILE_BYTES``
(every scene the app holds saves and loads), and the most lists, objects,
values and strings a chain needs give the loader's ``BUDGETS``.
"""

from __future__ import annotations

import json
import math
from typing import cast

import numpy as np

from ikplayground.scene.build import appendage_build, build, path_build, rig_build, rope_build, walker_build
from ikplayground.scene.core.chain import MAX_NUMBER, NAME_MOST, Chain
from ikplayground.scene.core.obstacles import MAX_OBSTACLES, MAX_RADIUS
from ikplayground.scene.core.constants import (APPENDAGE_BONES, APPENDAGE_SLOTS, MAX_BONES, MAX_COORD,
                                               MAX_RIG_TARGETS, MAX_WALKER_LEGS, SOLVERS)
from ikplayground.scene.core.scene import MAX_CHAINS, MAX_SEED, Scene
from ikplayground.scene.core.settings import FILE_SETTINGS
from ikplayground.scene.files.file_fields import (OMIT, WIDEST_FLOAT, degrees_array, round_array, round_number,
                                                  round_positive, round_positive_array)
from ikplayground.scene.step import rope_step
from ikplayground.scene.step.terrain import MAX_TERRAIN_POINTS

FORMAT = "ikplayground-scene"
VERSIONS = (1, 2)  # the versions read; 2 added rigs
VERSION = 1  # what a scene without rigs is written as (read by every version); with a rig: RIG_VERSION
RIG_VERSION = 2
# |snake point|: a body trails up to MAX_BONES segments of MAX_COORD behind a head within MAX_COORD
MAX_SNAKE_COORD = MAX_COORD * (MAX_BONES + 1)
HEAD = f'{{"format": "{FORMAT}", "version": {VERSION},\n "chains": ['
CHAIN_SEPARATOR = ",\n  "
_MB = 1024 * 1024


def chain_to_dict(c: Chain) -> dict:
    """The chain as the file holds it: plain numbers, degrees, every field of its solver."""
    return chains_to_dicts([c])[0]


def _shape_columns(solver: str, cs: list[Chain]) -> dict[str, list]:
    """The fields of a chain's line that give its shape, for chains ``cs`` of solver ``solver`` and one bone count."""
    def field(name):
        return np.array([c.fields[name] for c in cs])
    if solver == "walker":  # its legs are the "legs" setting's field; its feet stand again on load
        return {"body": round_array(field("body")), "lengths": round_positive_array(field("lengths")[:, 0]),
                "facing": [1 if v > 0 else -1 for v in field("facing")[:, 0].tolist()]}
    if solver == "rig":
        return rig_columns(cs)
    if solver == "snake":
        # unrounded: rounding would break a snake's lengths and bends
        return {"points": field("points").tolist(), "lengths": field("lengths").tolist(),
                "heading": [round_number(math.degrees(h), 4) for h in field("heading")[:, 0].tolist()]}
    if solver == "rope":  # its joints and lengths unrounded, as a snake's (its velocity is not kept)
        return {"root": field("root").tolist(), "lengths": field("lengths").tolist(),
                "points": rope_step.laid_points({k: field(k) for k in ("points", "root", "target", "lengths",
                                                                        "pin_end")}).tolist(),
                "target": round_array(field("target"))}
    if solver == "path":  # its control points and lengths unrounded: its joints come back exactly
        return {"control": field("control").tolist(), "lengths": field("lengths").tolist()}
    return {"root": round_array(field("root")), "lengths": round_positive_array(field("lengths")),
            "angles": degrees_array(field("angles")), "target": round_array(field("target"))}


def _target(bone: int, at, heading: float, weight: float, mix: float, gait: float) -> dict:
    """One of a rig's targets as the file holds it (heading, weight, mix and a foot's gait group only when not the
    default)."""
    out = {"bone": bone, "at": round_array(at)}
    if not math.isnan(heading):
        out["heading"] = round_number(math.degrees(heading), 4)
    if weight != 1.0:
        out["weight"] = round_positive(weight, 4)
    if mix != 1.0:
        out["mix"] = round_number(mix, 4)
    if gait >= 0:
        out["gait"] = int(gait)
    return out


def rig_columns(cs: list[Chain]) -> dict[str, list]:
    """The fields of rigs' lines that give their shape (rigs ``cs`` of one size)."""
    def field(name):
        return np.array([c.fields[name] for c in cs])
    targets = [[_target(int(b), at, h, w, m, g) for b, at, h, w, m, g in
                zip(*(c.fields[k].tolist() for k in ("target_bones", "targets", "headings", "weights", "mix", "gait")))]
               for c in cs]
    return {"root": round_array(field("root")), "parents": field("parents").astype(int).tolist(),
            "bones": [list(c.bone_names) for c in cs], "lengths": round_positive_array(field("lengths")),
            "angles": degrees_array(field("angles")), "rest": degrees_array(field("rest")),
            "ranges": degrees_array(field("limits")), "targets": targets,
            "facing": [OMIT if v > 0 else -1 for v in field("facing")[:, 0].tolist()],
            "appendage_shapes": [[_appendage(a) for a in appendage_build.taken(c.fields)] or OMIT for c in cs]}


def _appendage(a: dict) -> dict:
    """One of a rig's appendages as the file holds it (its bends and gravity only when not 0)."""
    out = {"bone": a["bone"], "at": round_array(a["at"]), "angle": round_number(math.degrees(a["angle"]), 4),
           "lengths": round_positive_array(a["lengths"])}
    if a["rest"].any():
        out["rest"] = degrees_array(a["rest"])
    if a["gravity"] != 0.0:
        out["gravity"] = round_number(a["gravity"], 4)
    return out


def _ident(row: dict, c: Chain) -> dict:
    """``row`` with the chain's ``number`` (when it has one) and ``name`` (when it has one)."""
    if c.number >= 1:
        row["number"] = c.number
    if c.name:
        row["name"] = c.name
    return row


def chains_to_dicts(chains: list[Chain]) -> list[dict]:
    """``chain_to_dict`` of each chain, in order, one numpy pass per field of a group (solver, bones)."""
    out: list[dict | None] = [None] * len(chains)
    groups: dict[tuple, list[int]] = {}
    for i, c in enumerate(chains):
        groups.setdefault(c.group_key, []).append(i)
    for (solver, *_), members in groups.items():
        cs = [chains[i] for i in members]
        rows = [_ident({"solver": solver}, c) for c in cs]
        columns = list(_shape_columns(solver, cs).items())
        for setting in FILE_SETTINGS[solver]:
            assert setting.file is not None  # FILE_SETTINGS holds only the settings the file keeps
            columns += setting.file.write(setting, cs)
        for key, column in columns:
            for row, value in zip(rows, column):
                if value is not OMIT:
                    row[key] = value
        for i, row in zip(members, rows):
            out[i] = row
    return cast("list[dict]", out)  # every chain is in a group: no slot is left None


def scene_to_dict(scene: Scene) -> dict:
    """The whole file as a dict: the header, every chain, the view, the obstacles and a terrain not made for the
    stage (px)."""
    doc = {"format": FORMAT, "version": RIG_VERSION if any(c.solver == "rig" for c in scene.chains) else VERSION}
    seed = int(getattr(scene, "seed", 0))
    if seed:  # written only when not 0, so files without it read as before
        doc["seed"] = seed
    doc["chains"] = chains_to_dicts(scene.chains)
    view = getattr(scene, "view", None)
    if view is not None:  # written only away from the home view, so files without it read as before
        doc["view"] = {"origin": round_array(np.asarray(view["origin"], dtype=float)),
                       "zoom": float(f"{float(view['zoom']):.6g}")}
    obstacles = getattr(scene, "obstacles", ())
    if len(obstacles):  # written only when there are some, so files without them read as before
        doc["obstacles"] = round_array(obstacles)
    terrain = getattr(scene, "terrain", None)
    if terrain is not None and terrain.generated_for is None:
        doc["terrain"] = {"points": [round_array(p) for p in terrain.points]}
    return doc


def chain_line(d: dict) -> str:
    """One chain's line of the file (``ValueError`` for a number JSON cannot hold)."""
    return json.dumps(d, allow_nan=False)


def doc_to_text(doc: dict) -> str:
    """The file's text for :func:`scene_to_dict`'s dict: the header, then one chain a line."""
    lines = [chain_line(c) for c in doc["chains"]]
    tail = "".join(f',\n "{key}": {json.dumps(doc[key], allow_nan=False)}' for key in ("view", "obstacles", "terrain")
                   if key in doc) + "}"
    head = HEAD.replace(f'"version": {VERSION}', f'"version": {int(doc["version"])}', 1)
    head = head if "seed" not in doc else head.replace(",\n", f', "seed": {int(doc["seed"])},\n', 1)
    return head + ("\n  " + CHAIN_SEPARATOR.join(lines) + "\n ]" if lines else "]") + tail


def scene_to_text(scene: Scene) -> str:
    """The file's text: the header, then one chain a line (readable, diff-friendly)."""
    return doc_to_text(scene_to_dict(scene))


# The longest text of a number of each shape field once rounded (others: a float's 24 characters).
_WIDEST = {
    "root": -999999.999, "target": -999999.999,  # 3 decimals, within +-1e6
    "lengths": 1.234e-300,  # > 0 and <= 1e6, 3 decimals or 4 significant digits
    "angles": -999999.9999, "heading": -999999.9999,  # 4 decimals, within +-1e6 degrees
    "body": -999999.999, "facing": -1,  # a walker's body (3 decimals) and facing (+-1)
    "rest": -999999.9999, "parents": None, "bone": None,  # a rig's rest pose; parents, bones: as they are
    "at": -999999.999, "mix": 0.1234, "weight": 1.234e-300, "ranges": -179.9999, "gait": None,  # a foot's: 0, 1
    "angle": -999999.9999, "gravity": -999999.9999,  # an appendage's (its bone, at, lengths and rest as above)
}
# a snake's points and lengths are written unrounded
_WIDEST_SNAKE = {"lengths": -WIDEST_FLOAT, "heading": _WIDEST["heading"]}
_WIDEST_ROPE = {"lengths": -WIDEST_FLOAT, "target": _WIDEST["target"]}  # a rope's root and points: unrounded
_WIDEST_PATH: dict[str, float | None] = {"lengths": -WIDEST_FLOAT}  # a path chain's control points: unrounded


def _widened(value, widest, table=None):
    """``value`` with every number replaced by ``widest`` (None: kept; containers keep their shape, an object's
    members take their key's in ``table``)."""
    if isinstance(value, dict):
        return {k: _widened(v, (table or {}).get(k, WIDEST_FLOAT), table) for k, v in value.items()}
    if isinstance(value, list):
        return [_widened(v, widest, table) for v in value]
    if isinstance(value, (bool, str)) or widest is None:
        return value
    return widest


def widest_rig(targets: int) -> Chain:
    """A rig of ``targets`` targets and as many bones as it may then have, its bones' names the longest."""
    n = MAX_BONES - targets
    hanging = [{"bone": 0, "at": (1.0, 1.0), "angle": 1.0, "lengths": np.ones(APPENDAGE_BONES),
                "rest": np.ones(APPENDAGE_BONES), "gravity": 1.0}] * APPENDAGE_SLOTS
    return rig_build.make_rig((0.0, 0.0), range(-1, n - 1), np.zeros(n), np.ones(n), range(n - targets, n),
                              headings=np.zeros(targets), weights=np.full(targets, 0.5),
                              mix=np.full(targets, 0.5), gait=np.zeros(targets), facing=-1.0,
                              names=[f"{i:_>24}" for i in range(n)], appendages=hanging)


def widest_chain_dict(solver: str, targets: int = 0) -> dict:
    """The longest chain of ``solver`` the writer can write: MAX_BONES bones (a rig's with ``targets`` targets),
    every number widest."""
    if solver == "rig":
        chain, widest = widest_rig(targets), _WIDEST
    elif solver == "snake":
        chain, widest = build.straight_snake((0.0, 0.0), 0.0, nodes=MAX_BONES + 1), _WIDEST_SNAKE
    elif solver == "rope":
        chain, widest = rope_build.new_rope((0.0, 0.0), bones=MAX_BONES, pin_end=True), _WIDEST_ROPE
    elif solver == "path":
        chain, widest = path_build.new_path((0.0, 0.0), bones=MAX_BONES), _WIDEST_PATH
    elif solver == "walker":
        chain, widest = walker_build.make_walker((0.0, 0.0), legs=MAX_WALKER_LEGS, posed=False,  # (no solve at
                                                  leg_bones=max(walker_build.LEG_BONES)), _WIDEST  # import)
    else:
        n = 2 if solver == "two-bone" else MAX_BONES
        chain = build.make_ik_chain(solver, (0.0, 0.0), np.zeros(n), np.ones(n), (1.0, 1.0))
        widest = _WIDEST
    d = {k: _widened(v, widest.get(k, WIDEST_FLOAT), widest) for k, v in chain_to_dict(chain).items()}
    d.update(number=MAX_NUMBER, name="\U0001F40D" * NAME_MOST)  # each character escaped: 12 bytes
    for setting in FILE_SETTINGS[solver]:
        assert setting.file is not None  # FILE_SETTINGS holds only the settings the file keeps
        d.update(setting.file.widest(setting, chain.bones))
    return d


def _count(value, counts: dict) -> None:
    """Add ``value``'s lists, objects, strings and values (members and items) to ``counts``."""
    counts["values"] += 1
    if isinstance(value, dict):
        counts["objects"] += 1
        counts["strings"] += len(value)
        for v in value.values():
            _count(v, counts)
    elif isinstance(value, list):
        counts["lists"] += 1
        for v in value:
            _count(v, counts)
    elif isinstance(value, str):
        counts["strings"] += 1


def chain_bounds() -> dict[str, int]:
    """The most a written chain takes over every solver: ``bytes``, ``lists``, ``objects``, ``strings``, ``values``."""
    out = dict.fromkeys(("bytes", "lists", "objects", "strings", "values"), 0)
    for solver, targets in [(s, 0) for s in SOLVERS] + [("rig", MAX_RIG_TARGETS)] * ("rig" in SOLVERS):
        d = widest_chain_dict(solver, targets)
        counts = dict.fromkeys(("lists", "objects", "strings", "values"), 0)
        _count(d, counts)
        counts["bytes"] = len(chain_line(d).encode("utf-8"))
        for k, v in counts.items():
            out[k] = max(out[k], v)
    return out


CHAIN_BOUNDS = chain_bounds()
MAX_CHAIN_BYTES = CHAIN_BOUNDS["bytes"]
# The longest terrain the writer can write: MAX_TERRAIN_POINTS points at the widest.
TERRAIN_BYTES = len(f',\n "terrain": {json.dumps({"points": [[-999999.999, -999999.999]] * MAX_TERRAIN_POINTS})}')
# The longest view the writer can write.
VIEW_BYTES = len(f',\n "view": {json.dumps({"origin": [-999999.999, -999999.999], "zoom": 0.0500001})}')
# The most obstacles the writer can write, every number at its widest.
OBSTACLE_ROW = [-999999.999, -999999.999, MAX_RADIUS - 0.001]
OBSTACLES_BYTES = len(f',\n "obstacles": {json.dumps([OBSTACLE_ROW] * MAX_OBSTACLES)}')
# The file of MAX_CHAINS of the widest chains, the longest seed, view, obstacles and terrain, rounded up to whole MB.
LARGEST_FILE = (len(HEAD) + len(f', "seed": {MAX_SEED}') + len("\n  ") + MAX_CHAINS * MAX_CHAIN_BYTES
                + (MAX_CHAINS - 1) * len(CHAIN_SEPARATOR) + len("\n ]}") + VIEW_BYTES + OBSTACLES_BYTES
                + TERRAIN_BYTES + 1)
MAX_FILE_BYTES = -(-LARGEST_FILE // _MB) * _MB
# What a file's raw text may hold before it is parsed: twice what MAX_CHAINS of the largest chains need, and more,
# the longest terrain and the most obstacles (a list and 4 values each).
BUDGETS = {what: MAX_CHAINS * (2 * CHAIN_BOUNDS[what] + 8) + 1024 + 3 * MAX_TERRAIN_POINTS + 4 * MAX_OBSTACLES
           for what in ("lists", "objects", "strings", "values")}
