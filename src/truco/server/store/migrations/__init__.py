"""Alembic migrations of the server's database (run on start-up by ``Store.migrate``)."""
