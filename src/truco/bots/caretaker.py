"""The caretaker: the bot that keeps an absent player's seat (a dropped connection, a turn clock
run out) without betting in her name.

It plays cards and answers calls as ``simple`` does, choosing among the legal actions less the
ones a caretaker never takes:

- no bet started or raised: no truco, retruco or vale cuatro (on its turn or as the answer to a
  call), no envido, real envido or falta envido (neither called nor given as an answer: "el
  envido está primero" is a call too), no contraflor nor contraflor al resto;
- so no falta is ever sung; accepting a rival's falta envido is an answer, and ``simple``
  weighs it by match equity as it weighs any other;
- no mazo unless the hand is already lost (``hand_lost``).

The flor is not a bet: a seat holding one at a table with flor must sing it, and the rules then
offer nothing else (``legal`` is ``flor`` alone), so the caretaker sings it as the player would
have had to. Answering a rival's flor with "con flor quiero" or "con flor me achico" is an
answer; the contraflor that raises it is not taken.
"""

from __future__ import annotations

from random import Random

from truco.actions import (
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO_CALLS,
    MAZO,
    TRUCO_RAISE,
    Action,
)
from truco.bots.base import Situation
from truco.bots.simple import SimpleBot
from truco.cards import DECK
from truco.state import Play
from truco.tricks import PARDA, hand_winner, trick_result
from truco.variants import variant_of
from truco.view import SeatView

BETS: frozenset[Action] = frozenset((*TRUCO_RAISE.values(), *ENVIDO_CALLS, CONTRAFLOR))
"""Calls that start or raise a bet: never taken by the caretaker."""
FALTAS: frozenset[Action] = frozenset((ENVIDO_CALLS[-1], CONTRAFLOR_AL_RESTO))
"""The faltas (falta envido, contraflor al resto): never sung by the caretaker."""
NEVER: frozenset[Action] = BETS | FALTAS


def hand_lost(view: SeatView) -> bool:
    """Whether the viewer's side has already lost the hand: the trick being played decides it
    for the rivals, whatever card she plays and whatever the seats still to play in it hold.

    Precisely, from the view: no partner of hers still in the hand is left to play in the trick
    (a partner may hold anything, so the trick could still be theirs), and for every card she
    may put on it (each card she holds, face up or face down; none if hers is already there)
    and every way the trick may then end (as the cards on the table give it, or taken or tied
    by a rival still to play in it) the tricks so far plus this one give the hand to a rival
    side (``tricks.hand_winner``; in destantado a trick won by a player who has left the hand
    counts as a parda, and three pardas go to the first player still in from the mano). A trick
    with no card on it yet is never lost: nothing is guessed about the cards still held.
    """
    seat = view.seat
    if seat is None or not view.plays:
        return False
    teams = view.teams
    mine = teams[seat]
    retired = set(view.retired)
    played = {s for s, _, _ in view.plays}
    to_play = [s for s in range(len(teams)) if s not in played and s not in retired and s != seat]
    if any(teams[s] == mine for s in to_play):
        return False  # a partner may still take the trick
    # A face-down card is not seen, but it ranks below every card whatever it is.
    table: list[Play] = [(s, DECK[0] if c is None else c, down) for s, c, down in view.plays]
    if seat in played:
        options = [table]
    else:
        options = [[*table, (seat, c, down)] for c in view.hand for down in (False, True)]
    own_side = variant_of(view.rules).own_side  # each on his own, as in destantado
    if own_side:
        order = [(view.mano + i) % len(teams) for i in range(len(teams))]
        mano_side = next(teams[s] for s in order if s not in retired)
    else:
        mano_side = teams[view.mano]
    # What the seats still to play may make of the trick: take it, or tie it into a parda.
    later = {teams[s] for s in to_play} | ({PARDA} if to_play else set())
    for plays in options:
        for side in {trick_result(plays, teams)[0]} | later:
            results = (*view.results, side)
            if own_side:
                results = tuple(PARDA if r >= 0 and r in retired else r for r in results)
            won_by = hand_winner(results, mano_side)
            if won_by is None or won_by == mine:
                return False
    return bool(options)


def allowed(view: SeatView, legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """The legal actions a caretaker may take: no bet, no falta, no mazo in a hand not lost."""
    keep = tuple(a for a in legal if a not in NEVER)
    if MAZO in keep and not hand_lost(view):
        keep = tuple(a for a in keep if a is not MAZO)
    return keep or legal  # never empty: every decision offers a card or an answer


class CaretakerBot:
    """Plays an absent player's seat like ``simple``, but never bets in her name."""

    name = "caretaker"

    def __init__(self) -> None:
        self._simple = SimpleBot()

    def choose(self, told: Situation, rng: Random) -> Action:
        # Simple's choice among what a caretaker may do, deaf to señas: it plays for a person
        # who may have made or heard any.
        legal = allowed(told.view, told.legal)
        return self._simple.choose(Situation(told.view, legal), rng)
