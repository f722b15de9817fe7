"""``truco repeticion URL``: a match's replay in the terminal, line by line (docs/terminal.md).

It reads what the browser's replay page reads (docs/protocol.md, "Replay"): the match's hands,
then each hand's frames, whose views are the table protocol's codec read back into the core's
``SeatView`` (``protocol.view_from_json``), drawn with the terminal game's own words
(``truco.tui.text``). Nothing is worked out here that the server's views do not say.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from truco import protocol as p
from truco.actions import Action
from truco.errors import TrucoError
from truco.tui import text, wire
from truco.view import SeatView

InputFn = Callable[[str], str]
PrintFn = Callable[[str], None]

MAX_COMMAND = 20
"""The longest command read at the prompt (a hand's number at most)."""
HELP = "Enter o s: adelante · a: atrás · m N: mano N · q: salir"
_SAID_BY_THE_ACTION = frozenset(
    ("HandStarted", "CardsDealt", "CardPlayed", "Called", "Answered", "WentToMazo", "Discarded")
)
"""Events the step's own line and the cards in sight already say."""


class Address:
    """What a replay link points at: ``http(s)://HOST/r/ID[/HAND/STEP][?match=K]``."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        words = [w for w in parts.path.split("/") if w]
        if parts.scheme not in ("http", "https") or not parts.netloc or len(words) < 2:
            raise TrucoError(f"no es un enlace de repetición: {url!r} (http://HOST/r/MESA)")
        if words[0] not in ("r", "t") or len(words) not in (2, 4):
            raise TrucoError(f"no es un enlace de repetición: {url!r} (http://HOST/r/MESA)")
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.table = words[1]
        self.hand, self.step = (
            (int(words[2]), int(words[3]))
            if len(words) == 4 and all(w.isdigit() for w in words[2:])
            else (1, 0)
        )
        match = parse_qs(parts.query).get("match", [""])[0]
        self.match = int(match) if match.isdigit() and int(match) > 0 else None

    def api(self, hand: int | None = None) -> str:
        path = f"{self.base}/api/tables/{quote(self.table, safe='')}/replay"
        path += "" if hand is None else f"/{hand}"
        return path + ("" if self.match is None else f"?match={self.match}")


def fetch(url: str, token: str | None = None, timeout: float = 10.0) -> Any:
    """One of the replay's answers, or a ``TrucoError`` that says the server's reason."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers), timeout=timeout
        ) as r:
            return wire.loads(r.read().decode())
    except urllib.error.HTTPError as exc:
        try:
            said = wire.loads(exc.read().decode())
            code, message = said.get("code"), said.get("message")
        except (ValueError, AttributeError):
            code, message = None, exc.reason
        if code == p.BAD_TOKEN:
            message = "mientras se juega el partido, solo sus jugadores pueden verlo (--token)"
        raise TrucoError(f"el servidor no dio la repetición ({exc.code}): {message}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise TrucoError(f"no pude leer {url}: {exc}") from None


def frame_lines(match: dict[str, Any], hand: dict[str, Any], step: int) -> list[str]:
    """Step ``step`` of ``hand`` as lines of plain text: what was done, the score, the table and
    the cards in sight (every seat's once the match is over, the viewer's own during it)."""
    frame = hand["frames"][step]
    view: SeatView = p.view_from_json(frame["view"])
    names = text.Names.of(view, [s.get("name") or "" for s in match["seats"]], plain=True)
    last = len(hand["frames"]) - 1
    if frame["seat"] is None:
        did = "Reparto"
    else:
        did = f"{text.plain(names.seat(frame['seat']))}: {_said(frame['action'])}"
    lines = [f"— Mano {hand['hand']} · jugada {step} de {last} — {did}"]
    lines.append(text.plain(text.score_line(view, names)))
    table = [text.plain(line) for line in text.table_lines(view, names)]
    lines.extend([table[0], *(f"  {line}" for line in table[1:])])
    for ev in frame["events"]:
        event = p.event_from_json(ev)
        said = text.event_line(event, names, view) if event is not None else None
        if said and ev["type"] not in _SAID_BY_THE_ACTION:
            lines.append(f"  · {text.plain(said)}")
    if view.open_hands:
        held = [
            f"{names.seat(s)}: {text.cards_words(list(cards)) or '(ninguna)'}"
            for s, cards in enumerate(view.open_hands)
        ]
        lines.append("En la mano: " + " · ".join(held))
    elif view.seat is not None:
        lines.append(f"Tus cartas: {text.cards_words(list(view.hand)) or '(ninguna)'}")
    return lines


def _said(action: str) -> str:
    """An action as the player says it; a card the viewer did not see stays unsaid."""
    if action.endswith(" ??"):
        return "descarta una carta" if action.startswith("discard") else "juega una tapada"
    return text.action_words(Action.parse(action))


def run_repeticion(
    url: str,
    token: str | None,
    print_fn: PrintFn,
    input_fn: InputFn | None,
    *,
    everything: bool = False,
) -> int:
    """Show the replay ``url`` points at: step by step at the prompt (``input_fn``), or every
    step of every hand at once (``everything``). Returns the exit status."""
    where = Address(url)
    match = fetch(where.api(), token)
    hands: dict[int, dict[str, Any]] = {}

    def hand(n: int) -> dict[str, Any]:
        if n not in hands:
            hands[n] = fetch(where.api(n), token)
        return hands[n]

    count = len(match["hands"])
    seen = "todas las cartas a la vista" if match["reveal"] else "las manos como las viste"
    print_fn(f"Repetición de la mesa {where.table}, partido {match['match']}: {seen}.")
    if count == 0:
        print_fn("Todavía no terminó ninguna mano.")
        return 0
    if everything or input_fn is None:
        for n in range(1, count + 1):
            frames = hand(n)
            for step in range(len(frames["frames"])):
                print_fn("")
                for line in frame_lines(match, frames, step):
                    print_fn(line)
        return 0
    n = min(max(1, where.hand), count)
    step = min(max(0, where.step), match["hands"][n - 1]["steps"])
    print_fn(HELP)
    while True:
        print_fn("")
        for line in frame_lines(match, hand(n), step):
            print_fn(line)
        typed = input_fn("> ").strip().lower()[:MAX_COMMAND]
        steps = match["hands"][n - 1]["steps"]
        if typed in ("q", "salir"):
            return 0
        if typed in ("", "s", "+"):
            if step < steps:
                step += 1
            elif n < count:
                n, step = n + 1, 0
        elif typed in ("a", "-"):
            if step > 0:
                step -= 1
            elif n > 1:
                n -= 1
                step = match["hands"][n - 1]["steps"]
        elif typed.startswith("m") and typed[1:].strip().isdigit():
            n, step = min(max(1, int(typed[1:].strip())), count), 0
        else:
            print_fn(HELP)


__all__ = ["Address", "fetch", "frame_lines", "run_repeticion"]
