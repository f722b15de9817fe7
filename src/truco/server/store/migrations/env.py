"""Alembic environment: run with the connection ``Store.migrate`` passes in ``attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from truco.server.store.schema import metadata

config = context.config


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url") or ""
    engine = engine_from_config(
        {"sqlalchemy.url": url.replace("+aiosqlite", "")},
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run_migrations()
