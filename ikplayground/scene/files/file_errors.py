"""The error a scene file is refused with, and how one-line messages show a file's name and a value.

A name may hold anything a file system allows (a newline, an escape sequence):
:func:`shown_name` escapes what is not printable and shortens a long name.
"""

from __future__ import annotations

import json
import os

SHOWN_NAME_MAX = 80  # characters of a name shown whole; a longer one is shortened in the middle


class SceneFileError(Exception):
    """A scene file that cannot be used; the message names the file and the place."""


def _escaped(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape): show the byte
        return f"\\x{code - 0xDC00:02x}"
    return ch if ch.isprintable() else repr(ch)[1:-1]


def shown(text: str, shorten: bool = True) -> str:
    r"""``text`` (a file name or any text from outside) fit for a one-line message: what is not printable
    written as ``repr`` writes it (``\n``, ``\x1b``, a byte that was not UTF-8 as ``\xff``), and with ``shorten``
    a text over ``SHOWN_NAME_MAX`` characters cut to its start and end.
    """
    if not text.isprintable():
        text = "".join(map(_escaped, text))
    if shorten and len(text) > SHOWN_NAME_MAX:
        text = f"{text[:48]}...{text[-24:]}"
    return text


def shown_name(path) -> str:
    """The last part of ``path`` (the whole path if it has none) as :func:`shown` shows it."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    name = os.path.basename(text.rstrip("/" + os.sep)) or text
    return shown(name)


def name_too_long(path) -> str:
    """Why the system refused ``path`` as too long (ENAMETOOLONG), in plain words."""
    text = os.fspath(path)
    text = os.fsdecode(text) if isinstance(text, bytes) else text
    folder, name = os.path.split(text.rstrip("/" + os.sep))
    size = len(os.fsencode(name))
    try:
        most = os.pathconf(folder or ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        most = 255
    if size > most:
        return f"the file name is too long ({size} bytes; a name may have at most {most})"
    return f"the path is too long ({len(os.fsencode(text))} bytes)"


def show_value(value) -> str:
    """``value`` as messages show it: short, one line."""
    if hasattr(value, "shown"):  # a BadNumber
        return value.shown()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**36:
        return f"{str(value)[:12]}...({len(str(abs(value)))} digits)"
    if isinstance(value, (list, tuple)) and len(value) <= 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        text = "[" + ", ".join(show_value(v) for v in value) + "]"
    elif isinstance(value, (str, bool, type(None), int, float)):
        text = json.dumps(value)
    else:
        text = {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."
