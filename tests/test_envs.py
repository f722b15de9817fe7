"""The PettingZoo and Gymnasium environments (``truco.envs``), checked by the libraries' own
tests: PettingZoo's ``api_test`` and ``seed_test`` for every variant, Gymnasium's ``check_env``
for the single-agent wrapper; and whole games in which the action mask is always the research
game's legal actions and the rewards sum to zero."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import truco.envs
from truco.envs.gym import ID, TrucoEnv
from truco.errors import IllegalActionError, TrucoError
from truco.research.actions import NUM_ACTIONS, action_text
from truco.research.encode import Encoder
from truco.rules import Rules
from truco.state import draw

VARIANTS: dict[str, dict[str, Any]] = {
    "standard": {},
    "parejas": {"players": 4},
    "seis": {"players": 6},
    "flor": {"flor": True},
    "pata_de_gallo": {"variant": "pata_de_gallo"},
    "destantado": {"variant": "destantado"},
    "pica_pica": {"variant": "pica_pica"},
    "paulista": {"game": "paulista"},
    "paulista_duplas": {"game": "paulista", "players": 4},
    "hand": {"returns": "hand"},
    "hand_paulista_duplas": {"game": "paulista", "players": 4, "returns": "hand"},
}
"""Every environment the tests build: options of ``truco.envs.env``."""
PLAYERS = {"pata_de_gallo": 3, "destantado": 3, "pica_pica": 6, "paulista_duplas": 4}
"""The seats a variant named alone gets (from ``Rules``), besides the options' own."""


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # The libraries' checks warn about what every dict-observation game has (and a mask of no
    # legal action at the end): expected here, so kept out of the test's output.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_pettingzoo_api_test_passes(name: str) -> None:
    env = truco.envs.env(**VARIANTS[name])
    api_test(env)
    players = VARIANTS[name].get("players", PLAYERS.get(name, 2))
    assert env.possible_agents == [f"player_{s}" for s in range(players)]
    assert env.metadata["name"] == "truco_v0"


@pytest.mark.parametrize("name", ["standard", "parejas", "pata_de_gallo", "paulista", "hand"])
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: truco.envs.env(**VARIANTS[name]), num_cycles=100)


def play_out(env: Any, seed: int) -> tuple[list[float], int]:
    """A whole game of random legal actions (drawn with the env's own seeded generator), checking
    every mask against the game's legal actions: the agents' final rewards and the decisions."""
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    finals: dict[str, float] = {}
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        seat = raw.possible_agents.index(agent)
        assert obs["observation"].dtype == np.float32
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            assert not truncated
            assert raw.match.is_over()
            assert not obs["action_mask"].any()
            finals[agent] = float(reward)
            env.step(None)
            continue
        legal = raw.match.legal()
        assert raw.match.to_act() == seat
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert info["legal_moves"] == [action_text(n) for n in legal]
        for other in raw.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        assert reward == 0
        env.step(int(rng.choice(legal)))
        decisions += 1
    assert sorted(finals) == sorted(raw.possible_agents)
    assert [finals[a] for a in raw.possible_agents] == raw.match.returns()
    return [finals[a] for a in raw.possible_agents], decisions


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_random_game_masks_the_legal_actions_and_is_zero_sum(name: str) -> None:
    options = VARIANTS[name]
    for seed in range(3):
        rewards, decisions = play_out(truco.envs.env(**options), seed)
        assert decisions > 0
        assert sum(rewards) == pytest.approx(0.0, abs=1e-9)
        if options.get("returns", "match") == "match":
            assert max(rewards) == 1.0  # one side won the match


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    def deals(seed: int) -> list[int]:
        env = truco.envs.env(players=4)
        play_out(env, seed)
        return list(env.unwrapped.match.history)

    assert deals(7) == deals(7)
    assert deals(7) != deals(8)


def test_the_observation_is_the_research_encoding_of_the_seat() -> None:
    env = truco.envs.raw_env(players=4, flor=True)
    env.reset(seed=3)
    encoder = Encoder(Rules(players=4, flor=True), perfect_recall=False)
    for seat, agent in enumerate(env.possible_agents):
        encoder.set_from(env.match, seat)
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"], encoder.tensor)
        assert obs["observation"] is not encoder.tensor
        assert obs["action_mask"].shape == (NUM_ACTIONS,)
        assert obs["action_mask"].dtype == np.int8
    assert env.action_space("player_0") == gymnasium.spaces.Discrete(NUM_ACTIONS)


