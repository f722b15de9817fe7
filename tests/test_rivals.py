"""Reading the rivals (bots/rivals.py), the expert that uses it, and the exploiter ``ventajero``."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco.actions import Action
from truco.arena import play_match
from truco.bots import BOTS, make_bot
from truco.bots.base import Bot, Situation, reading_for
from truco.bots.expert import ExpertBot, rollout
from truco.bots.knobs import DEFAULT
from truco.bots.rivals import (
    NEUTRAL,
    ROLLOUT_STYLE,
    Reading,
    Seen,
    learn,
    tendency,
)
from truco.bots.ventajero import VentajeroBot, adapted, style_of
from truco.bots.worlds import action_likelihood
from truco.cards import DECK, parse_cards
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.rules import Rules
from truco.state import State, new_match
from truco.view import SeatView, observe, visible_cards


def _hand_ends(
    bots: list[Bot],
    seed: int,
    rules: Rules | None = None,
    readings: dict[int, Reading] | None = None,
) -> list[tuple[State, dict[int, SeatView]]]:
    """Play a seeded match; at the end of each hand, the state and every seat's view of it
    (what the arena shows the readings of the bots that read their rivals, which each decision
    of theirs is told; ``readings`` gets them)."""
    rules = rules or Rules()
    rng = Random(seed)
    state = new_match(rules)
    ends: list[tuple[State, dict[int, SeatView]]] = []
    kept = {} if readings is None else readings
    for s, bot in enumerate(bots):
        reading = reading_for(bot)
        if reading is not None:
            kept[s] = reading
    while (actor := to_act(state)) is not None:
        if actor == CHANCE:
            if state.hand_no:
                views = {s: observe(state, s) for s in range(rules.players)}
                ends.append((state, views))
                for s, reading in kept.items():
                    reading.watch(views[s])
            state = deal(state, rng).state
            continue
        told = Situation(observe(state, actor), legal_actions(state), reading=kept.get(actor))
        action = bots[actor].choose(told, rng)
        state = apply(state, action).state
    return ends


def _seen_against(rival: str, matches: int, seed: int = 1) -> Seen:
    """Seat 0's counts of a rival in seat 1 (``simple`` in seat 0), over seeded matches."""
    seen: dict[int, Seen] = {}
    for m in range(matches):
        for _, views in _hand_ends([make_bot("simple"), make_bot(rival)], seed * 1000 + m):
            learn(seen, views[0])
    return seen[1]


# --- the prior is today's play ---


def test_no_evidence_is_todays_assumption() -> None:
    assert tendency(Seen()) == NEUTRAL
    assert NEUTRAL.style == ROLLOUT_STYLE
    assert NEUTRAL.calls == 1.0 and NEUTRAL.answers == 1.0
    assert Reading().tendency(1) == NEUTRAL


def test_a_neutral_tendency_weighs_and_plays_out_worlds_as_today() -> None:
    rng = Random(4)
    checked = 0
    for i in range(300):
        state = deal(new_match(Rules(), score=(rng.randrange(25), rng.randrange(25))), rng).state
        for _ in range(rng.randrange(5)):
            if to_act(state) in (None, CHANCE):
                break
            state = apply(state, rng.choice(legal_actions(state))).state
        actor = to_act(state)
        if actor is None or actor == CHANCE:
            continue
        for action in legal_actions(state):
            assert action_likelihood(state, actor, action, NEUTRAL) == action_likelihood(
                state, actor, action
            )
        styles = (ROLLOUT_STYLE, ROLLOUT_STYLE)
        assert rollout(state, 0, Random(i), styles=styles) == rollout(state, 0, Random(i))
        checked += 1
    assert checked > 100


