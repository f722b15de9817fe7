"""The caretaker's spell at a person's seat: while it plays for her, and what she hears of it.

At a table where another person is seated, a person who does not come back within the grace
period is played by the caretaker (``Room._start_grace``) until she connects again. Her seat
keeps where the spell began (``Seat.spell_from``: the match, and how many of its hands had
ended), in the store too (``truco_seats.spell_match``, ``spell_hands``): a restart neither
forgets that the caretaker plays for her nor loses the hands it played before it. On her return
she is told, once, what it played: the hands of the match that ended while it held her seat and
the score she came back to (the seat's ``caretaker``, in the one ``table`` message of her
return: docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from truco.protocol.shapes import CaretakerJson
from truco.server.tables.seats import Seat


def begin(seat: Seat, match: int, ended: int) -> None:
    """The caretaker takes ``seat`` over, in ``match`` after ``ended`` of its hands."""
    seat.replaced = True
    seat.spell_from = (match, ended)


def end(seat: Seat, match: int, ended: int, score: Sequence[int]) -> CaretakerJson:
    """Her return to ``seat`` in ``match`` after ``ended`` of its hands, at ``score``: the
    caretaker stops, and what it played for her (hands of an earlier match, before a rematch,
    are not this match's: only the current match's are named)."""
    began_match, began = seat.spell_from or (match, ended)
    first = began if began_match == match else 0
    seat.replaced = False
    seat.spell_from = None
    return {"hands": list(range(first + 1, ended + 1)), "score": list(score)}


__all__ = ["begin", "end"]
