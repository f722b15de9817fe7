"""The story of a finished hand (``truco.story``, ``SeatView.story``) names the seat that did
the thing it names, in every variant: checked against the events the engine returned.

Random legal playouts (a ``random.Random`` from a drawn seed picks among the legal actions,
a mazo and a "no quiero" less often so that hands also reach their tricks) over random rules
in every variant; at the end of every hand the story is read from the final state's view and
compared with the hand's events: the ``WentToMazo`` or ``Answered`` of the last action, the
call it answered, ``TrickEnded`` of each trick and ``HandEnded``'s winner.
"""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from truco.actions import Action, Verb
from truco.engine import CHANCE, apply, deal, to_act
from truco.events import (
    Answered,
    Called,
    Event,
    HandEnded,
    HandStarted,
    Reason,
    Scored,
    TrickEnded,
    WentToMazo,
)
from truco.protocol.codec import view_from_json, view_json
from truco.rules import Rules
from truco.state import OVER, PLAY, State, new_match
from truco.story import HandStory, story
from truco.tui.text import event_line, hand_summary
from truco.tui.text.log import hand_why
from truco.tui.text.names import Names
from truco.view import observe

VARIANT_RULES = st.one_of(
    st.builds(
        Rules,
        players=st.sampled_from((2, 4, 6)),
        flor=st.booleans(),
        target=st.sampled_from((15, 30)),
    ),
    st.builds(
        Rules,
        variant=st.sampled_from(("pata_de_gallo", "pica_pica")),
        flor=st.booleans(),
        target=st.sampled_from((15, 30)),
    ),
    st.builds(Rules, variant=st.just("destantado"), porotos=st.integers(3, 15)),
    st.builds(
        Rules,
        game=st.just("paulista"),
        players=st.sampled_from((2, 4, 6)),
        tie_lead=st.sampled_from(("tied", "opener")),
    ),
)
"""Every variant: the standard game at 2, 4 and 6 seats, pata de gallo, pica-pica, destantado
and Truco Paulista."""

DECLINES = frozenset(
    (Verb.NO_QUIERO, Verb.CORRE, Verb.MAZO, Verb.FALTA_ENVIDO, Verb.CONTRAFLOR_AL_RESTO)
)
"""Drawn less often: hands also reach their tricks, and matches go on for several hands."""
TRUCO_CALLS = frozenset(v for v in Verb if v.truco_level is not None or v.paulista_value)
ENVIDO_CALLS = frozenset((Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO))
FLOR_CALLS = frozenset((Verb.CONTRAFLOR, Verb.CONTRAFLOR_AL_RESTO))
DECLINED = {
    Reason.TRUCO_NO_QUIERO: TRUCO_CALLS,
    Reason.ENVIDO_NO_QUIERO: ENVIDO_CALLS,
    Reason.FLOR_NO_QUIERO: FLOR_CALLS,
    Reason.MAO_DE_ONZE: frozenset(),
}
"""The reasons that name who declined, and the calls each may have declined (the last one)."""


def pick(state: State, rng: Random) -> Any:
    legal = observe(state, to_act(state)).legal
    kept = [a for a in legal if a.verb not in DECLINES] or list(legal)
    return rng.choice(legal if rng.random() < 0.25 else kept)


def check(told: HandStory, state: State, hand: list[Event], last: tuple[Event, ...]) -> None:
    """The story against the events: ``hand`` every event of the hand, ``last`` those of its
    last action."""
    ended = next(e for e in last if type(e) is HandEnded)
    seat, action = state.log[-1]
    if told.reason is Reason.MAZO:
        assert told.seat == seat
        assert WentToMazo(seat) in last
    elif told.reason in DECLINED:
        assert told.seat == seat
        assert any(type(e) is Answered and e.seat == seat for e in last)
        assert action.verb in (Verb.NO_QUIERO, Verb.CORRE)
        if told.reason is not Reason.MAO_DE_ONZE:
            family = DECLINED[told.reason]
            called = [e.verb for e in hand if type(e) is Called and e.verb in family]
            assert told.call == called[-1]
    else:
        assert told.seat is None
    # The side named took the hand's truco part; the match may end first on an unsung flor's
    # points, and then nobody took it.
    flor_first = state.phase == OVER and {e.reason for e in last if type(e) is Scored} == {"flor"}
    assert told.side == ended.winner or (flor_first and ended.winner == -1)
    if told.side >= 0:
        assert told.seats and all(state.teams[s] == told.side for s in told.seats)
    tricks = [e for e in hand if type(e) is TrickEnded]
    assert told.won == tuple(e.trick for e in tricks if told.side >= 0 and e.team == told.side)
    assert told.pardas == tuple(e.trick for e in tricks if e.team == -1)
    if told.mano:
        # Every trick that counts was parda. In destantado a trick won by a player who then
        # left the hand (declined a truco) does not count: among those still in, the first from
        # the mano takes the pardas.
        out = {state.teams[s] for s in observe(state, None).retired}
        assert all(e.team == -1 or e.team in out for e in tricks)
    # What a client receives is the same story.
    assert view_from_json(view_json(observe(state, 0))).story == told


