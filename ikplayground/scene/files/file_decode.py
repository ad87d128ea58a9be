"""Reading a scene file's bytes: guards, a typed msgspec decode a chain at a time, the checks across fields.

docs/scene-format.md ("Limits", "Error messages") says what is refused and how.
The raw bytes are first held to the format's bounds (:mod:`.json_scan`); the
top-level members and the chains are then kept as their bytes (msgspec's
"Raw"), and each chain is decoded into its solver's Struct (:mod:`.file_schema`;
msgspec's "Tagged Unions", "Constraints"), checked across fields and dropped.
A refusal is a one-line :class:`~.file_errors.SceneFileError` naming the file,
the place and the value (:func:`~.file_messages.described`).
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

import msgspec
import numpy as np

from ikplayground.scene.build import build, path_build, rig_build, rope_build, walker_build
from ikplayground.scene.core.obstacles import MAX_OBSTACLES, checked_obstacles
from ikplayground.scene.core.scene import MAX_CHAINS
from ikplayground.scene.files import json_scan, strict_json
from ikplayground.scene.files.file_errors import SceneFileError, show_value
from ikplayground.scene.files.file_fields import Refused, whole
from ikplayground.scene.files.file_format import (BUDGETS, CHAIN_BOUNDS, FORMAT, MAX_CHAIN_BYTES, OBSTACLES_BYTES,
                                                  TERRAIN_BYTES, VERSIONS, VIEW_BYTES)
from ikplayground.scene.files.file_messages import PARSED_MOST, Unread, described, value_at
from ikplayground.scene.files.chain_spec import chain_ident, chain_spec
from ikplayground.scene.files.file_schema import OBSTACLES, SEED, TerrainValue, ViewValue, chain_union
from ikplayground.scene.step.terrain import MAX_TERRAIN_POINTS, Terrain

_MEMBERS = dict[str, msgspec.Raw]
_CHAINS = list[msgspec.Raw]
_MOST_MEMBERS = 100_000  # a file with more top-level members is refused for its counts alone
_HEAD_VALUE_BYTES = 4096  # a longer "format" or "version" is wrong whatever it holds
_WHOLE_PARSE_BYTES = 8 << 20  # JSON syntax errors of files up to this size are worded by Python's parser
# the most values one chain may hold (twice the widest the writer writes, as the budgets)
MAX_CHAIN_VALUES = 2 * CHAIN_BOUNDS["values"] + 8


class Chains:
    """What a document holds once read: ``specs`` (``(make, kwargs)`` of each chain), ``idents`` (each one's
    ``(number or 0, name or "")``), ``terrain``, ``seed``, ``view`` (``{"origin": [x, y], "zoom": z}`` or None)
    and ``obstacles`` ((k, 3) rows (x, y, r) px)."""

    def __init__(self, specs: list, terrain: Terrain | None, seed: int, view: dict | None = None,
                 idents: list | None = None, obstacles: np.ndarray | None = None):
        self.specs, self.terrain, self.seed, self.view = specs, terrain, seed, view
        self.idents = idents if idents is not None else [(0, "")] * len(specs)
        self.obstacles = obstacles if obstacles is not None else np.zeros((0, 3))


def _fail(name: str, where: str, message: str) -> NoReturn:
    text = f"{where}: {message}" if where else message
    raise SceneFileError(f"{name}: {text}" if name else text)


def _decoded(raw, kind, name: str, where: str):
    """``raw`` decoded as ``kind``; a SceneFileError naming ``where`` and the place inside it otherwise."""
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as e:
        path, message = described(str(e), raw, "" if where.startswith("chains[") else where)
        _fail(name, f"{where}{path}" if where or not path else path.lstrip("."), message)


def _held(raw, most: int, name: str, where: str) -> None:
    """Refuse ``raw`` (longer than the writer writes) for holding more than ``most`` values, counted unbuilt."""
    values = json_scan.scan(bytes(raw)).values
    if values > most:
        _fail(name, where, f"{values:,} values are more than it may hold ({most:,}); not a scene file")


def read_chain(raw, name: str, where: str) -> tuple:
    """The ``(make, kwargs, (number, name))`` of the chain whose bytes are ``raw``, every field checked."""
    if len(raw) > MAX_CHAIN_BYTES:
        _held(raw, MAX_CHAIN_VALUES, name, where)
    c = _decoded(raw, chain_union(), name, where)
    try:
        return (*chain_spec(c), chain_ident(c))
    except Refused as e:
        place, message = e.args
        _fail(name, f"{where}.{place}" if place else where, message)


def _head_value(raw):
    """The value of the member's bytes ``raw``, parsed if short enough to be a format or a version."""
    if len(raw) <= _HEAD_VALUE_BYTES:
        try:
            return value_at(raw, "")
        except SceneFileError:  # not JSON alone (bytes cut from a file that is not JSON)
            pass
    return Unread(bytes(raw).lstrip()[:1])


