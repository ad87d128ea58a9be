"""Scene files: format version 1 of docs/scene-format.md, read with full validation, written atomically.

JSON people can read and edit: positions in stage pixels, angles in degrees
(docs/scene-format.md describes every field). Loading either returns a
complete new :class:`Scene` or raises :class:`SceneFileError` whose message
starts with the file's name and names the place in it
(``scene.json: chains[2].lengths[1]: must be > 0 (got -5)``); it never
returns half a scene and never raises anything else. Saving writes a
temporary file beside the target, flushes and fsyncs it, then renames it over
the target, so a crash leaves either the old file or the new one, never a mix.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import secrets
import stat
from pathlib import Path

import numpy as np

from . import build
from .chain import MAX_BONES, SOLVERS, Chain
from .scene import MAX_CHAINS, Scene

FORMAT = "ikplayground-scene"
VERSION = 1
MAX_FILE_BYTES = 20 * 1024 * 1024  # 20 MB: larger files are refused before they are read
MAX_DEPTH = 32  # brackets nested deeper than this are refused before parsing
MAX_COORD = 1_000_000.0  # |position|, length and |angle| limit (pixels / degrees)
MAX_INT_DIGITS = 400  # longer integers are out of range whatever the field
_MB = 1024 * 1024


class SceneFileError(Exception):
    """A scene file that cannot be used; the message names the file and the place."""


# --- writing -------------------------------------------------------------------
def _r(x: float, nd: int = 3) -> float:
    return round(float(x), nd)


def _pos(x: float, nd: int = 3) -> float:
    """``x`` rounded like :func:`_r`, but a positive number never rounds to 0 (it must load again)."""
    r = _r(x, nd)
    return r if r > 0 or not float(x) > 0 else float(f"{float(x):.4g}")


def _deg(a) -> list[float]:
    return [_r(math.degrees(v), 4) for v in np.asarray(a).ravel()]


def chain_to_dict(c: Chain) -> dict:
    f = c.fields
    if c.is_snake:
        return {
            "solver": "snake",
            # unrounded: a snake's nodes must sit exactly one length apart and
            # inside the bend range, which rounding would break
            "points": [[float(x), float(y)] for x, y in f["points"]],
            "lengths": [float(v) for v in f["lengths"]],
            "heading": _r(math.degrees(f["heading"][0]), 4),
            "bend_limits": [math.degrees(v) for v in f["bend_limits"].tolist()],  # unrounded, as the points
            "max_speed": _r(f["max_speed"][0]),
            "turn_rate": _r(math.degrees(f["turn_rate"][0]), 4),
        }
    out = {
        "solver": c.kind,
        "root": [_r(v) for v in f["root"]],
        "lengths": [_pos(v) for v in f["lengths"]],
        "angles": _deg(f["angles"]),
        "target": [_r(v) for v in f["target"]],
        "rate_limit": None if c.rate_limit is None else _pos(c.rate_limit, 4),
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


def _save_error(e: OSError, what: str) -> OSError:
    """``e`` again (same errno, so the same OSError subclass) with a message that says what failed."""
    reason = e.strerror or str(e) or type(e).__name__
    message = f"{what} ({reason})"
    return OSError(e.errno, message) if e.errno is not None else OSError(message)


def _create_temp(folder: Path, name: str) -> tuple[Path, int]:
    """A new empty file beside the target, created exclusively (mode 0o666 less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            return tmp, os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "could not pick a temporary file name")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def save_scene(scene: Scene, path) -> None:
    """Write ``scene`` to ``path`` atomically (temporary file, fsync, rename).

    The temporary file is created in the target's folder, so the final
    ``os.replace`` is a rename within one file system: at every moment the
    target is either the old file or the complete new one. A target that is a
    symbolic link is written through (the file it points to is replaced); an
    existing file keeps its permission bits.

    Raises
    ------
    OSError
        When the folder is missing or cannot be written, a directory is in
        the way, or the disk fails; ``strerror`` says why in plain words. The
        file that was there (if any) is left byte for byte as it was, and no
        temporary file is left behind.
    """
    path = Path(path)
    data = (scene_to_text(scene) + "\n").encode("utf-8")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, f"a folder named {target.name or target} is in the way")
    folder = target.parent
    if not folder.exists():
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist")
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder")
    try:
        old_mode = stat.S_IMODE(target.stat().st_mode) if target.is_file() else None
    except OSError:
        old_mode = None
    try:
        tmp, fd = _create_temp(folder, target.name)
    except OSError as e:
        raise _save_error(e, f"cannot create a file in the folder {folder}") from e
    step = "cannot write the new file"
    try:
        try:
            _write_all(fd, data)
            step = "cannot flush the new file to disk"
            os.fsync(fd)
        finally:
            os.close(fd)
        if old_mode is not None:
            try:
                os.chmod(tmp, old_mode)
            except OSError:
                pass
        step = f"cannot replace {target.name} with the new file"
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            kept = f"{target.name} was not changed" if old_mode is not None else "nothing was saved"
            raise _save_error(e, f"{step}; {kept}") from e
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
class _BadNumber:
    """Stands in for a number JSON's parser saw but that is no finite float (NaN, 1e400, a 400-digit integer).

    The parser hooks return it instead of raising, so the checks can name the
    place of the number in the message.
    """

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def shown(self) -> str:
        t = self.text
        t = t if len(t) <= 24 else f"{t[:12]}... ({len(t)} characters)"
        return t if self.text in ("NaN", "Infinity", "-Infinity") else f"{t}, out of range"