def test_an_expert_that_has_seen_nothing_plays_as_the_expert_that_reads_nothing() -> None:
    def trace(bot: ExpertBot) -> list[str]:
        out: list[str] = []
        rng = Random(9)
        state = new_match(Rules(target=15))
        while (actor := to_act(state)) is not None:
            if actor == CHANCE:
                state = deal(state, rng).state
                continue
            view = observe(state, actor)
            if actor == 0:
                action = bot.choose(Situation(view, legal_actions(state)), rng)
            else:
                action = make_bot("simple").choose(Situation(view, legal_actions(state)), rng)
            out.append(str(action))
            state = apply(state, action).state
        return out

    # No hand end is shown (nobody calls watch, as in the server's pool): the prior alone.
    assert trace(ExpertBot(worlds=3, tries=60)) == trace(ExpertBot(worlds=3, tries=60, reads=False))


# --- it learns from what it saw ---


def _view(
    history: list[tuple[int, str]],
    tricks: list[list[tuple[int, str]]],
    declared: tuple[tuple[int, int | None, bool], ...] = (),
) -> SeatView:
    """Seat 0's view of a finished 1v1 hand with this history, tricks and declarations."""
    state = new_match(Rules())
    view = observe(state, 0)
    played = tuple(
        tuple((who, parse_cards(card)[0], False) for who, card in trick) for trick in tricks
    )
    return view._replace(
        hand_no=1,
        phase=0,
        history=tuple(history),
        tricks=played,
        declared=declared,
        playing=(0, 1),
    )


def test_a_truco_called_with_weak_cards_is_counted_a_bluff() -> None:
    view = _view(
        [(1, "truco"), (0, "quiero"), (1, "play 4c"), (0, "play 1e")]
        + [(0, "play 7o"), (1, "play 5b")],
        [[(1, "4c"), (0, "1e")], [(0, "7o"), (1, "5b")]],
    )
    seen: dict[int, Seen] = {}
    learn(seen, view)
    rival = seen[1]
    assert (rival.hands, rival.truco_hands, rival.envido_hands) == (1, 1, 0)
    assert rival.revealed == {"truco": 1} and rival.weak == {"truco": 1}
    assert rival.answers == 0  # it called; it answered nothing of ours
    assert 0 not in seen  # nothing is counted of the seat itself


def test_answers_to_our_calls_and_the_points_declared() -> None:
    view = _view(
        [(0, "envido"), (1, "quiero"), (0, "truco"), (1, "no-quiero")],
        [],
        declared=((0, 30, False), (1, 21, False)),
    )
    seen: dict[int, Seen] = {}
    learn(seen, view)
    rival = seen[1]
    assert (rival.answers, rival.accepts) == (2, 1)
    assert rival.revealed == {"envido-answer": 1} and rival.weak == {"envido-answer": 1}


def test_the_reading_learns_the_exploiters_from_their_play() -> None:
    raiser = tendency(_seen_against("always-raise", 3))
    assert raiser.style.always_raise
    assert raiser.calls < 0.5  # its calls say little of its cards
    nit = tendency(_seen_against("never-bluff", 3))
    assert nit.calls >= 1.0  # its calls say more than assumed
    assert nit.style.bluff < ROLLOUT_STYLE.bluff
    station = tendency(_seen_against("always-quiero", 3))
    assert station.style.always_quiero
    assert station.style.caution < ROLLOUT_STYLE.caution
    assert station.answers < 1.0  # it accepts with weak cards


def test_the_reading_starts_again_with_a_new_match() -> None:
    reading = Reading()
    ends = _hand_ends([make_bot("simple"), make_bot("always-raise")], 3)
    for _, views in ends:
        reading.watch(views[0])
    assert reading.seen[1].hands == len(ends)
    reading.watch(ends[-1][1][0])  # the same hand again: ignored
    assert reading.seen[1].hands == len(ends)
    reading.watch(ends[0][1][0])  # hand 1 again: another match
    assert reading.seen[1].hands == 1


