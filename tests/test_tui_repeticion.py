"""``truco repeticion URL`` against the real server (uvicorn on a free local port): a match
against a bot played over a real WebSocket, then its replay read step by step and all at once,
every card in sight once it is over and the viewer's own only while it is played."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from websockets.sync.client import connect

from test_tui_server import HANG_GUARD, _post, base_url  # noqa: F401
from truco.cli import main
from truco.errors import TrucoError
from truco.protocol import ws_protocols
from truco.tui.repeticion import Address, run_repeticion


def play(base: str, table: str, token: str, hands: int | None = None) -> dict[str, Any]:
    """Play seat 0 (always the mazo, when it may) until the match is over, or until ``hands``
    hands have ended; the last view."""
    url = base.replace("http", "ws") + f"/ws/tables/{table}"
    view: dict[str, Any] = {}
    with connect(url, subprotocols=ws_protocols(token), open_timeout=HANG_GUARD) as ws:  # type: ignore[arg-type]
        while True:
            msg = json.loads(ws.recv(timeout=HANG_GUARD))
            if msg["t"] not in ("full", "ev"):
                continue
            view = msg["d"]["view"]
            done = hands is not None and view["hand"] > hands and view["phase"] == "play"
            if view["phase"] == "over" or done:
                return view
            if view["to_act"] == 0 and view["legal"]:
                legal = view["legal"]
                action = "mazo" if "mazo" in legal else legal[0]
                ws.send(
                    json.dumps(
                        {
                            "t": "act",
                            "d": {"a": msg["d"]["v"], "v": msg["d"]["v"], "action": action},
                        }
                    )
                )


def test_the_address_of_a_replay() -> None:
    a = Address("http://h:8000/r/abc/3/4?match=2")
    assert (a.base, a.table, a.hand, a.step, a.match) == ("http://h:8000", "abc", 3, 4, 2)
    assert a.api(3) == "http://h:8000/api/tables/abc/replay/3?match=2"
    b = Address("https://h/t/abc")
    assert (b.table, b.hand, b.step, b.match) == ("abc", 1, 0, None)
    assert b.api() == "https://h/api/tables/abc/replay"
    for bad in ("h/r/abc", "ftp://h/r/abc", "http://h/x/abc", "http://h/r/abc/1"):
        with pytest.raises(TrucoError):
            Address(bad)


def test_a_match_replays_in_the_terminal(base_url: str) -> None:  # noqa: F811
    created = _post(
        f"{base_url}/api/tables",
        {"name": "Ana", "options": {"players": 2, "target": 10}, "bots": {"1": "random"}},
    )
    table, token = created["table"], created["token"]
    play(base_url, table, token, hands=1)
    # During the match: its players only, as they saw it.
    with pytest.raises(TrucoError, match="solo sus jugadores"):
        run_repeticion(f"{base_url}/r/{table}", None, print, None)
    seen: list[str] = []
    assert run_repeticion(f"{base_url}/r/{table}", token, seen.append, None) == 0
    assert "las manos como las viste" in seen[0]
    assert any(line.startswith("Tus cartas:") for line in seen)
    assert not any(line.startswith("En la mano:") for line in seen)

    play(base_url, table, token)
    out: list[str] = []
    assert run_repeticion(f"{base_url}/r/{table}", None, out.append, None, everything=True) == 0
    assert "todas las cartas a la vista" in out[0]
    steps = [line for line in out if line.startswith("— Mano ")]
    assert steps[0].startswith("— Mano 1 · jugada 0 de ") and steps[0].endswith("Reparto")
    assert any("Vos" not in line and ": me voy al mazo" in line for line in steps)
    opened = [line for line in out if line.startswith("En la mano:")]
    assert len(opened) == len(steps)  # every step shows every seat's cards

    # At the prompt: forward, back, another hand, quit.
    typed = iter(["", "a", "m 2", "x", "q"])
    shown: list[str] = []
    assert (
        run_repeticion(f"{base_url}/r/{table}/1/0", None, shown.append, lambda _: next(typed)) == 0
    )
    heads = [line for line in shown if line.startswith("— Mano ")]
    assert [h.split(" — ")[0] for h in heads[:4]] == [
        "— Mano 1 · jugada 0 de " + heads[0].split(" de ")[1].split(" ")[0],
        "— Mano 1 · jugada 1 de " + heads[0].split(" de ")[1].split(" ")[0],
        "— Mano 1 · jugada 0 de " + heads[0].split(" de ")[1].split(" ")[0],
        "— Mano 2 · jugada 0 de " + heads[3].split(" de ")[1].split(" ")[0],
    ]
    assert sum(1 for line in shown if line.startswith("Enter o s")) == 2  # at the start, and "x"

    # The command: its exit status, and the server's refusal said on stderr.
    assert main(["repeticion", f"{base_url}/r/{table}", "--todo"]) == 0
    assert main(["repeticion", f"{base_url}/r/nope"]) == 2
