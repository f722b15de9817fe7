"""A line-based terminal game against bots (``truco play --plain``), in Spanish words.

The human sits at ``human_seat``; bots of one level (``facil`` ... ``experto``, the full client's
``LocalGame``, with its Spanish personas) take every other seat. Only what the human's seat may
see is printed (``observe`` and ``visible_to``), so other seats' cards never show. The menu lists
the legal actions in words ("jugar el 12 de espada", "me voy al mazo"); the player types the
number, the words, or the notation (``play 12e``). The words are the Textual client's
(``truco.tui.text``), printed without their styles. Textual is not needed to play it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from truco.actions import Action, Verb
from truco.bots import LEVELS
from truco.bots.personas import label, level_of
from truco.cards import Card
from truco.errors import NotationError, RulesError, TrucoError
from truco.events import HandEnded, HandStarted, MatchEnded
from truco.explain import why_not
from truco.rules import Rules, Variant
from truco.state import State
from truco.tui import text
from truco.tui.session import LocalGame, default_bot
from truco.variants import variant_of
from truco.view import SeatView

InputFn = Callable[[str], str]
PrintFn = Callable[[str], object]

QUIT_WORDS = frozenset({"q", "quit", "salir"})
MAX_COMMAND = 80
"""The longest command read (characters); a longer line is refused, not echoed back."""


def _names(view: SeatView, game: LocalGame) -> text.Names:
    return text.Names.of(view, game.names, plain=True)


def _score(view: SeatView, game: LocalGame) -> str:
    names = _names(view, game)
    goal = "" if names.piles else f"  [a {view.rules.target}]"
    return text.plain(text.score_line(view, names)) + goal


def _menu(actions: Sequence[Action], french: bool = False) -> list[str]:
    """The numbered menu of the legal actions, in words (``french``: at a Paulista table)."""
    return [f"  {i}) {text.action_words(a, french=french)}" for i, a in enumerate(actions, 1)]


def _options(actions: Sequence[Action], french: bool = False) -> str:
    """What the player may do, on one line (after a command that is none of it)."""
    said = " · ".join(
        f"{i}) {text.action_words(a, french=french)}" for i, a in enumerate(actions, 1)
    )
    return f"Podés: {said}. Escribí el número o las palabras."


def _parse_notation(typed: str, actions: Sequence[Action]) -> Action | None:
    """An action typed in notation (``play 1e``, ``vale-cuatro``), or a bare card (``1e``: play
    it, or for the pie discard it); None if it is not notation."""
    try:
        return Action.parse(typed)
    except NotationError:
        try:
            card = Card.parse(typed)
        except NotationError:
            return None
    action = Action(Verb.PLAY, card)
    if action not in actions and Action(Verb.DISCARD, card) in actions:
        action = Action(Verb.DISCARD, card)
    return action


def _parse_choice(typed: str, state: State, actions: Sequence[Action]) -> Action | str:
    """The action the human typed (a number, Spanish words or notation), or a message saying
    why it is not one and what is possible."""
    french = state.rules.game == "paulista"
    if len(typed) > MAX_COMMAND:
        return f"No entiendo una orden de más de {MAX_COMMAND} letras. {_options(actions, french)}"
    if typed.isdigit():
        n = int(typed)
        if 1 <= n <= len(actions):
            return actions[n - 1]
        said = f"No hay opción {n}: elegí un número del 1 al {len(actions)}."
        return f"{said} {_options(actions, french)}"
    action = text.parse_words(typed, actions) or _parse_notation(typed, actions)
    if action is None:
        return f"No entiendo {typed!r}. {_options(actions, french)}"
    if action not in actions:
        return f"No podés '{typed}' ahora: {why_not(state, action)}. {_options(actions, french)}"
    return action


def _ask(game: LocalGame, input_fn: InputFn, print_fn: PrintFn) -> Action | None:
    """Show the table and the menu, and read until the human picks a legal action (None: quit)."""
    view = game.view
    actions = view.legal
    names = _names(view, game)
    print_fn("")
    print_fn(_score(view, game))
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
    print_fn(f"Tus cartas: {names.cards(view.hand) or '(ninguna)'}")
    for line in _menu(actions, names.french):
        print_fn(line)
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
        choice = _parse_choice(typed, game.state, actions)
        if isinstance(choice, Action):
            return choice
        print_fn(choice)


def choose_level(input_fn: InputFn, print_fn: PrintFn, default: str) -> str | None:
    """Ask which level the bots play at (the full client's levels, by number or name; Enter
    takes ``default``); None: the player quit."""
    levels = tuple(LEVELS)
    print_fn("¿Contra qué bots jugás?")
    for i, level in enumerate(levels, 1):
        print_fn(f"  {i}) {label(level)}" + (" (Enter)" * (level == level_of(default))))
    while True:
        try:
            typed = input_fn("> ").strip()[:MAX_COMMAND]  # a level's name is a word
        except (EOFError, KeyboardInterrupt):
            return None
        key = " ".join(text.words_key(typed))
        if key in QUIT_WORDS:
            return None
        if not typed:
            return default
        if typed.isdigit() and 1 <= int(typed) <= len(levels):
            return levels[int(typed) - 1]
        if key in levels:
            return key
        said = " · ".join(f"{i}) {label(level)}" for i, level in enumerate(levels, 1))
        print_fn(f"No hay nivel {typed!r}. Podés: {said}, o Enter para {label(default)}.")


def _intro(rules: Rules) -> str:
    info = variant_of(rules)
    if info.game == "paulista":
        return (
            f"Truco Paulista a {rules.target} tentos, {rules.players} jugadores, manilhas "
            f"{'fijas (velha)' if rules.manilhas == 'velha' else 'de la vira'}. Elegí la acción "
            "por su número (o en notación: 'play 7c', 'seis', 'desce', 'corre'); 'q' para salir."
        )
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
        "Elegí la acción por su número o escribila (p. ej. 'jugar el 7 de oro', 'truco', "
        "'quiero', 'me voy al mazo'); 'q' para salir."
    )


def _seats(game: LocalGame) -> str:
    """Who sits where: the bots by their personas, with their level beside."""
    level = label(game.bot_name)
    return "En la mesa: " + ", ".join(
        "Vos" if s == game.seat else f"{name} ({level})" for s, name in enumerate(game.names)
    )


def run_text_game(
    *,
    players: int = 2,
    target: int = 30,
    flor: bool = False,
    variant: Variant = "standard",
    seed: int | None = None,
    human_seat: int = 0,
    bot: str | None = None,
    choose_bot: bool = False,
    input_fn: InputFn = input,
    print_fn: PrintFn = print,
) -> int:
    """Play a whole match in the terminal against bots; returns the process exit code.

    ``bot`` is a level (``facil`` ... ``experto``) or a bot's name; without it, the full client's
    default. ``choose_bot`` asks the player for the level first (``truco play --plain`` without
    ``--bot``)."""
    try:
        rules = Rules(variant=variant, players=players, target=target, flor=flor)
    except RulesError as exc:
        print_fn(f"Reglas inválidas: {exc}")
        return 2
    if not 0 <= human_seat < rules.players:
        print_fn(f"El asiento debe ser de 0 a {rules.players - 1}, no {human_seat}.")
        return 2
    print_fn(_intro(rules))
    if choose_bot:
        bot = choose_level(input_fn, print_fn, bot or default_bot())
        if bot is None:
            print_fn("Partido abandonado antes de empezar.")
            return 0
    try:
        game = LocalGame(rules=rules, seed=seed, bot=bot, seat=human_seat)
    except TrucoError as exc:
        print_fn(f"No hay bots {bot!r}: {exc}")
        return 2
    print_fn(_seats(game))
    while not game.over:
        if game.human_to_act:
            action = _ask(game, input_fn, print_fn)
            if action is None:
                print_fn(f"\nPartido abandonado. {_score(game.view, game)}")
                return 0
            events = game.play(action)
        else:
            events = game.step() or []
        view = game.view
        names = _names(view, game)
        for ev in events:
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
                print_fn(_score(view, game))
        for notice in game.notices:  # a bot partner's señas
            print_fn(notice)
        game.notices.clear()
    return 0
