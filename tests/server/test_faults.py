"""Faults of a cluster, for real: a server process killed with SIGKILL in the middle of hands,
Redis restarted mid-game, PostgreSQL away for a while. Every game resumes; no acknowledged action
is lost or applied twice (the log in PostgreSQL is checked version by version)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis

from server.clusterfix import (
    LEASE_SECONDS,
    Closed,
    Nodes,
    Socket,
    cluster,
    create,
    join,
    reconnect,
    table_log,
)
from server.helpers import Connection, settle

pytestmark = cluster


@dataclass
class Game:
    """One table and its players' sockets, with every action the server acknowledged."""

    table: str
    tokens: list[str]
    bases: list[str]
    """Where a player whose socket was closed reconnects."""
    socks: list[Socket] = field(default_factory=list)
    acked: dict[int, tuple[int, str]] = field(default_factory=dict)
    """Version -> (seat, action) of each acknowledged action."""
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    def step(self) -> bool:
        """One action by whoever is to act; False once the match is over. A player whose
        socket is closed (its table moved) reconnects and the step starts again."""
        for _ in range(10):
            try:
                return self._step()
            except Closed:
                for seat, sock in enumerate(self.socks):
                    if sock.close_code is not None:
                        self.reconnect(self.bases, seat)
            except TimeoutError:
                # Silence: what a client does then is reconnect with its last version.
                for seat, sock in enumerate(self.socks):
                    sock.close()
                    self.reconnect(self.bases, seat)
        raise AssertionError("the table kept closing its sockets")

    def _step(self) -> bool:
        players: list[Connection] = list(self.socks)
        actor = settle(players, timeout=10)
        if actor is None:
            return False
        assert actor.view is not None
        action = self.rng.choice(actor.view["legal"])
        ack = actor.play(action)
        self.acked[ack["d"]["v"]] = (actor.view["seat"], action)
        return True

    def reconnect(self, bases: list[str], seat: int) -> None:
        old = self.socks[seat]
        self.socks[seat] = reconnect(bases, self.table, self.tokens[seat], old.v)
        self.socks[seat].view = self.socks[seat].view or old.view

    def check_log(self, nodes: Nodes) -> list[tuple[int, str, dict[str, Any]]]:
        log = table_log(nodes.backing, nodes.env["TRUCO_DATABASE_URL"], self.table)
        assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))  # no gap, no double
        for v, (seat, action) in self.acked.items():
            assert log[v - 1][1:] == ("act", {"seat": seat, "action": action}), (v, log[v - 1])
        return log

    def close(self) -> None:
        for sock in self.socks:
            sock.close()


def start_game(base: str, socks_at: list[str]) -> Game:
    t = create(base, options={"players": 2, "target": 15})
    game = Game(t["table"], [t["token"], join(base, t["table"])], socks_at)
    game.socks = [
        Socket(at, game.table, tok) for at, tok in zip(socks_at, game.tokens, strict=True)
    ]
    return game


def until_closed(sock: Socket, seconds: float) -> int | None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if sock.recv(max(0.1, end - time.monotonic()))["t"] == "close":
                return sock.close_code
        except TimeoutError:
            break
    raise AssertionError("the socket was not closed")


