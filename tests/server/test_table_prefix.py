"""``TRUCO_TABLE_PREFIX``: the ids of a process's tables start with it, so that a proxy can send
each table's traffic to the process that made it (test_cluster_homes.py runs it behind nginx)."""

from __future__ import annotations

import pytest

from server.helpers import create, serving
from truco.server import Settings


def test_every_table_id_starts_with_the_prefix(settings: Settings) -> None:
    with serving(settings.but(table_prefix="3f")) as client:
        ids = [create(client)["table"] for _ in range(20)]
        assert client.get(f"/api/tables/{ids[0]}").status_code == 200
    assert all(t.startswith("3f") and len(t) == 12 for t in ids), ids
    assert len(set(ids)) == 20  # the rest is still random


@pytest.mark.parametrize("prefix", ["xyz", "3F", "12345", "1-"])
def test_a_prefix_that_is_not_hex_digits_is_refused(
    prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRUCO_TABLE_PREFIX", prefix)
    with pytest.raises(ValueError, match="at most 4 hex digits"):
        Settings.from_env()
