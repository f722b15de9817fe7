"""The blueprint's abstraction of a 1v1 hand: what a seat's information set is made of, and the
few actions the blueprint chooses among (docs/bots.md, "The blueprint").

An information set is a short text key built from what the seat knows, coarsened:

- the match score as two buckets of the points each side still needs (``need_bucket``): the
  last bucket is exactly "in the malas", where a falta is worth the match;
- mano or pie;
- the seat's three cards as classes of truco strength (``CLASSES``: anchos, sietes bravos, tres,
  dos y ases falsos, figuras, the rest), sorted;
- its envido points in six buckets while the envido can still be played, and its flor;
- the hand's public history, every action as a token (a card by its class), who made it;
- the tricks' results so far and, with a rival card on the table, whether the seat's best card
  beats it, ties it or not;
- what the rival declared in the envido (a bucket, or son buenas);
- and the abstract actions it may take, so that a key always has the same choices.

The blueprint chooses among abstract actions: ``P`` plays the card the card rule picks
(``strength.choose_card``: win cheap, keep the best), ``T`` raises the truco (truco, retruco,
vale cuatro; Paulista's truco, seis, nove, doze), ``E``/``R``/``F`` the envido calls, ``Q`` and
``N`` accept and decline (quiero/no quiero; desce/corre; Paulista's joga/corre at the mão de
onze), and the flor's ``L``/``C``/``A``/``K``/``H``. It never goes to the mazo nor plays a card
face down: with a call pending "no quiero" does what the mazo does, and otherwise the mazo only
gives points away. The engine stays the referee: every abstract action is a legal action of the
real game, applied by ``truco.engine.apply``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from truco.actions import PLAY, Action, Verb
from truco.bots.context import card_ranks, ctx_of_state, ctx_of_view
from truco.bots.strength import choose_card
from truco.cards import Card
from truco.rules import Rules
from truco.state import State
from truco.view import SeatView

CLASSES = "FFFFEEEDDCBBAA"
"""The class of each truco rank 1..14 (``card_ranks``): ``A`` anchos (or Paulista's two top
manilhas), ``B`` sietes bravos (the other two), ``C`` tres, ``D`` dos and ases falsos, ``E``
figuras, ``F`` the rest."""

_VERB_TOKEN: dict[Verb, str] = {
    Verb.TRUCO: "T",
    Verb.RETRUCO: "T",
    Verb.VALE_CUATRO: "T",
    Verb.SEIS: "T",
    Verb.NOVE: "T",
    Verb.DOZE: "T",
    Verb.ENVIDO: "E",
    Verb.REAL_ENVIDO: "R",
    Verb.FALTA_ENVIDO: "F",
    Verb.QUIERO: "Q",
    Verb.DESCE: "Q",
    Verb.JOGA: "Q",
    Verb.NO_QUIERO: "N",
    Verb.CORRE: "N",
    Verb.FLOR: "L",
    Verb.CONTRAFLOR: "C",
    Verb.CONTRAFLOR_AL_RESTO: "A",
    Verb.CON_FLOR_QUIERO: "K",
    Verb.CON_FLOR_ME_ACHICO: "H",
    Verb.CEGA: "g",
    Verb.MAZO: "M",
}
ORDER = "PTERFQNLCAKHg"
"""Every abstract action, in the order a key lists them."""
_EXCLUDED = frozenset((Verb.MAZO, Verb.TAPADA))


_NEEDS: dict[int, tuple[int, int, int]] = {30: (3, 8, 15), 12: (1, 3, 6)}


def need_bucket(need: int, target: int) -> str:
    """The points a side still needs, in four buckets: a hand's worth, a few hands', the
    buenas, the malas (more than half the target to go: a falta is worth the match)."""
    near, few, half = _NEEDS.get(target) or (max(1, target // 10), target // 4, target // 2)
    if need <= near:
        return "0"
    if need <= few:
        return "1"
    return "2" if need <= half else "3"


def tanto_bucket(points: int) -> str:
    """Envido points in six buckets: up to 21, 22-24, 25-26, 27-28, 29-30, 31-33."""
    if points <= 21:
        return "0"
    if points <= 24:
        return "1"
    if points <= 26:
        return "2"
    if points <= 28:
        return "3"
    return "4" if points <= 30 else "5"


def flor_bucket(points: int) -> str:
    """Flor points in three buckets (none: ``-``)."""
    if points < 0:
        return "-"
    return "0" if points < 30 else ("1" if points < 34 else "2")


def card_class(card: Card, ranks: Sequence[int]) -> str:
    return CLASSES[ranks[card] - 1]


_CLASS_VALUE = {"A": 6, "B": 5, "C": 4, "D": 3, "E": 2, "F": 1}
_STRENGTH = (10, 13, 16, 21, 25)
"""Bounds of the strength buckets: about a fifth of the deals each below 22, then the good and
the very good hands apart, where the truco is decided."""


def strength_bucket(hand: Sequence[Card], ranks: Sequence[int]) -> str:
    """The cards' truco strength in six buckets (``h0``..``h5``): 3, 2 and 1 times the values
    of the best, second and third card's classes, summed."""
    values = sorted((_CLASS_VALUE[card_class(c, ranks)] for c in hand), reverse=True)
    total = sum(w * v for w, v in zip((3, 2, 1), values, strict=False))
    return "h" + str(sum(total > b for b in _STRENGTH))


