"""Señas by bots (issue 14, point 1): which seña for which hand and when, reading them into
the expert's sampled worlds, and that a seña never reaches a rival."""

from __future__ import annotations

from itertools import combinations
from random import Random
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from truco.actions import Action, Deal, Verb
from truco.arena import play_match
from truco.bots import BOTS, ExpertBot, SimpleBot
from truco.bots.base import Situation
from truco.bots.senas import (
    SENAS,
    Exchange,
    Heard,
    draw_hand,
    due,
    fits,
    partners,
    told,
)
from truco.bots.worlds import sample_worlds
from truco.cards import DECK, Card, parse_cards
from truco.engine import apply, deal, legal_actions, to_act
from truco.rules import Rules
from truco.state import State, new_match
from truco.view import observe

FOUR = Rules(players=4)
SIX = Rules(players=6)


def dealt(rules: Rules, *hands: str) -> State:
    """A hand dealt with the given cards (seat 0 first); the remaining seats get low cards."""
    given_hands = [parse_cards(h) for h in hands]
    used = {c for h in given_hands for c in h}
    rest = [c for c in DECK if c not in used]
    while len(given_hands) < rules.players:
        given_hands.append(tuple(rest[:3]))
        rest = rest[3:]
    return apply(new_match(rules), Deal(tuple(given_hands))).state


def senas_of(state: State, seat: int, sent: frozenset[str] = frozenset()) -> tuple[str, ...]:
    return due(observe(state, seat), sent)


# --- which seña for which hand, and when --------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1e 4b 6c", ("ancho-espada",)),
        ("3c 7o 1e", ("ancho-espada", "siete-oro")),  # the best two, best first
        ("1e 1b 7o", ("ancho-espada", "ancho-basto")),  # never more than two
        ("3e 3o 4c", ("tres",)),  # two treses make one seña
        ("2b 1c 12o", ("dos", "ancho-falso")),
        ("4c 5o 12b", ("nada",)),
        ("7o 6o 4c", ("siete-oro", "envido-alto")),  # 33 of envido
        ("5e 7e 10b", ("siete-espada", "envido-alto")),  # 32
        ("5e 2e 10b", ("dos",)),  # 27: not high
    ],
)
def test_the_senas_of_a_hand(hand: str, expected: tuple[str, ...]) -> None:
    state = dealt(FOUR, hand)
    assert senas_of(state, 0) == expected


def test_flor_at_a_table_with_flor_and_envido_alto_without() -> None:
    assert senas_of(dealt(Rules(players=4, flor=True), "4o 5o 6o"), 0) == ("nada", "flor")
    assert senas_of(dealt(FOUR, "4o 5o 6o"), 0) == ("nada", "envido-alto")


def test_no_senas_without_a_partner() -> None:
    assert senas_of(dealt(Rules(), "1e 7o 3c"), 0) == ()  # 1 vs 1
    for variant in ("pata_de_gallo", "destantado"):  # each on his own in the match
        state = deal(new_match(Rules(variant=variant)), Random(1)).state
        assert all(senas_of(state, s) == () for s in range(3))


def test_no_senas_in_a_1v1_hand_of_pica_pica() -> None:
    rules = Rules(variant="pica_pica")
    state = deal(new_match(rules, pica=0), Random(2)).state
    view = observe(state, state.mano)
    assert len(view.playing) == 2 and due(view, ()) == ()


def test_a_seña_is_made_once_per_hand() -> None:
    state = dealt(FOUR, "3c 7o 1e")
    assert senas_of(state, 0, frozenset({"ancho-espada", "siete-oro"})) == ()
    state = dealt(FOUR, "7o 6o 4c")
    assert senas_of(state, 0, frozenset({"siete-oro"})) == ("envido-alto",)


