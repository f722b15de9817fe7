"""A line-based terminal game against random bots: ``make run`` until the real client exists.

The human sits at ``human_seat``; every other seat picks uniformly among the legal actions.
Only events visible to the human are printed, so other seats' cards never show (a face-down
card is "tapada").
"""

from __future__ import annotations

import random
from collections.abc import Callable

from truco.actions import Action, Verb
from truco.cards import Card, format_cards
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.errors import NotationError, RulesError
from truco.events import (
    Answered,
    Called,
    CardPlayed,
    CardsDealt,
    CardsShown,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    PointsDeclared,
    Scored,
    TrickEnded,
    WentToMazo,
    visible_to,
)
from truco.explain import why_not
from truco.rules import Rules
from truco.state import FLOR_KIND, State, new_match

InputFn = Callable[[str], str]
PrintFn = Callable[[str], object]

QUIT_WORDS = frozenset({"q", "quit", "salir"})
_SAY = {
    Verb.TRUCO: "¡Truco!",
    Verb.RETRUCO: "¡Quiero retruco!",
    Verb.VALE_CUATRO: "¡Quiero vale cuatro!",
    Verb.ENVIDO: "Envido",
    Verb.REAL_ENVIDO: "Real envido",
    Verb.FALTA_ENVIDO: "Falta envido",
    Verb.QUIERO: "Quiero",
    Verb.NO_QUIERO: "No quiero",
    Verb.FLOR: "¡Flor!",
    Verb.CONTRAFLOR: "Contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "Contraflor al resto",
    Verb.CON_FLOR_QUIERO: "Con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "Con flor me achico",
}
_REASONS = {
    "envido": "envido",
    "envido-no-quiero": "envido no querido",
    "truco": "la mano",
    "truco-no-quiero": "truco no querido",
    "mazo": "mazo",
    "flor": "flor",
    "flor-no-quiero": "flor no querida",
}
_TRUCO_NAMES = {2: "truco", 3: "retruco", 4: "vale cuatro"}


class _View:
    """How the human sees the table: seat and team names, and the text of each event."""

    def __init__(self, state: State, human_seat: int) -> None:
        self.human = human_seat
        self.teams = state.teams
        self.our_team = state.teams[human_seat]

    def seat(self, seat: int) -> str:
        if seat == self.human:
            return "Vos"
        partner = " (compañero)" if self.teams[seat] == self.our_team else ""
        return f"Bot {seat}{partner}"

    def team(self, team: int) -> str:
        return "Nosotros" if team == self.our_team else "Ellos"

    def score(self, state: State) -> str:
        half = state.rules.half
        parts = []
        for team in (self.our_team, 1 - self.our_team):
            points = state.score[team]
            text = f"{self.team(team)} {points}"
            if half is not None:
                buenas = points - half
                text += " (malas)" if buenas <= 0 else f" ({buenas} buena{'s' * (buenas > 1)})"
            parts.append(text)
        return " · ".join(parts) + f"  [a {state.rules.target}]"

    def card(self, seat: int, card: Card, face_down: bool) -> str:
        if not face_down:
            return str(card)
        return f"tapada ({card})" if seat == self.human else "tapada"

    def table(self, state: State) -> list[str]:
        lines = []
        for i, plays in enumerate((*state.tricks, state.plays)):
            if not plays and i == len(state.tricks):
                continue
            cards = ", ".join(f"{self.seat(s)} {self.card(s, c, d)}" for s, c, d in plays)
            result = ""
            if i < len(state.results):
                won = state.results[i]
                result = "  → parda" if won < 0 else f"  → {self.team(won)}"
            lines.append(f"  Baza {i + 1}: {cards}{result}")
        return lines or ["  Mesa vacía."]

    def pending(self, state: State) -> str | None:
        if state.tanto_call is not None:
            kind, caller, _ = state.tanto_call
            verb = state.flor_chain[-1] if kind == FLOR_KIND else state.chain[-1]
            return f"{self.seat(caller)} cantó {_SAY[verb].strip('¡!').lower()}."
        if state.truco_call is not None:
            level, caller, _ = state.truco_call
            return f"{self.seat(caller)} cantó {_TRUCO_NAMES[level]}."
        return None

    def event(self, ev: Event, state: State) -> str:
        """One line (or a few) for an event; ``state`` is the state right after it."""
        if isinstance(ev, HandStarted):
            return f"\n=== Mano {ev.hand} · es mano: {self.seat(ev.mano)} ==="
        if isinstance(ev, CardsDealt):
            return f"Te tocaron: {format_cards(ev.cards)}"
        if isinstance(ev, CardPlayed):
            what = "una carta tapada" if ev.card is None else str(ev.card)
            return f"{self.seat(ev.seat)}: juega {what}"
        if isinstance(ev, Called | Answered):
            return f"{self.seat(ev.seat)}: {_SAY.get(ev.verb, str(ev.verb))}"
        if isinstance(ev, WentToMazo):
            return f"{self.seat(ev.seat)}: me voy al mazo"
        if isinstance(ev, TrickEnded):
            if ev.team < 0:
                return f"Baza {ev.trick + 1}: parda"
            return f"Baza {ev.trick + 1}: la gana {self.seat(ev.seat)} ({self.team(ev.team)})"
        if isinstance(ev, PointsDeclared):
            said = "son buenas" if ev.points is None else str(ev.points)
            return f"{self.seat(ev.seat)}: {said}{' de flor' * (ev.flor and ev.points is not None)}"
        if isinstance(ev, Scored):
            reason = _REASONS.get(ev.reason, ev.reason)
            return f"+{ev.points} para {self.team(ev.team)} ({reason})"
        if isinstance(ev, CardsShown):
            return f"{self.seat(ev.seat)} muestra {format_cards(ev.cards)}"
        if isinstance(ev, HandEnded):
            got = ", ".join(f"{self.team(t)} +{p}" for t, p in enumerate(ev.points) if p)
            return f"Fin de la mano: {got or 'nadie suma'}. Tanteador: {self.score(state)}"
        if not isinstance(ev, MatchEnded):
            return ""
        us, them = ev.score[self.our_team], ev.score[1 - self.our_team]
        return f"\n*** Fin del partido: ganan {self.team(ev.winner)} ({us} a {them}) ***"


