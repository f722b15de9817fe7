"""Players in a cluster (real PostgreSQL, Redis and two ``truco serve`` processes): every process
signs the identity cookie alike (its secret is in the database), and a player's seat is taken
back with no token through the process that does not own the table (relayed)."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from server.clusterfix import Nodes, cluster

pytestmark = cluster

PASSWORD = "mate cocido 1234"


def test_a_player_is_the_same_on_every_process(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    with httpx.Client(base_url=a.base, timeout=10) as on_a:
        claimed = on_a.post("/api/me/name", json={"name": "Ana Laura", "password": PASSWORD})
        assert claimed.status_code == 200, claimed.text
        me = claimed.json()["id"]
        table = on_a.post("/api/tables", json={"name": "Ana", "bots": {"1": "random"}}).json()
        cookie = on_a.cookies["truco_player"]
    # The cookie node-a signed is good on node-b (no TRUCO_SECRET: the database's secret).
    with httpx.Client(base_url=b.base, timeout=10) as on_b:
        on_b.cookies.set("truco_player", cookie)
        seen = on_b.get("/api/me").json()
        assert seen["id"] == me and seen["name"] == "Ana Laura"
        assert seen["seats"] == [{"table": table["table"], "seat": 0}]
    # The table lives on node-a; a socket on node-b with the cookie alone takes the seat.
    ws_b = b.base.replace("http", "ws", 1) + f"/ws/tables/{table['table']}"
    with connect(
        ws_b,
        subprotocols=[Subprotocol("truco"), Subprotocol("player")],
        additional_headers={"Cookie": f"truco_player={cookie}"},
        open_timeout=10,
    ) as ws:
        while True:
            msg = json.loads(ws.recv(30))
            if msg["t"] == "full":
                break
        assert msg["d"]["seat"] == 0
        # The table deals once its one person came: her own hand, she is seated, not watching.
        while msg["t"] != "ev":
            msg = json.loads(ws.recv(30))
        assert msg["d"]["view"]["cards"]
