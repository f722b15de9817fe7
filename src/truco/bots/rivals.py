"""Reading the rivals: what a seat has seen of each rival's betting during a match.

A seat whose bot reads its rivals has one ``Reading`` per match, kept by whoever seats the bot
(``driver.Driver``; a server's table, ``server/readings.py``) and handed to the bot with each
decision (``base.Situation.reading``). It learns only from the views its seat is given at
the end of each hand (``observe(state, seat)`` between hands: the hand's public history, the
cards played face up, the declared tantos and the cards shown to prove them), never from a
hidden card, in two ways:

- each rival's *type* (``rival_types``): how likely each setting of the policy's knobs made the
  rival's decisions, summed over the match. The expert plays by it: ``type_tendency`` turns the
  type read into a ``Tendency`` (the rival's knobs in the rollouts; ``calls`` / ``answers``, how
  much its calls and acceptances say about its cards, which scale the sampled worlds' weights);
- counts (``Seen``, ``learn``): in how many hands the rival called the truco and the envido, how
  it answered our calls, and which calls and acceptances were weak when the cards were seen.
  Each rate is smoothed with a prior of ``PRIOR`` observations at the rate the expert assumes.
  The exploiter ``ventajero`` adapts by them (``tendency`` of the counts gives it how much the
  rivals' calls are worth); the expert no longer plays by them.

With no evidence either reading is today's assumption (``NEUTRAL``): the expert plays exactly
as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from random import Random
from typing import NamedTuple

from truco.bots.blueprint.policy import blueprint_for, chance
from truco.bots.context import card_ranks
from truco.bots.knobs import Style
from truco.bots.rival_types import BLUEPRINT_PRIOR, ROLLOUT_STYLE, Posterior, hand_evidence
from truco.bots.strength import odds
from truco.cards import DECK, TRUCO_RANK, Card, envido_points
from truco.view import SeatView

PRIOR = 4.0
"""Pseudo-observations at today's assumed rate behind every rate: a match is only about ten
hands, yet a reading of ``simple`` off by chance after three of them costs the expert more
than it gains against the rivals worth reading (measured, docs/bots-measured.md)."""
PRIOR_CALLS = 2.0
"""The same for the share of hands with a call, the quickest tell: a rival who raises in every
hand is read as one after three or four hands (a match against it lasts about five)."""

# Today's assumptions, as rates (measured on `simple` against the expert, docs/bots-measured.md).
BASE_TRUCO_CALLS = 0.45
"""Share of hands in which a rival calls or raises the truco."""
LOOSE_TRUCO_CALLS = 0.65
"""A share of hands with a truco call above which the calls cannot all be strong."""
BASE_ENVIDO_CALLS = 0.21
"""Share of hands in which a rival calls or raises the envido."""
BASE_ACCEPTS = 0.37
"""Share of our calls (truco and envido) a rival accepts."""

WEAK_CARDS = 0.5
"""A truco call or acceptance is *weak* when the rival's cards seen average under this chance
to beat a random card."""
WEAK_POINTS = 26
"""An envido call or acceptance is *weak* with fewer points declared."""

_TRUCO_VERBS = frozenset(("truco", "retruco", "vale-cuatro", "seis", "nove", "doze"))
_ENVIDO_VERBS = frozenset(("envido", "real-envido", "falta-envido"))
_ACCEPT = frozenset(("quiero", "desce"))
_DECLINE = frozenset(("no-quiero", "corre", "mazo"))


def _weak_card_share() -> float:
    """P(three random cards average under ``WEAK_CARDS``): the share of weak hands at large."""
    beat, _ = odds(TRUCO_RANK)
    hands = list(combinations(range(len(DECK)), 3))
    weak = sum(1 for h in hands if sum(beat[c] for c in h) / 3 < WEAK_CARDS)
    return weak / len(hands)


def _weak_points_share() -> float:
    """P(a random hand has fewer than ``WEAK_POINTS`` envido points)."""
    hands = list(combinations(DECK, 3))
    return sum(1 for h in hands if envido_points(h) < WEAK_POINTS) / len(hands)


Q_CARDS = _weak_card_share()
Q_POINTS = _weak_points_share()
# How much more often than a weak hand a strong one calls or accepts, as today's world weights
# assume (truco: 0.25 + 0.75 p; envido: a sigmoid around 25.5 points; answers: 0.3 + 0.7 p),
# expressed as the odds of a weak hand among the calls against the odds among all hands.
BASE_RATIO = {"truco": 0.4, "envido": 0.1, "truco-answer": 0.6, "envido-answer": 0.3}


class Tendency(NamedTuple):
    """What the reading makes of one rival."""

    style: Style
    """The rival's seat's knobs in the rollouts."""
    calls: float = 1.0
    """How much its truco and envido calls say about its cards (1: as assumed)."""
    answers: float = 1.0
    """How much its acceptances say about its cards (1: as assumed)."""


NEUTRAL = Tendency(ROLLOUT_STYLE)
"""The tendency of a rival never seen: today's assumption."""


