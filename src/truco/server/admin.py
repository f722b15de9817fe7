"""``truco admin``: what an operator asks of a server's database (docs/operations.md)."""

from __future__ import annotations

import asyncio
import json
import os

from truco.server.settings import sqlite_url
from truco.server.store.database import Store
from truco.server.store.schema import BrokenRow


def database_url(db: str) -> str:
    """``TRUCO_DATABASE_URL`` if set (as ``truco serve``), else the SQLite file ``db``."""
    return os.environ.get("TRUCO_DATABASE_URL") or sqlite_url(db)


async def broken_tables(url: str) -> list[BrokenRow]:
    store = Store(url)
    try:
        await store.migrate()
        return await store.broken()
    finally:
        await store.close()


def list_broken(db: str, as_json: bool) -> str:
    """The tables set aside because their log could not be replayed, one per line."""
    rows = asyncio.run(broken_tables(database_url(db)))
    if as_json:
        return json.dumps(
            [
                {"table": r.id, "created_at": r.created_at.isoformat(), "problem": r.problem}
                for r in rows
            ]
        )
    if not rows:
        return "no table is set aside"
    return "\n".join(f"{r.id}  {r.created_at:%Y-%m-%d %H:%M}  {r.problem}" for r in rows)


__all__ = ["broken_tables", "database_url", "list_broken"]
