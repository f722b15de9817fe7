"""Torneos in a cluster: two server processes share one tournament; its rounds run in the one
that holds the lease, and when that one dies the other takes the lease and plays the arena to
its end (real PostgreSQL, Redis and processes)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import redis

from server.clusterfix import Nodes, cluster
from server.helpers import WAIT

pytestmark = cluster

LEASE = "truco:lease:tournaments"


def test_one_process_pairs_and_the_other_takes_over_when_it_dies(nodes: Nodes) -> None:
    nodes.env["TRUCO_TOURNAMENT_TICK"] = "0.2"
    nodes.env["TRUCO_TOURNAMENT_TURN_SECONDS"] = "0.01"
    nodes.env["TRUCO_RATED_TURN_MIN"] = "0.01"
    nodes.env["TRUCO_BOT_DELAY"] = "0"
    a, b = nodes.start("node-a"), nodes.start("node-b")
    servers = {a.node: a, b.node: b}
    red = redis.Redis.from_url(nodes.backing.redis.url, decode_responses=True)
    with httpx.Client(timeout=30) as ana, httpx.Client(timeout=30) as beto:
        ana.get(f"{a.base}/api/tables")
        beto.get(f"{b.base}/api/tables")
        r = ana.post(
            f"{a.base}/api/tournaments",
            json={"name": "Arena", "minutes": 1, "target": 15, "starts_in": 0},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        # One joins through each process: the rows are shared.
        assert ana.post(f"{a.base}/api/tournaments/{tid}/players", json={"name": "Ana"}).is_success
        assert beto.post(
            f"{b.base}/api/tournaments/{tid}/players", json={"name": "Beto"}
        ).is_success

        def look(base: str) -> dict[str, Any]:
            return dict(httpx.get(f"{base}/api/tournaments/{tid}", timeout=30).json())

        def watch(base: str, done: Any) -> dict[str, Any]:
            end = time.monotonic() + 4 * WAIT  # a hang guard only
            while True:
                seen = look(base)
                # One round at a time, wherever it runs: never two open tables for the two.
                assert sum(g["winner"] is None for g in seen["games"]) <= 1, seen["games"]
                if done(seen):
                    return seen
                assert time.monotonic() < end, seen
                time.sleep(0.1)

        seen = watch(b.base, lambda s: any(g["winner"] is not None for g in s["games"]))
        holder = red.get(LEASE)
        assert holder in servers
        # The holder opened the tables: it holds their leases too.
        assert all(red.get(f"truco:lease:{g['table']}") in (holder, None) for g in seen["games"])
        servers[holder].kill()
        other = next(s for n, s in servers.items() if n != holder)
        seen = watch(other.base, lambda s: s["tournament"]["status"] == "over")
        assert red.get(LEASE) == other.node
        games = seen["games"]
        assert len(games) >= 2 and all(g["winner"] is not None for g in games)
        scores = {r["name"]: r["score"] for r in seen["standings"]}
        assert sum(scores.values()) == len(games)
        assert {r["name"]: r["games"] for r in seen["standings"]} == {
            "Ana": len(games),
            "Beto": len(games),
        }
