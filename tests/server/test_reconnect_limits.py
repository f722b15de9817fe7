"""Allowances kept per seat and per address, not per connection: connecting again gives nothing
back, and a flood of reconnects is refused without telling the table each time (issue 16,
point 5)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from server.helpers import Player, create, join, settle
from server.test_limits import Clock, tight
from truco import protocol
from truco.protocol import CLOSE_TOO_FAST
from truco.server import Settings
from truco.server.net.limits import Buckets


def table_of_two(client: TestClient) -> tuple[str, dict[str, str], Player, Player]:
    t = create(client)
    tokens = {"ana": t["token"], "beto": join(client, t["table"])}
    ana = Player(client, t["table"], tokens["ana"])
    beto = Player(client, t["table"], tokens["beto"])
    settle([ana, beto])
    return t["table"], tokens, ana, beto


def chat_answers(player: Player, n: int) -> list[str]:
    """Send ``n`` chat lines; what came back for each: ``chat`` or the error code."""
    for _ in range(n):
        player.send("chat", {"text": "hola"})
    got: list[str] = []
    while len(got) < n:
        msg = player.recv()
        if msg["t"] in ("chat", "err"):
            got.append(msg["t"] if msg["t"] == "chat" else msg["d"]["code"])
    return got


def after_ping(player: Player) -> list[dict[str, Any]]:
    """Every message up to the answer to a ping (so nothing is still on its way)."""
    start = len(player.seen)
    player.send("ping")
    player.until("pong")
    return player.seen[start:]


def test_buckets_keep_one_allowance_per_key_and_forget_the_oldest() -> None:
    clock = Clock()
    buckets = Buckets(2, 0.5, keys=2, clock=clock)
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    assert buckets.take("b") and len(buckets) == 2
    assert not buckets.take("a")  # still spent: "a" is one of the two kept
    clock.now += 2  # one credit back
    assert buckets.take("a") and not buckets.take("a")
    buckets.take("c")  # a third key: the least recently used ("b") is forgotten
    assert len(buckets) == 2


def test_a_reconnect_does_not_refill_the_chat_allowance(settings: Settings) -> None:
    with tight(settings, chat_burst=3, chat_per_second=0.001) as client:
        table, tokens, ana, _beto = table_of_two(client)
        assert chat_answers(ana, 3) == ["chat"] * 3
        ana.close()
        again = Player(client, table, tokens["ana"])
        again.until("full")
        assert chat_answers(again, 1) == [protocol.RATE_LIMITED]
        again.send("sena", {"sena": "tres"})  # señas share it
        assert again.until("err")["d"]["code"] == protocol.RATE_LIMITED


def test_one_address_shares_an_allowance_over_its_seats(settings: Settings) -> None:
    with tight(settings, address_chat_burst=4, address_chat_per_second=0.001) as client:
        _, _, ana, beto = table_of_two(client)  # both from the test client's one address
        assert chat_answers(ana, 3) == ["chat"] * 3
        after_ping(beto)  # Ana's lines reached him too
        assert chat_answers(beto, 2) == ["chat", protocol.RATE_LIMITED]


def test_a_flood_of_reconnects_is_refused_and_not_broadcast(settings: Settings) -> None:
    with tight(settings, seat_connect_burst=3, seat_connects_per_second=0.001) as client:
        table, tokens, ana, _beto = table_of_two(client)
        after_ping(ana)
        # Beto's first connection counted; two more fit in the burst, then every one is refused.
        outcomes = []
        for _ in range(8):
            flood = Player(client, table, tokens["beto"])
            first = flood.recv()
            if first["t"] == "full":
                outcomes.append("full")
            else:
                assert first["t"] == "err", first
                outcomes.append(first["d"]["code"])
                assert flood.closed()[0] == CLOSE_TOO_FAST
        assert outcomes == ["full", "full"] + [protocol.RATE_LIMITED] * 6
        # Beto was connected all along: Ana heard no `table` message about it.
        assert [m for m in after_ping(ana) if m["t"] == "table"] == []


def test_an_address_may_open_only_so_many_connections(settings: Settings) -> None:
    with tight(settings, address_connect_burst=4, address_connects_per_second=0.001) as client:
        t = create(client)
        watchers = [Player(client, t["table"]) for _ in range(4)]
        for w in watchers:
            assert w.recv()["t"] == "full"
        refused = Player(client, t["table"])
        assert refused.recv()["d"]["code"] == protocol.RATE_LIMITED
        assert refused.closed()[0] == CLOSE_TOO_FAST