def test_an_illegal_action_ends_the_wrapped_game_and_the_raw_one_refuses_it() -> None:
    env = truco.envs.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    offender = env.agent_selection
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == truco.envs.ILLEGAL_REWARD
    assert sum(env.rewards.values()) == truco.envs.ILLEGAL_REWARD

    raw = truco.envs.raw_env()
    raw.reset(seed=1)
    with pytest.raises(IllegalActionError, match="cannot take action"):
        raw.step(illegal)


def test_render_draws_the_table() -> None:
    env = truco.envs.raw_env(render_mode="ansi", game="paulista")
    env.reset(seed=2)
    assert env.render() == draw(env.match.state)
    assert "Truco" in str(env.render())


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="no option"):
        truco.envs.raw_env(jugadores=4)
    with pytest.raises(ValueError, match="returns"):
        truco.envs.raw_env(returns="trick")


# -- the single-agent wrapper -------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"players": 4, "seat": 1}, {"variant": "pata_de_gallo"}])
def test_gymnasium_check_env_passes(options: dict[str, Any]) -> None:
    check_env(TrucoEnv(rivals="simple", **options), skip_render_check=True)


def test_gymnasium_make_builds_it_and_checks_its_render_modes() -> None:
    env = gymnasium.make(ID, rivals="simple", render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=0)
    assert "Truco" in str(env.render())


def episode(env: TrucoEnv, seed: int) -> tuple[float, int]:
    """An episode of random legal actions from the learner: its reward, its decisions."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = env.match.legal()
        assert env.match.to_act() == env.seat
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert info["legal_moves"] == [action_text(n) for n in legal]
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        total += float(reward)
        steps += 1
        if not done:
            assert reward == 0
    assert env.match.is_over()
    assert total == env.match.returns()[env.seat]
    return total, steps


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 4, "seat": 2},
        {"players": 6, "seat": 5, "flor": True},
        {"game": "paulista", "players": 4},
        {"variant": "destantado", "seat": 1, "returns": "hand"},
    ],
)
def test_episodes_against_simple_bots(options: dict[str, Any]) -> None:
    env = TrucoEnv(rivals="simple", **options)
    results = [episode(env, seed) for seed in range(3)]
    assert all(steps > 0 for _, steps in results)


def test_the_same_seed_plays_the_same_episode() -> None:
    env = TrucoEnv(rivals=["simple", "beginner", "simple"], players=4)
    episode(env, 11)
    first = list(env.match.history)
    episode(env, 11)
    assert env.match.history == first
    episode(env, 12)
    assert env.match.history != first


def test_the_wrapper_ends_or_refuses_an_illegal_action() -> None:
    env = TrucoEnv(rivals="simple")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal": illegal})
    with pytest.raises(IllegalActionError, match="over"):
        env.step(illegal)
    strict = TrucoEnv(rivals="simple", illegal_reward=None)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(illegal)


def test_the_wrapper_refuses_a_bad_seat_or_rival() -> None:
    with pytest.raises(ValueError, match="seat"):
        TrucoEnv(seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        TrucoEnv(rivals=["simple", "simple"])
    with pytest.raises(TrucoError, match="no bot named"):
        TrucoEnv(rivals="nadie")


def test_an_episode_against_the_experto() -> None:
    # The default rivals: the search (slower than the simple bots; one hand keeps it short).
    env = TrucoEnv(returns="hand")
    assert env.rival_names == ["experto"]
    _, steps = episode(env, 5)
    assert steps > 0


def test_the_bots_get_their_partners_senas_and_read_their_rivals() -> None:
    # Seat 1 (simple) signs to its partner seat 3 (ventajero, which reads its rivals 0 and 2).
    env = TrucoEnv(rivals=["simple", "simple", "ventajero"], players=4)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    heard: set[tuple[int, int]] = set()
    done = False
    while not done:
        heard |= {(s, sender) for s, got in enumerate(env.seated.senas.heard) for sender, _ in got}
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert (3, 1) in heard
    assert heard <= {(0, 2), (2, 0), (1, 3), (3, 1)}  # only from a partner
    assert env.match.hands_done > 1
    assert set(env.seated.readings) == {3}
    assert set(env.seated.readings[3].seen) == {0, 2}
