"""The 40-card Spanish deck: cards, their truco rank, their envido value, and their notation.

A card is a small int (0..39) so that tables indexed by card are plain tuple look-ups in the
engine's hot path. ``str(card)`` is the notation: the rank (1-7, 10, 11, 12) then the suit letter
(``e`` espada, ``b`` basto, ``o`` oro, ``c`` copa), e.g. ``1e`` for the ancho de espada.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from truco.errors import NotationError


class Suit(IntEnum):
    """The four Spanish suits, in the order used to number the cards."""

    ESPADA = 0
    BASTO = 1
    ORO = 2
    COPA = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]


SUIT_LETTERS = "eboc"
RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)

# Truco hierarchy, higher wins:
# 1e > 1b > 7e > 7o > 3 > 2 > 1o=1c > 12 > 11 > 10 > 7c=7b > 6 > 5 > 4.
# A face-down card (carta tapada) ranks 0, below every card.
_SPECIAL_RANKS = {(1, 0): 14, (1, 1): 13, (7, 0): 12, (7, 2): 11}
_PLAIN_RANKS = {3: 10, 2: 9, 1: 8, 12: 7, 11: 6, 10: 5, 7: 4, 6: 3, 5: 2, 4: 1}
TAPADA_RANK = 0


class Card(int):
    """One card of the deck; an int in 0..39 (suit * 10 + index of its rank in ``RANKS``)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return RANKS[self % 10]

    @property
    def suit(self) -> Suit:
        return Suit(self // 10)

    @property
    def truco_rank(self) -> int:
        return TRUCO_RANK[self]

    @property
    def envido_value(self) -> int:
        return ENVIDO_VALUE[self]

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @staticmethod
    def of(rank: int, suit: Suit | int) -> Card:
        if rank not in RANKS:
            raise NotationError(f"there is no {rank} in the 40-card Spanish deck")
        return DECK[int(suit) * 10 + RANKS.index(rank)]

    @staticmethod
    def parse(token: str) -> Card:
        """Read one card, e.g. ``"7o"`` or ``"12c"``."""
        card = _BY_NAME.get(token.strip().lower())
        if card is None:
            raise NotationError(
                f"unknown card {token!r}: write the rank (1-7, 10, 11, 12) then the suit "
                "(e espada, b basto, o oro, c copa), e.g. 7e"
            )
        return card


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(40))
CARD_TEXT: tuple[str, ...] = tuple(f"{RANKS[i % 10]}{SUIT_LETTERS[i // 10]}" for i in range(40))
"""Each card's notation, by its number (``str(card)`` is read here: the wire writes it often)."""
_BY_NAME = {str(c): c for c in DECK}

TRUCO_RANK: tuple[int, ...] = tuple(
    _SPECIAL_RANKS.get((c.rank, c // 10), _PLAIN_RANKS[c.rank]) for c in DECK
)
ENVIDO_VALUE: tuple[int, ...] = tuple(c.rank if c.rank <= 7 else 0 for c in DECK)
SUIT_OF: tuple[int, ...] = tuple(c // 10 for c in DECK)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces: ``"1e 4c 5o"``."""
    return tuple(Card.parse(tok) for tok in text.split())


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _envido_points(cards: Iterable[int]) -> int:
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(SUIT_OF[c], []).append(ENVIDO_VALUE[c])
    best = 0
    for values in by_suit.values():
        if len(values) >= 2:
            values.sort(reverse=True)
            best = max(best, 20 + values[0] + values[1])
        else:
            best = max(best, values[0])
    return best


ENVIDO_OF_SORTED_HAND: dict[tuple[int, ...], int] = {}
"""Every 3-card hand's envido, keyed by its cards in ascending order: the deal looks it up."""


def envido_points(cards: Iterable[Card]) -> int:
    """Envido of a hand: 20 + the best two of a suit, else the best single card (figures count 0).

    With three of a suit (flor, when flor is not played) the best two count.
    """
    hand = tuple(cards)
    points = ENVIDO_OF_SORTED_HAND.get(hand)
    return _envido_points(hand) if points is None else points


def _fill_envido_table() -> None:
    from itertools import combinations

    for hand in combinations(range(40), 3):
        ENVIDO_OF_SORTED_HAND[hand] = _envido_points(hand)


def envido_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards that prove a hand's envido: the suited pair that makes it, or the best single."""
    hand = tuple(cards)
    points = envido_points(hand)
    if points >= 20:
        for i, a in enumerate(hand):
            for b in hand[i + 1 :]:
                if SUIT_OF[a] == SUIT_OF[b] and 20 + ENVIDO_VALUE[a] + ENVIDO_VALUE[b] == points:
                    return (a, b)
    return (max(hand, key=lambda c: (ENVIDO_VALUE[c], -c)),)


def flor_points(cards: Iterable[Card]) -> int | None:
    """Flor of a hand (three of one suit): 20 + all three; ``None`` when the hand has no flor."""
    hand = tuple(cards)
    if len(hand) != 3 or not SUIT_OF[hand[0]] == SUIT_OF[hand[1]] == SUIT_OF[hand[2]]:
        return None
    return 20 + sum(ENVIDO_VALUE[c] for c in hand)


_fill_envido_table()


def _all_hands() -> tuple[tuple[Card, ...], ...]:
    from itertools import combinations

    return tuple(tuple(DECK[c] for c in hand) for hand in combinations(range(40), 3))


ALL_HANDS: tuple[tuple[Card, ...], ...] = _all_hands()
"""Every 3-card hand, its cards in ascending order (9,880 of them)."""
HAND_ENVIDO: tuple[int, ...] = tuple(ENVIDO_OF_SORTED_HAND[hand] for hand in ALL_HANDS)
HAND_FLOR: tuple[int, ...] = tuple(flor_points(hand) or -1 for hand in ALL_HANDS)
