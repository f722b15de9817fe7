"""Which claimed players one browser has been: a signed cookie of their ids, and the pairs of
players who shared a browser, in the database (docs/players.md, "Rated play is fair").

The cookie ``truco_seen`` lists the players (at most ``SEEN_KEPT``, the latest last) this browser
claimed a name or logged in as; it is signed like the identity cookie, so a browser cannot claim
a history it does not have, and it survives logouts. It serves twice:

- a login as a player this browser has been is *known*: its password check does not wait behind
  a flood of strangers' checks (``accounts.Hashing``);
- two players one browser has been are *linked* (``shared_t``): a rated match between linked
  players moves no rating (``rated.Finish``). Two people behind one home network, each on his
  own browser, are not linked: an address is never a reason here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime
from itertools import combinations
from typing import Final

from fastapi import Request, Response
from sqlalchemy import Column, DateTime, String, Table, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from truco.server.store.database import Store, insert_new
from truco.server.store.schema import metadata

COOKIE: Final = "truco_seen"
SEEN_KEPT: Final = 8
"""Players one browser's cookie remembers (the oldest is forgotten first)."""
MAX_AGE: Final = 400 * 24 * 3600

shared_t = Table(
    "truco_shared",
    metadata,
    Column("player_a", String(32), primary_key=True),
    Column("player_b", String(32), primary_key=True),
    Column("seen_at", DateTime(timezone=True), nullable=False),
)
"""Two players one browser has been (``player_a`` < ``player_b``)."""


def _mac(key: bytes, payload: str) -> str:
    mac = hmac.new(key, b"truco seen\0" + payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def seen(request: Request, key: bytes) -> list[str]:
    """The players this browser has been (none for a missing or forged cookie)."""
    value = request.cookies.get(COOKIE, "")
    payload, _, mac = value.partition(".")
    if not payload or not hmac.compare_digest(_mac(key, payload), mac):
        return []
    ids = payload.split("-")
    if not all(len(i) == 32 and all(c in "0123456789abcdef" for c in i) for i in ids):
        return []
    return ids[-SEEN_KEPT:]


def remember(
    response: Response, key: bytes, before: list[str], player_id: str, secure: bool
) -> None:
    """Add ``player_id`` to the browser's cookie."""
    ids = [i for i in before if i != player_id][-(SEEN_KEPT - 1) :] + [player_id]
    payload = "-".join(ids)
    cookie = (
        f"{COOKIE}={payload}.{_mac(key, payload)}; Max-Age={MAX_AGE}; Path=/; HttpOnly; "
        "SameSite=Lax"
    )
    response.headers.append("set-cookie", cookie + ("; Secure" if secure else ""))


async def link(store: Store, before: list[str], player_id: str) -> None:
    """Record that one browser has been ``player_id`` and each of ``before``."""
    others = sorted({i for i in before if i != player_id})
    if not others:
        return
    now = datetime.now(UTC)
    rows = [
        {"player_a": min(o, player_id), "player_b": max(o, player_id), "seen_at": now}
        for o in others
    ]
    async with store.writing() as conn:
        await conn.execute(insert_new(conn, shared_t).values(rows))


async def linked(conn: AsyncConnection, people: list[str]) -> set[tuple[str, str]]:
    """The pairs (a < b) among ``people`` one browser has been."""
    if len(people) < 2:
        return set()
    pairs = {(min(a, b), max(a, b)) for a, b in combinations(set(people), 2)}
    rows = (
        await conn.execute(
            select(shared_t.c.player_a, shared_t.c.player_b).where(
                or_(*((shared_t.c.player_a == a) & (shared_t.c.player_b == b) for a, b in pairs))
            )
        )
    ).all()
    return {(r.player_a, r.player_b) for r in rows}


__all__ = ["COOKIE", "SEEN_KEPT", "link", "linked", "remember", "seen", "shared_t"]
