"""Señas: the signs partners make each other in team play, what each one says about the hand,
when a bot makes them, and how a table passes them on (to the sender's partners only).

A seña is not an action of the match: the engine never sees it, and it leaves a table only
toward the sender's partners. So it is told beside the view: a bot's ``Situation`` holds
``heard``, the señas its seat received in this hand as ``(sender, seña)`` pairs (a bot that
does not read señas ignores them), and a table asks a bot for its señas with ``due(view,
sent)``, from its own view alone. The meanings are the traditional ones
(docs/bots.md): a card seña says the sender holds that card (a tres, a dos: one of them; the
ancho falso: the 1 of oro or copa), and a sender shows his best cards first, at most
``SHOWN`` of them; "nada" says he holds none of them; "envido alto" says his envido is at
least ``ENVIDO_ALTO``; "flor" says his three cards are of one suit.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from random import Random
from typing import NamedTuple

from truco.bots.context import Ctx
from truco.cards import Card, Suit, envido_points, flor_points
from truco.senas import CARD_SENAS, ENVIDO_ALTO_SENA, FLOR_SENA, NADA, SENAS
from truco.state import PLAY, State
from truco.view import SeatView, observe

SHOWN = 2
"""A bot shows its best cards, at most this many (people show one or two)."""
ENVIDO_ALTO = 28
"""The envido a bot calls high: 28 or more wins most envidos at a table of four."""

_CARD_KIND: dict[int, str] = {
    Card.of(1, Suit.ESPADA): "ancho-espada",
    Card.of(1, Suit.BASTO): "ancho-basto",
    Card.of(7, Suit.ESPADA): "siete-espada",
    Card.of(7, Suit.ORO): "siete-oro",
    Card.of(1, Suit.ORO): "ancho-falso",
    Card.of(1, Suit.COPA): "ancho-falso",
    **{Card.of(3, s): "tres" for s in Suit},
    **{Card.of(2, s): "dos" for s in Suit},
}
_ORDER = {name: i for i, name in enumerate(CARD_SENAS)}

Heard = tuple[tuple[int, str], ...]
"""The señas one seat received in a hand: (sender, seña), in the order they were made."""


def card_kind(card: Card) -> str | None:
    """The card seña a card makes (None for a card worth no seña)."""
    return _CARD_KIND.get(card)


def kinds(cards: Iterable[Card]) -> list[str]:
    """The card señas a hand could make, best first, each once (two treses make one "tres")."""
    found = {_CARD_KIND[c] for c in cards if c in _CARD_KIND}
    return sorted(found, key=_ORDER.__getitem__)


def dealt(view: SeatView) -> tuple[Card, ...]:
    """The seat's cards of this hand: those it holds and those it has played (face up or
    down: its own view shows them)."""
    seat = view.seat
    played = [
        card
        for trick in (*view.tricks, view.plays)
        for who, card, _ in trick
        if who == seat and card is not None
    ]
    return tuple(sorted((*view.hand, *played)))


def partners(teams: Sequence[int], seat: int) -> tuple[int, ...]:
    """The seats a seña of ``seat`` reaches: its side's other seats."""
    return tuple(s for s, t in enumerate(teams) if t == teams[seat] and s != seat)


def due(view: SeatView, sent: Collection[str]) -> tuple[str, ...]:
    """The señas a bot makes now, from its own view, less those it made already this hand.

    Team play only, while the first trick is being played (people sign when the cards are
    dealt and up to their first card, not later) and while a partner plays the hand: the best
    ``SHOWN`` cards (or "nada"), and "flor" or "envido alto" while the envido may be sung.
    Never at Truco Paulista: these are the Argentine game's signs (its tables show none)."""
    seat = view.seat
    if seat is None or view.individual or view.phase != PLAY or view.trick != 0:
        return ()
    if view.game == "paulista":
        return ()
    playing = view.playing or tuple(range(len(view.teams)))
    if not any(s in playing for s in partners(view.teams, seat)):
        return ()
    out: list[str] = []
    if not any(s in sent for s in (*CARD_SENAS, NADA)):
        out.extend(kinds(dealt(view))[:SHOWN] or [NADA])
    if view.envido_open and not view.declared:
        if view.rules.flor and view.flor is not None:
            out.append(FLOR_SENA)
        elif (view.tantos or 0) >= ENVIDO_ALTO:
            out.append(ENVIDO_ALTO_SENA)
    return tuple(s for s in out if s not in sent)


