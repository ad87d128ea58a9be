"""Text made safe for a font: lone surrogates (an undecodable file name) and control characters replaced."""

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
