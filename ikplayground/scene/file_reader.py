"""Checking a parsed scene document field by field, then building its chains.

:class:`Reader` walks the document in the order of docs/scene-format.md and
stops at the first problem with a message that names the file and the place
(``scene.json: chains[2].lengths[1]: must be > 0 (got -5)``). A list of
numbers is checked with one numpy pass; only when that pass finds a problem
are its items looked at one by one, to name the first bad one. Chains are
built only once every chain has passed, in batches of one solver and bone
count (:mod:`~ikplayground.scene.build_batch`). With ``build_chains=False``
the reader only checks: the writer uses that to prove a file will load again
before it writes it.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np

from . import build, walker_build
from .chain import MAX_BONES, SOLVERS, Chain
from .file_errors import SceneFileError
from .file_format import FORMAT, MAX_COORD, MAX_SNAKE_COORD, VERSION
from .group_check import check_chains
from .json_stream import Entries
from .scene import MAX_CHAINS, MAX_SEED
from .settings import FILE_SETTINGS
from .terrain import MAX_TERRAIN_POINTS, Terrain
from .strict_json import BadNumber, first_bad_number

_NUMBER_TYPES = {float, int}
_CHECK_BATCH = 2048  # chains checked together by a grouped check (bounds its temporary arrays)


def _show(value) -> str:
    """``value`` as messages show it: short, one line."""
    if hasattr(value, "shown"):  # a BadNumber, or a value too long to parse
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


def _plain_numbers(items: list) -> np.ndarray | None:
    """``items`` as floats when every one is a plain int or float that a float holds, else None."""
    if not set(map(type, items)) <= _NUMBER_TYPES:
        return None
    try:
        return np.array(items, dtype=float)
    except OverflowError:
        return None


class Reader:
    """Checks one parsed document, raising errors that carry the path inside it.

    Parameters
    ----------
    name : str
        How messages name the file (empty: the messages start with the place).
    """

    def __init__(self, name: str):
        self.name = name
        self.found_terrain: Terrain | None = None  # the last document's terrain (None: the default)
        self.found_seed = 0  # the last document's seed

    def fail(self, where: str, message: str):
        text = f"{where}: {message}" if where else message
        raise SceneFileError(f"{self.name}: {text}" if self.name else text)

    # --- values ------------------------------------------------------------------
    def number(self, where, value, *, positive=False, lo=-MAX_COORD, hi=MAX_COORD) -> float:
        if isinstance(value, BadNumber):
            self.fail(where, f"must be a finite number (got {value.shown()})")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"must be a number (got {_show(value)})")
        try:
            v = float(value)
        except OverflowError:
            v = math.inf if value > 0 else -math.inf  # copysign would overflow too
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
        if isinstance(value, BadNumber):
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

    def numbers(self, where, value, count=None, *, min_count=0, max_count=None, positive=False,
                lo=-MAX_COORD, hi=MAX_COORD) -> np.ndarray:
        """A list of numbers in ``[lo, hi]`` (and > 0 if ``positive``), as floats."""
        items = self.array(where, value, count, min_count=min_count, max_count=max_count)
        out = _plain_numbers(items)
        if out is not None:
            ok = (out >= lo) & (out <= hi)
            if positive:
                ok &= out > 0
            if ok.all():
                return out
        for i, v in enumerate(items):  # name the first bad one
            self.number(f"{where}[{i}]", v, positive=positive, lo=lo, hi=hi)
        raise AssertionError("unreachable: a number failed the fast check only")  # pragma: no cover

    def point(self, where, value) -> np.ndarray:
        return self.numbers(where, value, 2)

    def pairs(self, where, value, count=None, *, min_count=0, max_count=None, lo=-MAX_COORD, hi=MAX_COORD,
              ordered=False) -> np.ndarray:
        """A list of ``[a, b]`` pairs of numbers in ``[lo, hi]`` (with ``a <= b`` if ``ordered``), shape (n, 2)."""
        items = self.array(where, value, count, min_count=min_count, max_count=max_count)
        if set(map(type, items)) <= {list} and set(map(len, items)) <= {2}:
            out = _plain_numbers(list(itertools.chain.from_iterable(items)))
            if out is not None:
                out = out.reshape(len(items), 2)
                ok = (out >= lo) & (out <= hi)
                if ok.all() and (not ordered or np.all(out[:, 0] <= out[:, 1])):
                    return out
        for i, p in enumerate(items):  # name the first bad one
            if ordered:
                self.pair(f"{where}[{i}]", p)
            else:
                self.numbers(f"{where}[{i}]", p, 2, lo=lo, hi=hi)
        raise AssertionError("unreachable: a pair failed the fast check only")  # pragma: no cover

    def pair(self, where, value) -> tuple[float, float]:
        """A [lo, hi] pair of degrees inside [-180, 180] with lo <= hi."""
        lo, hi = self.numbers(where, value, 2, lo=-180.0, hi=180.0).tolist()
        if lo > hi:
            self.fail(where, f"lo must be <= hi (got [{_show(lo)}, {_show(hi)}])")
        return lo, hi

    @staticmethod
    def optional(d: dict, key: str, default):
        """An optional field: missing and null both mean ``default``."""
        value = d.get(key)
        return default if value is None else value

    def flag(self, where, value) -> bool:
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false (got {_show(value)})")
        return value

    def require(self, where, d, keys):
        for k in keys:
            if k not in d:
                self.fail(where, f"missing field {k!r}")

    # --- chains ------------------------------------------------------------------
    def chain(self, where: str, d) -> tuple:
        """Check one chain; returns what builds it: ``(make, args, kw)``."""
        if not isinstance(d, dict):
            self.fail(where, f"must be an object (got {_show(d)})")
        if "solver" not in d:
            self.fail(where, f"missing field 'solver' (one of {', '.join(SOLVERS)})")
        solver = d["solver"]
        if not isinstance(solver, str) or solver not in SOLVERS:
            self.fail(f"{where}.solver", f"must be one of {', '.join(SOLVERS)} (got {_show(solver)})")
        if solver == "snake":
            return self.snake(where, d)
        if solver == "walker":
            return self.walker(where, d)
        self.require(where, d, ["root", "lengths", "angles", "target"])
        lengths = self.numbers(f"{where}.lengths", d["lengths"], 2 if solver == "two-bone" else None,
                               min_count=1, max_count=MAX_BONES, positive=True)
        n = len(lengths)
        angles = self.numbers(f"{where}.angles", d["angles"], n)
        root = self.point(f"{where}.root", d["root"])
        target = self.point(f"{where}.target", d["target"])
        args = (solver, root, np.radians(angles), lengths, target)
        return build.make_ik_chain, args, self.settings(where, d, solver, n)

    def settings(self, where: str, d: dict, solver: str, n: int) -> dict:
        """The fields of the settings of a chain of solver ``solver`` and ``n`` bones, in the order of
        :data:`~ikplayground.scene.settings.FILE_SETTINGS`: keyword arguments of its constructor."""
        kw: dict = {}
        for setting in FILE_SETTINGS[solver]:
            kw.update(setting.file.read(setting, self, where, d, n))
        return kw

    def snake(self, where: str, d: dict) -> tuple:
        self.require(where, d, ["points"])
        points = self.pairs(f"{where}.points", d["points"], min_count=2, max_count=MAX_BONES + 1,
                            lo=-MAX_SNAKE_COORD, hi=MAX_SNAKE_COORD)
        n = len(points) - 1
        lengths = d.get("lengths")
        if lengths is not None:
            lengths = self.numbers(f"{where}.lengths", lengths, n, positive=True)
        else:
            seg = np.hypot(*np.diff(points, axis=0).T)
            if np.any(seg <= 0):
                i = int(np.argmax(seg <= 0))
                self.fail(f"{where}.points[{i + 1}]",
                          f"coincides with points[{i}] and no lengths are given (got {_show(points[i + 1].tolist())})")
            if np.any(seg > MAX_COORD):  # the lengths it implies must be valid lengths
                i = int(np.argmax(seg > MAX_COORD))
                self.fail(f"{where}.points[{i + 1}]",
                          f"is {seg[i]:.0f} px from points[{i}]; a segment must be <= {MAX_COORD:.0f} px")
        heading = d.get("heading")
        if heading is not None:
            heading = math.radians(self.number(f"{where}.heading", heading))
        return build.make_snake, (), {"points": points, "lengths": lengths, "heading": heading,
                                      **self.settings(where, d, "snake", n)}

    def walker(self, where: str, d: dict) -> tuple:
        self.require(where, d, ["body", "lengths"])
        body = self.point(f"{where}.body", d["body"])
        kw = self.settings(where, d, "walker", 0)
        lengths = self.numbers(f"{where}.lengths", d["lengths"], kw["leg_bones"], positive=True)
        facing = self.optional(d, "facing", 1)
        if isinstance(facing, bool) or facing not in (1, -1):
            self.fail(f"{where}.facing", f"must be 1 or -1 (got {_show(facing)})")
        return walker_build.make_walker, (), {"body": body, "lengths": lengths, "facing": float(facing), **kw}

    def terrain(self, doc: dict) -> Terrain | None:
        """The document's optional ``terrain`` (None when missing or null: the default one)."""
        t = doc.get("terrain")
        if t is None:
            return None
        if not isinstance(t, dict):
            self.fail("terrain", f"must be an object (got {_show(t)})")
        self.require("terrain", t, ["points"])
        points = self.pairs("terrain.points", t["points"], min_count=2, max_count=MAX_TERRAIN_POINTS)
        return Terrain(points)

    def built(self, where, make, *args, **kw) -> Chain:
        """``make(*args, **kw)``; checked values should always build, but a file must never crash the caller."""
        try:
            return make(*args, **kw)
        except (ValueError, TypeError, ArithmeticError, IndexError) as e:
            self.fail(where, f"cannot be built ({type(e).__name__}: {e})")

    def build_all(self, specs: list[tuple]) -> list[Chain]:
        """The chains of checked ``specs`` (from :meth:`chain`) in order, built in batches
        (:func:`~ikplayground.scene.build.make_ik_chains`, :func:`~ikplayground.scene.build.make_snakes`).

        ``specs`` is emptied as the chains are built (what is built no longer needs its spec).
        """
        chains: list[Chain | None] = [None] * len(specs)
        for i, (make, _, kw) in enumerate(specs):  # walkers: a few, built one by one
            if make is walker_build.make_walker:
                chains[i] = self.built(f"chains[{i}]", make, **kw)
                specs[i] = (None, (), {})
        for make, batch in ((build.make_ik_chain, build.make_ik_chains), (build.make_snake, build.make_snakes)):
            members = [i for i, (m, _, _) in enumerate(specs) if m is make]
            if not members:
                continue
            kwargs = []
            for i in members:
                _, args, kw = specs[i]
                if args:  # make_ik_chain's positional arguments, by name
                    kw = dict(zip(("solver", "root", "angles", "lengths", "target"), args), **kw)
                kwargs.append(kw)
                specs[i] = (None, (), {})
            for i, chain in zip(members, self.built("chains", batch, kwargs, consume=True)):
                chains[i] = chain
        return chains

    # --- the document --------------------------------------------------------------
    def header(self, doc, bad_numbers=()) -> None:
        """Check what comes before the chains: an object, the format, the version, finite numbers."""
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
            found = first_bad_number(doc)
            if found is None:  # only under a key that a later repeat of the key replaced
                self.fail("", f"{bad_numbers[0].shown()} is not a finite number (under a repeated key)")
            where, value = found
            self.fail(where, f"must be a finite number (got {value.shown()})")

    def too_many_chains(self, count: int) -> None:
        self.fail("chains", f"must have at most {MAX_CHAINS} entries (got {count})")

    def document(self, doc, bad_numbers=(), *, build_chains=True, consume=False,
                 grouped=False) -> list[Chain] | None:
        """The chains of a parsed document, every field checked; with ``build_chains=False`` only the checks.

        With ``grouped``, the chains are checked a group at a time
        (:meth:`checked`; the same outcome and messages, and a fraction of the
        time when the whole document is already in memory, as when the
        writer checks a scene). A load, which parses and checks a chain at a
        time while it is in the cache, gains nothing from it and does not use it.

        With ``consume``, each chain's entry in ``doc["chains"]`` is dropped
        (set to None) once it is checked, so that a large document's memory
        goes as its chains are built. ``doc["chains"]`` may be
        :class:`~ikplayground.scene.json_stream.Entries`: each chain is then
        parsed only when it is checked (:class:`~ikplayground.scene.json_stream.Broken`
        if it does not parse).
        """
        self.header(doc, bad_numbers)
        self.found_seed = self.integer("seed", self.optional(doc, "seed", 0), 0, MAX_SEED)
        self.found_terrain = self.terrain(doc)
        if "chains" not in doc:
            self.fail("", "missing field 'chains'")
        chains = doc["chains"]  # a list, or Entries parsed as they are read
        if not isinstance(chains, Entries):
            self.array("chains", chains)
        if len(chains) > MAX_CHAINS:
            self.too_many_chains(len(chains))
        specs: list[tuple] = []
        if grouped and not isinstance(chains, Entries):
            for start in range(0, len(chains), _CHECK_BATCH):
                self.checked(specs, chains[start:start + _CHECK_BATCH])
        else:
            for i, d in enumerate(chains):
                specs.append(self.chain(f"chains[{i}]", d))
                if consume and not isinstance(chains, Entries):
                    chains[i] = None
        return self.build_all(specs) if build_chains else None

    def checked(self, specs: list[tuple], batch: list) -> None:
        """Append the specs of the chains of ``batch`` (those after ``specs``) to ``specs``: all checked at once
        (:func:`~ikplayground.scene.group_check.check_chains`), any in doubt one field at a time."""
        for d, spec in zip(batch, check_chains(batch)):
            specs.append(spec if spec is not None else self.chain(f"chains[{len(specs)}]", d))
