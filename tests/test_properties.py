"""Properties of whole matches: random legal playouts over random rules, checked at every step.

Hypothesis draws the rules, the first mano, a starting score and a seed; the seed drives a
``random.Random`` that deals and picks among the legal actions. At every step the checks below
run on the state (cards, who acts, what each seat may see, the score and the end of the match),
every legal action is applied, a sample of illegal actions is refused, and every finished hand
is written as a hand history, read back and replayed.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco import notation
from truco.actions import DISCARD, MAZO, PLAY, SIMPLE, TAPADA, Action, Deal, Verb
from truco.cards import DECK, Card
from truco.engine import (
    CHANCE,
    apply,
    check,
    deal,
    hand_sizes,
    is_legal,
    legal_actions,
    outcome,
    to_act,
)
from truco.envido import in_malas
from truco.errors import IllegalActionError
from truco.events import (
    Answered,
    Called,
    CardPlayed,
    CardsDealt,
    CardsShown,
    Event,
    PorotosPassed,
    Reason,
    Scored,
    TrickEnded,
    ViraTurned,
    WentToMazo,
    visible_to,
)
from truco.rules import (
    TARGETS,
    EnvidoPrimero,
    EnvidoUntil,
    FaltaMode,
    FaltaUntil,
    Halves,
    MaoDeFerro,
    MatchEnd,
    Rules,
    TapadaMode,
    TieLead,
)
from truco.state import DEAL, OVER, Phase, State, first_to_reach, new_match
from truco.state import PLAY as PLAYING
from truco.variants import variant_of
from truco.view import SeatView, observe, visible_cards

ENVIDO_VERBS = frozenset((Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO))
TRUCO_VERBS = frozenset((Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO))
ALL_ACTIONS: tuple[Action, ...] = (*PLAY, *TAPADA, *DISCARD, *SIMPLE.values())
"""Every action there is: 40 plays, 40 tapadas, 40 discards and each call or answer verb."""
assert len(ALL_ACTIONS) == 120 + len(Verb) - 3

ILLEGAL_SAMPLE = 5
"""Illegal actions tried at each step (all of them at the match's first action)."""


# --- strategies -------------------------------------------------------------------------------

_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "target": st.sampled_from(TARGETS),
    "flor": st.booleans(),
    "falta": st.sampled_from(get_args(FaltaMode)),
    "tapada": st.sampled_from(get_args(TapadaMode)),
    "envido_until": st.sampled_from(get_args(EnvidoUntil)),
    "falta_until": st.sampled_from(get_args(FaltaUntil)),
    "no_falta_first_hand": st.booleans(),
    "halves": st.sampled_from(get_args(Halves)),
    "flor_unsung_scores": st.booleans(),
    "envido_primero": st.sampled_from(get_args(EnvidoPrimero)),
    "mazo_envido_penalty": st.booleans(),
    "match_end": st.sampled_from(get_args(MatchEnd)),
}
rules_strategy = st.builds(Rules, players=st.sampled_from((2, 4, 6)), **_OPTIONS)

variant_rules_strategy = st.builds(
    lambda variant, flor, **options: Rules(
        variant=variant, flor=flor and variant != "destantado", **options
    ),
    variant=st.sampled_from(("pata_de_gallo", "destantado", "pica_pica")),
    **_OPTIONS,
    pica_from=st.integers(1, 10),
    pica_margin=st.integers(1, 10),
    porotos=st.integers(1, 15),
)
"""The three-player variants and pica-pica, over the same options."""

PAULISTA_DECKS = (("vira", "sujo"), ("velha", "sujo"), ("vira", "limpo"))
"""(manilhas, baralho): the baralho limpo is not played with the manilha velha."""
paulista_rules_strategy = st.sampled_from(PAULISTA_DECKS).flatmap(
    lambda deck: st.builds(
        Rules,
        game=st.just("paulista"),
        players=st.sampled_from((2, 4, 6)),
        manilhas=st.just(deck[0]),
        baralho=st.just(deck[1]),
        mao_de_ferro=st.sampled_from(get_args(MaoDeFerro)),
        tie_lead=st.sampled_from(get_args(TieLead)),
        no_raise_to_win=st.booleans(),
        tapada=st.sampled_from(get_args(TapadaMode)),
        match_end=st.sampled_from(get_args(MatchEnd)),
    )
)
"""Truco Paulista (to 12: the scores drawn below it include the mão de onze and de ferro)."""


