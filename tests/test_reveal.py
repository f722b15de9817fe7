"""``observe(state, seat, reveal=True)``: every card face up, for the replay of a finished match
(the server decides when; docs/protocol.md, "Replay"). Without ``reveal`` nothing changes."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from truco import protocol as p
from truco.actions import Verb
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.rules import Rules
from truco.state import PLAY, new_match
from truco.view import observe, visible_cards


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 12),
)
def test_a_revealed_view_shows_every_card_of_the_deal(players: int, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    state, _ = deal(new_match(Rules(players=players, tapada="always")), rng)
    for _ in range(moves):
        if state.phase != PLAY or to_act(state) in (None, CHANCE):
            break
        legal = legal_actions(state)
        # Face-down cards first: they are what reveal uncovers.
        tapadas = [a for a in legal if a.verb is Verb.TAPADA]
        state = apply(state, rng.choice(tapadas or list(legal))).state
    dealt = {c for hand in state.dealt for c in hand}
    for seat in (None, *range(players)):
        open_view = observe(state, seat, reveal=True)
        assert visible_cards(open_view) == dealt
        assert open_view.open_hands == state.hands
        assert all(card is not None for trick in open_view.tricks for _, card, _ in trick)
        assert all(card is not None for _, card, _ in open_view.plays)
        assert "??" not in str(open_view.history)
        # The codec carries it both ways.
        assert p.view_from_json(p.view_json(open_view)) == open_view
        # Without reveal: nothing more than before, and no open hands.
        hidden = observe(state, seat)
        assert hidden.open_hands == ()
        assert p.view_json(hidden)["open_hands"] == []
        own = set(state.dealt[seat]) if seat is not None else set()
        assert visible_cards(hidden) <= own | {
            c for trick in (*state.tricks, state.plays) for _, c, down in trick if not down
        } | {c for _, shown in state.shown for c in shown}
