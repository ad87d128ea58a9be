"""Scene files: format version 1 of DESIGN.md, read with full validation, written atomically.

JSON people can read and edit: positions in stage pixels, angles in degrees.
Loading either returns a complete new :class:`Scene` or raises
:class:`SceneFileError` whose message names the file and the place in it
(``scene.json: chains[2].lengths[1]: must be > 0 (got -5)``); it never
returns half a scene. Saving writes a temporary file beside the target,
flushes and fsyncs it, then renames it over the target, so a crash leaves
either the old file or the new one, never a mix.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from pathlib import Path

import numpy as np

from . import build
from .chain import MAX_BONES, SOLVERS, Chain
from .scene import MAX_CHAINS, Scene

FORMAT = "ikplayground-scene"
VERSION = 1
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 32


class SceneFileError(Exception):
    """A scene file that cannot be used; the message names the file and the place."""


# --- writing -------------------------------------------------------------------
def _r(x: float, nd: int = 3) -> float:
    return round(float(x), nd)


def _deg(a) -> list[float]:
    return [_r(math.degrees(v), 4) for v in np.asarray(a).ravel()]


def chain_to_dict(c: Chain) -> dict:
    f = c.fields
    if c.is_snake:
        return {
            "solver": "snake",
            "points": [[_r(x), _r(y)] for x, y in f["points"]],
            "lengths": [_r(v) for v in f["lengths"]],
            "heading": _r(math.degrees(f["heading"][0]), 4),
            "bend_limits": _deg(f["bend_limits"]),
            "max_speed": _r(f["max_speed"][0]),
            "turn_rate": _r(math.degrees(f["turn_rate"][0]), 4),
        }
    out = {
        "solver": c.kind,
        "root": [_r(v) for v in f["root"]],
        "lengths": [_r(v) for v in f["lengths"]],
        "angles": _deg(f["angles"]),
        "target": [_r(v) for v in f["target"]],
        "rate_limit": None if c.rate_limit is None else _r(c.rate_limit, 4),
    }
    if c.kind == "two-bone":
        out["mirror"] = c.mirror
    else:
        out["limits"] = [_deg(pair) for pair in f["limits"]]
        out["iterations"] = c.iterations
        out["tolerance"] = _r(c.tolerance, 4)
    return out


def scene_to_dict(scene: Scene) -> dict:
    return {"format": FORMAT, "version": VERSION, "chains": [chain_to_dict(c) for c in scene.chains]}


def scene_to_text(scene: Scene) -> str:
    """The file's text: the header, then one chain a line (readable, diff-friendly)."""
    doc = scene_to_dict(scene)
    lines = [json.dumps(c, allow_nan=False) for c in doc["chains"]]
    body = ",\n  ".join(lines)
    head = f'{{"format": "{FORMAT}", "version": {VERSION},\n "chains": ['
    return head + ("\n  " + body + "\n ]}" if lines else "]}")


