"""The beginner (Fácil) at a Truco Paulista table never plays an absurd move (docs/bots.md): the
Argentine property of ``test_levels`` over random Paulista deals, with Paulista's absurdities."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_levels import decisions
from truco.actions import CORRE, DOZE, JOGA, NOVE, SEIS, TRUCO, Action, Deal
from truco.bots import BeginnerBot, SimpleBot, make_bot
from truco.bots.base import Bot, Situation
from truco.bots.beginner import BEGINNER
from truco.bots.context import ctx_of_view
from truco.bots.strength import win_prob
from truco.cards import Card, parse_cards
from truco.engine import apply, legal_actions, to_act
from truco.rules import Rules
from truco.state import State, new_match
from truco.view import SeatView, observe

RAISES = frozenset((TRUCO, SEIS, NOVE, DOZE))
ZAP = 14
"""The zap's rank in a Paulista hand (``truco.manilhas``): the manilhas rank 11 to 14, a 3
that is no manilha 10."""

TABLES = [
    Rules(game="paulista"),
    Rules(game="paulista", players=4),
    Rules(game="paulista", manilhas="velha"),
    Rules(game="paulista", players=6, no_raise_to_win=True),
    Rules(game="paulista", baralho="limpo"),
]


def absurd(view: SeatView, legal: tuple[Action, ...], action: Action) -> str | None:
    """Why ``action`` is absurd in a Paulista hand (None if it is not): running from a call with
    the hand won for certain, raising with it lost for certain (as in the Argentine game);
    running from a mão de onze holding the zap and a 3 (or a manilha); running from a truco
    holding two manilhas."""
    ctx = ctx_of_view(view)
    p = win_prob(ctx)
    ranks = sorted((ctx.ranks[c] for c in ctx.hand), reverse=True)
    onze = action is CORRE and JOGA in legal and len(ranks) > 1
    if onze and ranks[0] == ZAP and ranks[1] >= 10:
        return "ran from a mão de onze with the zap and a 3"
    if action is CORRE and ctx.truco_call is not None:
        if p == 1.0:
            return "ran from a call with the hand won"
        if ctx.truco_call[0] == 3 and sum(r > 10 for r in ranks) >= 2:
            return "ran from a truco with two manilhas"
    if action in RAISES and p == 0.0:
        return "raised with the hand lost for certain"
    return None


def absurd_moves(rules: Rules, bots: list[Bot], watched: set[int], seed: int) -> list[str]:
    """Play a seeded match (from a random score, so that the mão de onze comes often); the
    absurd moves of the watched seats."""
    rng = Random(-seed)
    near = (11, 11, 10, 9, rng.randrange(12))  # the mão de onze, most often
    score = (rng.choice(near), rng.randrange(12)) if seed % 3 else (0, 0)
    found: list[str] = []
    for actor, view, legal, action in decisions(rules, bots, seed, score):
        why = absurd(view, legal, action) if actor in watched else None
        if why is not None:
            found.append(f"{bots[actor].name}: {why}")
    return found


def lineup(rules: Rules, bot: Bot, seed: int) -> tuple[list[Bot], set[int]]:
    """The bot in every other seat, random players (odd seeds) or ``simple`` in the others."""
    other = make_bot("random") if seed % 2 else SimpleBot()
    seats = set(range(seed % 2, rules.players, 2))
    return [bot if s in seats else other for s in range(rules.players)], seats


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.manilhas}-{r.baralho}-{r.players}")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_beginner_is_never_absurd_in_paulista(rules: Rules, seed: int) -> None:
    bots, watched = lineup(rules, make_bot("facil"), seed)
    assert absurd_moves(rules, bots, watched, seed) == []


def _dealt(score: tuple[int, int], hands: str) -> State:
    state = new_match(Rules(game="paulista"), score=score)
    one, two = hands.split(" | ")
    return apply(state, Deal((parse_cards(one), parse_cards(two)), Card.parse("3o"))).state


@pytest.mark.parametrize(
    ("score", "hands", "before"),
    [
        ((11, 5), "4b 3e 5c | 6c 7c 12o", ()),  # the zap (vira 3: the 4s) and a 3
        ((11, 5), "4b 4o 5c | 6c 7c 12o", ()),  # the zap and the pica-fumo
        ((2, 3), "6c 7c 12o | 4b 4e 5c", ("truco",)),  # a truco, two manilhas
        ((2, 3), "6c 7c 12o | 4o 4e 5c", ("truco",)),  # the two lowest manilhas
    ],
)
def test_the_beginner_never_runs_holding_these(
    score: tuple[int, int], hands: str, before: tuple[str, ...]
) -> None:
    """Whatever he misreads (200 draws), he plays the mão de onze with the zap and a 3 and
    accepts a truco with two manilhas."""
    state = _dealt(score, hands)
    for text in before:
        state = apply(state, Action.parse(text)).state
    seat = to_act(state)
    assert seat is not None and CORRE in legal_actions(state)
    beginner = make_bot("facil")
    view = observe(state, seat)
    chosen = {beginner.choose(Situation(view, legal_actions(state)), Random(i)) for i in range(200)}
    assert CORRE not in chosen
    assert absurd(view, legal_actions(state), CORRE) is not None


def test_the_paulista_check_catches_an_unguarded_beginner() -> None:
    """The property has teeth: a beginner who misreads even more, unguarded, is caught."""
    wild = BeginnerBot(BEGINNER._replace(sane=False, bluff=0.6, misread=1.5), name="wild")
    found: list[str] = []
    for seed in range(60):
        bots, watched = lineup(Rules(game="paulista"), wild, seed)
        found += absurd_moves(Rules(game="paulista"), bots, watched, seed)
    assert found
