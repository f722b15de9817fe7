"""The table in text, for people reading a ``State``: ``str(state)`` and ``repr(state)``.

A ``State`` is the omniscient state of a match, so the drawing shows every seat's cards, the
hidden ones too, and the face-down cards' faces: it is for a developer at a prompt or a failing
test, never for a player (what a seat may see is ``view.observe``).
"""

from __future__ import annotations

from truco.cards import Card
from truco.legal import seat_to_act
from truco.state import DEAL, DISCARD_KIND, FLOR_KIND, OVER, Play, State
from truco.variants import variant_of

TRICK_NAMES = ("primera", "segunda", "tercera")
TRUCO_NAMES = {1: "not called", 2: "truco", 3: "retruco", 4: "vale-cuatro"}


def summary(state: State) -> str:
    """One short line: ``<State hand 3, score 12-9, seat 1 to act>``."""
    score = "-".join(str(points) for points in state.score)
    return f"<State hand {state.hand_no}, score {score}, {_who_acts(state)}>"


def _who_acts(state: State) -> str:
    if state.phase == OVER:
        return f"over, {_scorer(state)} {state.winner} won"
    if state.phase == DEAL:
        return "to deal"
    return f"seat {seat_to_act(state)} to act"


def _scorer(state: State) -> str:
    """What a score belongs to: a team, or a player where scores are individual."""
    return "player" if state.rules.individual else "team"


def draw(state: State) -> str:
    """The table: the match, each seat's cards, the tricks and what waits for an answer."""
    rules = state.rules
    flor = ", flor" if rules.flor else ""
    score = "-".join(str(points) for points in state.score)
    if variant_of(rules).piles:  # a pile of porotos each, passed on until it is empty
        unit = "porotos left per player"
    else:
        unit = f"per {_scorer(state)}, to {rules.target}"
    lines = [f"Truco {rules.variant}, {rules.players} players{flor}; score {score} ({unit})"]
    if state.phase == OVER:
        lines.append(f"Match over after hand {state.hand_no}: {_scorer(state)} {state.winner} won")
        return "\n".join(lines)
    if state.phase == DEAL:
        lines.append(f"Hand {state.hand_no + 1} to deal")
        return "\n".join(lines)
    lines.append(f"Hand {state.hand_no}, mano seat {state.mano}, {_who_acts(state)}")
    for seat in range(rules.players):
        out = "  (out of this hand)" if (state.retired >> seat) & 1 else ""
        cards = _cards(state.hands[seat]) or "-"
        lines.append(f"  seat {seat} (team {state.teams[seat]}): {cards}{out}")
    for number, trick in enumerate(state.tricks):
        result = state.results[number]
        won = "parda" if result < 0 else f"team {result}"
        lines.append(f"  {_trick_name(number)}: {_plays(trick)} -> {won}")
    if state.plays:
        lines.append(f"  {_trick_name(state.trick)}: {_plays(state.plays)} ...")
    lines.extend(f"  {line}" for line in _calls(state))
    return "\n".join(lines)


def _trick_name(number: int) -> str:
    return TRICK_NAMES[number] if number < len(TRICK_NAMES) else f"trick {number + 1}"


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards)


def _plays(plays: tuple[Play, ...]) -> str:
    return ", ".join(
        f"{seat} {card}" + (" (tapada)" if face_down else "") for seat, card, face_down in plays
    )


def _calls(state: State) -> list[str]:
    """The truco as it stands, the envido and flor calls, and any call waiting for an answer."""
    lines = []
    if state.truco > 1:
        lines.append(f"truco: {TRUCO_NAMES[state.truco]} accepted")
    if state.chain:
        lines.append("envido calls: " + ", ".join(str(verb) for verb in state.chain))
    if state.flor_chain:
        lines.append("flor calls: " + ", ".join(str(verb) for verb in state.flor_chain))
    call = state.truco_call
    if call is not None:
        level, caller, responder = call
        lines.append(f"waiting: {TRUCO_NAMES[level]} by seat {caller}, seat {responder} answers")
    tanto = state.tanto_call
    if tanto is not None:
        kind, caller, responder = tanto
        if kind == DISCARD_KIND:
            lines.append(f"waiting: seat {caller}, the pie, discards one of four cards")
        else:
            what = "flor" if kind == FLOR_KIND else "envido"
            lines.append(f"waiting: {what} by seat {caller}, seat {responder} answers")
    return lines
