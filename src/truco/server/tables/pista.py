"""The Pista (docs/coach.md): the expert's choice for a seat's current decision, offered only to
a person playing alone against bots.

A pista is a search of the expert's, so it runs in the bot pool's workers (``BotPool.pista``),
never on the event loop, and the table never waits for it: the owner task checks the request,
takes the seat's own view (so that no hidden card can reach the search) and starts a task that
answers that connection alone, tagged with the version it is for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from truco import protocol as p
from truco.server.errors import TableError
from truco.server.net.limits import Buckets, spend
from truco.server.settings import Settings
from truco.server.tables.botpool import BotPool
from truco.server.tables.conn import Conn
from truco.server.tables.seats import BOT, HUMAN, Seat
from truco.view import SeatView


def allowed(seats: Sequence[Seat]) -> bool:
    """Pistas are offered only at a table of one person against bots (every other seat a bot,
    partners included): with another person at the table it would be unfair."""
    return sum(s.kind == HUMAN for s in seats) == 1 and all(s.kind in (HUMAN, BOT) for s in seats)


class Pistas:
    """A table's pistas: the allowance per seat and the searches under way."""

    def __init__(self, settings: Settings, pool: BotPool) -> None:
        self.settings = settings
        self.pool = pool
        self.budget = Buckets(settings.pista_burst, settings.pista_per_second)
        """Per seat, over all its connections: the pistas asked again for a decision that had
        one (each is a search in the bot pool)."""
        self.asked: dict[int, int] = {}
        """Per seat, the version of the last decision it asked a pista for."""
        self.tasks: set[asyncio.Task[None]] = set()
        """Searches under way (kept so that they are not collected, and stopped with the table)."""

    def start(self, conn: Conn, seat: Seat, view: SeatView, *, v: int, seed: str) -> None:
        """Start the pista for ``view`` (the seat's own, at version ``v``) and return at once.

        The first pista of each of the seat's decisions is always given: the number of those is
        bounded by the game itself (a player who asks once a turn is no flood). Only a pista
        asked again for the same decision draws from the seat's allowance."""
        settings = self.settings
        if self.asked.get(seat.seat) == v:
            spend(
                self.budget,
                seat.seat,
                "too many pistas for this decision",
                burst=settings.pista_burst,
                per_second=settings.pista_per_second,
            )
        self.asked[seat.seat] = v
        task = asyncio.get_running_loop().create_task(self._answer(conn, view, v, seed))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _answer(self, conn: Conn, view: SeatView, v: int, seed: str) -> None:
        action = await self.pool.pista(view, seed)
        if conn.closing is not None:
            return
        if action is None:
            conn.send(p.error(p.PISTA_UNAVAILABLE, "no pista could be computed; try again"))
        else:
            conn.send(p.encode("pista", {"v": v, "action": str(action)}))

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


def refuse(reason: str) -> TableError:
    return TableError(p.PISTA_UNAVAILABLE, reason)


__all__ = ["Pistas", "allowed", "refuse"]
