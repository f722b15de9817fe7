"""The variants: one home for what each way of playing changes, as frozen data plus a registry.

``VARIANTS`` holds one ``VariantInfo`` per value of ``Rules.variant``; ``find_variant(name)``
finds one by name or alias (compared without case; ``-``, ``_`` and spaces alike), and
``variant_of`` gives the one of a ``Rules``. Code that needs a variant's fact asks here instead
of comparing the variant's name. Where the game itself works differently (the pie's discard,
destantado's bets, pica-pica's rounds, Truco Paulista) the entry names the room that plays its
hands (``VariantInfo.room``); ``truco.rooms`` turns that name into the room's hooks, which the
engine looks up once per action instead of testing the variant.

This module is below ``rules`` (which validates against it) and imports nothing of the game.

The house rules of each variant are in docs/rules.md ("Variants").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from truco.errors import RulesError


class Table(Protocol):
    """What the registry's helpers read of a ``Rules`` (declared here, not imported: ``rules``
    builds on this module, so importing it back would close a circle)."""

    @property
    def variant(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def target(self) -> int: ...
    @property
    def porotos(self) -> int: ...
    @property
    def halves(self) -> str: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantInfo:
    """What one variant changes. Construct with keywords."""

    name: str
    """The value of ``Rules.variant`` (and of the ``variant`` option on the wire and in files)."""
    room: str
    """The core module that plays its hands (``truco.<room>``: ``argentino``, ``pata_de_gallo``,
    ``destantado``, ``pica_pica``, ``paulista``); ``truco.rooms`` maps it to that module's
    hooks."""
    title: str
    """Its name at the table, in Spanish (empty for the standard game)."""
    aliases: tuple[str, ...]
    """Other names ``find_variant`` accepts."""
    players: tuple[int, ...]
    """The seats it is played with; the first is the default."""
    individual: bool
    """Scores are kept per player (each player of a side scores what the side wins), not per
    team."""
    own_side: bool
    """Each player is on his own in every hand (three sides), and answers every bet for himself
    (``destantado.act``)."""
    piles: bool
    """Scores are piles of porotos that start at ``Rules.porotos`` and go down; the first to
    empty his pile wins. There is no target, hence no malas and buenas."""
    pie_alone: bool
    """The pie (the seat before the mano, who plays last) plays alone against the others: he is
    dealt four cards and puts one away."""
    pica: bool
    """Rounds of three 1v1 hands (each seat against the one facing him) while the score is in
    the middle of the match."""
    flor: bool
    """Whether the table may play with flor."""
    game: str = "argentino"
    """The game it belongs to (``Rules.game``): ``argentino``, or ``paulista`` (Truco Paulista:
    French-named cards, vira and manilhas, hands worth 1/3/6/9/12, to 12; ``truco.paulista``)."""
    targets: tuple[int, ...] = ()
    """The targets it may be played to, the first the default; empty: ``rules.TARGETS``."""
    options: tuple[str, ...] = ()
    """The options (fields of ``Rules``) that its tables always name beside the variant, defaults
    included: what the wire's and the lobby's options of a table of it show."""

    @property
    def sized_deal(self) -> bool:
        """Whether some seat may be dealt other than three cards (four, or none)."""
        return self.pie_alone or self.pica


VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo(
        name="standard",
        room="argentino",
        title="",
        aliases=("normal", "clasico"),
        players=(2, 4, 6),
        individual=False,
        own_side=False,
        piles=False,
        pie_alone=False,
        pica=False,
        flor=True,
    ),
    VariantInfo(
        name="pata_de_gallo",
        room="pata_de_gallo",
        title="pata de gallo",
        aliases=("gallo",),
        players=(3,),
        individual=True,
        own_side=False,
        piles=False,
        pie_alone=True,
        pica=False,
        flor=True,
    ),
    VariantInfo(
        name="destantado",
        room="destantado",
        title="destantado",
        aliases=("porotos",),
        players=(3,),
        individual=True,
        own_side=True,
        piles=True,
        pie_alone=False,
        pica=False,
        flor=False,
        options=("porotos", "destantado_falta"),
    ),
    VariantInfo(
        name="pica_pica",
        room="pica_pica",
        title="pica-pica",
        aliases=("pica",),
        players=(6,),
        individual=False,
        own_side=False,
        piles=False,
        pie_alone=False,
        pica=True,
        flor=True,
        options=("pica_from", "pica_margin"),
    ),
    VariantInfo(
        name="paulista",
        room="paulista",
        title="truco paulista",
        aliases=("brasileiro", "truco-paulista", "manilhas"),
        players=(2, 4, 6),
        individual=False,
        own_side=False,
        piles=False,
        pie_alone=False,
        pica=False,
        flor=False,
        game="paulista",
        targets=(12,),
        options=("game", "manilhas", "mao_de_ferro", "tie_lead"),
    ),
)
"""Every variant, the standard game first."""


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


BY_NAME: dict[str, VariantInfo] = {v.name: v for v in VARIANTS}
_LOOKUP: dict[str, VariantInfo] = {
    _key(key): v for v in VARIANTS for key in (v.name, v.title, *v.aliases) if key
}

GAMES: tuple[str, ...] = ("argentino", "paulista")
"""The games (``Rules.game``): the Argentine first, the default."""


def find_variant(name: str) -> VariantInfo:
    """A variant by name or alias, compared without case, and ``_``, ``-`` and spaces alike
    (``pata de gallo``, ``gallo``...); RulesError names the variants when none matches."""
    info = _LOOKUP.get(_key(name))
    if info is None:
        names = ", ".join(v.name for v in VARIANTS)
        raise RulesError(f"no variant named {name!r}; variants: {names}")
    return info


def variant_of(rules: Table) -> VariantInfo:
    """The registry's entry for ``rules.variant`` (validated when the Rules were made)."""
    return BY_NAME[rules.variant]


def start_score(rules: Table) -> int:
    """What each score starts at: 0, or in destantado the porotos of each player's pile."""
    return rules.porotos if BY_NAME[rules.variant].piles else 0


def sides(rules: Table) -> int:
    """Sides in a hand: two, except where each player is on his own (destantado)."""
    return rules.players if BY_NAME[rules.variant].own_side else 2


def scorers(rules: Table) -> int:
    """How many scores the match keeps: one per team, or one per player."""
    return rules.players if BY_NAME[rules.variant].individual else 2


def half(rules: Table) -> int | None:
    """Where the malas end and the buenas begin (``target_half``); None where there is no
    target (destantado's piles) or no malas and buenas (Truco Paulista, to 12)."""
    info = BY_NAME[rules.variant]
    if info.piles or info.game != "argentino":
        return None
    return target_half(rules.target, rules.halves)


def target_half(target: int, halves: str = "every_target") -> int | None:
    """The malas/buenas half of a game to ``target``: half of it (``Rules.halves``: at every
    target, or with ``"from_20"`` only for games of 20 or more, else no halves: None)."""
    if halves == "from_20" and target < 20:
        return None
    return target // 2


def pie_of(players: int, mano: int) -> int:
    """The pie of a hand: the seat before the mano, who deals and plays last."""
    return (mano - 1) % players


def facing(players: int, seat: int) -> int:
    """Pica-pica: the seat across the table from ``seat``, his rival in a 1v1 hand."""
    return (seat + players // 2) % players


def pot(rules: Table, score: tuple[int, ...]) -> int:
    """Destantado: the porotos thrown to the pot (gone from every pile, worth nothing); 0 where
    scores are not piles."""
    if not BY_NAME[rules.variant].piles:
        return 0
    return max(0, rules.porotos * len(score) - sum(score))
