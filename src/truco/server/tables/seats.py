"""Seats and their tokens: who sits where, how a token finds its seat, what a seat asked for.

A seat's token is only ever held as its SHA-256 (``token_hash``): the database and the other
processes of a cluster never see the token itself, and a lookup compares digests in constant
time.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from truco import protocol as p
from truco.protocol.shapes import CaretakerJson
from truco.server.errors import TableError
from truco.server.store.schema import SeatRow
from truco.server.tables.conn import Conn

HUMAN, BOT, EMPTY = "human", "bot", "empty"
ACKS_KEPT = 64
"""Acknowledged actions each seat remembers, to answer a resent one with its first ack."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    seat: int
    name: str
    kind: str
    level: str | None
    token_hash: str | None
    player_id: str | None = None
    """The player seated here (``identity.py``): any connection of that player takes the seat."""
    conn: Conn | None = None
    replaced: bool = False
    """A bot plays for this person, who did not come back within the grace period."""
    rematch: bool = False
    timeouts: int = 0
    """Turns in a row this person let the clock run out (a bot moved for him); not kept."""
    stalled: bool = False
    """This person stalled a rated match (``Settings.stall_timeouts``): rated as having left."""
    excused: bool = False
    """A rival stalled while this person was there: if he leaves, his rating does not move."""
    came: bool = False
    """The person connected at least once since this process holds the table: a table does
    not start before all of its people came (``Room.arriving``)."""
    spell_from: tuple[int, int] | None = None
    """While a bot plays for this person: the match and how many of its hands had ended (kept
    in the store: ``spell.py``)."""
    spell: CaretakerJson | None = None
    """What the caretaker played for this person, set only while the ``table`` message of her
    return is sent: she is told it once (``spell.py``)."""
    grace: asyncio.TimerHandle | None = None
    acks: OrderedDict[int, tuple[int, str, int]] = field(default_factory=OrderedDict)
    """Acknowledged actions: a -> (version chosen at, action, version applied as)."""

    def row(self) -> SeatRow:
        return SeatRow(
            self.seat,
            self.name,
            self.kind,
            self.level,
            self.token_hash,
            self.player_id,
            self.spell_from,
        )

    @classmethod
    def from_row(cls, row: SeatRow) -> Seat:
        """A seat read back from the store: the caretaker plays on if it played for her."""
        return cls(
            row.seat,
            row.name,
            row.kind,
            row.level,
            row.token_hash,
            row.player_id,
            replaced=row.spell_from is not None,
            spell_from=row.spell_from,
        )

    def acked(self, a: int, v: int, action: str) -> int | None:
        """The version action ``a`` was applied as, if it is this very action resent."""
        done = self.acks.get(a)
        return done[2] if done is not None and done[0] == v and done[1] == action else None

    def remember(self, a: int, v: int, action: str, applied: int) -> None:
        self.acks[a] = (v, action, applied)
        while len(self.acks) > ACKS_KEPT:
            self.acks.popitem(last=False)

    @property
    def bot_plays(self) -> bool:
        """A bot chooses this seat's actions (a bot's seat, or a person replaced by one)."""
        return self.kind == BOT or self.replaced


def find_seat(seats: Iterable[Seat], token: str) -> Seat | None:
    """The seat ``token`` holds (every seat is compared, in constant time each)."""
    digest = hash_token(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat
    return found


def player_seat(seats: Iterable[Seat], player_id: str | None) -> Seat | None:
    """The first seat a person of identity ``player_id`` holds (None: none, or no identity)."""
    if player_id is None:
        return None
    return next((s for s in seats if s.kind == HUMAN and s.player_id == player_id), None)


def free_seat(seats: list[Seat], seat_no: int | None) -> Seat:
    """Seat ``seat_no`` if it is free (None: the first free one); refused otherwise."""
    if seat_no is None:
        for seat in seats:
            if seat.kind == EMPTY:
                return seat
        raise TableError(p.SEAT_TAKEN, "every seat is taken")
    if not 0 <= seat_no < len(seats):
        raise TableError(p.SEAT_TAKEN, f"there is no seat {seat_no} at this table")
    if seats[seat_no].kind != EMPTY:
        raise TableError(p.SEAT_TAKEN, f"seat {seat_no} is taken")
    return seats[seat_no]


def seats_json(seats: Iterable[Seat]) -> list[dict[str, object]]:
    """The seats as the ``table`` message and the lobby show them."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "connected": s.kind == BOT or s.conn is not None,
            "level": s.level,
            "replaced": s.replaced,
            "rematch": s.rematch,
            "caretaker": s.spell,
        }
        for s in seats
    ]


__all__ = [
    "BOT",
    "EMPTY",
    "HUMAN",
    "Seat",
    "find_seat",
    "free_seat",
    "hash_token",
    "player_seat",
    "seats_json",
]