@dataclass(frozen=True)
class Setup:
    rules: Rules
    mano: int
    score: tuple[int, ...]
    seed: int
    mazo_rate: float
    """How often a drawn mazo is kept (1: uniform play; less: longer hands)."""
    flores: bool = False
    """Deal many flores (each seat holds one with probability 1/2) through ``Deal`` actions."""


@st.composite
def setups(draw: Callable[..., Any], rules_from: Any = rules_strategy) -> Setup:
    rules = draw(rules_from)
    mano = draw(st.integers(0, rules.players - 1))
    n = rules.scorers
    if rules.variant == "destantado":
        start = (rules.porotos,) * n
        score = draw(st.one_of(st.just(start), st.tuples(*[st.integers(1, 20)] * n)))
    else:
        below = st.integers(0, rules.target - 1)
        score = draw(st.one_of(st.just((0,) * n), st.tuples(*[below] * n)))
    seed = draw(st.integers(0, 2**32 - 1))
    mazo_rate = draw(st.sampled_from((1.0, 0.3, 0.05)))
    flores = draw(st.booleans())
    return Setup(rules, mano, score, seed, mazo_rate, flores)


# --- the checks -------------------------------------------------------------------------------


def played_cards(state: State) -> list[tuple[int, Card, bool]]:
    """Every card on the table this hand, finished tricks and the current one."""
    return [p for trick in (*state.tricks, state.plays) for p in trick]


def discarded(state: State, seat: int) -> list[Card]:
    return [
        a.card
        for who, a in state.log
        if who == seat and a.verb is Verb.DISCARD and a.card is not None
    ]


def check_cards(state: State) -> None:
    """The deal is distinct cards, 3 a seat (4 for the pie of pata de gallo, none for those who
    sit out a pica-pica hand); held + played + put away is exactly what each seat was dealt."""
    if not state.hand_no:
        return
    players = state.rules.players
    dealt = [c for hand in state.dealt for c in hand]
    sizes = sorted(len(hand) for hand in state.dealt)
    variant = state.rules.variant
    if variant == "pata_de_gallo":
        assert sizes == [3, 3, 4]
    elif variant == "pica_pica" and state.pica >= 0:
        assert sizes == [0, 0, 0, 0, 3, 3]
        assert state.retired | 1 << state.mano | 1 << (state.mano + 3) % 6 == 63
    else:
        assert sizes == [3] * players
    assert len(dealt) == len(set(dealt)) == sum(sizes)
    assert all(c in DECK for c in dealt)
    played = played_cards(state)
    assert len({c for _, c, _ in played}) == len(played), "a card was played twice"
    for seat in range(players):
        own_played = [c for s, c, _ in played if s == seat] + discarded(state, seat)
        assert sorted(state.hands[seat] + tuple(own_played)) == sorted(state.dealt[seat])


def check_actor(state: State) -> None:
    """Exactly one seat acts during a hand, chance between hands, nobody at the end."""
    actor = to_act(state)
    legal = legal_actions(state)
    players = state.rules.players
    if state.phase == PLAYING:
        assert actor is not None and 0 <= actor < players
        assert not (state.retired >> actor) & 1, "a seat that went to the mazo acts"
        assert legal, "a seat acts but has nothing legal to do"
        assert len(set(legal)) == len(legal)
        action = legal[0]
        for seat in range(players):
            assert is_legal(state, action, seat) == (seat == actor)
        assert outcome(state) is None
    elif state.phase == DEAL:
        assert actor == CHANCE
        assert legal == ()
        assert outcome(state) is None
    else:
        assert state.phase == OVER
        assert actor is None
        assert legal == ()
        result = outcome(state)
        assert result is not None and result.winner == state.winner


def check_views(state: State) -> None:
    """No seat sees another seat's unplayed or face-down cards; a spectator sees no hand."""
    played = played_cards(state)
    face_up = {c for _, c, down in played if not down}
    hand_over = state.phase != PLAYING
    shown = {c for _, cards in state.shown for c in cards} if hand_over else set()
    public = face_up | shown
    actor = to_act(state)
    if state.vira >= 0:
        public.add(DECK[state.vira])
    for seat in range(state.rules.players):
        view = observe(state, seat)
        assert view.hand == (() if view.blind else state.hands[seat])
        own = set(state.dealt[seat]) | set(onze_partners_cards(state, seat))
        if view.blind:  # a blind mão de ferro: not even his own cards, until they are played
            own -= set(state.hands[seat])
        named = visible_cards(view) | {a.card for a in view.legal if a.card is not None}
        leaked = named - own - public
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
        assert view.legal == (legal_actions(state) if actor == seat else ())
        for who, text in view.history:
            if who != seat and text.startswith(("tapada", "discard")):
                assert text.endswith(" ??")
    spectator = observe(state, None)
    assert spectator.hand == ()
    assert spectator.tantos is None and spectator.flor is None
    assert spectator.legal == ()
    leaked = visible_cards(spectator) - public
    assert not leaked, f"a spectator sees {sorted(map(str, leaked))}"
    for _, text in spectator.history:
        if text.startswith(("tapada", "discard")):
            assert text.endswith(" ??")


