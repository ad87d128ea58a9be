"""Parsing a scene document a member and a chain at a time, from its raw bytes.

Python's parser builds the whole document before anything can be checked:
lists of Python floats take ten or more times the bytes of their text. Here
the punctuation that :func:`~ikplayground.scene.files.json_scan.scan` found splits
the top-level object into its members and the ``chains`` list into its
entries; each piece is parsed on its own, and the chains are parsed one by
one as the reader checks them (:class:`Entries`), so the memory a load takes
is that of the chains built, not of the parsed text.

Each piece must be valid JSON by itself and the punctuation between pieces
must be exactly an object's, so what is read is what the whole-text parse
would give. Anything unusual (a repeated top-level key, trailing text, a
piece that does not parse) makes :func:`document` return None, or
:class:`Entries` raise :class:`Broken`, and the caller parses the whole text
instead, which gives the exact message for a broken file.
"""

from __future__ import annotations

import json

import numpy as np

from ikplayground.scene.files import json_scan


class Broken(Exception):
    """A chain's text did not parse on its own: parse the whole text instead (for the message)."""


class Entries:
    """The entries of the ``chains`` list, parsed one at a time as they are iterated.

    Parameters
    ----------
    raw : bytes
        The whole document.
    spans : ndarray, shape (n, 2)
        Byte offsets ``(start, end)`` of each entry.
    """

    def __init__(self, raw: bytes, spans: np.ndarray):
        self.raw = raw
        self.spans = spans

    def __len__(self) -> int:
        return len(self.spans)

    def __iter__(self):
        raw = self.raw
        for start, end in self.spans.tolist():
            try:
                yield json.loads(raw[start:end])
            except ValueError:
                raise Broken from None


def _parsed(raw: bytes, start: int, end: int):
    return json.loads(raw[start:end])


def document(raw: bytes, shape: json_scan.Shape, lazy: str = "chains") -> dict | None:
    """The top-level object of ``raw``, its ``lazy`` member as :class:`Entries` if it is a list.

    Parameters
    ----------
    raw : bytes
        A JSON document with no number that is no finite float (those need
        the whole-text parse's hooks).
    shape : json_scan.Shape
        :func:`~ikplayground.scene.files.json_scan.scan` of ``raw``.

    Returns
    -------
    dict or None
        None when the text is not a plain object whose pieces each parse
        (the caller then parses the whole text).
    """
    start = json_scan.first_non_space(raw)
    colons, commas = shape.top_colons, shape.top_commas
    if (start < 0 or raw[start] != ord("{") or shape.end is None or raw[shape.end] != ord("}")
            or json_scan.first_non_space(raw, shape.end + 1) >= 0 or not colons.size or commas.size != colons.size - 1
            or not (np.all(colons[:-1] < commas) and np.all(commas < colons[1:]))):
        return None
    bounds = [start, *commas.tolist(), shape.end]
    doc = {}
    try:
        for i, colon in enumerate(colons.tolist()):
            key = _parsed(raw, bounds[i] + 1, colon)
            if not isinstance(key, str) or key in doc:
                return None
            spans = json_scan.entry_spans(raw, colon + 1, bounds[i + 1]) if key == lazy else None
            doc[key] = Entries(raw, spans) if spans is not None else _parsed(raw, colon + 1, bounds[i + 1])
    except ValueError:
        return None
    return doc
