"""The sessions of players who claimed a name: which devices are logged in.

A visitor who never claimed a name is his cookie: there is nothing to end. Once a player claims
a name, each device it is logged in on holds a session, a random id named in its cookie
(``identity.py``): claiming or logging in opens one, logging out ends that one, and "cerrar las
otras sesiones" or a new password end all the player's others. A claimed player's cookie that
names no open session (an old one, a copy kept after logout) is no longer that player: the
request gets a fresh anonymous identity, as a forged cookie does.

Every request is checked against the store; a process trusts what it checked for
``Settings.session_check_seconds`` (1 s), so that a page's bursts of requests cost one read. In
the process that ended a session it ends at once; in the others of a cluster, within that time.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select

from truco.server.store.database import Store
from truco.server.store.schema import players_t, sessions_t

CHECKS_KEPT = 10_000
"""Checks a process remembers at most (then it forgets them all and reads again)."""


def new_session_id() -> str:
    return secrets.token_hex(16)


class Sessions:
    """The open sessions, in the store, and the checks of this process."""

    def __init__(self, store: Store, trust_seconds: float) -> None:
        self.store = store
        self.trust_seconds = trust_seconds
        self._checked: dict[tuple[str, str], tuple[bool, float]] = {}

    async def open(self, player_id: str) -> str:
        """A new session of ``player_id``: its id, for the device's cookie."""
        session = new_session_id()
        async with self.store.writing() as conn:
            await conn.execute(
                insert(sessions_t).values(
                    id=session, player_id=player_id, created_at=datetime.now(UTC)
                )
            )
        self._forget(player_id)
        return session

    async def end(self, player_id: str, session: str) -> None:
        """End one session (a logout)."""
        async with self.store.writing() as conn:
            await conn.execute(
                delete(sessions_t).where(
                    sessions_t.c.id == session, sessions_t.c.player_id == player_id
                )
            )
        self._forget(player_id)

    async def end_others(self, player_id: str, keep: str) -> int:
        """End every session of ``player_id`` but ``keep``; how many were ended."""
        async with self.store.writing() as conn:
            done = await conn.execute(
                delete(sessions_t).where(
                    sessions_t.c.player_id == player_id, sessions_t.c.id != keep
                )
            )
        self._forget(player_id)
        return int(done.rowcount or 0)

    async def valid(self, player_id: str, session: str) -> bool:
        """Whether a cookie of ``player_id`` naming ``session`` ('' for none) is still the
        player's: an open session of his, or no session for a player who never claimed a name."""
        key = (player_id, session)
        now = time.monotonic()
        found = self._checked.get(key)
        if found is not None and found[1] > now:
            return found[0]
        async with self.store.reading() as conn:
            if session:
                row = await conn.execute(
                    select(sessions_t.c.id).where(
                        sessions_t.c.id == session, sessions_t.c.player_id == player_id
                    )
                )
                ok = row.first() is not None
            else:
                row = await conn.execute(
                    select(players_t.c.name_key).where(players_t.c.id == player_id)
                )
                named = row.first()
                ok = named is None or named.name_key is None
        if len(self._checked) >= CHECKS_KEPT:
            self._checked.clear()
        self._checked[key] = (ok, now + self.trust_seconds)
        return ok

    def _forget(self, player_id: str) -> None:
        for key in [k for k in self._checked if k[0] == player_id]:
            del self._checked[key]


__all__ = ["CHECKS_KEPT", "Sessions", "new_session_id"]