PRIVATE_DERIVED = ("partners",)
"""Derived facts that are the viewer's own: a mão de onze's partners' cards."""
DERIVED = tuple(
    f for f in SeatView._fields[SeatView._fields.index("playing") :] if f not in PRIVATE_DERIVED
)
"""The facts ``observe`` derives for clients (the pie, the seats in the hand, the pot...)."""


def onze_partners_cards(state: State, seat: int) -> list[Card]:
    """Truco Paulista: the cards a seat of the side at 11 (the other side below it) may see, his
    partners' during the hand; none otherwise."""
    rules = state.rules
    if rules.game != "paulista" or state.phase != PLAYING:
        return []
    at = [t for t, points in enumerate(state.score) if points == rules.target - 1]
    if at != [state.teams[seat]]:
        return []
    team = state.teams[seat]
    return [c for s, t in enumerate(state.teams) if t == team and s != seat for c in state.dealt[s]]


def check_derived_public(state: State) -> None:
    """The derived facts hide nothing: every seat and a spectator get the same ones."""
    spectator = observe(state, None)
    public = tuple(getattr(spectator, name) for name in DERIVED)
    for seat in range(state.rules.players):
        view = observe(state, seat)
        assert tuple(getattr(view, name) for name in DERIVED) == public


class Contract:
    """Follows a match through the engine's events and checks that the facts ``observe``
    derives agree with what the engine did."""

    def __init__(self, state: State) -> None:
        rules = state.rules
        info = variant_of(rules)
        view = observe(state, None)
        assert view.start_score == (rules.porotos if info.piles else 0)
        self.fresh = state.score == (view.start_score,) * rules.scorers
        """Whether the match started from the variant's own score (the pot counts from it)."""
        if self.fresh:
            assert new_match(rules).score == state.score
        assert view.individual == rules.individual == info.individual
        assert len(view.score) == (rules.players if view.individual else 2)
        if not info.piles:
            for points in range(rules.target + 1):
                in_half = view.half is not None and points <= view.half
                assert in_malas(rules, points) == in_half
        self.bettors: dict[str, set[int]] = {}

    def step(self, before: State, action: Action | None, after: State, events: Any) -> None:
        old, new = observe(before, None), observe(after, None)
        assert type(new.phase) is Phase and new.phase == after.phase
        assert Phase(after.phase).wire == ("deal", "play", "over")[after.phase]
        if action is None:  # a deal: the seats dealt cards play the hand; the pie gets four
            dealt = {e.seat: len(e.cards) for e in events if type(e) is CardsDealt}
            assert new.playing == tuple(sorted(dealt))
            four = [s for s, n in dealt.items() if n == 4]
            assert new.pie == (four[0] if four else None)
            assert new.discard == new.pie
            assert new.end_reason is None
            self.bettors = {}
        else:
            actor = to_act(before)
            assert actor in old.playing
            assert old.discard == (actor if action.verb is Verb.DISCARD else None)
            if old.pie is not None and after.phase == PLAYING:
                assert new.pie == old.pie
        # Who is in each call: its caller, and whoever accepted it (each answers for himself
        # in destantado); an answer is to the envido while one waits, else to the truco.
        answering = "envido" if old.envido_call is not None else "truco"
        for e in events:
            if type(e) is Answered and e.verb is Verb.QUIERO:
                self.bettors.setdefault(answering, set()).add(e.seat)
            elif type(e) is Called and e.verb in ENVIDO_VERBS:
                self.bettors["envido"] = {e.seat}
            elif type(e) is Called and e.verb in TRUCO_VERBS:
                self.bettors["truco"] = {e.seat}
        if after.rules.variant != "destantado" or new.phase != PLAYING:
            assert new.bettors == ()
        elif new.envido_call is not None:
            assert set(new.bettors) == self.bettors["envido"]
        elif new.truco_call is not None:
            assert set(new.bettors) == self.bettors["truco"]
        else:
            assert new.bettors == ()
        to_pot = sum(e.points for e in events if type(e) is PorotosPassed and e.to < 0)
        if self.fresh:
            assert new.pot - old.pot == to_pot
        reasons = {e.reason for e in events if type(e) in (Scored, PorotosPassed)}
        assert reasons <= set(Reason)
        if before.phase == PLAYING and after.phase != PLAYING:
            # Why the hand ended, against what the engine did; the match may end before the
            # hand's own points, with an unsung flor's (then only those are scored).
            end = new.end_reason
            answers = {e.verb for e in events if type(e) is Answered}
            if end is Reason.MAZO:
                assert any(type(e) is WentToMazo for e in events)
            elif end is Reason.TRUCO:
                assert any(type(e) is TrickEnded for e in events) or Reason.TRUCO in reasons
            elif end in (Reason.TRUCO_NO_QUIERO, Reason.ENVIDO_NO_QUIERO, Reason.FLOR_NO_QUIERO):
                assert Verb.NO_QUIERO in answers or Verb.CORRE in answers
                assert end in reasons or (after.phase == OVER and reasons == {"flor"})
            else:
                assert end in reasons, (end, reasons)
        elif after.phase == PLAYING:
            assert new.end_reason is None
        else:
            assert new.end_reason == old.end_reason


