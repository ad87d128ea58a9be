"""Strict JSON reading: numbers that are no finite float are caught and placed, not turned into inf.

Python's parser accepts ``NaN`` and ``Infinity`` (not JSON), turns ``1e400``
into ``inf`` and raises on a 5000-digit integer; here each becomes a
:class:`BadNumber` so that a message can name its place. The hooks cost a call
a number, so they run only when the raw bytes hold a number that may overflow.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ikplayground.scene.files.file_errors import SceneFileError

MAX_INT_DIGITS = 400  # longer integers are out of range whatever the field

# Bytes mapped so that a number that may overflow shows as a pattern: digits "0", "E" "e", "-" "+".
_fold = bytearray(range(256))
for _digit in b"0123456789":
    _fold[_digit] = ord("0")
_fold[ord("E")], _fold[ord("-")] = ord("e"), ord("+")
_FOLD = bytes(_fold)
_SUSPECT = (b"0" * 100, b"e000", b"e+000")  # 100 digits in a row, or a 3-digit exponent
_SUSPECT_CHUNK = 1 << 22
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class BadNumber:
    """Stands in for a number the parser saw that is no finite float (NaN, 1e400, a 400-digit integer)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def shown(self) -> str:
        t = self.text
        t = t if len(t) <= 24 else f"{t[:12]}... ({len(t)} characters)"
        return t if self.text in ("NaN", "Infinity", "-Infinity") else f"{t}, out of range"


def may_overflow(raw: bytes) -> bool:
    """Whether ``raw`` holds 100 digits in a row or a 3-digit exponent: only such numbers can overflow a float."""
    overlap = len(_SUSPECT[0])
    for start in range(0, len(raw), _SUSPECT_CHUNK):
        folded = raw[start:start + _SUSPECT_CHUNK + overlap].translate(_FOLD)
        if any(pattern in folded for pattern in _SUSPECT):
            return True
    return False


def line_col(raw: bytes, offset: int) -> str:
    """``line L column C`` of the byte ``offset`` in ``raw`` (columns count characters)."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", "replace")) + 1
    return f"line {line} column {column}"


def parse(text: str, raw: bytes, name: str):
    """``text`` (whose UTF-8 bytes are ``raw``) parsed, and the numbers in it that are no finite float.

    Returns
    -------
    (document, list of BadNumber)

    Raises
    ------
    SceneFileError
        ``name: line L column C: not valid JSON: ...``
    """
    bad: list[BadNumber] = []

    def bad_number(s: str) -> BadNumber:
        bad.append(BadNumber(s))
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

    hooks: dict[str, Any] = {"parse_float": parse_float, "parse_int": parse_int} if may_overflow(raw) else {}
    try:
        return json.loads(text, parse_constant=bad_number, **hooks), bad
    except json.JSONDecodeError as e:
        raise SceneFileError(f"{name}: line {e.lineno} column {e.colno}: not valid JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # not expected after the scan; never let one escape
        raise SceneFileError(f"{name}: not valid JSON ({type(e).__name__}: {e})") from None


def first_bad_number(doc) -> tuple[str, BadNumber] | None:
    """The place and value of the first :class:`BadNumber` in ``doc`` (document order), if any."""

    def walk(value, where):
        if isinstance(value, BadNumber):
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