def check_header(doc: dict, name: str) -> int:
    """Refuse a document whose ``format`` or ``version`` (values, or their bytes) is not this one's; its version."""
    if "format" not in doc:
        _fail(name, "", f'not an ikplayground scene file (no "format": "{FORMAT}")')
    fmt = doc["format"]
    fmt = _head_value(fmt) if isinstance(fmt, msgspec.Raw) else fmt
    if fmt != FORMAT:
        _fail(name, "format", f"must be {FORMAT!r} (got {show_value(fmt)})")
    if "version" not in doc:
        _fail(name, "", "missing field 'version'")
    version = doc["version"]
    version = _head_value(version) if isinstance(version, msgspec.Raw) else version
    if isinstance(version, bool) or not isinstance(version, (int, float)) or version not in VERSIONS:
        known = " or ".join(map(str, VERSIONS))
        _fail(name, "version", f"must be {known} (got {show_value(version)}); this ikplayground reads versions "
                               f"{', '.join(map(str, VERSIONS[:-1]))} and {VERSIONS[-1]}")
    return int(version)


def _too_many_chains(name: str, count: int) -> NoReturn:
    _fail(name, "chains", f"must have at most {MAX_CHAINS} entries (got {count})")


def _members(raw: bytes, shape: json_scan.Shape) -> dict:
    """The top-level object's members as their bytes ({} if ``raw`` is no JSON object or has very many)."""
    if shape.top_colons > _MOST_MEMBERS:
        return {}
    try:
        return msgspec.json.decode(raw, type=_MEMBERS)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return {}


def check_shape(raw: bytes, name: str) -> None:
    """Refuse ``raw`` for its nesting or for holding more than any scene file may, before anything is built.

    Over a budget, the header and the number of chains are checked first (the message a decode would give).
    """
    brackets = raw.count(b"[") + raw.count(b"{")
    if brackets <= json_scan.MAX_DEPTH and raw.count(b",") <= MAX_CHAINS and raw.count(b'"') // 2 <= BUDGETS["strings"]:
        return
    shape = json_scan.scan(raw)
    if shape.deep is not None:
        _fail(name, strict_json.line_col(raw, shape.deep),
              f"JSON nested more than {json_scan.MAX_DEPTH} levels deep; not a scene file")
    counts = {"lists": shape.lists, "objects": shape.objects, "strings": shape.strings, "values": shape.values}
    over = [(what, count) for what, count in counts.items() if count > BUDGETS[what]]
    if over or shape.commas > MAX_CHAINS:  # it may hold more chains than a scene: count them
        members = _members(raw, shape)
        if members:
            check_header(members, name)
        chains = members.get("chains")
        if chains is not None and memoryview(chains)[:1].tobytes() == b"[":
            count = json_scan.scan(chains).top_commas + 1
            if count > MAX_CHAINS:
                _too_many_chains(name, count)
    if over:
        what, count = over[0]
        _fail(name, "", f"{count:,} {what} are more than a scene file may hold ({BUDGETS[what]:,}); not a scene file")