def check_events(events: tuple[Event, ...], after: State) -> None:
    """A face-down card leaves the core without its identity; a deal only to its own seat; and
    an event shows a viewer no card that viewer's view of the state after it does not show (a
    blind mão de ferro's deal included: its cards are unseen in the view, so in the events)."""
    players = after.rules.players
    for event in events:
        if type(event) is CardPlayed and event.face_down:
            assert event.card is None
        if type(event) is CardsDealt:
            assert not visible_to(event, None)
            assert not any(visible_to(event, s) for s in range(players) if s != event.seat)
    if not any(type(e) in (CardsDealt, CardsShown, ViraTurned) for e in events):
        return  # a card played face up is public; these are the ones a seat may be denied
    for viewer in (*range(players), None):
        view = observe(after, viewer)
        seen = visible_cards(view) | {a.card for a in view.legal if a.card is not None}
        for event in events:
            if visible_to(event, viewer):
                named = set(_event_cards(event))
                assert named <= seen, (viewer, event, sorted(map(str, named - seen)))


def _event_cards(event: Event) -> tuple[Card, ...]:
    """The card identities an event names."""
    card = getattr(event, "card", None)
    cards: tuple[Card, ...] = getattr(event, "cards", ())
    return (*cards, card) if card is not None else cards


def check_score(before: State, after: State) -> None:
    """Scores never go down (destantado: piles never below 0, and a pile grows only by what
    another one gave); within a hand they change with the hand's points."""
    if before.rules.variant == "destantado":
        assert all(p >= 0 for p in after.score)
        gave = sum(b - a for a, b in zip(after.score, before.score, strict=True) if a < b)
        got = sum(a - b for a, b in zip(after.score, before.score, strict=True) if a > b)
        assert got <= gave, "porotos out of nowhere (only the pot may take what is given)"
    else:
        assert all(a >= b for a, b in zip(after.score, before.score, strict=True))
    if before.phase == PLAYING:
        gained = tuple(a - b for a, b in zip(after.score, before.score, strict=True))
        hand_gain = tuple(a - b for a, b in zip(after.hand_points, before.hand_points, strict=True))
        assert gained == hand_gain


def reached_now(state: State) -> list[int]:
    """The teams (or players) at the target now; in destantado, those with an empty pile."""
    if state.rules.variant == "destantado":
        return [p for p, points in enumerate(state.score) if points <= 0]
    return [p for p, points in enumerate(state.score) if points >= state.rules.target]


def first_in_order(target: int, score: tuple[int, ...], events: tuple[object, ...]) -> int:
    """The team whose points, scored in the order of ``events``, first reached ``target``."""
    running = list(score)
    for event in events:
        if isinstance(event, Scored):
            running[event.team] += event.points
            if running[event.team] >= target:
                return event.team
    raise AssertionError("no Scored event reached the target")


