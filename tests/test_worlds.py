"""The expert's search budget: worlds per mode, the rollout policy, ``expert*K`` in the arena,
and the per-mode latency row of ``truco bench`` (docs/bots.md, "Time per decision")."""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random

import pytest

from truco.arena import play_match, run_arena
from truco.bench import MODES, expert_latency
from truco.bots import LEVELS, arena_bot, make_bot, make_persona_bot, scaled_expert
from truco.bots.base import Situation
from truco.bots.expert import EXPERTO_WORLDS, FLOOR, ROLLOUTS, TRIES, WORLDS, ExpertBot
from truco.bots.rivals import ROLLOUT_STYLE
from truco.cli import main
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.errors import TrucoError
from truco.rules import Rules, from_options
from truco.state import new_match
from truco.view import observe


def test_scaled_expert_names() -> None:
    bot = arena_bot("expert*2")
    assert isinstance(bot, ExpertBot)
    assert (bot.worlds, bot.tries, bot.by_mode) == (2 * WORLDS, 2 * TRIES, None)
    assert bot.rollout == ROLLOUT_STYLE and bot.name == "expert*2"
    half = arena_bot("Expert*0.5/honest")
    assert isinstance(half, ExpertBot)
    assert (half.worlds, half.tries) == (WORLDS // 2, TRIES // 2)
    assert half.rollout == ROLLOUTS["honest"] != ROLLOUT_STYLE
    one = arena_bot("expert*1")
    assert isinstance(one, ExpertBot) and (one.worlds, one.tries) == (WORLDS, TRIES)
    assert scaled_expert("expert") is None and scaled_expert("simple*2") is None
    assert isinstance(arena_bot("simple"), type(make_bot("simple")))
    for bad in ("expert*x", "expert*0", "expert*100", "expert*2/nonsense"):
        with pytest.raises(TrucoError):
            arena_bot(bad)
    # The server and the terminal build bots with make_bot: never a search of any size asked.
    with pytest.raises(TrucoError):
        make_bot("expert*2")


def test_experto_takes_its_worlds_by_mode() -> None:
    bot = make_bot("experto")
    assert isinstance(bot, ExpertBot) and bot.by_mode is EXPERTO_WORLDS
    # Every mode listed is one the bench times (a misspelt key would silently get WORLDS).
    timed = {(r.variant, r.players) for r in (from_options(Rules(), dict(o)) for _, o in MODES)}
    assert set(EXPERTO_WORLDS) <= timed
    for mode, options in MODES:
        rules = from_options(Rules(), dict(options))
        worlds, tries = bot.budget(rules)
        assert worlds == EXPERTO_WORLDS.get((rules.variant, rules.players), WORLDS), mode
        assert tries == round(TRIES * worlds / WORLDS)
    # Its personas search as much as it does; the plain search is unchanged.
    persona = make_persona_bot("experto", "Don Ramón")
    assert isinstance(persona, ExpertBot) and persona.by_mode is EXPERTO_WORLDS
    assert ExpertBot().budget(Rules()) == (WORLDS, TRIES)
    small = ExpertBot(worlds=4, tries=80, by_mode={("standard", 4): 2})
    assert small.budget(Rules()) == (4, 80)
    assert small.budget(Rules(players=4)) == (2, 40)
    assert LEVELS["experto"] == "expert"


def _decisions(bot: ExpertBot, seed: int, limit: int = 40, rules: Rules | None = None) -> list[str]:
    """The bot's choices in every seat of a seeded match (1v1 unless ``rules`` say otherwise;
    the rest of the match played by the same bot), up to ``limit`` decisions with more than one
    legal action."""
    state = new_match(rules or Rules())
    deal_rng, bot_rng = Random(seed), Random(seed + 1)
    chosen: list[str] = []
    while len(chosen) < limit:
        actor = to_act(state)
        if actor is None:
            break
        if actor == CHANCE:
            state = deal(state, deal_rng).state
            continue
        legal = legal_actions(state)
        action = bot.choose(Situation(observe(state, actor), legal), bot_rng)
        if len(legal) > 1:
            chosen.append(str(action))
        state = apply(state, action).state
    return chosen


def test_budget_and_rollout_keep_the_expert_deterministic() -> None:
    makers: tuple[Callable[[], ExpertBot], ...] = (
        lambda: ExpertBot(worlds=3, tries=60, rollout=ROLLOUTS["honest"]),
        lambda: ExpertBot(worlds=3, tries=60, by_mode={("standard", 2): 2}),
    )
    for make in makers:
        assert _decisions(make(), 7) == _decisions(make(), 7)


def test_the_rollout_policy_is_the_one_searched_with() -> None:
    # The same worlds played out by seats that never bluff (and, below, by simple's knobs)
    # change some choice of a seeded match: the rollout is not a fixed one.
    plain = _decisions(ExpertBot(worlds=3, tries=60), 3, limit=80)
    assert any(
        _decisions(ExpertBot(worlds=3, tries=60, rollout=ROLLOUTS[name]), 3, limit=80) != plain
        for name in ("honest", "simple")
    )


def test_experto_models_an_unread_rival_half_by_the_rules_of_thumb() -> None:
    # The experto and its personas alike (a persona copies its program's search); the coach and
    # expert-blueprint model an unread rival by the blueprint alone, explotador reads nobody.
    assert 0.0 < FLOOR < 1.0
    for bot in (make_bot("experto"), make_persona_bot("experto", "Don Ramón")):
        assert isinstance(bot, ExpertBot) and bot.blueprint and bot.floor == FLOOR
    for name in ("expert-blueprint", "explotador"):
        bot = make_bot(name)
        assert isinstance(bot, ExpertBot) and bot.blueprint and bot.floor == 0.0
    # The floor reaches the search: a seeded match is played otherwise with it.
    alone = _decisions(ExpertBot(worlds=3, tries=60, blueprint=True), 3, limit=80)
    mixed = _decisions(ExpertBot(worlds=3, tries=60, blueprint=True, floor=FLOOR), 3, limit=80)
    assert mixed != alone
    # At team tables and in Truco Paulista it has none: the same choices move for move.
    for rules in (Rules(players=4), Rules(game="paulista")):
        alone = _decisions(ExpertBot(worlds=3, tries=60, blueprint=True), 3, 30, rules)
        mixed = _decisions(ExpertBot(worlds=3, tries=60, blueprint=True, floor=FLOOR), 3, 30, rules)
        assert mixed == alone, rules


def test_arena_plays_the_expert_at_k_times_the_worlds() -> None:
    rules = Rules()
    report = run_arena(
        "expert*0.25", "expert*0.125", matches=2, rules=rules, seed=5, cpu_clock=True
    )
    data = report.to_json()
    assert data["matches"] == 2 and data["pairs"] == 1 and data["clock"] == "cpu"
    assert data["a"]["name"] == "expert*0.25" and data["b"]["name"] == "expert*0.125"
    assert data["a"]["decisions"] > 0 and data["b"]["decisions"] > 0
    # The same match again gives the same result: the factor keeps matches reproducible.
    again = play_match("expert*0.25", "expert*0.125", rules, 5, 0, 0)
    first = play_match("expert*0.25", "expert*0.125", rules, 5, 0, 0)
    assert (again.winner_is_a, again.hands, again.points_a) == (
        first.winner_is_a,
        first.hands,
        first.points_a,
    )


def test_cli_arena_k_times_worlds_with_the_cpu_clock(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "expert*0.125/honest", "expert*0.125", "--matches", "2", "--seed", "3"]
    assert main([*args, "--jobs", "1", "--quiet", "--cpu-clock", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["a"]["name"] == "expert*0.125/honest" and data["clock"] == "cpu"
    assert main(["arena", "expert*zero", "simple", "--matches", "2", "--quiet"]) == 2


def test_bench_reports_the_latency_per_mode(capsys: pytest.CaptureFixture[str]) -> None:
    rows = expert_latency(bot="expert*0.125", matches=2, modes=["1v1", "pata de gallo"])
    assert [row["mode"] for row in rows] == ["1v1", "pata de gallo"]
    for row in rows:
        assert row["decisions"] > 0 and row["matches"] >= 2
        assert row["latency_ms_p50"] <= row["latency_ms_p99"] <= row["latency_ms_max"]
        assert row["within_budget"] == (
            row["latency_ms_p50"] <= 50.0 and row["latency_ms_p99"] <= 250.0
        )
    assert {mode for mode, _ in MODES} >= {"1v1", "2v2", "3v3", "pata de gallo", "paulista 1v1"}
