"""Checking a parsed scene document field by field, then building its chains.

:class:`Reader` walks the document in the order of docs/scene-format.md and
stops at the first problem with a message that names the file and the place
(``scene.json: chains[2].lengths[1]: must be > 0 (got -5)``); its checks of
single values (numbers, lists, pairs... each list of numbers in one numpy
pass) are :class:`~.file_values.ValueChecks`, which it extends. Chains are
built only once every chain has passed, in batches of one solver and bone
count (:mod:`~ikplayground.scene.build.build_batch`). With ``build_chains=False``
the reader only checks: the writer uses that to prove a file will load again
before it writes it.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.build import build, walker_build
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import MAX_BONES, SOLVERS
from ikplayground.scene.core.scene import MAX_CHAINS, MAX_SEED
from ikplayground.scene.core.settings import FILE_SETTINGS
from ikplayground.scene.files.file_format import FORMAT, MAX_COORD, MAX_SNAKE_COORD, VERSION
from ikplayground.scene.files.file_values import ValueChecks, show_value
from ikplayground.scene.files.group_check import check_chains
from ikplayground.scene.files.json_stream import Entries
from ikplayground.scene.files.strict_json import first_bad_number
from ikplayground.scene.step.terrain import MAX_TERRAIN_POINTS, Terrain

_CHECK_BATCH = 2048  # chains checked together by a grouped check (bounds its temporary arrays)


class Reader(ValueChecks):
    """Checks one parsed document, raising errors that carry the path inside it.

    Parameters
    ----------
    name : str
        How messages name the file (empty: the messages start with the place).
    """

    def __init__(self, name: str):
        super().__init__(name)
        self.found_terrain: Terrain | None = None  # the last document's terrain (None: the default)
        self.found_seed = 0  # the last document's seed

    # --- chains ------------------------------------------------------------------
    def chain(self, where: str, d) -> tuple:
        """Check one chain; returns what builds it: ``(make, args, kw)``."""
        if not isinstance(d, dict):
            self.fail(where, f"must be an object (got {show_value(d)})")
        if "solver" not in d:
            self.fail(where, f"missing field 'solver' (one of {', '.join(SOLVERS)})")
        solver = d["solver"]
        if not isinstance(solver, str) or solver not in SOLVERS:
            self.fail(f"{where}.solver", f"must be one of {', '.join(SOLVERS)} (got {show_value(solver)})")
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
        :data:`~ikplayground.scene.core.settings.FILE_SETTINGS`: keyword arguments of its constructor."""
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
                          f"coincides with points[{i}] and no lengths are given (got {show_value(points[i + 1].tolist())})")
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
            self.fail(f"{where}.facing", f"must be 1 or -1 (got {show_value(facing)})")
        return walker_build.make_walker, (), {"body": body, "lengths": lengths, "facing": float(facing), **kw}

    def terrain(self, doc: dict) -> Terrain | None:
        """The document's optional ``terrain`` (None when missing or null: the default one)."""
        t = doc.get("terrain")
        if t is None:
            return None
        if not isinstance(t, dict):
            self.fail("terrain", f"must be an object (got {show_value(t)})")
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
        (:func:`~ikplayground.scene.build.build.make_ik_chains`, :func:`~ikplayground.scene.build.build.make_snakes`).

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
            self.fail("", f"must hold a JSON object (got {show_value(doc)})")
        if "format" not in doc:
            self.fail("", f'not an ikplayground scene file (no "format": "{FORMAT}")')
        if doc["format"] != FORMAT:
            self.fail("format", f"must be {FORMAT!r} (got {show_value(doc['format'])})")
        if "version" not in doc:
            self.fail("", "missing field 'version'")
        version = doc["version"]
        if isinstance(version, bool) or not isinstance(version, (int, float)) or version != VERSION:
            self.fail("version", f"must be {VERSION} (got {show_value(version)}); this ikplayground reads version {VERSION}")
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
        :class:`~ikplayground.scene.files.json_stream.Entries`: each chain is then
        parsed only when it is checked (:class:`~ikplayground.scene.files.json_stream.Broken`
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
        (:func:`~ikplayground.scene.files.group_check.check_chains`), any in doubt one field at a time."""
        for d, spec in zip(batch, check_chains(batch)):
            specs.append(spec if spec is not None else self.chain(f"chains[{len(specs)}]", d))
