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

import math
import re
from typing import Any, NoReturn

import msgspec
import numpy as np

from ikplayground.scene.build import build, walker_build
from ikplayground.scene.core.chain import checked_name
from ikplayground.scene.core.constants import MAX_COORD
from ikplayground.scene.core.scene import MAX_CHAINS
from ikplayground.scene.files import json_scan, strict_json
from ikplayground.scene.files.file_errors import SceneFileError, show_value
from ikplayground.scene.files.file_fields import Refused, whole
from ikplayground.scene.files.file_format import BUDGETS, CHAIN_BOUNDS, FORMAT, MAX_CHAIN_BYTES, TERRAIN_BYTES, VERSION
from ikplayground.scene.files.file_messages import PARSED_MOST, Unread, described, value_at
from ikplayground.scene.files.file_schema import SEED, SETTING_KEYS, TerrainValue, chain_union
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
    ``(number or 0, name or "")``), ``terrain`` and ``seed``."""

    def __init__(self, specs: list, terrain: Terrain | None, seed: int, idents: list | None = None):
        self.specs, self.terrain, self.seed = specs, terrain, seed
        self.idents = idents if idents is not None else [(0, "")] * len(specs)


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


def _held(raw, most: int, name: str, where: str) -> None:
    """Refuse ``raw`` (longer than the writer writes) for holding more than ``most`` values, counted unbuilt."""
    values = json_scan.scan(bytes(raw)).values
    if values > most:
        _fail(name, where, f"{values:,} values are more than it may hold ({most:,}); not a scene file")


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


def check_header(doc: dict, name: str) -> None:
    """Refuse a document whose ``format`` or ``version`` (values, or their bytes) is not this one's."""
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
    if isinstance(version, bool) or not isinstance(version, (int, float)) or version != VERSION:
        _fail(name, "version",
              f"must be {VERSION} (got {show_value(version)}); this ikplayground reads version {VERSION}")


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
    terrain: Any = members.get("terrain")  # its bytes, then its value, then the Terrain
    if terrain is not None:
        if len(terrain) > TERRAIN_BYTES:
            _held(terrain, 2 * (3 * MAX_TERRAIN_POINTS + 4) + 8, name, "terrain")
        terrain = _decoded(terrain, TerrainValue | None, name, "terrain")
        terrain = None if terrain is None else Terrain(np.array(terrain.points, dtype=float))
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
    return Chains(specs, terrain, seed, idents)


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
    """The chains of ``specs`` in order (IK chains and snakes in batches), ``specs`` emptied as they are built."""
    chains: list = [None] * len(specs)
    for i, (make, kw) in enumerate(specs):  # walkers: a few
        if make is walker_build.make_walker:
            chains[i] = _built(name, f"chains[{i}]", make, **kw)
            specs[i] = (None, None)
    for make, batch in ((build.make_ik_chain, build.make_ik_chains), (build.make_snake, build.make_snakes)):
        members = [i for i, (m, _) in enumerate(specs) if m is make]
        kwargs = [specs[i][1] for i in members]
        for i in members:
            specs[i] = (None, None)
        for i, chain in zip(members, _built(name, "chains", batch, kwargs, consume=True) if members else ()):
            chains[i] = chain
    return chains