class Told(NamedTuple):
    """What one partner's señas said about his hand."""

    cards: frozenset[str]
    nada: bool
    envido_alto: bool
    flor: bool


def told(heard: Heard) -> dict[int, Told]:
    """What each sender said, by seat."""
    said: dict[int, set[str]] = {}
    for who, sena in heard:
        said.setdefault(who, set()).add(sena)
    return {
        who: Told(
            frozenset(s for s in names if s in _ORDER),
            NADA in names,
            ENVIDO_ALTO_SENA in names,
            FLOR_SENA in names,
        )
        for who, names in said.items()
    }


def fits(t: Told, hand: Sequence[Card]) -> bool:
    """Whether a whole dealt hand agrees with what its holder's señas said, read as a bot
    makes them: the cards shown are held, nothing better than the lowest of them is hidden,
    and fewer than ``SHOWN`` shown means nothing else worth showing."""
    held = kinds(hand)
    if t.nada and held:
        return False
    if t.cards:
        if not t.cards.issubset(held):
            return False
        lowest = max(_ORDER[s] for s in t.cards)
        if any(_ORDER[s] < lowest and s not in t.cards for s in held):
            return False
        if len(t.cards) < SHOWN and len(held) > len(t.cards):
            return False
    if t.envido_alto and envido_points(hand) < ENVIDO_ALTO:
        return False
    return not (t.flor and flor_points(hand) is None)


def draw_hand(
    t: Told, known: Sequence[Card], pool: Sequence[Card], need: int, rng: Random, tries: int = 40
) -> tuple[list[Card], float] | None:
    """``need`` cards from ``pool`` that, beside the ``known`` ones (played face up), make a hand
    that fits ``t``, drawn uniformly among such hands: one card of each kind shown and not yet
    known is placed first, the rest drawn at random, the hand kept if it fits; the weight
    (1 over the ways of placing the shown cards) undoes the bias toward hands holding two of a
    kind. None when ``tries`` draws found no fitting hand."""
    have = set(kinds(known))
    # In the señas' order, not the set's: a set of strings iterates in an order that changes
    # from process to process, and the draws must not (a seeded match is reproducible).
    wanted = [k for k in CARD_SENAS if k in t.cards and k not in have]
    by_kind = {k: [c for c in pool if _CARD_KIND.get(c) == k] for k in wanted}
    if len(wanted) > need or any(not cards for cards in by_kind.values()):
        return None
    for _ in range(tries):
        picked = [by_kind[k][rng.randrange(len(by_kind[k]))] for k in wanted]
        others = [c for c in pool if c not in picked]
        drawn = picked + rng.sample(others, need - len(picked))
        hand = sorted((*known, *drawn))
        if fits(t, hand):
            weight = 1.0
            for k in wanted:
                weight /= sum(1 for c in drawn if _CARD_KIND.get(c) == k)
            rng.shuffle(drawn)
            return drawn, weight
    return None


def quiet_weight(t: Told, hand: Sequence[Card], envido_was_open: bool = True) -> float:
    """A soft weight for what a partner did not say: one who signs and keeps quiet about his
    envido seldom has a high one (a person may forget, so it is not ruled out)."""
    if envido_was_open and not t.envido_alto and not t.flor and envido_points(hand) >= ENVIDO_ALTO:
        return 0.25
    return 1.0


