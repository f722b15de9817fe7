"""The rule for a player's name, in one place: every name that enters the server passes here.

A name is shown to everybody at the table, in the lobby, in chat lines and in hand histories,
so it must be plain visible text: NFKC-normalised (full-width letters, ligatures and odd spaces
become their plain forms), trimmed, runs of spaces made one, at most :data:`MAX_NAME`
characters, with at least one letter, digit, punctuation mark or symbol, and none of the
characters that hide or disguise text: controls (NUL, line breaks, escapes), bidirectional
overrides and isolates (which reverse how the rest of a line reads), and zero-width or other
invisible formatting characters. The joiners U+200C and U+200D stay allowed inside a name:
scripts such as Persian and emoji sequences need them.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

BAD_NAME: Final = "bad_name"
"""The error code of a refused name (HTTP 422)."""

MAX_NAME: Final = 24
"""Characters in a name, after normalising."""

BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional marks, embeddings, overrides and isolates."""

JOINERS: Final = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: invisible, but some scripts and emoji are written with them."""

_SPACES = re.compile(r"\s+")


class NameRefused(ValueError):
    """A name that breaks the rule; ``reason`` is one of blank, too_long, control, bidi,
    invisible."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _spell(ch: str) -> str:
    return f"U+{ord(ch):04X}" + (f" {unicodedata.name(ch)}" if unicodedata.name(ch, "") else "")


def clean_name(raw: str) -> str:
    """``raw`` as it will be shown, or :class:`NameRefused` saying why it cannot be a name."""
    name = unicodedata.normalize("NFKC", raw)
    for ch in name:
        category = unicodedata.category(ch)
        if ch in BIDI:
            raise NameRefused(
                "bidi", f"a name may not hold text-direction characters ({_spell(ch)})"
            )
        if category in ("Cc", "Cs", "Zl", "Zp"):
            raise NameRefused("control", f"a name may not hold control characters ({_spell(ch)})")
        if category == "Cf" and ch not in JOINERS:
            raise NameRefused(
                "invisible", f"a name may not hold invisible characters ({_spell(ch)})"
            )
    name = _SPACES.sub(" ", name).strip()
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise NameRefused("blank", "a name needs at least one visible letter, digit or sign")
    if len(name) > MAX_NAME:
        raise NameRefused("too_long", f"a name holds at most {MAX_NAME} characters")
    return name
