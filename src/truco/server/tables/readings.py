"""What a table's expert bots have read of their rivals (docs/bots.md, "Reading the rivals").

The bot pool shares one bot per level and persona among every table of a worker, so a bot's
reading cannot live in the bot: the table keeps one ``rivals.Reading`` (the rivals' types) per
bot seat that reads, for the match being played. At the end of each hand it has the pool read
the hand from that seat's own view (``BotPool.read``: 50 to 100 ms in a worker, never on the
loop) and adds the evidence when it comes; each decision of the seat takes a copy of the
reading along (``reading``, in the bot's ``Situation``: ``BotPool.choose``).

The table never waits for a reading: the next hand is dealt ``deal_delay`` (1.5 s) later, so the
evidence is in before the bot's first decision of that hand unless the pool is very busy; then
that decision goes without it, and it is added when it arrives. A reading the pool could not
give (a worker lost, no answer within ``bot_seconds``) leaves that hand unread. A new match (a
rematch) starts a fresh reading, and evidence of the old one arriving late is dropped. The
reading is held in memory only: after a restart or a takeover the bots read from the next hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from truco.bots.rival_types import reads_types
from truco.bots.rivals import Reading, Snapshot
from truco.server.tables import botpool
from truco.server.tables.botpool import BotPool
from truco.server.tables.seats import BOT, Seat
from truco.state import OVER, State
from truco.view import SeatView, observe

log = logging.getLogger("truco.server.bots")


class TableReadings:
    """The readings of one table's bot seats over its current match."""

    def __init__(self, pool: BotPool) -> None:
        self.pool = pool
        self.readings: dict[int, Reading] = {}
        """Per bot seat that reads, once a hand's evidence came in."""
        self.match = 0
        """Counts the matches, so that late evidence of an earlier one is dropped."""
        self.tasks: set[asyncio.Task[None]] = set()
        """Readings under way (kept so that they are not collected, and stopped with the table)."""

    def hand_end(self, state: State, seats: Sequence[Seat]) -> None:
        """A hand ended in ``state``: read it from the view of each bot seat that reads (not at
        the end of the match: no decision of it is left to use the reading; nor at a table
        whose rivals are not read by type, ``rival_types.reads_types``)."""
        if state.phase == OVER or not reads_types(state.rules):
            return
        loop = asyncio.get_running_loop()
        for seat in seats:
            if seat.kind == BOT and seat.level and botpool.reads(seat.level, seat.name):
                view = observe(state, seat.seat)
                task = loop.create_task(self._read(seat.seat, view, self.match))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def _read(self, seat: int, view: SeatView, match: int) -> None:
        try:
            evidence = await self.pool.read(view)
        except Exception:  # a reading is never worth failing anything: the hand goes unread
            log.exception("reading hand %d for seat %d failed", view.hand_no, seat)
            return
        if evidence is not None and match == self.match:
            self.readings.setdefault(seat, Reading()).absorb(evidence)

    def snapshot(self, seat: int) -> Snapshot | None:
        """What the seat's bot has read so far, for its decision (None: nothing yet)."""
        reading = self.readings.get(seat)
        return None if reading is None else reading.snapshot()

    def reading(self, seat: int) -> Reading | None:
        """What the seat's bot has read so far, for its decision (None: nothing yet). A copy: the
        decision travels to a worker while the table goes on adding evidence."""
        snapshot = self.snapshot(seat)
        return None if snapshot is None else Reading.restored(snapshot)

    def restart(self) -> None:
        """A new match: read from scratch."""
        self.match += 1
        self.readings.clear()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


__all__ = ["TableReadings"]
