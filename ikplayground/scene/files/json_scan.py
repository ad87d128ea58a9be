"""A numpy scan of a JSON document's raw bytes, before it is parsed: nesting depth, counts, top-level members.

A JSON decoder (msgspec's as Python's) recurses once per nesting level and
builds a list whole before its length is checked (msgspec's ``max_length``
too), so a hostile file could exhaust the stack or the memory before a
check runs. This scan reads the
bytes first, vectorised and a chunk at a time (so its memory is bounded): it
finds the first bracket nested deeper than ``MAX_DEPTH``, counts the lists,
objects, strings and values the parser would build, and locates the members
of the top-level object, so that a file can be refused for its shape while
it is still bytes.

Brackets, commas and colons inside strings don't count. A backslash counts
as an escape wherever it is; JSON allows one only inside strings and its
parser stops at any other, so up to the point where the parser would stop,
this scan agrees with it.
"""

from __future__ import annotations

import json
import re

import numpy as np

MAX_DEPTH = 32  # brackets nested deeper than this are refused before parsing

# Byte classes: a backslash, then everything the scan looks at (>= _QUOTE).
_BACKSLASH, _QUOTE, _COMMA, _COLON, _OPEN_LIST, _OPEN_OBJECT, _CLOSE_LIST, _CLOSE_OBJECT = range(1, 9)
_CLASS = np.zeros(256, dtype=np.int8)
for _byte, _cls in {"\\": _BACKSLASH, '"': _QUOTE, ",": _COMMA, ":": _COLON, "[": _OPEN_LIST,
                    "{": _OPEN_OBJECT, "]": _CLOSE_LIST, "}": _CLOSE_OBJECT}.items():
    _CLASS[ord(_byte)] = _cls
_CHUNK = 1 << 20  # bytes scanned at a time (bounds the scan's memory)
_WHITESPACE = b" \t\r\n"
_KEY_WINDOW = 256  # bytes looked at for a top-level key (longer keys are not ones the format knows)
_NOT_WHITESPACE = re.compile(rb"[^ \t\r\n]")


def first_non_space(raw: bytes, start: int = 0, end: int | None = None) -> int:
    """Offset of the first byte in ``raw[start:end]`` that is not JSON whitespace, -1 if none (no copy)."""
    found = _NOT_WHITESPACE.search(raw, start, len(raw) if end is None else end)
    return found.start() if found else -1


def _last_non_space(raw: bytes, start: int, end: int) -> int:
    i = end - 1
    while i >= start and raw[i] in _WHITESPACE:
        i -= 1
    return i if i >= start else -1


class Shape:
    """What :func:`scan` found.

    Attributes
    ----------
    deep : int or None
        Byte offset of the first bracket nested deeper than ``MAX_DEPTH``
        (the scan stops there; the counts are then partial).
    lists, objects, strings, commas : int
        How many of each, outside strings.
    top_colons, top_commas : ndarray of int64
        Offsets of the colons and commas of the top-level object (level 1).
    end : int or None
        Offset of the bracket that closes the top-level value.
    """

    def __init__(self):
        self.deep = None
        self.lists = self.objects = self.strings = self.commas = 0
        self.top_colons = self.top_commas = np.zeros(0, dtype=np.int64)
        self.end = None

    @property
    def values(self) -> int:
        """Items of lists and members of objects (an empty list or object counts as one)."""
        return self.commas + self.lists + self.objects


def _chunks(raw, begin: int = 0, end: int | None = None, depth: int = 0):
    """Per chunk of ``raw[begin:end]``: offsets, classes, outside-a-string mask and nesting level after each
    byte the scan looks at. ``begin`` must be outside any string, at nesting level ``depth``."""
    data = np.frombuffer(raw, dtype=np.uint8)[begin:end]
    in_string, carry = 0, 0  # carry: backslashes ending the previous chunk
    for start in range(0, data.size, _CHUNK):
        cls_all = _CLASS[data[start:start + _CHUNK]]
        size = cls_all.size
        # backslash runs: the length of the run each backslash ends
        bs = np.flatnonzero(cls_all == _BACKSLASH)
        if bs.size:
            new_run = np.ones(bs.size, dtype=bool)
            new_run[1:] = bs[1:] != bs[:-1] + 1
            first = np.maximum.accumulate(np.where(new_run, np.arange(bs.size), 0))
            run = np.arange(bs.size) - first + 1
            if bs[0] == 0:  # the first run goes on from the previous chunk
                run[first == 0] += carry
        idx = np.flatnonzero(cls_all >= _QUOTE)
        cls = cls_all[idx]
        quote = cls == _QUOTE
        if quote.any():  # a quote after an odd run of backslashes is escaped
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
            real = None
            outside = np.full(idx.size, in_string == 0)
        step = np.where(cls >= _CLOSE_LIST, -1, cls >= _OPEN_LIST).astype(np.int8)
        step *= outside
        levels = depth + np.cumsum(step, dtype=np.int64)
        yield begin + start + idx, cls, outside, levels, (0 if real is None else int(real.sum()))
        if levels.size:
            depth = int(levels[-1])
        carry = int(run[-1]) if bs.size and bs[-1] == size - 1 else 0


