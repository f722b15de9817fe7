"""Chat is text: a line holding a control character, a line break or a text-direction mark is
refused by a real ``truco serve`` and reaches nobody (issue 26, point 2)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.helpers import settle
from server.test_restart import Remote, Server

HOSTILE = {
    "OSC 0, the window's title": "hola \x1b]0;te hackearon\x07",
    "OSC 52, a clipboard write": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "CSI, clear the screen": "\x1b[2J\x1b[Hbuenas",
    "the 8-bit CSI": "\x9b31mrojo",
    "a line break": "primera\nsegunda",
    "a right-to-left override": "quiero \u202eoreiuq on",
    "NUL": "nada\x00",
}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Remote, Remote]]:
    server = Server(tmp_path / "truco.db")
    t = httpx.post(f"{server.base}/api/tables", json={"name": "Ana"}).json()
    r = httpx.post(f"{server.base}/api/tables/{t['table']}/seats", json={"name": "Beto"})
    ana = Remote(server.port, t["table"], t["token"])
    beto = Remote(server.port, t["table"], r.json()["token"])
    settle([ana, beto])
    yield ana, beto
    ana.close()
    beto.close()
    server.stop()


def test_a_chat_line_with_controls_is_refused_and_reaches_nobody(
    table: tuple[Remote, Remote],
) -> None:
    ana, beto = table
    for what, text in HOSTILE.items():
        ana.send("chat", {"text": text})
        err = ana.until("err")["d"]
        assert err["code"] == "bad_message", what
        assert "U+" in err["message"], (what, err)  # it says which character
    ana.send("chat", {"text": "che, ¿quién es mano? 🂡"})
    got = beto.until("chat")["d"]
    assert got["text"] == "che, ¿quién es mano? 🂡"  # the first chat line Beto sees is the plain one
    assert all(m["t"] != "chat" or m["d"]["text"] == got["text"] for m in beto.seen)
