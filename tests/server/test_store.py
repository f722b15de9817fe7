"""The Alembic migrations build exactly the schema the store's code describes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from truco.server.settings import sqlite_url
from truco.server.store.database import Store
from truco.server.store.schema import metadata


def test_migrations_match_the_tables(tmp_path: Path) -> None:
    db = tmp_path / "m.db"

    async def migrate() -> None:
        store = Store(sqlite_url(str(db)))
        await store.migrate()
        await store.migrate()  # a second run is a no-op
        await store.close()

    asyncio.run(migrate())
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
    engine.dispose()
    assert mode == "wal"