@settings(max_examples=150, deadline=None)
@given(rules=VARIANT_RULES, seed=st.integers(0, 2**32 - 1), start=st.integers(0, 2**32 - 1))
# Destantado: the player who won the primera declines the truco; the rest are pardas.
@example(rules=Rules(variant="destantado"), seed=515486599, start=1543017115)
def test_the_story_names_who_did_it_in_every_variant(rules: Rules, seed: int, start: int) -> None:
    rng = Random(seed)
    # Half the matches start from a score near the end (the mão de onze, the falta's weight).
    late = rules.variant != "destantado" and start % 2
    score = tuple(Random(start).randrange(rules.target) for _ in range(rules.scorers))
    state = new_match(rules, score=score) if late else new_match(rules)
    hand: list[Event] = []
    for _ in range(6):  # hands
        state, events = deal(state, rng)
        hand = list(events)
        assert story(state) is None
        while state.phase == PLAY:
            assert observe(state, None).story is None
            state, events = apply(state, pick(state, rng))
            hand.extend(events)
        told = observe(state, None).story
        assert told is not None
        assert told == observe(state, 1).story
        assert not any(type(e) is HandStarted for e in hand[1:])
        check(told, state, hand, events)
        if to_act(state) != CHANCE:
            break


def played(rules: Rules, *actions: str, seed: int = 3) -> State:
    state, _ = deal(new_match(rules), Random(seed))
    for text in actions:
        state, _ = apply(state, Action.parse(text))
    return state


def test_a_declined_retruco_names_the_seat_that_said_no_quiero() -> None:
    # 1 vs 1: the bot (seat 1) raised to retruco, I (seat 0) said no quiero.
    state = played(Rules(players=2), "truco", "retruco", "no-quiero")
    told = observe(state, 0).story
    assert told == HandStory(Reason.TRUCO_NO_QUIERO, 1, (1,), 0, Verb.RETRUCO, (), (), False)
    me = Names.of(observe(state, 0), ("Ana", "Doña Porota"))
    assert hand_why(told, me) == "No quisiste el retruco"
    rival = Names.of(observe(state, 1), ("Ana", "Doña Porota"))
    assert hand_why(told, rival) == "Ana no quiso el retruco"
    summary = " ".join(hand_summary([], observe(state, 0), me))
    assert "No quisiste el retruco" in summary


def test_the_mazo_names_the_seat_whose_mazo_ended_the_hand() -> None:
    # 2 vs 2: Ana (0) goes to the mazo, so does Toto (1) of the other side; then Beto (2),
    # Ana's partner: his mazo ends the hand, not Toto's, who went before him.
    state = played(Rules(players=4), "mazo", "mazo", "mazo")
    told = observe(state, 1).story
    assert told is not None and told.reason is Reason.MAZO
    assert (told.seat, told.side, told.seats) == (2, 1, (1, 3))
    names = Names.of(observe(state, 1), ("Ana", "Toto", "Beto", "Chola"))
    assert hand_why(told, names) == "Beto se fue al mazo"


def test_the_terminal_names_the_call_that_won_the_points() -> None:
    # One wording with the browser: "(real envido)", "(retruco no querido)", never "(envido)"
    # for a real envido or "(truco no querido)" for a declined retruco.
    state, events = deal(new_match(Rules(players=2)), Random(3))
    hand = list(events)
    for text in ("envido", "real-envido", "quiero", "truco", "retruco", "no-quiero"):
        state, events = apply(state, Action.parse(text))
        hand.extend(events)
    view = observe(state, 0)
    names = Names.of(view, ("Ana", "Doña Porota"))
    summary = " ".join(hand_summary(hand, view, names))
    assert "(real envido)" in summary and "(retruco no querido)" in summary, summary
    assert "(envido)" not in summary and "truco no querido" not in summary.replace("retruco", "")
    lines = [event_line(e, names, view) or "" for e in hand if type(e) is Scored]
    assert any("(real envido)" in line for line in lines), lines
    assert any("(retruco no querido)" in line for line in lines), lines