def _syntax_error(raw: bytes, text: str | None, name: str, error: msgspec.DecodeError) -> NoReturn:
    """Refuse ``raw``, which is not JSON, in Python's parser's words if small enough, else msgspec's."""
    if len(raw) <= _WHOLE_PARSE_BYTES:
        doc, bad = strict_json.parse(raw.decode("utf-8", "surrogatepass") if text is None else text, raw, name)
        if isinstance(doc, dict) and bad:
            check_header(doc, name)
            found = strict_json.first_bad_number(doc)
            if found is None:  # only under a key that a later repeat of the key replaced
                _fail(name, "", f"{bad[0].shown()} is not a finite number (under a repeated key)")
            _fail(name, found[0], f"must be a finite number (got {found[1].shown()})")
    at = re.search(r"\(byte (\d+)\)", str(error))
    offset = int(at[1]) if at else len(raw)
    what = str(error).split(": ", 1)[-1].split(" (byte")[0]
    for word in ("NaN", "Infinity", "-Infinity"):
        if raw.startswith(word.encode(), offset):
            what = f"{word} is not a finite number"
    _fail(name, strict_json.line_col(raw, offset), f"not valid JSON: {what}")


def _suspect(raw: bytes) -> bool:
    """Whether ``raw`` may hold a number that is no finite float (a cheap look at its bytes)."""
    return b"NaN" in raw or b"Infinity" in raw or strict_json.may_overflow(raw)


def _first_bad_number(members: dict, name: str) -> None:
    """Refuse a document holding a number that is no finite float anywhere (each member, each chain)."""
    for key, raw in members.items():
        parts: list[tuple[str | None, Any]] = [(None, raw)]
        if key == "chains" and memoryview(raw)[:1].tobytes() == b"[":
            parts = [(f"chains[{i}]", chain) for i, chain in enumerate(_decoded(raw, _CHAINS, name, "chains"))]
        for where, part in parts:
            if len(part) > PARSED_MOST:  # hostile: too long to parse for a message (the writer writes none)
                if not _suspect(bytes(part)):
                    continue
                _fail(name, key, "holds a number that is no finite float (NaN, Infinity, 1e400 or 400 digits) or "
                                 "more than a scene file's member may hold; not a scene file")
            value, bad = strict_json.parse(bytes(part).decode("utf-8", "surrogatepass"), bytes(part), name)
            if bad:
                found = strict_json.first_bad_number({key: value} if where is None else value)
                if found is None:  # only under a key that a later repeat of the key replaced
                    _fail(name, where or key, "holds a number that is no finite float under a repeated key "
                                              f"(got {bad[0].shown()})")
                place, number = found
                if where is not None:
                    place = where + (place if not place or place.startswith("[") else "." + place)
                _fail(name, place, f"must be a finite number (got {number.shown()})")


