"""What the terminal client writes: cards, seats, events, the table and the score, as Rich markup.

Pure functions of a ``SeatView`` (and events), shared by the local and the online game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.markup import escape

from truco.actions import Action, Verb
from truco.anotador import fosforos
from truco.cards import Card, Suit
from truco.events import (
    Answered,
    Called,
    CardPlayed,
    CardsDealt,
    CardsShown,
    Event,
    HandStarted,
    MatchEnded,
    PointsDeclared,
    Scored,
    TrickEnded,
    WentToMazo,
)
from truco.view import PlayView, SeatView

SUIT_NAME = {Suit.ESPADA: "espada", Suit.BASTO: "basto", Suit.ORO: "oro", Suit.COPA: "copa"}
SUIT_STYLE = {
    Suit.ESPADA: "bold #ffffff on #1f4e9c",
    Suit.BASTO: "bold #ffffff on #2e7d32",
    Suit.ORO: "bold #000000 on #f2b705",
    Suit.COPA: "bold #ffffff on #c62828",
}
SAY = {
    Verb.TRUCO: "¡Truco!",
    Verb.RETRUCO: "¡Quiero retruco!",
    Verb.VALE_CUATRO: "¡Quiero vale cuatro!",
    Verb.ENVIDO: "Envido",
    Verb.REAL_ENVIDO: "Real envido",
    Verb.FALTA_ENVIDO: "Falta envido",
    Verb.QUIERO: "Quiero",
    Verb.NO_QUIERO: "No quiero",
    Verb.MAZO: "Me voy al mazo",
    Verb.FLOR: "¡Flor!",
    Verb.CONTRAFLOR: "Contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "Contraflor al resto",
    Verb.CON_FLOR_QUIERO: "Con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "Con flor me achico",
}
REASONS = {
    "envido": "envido",
    "envido-no-quiero": "envido no querido",
    "truco": "la mano",
    "truco-no-quiero": "truco no querido",
    "mazo": "mazo",
    "flor": "flor",
    "flor-no-quiero": "flor no querida",
}
TRUCO_NAMES = {2: "truco", 3: "retruco", 4: "vale cuatro"}

CALL_KEYS: dict[Verb, str] = {
    Verb.TRUCO: "t",
    Verb.RETRUCO: "r",
    Verb.VALE_CUATRO: "v",
    Verb.ENVIDO: "e",
    Verb.REAL_ENVIDO: "d",
    Verb.FALTA_ENVIDO: "f",
    Verb.QUIERO: "q",
    Verb.NO_QUIERO: "n",
    Verb.MAZO: "m",
    Verb.FLOR: "l",
    Verb.CONTRAFLOR: "c",
    Verb.CONTRAFLOR_AL_RESTO: "x",
    Verb.CON_FLOR_QUIERO: "k",
    Verb.CON_FLOR_ME_ACHICO: "a",
}
"""The key of each call; cards are 1, 2, 3 (face up) and 4, 5, 6 (face down, tapada)."""
LABELS = {
    Verb.TRUCO: "truco",
    Verb.RETRUCO: "retruco",
    Verb.VALE_CUATRO: "vale cuatro",
    Verb.ENVIDO: "envido",
    Verb.REAL_ENVIDO: "real envido",
    Verb.FALTA_ENVIDO: "falta envido",
    Verb.QUIERO: "quiero",
    Verb.NO_QUIERO: "no quiero",
    Verb.MAZO: "mazo",
    Verb.FLOR: "flor",
    Verb.CONTRAFLOR: "contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "contraflor al resto",
    Verb.CON_FLOR_QUIERO: "con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "con flor me achico",
}


def card(c: Card | None, *, long: bool = False) -> str:
    """A card as coloured markup: `` 7 oro `` (``long``) or `` 7o ``; None is a face-down card."""
    if c is None:
        return "[reverse] ?? [/]"
    name = f"{c.rank} {SUIT_NAME[c.suit]}" if long else str(c)
    return f"[{SUIT_STYLE[c.suit]}] {name} [/]"


def action_keys(view: SeatView) -> dict[str, Action]:
    """The key for each of the viewer's legal actions."""
    keys: dict[str, Action] = {}
    for action in view.legal:
        if action.card is not None and action.card in view.hand:
            i = view.hand.index(action.card)
            keys[str(i + 1 if action.verb is Verb.PLAY else i + 4)] = action
        elif action.verb in CALL_KEYS:
            keys[CALL_KEYS[action.verb]] = action
    return keys