def test_no_senas_after_the_first_trick() -> None:
    state = dealt(FOUR, "1e 4b 6c")
    while state.trick == 0:
        plays = [a for a in legal_actions(state) if a.verb is Verb.PLAY]
        state = apply(state, plays[0]).state
    assert all(senas_of(state, s) == () for s in range(4))


def test_envido_alto_while_an_envido_waits_not_once_it_is_played() -> None:
    state = dealt(FOUR, "4b 5b 6c", "4c 5c 12o", "7o 6o 4e")
    state = apply(state, Action.parse("envido")).state  # seat 0 sings envido
    assert "envido-alto" in senas_of(state, 2)  # seat 1's answer waits: it still matters
    state = apply(state, Action.parse("quiero")).state
    assert "envido-alto" not in senas_of(state, 2)
    assert senas_of(dealt(FOUR, "4b 5b 6c", "4c 5c 12o", "7o 6o 4e"), 2) == (
        "siete-oro",
        "envido-alto",
    )


def test_partners_are_the_same_side() -> None:
    assert partners((0, 1, 0, 1), 0) == (2,)
    assert partners((0, 1, 0, 1, 0, 1), 3) == (1, 5)


# --- what a seña says ------------------------------------------------------------------------

hands3 = st.lists(st.sampled_from(DECK), min_size=3, max_size=3, unique=True)


@given(hands3)
def test_a_bot_s_senas_fit_its_own_hand(hand: list[Card]) -> None:
    """Reading is making backwards: the hand that made señas always fits them."""
    state = dealt(FOUR, " ".join(map(str, hand)))
    made = senas_of(state, 0)
    assert made
    assert fits(told(tuple((0, s) for s in made))[0], sorted(hand))


@pytest.mark.parametrize(
    ("senas", "hand", "ok"),
    [
        (("nada",), "4c 5o 12b", True),
        (("nada",), "4c 5o 2b", False),
        (("tres",), "3e 3o 4c", True),
        (("tres",), "3e 2o 4c", False),  # one seña: nothing else worth showing
        (("ancho-espada", "tres"), "1e 3o 2c", True),  # the third card goes unsaid
        (("ancho-espada", "tres"), "1e 7o 3c", False),  # a better card hidden
        (("ancho-espada",), "1b 4o 5c", False),
        (("envido-alto",), "7o 6o 4c", True),
        (("envido-alto",), "7o 6e 4c", False),
        (("flor",), "4o 5o 6o", True),
        (("flor",), "4o 5o 6e", False),
    ],
)
def test_what_a_seña_says(senas: tuple[str, ...], hand: str, ok: bool) -> None:
    heard: Heard = tuple((1, s) for s in senas)
    assert fits(told(heard)[1], sorted(parse_cards(hand))) is ok


def test_draw_hand_is_uniform_over_the_hands_that_fit() -> None:
    """Placing a shown card first would favour hands with two of its kind; the weight undoes
    it: the weighted frequency of each fitting hand is the same."""
    pool = [c for c in DECK if c.rank in (3, 4, 5)]  # four treses, four cuatros, four cincos
    t = told(((1, "tres"),))[1]
    fitting = [h for h in combinations(sorted(pool), 3) if fits(t, h)]
    rng = Random(7)
    mass: dict[tuple[Card, ...], float] = {}
    total = 0.0
    for _ in range(30_000):
        got = draw_hand(t, [], pool, 3, rng)
        assert got is not None
        cards, weight = got
        key = tuple(sorted(cards))
        mass[key] = mass.get(key, 0.0) + weight
        total += weight
    assert set(mass) == set(fitting)
    expected = total / len(fitting)
    # Each group of hands (one, two or three treses) gets its share: without the weight, hands
    # with two treses would come out twice as often as hands with one.
    for treses in (1, 2, 3):
        group = [h for h in fitting if sum(c.rank == 3 for c in h) == treses]
        share = sum(mass[h] for h in group) / len(group)
        assert abs(share - expected) / expected < 0.08, (treses, share / expected)


