"""research: truco as the OpenSpiel game ``python_truco``, checked by OpenSpiel itself.

OpenSpiel's random simulation test (with serialisation) runs on every variant; then what a seat
knows: two states it cannot tell apart (one resampled from the other's information state) give
it the same information state and observation, as text and as tensors, and the same legal
actions; and a seat's information state never changes with cards it has not seen.
"""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from truco.cards import DECK  # noqa: E402
from truco.research import openspiel as truco_openspiel  # noqa: E402
from truco.research.actions import ACTIONS, NUM_ACTIONS, action_id, action_text  # noqa: E402
from truco.research.encode import history_rows  # noqa: E402
from truco.rules import Rules  # noqa: E402

GAMES = [
    "python_truco",
    "python_truco(flor=True)",
    "python_truco(players=4)",
    "python_truco(players=4,flor=True)",
    "python_truco(players=6)",
    "python_truco(variant=pica_pica,flor=True)",
    "python_truco(variant=pata_de_gallo)",
    "python_truco(variant=destantado)",
    "python_truco(game=paulista)",
    "python_truco(game=paulista,players=4)",
    "python_truco(game=paulista,manilhas=velha)",
    "python_truco(game=paulista,baralho=limpo,mao_de_ferro=aberta)",
    "python_truco(target=15,falta=leader,envido_primero=off,tapada=always)",
]
HAND_GAMES = [
    "python_truco(returns=hand)",
    "python_truco(returns=hand,players=6,flor=True)",
    "python_truco(returns=hand,variant=destantado)",
    "python_truco(returns=hand,game=paulista,players=4)",
]


def _with_returns_hand(name: str) -> str:
    return name.replace("python_truco(", "python_truco(returns=hand,")