def _parse_choice(text: str, state: State, actions: tuple[Action, ...]) -> Action | str:
    """The action the human typed, or a message saying why it is not one."""
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(actions):
            return actions[n - 1]
        return f"No hay opción {n}: elegí un número del 1 al {len(actions)}."
    try:
        action = Action.parse(text)
    except NotationError as exc:
        try:  # a bare card, e.g. "1e", means playing it
            action = Action(Verb.PLAY, Card.parse(text))
        except NotationError:
            return f"No entiendo {text!r} ({exc}). Escribí un número o una acción, p. ej. 'truco'."
    if action not in actions:
        return f"No podés '{action}' ahora: {why_not(state, action)}"
    return action


def _ask(state: State, view: _View, input_fn: InputFn, print_fn: PrintFn) -> Action | None:
    """Show the table and the menu, and read until the human picks a legal action (None: quit)."""
    actions = legal_actions(state)
    print_fn("")
    print_fn(view.score(state))
    print_fn(f"Mano {state.hand_no} · es mano: {view.seat(state.mano)}")
    if state.truco > 1:
        print_fn(f"En juego: {_TRUCO_NAMES[state.truco]}")
    print_fn("\n".join(view.table(state)))
    pending = view.pending(state)
    if pending:
        print_fn(pending)
    print_fn(f"Tus cartas: {format_cards(state.hands[view.human]) or '(ninguna)'}")
    for i, action in enumerate(actions, 1):
        print_fn(f"  {i}) {action}")
    while True:
        try:
            text = input_fn("> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return None
        if text in QUIT_WORDS:
            return None
        if not text:
            print_fn(f"Elegí una opción del 1 al {len(actions)} ('q' para salir).")
            continue
        choice = _parse_choice(text, state, actions)
        if isinstance(choice, Action):
            return choice
        print_fn(choice)


def run_text_game(
    *,
    players: int = 2,
    target: int = 30,
    flor: bool = False,
    seed: int | None = None,
    human_seat: int = 0,
    input_fn: InputFn = input,
    print_fn: PrintFn = print,
) -> int:
    """Play a whole match in the terminal against bots; returns the process exit code."""
    try:
        rules = Rules(players=players, target=target, flor=flor)
    except RulesError as exc:
        print_fn(f"Reglas inválidas: {exc}")
        return 2
    if not 0 <= human_seat < players:
        print_fn(f"El asiento debe ser de 0 a {players - 1}, no {human_seat}.")
        return 2
    master = random.Random(seed)
    deal_rng = random.Random(master.getrandbits(64))
    bot_rng = random.Random(master.getrandbits(64))
    state = new_match(rules, mano=0)
    view = _View(state, human_seat)
    print_fn(
        f"Truco a {target} puntos, {players} jugadores, {'con' if flor else 'sin'} flor. "
        "Elegí la acción por su número o escribila (p. ej. 'play 1e', 'truco', 'quiero'); "
        "'q' para salir."
    )
    while (seat := to_act(state)) is not None:
        if seat == CHANCE:
            state, events = deal(state, deal_rng)
        elif seat == human_seat:
            action = _ask(state, view, input_fn, print_fn)
            if action is None:
                print_fn(f"\nPartido abandonado. {view.score(state)}")
                return 0
            state, events = apply(state, action)
        else:
            state, events = apply(state, bot_rng.choice(legal_actions(state)))
        for ev in events:
            if visible_to(ev, human_seat):
                print_fn(view.event(ev, state))
    return 0
