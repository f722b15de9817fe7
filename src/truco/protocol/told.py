"""The words a person is told when she is back and the caretaker played for her, in one place.

The server sends the facts (the seat's ``caretaker``: ``CaretakerJson``, docs/protocol.md); the
sentence is written here only, in every language a client speaks: the terminal says it with
``caretaker_played``, and ``truco.protocol_ts`` writes ``CARETAKER_PLAYED`` into the browser's
``generated.ts``, whose language files take it from there. ``{n}`` is how many hands it played,
``{first}`` and ``{last}`` their numbers in the match, ``{score}`` the score she came back to.
"""

from __future__ import annotations

from typing import Any, Final

from truco.protocol.shapes import CaretakerJson

CARETAKER_PLAYED: Final = {
    "es": {
        "one": "Mientras no estabas, jugó por vos el asistente: la mano {first}, {score}",
        "many": "Mientras no estabas, jugó por vos el asistente: {n} manos ({first} a {last}),"
        " {score}",
    },
    "en": {
        "one": "While you were away, the caretaker played for you: hand {first}, {score}",
        "many": "While you were away, the caretaker played for you: {n} hands ({first} to"
        " {last}), {score}",
    },
    "pt": {
        "one": "Enquanto você não estava, o assistente jogou por você: a mão {first}, {score}",
        "many": "Enquanto você não estava, o assistente jogou por você: {n} mãos ({first} a"
        " {last}), {score}",
    },
}
"""By language, the sentence for one hand (``one``) and for several (``many``)."""


def spell_from_json(d: Any) -> CaretakerJson | None:
    """A seat's ``caretaker`` as a client reads it (None: absent, or not of its shape)."""
    if not isinstance(d, dict):
        return None
    hands, score = d.get("hands"), d.get("score")
    if not (isinstance(hands, list) and isinstance(score, list)):
        return None
    if not all(type(i) is int for i in (*hands, *score)):
        return None
    return CaretakerJson(hands=list(hands), score=list(score))


def caretaker_played(spell: CaretakerJson | None, lang: str = "es") -> str | None:
    """What the person is told of ``spell`` in ``lang`` (None: nothing to tell, no hand)."""
    hands = spell["hands"] if spell else []
    if not spell or not hands:
        return None
    words = CARETAKER_PLAYED[lang]["one" if len(hands) == 1 else "many"]
    score = "-".join(str(points) for points in spell["score"])
    return words.format(n=len(hands), first=hands[0], last=hands[-1], score=score)


__all__ = ["CARETAKER_PLAYED", "caretaker_played", "spell_from_json"]