# --- reading señas into the expert's worlds -------------------------------------------------


def first_decision(rules: Rules, seed: int) -> State:
    return deal(new_match(rules, mano=seed % rules.players), Random(seed)).state


@hsettings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), six=st.booleans())
def test_sampled_worlds_agree_with_the_senas_received(seed: int, six: bool) -> None:
    rules = SIX if six else FOUR
    state = first_decision(rules, seed)
    actor = to_act(state)
    assert actor is not None
    exchange = Exchange(rules.players)
    exchange.before(state, actor, [True] * rules.players)
    heard = exchange.heard_by(actor, state.hand_no)
    assert heard and all(state.teams[who] == state.teams[actor] for who, _ in heard)
    view = observe(state, actor)
    worlds = sample_worlds(view, Random(seed), 24, 400, heard)
    assert worlds
    said = told(heard)
    for world, weight in worlds:
        assert weight > 0
        for who, t in said.items():
            assert fits(t, world.dealt[who])


def test_without_senas_the_worlds_do_not_all_agree() -> None:
    """The check above is not vacuous: unconstrained worlds break the señas."""
    broken = 0
    for seed in range(10):
        state = first_decision(FOUR, seed)
        actor = to_act(state)
        assert actor is not None
        partner = partners(state.teams, actor)[0]
        t = told(tuple((partner, s) for s in senas_of(state, partner)))[partner]
        worlds = sample_worlds(observe(state, actor), Random(seed), 24, 400)
        broken += sum(not fits(t, w.dealt[partner]) for w, _ in worlds)
    assert broken > 0


def test_senas_nobody_could_hold_are_dropped() -> None:
    """A person may sign a card her partner holds: the worlds are sampled without it."""
    state = dealt(FOUR, "1e 4b 6c")
    heard: Heard = ((2, "ancho-espada"),)
    worlds = sample_worlds(observe(state, 0), Random(1), 8, 200, heard)
    assert len(worlds) == 8


def test_the_expert_without_senas_ignores_them() -> None:
    state = first_decision(FOUR, 3)
    actor = to_act(state)
    assert actor is not None
    view, legal = observe(state, actor), legal_actions(state)
    heard: Heard = tuple((p, "ancho-espada") for p in partners(state.teams, actor))
    mute = ExpertBot(worlds=6, signals=False)
    assert mute.choose(Situation(view, legal, heard), Random(5)) == mute.choose(
        Situation(view, legal), Random(5)
    )


# --- a seña never reaches a rival -----------------------------------------------------------


class Spy(SimpleBot):
    """``simple`` that reads señas only to check them: every one it hears comes from a partner
    of its own seat in the hand being played."""

    name = "spy"
    heard: ClassVar[list[int]] = []

    def choose(self, told: Situation, rng: Random) -> Action:
        view = told.view
        assert view.seat is not None
        for who, sena in told.heard:
            assert who != view.seat and view.teams[who] == view.teams[view.seat], (who, view.seat)
            assert sena in SENAS
        Spy.heard.append(len(told.heard))
        return super().choose(told, rng)


@hsettings(max_examples=12, deadline=None)
@given(
    rules=st.sampled_from(
        [
            Rules(),
            FOUR,
            SIX,
            Rules(players=4, flor=True),
            Rules(variant="pica_pica"),
            Rules(variant="pata_de_gallo"),
            Rules(variant="destantado"),
        ]
    ),
    seed=st.integers(0, 10**6),
)
def test_bots_never_sign_to_a_rival(rules: Rules, seed: int) -> None:
    made: list[tuple[int, tuple[int, ...]]] = []

    def on_sena(state: State, sender: int, sena: str, to: tuple[int, ...]) -> None:
        assert to and all(state.teams[s] == state.teams[sender] and s != sender for s in to)
        assert state.trick == 0
        made.append((sender, to))

    Spy.heard.clear()
    BOTS["spy"] = Spy
    try:
        play_match("spy", "spy", rules, seed, 0, 0, on_sena=on_sena)
    finally:
        del BOTS["spy"]
    if rules.players in (4, 6):
        assert made and max(Spy.heard) > 0
    else:  # 1 vs 1, and the variants where each plays for himself
        assert made == [] and max(Spy.heard, default=0) == 0


