"""Text made safe for a font: what SDL_ttf cannot take is replaced before it is drawn.

A file name that is not valid UTF-8 reaches Python as lone surrogates
(``'\\udcff'``, Python's surrogateescape), and the fonts raise on those; they raise
on a NUL too, and on text that is all zero-width. Messages and labels that can
hold a path or a file's words go through :func:`printable`.
"""

from __future__ import annotations

import unicodedata

REPLACEMENT = "\ufffd"  # the Unicode replacement character (�)


def undrawable(ch: str) -> bool:
    """True for a character no font draws: a lone surrogate or a control character."""
    return unicodedata.category(ch) in ("Cs", "Cc")


def printable(text: str, replacement: str = REPLACEMENT) -> str:
    """``text`` with lone surrogates and control characters replaced by ``replacement``."""
    if text.isprintable():  # the common case: nothing to replace
        return text
    return "".join(replacement if undrawable(ch) else ch for ch in text)