class _Reader:
    """Checks one parsed document, raising errors that carry the path inside it."""

    def __init__(self, name: str):
        self.name = name

    def fail(self, where: str, message: str):
        raise SceneFileError(f"{self.name}: {where}: {message}" if where else f"{self.name}: {message}")

    def number(self, where, value, *, positive=False, lo=-MAX_COORD, hi=MAX_COORD) -> float:
        if isinstance(value, _BadNumber):
            self.fail(where, f"must be a finite number (got {value.shown()})")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"must be a number (got {_show(value)})")
        try:
            v = float(value)
        except OverflowError:
            v = math.copysign(math.inf, value)
        if not math.isfinite(v):
            self.fail(where, f"must be a finite number (got {_show(value)})")
        if positive and v <= 0:
            self.fail(where, f"must be > 0 (got {_show(value)})")
        if lo is not None and v < lo:
            self.fail(where, f"must be >= {_show(lo)} (got {_show(value)})")
        if hi is not None and v > hi:
            self.fail(where, f"must be <= {_show(hi)} (got {_show(value)})")
        return v

    def integer(self, where, value, lo, hi) -> int:
        if isinstance(value, _BadNumber):
            self.fail(where, f"must be between {lo} and {hi} (got {value.shown()})")
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                self.fail(where, f"must be a whole number (got {_show(value)})")
        if not lo <= value <= hi:
            self.fail(where, f"must be between {lo} and {hi} (got {_show(value)})")
        return value

    def array(self, where, value, count=None, *, min_count=0, max_count=None) -> list:
        if not isinstance(value, list):
            self.fail(where, f"must be a list (got {_show(value)})")
        if count is not None and len(value) != count:
            self.fail(where, f"must have {count} entries (got {len(value)})")
        if len(value) < min_count:
            self.fail(where, f"must have at least {min_count} {'entry' if min_count == 1 else 'entries'} (got {len(value)})")
        if max_count is not None and len(value) > max_count:
            self.fail(where, f"must have at most {max_count} entries (got {len(value)})")
        return value

    def numbers(self, where, value, count=None, *, min_count=0, max_count=None, **kw) -> list[float]:
        items = self.array(where, value, count, min_count=min_count, max_count=max_count)
        lo, hi, positive = kw.get("lo", -MAX_COORD), kw.get("hi", MAX_COORD), kw.get("positive", False)
        out = []
        for i, v in enumerate(items):
            t = type(v)  # fast path for plain numbers in range (NaN fails the comparisons)
            if (t is float or t is int) and lo <= v <= hi and (v > 0 or not positive):
                out.append(float(v))
            else:
                out.append(self.number(f"{where}[{i}]", v, **kw))
        return out

    def point(self, where, value) -> list[float]:
        return self.numbers(where, value, 2)

    def pair(self, where, value) -> tuple[float, float]:
        """A [lo, hi] pair of degrees inside [-180, 180] with lo <= hi."""
        lo, hi = self.numbers(where, value, 2, lo=-180.0, hi=180.0)
        if lo > hi:
            self.fail(where, f"lo must be <= hi (got [{_show(lo)}, {_show(hi)}])")
        return lo, hi

    def limits(self, where, value, count) -> np.ndarray:
        pairs = self.array(where, value, count)
        out = [tuple(map(math.radians, self.pair(f"{where}[{i}]", p))) for i, p in enumerate(pairs)]
        return np.array(out, dtype=float).reshape(count, 2)

    @staticmethod
    def optional(d: dict, key: str, default):
        """An optional field: missing and null both mean ``default``."""
        value = d.get(key)
        return default if value is None else value

    def require(self, where, d, keys):
        for k in keys:
            if k not in d:
                self.fail(where, f"missing field {k!r}")

    def chain(self, where: str, d) -> Chain:
        if not isinstance(d, dict):
            self.fail(where, f"must be an object (got {_show(d)})")
        if "solver" not in d:
            self.fail(where, f"missing field 'solver' (one of {', '.join(SOLVERS)})")
        kind = d["solver"]
        if not isinstance(kind, str) or kind not in SOLVERS:
            self.fail(f"{where}.solver", f"must be one of {', '.join(SOLVERS)} (got {_show(kind)})")
        if kind == "snake":
            return self.snake(where, d)
        self.require(where, d, ["root", "lengths", "angles", "target"])
        lengths = self.numbers(f"{where}.lengths", d["lengths"], 2 if kind == "two-bone" else None,
                               min_count=1, max_count=MAX_BONES, positive=True)
        n = len(lengths)
        angles = self.numbers(f"{where}.angles", d["angles"], n)
        root = self.point(f"{where}.root", d["root"])
        target = self.point(f"{where}.target", d["target"])
        rate = d.get("rate_limit", 3.0)  # here null means "off", not "default"
        if rate is not None:
            rate = self.number(f"{where}.rate_limit", rate, positive=True, hi=180.0)
        kw = {"rate_limit": rate}
        if kind == "two-bone":
            mirror = self.optional(d, "mirror", False)
            if not isinstance(mirror, bool):
                self.fail(f"{where}.mirror", f"must be true or false (got {_show(mirror)})")
            kw["mirror"] = mirror
        else:
            limits = d.get("limits")
            if limits is not None:
                kw["limits"] = self.limits(f"{where}.limits", limits, n)
            kw["iterations"] = self.integer(f"{where}.iterations", self.optional(d, "iterations", 10), 1, 1000)
            kw["tolerance"] = self.number(f"{where}.tolerance", self.optional(d, "tolerance", 0.5), lo=0.0, hi=1e6)
        return self.built(where, build.make_ik_chain, kind, root, np.radians(angles), lengths, target, **kw)

    def snake(self, where: str, d: dict) -> Chain:
        self.require(where, d, ["points"])
        pts = self.array(f"{where}.points", d["points"], min_count=2, max_count=MAX_BONES + 1)
        points = [self.point(f"{where}.points[{i}]", p) for i, p in enumerate(pts)]
        n = len(points) - 1
        lengths = d.get("lengths")
        if lengths is not None:
            lengths = self.numbers(f"{where}.lengths", lengths, n, positive=True)
        else:
            seg = np.hypot(*np.diff(np.array(points), axis=0).T)
            if np.any(seg <= 0):
                i = int(np.argmax(seg <= 0))
                self.fail(f"{where}.points[{i + 1}]",
                          f"coincides with points[{i}] and no lengths are given (got {_show(points[i + 1])})")
            if np.any(seg > MAX_COORD):  # the lengths it implies must be valid lengths
                i = int(np.argmax(seg > MAX_COORD))
                self.fail(f"{where}.points[{i + 1}]",
                          f"is {seg[i]:.0f} px from points[{i}]; a segment must be <= {MAX_COORD:.0f} px")
        heading = d.get("heading")
        if heading is not None:
            heading = math.radians(self.number(f"{where}.heading", heading))
        lo, hi = self.pair(f"{where}.bend_limits", self.optional(d, "bend_limits", [-30, 30]))
        max_speed = self.number(f"{where}.max_speed", self.optional(d, "max_speed", 10), lo=0.0, hi=1000.0)
        turn = self.number(f"{where}.turn_rate", self.optional(d, "turn_rate", 5), lo=0.0, hi=180.0)
        return self.built(where, build.make_snake, points, lengths=lengths, heading=heading,
                          bend_limits=(math.radians(lo), math.radians(hi)), max_speed=max_speed, turn_deg=turn)

    def built(self, where, make, *args, **kw) -> Chain:
        """``make(*args, **kw)``; checked values should always build, but a file must never crash the caller."""
        try:
            return make(*args, **kw)
        except (ValueError, TypeError, ArithmeticError, IndexError) as e:
            self.fail(where, f"cannot be built ({type(e).__name__}: {e})")

    def document(self, doc, bad_numbers: list[_BadNumber] = ()) -> list[Chain]:
        if not isinstance(doc, dict):
            self.fail("", f"must hold a JSON object (got {_show(doc)})")
        if "format" not in doc:
            self.fail("", f'not an ikplayground scene file (no "format": "{FORMAT}")')
        if doc["format"] != FORMAT:
            self.fail("format", f"must be {FORMAT!r} (got {_show(doc['format'])})")
        if "version" not in doc:
            self.fail("", "missing field 'version'")
        version = doc["version"]
        if isinstance(version, bool) or not isinstance(version, (int, float)) or version != VERSION:
            self.fail("version", f"must be {VERSION} (got {_show(version)}); this ikplayground reads version {VERSION}")
        if bad_numbers:  # JSON allows none of these: reject them wherever they are, unknown fields too
            found = _first_bad_number(doc)
            if found is None:  # only under a key that a later repeat of the key replaced
                self.fail("", f"{bad_numbers[0].shown()} is not a finite number (under a repeated key)")
            where, value = found
            self.fail(where, f"must be a finite number (got {value.shown()})")
        if "chains" not in doc:
            self.fail("", "missing field 'chains'")
        chains = self.array("chains", doc["chains"], max_count=MAX_CHAINS)
        return [self.chain(f"chains[{i}]", d) for i, d in enumerate(chains)]


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _first_bad_number(doc) -> tuple[str, _BadNumber] | None:
    """The place and value of the first :class:`_BadNumber` in ``doc`` (document order), if any.

    Runs only when the parser made one; the depth check keeps the recursion short.
    """

    def walk(value, where):
        if isinstance(value, _BadNumber):
            return where, value
        if isinstance(value, dict):
            for k, v in value.items():
                key = k if _NAME.match(k) else json.dumps(k)[:40]
                found = walk(v, f"{where}.{key}" if where else key)
                if found:
                    return found
        elif isinstance(value, list):
            for i, v in enumerate(value):
                found = walk(v, f"{where}[{i}]")
                if found:
                    return found
        return None

    return walk(doc, "")


