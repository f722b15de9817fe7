"""The stored rows a table is restored from, checked before anything is built of them.

A row damaged by hand, by a bug or by a rules change (a seat of an unknown kind, a bot of a level
that no longer exists, options the rules refuse) must set its table aside with a reason, as a log
row that cannot be replayed does (``Hub._restore``), and never reach the lobby, where one bad
table would make every listing fail, nor a bot's turn, where it would stop the table silently.
"""

from __future__ import annotations

from truco.bots import make_bot
from truco.errors import TrucoError
from truco.rules import Rules, from_options
from truco.server.store.schema import TableRow
from truco.server.tables.room import FINISHED, PLAYING, WAITING
from truco.server.tables.seats import BOT, EMPTY, HUMAN

KINDS = (HUMAN, BOT, EMPTY)
STATUSES = (WAITING, PLAYING, FINISHED)
"""The statuses a table is restored in (an expired or set-aside one is refused before)."""


class DamagedRow(ValueError):
    """A stored row a table cannot be restored from; the message says which and why."""


def check_row(row: TableRow) -> Rules:
    """The rules of ``row``'s table, once every part of it that a table is built of is sound:
    its options, status, clock and seats. Raises ``DamagedRow`` saying what is wrong."""
    if not isinstance(row.options, dict):
        raise DamagedRow(f"the options are not an object: {row.options!r}")
    try:
        rules = from_options(None, row.options)
    except TrucoError as exc:
        raise DamagedRow(f"the options are refused: {exc}") from None
    if row.status not in STATUSES:
        raise DamagedRow(f"unknown status {row.status!r}")
    seconds = row.turn_seconds
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0
    ):
        raise DamagedRow(f"the turn clock is not a positive number of seconds: {seconds!r}")
    numbers = sorted(s.seat for s in row.seats)
    if numbers != list(range(rules.players)):
        raise DamagedRow(f"the seats are {numbers}, not 0 to {rules.players - 1}")
    for seat in row.seats:
        where = f"seat {seat.seat}"
        if seat.kind not in KINDS:
            raise DamagedRow(f"{where} is of unknown kind {seat.kind!r}")
        if not isinstance(seat.name, str):
            raise DamagedRow(f"{where} has a name that is not text: {seat.name!r}")
        if seat.kind == BOT:
            if not seat.level:
                raise DamagedRow(f"{where} is a bot with no level")
            try:
                make_bot(seat.level)
            except TrucoError as exc:
                raise DamagedRow(f"{where} is a bot of level {seat.level!r}: {exc}") from None
    return rules


__all__ = ["KINDS", "STATUSES", "DamagedRow", "check_row"]