def read_document(raw: bytes, name: str, text: str | None = None) -> Chains:
    """The chains (as specs), terrain and seed of the scene file ``raw`` (its text ``text``, if decoded)."""
    check_shape(raw, name)
    try:
        members = msgspec.json.decode(raw, type=_MEMBERS)
    except msgspec.ValidationError:  # not an object: first, whether it is JSON at all
        try:
            whole = msgspec.json.decode(raw, type=msgspec.Raw)
        except msgspec.DecodeError as e:
            _syntax_error(raw, text, name, e)
        _fail(name, "", f"must hold a JSON object (got {show_value(_head_value(whole))})")
    except msgspec.DecodeError as e:
        _syntax_error(raw, text, name, e)
    check_header(members, name)
    if _suspect(raw):
        _first_bad_number(members, name)
    seed: Any = members.get("seed")  # its bytes, then its value
    seed = 0 if seed is None else _decoded(seed, SEED, name, "seed")
    seed = 0 if seed is None else _whole(seed, name, "seed")
    terrain = _optional(members, "terrain", TerrainValue, TERRAIN_BYTES, 2 * (3 * MAX_TERRAIN_POINTS + 4) + 8, name)
    terrain = None if terrain is None else Terrain(np.array(terrain.points, dtype=float))
    view = _optional(members, "view", ViewValue, VIEW_BYTES, 16, name)
    view = None if view is None else {"origin": [float(v) for v in view.origin], "zoom": float(view.zoom)}
    obstacles = _optional(members, "obstacles", OBSTACLES, OBSTACLES_BYTES, 2 * (4 * MAX_OBSTACLES + 1) + 8, name)
    obstacles = None if obstacles is None else _obstacle_rows(obstacles, name)
    if "chains" not in members:
        _fail(name, "", "missing field 'chains'")
    chains = _decoded(members.pop("chains"), _CHAINS, name, "chains")
    if len(chains) > MAX_CHAINS:
        _too_many_chains(name, len(chains))
    specs: list = []
    idents: list[tuple[int, str]] = []
    numbered: dict[int, int] = {}  # number -> the chain that has it
    for i in range(len(chains)):
        make, kw, ident = read_chain(chains[i], name, f"chains[{i}]")
        if ident[0] in numbered:
            _fail(name, f"chains[{i}].number", f"{ident[0]} is chains[{numbered[ident[0]]}]'s number too; "
                                               "each chain's number is its own")
        if ident[0]:
            numbered[ident[0]] = i
        specs.append((make, kw))
        idents.append(ident)
        chains[i] = None  # its bytes are no longer needed
    return Chains(specs, terrain, seed, view, idents, obstacles)


def _obstacle_rows(rows: list, name: str) -> np.ndarray:
    """The decoded ``obstacles`` as a (k, 3) array a scene may hold; a SceneFileError naming the row otherwise."""
    try:
        return checked_obstacles(np.array(rows, dtype=float).reshape(-1, 3))
    except ValueError as e:  # "obstacles[1]: the radius must be > 0 px, got -3"
        _fail(name, "", str(e))


def _optional(members: dict, key: str, kind, most_bytes: int, most_values: int, name: str) -> Any:
    """``members[key]`` decoded as ``kind`` (None when missing or null); one of over ``most_bytes`` bytes is first
    skimmed for holding at most ``most_values`` values."""
    raw = members.get(key)
    if raw is not None and len(raw) > most_bytes:
        _held(raw, most_values, name, key)
    return None if raw is None else _decoded(raw, kind | None, name, key)


def _whole(value: float, name: str, where: str) -> int:
    try:
        return whole(value, where)
    except Refused as e:
        _fail(name, *e.args)


def _built(name: str, where: str, make, *args, **kw):
    """``make(*args, **kw)``; a file must never crash the caller, even if checked values fail to build."""
    try:
        return make(*args, **kw)
    except (ValueError, TypeError, ArithmeticError, IndexError) as e:
        _fail(name, where, f"cannot be built ({type(e).__name__}: {e})")


def build_chains(specs: list[tuple], name: str) -> list:
    """The chains of ``specs`` in order (IK chains, snakes, ropes, path chains in batches), ``specs`` emptied as
    they are built."""
    chains: list = [None] * len(specs)
    for i, (make, kw) in enumerate(specs):  # walkers and rigs: a few
        if make is walker_build.make_walker or make is rig_build.make_rig:
            chains[i] = _built(name, f"chains[{i}]", make, **kw)
            specs[i] = (None, None)
    for make, batch in ((build.make_ik_chain, build.make_ik_chains), (build.make_snake, build.make_snakes),
                        (rope_build.make_rope, rope_build.make_ropes),
                        (path_build.make_path, path_build.make_paths)):
        members = [i for i, (m, _) in enumerate(specs) if m is make]
        kwargs = [specs[i][1] for i in members]
        for i in members:
            specs[i] = (None, None)
        for i, chain in zip(members, _built(name, "chains", batch, kwargs, consume=True) if members else ()):
            chains[i] = chain
    return chains