class Choice(NamedTuple):
    """An abstract action and the real action it stands for here (``P``: None, the card rule
    picks the card when it is played, ``resolve``)."""

    token: str
    action: Action | None


_CHOICES: dict[tuple[Action, ...], tuple[Choice, ...]] = {}
CHOICES_KEPT = 50_000
"""Legal sets whose abstract actions are remembered (training and the exploiter meet the same
ones again and again; docs/operations.md)."""


def choices(legal: tuple[Action, ...]) -> tuple[Choice, ...]:
    """The abstract actions among ``legal``, in ``ORDER``. Only the mazo left: the mazo."""
    found = _CHOICES.get(legal)
    if found is None:
        found = _choices(legal)
        if len(_CHOICES) < CHOICES_KEPT:
            _CHOICES[legal] = found
    return found


def _choices(legal: tuple[Action, ...]) -> tuple[Choice, ...]:
    found: dict[str, Action | None] = {}
    for a in legal:
        verb = a.verb
        if verb in _EXCLUDED:
            continue
        if verb is Verb.PLAY:
            found["P"] = None
            continue
        tok = _VERB_TOKEN.get(verb)
        if tok is not None and tok not in found:
            found[tok] = a
    if not found:
        return (Choice("M", legal[0]),)
    return tuple(Choice(t, found[t]) for t in ORDER if t in found)


def resolve(state: State, seat: int, choice: Choice) -> Action:
    """The real action of an abstract one: ``P`` plays the card rule's card."""
    if choice.action is not None:
        return choice.action
    card = choose_card(ctx_of_state(state, seat))
    action = PLAY[card]
    return action if action in state.legal else next(a for a in state.legal if a.verb is Verb.PLAY)


def resolve_view(view: SeatView, choice: Choice) -> Action:
    """The same for a bot's own decision, from its view."""
    if choice.action is not None:
        return choice.action
    card = choose_card(ctx_of_view(view))
    action = PLAY[card]
    return action if action in view.legal else next(a for a in view.legal if a.verb is Verb.PLAY)


def options_of(found: Sequence[Choice]) -> str:
    return "".join(c.token for c in found)


class Facts(NamedTuple):
    """What a key is made of, read from a state or from a view."""

    rules: Rules
    ranks: Sequence[int]
    me: int
    teams: Sequence[int]
    score: Sequence[int]
    mano: int
    hand: Sequence[Card]
    tanto: int
    flor: int
    live: bool
    truco: int
    truco_owner: int
    truco_call: tuple[int, int, int] | None
    chain: Sequence[Verb]
    flor_chain: Sequence[Verb]
    envido_answer: str
    results: Sequence[int]
    plays: Sequence[tuple[int, Card | None, bool]]
    rival_shown: Sequence[Card]
    declared: Sequence[tuple[int, int | None, bool]]


