"""The games the terminal client shows: a local match against bots, or a seat at a server's table.

Both are plain objects without I/O: the app calls them and draws their ``view``. The local game
drives the engine one step at a time; the remote game turns the server's messages
(docs/protocol.md) into the same ``SeatView`` and events, and builds the messages to send, both
with the wire's one codec (``truco.protocol``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from truco.actions import Action
from truco.bots import Bot, make_bot
from truco.bots.driver import Driver, Step
from truco.bots.personas import persona
from truco.engine import CHANCE, to_act
from truco.errors import TrucoError
from truco.events import Event, HandEnded, visible_to
from truco.notation import HandHistory, dumps, from_state
from truco.protocol import (
    Rated,
    act_message,
    event_from_json,
    rated_from_json,
    told,
    view_from_json,
)
from truco.rules import Rules
from truco.state import OVER, State, new_match
from truco.tui.text.words import sena_line
from truco.view import SeatView, observe

BOT_PREFERENCE = ("experto", "expert", "dificil", "normal", "simple", "facil", "random")
"""The default bot: the first of these that ``make_bot`` knows."""


def default_bot() -> str:
    for name in BOT_PREFERENCE:
        try:
            make_bot(name)
        except TrucoError:
            continue
        return name
    return "random"


class LocalGame:
    """A match against bots; the human sits at ``seat`` (0 by default)."""

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        seed: int | None = None,
        bot: str | None = None,
        seat: int = 0,
    ) -> None:
        self.rules = rules or Rules()
        if not 0 <= seat < self.rules.players:
            raise TrucoError(f"seat must be from 0 to {self.rules.players - 1}, not {seat}")
        self.seat = seat
        self.bot_name = bot or default_bot()
        self.bots: dict[int, Bot] = {
            s: make_bot(self.bot_name) for s in range(self.rules.players) if s != seat
        }
        master = random.Random(seed)
        self.deal_rng = random.Random(master.getrandbits(64))
        self.bot_rng = random.Random(master.getrandbits(64))
        self.driver = Driver(new_match(self.rules, mano=0), self.bots)
        """The match: the bots' señas to their partners (the person's among them) and their
        readings of the rivals."""
        self.histories: list[HandHistory] = []
        self.notices: list[str] = []
        """The señas the person received, as log lines, until the client writes them."""
        # The bots go by their level's personas (the human's own seat reads "Vos").
        self.names: tuple[str, ...] = tuple(
            "" if s == seat else persona(self.bot_name, s, seed if seed is not None else "local")
            for s in range(self.rules.players)
        )

    @property
    def state(self) -> State:
        return self.driver.state

    @property
    def view(self) -> SeatView:
        return observe(self.state, self.seat)

    @property
    def over(self) -> bool:
        return to_act(self.state) is None

    @property
    def human_to_act(self) -> bool:
        return to_act(self.state) == self.seat

    def _after(self, step: Step) -> list[Event]:
        for event in step.events:
            if isinstance(event, HandEnded):
                self.histories.append(from_state(self.state))
        # The señas the bots made before the next decision: those that reach the person become
        # notices.
        for sender, sena, to in step.senas:
            if self.seat in to:
                name = self.names[sender] or f"Asiento {sender}"
                self.notices.append(sena_line(name, sena))
        return [e for e in step.events if visible_to(e, self.seat)]

    def step(self) -> list[Event] | None:
        """Deal, or let one bot act; None when it is the human's turn or the match is over."""
        actor = to_act(self.state)
        if actor is None or actor == self.seat:
            return None
        if actor == CHANCE:
            return self._after(self.driver.deal(self.deal_rng))
        return self._after(self.driver.play(self.bot_rng)[1])

    def play(self, action: Action) -> list[Event]:
        """The human's action (raises IllegalActionError if it is not legal now)."""
        if not self.human_to_act:
            raise TrucoError("it is not your turn")
        return self._after(self.driver.act(action))

    def save(self, directory: Path, stem: str) -> list[Path]:
        """Write every finished hand as a hand history (``STEM-mano-NN.toml``)."""
        directory.mkdir(parents=True, exist_ok=True)
        paths = []
        for i, history in enumerate(self.histories, 1):
            path = directory / f"{stem}-mano-{i:02d}.toml"
            path.write_text(dumps(history), encoding="utf-8")
            paths.append(path)
        return paths