def test_sigkill_moves_the_tables_to_the_other_process(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    # Seat 0 plays through A (the owner), seat 1 through B (relayed).
    games = [start_game(a.base, [a.base, b.base]) for _ in range(3)]
    for i, game in enumerate(games):
        for _ in range(5 + i):
            assert game.step()
    # A table nobody is connected to (waiting for a second player): B's sweep must adopt it.
    lone = create(a.base, options={"players": 2})
    # One action is in flight when the owner dies: it may or may not have been applied.
    in_flight = games[0]
    actor = settle(list(in_flight.socks), timeout=10)
    assert actor is not None and actor.view is not None
    sent_v, sent_action = actor.v, actor.view["legal"][0]
    actor.act(sent_action)
    a.kill()

    for game in games:
        # B closes its relayed sockets once A's lease lapses; the clients come back to B.
        assert until_closed(game.socks[1], LEASE_SECONDS * 4) in (4012, 1012)
        for seat in (0, 1):
            game.reconnect([b.base], seat)
    for game in games:
        settle(list(game.socks), timeout=10)
    seat = actor.view["seat"]
    if in_flight.socks[seat].v > sent_v:  # it was applied before the kill: exactly once
        log = in_flight.check_log(nodes)
        assert log[sent_v][1:] == ("act", {"seat": seat, "action": sent_action})
    for game in games:
        while game.step():
            pass
        log = game.check_log(nodes)
        assert log and all(s.view and s.view["phase"] == "over" for s in game.socks)
        game.close()
    # The lone table moved too, without anyone asking for it, and takes players.
    lease = f"truco:lease:{lone['table']}"
    end = time.monotonic() + LEASE_SECONDS * 4
    while redis.Redis.from_url(nodes.backing.redis.url).get(lease) != b"node-b":
        assert time.monotonic() < end, "the orphaned table was not adopted"
        time.sleep(0.1)
    assert join(b.base, lone["table"])


def test_redis_restarted_mid_game(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    game = start_game(a.base, [a.base, b.base])
    for _ in range(6):
        assert game.step()
    nodes.backing.redis.stop()
    # Without Redis the relayed player is cut off (its process says so), the owner goes on.
    assert until_closed(game.socks[1], 10) == 1012
    nodes.backing.redis.start()  # empty: no leases, no lobby
    game.reconnect([b.base, a.base], 1)
    # The owner takes its lease back (or B adopts the table, and A's sockets move: either way
    # one process holds it).
    lease = f"truco:lease:{game.table}"
    end = time.monotonic() + LEASE_SECONDS * 4
    while redis.Redis.from_url(nodes.backing.redis.url).get(lease) is None:
        assert time.monotonic() < end, "nobody holds the table's lease after the restart"
        time.sleep(0.1)
    while game.step():
        pass
    game.check_log(nodes)
    # The lobby works again, across processes.
    t = create(b.base)
    assert t["table"] in [e["table"] for e in httpx.get(f"{a.base}/api/tables").json()]
    game.close()


def test_database_briefly_unreachable(nodes: Nodes) -> None:
    a = nodes.start("node-a")
    game = start_game(a.base, [a.base, a.base])
    for _ in range(4):
        assert game.step()
    actor = settle(list(game.socks), timeout=10)
    assert actor is not None and actor.view is not None
    v, action = actor.v, actor.view["legal"][0]
    nodes.backing.postgres.stop()
    try:
        actor.act(action)
        err = actor.until("err", timeout=20)
        assert err["d"]["code"] == "unavailable" and "database" in err["d"]["message"]
        assert err["d"]["a"] == actor.a
        # Nothing was applied: no new version reached anyone.
        assert all(s.v == v for s in game.socks)
        assert not [m for s in game.socks for m in s.seen if m["t"] == "ev" and m["d"]["v"] > v]
    finally:
        nodes.backing.postgres.start()
    # The same action, sent again, goes through now; the game finishes.
    end = time.monotonic() + 20
    while True:
        actor.act(action)
        msg = actor.recv(10)
        while msg["t"] != "err" and msg["d"].get("a") != actor.a:
            msg = actor.recv(10)
        if msg["t"] != "err":
            assert msg["d"]["v"] == v + 1
            game.acked[v + 1] = (actor.view["seat"], action)
            break
        assert msg["d"]["code"] == "unavailable" and time.monotonic() < end
        time.sleep(0.5)
    while game.step():
        pass
    game.check_log(nodes)
    game.close()


def test_sigkill_of_the_process_that_relays_a_player(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    game = start_game(a.base, [a.base, b.base])
    for _ in range(3):
        assert game.step()
    seats = httpx.get(f"{a.base}/api/tables/{game.table}").json()["seats"]
    assert [s["connected"] for s in seats] == [True, True]
    b.kill()
    # The owner notices that B is gone (its key lapsed): seat 1 is away, its grace period runs.
    end = time.monotonic() + LEASE_SECONDS * 4
    while httpx.get(f"{a.base}/api/tables/{game.table}").json()["seats"][1]["connected"]:
        assert time.monotonic() < end, "the relayed seat still looks connected"
        time.sleep(0.1)
    while game.socks[0].until("table")["d"]["seats"][1]["connected"]:
        pass  # an older seat update; the players at the table hear of the absence too
    # Its player comes back through A and the game goes on to its end.
    game.bases = [a.base]
    game.reconnect([a.base], 1)
    while game.step():
        pass
    game.check_log(nodes)
    game.close()
