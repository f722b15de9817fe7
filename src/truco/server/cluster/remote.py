"""A player whose WebSocket reached a process that does not own the table.

The owner keeps a ``RelayConn`` in the seat, exactly where a local connection would be: the
table filters what the seat may see as always, and the relay publishes each frame to the
process that holds the socket. That process has a ``RemoteTable`` in place of the table: it
forwards the player's messages and the HTTP requests to the owner, and feeds the frames it gets
back into the player's ordinary ``Conn``.
"""

from __future__ import annotations

import secrets
from typing import Any

from truco import protocol as p
from truco.notation import HandHistory, loads
from truco.server.cluster.coordinator import Coordinator
from truco.server.errors import TableError
from truco.server.tables.conn import Conn
from truco.server.tables.seats import Seat, find_seat

Relayed = dict[str, tuple[Conn, "RemoteTable"]]
"""The socket side's players at tables other processes own, by connection id."""


class RelayConn(Conn):
    """The owner's side of a relayed connection: every frame goes to the node that holds it."""

    def __init__(self, bus: Coordinator, node: str, cid: str, table_id: str, **limits: Any):
        super().__init__(**limits)
        self.bus = bus
        self.node = node
        self.cid = cid
        self.table_id = table_id

    def send(self, text: str) -> None:
        if self.closing is None:
            self.bus.send(self.node, "f", self.cid, text)

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.bus.send(self.node, "x", self.cid, f"{code} {reason}")


class RemoteTable:
    """A table owned by another process: a ``TableHandle`` (``handle.py``) that forwards to it."""

    def __init__(
        self,
        bus: Coordinator,
        relayed: Relayed,
        table_id: str,
        *,
        owner: str,
        snapshot: dict[str, Any],
    ):
        self.bus = bus
        self.relayed = relayed
        self.id = table_id
        self.owner = owner
        self._info: dict[str, Any] = snapshot["info"]
        self._hashes: dict[int, str] = {s: h for s, h in snapshot["tokens"]}
        self._hands: list[str] = snapshot["hands"]
        self._cids: dict[Conn, str] = {}

    @classmethod
    async def fetch(
        cls, bus: Coordinator, relayed: Relayed, table_id: str, owner: str
    ) -> RemoteTable:
        # A dead owner would only time out: say so at once, its lease is about to lapse.
        if owner not in await bus.alive([owner]):
            raise TableError(p.UNAVAILABLE, "the server that held the table is gone; try again")
        snapshot = await _call(bus, owner, "snapshot", table_id=table_id, args={})
        return cls(bus, relayed, table_id, owner=owner, snapshot=snapshot)

    def info(self) -> dict[str, Any]:
        return self._info

    @property
    def hands(self) -> list[HandHistory]:
        return [loads(text) for text in self._hands]

    def find_seat(self, token: str) -> Seat | None:
        seats = []
        for seat, stored in self._hashes.items():
            s = self._info["seats"][seat]
            seats.append(Seat(seat, s["name"], s["kind"], s["level"], stored))
        return find_seat(seats, token)

    async def join(
        self, name: str, seat_no: int | None, player_id: str | None = None
    ) -> tuple[int, str]:
        args = {"name": name, "seat": seat_no, "player_id": player_id}
        seat, token = await _call(self.bus, self.owner, "join", table_id=self.id, args=args)
        return int(seat), str(token)

    async def add_bot(self, seat_no: int, level: str) -> None:
        args = {"seat": seat_no, "level": level}
        self._info = await _call(self.bus, self.owner, "add_bot", table_id=self.id, args=args)

    async def kick(self, seat_no: int) -> None:
        args = {"seat": seat_no}
        self._info = await _call(self.bus, self.owner, "kick", table_id=self.id, args=args)

    async def connect(
        self, conn: Conn, token: str | None, last_v: int, player_id: str | None = None
    ) -> None:
        cid = f"{self.bus.node}.{secrets.token_hex(6)}"
        # Registered before asking: the owner's first frames may come before its answer.
        self.relayed[cid] = (conn, self)
        self._cids[conn] = cid
        args = {
            "cid": cid,
            "node": self.bus.node,
            "token": token,
            "last_v": last_v,
            "player_id": player_id,
        }
        try:
            await _call(self.bus, self.owner, "connect", table_id=self.id, args=args)
        except TableError:
            self._forget(conn)
            raise

    async def receive(
        self, conn: Conn, raw: str | bytes, msg: p.Message | p.Unexpected | None = None
    ) -> None:
        # The text goes to the owner as it came: the owner's table decodes it in its process.
        cid = self._cids.get(conn)
        if cid is not None and conn.closing is None:
            text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
            self.bus.send(self.owner, "m", cid, text)

    async def disconnect(self, conn: Conn) -> None:
        cid = self._forget(conn)
        if cid is not None:
            self.bus.send(self.owner, "g", cid, "-")

    def _forget(self, conn: Conn) -> str | None:
        cid = self._cids.pop(conn, None)
        if cid is not None:
            self.relayed.pop(cid, None)
        return cid


async def _call(bus: Coordinator, node: str, method: str, *, table_id: str, args: Any) -> Any:
    try:
        return await bus.call(node, method, table_id, args)
    except TableError as exc:
        code = exc.code if exc.code in p.ERROR_CODES else p.UNAVAILABLE
        raise TableError(code, exc.message) from None


__all__ = ["RelayConn", "Relayed", "RemoteTable"]