def ws_url(invite: str, v: int = 0) -> tuple[str, str]:
    """The HTTP base and the WebSocket address of the table an invite link points to.

    ``invite`` is ``http(s)://HOST/t/ID`` (or already ``ws(s)://HOST/ws/tables/ID``). The
    address never holds a seat token: that travels as a subprotocol (``protocol.ws_protocols``).
    """
    parts = urlsplit(invite)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise TrucoError(f"not an invite link: {invite!r} (expected http://HOST/t/TABLE)")
    words = [w for w in parts.path.split("/") if w]
    if len(words) >= 2 and words[-2] in ("t", "tables"):
        table = words[-1]
    else:
        raise TrucoError(f"not an invite link: {invite!r} (expected http://HOST/t/TABLE)")
    query = urlencode({"v": str(v)}) if v else ""
    http = "https" if scheme == "wss" else "http"
    base = urlunsplit((http, parts.netloc, "", "", ""))
    ws = urlunsplit((scheme, parts.netloc, f"/ws/tables/{table}", query, ""))
    return base, ws


def invite_token(invite: str) -> str | None:
    """The seat token of a player's own link (``...?token=TOKEN``); None for an invite."""
    old = parse_qs(urlsplit(invite).query)
    return old["token"][0] if "token" in old else None


def table_id(invite: str) -> str:
    words = [w for w in urlsplit(invite).path.split("/") if w]
    return words[-1]


def rating_lines(rated: Rated) -> list[str]:
    """A rated match's changes as the terminal prints them: "Ana: +12 → 1534"."""
    lines = [f"Puntaje ({rated.mode}):"]
    for c in rated.changes:
        delta = c.after - c.before
        mark = "?" if c.provisional else ""
        left = " (abandonó: cuenta como derrota)" if c.left else ""
        lines.append(f"  {c.name}: {delta:+d} → {c.after}{mark}{left}")
    return lines


class RemoteGame:
    """One seat (or a spectator) at a server's table: the state as the server last told it."""

    def __init__(self) -> None:
        self.view: SeatView | None = None
        self.seat: int | None = None
        self.v = 0
        self.counter = 0
        self.table: dict[str, Any] = {}
        self.names: tuple[str, ...] = ()
        self.notices: list[str] = []
        self.pending: dict[int, str] = {}

    @property
    def over(self) -> bool:
        return self.view is not None and self.view.phase == OVER

    @property
    def human_to_act(self) -> bool:
        return bool(self.view and self.view.legal)

    def _table(self, table: dict[str, Any]) -> None:
        self.table = table
        seats = table.get("seats") or []
        names = [""] * len(seats)
        for s in seats:
            if isinstance(s, dict) and isinstance(s.get("seat"), int) and s["seat"] < len(names):
                names[s["seat"]] = str(s.get("name") or "")
        self.names = tuple(names)
        # Back at a seat the caretaker played: what it played, in the one table message of the
        # return (the server tells it once), into the log.
        mine = seats[self.seat] if self.seat is not None and self.seat < len(seats) else None
        spell = told.spell_from_json(mine.get("caretaker")) if isinstance(mine, dict) else None
        paulista = self.view is not None and self.view.game == "paulista"
        line = told.caretaker_played(spell, "pt" if paulista else "es")
        if line is not None:
            self.notices.append(line)

    def handle(self, message: dict[str, Any]) -> list[Event]:
        """Take in one server message; returns the events it brought (for the log)."""
        kind = message.get("t")
        d = message.get("d") or {}
        if kind == "full":
            self.v = int(d.get("v") or 0)
            seat = d.get("seat")
            self.seat = None if seat is None else int(seat)
            if isinstance(d.get("table"), dict):
                self._table(d["table"])
            self.view = view_from_json(d["view"])
            return []
        if kind == "ev":
            if "a" in d:  # the ack of our action, carried by the version it made
                self.pending.pop(int(d.get("a") or 0), None)
            self.v = int(d.get("v") or self.v)
            self.view = view_from_json(d["view"])
            found = (event_from_json(e) for e in d.get("events") or ())
            return [e for e in found if e is not None]
        if kind == "ack":
            self.pending.pop(int(d.get("a") or 0), None)
            self.v = max(self.v, int(d.get("v") or 0))
        elif kind == "err":
            self.pending.pop(int(d.get("a") or 0), None)
            self.notices.append(f"El servidor no aceptó: {d.get('message') or d.get('code')}")
        elif kind == "chat":
            self.notices.append(f"{d.get('name') or d.get('seat')}: {d.get('text')}")
        elif kind == "sena":
            seat = d.get("seat")
            name = self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else ""
            self.notices.append(sena_line(name or f"Asiento {seat}", str(d.get("sena"))))
        elif kind == "table":
            self._table(d)
        elif kind == "rated":
            rated = rated_from_json(d)
            if rated is not None:
                self.notices.extend(rating_lines(rated))
        return []

    def act(self, action: Action) -> dict[str, Any]:
        """The message that asks the server to apply ``action`` for our seat."""
        self.counter += 1
        self.pending[self.counter] = str(action)
        return act_message(self.counter, self.v, action)
