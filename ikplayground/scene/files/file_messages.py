"""The words of a refusal: msgspec's ValidationError (msgspec's docs, "Errors") as docs/scene-format.md says it.

``Expected `float` > 0.0 - at `$.lengths[1]``` becomes ``lengths[1]: must be > 0 (got -5)``,
the value read from the decoded bytes (only when a decode failed).
"""

from __future__ import annotations

import math
import re
from typing import Any

from ikplayground.scene.core.constants import SOLVERS
from ikplayground.scene.files import strict_json
from ikplayground.scene.files.file_errors import show_value
from ikplayground.scene.files.file_schema import CHOICES, WHOLE_KEYS

_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_EXPECTED = re.compile(r"Expected `(?P<type>[a-z]+)(?P<null> \| null)?`"
                       r"(?: (?P<op>>=|<=|>|<) (?P<bound>\S+))?(?: of length (?P<lop>>= |<= )?(?P<len>\d+))?")
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
PARSED_MOST = 1 << 20  # bytes: more than a terrain or a chain the writer writes
_WORDS = {"array": "a list", "object": "an object", "bool": "true or false", "str": "a string"}


class Unread:
    """A value too long to be worth parsing for a message (shown as what it starts as)."""

    def __init__(self, first: bytes):
        self.text = {b"[": "a list", b"{": "an object", b'"': "a long string"}.get(first, "a long value")

    def shown(self) -> str:
        return self.text


def value_at(raw: bytes, path: str):
    """The value at msgspec's ``path`` (``.lengths[1]``) in the JSON ``raw`` (:class:`Unread` if too long), or None."""
    if len(raw) > PARSED_MOST:
        return Unread(memoryview(raw)[:64].tobytes().lstrip()[:1] if not path else b"")
    value = strict_json.parse(bytes(raw).decode("utf-8", "surrogatepass"), bytes(raw), "")[0]
    for key, index in _STEP.findall(path):
        try:
            value = value[key] if key else value[int(index)]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _entries(n: int) -> str:
    return f"{n} {'entry' if n == 1 else 'entries'}"


def described(error: str, raw: bytes, member: str = "") -> tuple[str, str]:
    """``(path, message)`` for msgspec's error ``error`` about ``raw`` (``member``: the top-level key it is)."""
    at = _AT.match(error)
    assert at is not None  # _AT matches any text
    what, path = at["what"], at["path"] or ""
    missing = re.fullmatch(r"Object missing required field `(.*)`", what)
    if missing:
        key = missing[1]
        if key == "solver":
            return path, f"missing field 'solver' (one of {', '.join(SOLVERS)})"
        return path, f"missing field {key!r}"
    value = value_at(raw, path)
    got = show_value(value)
    key = re.sub(r"\[\d+\]", "", member + path).lstrip(".")
    solver: Any = value_at(raw, ".solver") if isinstance(value_at(raw, ""), dict) else None
    choices = SOLVERS if key == "solver" else CHOICES.get((solver, key))
    if choices is not None:
        got = got if key == "solver" else f"{value!r:.40}"
        return path, f"must be one of {', '.join(choices)} (got {got})"
    if what == "Number out of range" or (isinstance(value, float) and not math.isfinite(value)):
        return path, f"must be a finite number (got {got})"
    expected = _EXPECTED.match(what)
    if expected is None:
        return path, what
    kind = expected["type"]
    if kind in ("float", "int"):
        if key in WHOLE_KEYS:
            lo, hi = WHOLE_KEYS[key]
            return path, (f"must be between {lo} and {hi} (got {got})" if expected["op"]
                          else f"must be a whole number (got {got})")
        if expected["op"]:
            return path, f"must be {expected['op']} {show_value(float(expected['bound']))} (got {got})"
        return path, f"must be a number (got {got})"
    if kind == "array" and expected["len"] and isinstance(value, list):
        count = int(expected["len"])
        most = {"": "", ">= ": "at least ", "<= ": "at most "}[expected["lop"] or ""]
        return path, f"must have {most}{_entries(count) if most else f'{count} entries'} (got {len(value)})"
    if key == "motion" and kind == "object":
        return path, f'must be an object such as {{"path": "circle", "speed": 2, "size": 80}} (got {got})'
    return path, f"must be {_WORDS.get(kind, kind)} (got {got})"
