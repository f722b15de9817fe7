"""No bot throws a match in one answer (``truco.bots.guard``, hooked in ``driver.decide``): no
level accepts or raises to a falta envido that decides the match without the odds for it, in
every variant.

The property plays random matches from scores near the end (where a falta is worth the match),
with the seats steered towards the falta, and at every decision where a falta may be accepted
or called asks each level through ``driver.decide``: its choice is legal and never throws the
match. The slow levels (dificil, experto: searches) run behind the ``slow`` marker.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truco.actions import Action, Deal, Verb
from truco.bots import make_bot
from truco.bots.context import ctx_of_view
from truco.bots.driver import decide, situation
from truco.bots.equity import equity
from truco.bots.guard import falta_odds, throws
from truco.cards import DECK, Card
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.rules import Rules
from truco.state import PLAY, State, new_match

FAST = ("facil", "normal")
SLOW = ("dificil", "experto")

RULES = st.one_of(
    st.builds(Rules, players=st.sampled_from((2, 4, 6)), flor=st.booleans()),
    st.builds(Rules, variant=st.sampled_from(("pata_de_gallo", "pica_pica"))),
    st.builds(Rules, variant=st.just("destantado"), porotos=st.integers(2, 15)),
    st.builds(Rules, game=st.just("paulista"), players=st.sampled_from((2, 4))),
)
"""Every variant (Truco Paulista has no envido: nothing there may throw a match on a falta)."""


def at_stake(state: State) -> bool:
    """A falta may be accepted or called by the seat to act."""
    legal = legal_actions(state)
    return any(a.verb is Verb.FALTA_ENVIDO for a in legal) or (
        state.chain[-1:] == (Verb.FALTA_ENVIDO,) and any(a.verb is Verb.QUIERO for a in legal)
    )


def play_and_ask(rules: Rules, seed: int, levels: tuple[str, ...]) -> int:
    """Play a match from a late score; ask ``levels`` at every falta decision. Returns how many
    decisions were asked."""
    rng = Random(seed)
    if rules.variant == "destantado":
        score = tuple(rng.randint(1, rules.porotos) for _ in range(rules.scorers))
    else:
        score = tuple(rng.randrange(rules.target // 2, rules.target) for _ in range(rules.scorers))
    state = new_match(rules, score=score)
    bots = {level: make_bot(level) for level in levels}
    asked = 0
    for _ in range(400):
        seat = to_act(state)
        if seat is None:
            break
        if seat == CHANCE:
            state = deal(state, rng).state
            continue
        if at_stake(state):
            told = situation(state, seat)
            for level, bot in bots.items():
                action = decide(bot, told, Random(rng.random()))
                assert action in told.legal
                assert not throws(told, action), (level, str(action), state.chain, state.score)
            asked += 1
        legal = legal_actions(state)
        faltas = [a for a in legal if a.verb is Verb.FALTA_ENVIDO]
        state = apply(state, faltas[0] if faltas and rng.random() < 0.6 else rng.choice(legal))[0]
    return asked


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1))
def test_no_level_throws_the_match_on_a_falta_in_any_variant(rules: Rules, seed: int) -> None:
    play_and_ask(rules, seed, FAST)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1))
def test_the_searching_levels_never_throw_the_match_on_a_falta(rules: Rules, seed: int) -> None:
    play_and_ask(rules, seed, SLOW)


def facing_falta(rules: Rules, held: tuple[str, ...]) -> State:
    """Seat to answer holds ``held``, after envido, real envido and falta envido."""
    mine = tuple(Card.parse(c) for c in held)
    rest = [c for c in DECK if c not in mine]
    hands = [tuple(rest[3 * i : 3 * i + 3]) for i in range(rules.players)]
    responder = 1 if rules.players == 2 else 3
    hands[responder] = mine
    state = apply(new_match(rules), Deal(tuple(hands))).state
    for call in ("envido", "real-envido", "falta-envido"):
        state = apply(state, Action.parse(call)).state
    assert state.phase == PLAY and to_act(state) == responder
    return state


def test_a_normal_partner_does_not_accept_the_match_with_28_in_pica_pica() -> None:
    # Pica-pica at 0-0: envido, real envido, falta, worth the match; the Normal bot holds 28
    # against three rivals, one of them the falta's caller. Its own rule said quiero.
    state = facing_falta(Rules(variant="pica_pica"), ("7c", "1c", "4o"))
    told = situation(state, to_act(state) or 0)
    assert told.view.tantos == 28
    normal = make_bot("normal")
    assert normal.choose(told, Random(1)).verb is Verb.QUIERO  # what the level alone does
    assert decide(normal, told, Random(1)).verb is Verb.NO_QUIERO
    # The odds, by the bots' own envido table: under what declining keeps (the rivals' 5).
    assert falta_odds(ctx_of_view(told.view)) < equity(30, 0, 5)


def test_the_guard_keeps_a_falta_with_the_odds_for_it() -> None:
    # With 33 the same falta is accepted; and 1 vs 1 with 28 the odds are there too.
    strong = facing_falta(Rules(variant="pica_pica"), ("7c", "6c", "4c"))
    told = situation(strong, to_act(strong) or 0)
    assert told.view.tantos == 33 and not throws(told, Action.parse("quiero"))
    duel = facing_falta(Rules(players=2), ("7c", "1c", "4o"))
    assert not throws(situation(duel, 1), Action.parse("quiero"))