def save_scene(scene: Scene, path) -> None:
    """Write ``scene`` to ``path`` atomically (temporary file, fsync, rename).

    Raises
    ------
    OSError
        When the folder cannot be written or a directory is in the way; the
        file that was there (if any) is left as it was.
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path.name}: is a directory")
    text = scene_to_text(scene)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


# --- reading -------------------------------------------------------------------
class _Reader:
    """Checks one parsed document, raising errors that carry the path inside it."""

    def __init__(self, name: str):
        self.name = name

    def fail(self, where: str, message: str):
        raise SceneFileError(f"{self.name}: {where}: {message}" if where else f"{self.name}: {message}")

    def number(self, where, value, *, positive=False, lo=None, hi=None) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"must be a number (got {_show(value)})")
        v = float(value)
        if not math.isfinite(v):
            self.fail(where, f"must be finite (got {_show(value)})")
        if positive and v <= 0:
            self.fail(where, f"must be > 0 (got {_show(value)})")
        if lo is not None and v < lo:
            self.fail(where, f"must be >= {_show(lo)} (got {_show(value)})")
        if hi is not None and v > hi:
            self.fail(where, f"must be <= {_show(hi)} (got {_show(value)})")
        return v

    def integer(self, where, value, lo, hi) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                self.fail(where, f"must be a whole number (got {_show(value)})")
        if not lo <= value <= hi:
            self.fail(where, f"must be between {lo} and {hi} (got {value})")
        return value

    def array(self, where, value, count=None, *, min_count=0, max_count=None) -> list:
        if not isinstance(value, list):
            self.fail(where, f"must be a list (got {_show(value)})")
        if count is not None and len(value) != count:
            self.fail(where, f"must have {count} entries (got {len(value)})")
        if len(value) < min_count:
            self.fail(where, f"must have at least {min_count} entries (got {len(value)})")
        if max_count is not None and len(value) > max_count:
            self.fail(where, f"must have at most {max_count} entries (got {len(value)})")
        return value

    def numbers(self, where, value, count=None, **kw) -> list[float]:
        items = self.array(where, value, count, **{k: kw.pop(k) for k in ("min_count", "max_count") if k in kw})
        return [self.number(f"{where}[{i}]", v, **kw) for i, v in enumerate(items)]

    def point(self, where, value) -> list[float]:
        return self.numbers(where, value, 2)

    def limits(self, where, value, count) -> np.ndarray:
        pairs = self.array(where, value, count)
        out = []
        for i, pair in enumerate(pairs):
            lo, hi = self.numbers(f"{where}[{i}]", pair, 2, lo=-180.0, hi=180.0)
            if lo > hi:
                self.fail(f"{where}[{i}]", f"lo must be <= hi (got [{_show(lo)}, {_show(hi)}])")
            out.append((math.radians(lo), math.radians(hi)))
        return np.array(out).reshape(count, 2)

    def chain(self, where: str, d) -> Chain:
        if not isinstance(d, dict):
            self.fail(where, f"must be an object (got {_show(d)})")
        kind = d.get("solver")
        if kind not in SOLVERS:
            self.fail(f"{where}.solver", f"must be one of {', '.join(SOLVERS)} (got {_show(kind)})")
        if kind == "snake":
            return self.snake(where, d)
        need = ["root", "lengths", "angles", "target"]
        self.require(where, d, need)
        count = 2 if kind == "two-bone" else None
        lengths = self.numbers(f"{where}.lengths", d["lengths"], count, positive=True, min_count=1, max_count=MAX_BONES)
        n = len(lengths)
        if kind == "two-bone" and n != 2:
            self.fail(f"{where}.lengths", f"a two-bone chain has exactly 2 bones (got {n})")
        angles = self.numbers(f"{where}.angles", d["angles"], n)
        root = self.point(f"{where}.root", d["root"])
        target = self.point(f"{where}.target", d["target"])
        rate = d.get("rate_limit", 3.0)
        if rate is not None:
            rate = self.number(f"{where}.rate_limit", rate, positive=True, hi=180.0)
        kw = {"rate_limit": rate}
        if kind == "two-bone":
            mirror = d.get("mirror", False)
            if not isinstance(mirror, bool):
                self.fail(f"{where}.mirror", f"must be true or false (got {_show(mirror)})")
            kw["mirror"] = mirror
        else:
            if "limits" in d and d["limits"] is not None:
                kw["limits"] = self.limits(f"{where}.limits", d["limits"], n)
            kw["iterations"] = self.integer(f"{where}.iterations", d.get("iterations", 10), 1, 1000)
            kw["tolerance"] = self.number(f"{where}.tolerance", d.get("tolerance", 0.5), lo=0.0, hi=1e6)
        return build.make_ik_chain(kind, root, np.radians(angles), lengths, target, **kw)

    def snake(self, where: str, d: dict) -> Chain:
        self.require(where, d, ["points"])
        pts = self.array(f"{where}.points", d["points"], min_count=2, max_count=MAX_BONES + 1)
        points = [self.point(f"{where}.points[{i}]", p) for i, p in enumerate(pts)]
        n = len(points) - 1
        lengths = None
        if "lengths" in d:
            lengths = self.numbers(f"{where}.lengths", d["lengths"], n, positive=True)
        else:
            seg = np.linalg.norm(np.diff(np.array(points), axis=0), axis=1)
            if np.any(seg <= 0):
                self.fail(f"{where}.points", "two neighbouring points coincide and no lengths are given")
        heading = d.get("heading")
        if heading is not None:
            heading = math.radians(self.number(f"{where}.heading", heading))
        lo, hi = self.numbers(f"{where}.bend_limits", d.get("bend_limits", [-30, 30]), 2, lo=-180.0, hi=180.0)
        if lo > hi:
            self.fail(f"{where}.bend_limits", f"lo must be <= hi (got [{_show(lo)}, {_show(hi)}])")
        max_speed = self.number(f"{where}.max_speed", d.get("max_speed", 10), lo=0.0, hi=1000.0)
        turn = self.number(f"{where}.turn_rate", d.get("turn_rate", 5), lo=0.0, hi=180.0)
        return build.make_snake(points, lengths=lengths, heading=heading, bend_limits=(math.radians(lo), math.radians(hi)),
                                max_speed=max_speed, turn_deg=turn)

    def require(self, where, d, keys):
        for k in keys:
            if k not in d:
                self.fail(where, f"missing field {k!r}")

    def document(self, doc) -> list[Chain]:
        if not isinstance(doc, dict):
            self.fail("", f"must hold a JSON object (got {_show(doc)})")
        if doc.get("format") != FORMAT:
            self.fail("format", f"must be {FORMAT!r} (got {_show(doc.get('format'))})")
        version = doc.get("version")
        if isinstance(version, bool) or version != VERSION:
            self.fail("version", f"must be {VERSION} (got {_show(version)}); this ikplayground reads version {VERSION}")
        chains = self.array("chains", doc.get("chains"), max_count=MAX_CHAINS)
        return [self.chain(f"chains[{i}]", d) for i, d in enumerate(chains)]


def _show(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    text = json.dumps(value) if isinstance(value, (str, bool, type(None), int, float)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text[:20]}")
    return value


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _depth_ok(text: str) -> bool:
    """False when brackets nest deeper than MAX_DEPTH (brackets inside strings don't count)."""
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        else:
            depth -= 1
    return True


def parse_scene(text: str, name: str = "scene", stage=(980.0, 720.0)) -> Scene:
    """Build a scene from the text of a scene file (see :func:`load_scene`)."""
    if not _depth_ok(text):
        raise SceneFileError(f"{name}: JSON nested more than {MAX_DEPTH} levels deep; not a scene file")
    try:
        doc = json.loads(text, parse_float=_finite_float, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise SceneFileError(f"{name}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise SceneFileError(f"{name}: {e}") from None
    chains = _Reader(name).document(doc)
    scene = Scene(stage)
    for i, c in enumerate(chains):
        c.colour = i % 8
        scene.add(c, select=False)
    scene._next_colour = len(chains) % 8
    scene.select(scene.chains[0] if scene.chains else None)
    return scene


def load_scene(path, stage=(980.0, 720.0)) -> Scene:
    """Read and validate a scene file.

    Raises
    ------
    SceneFileError
        For anything that makes the file unusable (missing, unreadable, too
        large, not JSON, not format version 1, a bad value); the message
        names the file and the place.
    """
    path = Path(path)
    name = path.name
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise SceneFileError(f"{name}: is a directory, not a scene file")
        if size > MAX_FILE_BYTES:
            raise SceneFileError(f"{name}: {size / 1e6:.1f} MB is over the {MAX_FILE_BYTES // (1024 * 1024)} MB limit for scene files")
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except SceneFileError:
        raise
    except FileNotFoundError:
        raise SceneFileError(f"{name}: no such file") from None
    except OSError as e:
        raise SceneFileError(f"{name}: cannot read it ({e.strerror or e})") from None
    if len(data) > MAX_FILE_BYTES:
        raise SceneFileError(f"{name}: over the {MAX_FILE_BYTES // (1024 * 1024)} MB limit for scene files")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SceneFileError(f"{name}: not UTF-8 text (bad byte at offset {e.start})") from None
    return parse_scene(text, name, stage)