@dataclass
class Seen:
    """The counts for one rival seat."""

    hands: int = 0
    truco_hands: int = 0
    envido_hands: int = 0
    answers: int = 0
    accepts: int = 0
    revealed: dict[str, int] = field(default_factory=dict)
    """Calls or acceptances whose strength was seen, by kind (``BASE_RATIO``'s keys)."""
    weak: dict[str, int] = field(default_factory=dict)
    """Those of them that were weak."""
    cards: set[Card] = field(default_factory=set)
    """Every rival card the counts were learned from (all of them seen by the seat)."""

    def note(self, kind: str, weak: bool) -> None:
        self.revealed[kind] = self.revealed.get(kind, 0) + 1
        self.weak[kind] = self.weak.get(kind, 0) + int(weak)


def _rate(hits: float, n: float, base: float, prior: float = PRIOR) -> float:
    return (hits + prior * base) / (n + prior)


def _credibility(seen: Seen, kind: str, q: float) -> float:
    """How informative the rival's calls (or acceptances) of ``kind`` are, relative to today's
    assumption: 1 - (odds ratio of weak hands among them) scaled so that the prior gives 1."""
    r0 = BASE_RATIO[kind]
    prior_w = r0 * q / (1 - q) / (1 + r0 * q / (1 - q))
    w = _rate(seen.weak.get(kind, 0), seen.revealed.get(kind, 0), prior_w)
    ratio = (w / (1 - w)) / (q / (1 - q)) if w < 1 else 10.0
    return max(0.0, min(1.3, (1 - ratio) / (1 - r0)))


def _excess(rate: float, base: float) -> float:
    """How far above the assumed ``base`` a rival's call rate is, as a share of the way to
    calling in every hand (0 at or below it)."""
    return max(0.0, (rate - base) / (1.0 - base))


def tendency(seen: Seen) -> Tendency:
    """The rival's knobs and the weight of its signals, from its counts (the prior alone gives
    ``NEUTRAL``)."""
    truco = _rate(seen.truco_hands, seen.hands, BASE_TRUCO_CALLS, PRIOR_CALLS)
    envido = _rate(seen.envido_hands, seen.hands, BASE_ENVIDO_CALLS, PRIOR_CALLS)
    accept = _rate(seen.accepts, seen.answers, BASE_ACCEPTS)
    shown = (_credibility(seen, "truco", Q_CARDS) + _credibility(seen, "envido", Q_POINTS)) / 2
    # A rival who calls in more hands than strong hands come cannot be calling on strength.
    # (A truco called late with a won hand is no bluff, so only a truco rate well above the
    # assumed one counts.)
    often = 1.0 - max(_excess(truco, LOOSE_TRUCO_CALLS), _excess(envido, BASE_ENVIDO_CALLS))
    calls = min(shown, often) if often < 1.0 else shown
    answers = (
        _credibility(seen, "truco-answer", Q_CARDS) + _credibility(seen, "envido-answer", Q_POINTS)
    ) / 2
    rates = (accept, truco, envido) == (BASE_ACCEPTS, BASE_TRUCO_CALLS, BASE_ENVIDO_CALLS)
    if calls == 1.0 and answers == 1.0 and rates:
        return NEUTRAL
    base = ROLLOUT_STYLE
    style = base._replace(
        # A rival who calls with weak cards bluffs; one whose calls are all strong never does.
        bluff=max(0.0, min(0.4, base.bluff + 0.3 * (1.0 - calls))),
        # A rival who declines more than assumed, or accepts only with strong cards, is
        # cautious; one who accepts more, or with anything, is not.
        caution=max(
            -0.6, min(1.2, base.caution + 2.0 * (BASE_ACCEPTS - accept) + 0.3 * (answers - 1.0))
        ),
        envido_call=max(20, min(31, round(base.envido_call - 12 * (envido - BASE_ENVIDO_CALLS)))),
        always_raise=truco >= 0.7 and envido >= 0.6,
        always_quiero=accept > 0.7,
    )
    return Tendency(style, calls, answers)


