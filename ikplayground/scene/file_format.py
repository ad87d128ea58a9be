"""The scene file format, version 1 (docs/scene-format.md): chains to JSON text, and the format's bounds.

Writing turns each chain into a dict of plain numbers (positions in stage
pixels, angles in degrees, rounded as the documentation says) and the scene
into one chain a line. The bounds are derived from the writer: the widest
chain it can write (64 bones, every number as long as the loader accepts)
times ``MAX_CHAINS`` gives ``MAX_FILE_BYTES``, so every scene the app can
hold saves to a file the loader accepts; the most lists, objects, values and
strings a chain can need give the budgets the loader holds a file's raw text
to before it parses it (:mod:`ikplayground.scene.strict_json`).
"""

from __future__ import annotations

import json
import math

import numpy as np

from . import build
from .chain import MAX_BONES, SOLVERS, Chain
from .scene import MAX_CHAINS, Scene

FORMAT = "ikplayground-scene"
VERSION = 1
MAX_COORD = 1_000_000.0  # |position|, length and |angle| limit (pixels / degrees)
# |snake point|: a body trails up to MAX_BONES segments of MAX_COORD behind a head within MAX_COORD
MAX_SNAKE_COORD = MAX_COORD * (MAX_BONES + 1)
HEAD = f'{{"format": "{FORMAT}", "version": {VERSION},\n "chains": ['
CHAIN_SEPARATOR = ",\n  "
_MB = 1024 * 1024


# --- writing -------------------------------------------------------------------
def _r(x: float, nd: int = 3) -> float:
    return round(float(x), nd)


def _pos(x: float, nd: int = 3) -> float:
    """``x`` rounded like :func:`_r`, but a positive number never rounds to 0 (it must load again)."""
    r = _r(x, nd)
    return r if r > 0 or not float(x) > 0 else float(f"{float(x):.4g}")


def _rounded(a, nd: int = 3) -> list:
    """The numbers of ``a`` rounded to ``nd`` decimals, as (nested) lists of floats.

    One numpy call for the whole array (a scene of 20,000 chains of 64 bones
    saves in seconds, not tens of seconds). A rounded number is the double
    nearest a decimal of at most ``nd`` places, so it is written that short.
    """
    a = np.asarray(a, dtype=float)
    return np.where(np.abs(a) < 1e15, np.round(a, nd), a).tolist()  # larger: nothing to round (and no overflow)


def _positive(a, nd: int = 3) -> list:
    """:func:`_rounded`, but a positive number never rounds to 0 (like :func:`_pos`)."""
    a = np.asarray(a, dtype=float)
    out = np.where(np.abs(a) < 1e15, np.round(a, nd), a)
    lost = (out <= 0) & (a > 0)
    if lost.any():
        out[lost] = [float(f"{x:.4g}") for x in a[lost].tolist()]
    return out.tolist()


def _deg(a) -> list:
    return _rounded(np.degrees(a), 4)


def chain_to_dict(c: Chain) -> dict:
    """The chain as the file holds it: plain numbers, degrees, every field of its kind."""
    return chains_to_dicts([c])[0]


def chains_to_dicts(chains: list[Chain]) -> list[dict]:
    """:func:`chain_to_dict` of each chain, in order, with one numpy pass per field of a group of
    chains of one solver and bone count (a scene of 20,000 chains saves in a fraction of the time)."""
    out: list[dict | None] = [None] * len(chains)
    groups: dict[tuple, list[int]] = {}
    for i, c in enumerate(chains):
        groups.setdefault(c.group_key, []).append(i)
    for (kind, _), members in groups.items():
        cs = [chains[i] for i in members]
        def field(name, cs=cs):
            return np.array([c.fields[name] for c in cs])
        if kind == "snake":
            # unrounded: a snake's nodes must sit exactly one length apart and
            # inside the bend range, which rounding would break
            columns = {"points": field("points").tolist(), "lengths": field("lengths").tolist(),
                       "bend_limits": np.degrees(field("bend_limits")).tolist()}  # unrounded, as the points
            for i, c, points, lengths, bend in zip(members, cs, *columns.values()):
                f = c.fields
                out[i] = {"solver": "snake", "points": points, "lengths": lengths,
                          "heading": _r(math.degrees(f["heading"][0]), 4), "bend_limits": bend,
                          "max_speed": _r(f["max_speed"][0]), "turn_rate": _r(math.degrees(f["turn_rate"][0]), 4)}
            continue
        columns = {"root": _rounded(field("root")), "lengths": _positive(field("lengths")),
                   "angles": _deg(field("angles")), "target": _rounded(field("target"))}
        limits = _deg(field("limits")) if kind != "two-bone" else [None] * len(cs)
        for i, c, root, lengths, angles, target, lim in zip(members, cs, *columns.values(), limits):
            d = {"solver": kind, "root": root, "lengths": lengths, "angles": angles, "target": target,
                 "rate_limit": None if c.rate_limit is None else _pos(c.rate_limit, 4),
                 "rate_limit_setting": _pos(c.rate_deg, 4)}  # what turning an off limit on restores
            if kind == "two-bone":
                d["mirror"] = c.mirror
            else:
                d.update(limits=lim, iterations=c.iterations, tolerance=_r(c.tolerance, 4))
            out[i] = d
    return out


