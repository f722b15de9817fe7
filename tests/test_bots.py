"""Bots: behaviour, not strength. Legal choices, no peeking at hidden cards, reproducibility."""

from __future__ import annotations

from random import Random

import pytest

from truco.actions import Deal
from truco.bots import BOTS, LEVELS, make_bot
from truco.bots.base import Bot
from truco.bots.common import ctx_of_view, equity, equity_table, win_prob
from truco.bots.expert import ExpertBot, sample_worlds
from truco.cards import DECK, Card
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.errors import TrucoError
from truco.rules import Rules
from truco.state import State, new_match
from truco.view import observe


def small(name: str) -> Bot:
    """The bot by name, the expert with a small budget so that tests stay quick."""
    return ExpertBot(worlds=3, tries=60) if name == "expert" else make_bot(name)


def play_out(rules: Rules, bots: list[Bot], seed: int, max_actions: int = 2000) -> int:
    """Play a match, checking every bot choice is legal; returns the number of bot choices."""
    rng = Random(seed)
    state = new_match(rules)
    count = 0
    while count < max_actions:
        actor = to_act(state)
        if actor is None:
            break
        if actor == CHANCE:
            state = deal(state, rng).state
            continue
        legal = legal_actions(state)
        action = bots[actor].choose(observe(state, actor), legal, rng)
        assert action in legal, f"{bots[actor].name} chose {action} not in {legal}"
        state = apply(state, action).state
        count += 1
    return count


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("flor", [False, True])
def test_bots_choose_only_legal_actions(name: str, players: int, flor: bool) -> None:
    rules = Rules(players=players, flor=flor, target=15 if name.startswith("expert") else 30)
    for seed in range(2 if name.startswith("expert") else 4):
        # The bot holds every other seat; random players on the rest make odd states.
        bots = [small(name) if s % 2 == seed % 2 else make_bot("random") for s in range(players)]
        assert play_out(rules, bots, seed) > 0
    bots = [small(name) for _ in range(players)]
    assert play_out(rules, bots, 99) > 0


def test_levels_map_to_bots() -> None:
    assert set(LEVELS) >= {"facil", "normal", "dificil", "experto"}
    for level in LEVELS:
        assert make_bot(level.upper()).name == LEVELS[level]
    with pytest.raises(TrucoError):
        make_bot("nobody")


def _random_midhand_state(rules: Rules, rng: Random, steps: int) -> State:
    state = deal(new_match(rules, score=(rng.randrange(25), rng.randrange(25))), rng).state
    for _ in range(steps):
        actor = to_act(state)
        if actor is None or actor == CHANCE:
            break
        state = apply(state, rng.choice(legal_actions(state))).state
    return state


def _scramble(state: State, seat: int, rng: Random) -> State | None:
    """The same hand with the other seats' unplayed cards swapped for unseen ones, replayed from
    the deal with the same actions; None when the history would not replay (e.g. a flor)."""
    players = state.rules.players
    held = {c for s in range(players) if s != seat for c in state.hands[s]}
    played = {c for s in range(players) for c in state.dealt[s]} - held
    pool = [c for c in DECK if c not in played]
    rng.shuffle(pool)
    new_hands: list[tuple[Card, ...]] = []
    it = iter(c for c in pool if c not in state.dealt[seat])
    for s in range(players):
        if s == seat:
            new_hands.append(state.dealt[s])
            continue
        kept = [c for c in state.dealt[s] if c not in state.hands[s]]
        fresh = [next(it) for _ in state.hands[s]]
        new_hands.append(tuple(sorted(kept + fresh)))
    score = tuple(a - b for a, b in zip(state.score, state.hand_points, strict=True))
    other = apply(new_match(state.rules, mano=state.mano, score=score), Deal(tuple(new_hands)))
    s2 = other.state
    for who, action in state.log:
        if action.verb.value == "tapada":
            return None
        if action not in s2.legal or to_act(s2) != who:
            return None
        s2 = apply(s2, action).state
    if s2.declared != state.declared or to_act(s2) != to_act(state):
        return None
    return s2


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_never_read_hidden_cards(name: str) -> None:
    rng = Random(3)
    checked = 0
    for i in range(300):
        players = (2, 4, 6)[i % 3]
        rules = Rules(players=players, flor=bool(i % 2))
        state = _random_midhand_state(rules, rng, rng.randrange(6))
        seat = to_act(state)
        if seat is None or seat == CHANCE or len(legal_actions(state)) < 2:
            continue
        other = _scramble(state, seat, rng)
        if other is None or [state.hands[s] for s in range(players) if s != seat] == [
            other.hands[s] for s in range(players) if s != seat
        ]:
            continue
        v1, v2 = observe(state, seat), observe(other, seat)
        # The view itself must not change (only hand_no may: the replay starts a new match).
        assert v1._replace(hand_no=0) == v2._replace(hand_no=0)
        bot = small(name)
        a1 = bot.choose(v1, legal_actions(state), Random(i))
        a2 = bot.choose(v2._replace(hand_no=v1.hand_no), legal_actions(other), Random(i))
        assert a1 == a2
        checked += 1
        if checked >= (12 if name.startswith("expert") else 40):
            break
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_reproducible_with_a_seed(name: str) -> None:
    rules = Rules(players=2, target=15)

    def trace(seed: int) -> list[str]:
        rng = Random(seed)
        bots = [small(name), make_bot("simple")]
        state = new_match(rules)
        out: list[str] = []
        while (actor := to_act(state)) is not None:
            if actor == CHANCE:
                state = deal(state, rng).state
                continue
            action = bots[actor].choose(observe(state, actor), legal_actions(state), rng)
            out.append(str(action))
            state = apply(state, action).state
        return out

    assert trace(5) == trace(5)