def check_match_end(state: State, first: int) -> None:
    """The match ends exactly when a team reaches the target (or at that hand's end)."""
    reached = reached_now(state)
    if state.rules.match_end == "at_reach" or state.rules.variant == "destantado":
        if reached:
            assert state.phase == OVER
            assert state.winner in reached
            assert state.winner == first_to_reach(state.rules, state.score, state.mano)
        else:
            assert state.phase != OVER
    else:  # end_of_hand: the hand is played out; the first team to reach wins
        if state.phase == OVER:
            assert reached and state.winner == first
        elif state.phase == DEAL:
            assert not reached
    if state.phase != OVER:
        assert state.winner == -1


def check_illegal(state: State, rng: Random, every: bool) -> None:
    """Actions not in legal_actions are refused by check, is_legal and apply alike."""
    legal = set(legal_actions(state))
    illegal = [a for a in ALL_ACTIONS if a not in legal]
    sample = illegal if every else rng.sample(illegal, min(ILLEGAL_SAMPLE, len(illegal)))
    frozen = pickle.dumps(state)
    for action in sample:
        assert not is_legal(state, action)
        with pytest.raises(IllegalActionError) as refused:
            check(state, action)
        assert str(action) in str(refused.value)
        with pytest.raises(IllegalActionError):
            apply(state, action)
    if state.phase != DEAL:
        some = Deal(tuple(DECK[3 * s : 3 * s + 3] for s in range(state.rules.players)))
        with pytest.raises(IllegalActionError):
            apply(state, some)
    else:
        sizes = hand_sizes(state)
        wrong = tuple(DECK[4 * s : 4 * s + (3 if n == 4 else n + 1)] for s, n in enumerate(sizes))
        with pytest.raises(IllegalActionError, match="must get"):
            apply(state, Deal(wrong))
    if state.phase != DEAL:
        with pytest.raises(IllegalActionError):
            apply(state, some)
        with pytest.raises(IllegalActionError):
            deal(state, rng)
    assert pickle.dumps(state) == frozen, "refusing an action changed the state"


def check_all_legal_apply(state: State) -> None:
    """Every legal action applies, logs itself for the seat that took it, and changes nothing."""
    frozen = pickle.dumps(state)
    actor = to_act(state)
    for action in legal_actions(state):
        after, events = apply(state, action)
        assert isinstance(after, State)
        assert after.log == (*state.log, (actor, action))
        assert after.hand_no == state.hand_no
        check_events(events, after)
    assert pickle.dumps(state) == frozen, "applying an action changed its input state"


def check_history(state: State) -> None:
    """A finished hand written as a history and read back is equal, and replays the same."""
    history = notation.from_state(state)
    text = notation.dumps(history)
    again = notation.loads(text)
    assert again == history
    assert notation.dumps(again) == text
    replayed = notation.replay(again)
    assert replayed.finished
    assert replayed.score == state.score
    assert replayed.points == state.hand_points
    assert replayed.winner == (state.winner if state.winner >= 0 else None)
    assert replayed.state.log == state.log
    assert replayed.state.dealt == state.dealt
    assert replayed.state.shown == state.shown


# --- the playout ------------------------------------------------------------------------------


def flores_deal(players: int, rng: Random) -> Deal:
    """A deal in which each seat holds a flor with probability 1/2 (the rest drawn at random):
    uniform deals have too few flores, let alone two rival ones, to reach contraflores."""
    suits = [rng.sample(range(s * 10, s * 10 + 10), 10) for s in range(4)]
    hands: list[list[int] | None] = []
    for _ in range(players):
        open_suits = [cards for cards in suits if len(cards) >= 3]
        if rng.random() < 0.5 and open_suits:
            cards = rng.choice(open_suits)
            hands.append([cards.pop() for _ in range(3)])
        else:
            hands.append(None)
    rest = rng.sample([c for cards in suits for c in cards], 3 * players)
    dealt = tuple(
        tuple(DECK[c] for c in (hand if hand is not None else rest[3 * i : 3 * i + 3]))
        for i, hand in enumerate(hands)
    )
    return Deal(dealt)


def choose(legal: tuple[Action, ...], rng: Random, mazo_rate: float) -> Action:
    action = rng.choice(legal)
    if action is MAZO and len(legal) > 1 and rng.random() >= mazo_rate:
        action = rng.choice([a for a in legal if a is not MAZO])
    return action


