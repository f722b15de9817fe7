"""Bad input and a busy database get a JSON error with its code, never a bare 500 (issue 16,
point 9)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import create
from truco.server import Settings, create_app


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4.0},
        {"players": True},
        {"target": 30.0},
        {"flor": 1},
        {"variant": ["standard"]},
        {"falta": None},
    ],
)
def test_an_option_of_the_wrong_type_is_bad_options(
    client: TestClient, options: dict[str, Any]
) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "options": options})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "bad_options"
    name = next(iter(options))
    assert r.json()["message"].startswith(name)


def test_the_right_types_still_pass(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"name": "Ana", "options": {"players": 4, "target": 15, "flor": True}},
    )
    assert r.status_code == 201, r.text


def test_a_locked_database_answers_503_unavailable(settings: Settings) -> None:
    quick = settings.but(db_wait_seconds=0.2)
    app = create_app(quick)
    with TestClient(app, raise_server_exceptions=False) as c:
        table = create(c)["table"]
        locker = sqlite3.connect(quick.database_url.split("///", 1)[1], isolation_level=None)
        try:
            locker.execute("BEGIN EXCLUSIVE")
            r = c.post("/api/tables", json={"name": "Ana"})
            assert r.status_code == 503, r.text
            assert r.headers["content-type"] == "application/json"
            assert r.json()["code"] == "unavailable"
            r = c.post(f"/api/tables/{table}/seats", json={"name": "Beto"})
            assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        # Nothing was half made: the table is still waiting, and a new one can be created.
        assert c.get(f"/api/tables/{table}").json()["status"] == "waiting"
        assert c.post("/api/tables", json={"name": "Ana"}).status_code == 201
