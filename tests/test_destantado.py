"""destantado: three players each on his own, who bet by passing porotos; on hand-built states.

Each function reads the engine's working copy (``list(state)``); the bets are seen through
``apply`` and the porotos passed.
"""

from __future__ import annotations

import truco
from handstates import act, after
from truco.destantado import ROOM, hand_winner, next_responder
from truco.events import Event, MatchEnded, PorotosPassed
from truco.state import F_PHASE, F_RETIRED, F_SCORE, F_WINNER, OVER, Work

# Seat 0 (mano) 1e 4c 5o: 5 of envido; seat 1 7o 6c 12b: 7; seat 2 3e 3o 2c: 3.
THREE = "1e 4c 5o | 7o 6c 12b | 3e 3o 2c"
RULES = {"variant": "destantado"}


def passed(events: list[Event]) -> list[PorotosPassed]:
    return [e for e in events if isinstance(e, PorotosPassed)]


def test_a_call_goes_round_to_each_player_still_in_the_hand() -> None:
    state = after(THREE, **RULES)
    assert next_responder(list(state), 0, 0) == 1
    assert next_responder(list(state), 0, 1) == 2
    assert next_responder(list(state), 0, 2) == -1  # back at the caller: all have answered
    state = after(THREE, "0 play 4c, 1 mazo", **RULES)
    assert next_responder(list(state), 2, 2) == 0  # seat 1 left the hand


def test_each_answers_the_truco_for_himself() -> None:
    state, _ = act(after(THREE, **RULES), "truco")
    assert truco.to_act(state) == 1
    state, _ = act(state, "quiero")
    assert truco.to_act(state) == 2  # seat 1 accepted; seat 2 still owes an answer
    state, _ = act(state, "no-quiero")
    assert state.stakes == (2, 2, 0)  # seat 2 left with nothing to lose
    assert (state.retired >> 2) & 1 and state.truco == 2


def test_the_envido_winner_takes_its_value_from_each_who_accepted() -> None:
    _, events = act(after(THREE, **RULES), "envido", "quiero", "quiero")
    assert passed(events) == [PorotosPassed(1, 0, 2, "envido"), PorotosPassed(1, 2, 2, "envido")]


def test_an_envido_nobody_accepted_goes_to_the_pot() -> None:
    state, events = act(after(THREE, **RULES), "envido", "no-quiero", "no-quiero")
    assert passed(events) == [PorotosPassed(0, -1, 1, "envido-no-quiero")]
    assert state.score == (9, 10, 10)  # the pot is worth nothing: the caller's pile shrinks


def test_a_winner_passes_no_more_than_his_pile_and_an_empty_pile_wins() -> None:
    state = after(THREE, score=(3, 10, 10), **RULES)
    s: Work = list(state)
    events: list[Event] = []
    ROOM.pass_porotos(s, 0, 1, 2, "envido", events)
    assert s[F_SCORE] == (1, 12, 10) and s[F_PHASE] != OVER
    ROOM.pass_porotos(s, 0, 2, 2, "envido", events)
    assert passed(events) == [PorotosPassed(0, 1, 2, "envido"), PorotosPassed(0, 2, 1, "envido")]
    assert s[F_SCORE] == (0, 12, 11)
    assert s[F_PHASE] == OVER and s[F_WINNER] == 0  # his empty pile won the match, at once
    assert any(isinstance(e, MatchEnded) for e in events)


def test_a_trick_won_by_a_player_who_left_is_a_parda() -> None:
    # Seat 2 wins primera with the 3e, seat 0 segunda with the ancho de espada.
    state = after(
        THREE, "0 play 4c, 1 play 6c, 2 play 3e, 2 play 3o, 0 play 1e, 1 play 12b", **RULES
    )
    assert state.results == (2, 0)
    assert hand_winner(list(state)) is None  # one trick each so far: tercera decides
    s: Work = list(state)
    s[F_RETIRED] |= 1 << 2  # seat 2 leaves; his primera turns into a parda
    assert hand_winner(s) == 0  # parda in primera: segunda decides
