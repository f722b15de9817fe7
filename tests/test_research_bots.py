"""OpenSpiel's searches seated as our bots, and ours as OpenSpiel's (``research.bots``)."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from truco.actions import Action, Deal  # noqa: E402
from truco.arena import arena_bot, play_match  # noqa: E402
from truco.bots import make_bot  # noqa: E402
from truco.bots.base import Situation  # noqa: E402
from truco.cards import Card  # noqa: E402
from truco.engine import apply  # noqa: E402
from truco.errors import TrucoError  # noqa: E402
from truco.research.bots import OpenSpielBot, OurBot, openspiel_bot, world_state  # noqa: E402
from truco.rules import Rules  # noqa: E402
from truco.state import new_match  # noqa: E402
from truco.view import observe  # noqa: E402


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


@pytest.mark.parametrize("name", ["openspiel:ismcts:8", "openspiel:mcts:8"])
@pytest.mark.parametrize("players", [2, 4])
def test_searches_play_a_match_legally(name: str, players: int) -> None:
    # The driver refuses any illegal action: a match played to its end was played legally.
    result = play_match(name, "simple", Rules(players=players, target=10), 3, 0, 0)
    assert result.hands >= 1
    assert result.latency_a  # the search decided something


def test_names() -> None:
    bot = arena_bot("openspiel:ismcts")
    assert isinstance(bot, OpenSpielBot) and bot.simulations == 100
    assert openspiel_bot("OpenSpiel:MCTS:40").name == "openspiel:mcts:40"
    for bad in ("openspiel:alphazero", "openspiel:ismcts:many", "openspiel:mcts:0"):
        with pytest.raises(TrucoError):
            openspiel_bot(bad)


def _two_tables() -> tuple[object, object]:
    """Two states seat 1 cannot tell apart: the same cards of its own, seat 0's differ."""
    start = new_match(Rules(), mano=0)
    mine = _cards("1e 7o 4c")
    states = []
    for rival in ("3e 2b 12c", "4b 5b 6o"):
        state = apply(start, Deal((_cards(rival), mine))).state
        state = apply(state, Action.parse("truco")).state
        states.append(state)
    return states[0], states[1]


def test_the_search_never_reads_hidden_cards() -> None:
    one, two = _two_tables()
    views = observe(one, 1), observe(two, 1)  # type: ignore[arg-type]
    assert views[0] == views[1]
    assert one.hands[0] != two.hands[0]  # type: ignore[attr-defined]
    for name in ("openspiel:ismcts:30", "openspiel:mcts:30"):
        bot = openspiel_bot(name)
        chosen = {bot.choose(Situation(v, v.legal), Random(5)) for v in views}
        assert len(chosen) == 1, name


def test_the_built_state_is_what_the_seat_saw() -> None:
    one, _ = _two_tables()
    view = observe(one, 1)  # type: ignore[arg-type]
    state = world_state(view, Random(2))
    seen = state.match.view(1)
    assert seen.hand == view.hand and seen.history == view.history
    assert set(seen.legal) == set(view.legal) and state.current_player() == 1
    assert seen.score == view.score and seen.mano == view.mano


def test_our_bot_in_openspiel_loop() -> None:
    game = pyspiel.load_game("python_truco(returns=hand)")
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    theirs = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=rng)
    ours = OurBot(make_bot("experto"), seed=1)
    # OpenSpiel's ISMCTSBot has no restart_at, which evaluate_bots asks of every bot: its loop.
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probs)))
        else:
            bot = (ours, theirs)[state.current_player()]
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    # The game was the hand: each side's return is what it scored less the other's (an envido
    # one way and a truco the other may leave both at 0).
    assert state.match.hands_done == 1
    points = state.match.state.hand_points
    assert state.returns() == [points[0] - points[1], points[1] - points[0]]


def test_our_bots_play_a_whole_match_in_openspiel() -> None:
    game = pyspiel.load_game("python_truco(target=10)")
    rng = np.random.RandomState(9)
    bots = [OurBot(make_bot("simple"), 1), OurBot(make_bot("random"), 2)]
    returns = evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) == [-1.0, 1.0]
