"""Amigos in a cluster (real PostgreSQL, Redis and two ``truco serve`` processes): a friend whose
page asks one process is online, at his table, to a player who asks the other; an invitation
sent through one process is seen through the other; presence lapses when the page stops asking
(docs/players.md, "Amigos")."""

from __future__ import annotations

import time
from typing import Any

import httpx

from server.clusterfix import Nodes, cluster

pytestmark = cluster


def claim(client: httpx.Client, name: str) -> None:
    r = client.post("/api/me/name", json={"name": name, "password": f"clave de {name} 2026"})
    assert r.status_code == 200, r.text


def friends(client: httpx.Client) -> dict[str, Any]:
    r = client.get("/api/me/friends")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_friends_across_two_processes(nodes: Nodes) -> None:
    nodes.env["TRUCO_PRESENCE_SECONDS"] = "2"
    a, b = nodes.start("node-a"), nodes.start("node-b")
    with (
        httpx.Client(base_url=a.base, timeout=10) as ana,
        httpx.Client(base_url=b.base, timeout=10) as beto,
    ):
        claim(ana, "Ana")
        claim(beto, "Beto")
        assert ana.post("/api/me/friends", json={"name": "Beto"}).status_code == 200
        assert friends(ana)["friends"] == [{"name": "Beto", "online": False, "tables": []}]
        # Beto sits at a table of node-b's and his page asks node-b for his friends.
        table = beto.post("/api/tables", json={"name": "Beto", "bots": {}})
        assert table.status_code == 201, table.text
        table_id = table.json()["table"]
        friends(beto)
        seen = friends(ana)["friends"]
        assert seen == [
            {
                "name": "Beto",
                "online": True,
                "tables": [{"table": table_id, "invite": f"/t/{table_id}"}],
            }
        ]
        # He invites her through node-b; she sees it through node-a.
        assert beto.post("/api/me/friends", json={"name": "Ana"}).status_code == 200
        sent = beto.post("/api/me/invites", json={"name": "Ana", "table": table_id})
        assert sent.status_code == 201, sent.text
        got = friends(ana)["invites"]
        assert [(i["name"], i["table"]) for i in got] == [("Beto", table_id)]
        # His page stops asking: within the presence's 2 s he is offline (a hang guard only).
        deadline = time.monotonic() + 60
        while friends(ana)["friends"][0]["online"]:
            assert time.monotonic() < deadline, "Beto never went offline"
            time.sleep(0.25)
        assert friends(ana)["friends"] == [{"name": "Beto", "online": False, "tables": []}]
