"""A line-based terminal game against random bots (``truco play --plain``).

The human sits at ``human_seat``; every other seat picks uniformly among the legal actions.
Only what the human's seat may see is printed (``observe`` and ``visible_to``), so other seats'
cards never show (a face-down card is "tapada"). The words are the Textual client's
(``truco.tui.text``), printed without their styles. Textual is not needed to play it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from truco.actions import Action, Verb
from truco.cards import Card, format_cards
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.errors import NotationError, RulesError
from truco.events import HandEnded, HandStarted, MatchEnded, visible_to
from truco.explain import why_not
from truco.rules import Rules, Variant
from truco.state import State, new_match
from truco.tui import text
from truco.variants import variant_of
from truco.view import SeatView, observe

InputFn = Callable[[str], str]
PrintFn = Callable[[str], object]

QUIT_WORDS = frozenset({"q", "quit", "salir"})


def _names(view: SeatView) -> text.Names:
    return text.Names.of(view, plain=True)


def _score(view: SeatView) -> str:
    names = _names(view)
    goal = "" if names.piles else f"  [a {view.rules.target}]"
    return text.plain(text.score_line(view, names)) + goal


def _parse_choice(typed: str, state: State, actions: tuple[Action, ...]) -> Action | str:
    """The action the human typed, or a message saying why it is not one."""
    if typed.isdigit():
        n = int(typed)
        if 1 <= n <= len(actions):
            return actions[n - 1]
        return f"No hay opción {n}: elegí un número del 1 al {len(actions)}."
    try:
        action = Action.parse(typed)
    except NotationError as exc:
        try:  # a bare card, e.g. "1e", means playing it (or, for the pie, discarding it)
            card = Card.parse(typed)
        except NotationError:
            return f"No entiendo {typed!r} ({exc}). Escribí un número o una acción, p. ej. 'truco'."
        action = Action(Verb.PLAY, card)
        if action not in actions and Action(Verb.DISCARD, card) in actions:
            action = Action(Verb.DISCARD, card)
    if action not in actions:
        return f"No podés '{action}' ahora: {why_not(state, action)}"
    return action


def _ask(state: State, seat: int, input_fn: InputFn, print_fn: PrintFn) -> Action | None:
    """Show the table and the menu, and read until the human picks a legal action (None: quit)."""
    actions = legal_actions(state)
    view = observe(state, seat)
    names = _names(view)
    print_fn("")
    print_fn(_score(view))
    table = [text.plain(line) for line in text.table_lines(view, names)]
    print_fn(table[0])
    for line in table[1:]:
        print_fn(f"  {line}")
    stakes = text.stakes_line(view, names)
    if stakes:
        print_fn(f"  {text.plain(stakes)}")
    pending = text.pending_call(view, names)
    if pending:
        print_fn(text.plain(pending))
    print_fn(f"Tus cartas: {format_cards(view.hand) or '(ninguna)'}")
    for i, action in enumerate(actions, 1):
        print_fn(f"  {i}) {action}")
    while True:
        try:
            typed = input_fn("> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return None
        if typed in QUIT_WORDS:
            return None
        if not typed:
            print_fn(f"Elegí una opción del 1 al {len(actions)} ('q' para salir).")
            continue
        choice = _parse_choice(typed, state, actions)
        if isinstance(choice, Action):
            return choice
        print_fn(choice)


def _intro(rules: Rules) -> str:
    info = variant_of(rules)
    if info.piles:
        what = f"Destantado: {rules.porotos} porotos cada uno, gana el que se queda sin"
    else:
        what = f"Truco{' ' + info.title if info.title else ''} a {rules.target} puntos"
    partner = ""
    if rules.players > 2 and not info.own_side:
        partner = " Un + marca a tu compañero" + (
            " de la mano (cambia en cada mano)." if info.pie_alone else "."
        )
    return (
        f"{what}, {rules.players} jugadores, {'con' if rules.flor else 'sin'} flor.{partner} "
        "Elegí la acción por su número o escribila (p. ej. 'play 1e', 'truco', 'quiero'); "
        "'q' para salir."
    )


def run_text_game(
    *,
    players: int = 2,
    target: int = 30,
    flor: bool = False,
    variant: Variant = "standard",
    seed: int | None = None,
    human_seat: int = 0,
    input_fn: InputFn = input,
    print_fn: PrintFn = print,
) -> int:
    """Play a whole match in the terminal against bots; returns the process exit code."""
    try:
        rules = Rules(variant=variant, players=players, target=target, flor=flor)
    except RulesError as exc:
        print_fn(f"Reglas inválidas: {exc}")
        return 2
    if not 0 <= human_seat < rules.players:
        print_fn(f"El asiento debe ser de 0 a {rules.players - 1}, no {human_seat}.")
        return 2
    master = random.Random(seed)
    deal_rng = random.Random(master.getrandbits(64))
    bot_rng = random.Random(master.getrandbits(64))
    state = new_match(rules, mano=0)
    print_fn(_intro(rules))
    while (seat := to_act(state)) is not None:
        if seat == CHANCE:
            state, events = deal(state, deal_rng)
        elif seat == human_seat:
            action = _ask(state, human_seat, input_fn, print_fn)
            if action is None:
                print_fn(f"\nPartido abandonado. {_score(observe(state, human_seat))}")
                return 0
            state, events = apply(state, action)
        else:
            state, events = apply(state, bot_rng.choice(legal_actions(state)))
        view = observe(state, human_seat)
        names = _names(view)
        for ev in events:
            if not visible_to(ev, human_seat):
                continue
            markup = text.event_line(ev, names, view)
            if markup is None:
                continue
            line = text.plain(markup)
            if isinstance(ev, HandStarted):
                line = f"\n{line}"
            elif isinstance(ev, MatchEnded):
                line = f"\n*** {line} ***"
            print_fn(line)
            if isinstance(ev, HandEnded):
                print_fn(_score(view))
    return 0