def test_expert_worlds_agree_with_the_view() -> None:
    rng = Random(11)
    found = 0
    for i in range(200):
        rules = Rules(players=(2, 4)[i % 2], flor=bool(i % 3 == 0))
        state = _random_midhand_state(rules, rng, rng.randrange(8))
        seat = to_act(state)
        if seat is None or seat == CHANCE:
            continue
        view = observe(state, seat)
        worlds = sample_worlds(view, Random(i), 4, 400)
        for world, weight in worlds:
            seen = observe(world, seat)
            assert weight > 0
            assert seen.hand == view.hand
            assert seen.plays == view.plays and seen.tricks == view.tricks
            assert seen.declared == view.declared
            assert seen.legal == view.legal
            assert seen.score == view.score
        found += bool(worlds)
    assert found > 50


def test_match_equity_table() -> None:
    table = equity_table(30)
    assert abs(table[0][0] - 0.5) < 1e-9
    assert abs(table[15][15] - 0.5) < 1e-9
    assert table[29][0] > 0.99 and table[0][29] < 0.01
    for a in range(29):
        assert table[a + 1][10] >= table[a][10]
    assert equity(30, 30, 5) == 1.0 and equity(30, 5, 30) == 0.0


def test_hand_strength_is_a_probability() -> None:
    rng = Random(2)
    for _ in range(200):
        state = _random_midhand_state(Rules(), rng, rng.randrange(8))
        seat = to_act(state)
        if seat is None or seat == CHANCE:
            continue
        p = win_prob(ctx_of_view(observe(state, seat)))
        assert 0.0 <= p <= 1.0


def test_card_order_rules_of_thumb() -> None:
    from truco.bots.common import Ctx, choose_card
    from truco.cards import parse_cards

    def ctx(hand: str, plays: tuple[tuple[int, str], ...], seat: int, players: int = 2) -> Ctx:
        return Ctx(
            seat, Rules(players=players), (0, 0), 0, tuple(s % 2 for s in range(players)),
            parse_cards(hand), 0, -1,
            tuple((s, Card.parse(c), False) for s, c in plays), (), 0, 1, None, False, (), (),
        )  # fmt: skip

    # Win cheap: the lowest card that beats the table.
    assert str(choose_card(ctx("1e 3o 5c", ((0, "2b"),), 1))) == "3o"
    # Cannot win: throw the lowest.
    assert str(choose_card(ctx("4c 5c 6o", ((0, "1e"),), 1))) == "4c"
    # A partner holds the trick (2v2: seat 2 is seat 0's partner): throw the lowest.
    assert str(choose_card(ctx("1e 3o 5c", ((0, "1b"), (1, "4o")), 2, players=4))) == "5c"
    # Leading the first trick with a strong second card: keep the best, lead the second.
    assert str(choose_card(ctx("1e 3o 5c", (), 0))) == "3o"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
def test_full_budget_expert_plays_legal_matches(players: int) -> None:
    rules = Rules(players=players, flor=True)
    bots = [make_bot("expert") if s % 2 else make_bot("simple") for s in range(players)]
    assert play_out(rules, bots, players) > 0
