"""The Alembic migrations build exactly the schema the store's code describes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from truco.server.settings import sqlite_url
from truco.server.store import migrations
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


def test_migration_0012_gives_claimed_names_their_skeleton(tmp_path: Path) -> None:
    """Names claimed before migration 0012 get their look stored by it, as claims after it do."""
    from alembic import command
    from alembic.config import Config

    from truco.server.players.names import name_skeleton

    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0010")
        conn.exec_driver_sql(
            "INSERT INTO truco_players (id, name, name_key, created_at, last_seen) VALUES "
            "('a', 'Ana', 'ana', '2026-01-01', '2026-01-01'), "
            "('b', 'D\u043en Pepe', 'd\u043en pepe', '2026-01-01', '2026-01-01'), "
            "('c', NULL, NULL, '2026-01-01', '2026-01-01')"
        )
        command.upgrade(config, "0012")
        rows: dict[str, str | None] = dict(
            conn.exec_driver_sql("SELECT id, name_skeleton FROM truco_players").tuples().all()
        )
        command.downgrade(config, "0010")
    engine.dispose()
    assert rows == {"a": "ana", "b": name_skeleton("Don Pepe"), "c": None}
