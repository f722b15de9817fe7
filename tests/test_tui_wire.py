"""The terminal strips escape sequences and controls from all it is sent, whatever a server lets
through (issue 26, point 2)."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from truco.protocol.plaintext import BIDI
from truco.tui import wire
from truco.tui.session import RemoteGame


def test_whole_sequences_go_not_only_their_escape() -> None:
    assert wire.plain("hola \x1b]0;te hackearon\x07chau") == "hola chau"
    assert wire.plain("\x1b]52;c;cm0gLXJmIH4=\x1b\\ok") == "ok"
    assert wire.plain("\x1b[2J\x1b[1;31mrojo\x1b[0m") == "rojo"
    assert wire.plain("\x9b31mrojo\x9d0;t\x9c.") == "rojo."
    assert wire.plain("quiero \u202eoreiuq\u202c") == "quiero oreiuq"
    assert wire.plain("primera\nsegunda\ttercera") == "primera segunda tercera"
    assert wire.plain("Ñandú 🂡 ¿envido?") == "Ñandú 🂡 ¿envido?"


@given(st.text())
def test_nothing_a_terminal_obeys_is_left(text: str) -> None:
    out = wire.plain(text)
    assert not any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in out)
    assert not BIDI & set(out)


def test_a_hostile_chat_line_and_name_reach_the_log_stripped() -> None:
    game = RemoteGame()
    raw = json.dumps(
        {
            "t": "table",
            "d": {"seats": [{"seat": 0, "name": "Ana\x1b]0;x\x07"}, {"seat": 1, "name": "B"}]},
        }
    )
    game.handle(wire.loads(raw))
    assert game.names == ("Ana", "B")
    chat = {"t": "chat", "d": {"seat": 1, "name": "B\x1b[2J", "text": "\x1b]52;c;eA==\x07hola"}}
    game.handle(wire.loads(json.dumps(chat)))
    assert game.notices == ["B: hola"]
