"""effects: what each action does to a hand, on hand-built states.

The helpers read the engine's working copy (``list(state)``); the effects are seen through
``apply`` and the events it returns.
"""

from __future__ import annotations

import truco
from handstates import act, after
from truco.argentino import next_flor_holder
from truco.events import Scored, TrickEnded, WentToMazo
from truco.hand import active_from, kept_cards, responder, rival_team, side_scores

TWO = "1e 4c 5o | 7o 6c 12b"
# Four seats, teams 0 (seats 0 and 2) and 1 (seats 1 and 3).
FOUR = "1e 4c 5o | 7o 6c 12b | 3e 2o 10c | 1o 11b 4b"
# Pata de gallo with seat 1 mano: seat 0 is the pie (plays last) and holds four cards.
PATA = "1e 4c 5o 1b | 7o 6c 12b | 3e 3o 2c"


def test_responder_is_the_next_rival_still_in_the_hand() -> None:
    state = after(FOUR)
    assert responder(list(state), 0) == 1 and responder(list(state), 3) == 0
    state = after(FOUR, "0 play 4c, 1 mazo")
    assert responder(list(state), 0) == 3  # seat 1 went to the mazo


def test_active_from_skips_the_seats_out_of_the_hand() -> None:
    state = after(FOUR, "0 play 4c, 1 mazo")
    assert active_from(list(state), 0) == [0, 2, 3]
    assert active_from(list(state), 3) == [3, 0, 2]


def test_rival_team_and_kept_cards() -> None:
    assert rival_team(list(after(TWO)), 0) == 1 and rival_team(list(after(TWO)), 1) == 0
    before = after(PATA, variant="pata_de_gallo", mano=1)
    assert kept_cards(list(before), 0) == before.dealt[0]  # four, until he discards
    state = after(PATA, "0 discard 1b", variant="pata_de_gallo", mano=1)
    assert [str(c) for c in kept_cards(list(state), 0)] == ["1e", "4c", "5o"]
    assert state.tantos[0] == 5  # his tantos count from the three he kept


def test_side_scores_count_a_side_as_far_as_its_best_player() -> None:
    state = after(PATA, variant="pata_de_gallo", mano=1, score=(4, 9, 2))
    assert state.teams == (1, 0, 0)
    assert side_scores(list(state)) == (9, 4)  # the pair's best is 9; the pie alone has 4
    assert side_scores(list(after(TWO, score=(4, 9)))) == (4, 9)


def test_next_flor_holder_of_the_other_team_or_any() -> None:
    flores = "1e 4e 5e | 7o 6c 12b | 3c 2c 10c | 1o 11o 4o"
    state = after(flores, flor=True)
    assert next_flor_holder(list(state), 0, any_team=False) == 3
    assert next_flor_holder(list(state), 0, any_team=True) == 2


def test_the_winner_of_a_trick_leads_the_next_and_a_parda_returns_to_the_mano() -> None:
    state, events = act(after(TWO), "play 4c", "play 7o")
    assert TrickEnded(0, 1, 1) in events and truco.to_act(state) == 1
    state, events = act(after("3e 4c 5o | 3o 6c 12b", mano=1), "play 3o", "play 3e")
    assert TrickEnded(0, -1, -1) in events and truco.to_act(state) == 1  # the mano


def test_a_declined_truco_gives_its_caller_the_standing_level() -> None:
    _, events = act(after(TWO), "truco", "no-quiero")
    assert Scored(0, 1, "truco-no-quiero") in events
    _, events = act(after(TWO), "truco", "retruco", "no-quiero")
    assert Scored(1, 2, "truco-no-quiero") in events  # the retruco accepted the truco first


def test_the_mazo_gives_the_hand_to_the_rivals_once_a_whole_side_left() -> None:
    state, events = act(after(FOUR), "mazo")
    assert events == [WentToMazo(0)] and truco.to_act(state) == 1  # his partner plays on
    state, events = act(state, "play 7o", "mazo")
    assert Scored(1, 1, "mazo") in events and state.phase != 1
    _, events = act(after(TWO, mazo_envido_penalty=True), "mazo")
    assert Scored(1, 2, "mazo") in events  # the envido still open costs a point more


def test_points_that_reach_the_target_end_the_match_at_once() -> None:
    state, events = act(after(TWO, score=(29, 0)), "envido", "no-quiero")
    assert Scored(0, 1, "envido-no-quiero") in events
    assert truco.outcome(state) == truco.Outcome(0, (30, 0))


def test_pata_de_gallo_each_player_of_a_side_scores() -> None:
    state = after(PATA, "0 discard 1b", variant="pata_de_gallo", mano=1)
    _, events = act(state, "truco", "no-quiero")  # seat 1 calls, the pie declines
    assert [e for e in events if isinstance(e, Scored)] == [
        Scored(1, 1, "truco-no-quiero"),
        Scored(2, 1, "truco-no-quiero"),
    ]