def key_of(f: Facts, options: str) -> str:
    """The information-set key: ``rules|score|mano|hand|tanto|flor|truco|envido|tricks/options``."""
    rules, ranks, me = f.rules, f.ranks, f.me
    team = f.teams[me]
    target = rules.target
    tag = ("p" if rules.game == "paulista" else "a") + ("f" if rules.flor else "")
    needs = need_bucket(target - f.score[team], target) + need_bucket(
        target - f.score[1 - team], target
    )
    live = f.live and rules.game != "paulista"
    # While the envido can be played, the cards' strength in six buckets beside the envido's
    # points; once it cannot, the cards' classes, which the truco is played by.
    hand = (
        strength_bucket(f.hand, ranks)
        if live
        else "".join(sorted(card_class(c, ranks) for c in f.hand))
    )
    tanto = tanto_bucket(f.tanto) if live else "-"
    flor = flor_bucket(f.flor) if rules.flor else ""
    owner = f.truco_owner
    who = "e" if owner < 0 else ("m" if owner == team else "r")
    call = f.truco_call
    # Whose call it is, by side: in team play a partner's call is the side's (the 1v1
    # blueprint's keys, carried over to teams).
    pending = "" if call is None else f"{call[0]}{'m' if f.teams[call[1]] == team else 'r'}"
    if live:
        envido = "".join(_VERB_TOKEN[v] for v in (*f.chain, *f.flor_chain)) + f.envido_answer
    else:
        # Settled: how it was answered and what the rival declared (low, 27 or more, son
        # buenas) is all the truco needs of it.
        envido = f.envido_answer
        for seat, points, _is_flor in f.declared:
            if seat != me:
                envido += "b" if points is None else ("H" if points >= 27 else "L")
    results = "".join("p" if r < 0 else ("w" if r == team else "l") for r in f.results)
    table = ""
    for s, card, face_down in f.plays:
        if f.teams[s] != team:
            table = "t" if face_down or card is None else card_class(card, ranks)
    shown = "".join(sorted(card_class(c, ranks) for c in f.rival_shown))
    return (
        f"{tag}{needs}{'m' if f.mano == me else 'p'}{hand}{tanto}{flor}"
        f"|{f.truco}{who}{pending}|{envido}|{results}{table}{shown}/{options}"
    )


_TANTO_CALLS = frozenset(
    ("envido", "real-envido", "falta-envido", "flor", "contraflor", "contraflor-al-resto")
)
_ANSWER_TOKEN = {"quiero": "q", "no-quiero": "n", "con-flor-quiero": "q", "con-flor-me-achico": "n"}


def _answer(log: Sequence[str]) -> str:
    """How the last envido (or flor) call was answered: ``q``, ``n``, or nothing yet. The first
    answer after a call is its answer: a truco waits while an envido is played."""
    out = ""
    pending = False
    for text in log:
        if text in _TANTO_CALLS:
            out, pending = "", True
        elif pending and text in _ANSWER_TOKEN:
            out, pending = _ANSWER_TOKEN[text], False
    return out


def _shown(
    tricks: Sequence[Sequence[tuple[int, Card | None, bool]]], teams: Sequence[int], team: int
) -> list[Card]:
    """The cards the rivals played face up in the finished tricks."""
    return [
        c
        for trick in tricks
        for s, c, face_down in trick
        if teams[s] != team and not face_down and c is not None
    ]


def state_facts(state: State, seat: int) -> Facts:
    ranks = card_ranks(state.rules, state.vira)
    team = state.teams[seat]
    answer = ""
    if state.chain or state.flor_chain:
        answer = _answer([a.verb.value for _s, a in state.log])
    return Facts(
        state.rules,
        ranks,
        seat,
        state.teams,
        state.score,
        state.mano,
        state.hands[seat],
        state.tantos[seat],
        state.flores[seat],
        state.envido_open or state.tanto_call is not None,
        state.truco,
        state.truco_owner,
        state.truco_call,
        state.chain,
        state.flor_chain,
        answer,
        state.results,
        state.plays,
        _shown(state.tricks, state.teams, team),
        state.declared,
    )


def view_facts(view: SeatView) -> Facts:
    seat = view.seat
    assert seat is not None
    rules = view.rules
    ranks = card_ranks(rules, -1 if view.vira is None else view.vira)
    team = view.teams[seat]
    answer = ""
    if view.chain or view.flor_chain:
        answer = _answer([text for _s, text in view.history])
    return Facts(
        rules,
        ranks,
        seat,
        view.teams,
        view.score,
        view.mano,
        view.hand,
        0 if view.tantos is None else view.tantos,
        -1 if view.flor is None else view.flor,
        view.envido_open or view.envido_call is not None or view.flor_call is not None,
        view.truco,
        view.truco_owner,
        view.truco_call,
        view.chain,
        view.flor_chain,
        answer,
        view.results,
        view.plays,
        _shown(view.tricks, view.teams, team),
        view.declared,
    )


def state_key(state: State, seat: int, options: str) -> str:
    """The information-set key of ``seat`` in a (sampled or training) state."""
    return key_of(state_facts(state, seat), options)


def view_key(view: SeatView, options: str) -> str:
    """The key of the view's seat: the same text ``state_key`` gives for the state it was
    observed from."""
    return key_of(view_facts(view), options)


__all__ = [
    "CLASSES",
    "ORDER",
    "Choice",
    "Facts",
    "card_class",
    "choices",
    "flor_bucket",
    "key_of",
    "need_bucket",
    "options_of",
    "resolve",
    "resolve_view",
    "state_facts",
    "state_key",
    "tanto_bucket",
    "view_facts",
    "view_key",
]
