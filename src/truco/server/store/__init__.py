"""The database: its tables and rows, the store the tables write their log through, and the
Alembic migrations that build it."""
