"""nginx in front of two processes, each table's traffic sent to the process that made it (its
id's prefix): nobody relayed while the maker lives, and the other process takes over when it
dies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import redis

from server.clusterfix import Nodes, Socket, cluster, create, join, reconnect
from tools import localcluster as lc
from truco.server.cluster.coordinator import lease_key

pytestmark = [
    *cluster,
    pytest.mark.skipif(lc.nginx_bin() is None, reason="needs nginx-light (.ci/run installs it)"),
]


def sockets_opened(nodes: Nodes, server: lc.Server) -> set[str]:
    """The tables whose WebSockets ``server`` accepted (its access log)."""
    return set(
        re.findall(r'"WebSocket /ws/tables/([0-9a-f]+)[^"]*" \[accepted\]', nodes.log(server))
    )


def test_each_table_is_served_by_the_process_that_made_it(nodes: Nodes, tmp_path: Path) -> None:
    one, two = nodes.start("node-1", prefix="1"), nodes.start("node-2", prefix="2")
    proxy = lc.Proxy(tmp_path, [one, two])
    proxy.start()
    try:
        leases = redis.Redis.from_url(nodes.backing.redis.url, decode_responses=True)
        # nginx spreads the creations over both processes; each id starts with its maker's prefix
        # and its maker holds the lease.
        made = [create(proxy.base, options={"players": 2}) for _ in range(4)]
        tables = {t["table"]: t for t in made}
        makers = {t: str(leases.get(lease_key(t))) for t in tables}
        assert set(makers.values()) == {"node-1", "node-2"}, makers
        for t, node in makers.items():
            assert t.startswith({"node-1": "1", "node-2": "2"}[node]), (t, node)
        # Seats and sockets through nginx reach the owner: no process accepted a socket of a
        # table it does not own, so nobody is relayed.
        players = {
            t: (Socket(proxy.base, t, created["token"]), Socket(proxy.base, t, join(proxy.base, t)))
            for t, created in tables.items()
        }
        for ana, beto in players.values():
            ana.until("full")
            beto.until("full")
        opened = {s.node: sockets_opened(nodes, s) for s in (one, two)}
        assert opened == {
            node: {t for t, maker in makers.items() if maker == node} for node in opened
        }, (opened, makers)
        # The maker dies: its tables' sockets, through nginx, reach the other process, which
        # serves them once their leases lapse.
        lost = next(t for t, node in makers.items() if node == "node-1")
        v = players[lost][0].v
        one.kill()
        back = reconnect([proxy.base], lost, tables[lost]["token"], v)
        assert back.v >= v
        assert leases.get(lease_key(lost)) == "node-2"
        back.close()
        for pair in players.values():
            for s in pair:
                s.close()
    finally:
        proxy.stop()
