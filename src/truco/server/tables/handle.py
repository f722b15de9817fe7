"""``TableHandle``: a table as the app and the cluster drive it, wherever it lives.

``Table`` (owned by this process) and ``RemoteTable`` (owned by another process of a cluster,
reached through Redis) both have these members, so ``app.py`` and ``cluster_hub.py`` hold either
without knowing which, and without a ``cast``.
"""

from __future__ import annotations

from typing import Any, Protocol

from truco import protocol as p
from truco.notation import HandHistory
from truco.server.tables.conn import Conn
from truco.server.tables.seats import Seat


class TableHandle(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def hands(self) -> list[HandHistory]:
        """The finished hands of the current match."""
        ...

    def info(self) -> dict[str, Any]:
        """The table object of ``GET /api/tables/{id}`` and of the ``table`` message."""
        ...

    def find_seat(self, token: str) -> Seat | None: ...

    async def join(
        self, name: str, seat_no: int | None, player_id: str | None = None
    ) -> tuple[int, str]:
        """Seat a person (``player_id``: the player's identity, if known); returns the seat and
        its token."""
        ...

    async def add_bot(self, seat_no: int, level: str) -> None: ...

    async def kick(self, seat_no: int) -> None:
        """Empty a seat before the match starts and bar its person (the creator's choice)."""
        ...

    async def connect(
        self, conn: Conn, token: str | None, last_v: int, player_id: str | None = None
    ) -> None:
        """Bind ``conn`` to the seat of ``token``, or without one to the seat of ``player_id``
        (None: a spectator), and catch it up."""
        ...

    async def receive(
        self, conn: Conn, raw: str | bytes, msg: p.Message | p.Unexpected | None = None
    ) -> None:
        """Handle one message from a client: ``raw`` as it came, ``msg`` the same decoded when
        the caller decoded it already (the socket's reader does, for its own checks)."""
        ...

    async def disconnect(self, conn: Conn) -> None: ...


__all__ = ["TableHandle"]