_STANDS_FOR: dict[str, Card] = {
    "ancho-espada": Card.of(1, Suit.ESPADA),
    "ancho-basto": Card.of(1, Suit.BASTO),
    "siete-espada": Card.of(7, Suit.ESPADA),
    "siete-oro": Card.of(7, Suit.ORO),
    "tres": Card.of(3, Suit.COPA),
    "dos": Card.of(2, Suit.COPA),
    "ancho-falso": Card.of(1, Suit.COPA),
}
"""A card of each kind, for the rules of thumb (every card of a kind ranks the same)."""
PROMISED_ENVIDO = 29
"""What "envido alto" (28 or more) stands for in the rules of thumb."""


def with_senas(ctx: Ctx, view: SeatView, heard: Heard) -> Ctx:
    """The rules of thumb's knowledge with the partners' señas: the cards they said they hold
    and have not played face up, and the envido they promised."""
    if not heard:
        return ctx
    cards: list[Card] = []
    tantos = 0
    for who, t in told(heard).items():
        if who == view.seat:
            continue
        played = {
            _CARD_KIND.get(card)
            for trick in (*view.tricks, view.plays)
            for seat, card, _ in trick
            if seat == who and card is not None
        }
        cards.extend(
            _STANDS_FOR[k] for k in sorted(t.cards, key=_ORDER.__getitem__) if k not in played
        )
        if t.envido_alto or t.flor:
            tantos = PROMISED_ENVIDO
    return ctx._replace(partner_cards=tuple(cards), partner_tantos=tantos)


def signs(bot: object) -> bool:
    """Whether a bot makes señas (its ``signals`` attribute; the random bot and the caretaker
    standing in for a person make none)."""
    return bool(getattr(bot, "signals", False))


class Exchange:
    """The señas of the hand being played at one table: what each seat made and received.
    Everything a seat receives comes from a partner (``partners``), never from a rival."""

    def __init__(self, players: int) -> None:
        self.hand_no = -1
        self.sent: list[set[str]] = [set() for _ in range(players)]
        self.heard: list[list[tuple[int, str]]] = [[] for _ in range(players)]

    def hand(self, hand_no: int) -> None:
        """Start afresh when a new hand is dealt."""
        if hand_no != self.hand_no:
            self.hand_no = hand_no
            for s in self.sent:
                s.clear()
            for h in self.heard:
                h.clear()

    def make(self, teams: Sequence[int], sender: int, sena: str) -> tuple[int, ...]:
        """Record a seña made by ``sender``; returns the seats it reaches (his partners)."""
        to = partners(teams, sender)
        self.sent[sender].add(sena)
        for s in to:
            self.heard[s].append((sender, sena))
        return to

    def heard_by(self, seat: int, hand_no: int) -> Heard:
        """What ``seat`` received in hand ``hand_no`` (nothing when the record is of another
        hand: señas never outlive their hand)."""
        return tuple(self.heard[seat]) if hand_no == self.hand_no else ()

    def before(
        self, state: State, actor: int, signers: Sequence[bool]
    ) -> list[tuple[int, str, tuple[int, ...]]]:
        """Before ``actor`` decides, the bots of his side (``signers``: which seats are bots that
        sign) make the señas due: a partner's decision may depend on them. Each made seña as
        (sender, seña, receivers)."""
        self.hand(state.hand_no)
        made: list[tuple[int, str, tuple[int, ...]]] = []
        teams = state.teams
        for s in range(len(teams)):
            if teams[s] != teams[actor] or not signers[s]:
                continue
            view = observe(state, s)
            for sena in due(view, self.sent[s]):
                made.append((s, sena, self.make(teams, s, sena)))
        return made


__all__ = [
    "CARD_SENAS",
    "ENVIDO_ALTO",
    "SENAS",
    "SHOWN",
    "Exchange",
    "Heard",
    "Told",
    "card_kind",
    "dealt",
    "draw_hand",
    "due",
    "fits",
    "kinds",
    "partners",
    "quiet_weight",
    "signs",
    "told",
    "with_senas",
]
