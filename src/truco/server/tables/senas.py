"""Señas at a table: a person's and the bots', passed to the sender's partners only.

A person's seña arrives as a ``sena`` message; a bot's is made here, on the loop (it is a few
rules over the bot's own view, ``bots/senas.py``: no search), before each decision of its side
while the first trick is played, and sent the same way, so that a person partnered with a bot
sees its señas as she sees a person's, and the rivals never see either. Both are recorded for
the hand (``Exchange``), so that a bot that reads señas decides with those its seat received.
Señas are not logged: after a restart, a bot decides without those made before it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from truco import protocol as p
from truco.bots import senas
from truco.engine import to_act
from truco.server.tables import botpool, fanout
from truco.server.tables.conn import Conn
from truco.server.tables.seats import BOT, Seat
from truco.state import State


def signs(seat: Seat) -> bool:
    """Whether the seat is a bot that makes señas (its persona's bot says; a person's seat
    played by the caretaker makes none in her name)."""
    level = seat.level
    return seat.kind == BOT and bool(level) and senas.signs(botpool.bot(level or "", seat.name))


class TableSenas:
    """The señas of one table's current hand."""

    def __init__(self, players: int) -> None:
        self.exchange = senas.Exchange(players)

    def person(
        self,
        state: State,
        seats: Sequence[Seat],
        sender: Seat,
        sena: str,
        skip: Collection[Conn] = (),
    ) -> None:
        """A person's seña: to her partners (not to the connections in ``skip``, whose players
        mute or block her), and into what they heard this hand (a bot partner reads it)."""
        self.exchange.hand(state.hand_no)
        self.exchange.make(state.teams, sender.seat, sena)
        fanout.send_sena(seats, state.teams, sender, sena, skip)

    def bots(self, state: State, seats: Sequence[Seat]) -> None:
        """The señas the bots of the side to act make now (none while a hand is dealt)."""
        actor = to_act(state)
        if actor is None or actor < 0:
            return
        signers = [signs(seat) for seat in seats]
        if not any(signers):
            return
        for sender, sena, _ in self.exchange.before(state, actor, signers):
            fanout.send_sena(seats, state.teams, seats[sender], sena)

    def catch_up(self, state: State, conn: Conn, seat: int, skip: Collection[int] = ()) -> None:
        """A seat (re)connected: the señas it received in this hand, again (a bot signs as
        soon as the hand is dealt, maybe before its partner's page is open), but those of the
        seats in ``skip`` (people its player mutes or blocks)."""
        for sender, sena in self.heard(state, seat):
            if sender in skip:
                continue
            conn.send(p.encode("sena", {"seat": sender, "sena": sena}))

    def heard(self, state: State, seat: int) -> senas.Heard:
        return self.exchange.heard_by(seat, state.hand_no)


__all__ = ["TableSenas", "signs"]