def type_tendency(style: Style) -> Tendency:
    """What the expert makes of a rival read as playing with ``style`` (each part measured
    with the rival's true knobs given, docs/bots.md): the rival's knobs in the rollouts, and how
    much its calls (by its bluffs and thresholds) and its acceptances (by its caution) say about
    its cards. One who accepts every call is played out as assumed (its acceptances say
    nothing, but rollouts in which every call is accepted lost matches against it); one who
    raises everything is played out raising."""
    if style == ROLLOUT_STYLE:
        return NEUTRAL
    if style.always_quiero:
        return Tendency(ROLLOUT_STYLE, 1.0, 0.0)
    if style.always_raise:
        return Tendency(style)
    calls = 1.3 if style.bluff == 0.0 else max(0.3, 1.0 - 2.5 * (style.bluff - ROLLOUT_STYLE.bluff))
    # One who waits for more points or a stronger hand to call says more by calling.
    tight = (style.envido_call > ROLLOUT_STYLE.envido_call) + (
        style.truco_call > ROLLOUT_STYLE.truco_call
    )
    calls = min(1.3, calls + 0.15 * tight)
    answers = max(0.6, min(1.3, 1.0 + 0.5 * (style.caution - ROLLOUT_STYLE.caution)))
    return Tendency(style, calls, answers)


Snapshot = tuple[tuple[int, tuple[float, ...], int], ...]
"""A reading's types, per rival seat: (seat, the log of each type's posterior weight, hands)."""


def read_hand(view: SeatView) -> dict[int, list[float]]:
    """The evidence of a finished hand about each rival's type (``rival_types.hand_evidence``),
    with draws of its own seeded by the hand, so that reading changes no other draw of a bot's
    and the same hand always reads alike."""
    rng = Random(f"reading:{view.hand_no}:{view.seat}:{len(view.history)}")
    bp = blueprint_for(view.rules, carry=True)
    extra = None if bp is None else partial(chance, bp)
    return hand_evidence(view, rng, extra)


class Reading:
    """One seat's reading of its rivals over a match: feed it the seat's view at the end of each
    hand (``watch``); ask it for a rival's ``tendency``. It counts the rivals' calls and answers
    (``Seen``, for ``ventajero``) and weighs each rival's type (``rival_types``): the tendency is
    that of the most likely type. ``types=False``: the counts alone (the exploiter's reading,
    which spares the types' 50 to 100 ms a hand)."""

    def __init__(self, *, types: bool = True) -> None:
        self.reads_types = types
        self.seen: dict[int, Seen] = {}
        self.types: dict[int, Posterior] = {}
        self._last: tuple[int, int] | None = None

    def reset(self) -> None:
        self.seen.clear()
        self.types.clear()
        self._last = None

    def watch(self, view: SeatView) -> None:
        """Learn from a view of the seat at the end of a hand (once per hand; a view of a hand
        still played, or of one already learned from, is ignored)."""
        me = view.seat
        if me is None or view.phase == 1 or not view.hand_no or not view.history:
            return
        if self._last is not None and view.hand_no < self._last[0]:
            self.reset()  # a new match
        if self._last is not None and view.hand_no == self._last[0]:
            return
        self._last = (view.hand_no, len(view.history))
        learn(self.seen, view)
        if self.reads_types:
            self.absorb(read_hand(view))

    def absorb(self, evidence: Mapping[int, Sequence[float]]) -> None:
        """Add one hand's evidence of the rivals' types (``read_hand``), wherever it was
        computed (the server's workers compute it; the table keeps the sums)."""
        for seat, logs in evidence.items():
            self.types.setdefault(seat, Posterior()).add(list(logs))

    def snapshot(self) -> Snapshot:
        """The types' sums per rival seat: all a decision needs of the reading, small enough to
        pass to another process with the view (about 700 bytes a rival)."""
        return tuple((seat, tuple(p.logs), p.hands) for seat, p in sorted(self.types.items()))

    @classmethod
    def restored(cls, snapshot: Snapshot) -> Reading:
        """A reading holding ``snapshot``'s types (no counts: those are the exploiter's)."""
        reading = cls()
        for seat, logs, hands in snapshot:
            posterior = Posterior()
            posterior.restore(list(logs), hands)
            reading.types[seat] = posterior
        return reading

    def tendency(self, seat: int) -> Tendency:
        posterior = self.types.get(seat)
        return NEUTRAL if posterior is None else type_tendency(posterior.style())

    def tendencies(self, players: int) -> tuple[Tendency, ...]:
        return tuple(self.tendency(s) for s in range(players))

    def lean(self, seat: int) -> float:
        """How far the model of ``seat`` moves from the blueprint toward its read type: 0 while
        nothing seen says it plays otherwise than the blueprint (its prior, or more), up to 1
        when the evidence is all for the type."""
        posterior = self.types.get(seat)
        if posterior is None:
            return 0.0
        otherwise = 1.0 - posterior.blueprint()
        prior = 1.0 - BLUEPRINT_PRIOR
        return max(0.0, (otherwise - prior) / (1.0 - prior))

    def leans(self, players: int) -> tuple[float, ...]:
        return tuple(self.lean(s) for s in range(players))


