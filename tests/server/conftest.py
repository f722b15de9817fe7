"""Fixtures of the server tests: the real app on a real SQLite file, and a WebSocket helper."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from server.clusterfix import backing, nodes  # noqa: F401 - one PostgreSQL and Redis per session
from server.helpers import serving
from truco.server import Settings, sqlite_url


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        database_url=sqlite_url(str(tmp_path / "truco.db")),
        bot_delay=0.0,
        deal_delay=0.0,
        grace_seconds=30.0,
        seed=7,
        # A test client is one address creating table after table: the limits on new tables
        # are tested on their own (test_floods.py).
        tables_burst=10**6,
        waiting_per_creator=10**6,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with serving(settings) as c:
        yield c
