"""A table's play: what its players say, the commits, and the decisions the table takes itself.

The owner task (``room.py``: its seats, connections and queue) parses and checks an action
once, commits its transition to the store, and only then acks it and sends each connection what
its seat may see (``fanout.py``). Bots, players whose turn time ran out and players who did not
come back within the grace period are driven here too, through the same path (``clock.py``).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from truco import protocol as p
from truco.engine import CHANCE, Transition, apply, to_act
from truco.errors import IllegalActionError
from truco.server.errors import TableError, unavailable
from truco.server.players import ratings
from truco.server.players.blocks import remove_seat
from truco.server.players.rated import Finish, Sitter
from truco.server.store.schema import Fenced, StoreUnavailable
from truco.server.tables import fanout, pista
from truco.server.tables.clock import decide, seeded
from truco.server.tables.conn import Conn
from truco.server.tables.room import (
    BROKEN,
    EXPIRED,
    FINISHED,
    PLAYING,
    WAITING,
    Room,
    check_rated,
)
from truco.server.tables.seats import (
    BOT,
    EMPTY,
    HUMAN,
    Seat,
)
from truco.state import OVER, State, new_match
from truco.view import observe

log = logging.getLogger("truco.server")


class Table(Room):
    """One table: a room (``room.py``) where a match is played."""

    async def receive(
        self, conn: Conn, raw: str | bytes, msg: p.Message | p.Unexpected | None = None
    ) -> None:
        """Handle one message from a client (``msg``: ``raw`` decoded, if it was already)."""
        if msg is None:
            msg = p.parse(raw)
        if isinstance(msg, p.Unexpected):
            conn.send(p.error(msg.code, msg.message, msg.a))
            return
        if isinstance(msg, p.Ping):
            conn.send(p.encode("pong", {}))
            return
        await self.submit(lambda: self._handle(conn, msg))

    async def _handle(self, conn: Conn, msg: p.Message) -> None:
        if conn.closing is not None:
            return
        a = msg.a if isinstance(msg, p.Act) else None
        if conn.seat is None and isinstance(msg, p.Pista):
            conn.send(p.error(p.PISTA_UNAVAILABLE, "a spectator gets no pista"))
            return
        if conn.seat is None:
            conn.send(p.error(p.NOT_SEATED, "spectators may only watch", a))
            return
        seat = self.seats[conn.seat]
        if seat.conn is not conn:
            return
        try:
            if isinstance(msg, p.Act):
                await self._act(conn, seat, msg)
            elif isinstance(msg, p.Chat):
                await self._chat(seat, msg)
            elif isinstance(msg, p.Sena):
                await self._sena(seat, msg)
            elif isinstance(msg, p.Rematch):
                await self._rematch(seat)
            elif isinstance(msg, p.Pista):
                self._pista(conn, seat)
        except TableError as exc:
            conn.send(p.error(exc.code, exc.message, a))

    async def _act(self, conn: Conn, seat: Seat, msg: p.Act) -> None:
        """A player's action, parsed once (``p.parse``) and checked once (``apply``): its
        transition is what the commit records."""
        text = str(msg.action)
        applied = seat.acked(msg.a, msg.v, text)
        if applied is not None:
            conn.send(p.encode("ack", {"a": msg.a, "v": applied}))
            return
        if self.state.phase == OVER:
            raise TableError(p.MATCH_OVER, "the match is over")
        if msg.v != self.v:
            raise TableError(
                p.STALE_VERSION,
                f"the action was chosen at version {msg.v}; the table is at {self.v}",
            )
        actor = to_act(self.state)
        if self.status != PLAYING or actor != seat.seat:
            whose = (
                "the match has not started"
                if self.status != PLAYING
                else ("the cards are being dealt" if actor == CHANCE else f"seat {actor} is to act")
            )
            raise TableError(p.NOT_YOUR_TURN, f"not your turn: {whose}")
        try:
            transition = apply(self.state, msg.action)
        except IllegalActionError as exc:
            raise TableError(p.ILLEGAL_ACTION, str(exc)) from None
        acked = await self._commit(
            "act", {"seat": seat.seat, "action": text}, transition, ack=(conn, msg.a)
        )
        seat.timeouts = 0
        seat.remember(msg.a, msg.v, text, self.v)
        if not acked:
            conn.send(p.encode("ack", {"a": msg.a, "v": self.v}))

    async def _chat(self, seat: Seat, msg: p.Chat) -> None:
        if not self._chat_budget.take(seat.seat):
            raise TableError(p.RATE_LIMITED, "too many messages; wait a little")
        at = datetime.now(UTC).isoformat(timespec="seconds")
        text = p.encode("chat", {"seat": seat.seat, "name": seat.name, "text": msg.text, "at": at})
        conns = self.connections()
        hidden = await self._hiding(seat, conns)
        fanout.send_all([c for c in conns if c not in hidden], text)

    async def kick(self, seat_no: int) -> None:
        """The creator removes the person (or bot) of ``seat_no`` before the match starts, at a
        casual table: her seat empties, her connection hears why and is closed, and her identity
        may not sit here again (``blocks.kicks_t``)."""

        async def run() -> None:
            if self.rated:
                raise TableError(p.SEAT_TAKEN, "nobody is removed from a rated table")
            if self.status != WAITING:
                raise TableError(p.SEAT_TAKEN, "the match has started: nobody is removed now")
            if not 0 < seat_no < len(self.seats) or self.seats[seat_no].kind == EMPTY:
                raise TableError(p.SEAT_TAKEN, f"nobody to remove in seat {seat_no}")
            seat = self.seats[seat_no]
            await remove_seat(self.store, self.id, seat_no, seat.player_id)
            if seat.conn is not None:
                seat.conn.send(
                    p.error(p.REMOVED, "the table's creator removed you from this table")
                )
                seat.conn.close(p.CLOSE_REMOVED, "removed by the table's creator")
                seat.conn = None
            self.clock.end_grace(seat)
            seat.name, seat.kind, seat.level, seat.token_hash = "", EMPTY, None, None
            seat.player_id, seat.replaced, seat.rematch, seat.spell_from = None, False, False, None
            seat.acks.clear()
            self._broadcast_table()

        await self.submit(run)

    async def _sena(self, seat: Seat, msg: p.Sena) -> None:
        if not self._chat_budget.take(seat.seat):
            raise TableError(p.RATE_LIMITED, "too many messages; wait a little")
        partners = [
            s.conn
            for s in self.seats
            if s.conn is not None and self.state.teams[s.seat] == self.state.teams[seat.seat]
        ]
        hidden = await self._hiding(seat, partners)
        self._senas.person(self.state, self.seats, seat, msg.sena, hidden)

    def _pista(self, conn: Conn, seat: Seat) -> None:
        """Start the pista for the seat's current decision (``server/pista.py``)."""
        if self.rated:
            raise pista.refuse("a rated table gives no pistas")
        if not pista.allowed(self.seats):
            raise pista.refuse("pistas are only for a person playing alone against bots")
        if self.status != PLAYING or to_act(self.state) != seat.seat:
            raise pista.refuse("a pista is only for your own turn")
        v = self.v
        seed = seeded(self.seed, "pista", v, seat.seat)
        self._pistas.start(conn, seat, observe(self.state, seat.seat), v=v, seed=seed)

    async def _rematch(self, seat: Seat) -> None:
        if self.state.phase != OVER:
            raise TableError(p.BAD_MESSAGE, "a rematch can only be asked once the match is over")
        seat.rematch = True
        if all(s.rematch or s.kind != HUMAN or s.replaced for s in self.seats):
            mano = (self._first_mano + 1) % self.rules.players
            fresh = Transition(new_match(self.rules, mano=mano), ())
            await self._commit("rematch", {"mano": mano}, fresh)
            for s in self.seats:  # a new match: nobody has stalled it
                s.timeouts, s.stalled, s.excused = 0, False, False
        self._broadcast_table()

    # --- committing -------------------------------------------------------------------------

    async def _commit(
        self,
        kind: str,
        data: dict[str, Any],
        transition: Transition,
        ack: tuple[Conn, int] | None = None,
    ) -> bool:
        """Commit one version: make its log entry durable, then record it and tell everyone.
        True if the ``ev`` to ``ack``'s connection acknowledged its action ``a``.

        The entry that ends a rated match moves the ratings in the same transaction."""
        status = FINISHED if transition.state.phase == OVER else PLAYING
        finish = self._finish(transition.state) if status == FINISHED else None
        try:
            changes = await self.store.append(
                self.id, self.v + 1, kind, data, status if status != self.status else None, finish
            )
        except StoreUnavailable as exc:
            raise unavailable(exc) from None
        except Fenced as exc:
            log.warning("table %s: %s; another process owns it now", self.id, exc)
            self._stopped = True
            for conn in self.connections():
                conn.close(p.CLOSE_MOVED, "the table moved to another server")
            if self.on_lost is not None:
                self.on_lost()
            raise TableError(
                p.UNAVAILABLE, "the table moved to another server; reconnect"
            ) from None
        if status != self.status and self.on_change is not None:
            self.on_change()
        self.status = status
        if self._record(kind, transition):
            self._readings.hand_end(self.state, self.seats)  # in the pool: the table goes on
        self._changes = changes if isinstance(changes, p.Rated) else None
        self._schedule()
        acked = self._broadcast_version(kind, ack)
        if self._changes is not None:
            fanout.send_all(self.connections(), p.encode("rated", p.rated_json(self._changes)))
        self._senas.bots(self.state, self.seats)
        return acked

    def _finish(self, state: State) -> Finish | None:
        """What the end of this match writes with it: its result for the ratings (None: the
        table is not rated). A person a bot plays for at the end left for good."""
        mode = ratings.mode_of(self.rules)
        if not self.rated or mode is None:
            return None
        sitters = tuple(
            Sitter(
                seat=s.seat,
                name=s.name,
                team=state.teams[s.seat],
                player_id=s.player_id if s.kind == HUMAN else None,
                level=s.level if s.kind == BOT else None,
                left=s.kind == HUMAN and (s.replaced or s.stalled),
                excused=s.kind == HUMAN and s.replaced and s.excused and not s.stalled,
            )
            for s in self.seats
        )
        return Finish(
            self.id,
            self.match,
            mode,
            state.winner,
            sitters,
            self.settings.rated_pair_per_day,
            points=state.score,
        )

    def _ran_out(self, seat: Seat) -> None:
        """``seat``'s person let his turn clock run out (a bot moved for him). At
        ``Settings.stall_timeouts`` in a row he stalls a rated match: he is rated as having left,
        and the rivals still there may leave without a loss (docs/players.md)."""
        seat.timeouts += 1
        if not self.rated or seat.stalled or seat.timeouts < self.settings.stall_timeouts:
            return
        rivals = [
            s
            for s in self.seats
            if s.kind == HUMAN
            and not s.replaced
            and self.state.teams[s.seat] != self.state.teams[seat.seat]
        ]
        if rivals:  # stalling against nobody (they all left) is no stalling
            seat.stalled = True
            for s in rivals:
                s.excused = True

    def abandoned(self) -> Finish | None:
        """What a rated table of one person and bots writes when it expires while she is away:
        her loss, as if she had left for good (None: not rated)."""
        mode = ratings.mode_of(self.rules)
        people = [s for s in self.seats if s.kind == HUMAN]
        if not self.rated or mode is None or len(people) != 1:
            return None
        teams = self.state.teams
        sitters = tuple(
            Sitter(
                seat=s.seat,
                name=s.name,
                team=teams[s.seat],
                player_id=s.player_id if s.kind == HUMAN else None,
                level=s.level if s.kind == BOT else None,
                left=s.kind == HUMAN,
            )
            for s in self.seats
        )
        return Finish(
            self.id, self.match, mode, 1 - teams[people[0].seat], sitters, points=self.state.score
        )

    def _schedule(self) -> None:
        """Arm the timer of the next decision (``clock.py``)."""
        self.clock.cancel()
        if self.status != PLAYING or self.held():
            return
        v = self.v
        self.clock.arm(self.state, self.seats, lambda: self._drive(v))

    async def _drive(self, v: int) -> None:
        """The timer of version ``v`` fired: deal, or let a bot choose for the seat to act."""
        if v != self.v or self.status != PLAYING or self.held() or to_act(self.state) is None:
            return
        try:
            actor = to_act(self.state)
            heard = self._senas.heard(self.state, actor) if actor is not None else ()
            read = self._readings.reading(actor) if actor is not None else None
            kind, data, transition = await decide(
                self._pool,
                self.settings,
                self.state,
                self.seats,
                self.seed,
                self.v,
                heard=heard,
                reading=read,
            )
            late = self.seats[actor] if actor is not None and actor >= 0 else None
            await self._commit(kind, data, transition)
            if late is not None and late.kind == HUMAN and not late.replaced:
                self._ran_out(late)
        except TableError as exc:
            # The database is away: the same decision is tried again (its choice is seeded by
            # the version, so it is the same one) until the write goes through.
            log.warning("table %s: %s; retrying", self.id, exc.message)
            if not self._stopped:
                self.clock.retry(lambda: self._drive(v))


__all__ = ["BROKEN", "EXPIRED", "FINISHED", "PLAYING", "WAITING", "Table", "check_rated"]
