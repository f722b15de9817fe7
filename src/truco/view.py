"""What one seat (or a spectator) may see of a match: the only way hidden cards leave the core.

``observe(state, seat)`` shows the seat its own cards, every card played face up, its own
face-down cards, the public calls and declarations, and the cards shown at the end of a hand.
Other seats' unplayed cards, and other seats' face-down cards, never appear in it.
"""

from __future__ import annotations

from typing import NamedTuple

from truco.actions import Action, Verb
from truco.cards import Card
from truco.engine import legal_actions, to_act
from truco.rules import Rules
from truco.state import ENVIDO_KIND, FLOR_KIND, PLAY, State

PlayView = tuple[int, Card | None, bool]
"""A card on the table as the viewer sees it: (seat, card or None if face down, face_down)."""


class SeatView(NamedTuple):
    """One seat's (or a spectator's, ``seat=None``) view of the match."""

    seat: int | None
    rules: Rules
    score: tuple[int, ...]
    phase: int
    winner: int
    hand_no: int
    mano: int
    teams: tuple[int, ...]
    """The side of each seat in this hand (it changes each hand in pata de gallo)."""
    pica: int
    """Pica-pica: which 1v1 hand of a round this is (0-2), or -1 for a hand of everyone."""
    stakes: tuple[int, ...]
    """Destantado: what each seat stands to lose in the hand's truco (0: out of it)."""
    to_act: int | None
    """The seat that must act (-1 while dealing, None when the match is over)."""
    hand: tuple[Card, ...]
    """The viewer's own cards still held (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat still holds."""
    tantos: int | None
    """The viewer's own envido points (None for a spectator)."""
    flor: int | None
    """The viewer's own flor points, if he has one at a table with flor."""
    tricks: tuple[tuple[PlayView, ...], ...]
    """The finished tricks of this hand."""
    plays: tuple[PlayView, ...]
    """The cards of the trick being played."""
    results: tuple[int, ...]
    """The team that won each finished trick, -1 for a parda."""
    trick: int
    retired: tuple[int, ...]
    """The seats out of this hand: gone to the mazo, declined a destantado truco, or sitting out
    a 1v1 hand of pica-pica."""
    truco: int
    truco_owner: int
    truco_call: tuple[int, int, int] | None
    envido_call: tuple[int, int] | None
    """An envido waiting for an answer: (caller, responder)."""
    flor_call: tuple[int, int] | None
    """A flor waiting for an answer: (caller, responder)."""
    envido_open: bool
    chain: tuple[Verb, ...]
    flor_chain: tuple[Verb, ...]
    hand_points: tuple[int, ...]
    history: tuple[tuple[int, str], ...]
    """This hand's actions as the viewer may know them (other seats' tapadas without the card)."""
    declared: tuple[tuple[int, int | None, bool], ...]
    """Envido and flor declarations: (seat, points or None for son buenas, flor)."""
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    """Cards shown at the end of the hand to prove the winning tantos (empty until then)."""
    legal: tuple[Action, ...]
    """The viewer's legal actions (empty unless the viewer is to act)."""


def _mask_play(play: tuple[int, Card, bool], seat: int | None) -> PlayView:
    who, card, face_down = play
    return (who, None if face_down and who != seat else card, face_down)


def _public_action(who: int, action: Action, seat: int | None) -> str:
    if action.verb is Verb.TAPADA and who != seat:
        return "tapada ??"
    if action.verb is Verb.DISCARD and who != seat:
        return "discard ??"
    return str(action)


def observe(state: State, seat: int | None) -> SeatView:
    """The view of ``seat``; ``None`` is a spectator, who sees public information only."""
    if seat is not None and not 0 <= seat < state.rules.players:
        raise ValueError(f"there is no seat {seat} at a table of {state.rules.players}")
    actor = to_act(state)
    hand_over = state.phase != PLAY
    tanto = state.tanto_call
    own_flor = state.flores[seat] if seat is not None else -1
    return SeatView(
        seat=seat,
        rules=state.rules,
        score=state.score,
        phase=state.phase,
        winner=state.winner,
        hand_no=state.hand_no,
        mano=state.mano,
        teams=state.teams,
        pica=state.pica,
        stakes=state.stakes,
        to_act=actor,
        hand=state.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        tantos=state.tantos[seat] if seat is not None and state.hand_no else None,
        flor=own_flor if own_flor >= 0 else None,
        tricks=tuple(tuple(_mask_play(p, seat) for p in trick) for trick in state.tricks),
        plays=tuple(_mask_play(p, seat) for p in state.plays),
        results=state.results,
        trick=state.trick,
        retired=tuple(s for s in range(state.rules.players) if (state.retired >> s) & 1),
        truco=state.truco,
        truco_owner=state.truco_owner,
        truco_call=state.truco_call,
        envido_call=(tanto[1], tanto[2]) if tanto and tanto[0] == ENVIDO_KIND else None,
        flor_call=(tanto[1], tanto[2]) if tanto and tanto[0] == FLOR_KIND else None,
        envido_open=state.envido_open,
        chain=state.chain,
        flor_chain=state.flor_chain,
        hand_points=state.hand_points,
        history=tuple((who, _public_action(who, a, seat)) for who, a in state.log),
        declared=state.declared,
        shown=state.shown if hand_over else (),
        legal=legal_actions(state) if actor is not None and actor == seat else (),
    )


def visible_cards(view: SeatView) -> set[Card]:
    """Every card identity that appears in a view (used to prove no hidden card leaks)."""
    cards: set[Card] = set(view.hand)
    for trick in (*view.tricks, view.plays):
        cards.update(c for _, c, _ in trick if c is not None)
    for _, shown in view.shown:
        cards.update(shown)
    return cards