@pytest.mark.parametrize("name", GAMES + HAND_GAMES)
def test_openspiels_random_simulation_test_passes(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_parameters_are_the_rules_options() -> None:
    game = pyspiel.load_game("python_truco(variant=pata_de_gallo,target=15)")
    assert game.num_players() == 3
    assert game.rules == Rules(variant="pata_de_gallo", target=15)
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 40
    spec = game.get_type().parameter_specification
    assert spec["flor"] is False and spec["target"] == 30 and spec["returns"] == "match"
    paulista = pyspiel.load_game("python_truco(game=paulista)")
    assert paulista.rules.target == 12 and paulista.rules.variant == "paulista"


def test_bad_parameters_say_what_is_wrong() -> None:
    with pytest.raises(Exception, match="players must be one of"):
        pyspiel.load_game("python_truco(players=5)")
    with pytest.raises(Exception, match="returns must be one of"):
        pyspiel.load_game("python_truco(returns=points)")


def test_the_action_numbering_is_fixed() -> None:
    assert NUM_ACTIONS == 141
    assert action_text(0) == f"play {DECK[0]}"
    assert action_text(40) == f"tapada {DECK[0]}"
    assert action_text(80) == f"discard {DECK[0]}"
    words = [action_text(i) for i in range(120, NUM_ACTIONS)]
    assert words[:5] == ["truco", "retruco", "vale-cuatro", "envido", "real-envido"]
    assert words[-1] == "cega"
    assert all(action_id(a) == i for i, a in enumerate(ACTIONS))
    with pytest.raises(ValueError, match="there is no action 141"):
        action_text(141)


def _play(game: Any, rng: Random, steps: int) -> Any:
    """A state after up to ``steps`` random steps (chance by its probabilities)."""
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _decision_states(name: str, count: int, seed: int) -> list[Any]:
    game = pyspiel.load_game(name)
    rng = Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = _play(game, rng, rng.randrange(1, 160))
        if not state.is_terminal() and not state.is_chance_node():
            found.append(state)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_a_resampled_state_looks_the_same_to_its_seat(name: str) -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differ = 0
    for state in _decision_states(name, 6, seed=len(name)):
        seat = state.current_player()
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        np.testing.assert_array_equal(
            other.information_state_tensor(seat), state.information_state_tensor(seat)
        )
        np.testing.assert_array_equal(
            other.observation_tensor(seat), state.observation_tensor(seat)
        )
        assert other.legal_actions() == state.legal_actions()
        assert other.current_player() == seat
        differ += other.match.state.hands != state.match.state.hands
        # The resampled game goes on like any other.
        other.apply_action(other.legal_actions()[0])
    assert differ > 0  # the unseen cards were drawn afresh, not copied


def test_a_seat_knows_nothing_of_cards_it_has_not_seen() -> None:
    # The same deal for seat 0, two different hands for seat 1: seat 0's information state,
    # observation and tensors are the same until seat 1 plays a card.
    game = pyspiel.load_game("python_truco(flor=True)")
    mine = [DECK.index(c) for c in (DECK[0], DECK[1], DECK[2])]
    states = []
    for theirs in ([10, 11, 12], [20, 30, 35]):
        state = game.new_initial_state()
        for card in mine + theirs:
            state.apply_action(card)
        states.append(state)
    first, second = states
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state_string(1) != second.information_state_string(1)
    np.testing.assert_array_equal(
        first.information_state_tensor(0), second.information_state_tensor(0)
    )
    np.testing.assert_array_equal(first.observation_tensor(0), second.observation_tensor(0))
    assert first.legal_actions() == second.legal_actions()


def test_the_legal_mask_and_the_own_cards_are_in_the_tensor() -> None:
    game = pyspiel.load_game("python_truco")
    observer = game.make_py_observer()
    for state in _decision_states("python_truco", 5, seed=9):
        seat = state.current_player()
        observer.set_from(state, seat)
        mask = observer.dict["legal"]
        assert sorted(np.flatnonzero(mask).tolist()) == state.legal_actions()
        held = {int(c) for c in state.match.view(seat).hand}
        assert set(np.flatnonzero(observer.dict["hand"]).tolist()) == held


def test_the_shapes_are_fixed_per_game() -> None:
    for players, name in ((2, "python_truco"), (4, "python_truco(players=4)")):
        game = pyspiel.load_game(name)
        rows = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
        assert rows.dict["moves"].shape[0] == history_rows(players)
        size = game.information_state_tensor_size()
        for state in _decision_states(name, 3, seed=players):
            assert len(state.information_state_tensor(state.current_player())) == size


def test_the_returns_are_zero_sum_and_within_the_bounds() -> None:
    rng = Random(4)
    for name in ("python_truco(variant=destantado)", "python_truco(returns=hand,flor=True)"):
        game = pyspiel.load_game(name)
        for _ in range(5):
            state = _play(game, rng, 100_000)
            assert state.is_terminal()
            returns = state.returns()
            assert sum(returns) == pytest.approx(0.0)
            assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    winner = _play(pyspiel.load_game("python_truco(variant=destantado)"), rng, 100_000)
    assert sorted(winner.returns()) == [-0.5, -0.5, 1.0]


def test_a_serialised_state_comes_back_the_same() -> None:
    state = _decision_states("python_truco(players=4,flor=True)", 1, seed=5)[0]
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    game, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == state.history()
    seat = state.current_player()
    assert back.information_state_string(seat) == state.information_state_string(seat)
    assert str(game) == str(state.get_game())


def test_clones_are_independent() -> None:
    state = _decision_states("python_truco", 1, seed=6)[0]
    clone = state.clone()
    before = state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() == before
    assert clone.history() != before


def test_the_module_registers_the_game() -> None:
    assert truco_openspiel.NAME in [t.short_name for t in pyspiel.registered_games()]


def test_the_docs_name_every_piece_of_the_layout() -> None:
    from pathlib import Path

    from truco.research.encode import pieces

    text = (Path(__file__).parents[1] / "docs" / "research.md").read_text(encoding="utf-8")
    missing = [p.name for p in pieces(2, True) if f"| `{p.name}` |" not in text]
    assert missing == []