def scene_to_dict(scene: Scene) -> dict:
    """The whole file as a dict: the header and every chain (:func:`chain_to_dict`)."""
    return {"format": FORMAT, "version": VERSION, "chains": chains_to_dicts(scene.chains)}


def chain_line(d: dict) -> str:
    """One chain's line of the file (``ValueError`` for a number JSON cannot hold)."""
    return json.dumps(d, allow_nan=False)


def doc_to_text(doc: dict) -> str:
    """The file's text for :func:`scene_to_dict`'s dict: the header, then one chain a line."""
    lines = [chain_line(c) for c in doc["chains"]]
    return HEAD + ("\n  " + CHAIN_SEPARATOR.join(lines) + "\n ]}" if lines else "]}")


def scene_to_text(scene: Scene) -> str:
    """The file's text: the header, then one chain a line (readable, diff-friendly)."""
    return doc_to_text(scene_to_dict(scene))


# --- bounds --------------------------------------------------------------------
# The longest text a number of each field can have once the writer has rounded
# it, over every value the loader accepts there (a float's text is at most 24
# characters; a field not listed here is counted at that).
_WIDEST_FLOAT = -2.2250738585072014e-308  # 24 characters
_WIDEST = {
    "root": -999999.999, "target": -999999.999,  # 3 decimals, within +-1e6
    "lengths": 1.234e-300,  # > 0 and <= 1e6, 3 decimals or 4 significant digits
    "angles": -999999.9999, "heading": -999999.9999,  # 4 decimals, within +-1e6 degrees
    "rate_limit": 1.234e-300, "rate_limit_setting": 1.234e-300,  # > 0 and <= 180, 4 decimals or digits
    "limits": -179.9999,  # 4 decimals, within +-180
    "iterations": 1000, "tolerance": 999999.9999, "max_speed": 999.999, "turn_rate": 179.9999,
}
# a snake's points, lengths and bend limits are written unrounded
_WIDEST_SNAKE = {"lengths": -_WIDEST_FLOAT, "heading": _WIDEST["heading"], "max_speed": _WIDEST["max_speed"],
                 "turn_rate": _WIDEST["turn_rate"]}


def _widened(value, widest):
    """``value`` with every number replaced by ``widest`` (containers keep their shape)."""
    if isinstance(value, list):
        return [_widened(v, widest) for v in value]
    if isinstance(value, (bool, str)):
        return value
    return widest


def widest_chain_dict(kind: str) -> dict:
    """The longest chain of ``kind`` the writer can write: MAX_BONES bones, every number at its widest."""
    if kind == "snake":
        pts = build.straight_snake((0.0, 0.0), 0.0, nodes=MAX_BONES + 1)
        d, widest = chain_to_dict(pts), _WIDEST_SNAKE
    else:
        n = 2 if kind == "two-bone" else MAX_BONES
        chain = build.make_ik_chain(kind, (0.0, 0.0), np.zeros(n), np.ones(n), (1.0, 1.0))
        d, widest = chain_to_dict(chain), _WIDEST
    d = {k: _widened(v, widest.get(k, _WIDEST_FLOAT)) for k, v in d.items()}
    if kind == "two-bone":
        d["mirror"] = False
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
    """The most a written chain can take, over every kind: ``bytes`` of its line, and its
    ``lists``, ``objects``, ``strings`` and ``values`` (each list item and object member is one)."""
    out = dict.fromkeys(("bytes", "lists", "objects", "strings", "values"), 0)
    for kind in SOLVERS:
        d = widest_chain_dict(kind)
        counts = dict.fromkeys(("lists", "objects", "strings", "values"), 0)
        _count(d, counts)
        counts["bytes"] = len(chain_line(d).encode("utf-8"))
        for k, v in counts.items():
            out[k] = max(out[k], v)
    return out


CHAIN_BOUNDS = chain_bounds()
MAX_CHAIN_BYTES = CHAIN_BOUNDS["bytes"]
# The file of MAX_CHAINS of the widest chains (and its final newline), rounded up to whole MB.
LARGEST_FILE = (len(HEAD) + len("\n  ") + MAX_CHAINS * MAX_CHAIN_BYTES
                + (MAX_CHAINS - 1) * len(CHAIN_SEPARATOR) + len("\n ]}") + 1)
MAX_FILE_BYTES = -(-LARGEST_FILE // _MB) * _MB
# What the loader lets a file's raw text hold before it parses it: twice what
# MAX_CHAINS of the largest chains need, and a little more, so that fields a
# later version adds (ignored here) still fit.
BUDGETS = {what: MAX_CHAINS * (2 * CHAIN_BOUNDS[what] + 8) + 1024 for what in ("lists", "objects", "strings", "values")}