def play_match(setup: Setup, max_steps: int = 20_000) -> State:
    rng = Random(setup.seed)
    state = new_match(setup.rules, mano=setup.mano, score=setup.score)
    first = -1
    hands = 0
    contract = Contract(state)
    for _ in range(max_steps):
        check_cards(state)
        check_actor(state)
        check_views(state)
        check_derived_public(state)
        check_match_end(state, first)
        actor = to_act(state)
        if actor is None:
            break
        check_illegal(state, rng, every=state.hand_no == 1 and not state.log)
        if actor == CHANCE:
            if setup.flores and setup.rules.variant == "standard":
                chosen = flores_deal(setup.rules.players, rng)
                check(state, chosen)
                after, events = apply(state, chosen)
                assert after.dealt == chosen.hands
            else:
                after, events = deal(state, rng)
            hands += 1
            assert after.hand_no == state.hand_no + 1 == hands
            check_events(events, after)
        else:
            check_all_legal_apply(state)
            action = choose(legal_actions(state), rng, setup.mazo_rate)
            after, events = apply(state, action)
        contract.step(state, None if actor == CHANCE else action, after, events)
        check_score(state, after)
        if first < 0:
            reached = reached_now(after)
            if len(reached) > 1 and not setup.rules.individual:
                # One action scored both teams past the target (under match_end="end_of_hand",
                # an unsung flor and the truco when the hand ends): the first to get there, in
                # the order the points were scored (the tantos before the truco), wins.
                first = first_in_order(setup.rules.target, state.score, events)
            else:
                first = first_to_reach(setup.rules, after.score, after.mano) if reached else -1
        if state.phase == PLAYING and after.phase != PLAYING:
            check_history(after)
        state = after
    else:
        raise AssertionError(f"the match did not end in {max_steps} steps")
    assert state.phase == OVER
    assert reached_now(state)
    assert state.winner == first
    return state


FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
HEAVY = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FAST
@given(setups())
def test_random_matches(setup: Setup) -> None:
    play_match(setup)


@pytest.mark.slow
@HEAVY
@given(setups())
def test_random_matches_heavy(setup: Setup) -> None:
    play_match(setup)


@FAST
@given(setups(variant_rules_strategy))
def test_random_variant_matches(setup: Setup) -> None:
    play_match(setup)


@pytest.mark.slow
@HEAVY
@given(setups(variant_rules_strategy))
def test_random_variant_matches_heavy(setup: Setup) -> None:
    play_match(setup)


@FAST
@given(setups(paulista_rules_strategy))
def test_random_paulista_matches(setup: Setup) -> None:
    play_match(setup)


@pytest.mark.slow
@HEAVY
@given(setups(paulista_rules_strategy))
def test_random_paulista_matches_heavy(setup: Setup) -> None:
    play_match(setup)


@pytest.mark.parametrize("variant", ["pata_de_gallo", "destantado", "pica_pica"])
def test_fixed_seed_variant_matches(variant: str) -> None:
    rules = Rules(variant=variant, tapada="always", falta="diferencia")  # type: ignore[arg-type]
    start = rules.porotos if variant == "destantado" else 0
    setup = Setup(rules, mano=0, score=(start,) * rules.scorers, seed=7, mazo_rate=0.3)
    final = play_match(setup)
    assert final.hand_no > 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_fixed_seed_matches(players: int) -> None:
    # Deterministic companions of the random ones: one full match from 0-0 per table size
    # (with a falta that cannot end it at once, so that it lasts several hands).
    rules = Rules(players=players, flor=True, tapada="always", falta="diferencia")
    final = play_match(Setup(rules, mano=0, score=(0, 0), seed=players, mazo_rate=0.3))
    assert final.hand_no > 3


@pytest.mark.parametrize("players", [2, 4])
def test_blind_mao_de_ferro_deal_shows_no_seat_its_cards(players: int) -> None:
    """At 11-11 with the mão de ferro played blind, the deal's events name no card to anyone,
    as the view shows none; with the cards seen (``aberta``), each seat gets its own."""
    modes: tuple[tuple[MaoDeFerro, bool], ...] = (("cega", False), ("aberta", True))
    for mode, seen in modes:
        rules = Rules(game="paulista", players=players, target=12, mao_de_ferro=mode)
        state = new_match(rules, mano=0, score=(11, 11))
        after, events = deal(state, Random(3))
        for seat in range(players):
            assert observe(after, seat).blind is not seen
            shown = [e for e in events if type(e) is CardsDealt and visible_to(e, seat)]
            assert [e.cards for e in shown] == ([after.hands[seat]] if seen else [])
        check_events(events, after)