def _cards_of(view: SeatView, seat: int) -> list[Card]:
    """The cards of ``seat`` the view shows: played face up, or shown for the tantos."""
    out = [c for trick in (*view.tricks, view.plays) for who, c, _ in trick if who == seat and c]
    for who, shown in view.shown:
        if who == seat:
            out.extend(c for c in shown if c not in out)
    return out


def learn(seen: dict[int, Seen], view: SeatView) -> None:
    """Add one finished hand, as the seat of ``view`` saw it, to the counts of its rivals."""
    me = view.seat
    assert me is not None
    teams = view.teams
    rivals = [s for s in view.playing if teams[s] != teams[me]]
    for s in rivals:
        seen.setdefault(s, Seen()).hands += 1
    beat, _ = odds(card_ranks(view.rules, -1 if view.vira is None else view.vira))
    points = {who: pts for who, pts, flor in view.declared if pts is not None and not flor}

    def weak_cards(s: int) -> bool | None:
        cards = _cards_of(view, s)
        if len(cards) < 2:
            return None
        seen[s].cards.update(cards)
        return sum(beat[c] for c in cards) / len(cards) < WEAK_CARDS

    def weak_points(s: int) -> bool | None:
        return None if s not in points else points[s] < WEAK_POINTS

    judges = {"truco": weak_cards, "envido": weak_points}
    truco_by: set[int] = set()
    envido_by: set[int] = set()
    pending: list[tuple[str, int]] = []  # the calls waiting for an answer: (kind, caller)
    for who, text in view.history:
        verb = text.split(" ", 1)[0]
        rival = who in rivals
        kind = "truco" if verb in _TRUCO_VERBS else "envido" if verb in _ENVIDO_VERBS else ""
        if kind:
            if pending and pending[-1][0] == kind:  # a raise accepts the call it raises
                call = pending.pop()
                _answer(seen, who, rivals, call, True, judges[kind])
            if rival:
                (truco_by if kind == "truco" else envido_by).add(who)
            pending.append((kind, who))
        elif verb in _ACCEPT or verb in _DECLINE:
            if pending:
                call = pending.pop()
                _answer(seen, who, rivals, call, verb in _ACCEPT, judges[call[0]])
        elif verb == "flor" and pending and pending[-1][0] == "envido":
            pending.pop()
    for s in truco_by:
        seen[s].truco_hands += 1
        weak = weak_cards(s)
        if weak is not None:
            seen[s].note("truco", weak)
    for s in envido_by:
        seen[s].envido_hands += 1
        weak = weak_points(s)
        if weak is not None:
            seen[s].note("envido", weak)


def _answer(
    seen: dict[int, Seen],
    who: int,
    rivals: list[int],
    call: tuple[str, int],
    accepted: bool,
    judge: Callable[[int], bool | None],
) -> None:
    """Count a rival's answer to a call of our side (a rival answering a rival, as the pair of
    pata de gallo may, is not counted)."""
    kind, caller = call
    if who not in rivals or caller in rivals:
        return
    entry = seen[who]
    entry.answers += 1
    entry.accepts += int(accepted)
    if accepted:
        weak = judge(who)
        if weak is not None:
            entry.note(f"{kind}-answer", weak)


__all__ = [
    "NEUTRAL",
    "ROLLOUT_STYLE",
    "Reading",
    "Seen",
    "Snapshot",
    "Tendency",
    "learn",
    "read_hand",
    "tendency",
    "type_tendency",
]