def _show(value) -> str:
    if isinstance(value, _BadNumber):
        return value.shown()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**36:
        return f"{str(value)[:12]}...({len(str(abs(value)))} digits)"
    if isinstance(value, (list, tuple)) and len(value) <= 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        text = "[" + ", ".join(_show(v) for v in value) + "]"
    elif isinstance(value, (str, bool, type(None), int, float)):
        text = json.dumps(value)
    else:
        text = {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


# Byte classes for the nesting scan: 1 opens, 2 closes, 3 quote, 4 backslash.
_CLASS = np.zeros(256, dtype=np.int8)
_CLASS[[ord("["), ord("{")]] = 1
_CLASS[[ord("]"), ord("}")]] = 2
_CLASS[ord('"')] = 3
_CLASS[ord("\\")] = 4
_CHUNK = 1 << 22  # bytes scanned at a time (bounds the scan's memory)


def _too_deep(raw: bytes) -> int | None:
    """Byte offset of the first bracket nested deeper than MAX_DEPTH, or None.

    Brackets inside strings don't count. Vectorised (numpy), so a 20 MB file
    of brackets takes a fraction of a second, and a file with few brackets is
    not scanned at all. A backslash counts as an escape wherever it is; JSON
    allows one only inside strings and its parser stops at any other, so up to
    the point where the parser stops this scan agrees with it, and the parser
    never recurses deeper than MAX_DEPTH.
    """
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return None
    data = np.frombuffer(raw, dtype=np.uint8)
    depth, in_string, carry = 0, 0, 0  # carry: backslashes ending the previous chunk
    for start in range(0, data.size, _CHUNK):
        cls_all = _CLASS[data[start:start + _CHUNK]]
        size = cls_all.size
        # backslash runs: the length of the run each backslash ends
        bs = np.flatnonzero(cls_all == 4)
        if bs.size:
            new_run = np.ones(bs.size, dtype=bool)
            new_run[1:] = bs[1:] != bs[:-1] + 1
            first = np.maximum.accumulate(np.where(new_run, np.arange(bs.size), 0))
            run = np.arange(bs.size) - first + 1
            if bs[0] == 0:  # the first run goes on from the previous chunk
                run[first == 0] += carry
        # quotes: a quote after an odd run of backslashes is escaped
        idx = np.flatnonzero((cls_all == 1) | (cls_all == 2) | (cls_all == 3))
        cls = cls_all[idx]
        quote = cls == 3
        if quote.any():
            q = idx[quote]
            if bs.size:
                j = np.searchsorted(bs, q) - 1
                jj = np.maximum(j, 0)
                after = (j >= 0) & (bs[jj] == q - 1)
                odd = np.where(after, run[jj] % 2 == 1, (q == 0) & (carry % 2 == 1))
            else:
                odd = (q == 0) & (carry % 2 == 1)
            real = np.zeros(idx.size, dtype=np.int32)
            real[np.flatnonzero(quote)] = ~odd
            quotes_before = np.cumsum(real) - real
            outside = (in_string + quotes_before) % 2 == 0
            in_string = int((in_string + real.sum()) % 2)
        else:
            outside = np.full(idx.size, in_string == 0)
        step = np.where(cls == 1, 1, np.where(cls == 2, -1, 0)).astype(np.int32) * outside
        levels = depth + np.cumsum(step, dtype=np.int64)
        over = np.flatnonzero(levels > MAX_DEPTH)
        if over.size:
            return start + int(idx[over[0]])
        if levels.size:
            depth = int(levels[-1])
        if bs.size and bs[-1] == size - 1:
            carry = int(run[-1])
        else:
            carry = 0
    return None


_SUSPECT = re.compile(r"\d{100}|[eE][+-]?\d{3}")  # only such numbers can overflow a float


def _line_col(raw: bytes, offset: int) -> str:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", "replace")) + 1
    return f"line {line} column {column}"


def _parse_json(text: str, name: str):
    """``text`` parsed, and the numbers in it that are no finite float.

    Those become :class:`_BadNumber` in the document, so that the checks can
    name their place.
    """
    text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write: harmless
    if not text.strip():
        raise SceneFileError(f"{name}: the file is empty")
    raw = text.encode("utf-8", "surrogatepass")
    deep = _too_deep(raw)
    if deep is not None:
        raise SceneFileError(f"{name}: {_line_col(raw, deep)}: JSON nested more than {MAX_DEPTH} levels deep; "
                             "not a scene file")

    bad: list[_BadNumber] = []

    def bad_number(s: str) -> _BadNumber:
        bad.append(_BadNumber(s))
        return bad[-1]

    def parse_float(s: str):
        v = float(s)
        return v if math.isfinite(v) else bad_number(s)

    def parse_int(s: str):
        if len(s) > MAX_INT_DIGITS:  # before int(): it would hit Python's digit limit
            return bad_number(s)
        v = int(s)
        try:
            float(v)
        except OverflowError:
            return bad_number(s)
        return v

    # The hooks cost a Python call a number; skip them when no number can overflow.
    hooks = {"parse_float": parse_float, "parse_int": parse_int} if _SUSPECT.search(text) else {}
    try:
        return json.loads(text, parse_constant=bad_number, **hooks), bad
    except json.JSONDecodeError as e:
        raise SceneFileError(f"{name}: line {e.lineno} column {e.colno}: not valid JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # not expected after the checks above; never let one escape
        raise SceneFileError(f"{name}: not valid JSON ({type(e).__name__}: {e})") from None


def parse_scene(text: str, name: str = "scene", stage=(980.0, 720.0)) -> Scene:
    """Build a scene from the text of a scene file (see :func:`load_scene`)."""
    doc, bad_numbers = _parse_json(text, name)
    chains = _Reader(name).document(doc, bad_numbers)
    scene = Scene(stage)
    for i, c in enumerate(chains):
        c.colour = i % 8
        scene.add(c, select=False)
    scene._next_colour = len(chains) % 8
    scene.select(scene.chains[0] if scene.chains else None)
    return scene


def _size_text(size: int) -> str:
    return f"{size / _MB:.1f} MB ({size:,} bytes)"


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd`` (fewer at the end of the file)."""
    chunks, left = [], limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_file(path: Path, name: str) -> bytes:
    limit = f"the {MAX_FILE_BYTES // _MB} MB limit for scene files"
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)  # a FIFO must not block
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise SceneFileError(f"{name}: no such file") from None
    except OSError as e:
        if os.path.isdir(path):
            raise SceneFileError(f"{name}: is a directory, not a scene file") from None
        raise SceneFileError(f"{name}: cannot read it ({e.strerror or e})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SceneFileError(f"{name}: is a directory, not a scene file")
        if not stat.S_ISREG(info.st_mode):
            raise SceneFileError(f"{name}: is not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise SceneFileError(f"{name}: {_size_text(info.st_size)} is over {limit}")
        data = _read_at_most(fd, MAX_FILE_BYTES + 1)
    except OSError as e:
        raise SceneFileError(f"{name}: cannot read it ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:  # it grew after fstat
        raise SceneFileError(f"{name}: more than {MAX_FILE_BYTES:,} bytes is over {limit}")
    return data


def load_scene(path, stage=(980.0, 720.0)) -> Scene:
    """Read and validate a scene file.

    Raises
    ------
    SceneFileError
        For anything that makes the file unusable (missing, unreadable, too
        large, not JSON, nested too deep, not format version 1, a bad value);
        the message starts with the file's name and names the place. Nothing
        else is raised, whatever the file holds.
    """
    try:
        path = Path(path)
        name = path.name or str(path)
    except TypeError as e:
        raise SceneFileError(f"{path!r}: not a file name ({e})") from None
    try:
        data = _read_file(path, name)
    except ValueError as e:  # an embedded NUL byte in the name, say
        raise SceneFileError(f"{name}: cannot read it ({e})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SceneFileError(f"{name}: not UTF-8 text (bad byte at offset {e.start})") from None
    return parse_scene(text, name, stage)
