"""The ratings' arithmetic (``truco.server.players.ratings``): modes, the number shown, teams,
bots and players who leave for good."""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest

from truco.rules import Rules
from truco.server.players import ratings as r
from truco.server.players.ratings import NEW, Entry, Skill, rate


def test_modes_are_the_standard_game_with_teams_of_one_two_or_three() -> None:
    assert [r.mode_of(Rules(players=n)) for n in (2, 4, 6)] == ["1v1", "2v2", "3v3"]
    assert r.mode_of(Rules(players=4, flor=True, target=15)) == "2v2"
    for variant in ("pata_de_gallo", "destantado", "pica_pica"):
        rules = Rules(variant=variant, players=6 if variant == "pica_pica" else 3)
        assert r.mode_of(rules) is None


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    assert NEW.rating == 1000
    assert r.provisional(0) and r.provisional(r.PROVISIONAL_MATCHES - 1)
    assert not r.provisional(r.PROVISIONAL_MATCHES)


def test_one_against_one_the_winner_goes_up_and_the_loser_down() -> None:
    ana, beto = rate([Entry(0, NEW), Entry(1, NEW)], winner=0)
    assert ana.rating > 1000 > beto.rating
    assert ana.sigma < NEW.sigma and beto.sigma < NEW.sigma


def test_beating_a_stronger_rival_is_worth_more() -> None:
    me = Skill(25.0, 3.0)
    strong, weak = Skill(30.0, 3.0), Skill(20.0, 3.0)
    up_strong = rate([Entry(0, me), Entry(1, strong)], winner=0)[0].mu - me.mu
    up_weak = rate([Entry(0, me), Entry(1, weak)], winner=0)[0].mu - me.mu
    assert up_strong > up_weak > 0


def test_two_against_two_each_partner_moves_by_his_own_uncertainty() -> None:
    # A strong, settled partner and a weak newcomer win together against two average players:
    # the newcomer's skill was the less known, so the result says more about it.
    strong, weak = Skill(32.0, 1.5), Skill(22.0, 7.0)
    rivals = Skill(25.0, 3.0)
    after = rate([Entry(0, strong), Entry(1, rivals), Entry(0, weak), Entry(1, rivals)], winner=0)
    gain_strong = after[0].mu - strong.mu
    gain_weak = after[2].mu - weak.mu
    assert gain_strong > 0 and gain_weak > 0
    assert gain_weak > 5 * gain_strong
    assert after[2].rating - weak.rating != after[0].rating - strong.rating
    assert after[1] == after[3] and after[1].mu < rivals.mu
    # And losing together, each loses in the same proportion.
    lost = rate([Entry(0, strong), Entry(1, rivals), Entry(0, weak), Entry(1, rivals)], winner=1)
    assert strong.mu - lost[0].mu < weak.mu - lost[2].mu


def test_bots_never_move() -> None:
    bot = r.bot_skill("1v1", "experto")
    assert bot is not None
    me, after_bot = rate([Entry(0, NEW), Entry(1, bot, fixed=True)], winner=0)
    assert after_bot == bot
    assert me.mu > NEW.mu


def test_leaving_for_good_is_a_loss_whatever_the_result() -> None:
    # Ana left; the caretaker finished the match for her and her side won it.
    ana, beto, caro, dani = Skill(25, 4), Skill(25, 4), Skill(25, 4), Skill(25, 4)
    entries = [Entry(0, ana, left=True), Entry(1, beto), Entry(0, caro), Entry(1, dani)]
    after = rate(entries, winner=0)
    assert after[0].mu < ana.mu  # a loss for her
    assert after[2].mu > caro.mu  # her partner won
    assert after[1].mu < beto.mu and after[3].mu < dani.mu  # the rivals lost
    # When her side lost anyway, she is rated like any loser.
    assert rate(entries, winner=1)[0] == rate([*entries[:1], *entries[1:]], winner=1)[0]
    plain = rate([Entry(0, ana), *entries[1:]], winner=1)
    assert rate(entries, winner=1)[0] == plain[0]


def test_the_bots_ladder_reproduces_the_measured_win_rates() -> None:
    levels = ("facil", "normal", "dificil", "experto")
    for mode, steps in r.LADDER.items():
        per_team = r.MODES.index(mode) + 1
        skills = [r.BOTS[mode][level] for level in levels]
        assert [s.mu for s in skills] == sorted(s.mu for s in skills)
        assert r.BOTS[mode]["normal"].mu == r.MU
        for (low, high), measured in zip(itertools.pairwise(skills), steps, strict=True):
            # Plackett-Luce's own chance that a team of the higher level beats one of the lower.
            c = math.sqrt(2 * per_team * r.BOT_SIGMA**2 + 2 * r.BETA**2)
            chance = 1 / (1 + math.exp(-per_team * (high.mu - low.mu) / c))
            assert chance == pytest.approx(measured, abs=0.005)


def test_a_player_who_wins_more_often_settles_higher() -> None:
    # Thirty matches each against the normal bot: one wins 3 in 4, the other 1 in 4.
    bot = r.BOTS["1v1"]["normal"]
    rng = random.Random(7)
    good = bad = NEW
    for _ in range(30):
        good = rate([Entry(0, good), Entry(1, bot, fixed=True)], 0 if rng.random() < 0.75 else 1)[0]
        bad = rate([Entry(0, bad), Entry(1, bot, fixed=True)], 0 if rng.random() < 0.25 else 1)[0]
    assert good.rating > bot.rating - 150 > bad.rating
    assert good.sigma < 4.5 and bad.sigma < 4.5


def test_the_rated_message_reads_back_as_it_was_written() -> None:
    from truco.protocol import Rated, RatingChange, encode, rated_from_json, rated_json

    rated = Rated(
        2,
        "2v2",
        (
            RatingChange(0, "Ana", 1000, 1128, True, False),
            RatingChange(2, "<b>Beto</b>", 1500, 1489, False, True),
        ),
    )
    wire = json.loads(encode("rated", rated_json(rated)))
    assert wire["t"] == "rated"
    assert wire["d"]["changes"][1] == {
        "seat": 2,
        "name": "<b>Beto</b>",
        "before": 1500,
        "after": 1489,
        "provisional": False,
        "left": True,
    }
    assert rated_from_json(wire["d"]) == rated
    assert rated_from_json({"match": 1, "mode": "1v1", "changes": [{"seat": 0}]}) is None