# --- it reads nothing hidden ---


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from((2, 4)),
    rival=st.sampled_from(("simple", "always-raise", "never-bluff", "random")),
)
def test_the_reading_learns_only_what_the_seat_saw(seed: int, players: int, rival: str) -> None:
    rules = Rules(players=players)
    bots: list[Bot] = [make_bot("simple" if s % 2 == 0 else rival) for s in range(players)]
    seen: dict[int, Seen] = {}
    hidden: dict[int, Seen] = {}
    visible: set[int] = set()
    rng = Random(seed)
    for state, views in _hand_ends(bots, seed, rules):
        view = views[0]
        visible |= visible_cards(view)
        learn(seen, view)
        # The same hand with every other seat's unplayed cards swapped for unseen ones: the
        # seat's view, and so what it learns, is the same.
        unseen = [c for c in DECK if c not in visible_cards(view)]
        rng.shuffle(unseen)
        hands = tuple(
            h if s == 0 else tuple(unseen.pop() for _ in h) for s, h in enumerate(state.hands)
        )
        learn(hidden, observe(state._replace(hands=hands), 0))
    assert seen == hidden
    for counts in seen.values():
        assert counts.cards <= visible


# --- the expert with its reading ---


def test_the_arena_shows_each_bot_its_own_view_of_every_finished_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watched: list[tuple[int | None, int, int]] = []

    class Watched(Reading):
        def watch(self, view: SeatView) -> None:
            watched.append((view.seat, view.hand_no, int(view.phase)))

    class Watcher:
        name = "watcher"

        def choose(self, told: Situation, rng: Random) -> Action:
            return told.legal[rng.randrange(len(told.legal))]

        def fresh_reading(self) -> Reading:
            return Watched()

    monkeypatch.setitem(BOTS, "watcher", Watcher)
    result = play_match("watcher", "simple", Rules(), seed=5, pair=0, a_seats=0)
    assert [w[1] for w in watched] == list(range(1, result.hands))  # all but the match's last
    assert {w[0] for w in watched} == {0} and {w[2] for w in watched} == {0}  # between hands


def test_the_reading_expert_is_reproducible_for_a_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "expert-small", lambda: ExpertBot(worlds=3, tries=60))
    monkeypatch.setitem(BOTS, "blind-small", lambda: ExpertBot(worlds=3, tries=60, reads=False))
    runs = [play_match("expert-small", "ventajero", Rules(), 21, 0, 0) for _ in range(2)]
    assert runs[0].hands == runs[1].hands and runs[0].points_a == runs[1].points_a
    assert runs[0].winner_is_a == runs[1].winner_is_a
    # and the reading changes its play: against always-raise it is not the blind expert
    reads = [play_match("expert-small", "always-raise", Rules(), s, 0, 0) for s in range(6)]
    blind = [play_match("blind-small", "always-raise", Rules(), s, 0, 0) for s in range(6)]
    assert [(r.hands, r.points_a) for r in reads] != [(b.hands, b.points_a) for b in blind]


# --- the exploiter ---


def test_the_exploiter_bluffs_more_against_folders_and_less_against_callers() -> None:
    assert adapted([]) == DEFAULT
    folder = Seen(hands=10, answers=10, accepts=1)
    caller = Seen(hands=10, answers=10, accepts=10)
    assert adapted([folder]).bluff > DEFAULT.bluff
    assert adapted([folder]).envido_call < DEFAULT.envido_call
    assert adapted([caller]).bluff < DEFAULT.bluff


def test_the_exploiter_adapts_during_a_match() -> None:
    readings: dict[int, Reading] = {}
    _hand_ends([make_bot("never-bluff"), VentajeroBot()], 7, readings=readings)
    assert readings[1].seen[0].hands > 3
    assert style_of(readings[1]).bluff > DEFAULT.bluff  # never-bluff folds more than expected
    station: dict[int, Reading] = {}
    _hand_ends([make_bot("always-quiero"), VentajeroBot()], 7, readings=station)
    assert style_of(station[1]).bluff < DEFAULT.bluff  # a calling station is not bluffed


def test_the_terminal_games_expert_reads_the_person() -> None:
    from truco.tui.session import LocalGame

    game = LocalGame(seed=4, bot="expert")
    rng = Random(4)
    while game.state.hand_no < 3 and not game.over:
        if game.step() is None and game.human_to_act:
            legal = legal_actions(game.state)
            game.play(legal[rng.randrange(len(legal))])
    assert isinstance(game.bots[1], ExpertBot)
    # the person's seat, from the bot's own views
    assert game.driver.readings[1].seen[0].hands >= 2
