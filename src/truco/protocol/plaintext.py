"""What counts as plain text on the wire: the characters a chat line may not hold.

People's words reach other people's screens: a browser (where they are only ever text) and a
terminal (where an escape sequence is a command: a window title, a clipboard write, a cursor
move). So the server refuses a chat line holding a control character, a line break or a mark
that reverses how the rest of a line reads; the terminal client strips the same characters from
whatever it is sent (``truco.tui.wire``), whatever a server lets through.
"""

from __future__ import annotations

import unicodedata
from typing import Final

BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional marks, embeddings, overrides and isolates."""

CONTROL_CATEGORIES: Final = frozenset(("Cc", "Cs", "Zl", "Zp"))
"""Controls (C0 and C1: NUL, ESC, the 8-bit CSI...), surrogates, line and paragraph breaks."""


def spell(ch: str) -> str:
    """``U+001B`` and its Unicode name, for an error that says which character it was."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def refusal(text: str) -> str | None:
    """Why ``text`` cannot be shown as a chat line, in words; None when it can."""
    for ch in text:
        if unicodedata.category(ch) in CONTROL_CATEGORIES:
            return f"a chat line may not hold control characters or line breaks ({spell(ch)})"
        if ch in BIDI:
            return f"a chat line may not hold text-direction characters ({spell(ch)})"
    return None