def action_label(action: Action) -> str:
    if action.card is not None:
        return ("tapada " if action.verb is Verb.TAPADA else "") + card(action.card, long=True)
    return LABELS[action.verb]


class Names:
    """How the viewer calls the seats and teams."""

    def __init__(self, seat: int | None, teams: Sequence[int], names: Sequence[str] = ()) -> None:
        self.me = seat
        self.teams = tuple(teams)
        self.us = self.teams[seat] if seat is not None else 0
        self.names = tuple(names)

    def seat(self, seat: int) -> str:
        if seat == self.me:
            return "Vos"
        if seat < len(self.names) and self.names[seat]:
            return escape(self.names[seat])
        partner = "+" if self.teams[seat] == self.us and self.me is not None else ""
        return f"Bot{seat}{partner}"

    def team(self, team: int) -> str:
        if self.me is None:
            return f"Equipo {team}"
        return "Nosotros" if team == self.us else "Ellos"


def _play(names: Names, p: PlayView) -> str:
    who, c, face_down = p
    if face_down:
        shown = "tapada" + (f" {card(c)}" if c is not None else "")
        return f"{names.seat(who)} [dim]{shown}[/]"
    return f"{names.seat(who)} {card(c)}"


def table_lines(view: SeatView, names: Names) -> list[str]:
    """The hand on the table: each trick with its winner, and the envido said."""
    lines = [f"[b]Mano {view.hand_no}[/] · es mano: {names.seat(view.mano)}"]
    if view.truco > 1:
        lines[0] += f" · en juego: [b]{TRUCO_NAMES[view.truco]}[/]"
    tricks = [*view.tricks, view.plays] if view.plays or view.phase == 1 else list(view.tricks)
    for i, plays in enumerate(tricks):
        if not plays and i >= len(view.tricks):
            if i < 3:
                lines.append(f"Baza {i + 1}: …")
            continue
        result = ""
        if i < len(view.results):
            won = view.results[i]
            result = " → [i]parda[/]" if won < 0 else f" → [b]{names.team(won)}[/]"
        lines.append(f"Baza {i + 1}: " + " · ".join(_play(names, p) for p in plays) + result)
    if view.declared:
        said = ", ".join(
            f"{names.seat(s)} {'son buenas' if p is None else p}{' (flor)' * f}"
            for s, p, f in view.declared
        )
        lines.append(f"Tantos: {said}")
    if view.retired:
        lines.append("Al mazo: " + ", ".join(names.seat(s) for s in view.retired))
    return lines


def pending_call(view: SeatView, names: Names) -> str | None:
    """Who called what and who owes the answer, while a call waits."""
    said: tuple[int, int, str] | None = None
    if view.flor_call is not None and view.flor_chain:
        said = (*view.flor_call, LABELS[view.flor_chain[-1]])
    elif view.envido_call is not None and view.chain:
        said = (*view.envido_call, LABELS[view.chain[-1]])
    elif view.truco_call is not None:
        level, caller, responder = view.truco_call
        said = (caller, responder, TRUCO_NAMES[level])
    if said is None:
        return None
    caller, responder, what = said
    return f"{names.seat(caller)} cantó {what}: responde {names.seat(responder)}"