# --- simple reads señas too ---------------------------------------------------------------


def test_simple_counts_a_partner_s_shown_cards_and_envido() -> None:
    from truco.bots.context import ctx_of_view
    from truco.bots.senas import with_senas
    from truco.bots.strength import win_prob

    state = dealt(FOUR, "4c 5o 6b", "4e 5c 6o", "12e 7c 1e", "10e 11c 12c")
    view = observe(state, 0)
    plain = ctx_of_view(view)
    told_ctx = with_senas(plain, view, ((2, "ancho-espada"), (2, "envido-alto")))
    assert told_ctx.partner_cards == (Card.parse("1e"),) and told_ctx.partner_tantos == 29
    assert win_prob(told_ctx) > win_prob(plain)
    # Seat 0 (mano, 5 of envido) sings envido on the strength of his partner's envido alto.
    legal = legal_actions(state)
    simple = SimpleBot()
    assert simple.choose(Situation(view, legal), Random(0)) != Action.parse("envido")
    told = Situation(view, legal, ((2, "envido-alto"),))
    assert simple.choose(told, Random(0)) == Action.parse("envido")
    # A card the partner played is no longer his to bring.
    state = apply(state, Action.parse("play 4c")).state
    state = apply(state, Action.parse("play 4e")).state
    state = apply(state, Action.parse("play 1e")).state
    view = observe(state, 0)
    assert with_senas(ctx_of_view(view), view, ((2, "ancho-espada"),)).partner_cards == ()


def test_simple_without_senas_plays_as_before() -> None:
    """No seña heard, the same choice as ``choose`` (the rules are unchanged)."""
    for seed in range(20):
        state = first_decision(FOUR, seed)
        actor = to_act(state)
        assert actor is not None
        view, legal = observe(state, actor), legal_actions(state)
        assert SimpleBot().choose(Situation(view, legal, ()), Random(seed)) == SimpleBot().choose(
            Situation(view, legal), Random(seed)
        )


def test_the_rollouts_know_only_what_partners_signed() -> None:
    """In a sampled world, each seat of the rollouts knows the cards its partners would have
    shown (their best two) and a promised envido, never a rival's; nobody signs in 1 vs 1."""
    from truco.bots.expert import world_signs

    state = dealt(FOUR, "1e 4b 6c", "1b 7o 3c", "7e 6e 4c", "12o 5o 2e")
    signs = world_signs(state)
    assert signs is not None
    assert signs[0] == (((Card.parse("7e"), 2),), 29)  # 7e 6e: 33 of envido
    assert signs[2] == (((Card.parse("1e"), 0),), 0)
    assert signs[1] == (((Card.parse("2e"), 3),), 0)
    assert signs[3] == (((Card.parse("1b"), 1), (Card.parse("7o"), 1)), 0)
    assert world_signs(dealt(Rules(), "1e 4b 6c", "1b 7o 3c")) is None


def test_a_seeded_draw_is_the_same_in_every_process() -> None:
    """Strings hash differently in each process; the draw of a partner's hand must not follow
    (the arena's matches are reproducible from their seed)."""
    import os
    import subprocess
    import sys

    code = (
        "from random import Random\n"
        "from truco.bots.senas import draw_hand, told\n"
        "from truco.cards import DECK\n"
        "t = told(((1, 'tres'), (1, 'ancho-espada')))[1]\n"
        "print([draw_hand(t, [], list(DECK), 3, Random(s)) for s in range(20)])\n"
    )
    outs = set()
    for hash_seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outs.add(done.stdout)
    assert len(outs) == 1
