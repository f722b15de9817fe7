"""The connection outbox: one client connection as a table sees it.

The WebSocket endpoint (``app.py``) drains it; the cluster's relay (``remote.RelayConn``) is
one too, forwarding each frame to the process that holds the socket.
"""

from __future__ import annotations

import asyncio
from collections import deque

from truco import protocol as p


class Conn:
    """A seat (None: spectator) and a bounded outbox.

    The WebSocket endpoint drains ``pending`` when ``wake`` is set, and closes the socket with
    ``closing`` once it is set. A client that does not read fast enough is closed, never queued
    without bound.
    """

    def __init__(self, limit: int = 512) -> None:
        self.seat: int | None = None
        self.player: str | None = None
        """The player identity behind it, when known: the seat's, or a spectator's who
        connected as a player (moderation hides from it what that player mutes or blocks)."""
        self.limit = limit
        self.pending: deque[str] = deque()
        self.wake = asyncio.Event()
        self.closing: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if len(self.pending) >= self.limit:
            self.close(p.CLOSE_TRY_AGAIN, "too slow")
            return
        self.pending.append(text)
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.wake.set()


__all__ = ["Conn"]
