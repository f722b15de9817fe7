"""Truco Paulista's cards: the order of the common cards, the vira's manilhas, French names.

The Paulista deck is the French deck without 8, 9, 10 (and jokers): 40 cards, one for each card
of the Spanish deck, so a card keeps its number and its notation (``4b``). The mapping (the
Brazilian Spanish-suited deck's, docs/notation.md "Truco Paulista"):

- ranks: 1 is the A (ás), 2-7 themselves, 10 (sota) the Q (dama), 11 (caballo) the J (valete),
  12 (rey) the K (rei);
- suits: basto is paus (♣), copa is copas (♥), espada is espadas (♠), oro is ouros (♦).

The common cards rank, whatever the suit, 3 > 2 > A > K > J > Q > 7 > 6 > 5 > 4. The four cards
of the rank above the vira (in that cyclic order: a vira 3 makes the 4s manilhas) beat them all,
by suit: paus (zap) > copas (copeta) > espadas (espadilha) > ouros (pica-fumo). With the manilha
velha the manilhas are fixed: 4 of paus, 7 of copas, A of espadas, 7 of ouros.

A card's rank in a hand is a plain tuple look-up (``rank_table``), as ``cards.TRUCO_RANK`` is for
the Argentine game; a face-down card ranks ``cards.TAPADA_RANK`` (0), below every card.
"""

from __future__ import annotations

from truco.cards import DECK, RANKS, Card, Suit

ORDER: tuple[int, ...] = (4, 5, 6, 7, 10, 11, 12, 1, 2, 3)
"""The Spanish ranks from the weakest common card to the strongest: 4 5 6 7 Q J K A 2 3."""
MANILHA_SUITS: tuple[Suit, ...] = (Suit.BASTO, Suit.COPA, Suit.ESPADA, Suit.ORO)
"""The manilhas' suits, strongest first: paus (zap), copas, espadas, ouros (pica-fumo)."""
VELHA: tuple[Card, ...] = (
    Card.of(4, Suit.BASTO),
    Card.of(7, Suit.COPA),
    Card.of(1, Suit.ESPADA),
    Card.of(7, Suit.ORO),
)
"""The manilha velha's fixed manilhas, strongest first: 4 of paus, 7 of copas, A of espadas,
7 of ouros."""

FRENCH_RANK: dict[int, str] = {1: "A", 10: "Q", 11: "J", 12: "K"}
"""The French rank of each Spanish rank that is not its own number."""
FRENCH_SUIT: dict[Suit, str] = {
    Suit.BASTO: "paus",
    Suit.COPA: "copas",
    Suit.ESPADA: "espadas",
    Suit.ORO: "ouros",
}
SUIT_SYMBOL: dict[Suit, str] = {Suit.BASTO: "♣", Suit.COPA: "♥", Suit.ESPADA: "♠", Suit.ORO: "♦"}
MANILHA_NAMES: tuple[str, ...] = ("zap", "copeta", "espadilha", "pica-fumo")
"""The manilhas' names, strongest first (by suit: paus, copas, espadas, ouros)."""

_COMMON: dict[int, int] = {rank: i + 1 for i, rank in enumerate(ORDER)}
"""The common cards' ranks: 4 is 1 ... 3 is 10. Manilhas rank 11 (ouros) to 14 (paus)."""


LIMPO_OUT: tuple[int, ...] = (4, 5, 6, 7)
"""The ranks the baralho limpo (24 cards) leaves out."""
LIMPO_ORDER: tuple[int, ...] = tuple(r for r in ORDER if r not in LIMPO_OUT)
"""The baralho limpo's ranks, weakest first: Q J K A 2 3 (a vira 3 makes the Qs manilhas)."""
LIMPO_DECK: tuple[Card, ...] = tuple(c for c in DECK if c.rank not in LIMPO_OUT)
"""The 24 cards of the baralho limpo."""


def manilha_rank(vira: Card, limpo: bool = False) -> int:
    """The Spanish rank of the manilhas a vira makes: the next in ``ORDER``, wrapping (3 -> 4;
    with the baralho limpo, 3 -> Q)."""
    order = LIMPO_ORDER if limpo else ORDER
    return order[(order.index(vira.rank) + 1) % len(order)]


def manilhas_of(vira: Card | None, limpo: bool = False) -> tuple[Card, ...]:
    """The four manilhas, strongest (the zap) first: of the vira, or the manilha velha's."""
    if vira is None:
        return VELHA
    rank = manilha_rank(vira, limpo)
    return tuple(Card.of(rank, suit) for suit in MANILHA_SUITS)


def _table(manilhas: tuple[Card, ...]) -> tuple[int, ...]:
    ranks = [_COMMON[c.rank] for c in DECK]
    for i, card in enumerate(manilhas):
        ranks[card] = 14 - i
    return tuple(ranks)


_BY_VIRA_RANK: dict[int, tuple[int, ...]] = {
    rank: _table(manilhas_of(Card.of(rank, Suit.ESPADA))) for rank in RANKS
}
_LIMPO_VIRA_3: tuple[int, ...] = _table(manilhas_of(Card.of(3, Suit.ESPADA), limpo=True))
VELHA_RANKS: tuple[int, ...] = _table(VELHA)
"""The rank of every card with the manilha velha."""


def rank_table(vira: int, limpo: bool = False) -> tuple[int, ...]:
    """The rank of every card (higher wins) in a hand whose vira is ``vira``; -1: the manilha
    velha's. ``limpo``: the baralho limpo, where only a vira 3 differs (it makes the Qs)."""
    if vira < 0:
        return VELHA_RANKS
    rank = RANKS[vira % 10]
    if limpo and rank == 3:
        return _LIMPO_VIRA_3
    return _BY_VIRA_RANK[rank]


def french_name(card: Card) -> str:
    """The card as a Paulista player says it: ``4 de paus``, ``A de espadas``, ``K de copas``."""
    rank = FRENCH_RANK.get(card.rank, str(card.rank))
    return f"{rank} de {FRENCH_SUIT[card.suit]}"


def french_short(card: Card) -> str:
    """The card in two or three characters: ``4♣``, ``A♠``, ``K♥``."""
    return FRENCH_RANK.get(card.rank, str(card.rank)) + SUIT_SYMBOL[card.suit]