def scan(raw: bytes) -> Shape:
    """Depth, counts and the top-level members' punctuation of the JSON text ``raw`` (see :class:`Shape`)."""
    shape = Shape()
    colons, commas, quotes = [], [], 0
    for pos, cls, outside, levels, real_quotes in _chunks(raw):
        over = np.flatnonzero(levels > MAX_DEPTH)
        if over.size:
            shape.deep = int(pos[over[0]])
            break
        quotes += real_quotes
        counted = cls[outside]
        shape.lists += int(np.count_nonzero(counted == _OPEN_LIST))
        shape.objects += int(np.count_nonzero(counted == _OPEN_OBJECT))
        shape.commas += int(np.count_nonzero(counted == _COMMA))
        top = outside & (levels == 1)
        colons.append(pos[top & (cls == _COLON)])
        commas.append(pos[top & (cls == _COMMA)])
        if shape.end is None:
            closed = np.flatnonzero(outside & (levels == 0) & (cls >= _CLOSE_LIST))
            if closed.size:
                shape.end = int(pos[closed[0]])
    shape.strings = quotes // 2
    if colons:
        shape.top_colons, shape.top_commas = np.concatenate(colons), np.concatenate(commas)
    return shape


def too_deep(raw: bytes) -> int | None:
    """Byte offset of the first bracket nested deeper than MAX_DEPTH, or None.

    A file with few brackets is not scanned at all.
    """
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return None
    return scan(raw).deep


def _key_before(raw: bytes, colon: int) -> str | None:
    """The object key that ends just before the colon at ``colon``, or None if it is no short string."""
    close = colon - 1
    while close >= 0 and raw[close] in _WHITESPACE:
        close -= 1
    if close < 1 or raw[close] != ord('"'):
        return None
    open_ = close - 1
    while open_ >= max(0, close - _KEY_WINDOW):
        open_ = raw.rfind(b'"', max(0, close - _KEY_WINDOW), open_ + 1)
        if open_ < 0:
            return None
        slashes = 0
        while open_ - 1 - slashes >= 0 and raw[open_ - 1 - slashes] == ord("\\"):
            slashes += 1
        if slashes % 2 == 0:
            try:
                key = json.loads(raw[open_:close + 1])
            except ValueError:
                return None
            return key if isinstance(key, str) else None
        open_ -= 1
    return None


def top_members(raw: bytes, shape: Shape, limit: int = 100_000) -> list[tuple[str | None, int, int]]:
    """The first ``limit`` members of the top-level object: ``(key, start, end)``, the value being
    ``raw[start:end]`` (with the whitespace around it), in file order. Empty unless the text is an object."""
    first = first_non_space(raw)
    if first < 0 or raw[first] != ord("{"):
        return []
    end = shape.end if shape.end is not None else len(raw)
    out = []
    for colon in shape.top_colons[:limit].tolist():
        after = np.searchsorted(shape.top_commas, colon)
        stop = int(shape.top_commas[after]) if after < shape.top_commas.size else end
        out.append((_key_before(raw, colon), colon + 1, min(stop, end)))
    return out


def _list_region(raw: bytes, start: int, end: int) -> tuple[int, int] | None:
    """Offsets of the ``[`` that opens and the ``]`` that closes ``raw[start:end]``, None if it is no list."""
    open_, close = first_non_space(raw, start, end), _last_non_space(raw, start, end)
    if open_ < 0 or open_ == close or raw[open_] != ord("[") or raw[close] != ord("]"):
        return None
    return open_, close


def _entry_commas(raw: bytes, open_: int, close: int):
    """Per chunk, the offsets of the commas between the entries of the list ``raw[open_:close + 1]``."""
    for pos, cls, outside, levels, _ in _chunks(raw, open_ + 1, close, depth=2):
        yield pos[outside & (levels == 2) & (cls == _COMMA)]


def entries(raw: bytes, start: int, end: int) -> int | None:
    """How many entries the list ``raw[start:end]`` (a top-level member's value) holds, or None if no list."""
    region = _list_region(raw, start, end)
    if region is None:
        return None
    commas = sum(int(c.size) for c in _entry_commas(raw, *region))
    if commas:
        return commas + 1
    return 0 if first_non_space(raw, region[0] + 1, region[1]) < 0 else 1