def score_label(points: int, target: int) -> str:
    half = target // 2 if target >= 20 else None
    if half is None:
        return f"{points}"
    if points <= half:
        return f"{points} (malas)"
    buenas = points - half
    return f"{points} ({buenas} buena{'s' * (buenas > 1)})"


def score_lines(view: SeatView, names: Names) -> list[str]:
    """Both teams' score as fósforos, ours first."""
    target = view.rules.target
    lines = []
    for team in (names.us, 1 - names.us):
        points = view.score[team]
        lines.append(f"[b]{names.team(team)}[/] {score_label(points, target)}")
        lines.extend(f"[yellow]{row}[/]" if row else "" for row in fosforos(points, target))
    return lines


def event_line(ev: Event, names: Names) -> str | None:
    """One line for an event the viewer saw (None: nothing worth a line)."""
    if isinstance(ev, HandStarted):
        return f"[b]── Mano {ev.hand}[/] (es mano {names.seat(ev.mano)})"
    if isinstance(ev, CardsDealt):
        return "Te tocaron: " + " ".join(card(c) for c in ev.cards)
    if isinstance(ev, CardPlayed):
        what = "una tapada" if ev.face_down else card(ev.card)
        return f"{names.seat(ev.seat)}: {what}"
    if isinstance(ev, Called | Answered):
        return f"{names.seat(ev.seat)}: [b]{SAY.get(ev.verb, str(ev.verb))}[/]"
    if isinstance(ev, WentToMazo):
        return f"{names.seat(ev.seat)}: me voy al mazo"
    if isinstance(ev, TrickEnded):
        if ev.team < 0:
            return f"Baza {ev.trick + 1}: parda"
        return f"Baza {ev.trick + 1}: {names.seat(ev.seat)} ({names.team(ev.team)})"
    if isinstance(ev, PointsDeclared):
        said = "son buenas" if ev.points is None else f"{ev.points}{' de flor' * ev.flor}"
        return f"{names.seat(ev.seat)}: [b]{said}[/]"
    if isinstance(ev, Scored):
        return f"[green]+{ev.points} {names.team(ev.team)}[/] ({REASONS.get(ev.reason, ev.reason)})"
    if isinstance(ev, CardsShown):
        return f"{names.seat(ev.seat)} muestra " + " ".join(card(c) for c in ev.cards)
    if isinstance(ev, MatchEnded):
        return f"[b]Fin del partido: ganan {names.team(ev.winner)}[/]"
    return None  # HandEnded: the hand's summary says it


def hand_summary(hand_events: Iterable[Event], view: SeatView, names: Names) -> list[str]:
    """What the hand gave each team and why, and the cards shown: a few short lines."""
    scored = []
    shown = []
    for ev in hand_events:
        if isinstance(ev, Scored):
            reason = REASONS.get(ev.reason, ev.reason)
            scored.append(f"[b]+{ev.points} {names.team(ev.team)}[/] ({reason})")
        elif isinstance(ev, CardsShown):
            cards = " ".join(card(c) for c in ev.cards)
            shown.append(f"{names.seat(ev.seat)} muestra {cards}")
    head = f"[b reverse] Fin de la mano {view.hand_no} [/] "
    return [head + (", ".join(scored) or "nadie suma"), *shown]


def score_line(view: SeatView, names: Names) -> str:
    target = view.rules.target
    return "Tanteador: " + " · ".join(
        f"{names.team(t)} {score_label(view.score[t], target)}" for t in (names.us, 1 - names.us)
    )


def match_summary(view: SeatView, names: Names, hands: int) -> list[str]:
    us, them = view.score[names.us], view.score[1 - names.us]
    won = view.winner == names.us
    head = "¡Ganaste!" if won else "Perdiste."
    if names.me is None:
        head = f"Ganan {names.team(view.winner)}"
    return [
        f"[b reverse] Fin del partido: {head} [/]",
        f"Nosotros {us} a {them} Ellos, en {hands} mano{'s' * (hands != 1)}.",
    ]
