"""A numpy scan of a JSON document's raw bytes before it is parsed: nesting depth and the counts a parser builds.

A JSON decoder (msgspec's as Python's) recurses once per nesting level and
builds a list whole before its length is checked, so a hostile file could
exhaust the stack or the memory first. This scan reads the bytes a chunk at a
time (bounded memory). Brackets, commas and colons inside strings don't count;
a backslash counts as an escape wherever it is (JSON's parser stops at one
outside a string, so up to where it would stop, the scan agrees with it).
"""

from __future__ import annotations

import numpy as np

MAX_DEPTH = 32  # brackets nested deeper than this are refused before parsing

# Byte classes: a backslash, then everything the scan looks at (>= _QUOTE).
_BACKSLASH, _QUOTE, _COMMA, _COLON, _OPEN_LIST, _OPEN_OBJECT, _CLOSE_LIST, _CLOSE_OBJECT = range(1, 9)
_CLASS = np.zeros(256, dtype=np.int8)
for _byte, _cls in {"\\": _BACKSLASH, '"': _QUOTE, ",": _COMMA, ":": _COLON, "[": _OPEN_LIST,
                    "{": _OPEN_OBJECT, "]": _CLOSE_LIST, "}": _CLOSE_OBJECT}.items():
    _CLASS[ord(_byte)] = _cls
_CHUNK = 1 << 20  # bytes scanned at a time (bounds the scan's memory)


class Shape:
    """What :func:`scan` found.

    Attributes
    ----------
    deep : int or None
        Byte offset of the first bracket nested deeper than ``MAX_DEPTH`` (the counts are then partial).
    lists, objects, strings, commas : int
        How many of each, outside strings.
    top_colons, top_commas : int
        How many colons and commas the outermost value holds itself (level 1): an object's members
        (colons), a list's entries (commas + 1).
    """

    def __init__(self):
        self.deep = None
        self.lists = self.objects = self.strings = self.commas = self.top_colons = self.top_commas = 0

    @property
    def values(self) -> int:
        """Items of lists and members of objects (an empty list or object counts as one)."""
        return self.commas + self.lists + self.objects


def _chunks(raw):
    """Per chunk of ``raw``: offsets, classes, outside-a-string mask, nesting levels and real quotes."""
    data = np.frombuffer(raw, dtype=np.uint8)
    in_string, carry, depth = 0, 0, 0  # carry: backslashes ending the previous chunk
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
        real_quotes = 0
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
            outside = (in_string + np.cumsum(real) - real) % 2 == 0
            real_quotes = int(real.sum())
            in_string = (in_string + real_quotes) % 2
        else:
            outside = np.full(idx.size, in_string == 0)
        step = np.where(cls >= _CLOSE_LIST, -1, cls >= _OPEN_LIST).astype(np.int8)
        step *= outside
        levels = depth + np.cumsum(step, dtype=np.int64)
        yield start + idx, cls, outside, levels, real_quotes
        if levels.size:
            depth = int(levels[-1])
        carry = int(run[-1]) if bs.size and bs[-1] == size - 1 else 0


def scan(raw) -> Shape:
    """Depth and counts of the JSON text ``raw`` (bytes or a buffer such as ``msgspec.Raw``; see :class:`Shape`)."""
    shape = Shape()
    quotes = 0
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
        top = cls[outside & (levels == 1)]
        shape.top_colons += int(np.count_nonzero(top == _COLON))
        shape.top_commas += int(np.count_nonzero(top == _COMMA))
    shape.strings = quotes // 2
    return shape
