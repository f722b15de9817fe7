"""Rules options: every house rule on which the sources disagree, with its default.

Defaults follow the English rules page (``shared/seeds/001_*.txt``); docs/rules.md lists each
option with its source. ``Rules`` is frozen data; ``find_rules`` looks up a named preset.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

from truco import variants
from truco.errors import RulesError
from truco.variants import VARIANTS

FaltaMode = Literal["match_if_malas", "leader", "litoral", "doble", "loser", "diferencia"]
TapadaMode = Literal["off", "from_second", "always"]
EnvidoUntil = Literal["own_card", "first_card", "second_card"]
FaltaUntil = Literal["envido", "first_trick"]
Halves = Literal["every_target", "from_20"]
EnvidoPrimero = Literal["first_trick", "before_own_card", "off"]
MatchEnd = Literal["at_reach", "end_of_hand"]
Variant = Literal["standard", "pata_de_gallo", "destantado", "pica_pica", "paulista"]
Game = Literal["argentino", "paulista"]
Manilhas = Literal["vira", "velha"]
MaoDeFerro = Literal["cega", "aberta"]
TieLead = Literal["tied", "opener"]
Baralho = Literal["sujo", "limpo"]

TARGETS = (10, 15, 20, 24, 30, 40)
PLAYERS = (2, 3, 4, 6)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """The options of one match. Construct with keywords; unknown or bad values raise RulesError."""

    game: Game = "argentino"
    """The game: Argentine truco, or Truco Paulista (docs/rules.md, "Truco Paulista"). A
    Paulista table's variant is ``paulista`` and its target 12 (either key alone selects it)."""
    manilhas: Manilhas = "vira"
    """Paulista: the manilhas are the rank above the turned-up vira (``vira``), or the fixed
    four of the manilha velha (4 of paus, 7 of copas, A of espadas, 7 of ouros)."""
    mao_de_ferro: MaoDeFerro = "cega"
    """Paulista, both sides at 11: the hand is played blind (``cega``: nobody sees his cards,
    each plays them in the order dealt), or with the cards seen (``aberta``); never a truco."""
    tie_lead: TieLead = "tied"
    """Paulista: after a tied trick (cangada) the next one is led by the player of the first of
    the tied cards (``tied``), or by the one who led the tied trick (``opener``)."""
    baralho: Baralho = "sujo"
    """Paulista: the 40-card deck (``sujo``), or the 24-card baralho limpo (``limpo``: no 4, 5,
    6 or 7; a vira 3 makes the Qs manilhas). Not with the manilha velha, whose manilhas it
    leaves out."""
    no_raise_to_win: bool = False
    """Paulista: a side may not raise while just accepting (or the value it already accepted)
    would take it to the target (pagat's rule); by default it may."""
    variant: Variant = "standard"
    """The way of playing: teams of 1, 2 or 3 (``standard``); ``pata_de_gallo`` and
    ``destantado`` for three players; ``pica_pica`` for six (docs/rules.md, "Variants")."""
    players: int = 2
    """Seats at the table: 2, 4 or 6 (3 for the three-player variants). In team play seat s is on
    team s % 2; play goes 0, 1, 2, ..."""
    target: int = 30
    """Points to win the match: 30 (malas and buenas of 15), 15, or 10/20/24/40."""
    halves: Halves = "every_target"
    """Where the malas and buenas apply: at every target (half = target // 2, ``002_*``), or only
    from 20 up (targets 10 and 15 then have no halves)."""
    flor: bool = False
    """Whether three cards of one suit are a flor (sung, worth points) or only count as envido."""
    flor_unsung_scores: bool = False
    """A flor whose holder had no turn to sing it before the hand ended in the first trick scores
    anyway (``True``), or is lost (``False``: ``000_*``, the tantos count only if proposed before
    the hand is over)."""
    falta: FaltaMode = "match_if_malas"
    """How much an accepted falta envido (and contraflor al resto) is worth; see docs/rules.md."""
    tapada: TapadaMode = "from_second"
    """When a card may be played face down: never, from the second trick on, or always."""
    envido_until: EnvidoUntil = "own_card"
    """Envido may be called before one's own first card, only before the hand's first card, or
    only before the first trick's second card (``002_*``)."""
    falta_until: FaltaUntil = "envido"
    """The falta envido may be called when the envido may (``envido``), or by any player on his
    turn until the first trick is over, whatever ``envido_until`` says (``003_*``)."""
    no_falta_first_hand: bool = False
    """The falta envido may not be called in the match's first hand (``000_*``: "el falta envido
    no cuenta en la primera ronda de la partida")."""
    envido_primero: EnvidoPrimero = "first_trick"
    """Answering the first truco with an envido: anywhere in the first trick, only before one's
    own first card, or not at all."""
    mazo_envido_penalty: bool = False
    """Going to the mazo in the first trick before the envido was played gives one more point."""
    match_end: MatchEnd = "at_reach"
    """The match ends the moment a team reaches the target, or at the end of that hand."""
    flor_value: int = 3
    """An unopposed flor."""
    flor_quiero_value: int = 4
    """Con flor quiero: the best flor takes this."""
    flor_achico_value: int = 3
    """Con flor me achico: the first flor's team takes this."""
    contraflor_value: int = 6
    """A contraflor accepted: the best flor takes this."""
    contraflor_decline_value: int = 4
    """A contraflor declined: the contraflor's team takes this."""
    contraflor_resto_decline_value: int = 4
    """A contraflor al resto declined, called straight after the flor."""
    contraflor_resto_decline_after_contraflor: int = 6
    """A contraflor al resto declined, called after a contraflor."""
    pica_from: int = 5
    """Pica-pica: the rounds of 1v1 hands start once the leading team has this many points..."""
    pica_margin: int = 10
    """...and stop once it is closer than this to the target (``000_*``: "hasta las últimas 10
    buenas")."""
    porotos: int = 10
    """Destantado: the porotos each player starts with; the first to pass them all wins."""
    destantado_falta: int = 6
    """Destantado: what a falta envido is worth (it has no match score to complete)."""

    def __post_init__(self) -> None:
        # The seats come from the variants' registry; a variant given with the default 2 seats
        # gets its own.
        info = variants.BY_NAME.get(self.variant)
        if info is None:
            names = tuple(v.name for v in VARIANTS)
            raise RulesError(f"variant must be one of {names}, not {self.variant!r}")
        if self.game not in variants.GAMES:
            raise RulesError(f"game must be one of {variants.GAMES}, not {self.game!r}")
        # A game and a variant select each other: game=paulista with the standard variant is
        # the paulista variant, and the paulista variant is game paulista.
        if info.game != self.game:
            if self.variant == "standard":
                info = next(v for v in VARIANTS if v.game == self.game)
                object.__setattr__(self, "variant", info.name)
            elif self.game == "argentino":
                object.__setattr__(self, "game", info.game)
            else:
                raise RulesError(f"{self.variant} is not a variant of {self.game}")
        if info.game != "paulista" and (
            self.manilhas != "vira"
            or self.mao_de_ferro != "cega"
            or self.tie_lead != "tied"
            or self.no_raise_to_win
            or self.baralho != "sujo"
        ):
            raise RulesError(
                "manilhas, mao_de_ferro, tie_lead, baralho and no_raise_to_win are options of "
                "Truco Paulista"
            )
        if self.baralho == "limpo" and self.manilhas == "velha":
            raise RulesError("the baralho limpo has no 4 or 7: it is not played with manilha velha")
        if info.targets and self.target not in info.targets:
            if self.target != 30:
                raise RulesError(
                    f"{info.title or info.name} is played to {info.targets}, not {self.target!r}"
                )
            object.__setattr__(self, "target", info.targets[0])
        seats = info.players
        if self.players == 2 and 2 not in seats:
            object.__setattr__(self, "players", seats[0])
        if self.players not in seats:
            if len(seats) > 1:
                raise RulesError(f"players must be one of {seats}, not {self.players!r}")
            raise RulesError(
                f"{self.variant} is played by {seats[0]} players, not {self.players!r}"
            )
        if self.flor and not info.flor:
            raise RulesError(f"{self.variant} is played without flor")
        for name in ("pica_from", "pica_margin", "porotos", "destantado_falta"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 40:
                raise RulesError(f"{name} must be a whole number from 1 to 40, not {value!r}")
        if self.target not in (info.targets or TARGETS):
            raise RulesError(
                f"target must be one of {info.targets or TARGETS}, not {self.target!r}"
            )
        for f in fields(self):
            value = getattr(self, f.name)
            choices = _CHOICES.get(f.name)
            if choices is not None and value not in choices:
                raise RulesError(f"{f.name} must be one of {choices}, not {value!r}")
            if f.name.endswith(("_value", "_after_contraflor")) and (
                not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 40
            ):
                raise RulesError(f"{f.name} must be a whole number from 1 to 40, not {value!r}")
            if f.type == "bool" and not isinstance(value, bool):
                raise RulesError(f"{f.name} must be true or false, not {value!r}")

    @property
    def teams(self) -> int:
        """Sides in a hand: two, except in destantado, where each player is on his own."""
        return variants.sides(self)

    @property
    def individual(self) -> bool:
        """Whether scores are kept per player (pata de gallo, destantado) instead of per team."""
        return variants.BY_NAME[self.variant].individual

    @property
    def scorers(self) -> int:
        """How many scores the match keeps: one per team, or one per player."""
        return variants.scorers(self)

    def replace(self, **changes: Any) -> Rules:
        return from_options(self, changes)

    def options(self) -> dict[str, Any]:
        """The options that differ from the defaults, as plain values (for notation and JSON)."""
        default = Rules()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


_CHOICES: dict[str, tuple[Any, ...]] = {
    "variant": get_args(Variant),
    "game": get_args(Game),
    "manilhas": get_args(Manilhas),
    "mao_de_ferro": get_args(MaoDeFerro),
    "tie_lead": get_args(TieLead),
    "baralho": get_args(Baralho),
    "falta": get_args(FaltaMode),
    "tapada": get_args(TapadaMode),
    "envido_until": get_args(EnvidoUntil),
    "falta_until": get_args(FaltaUntil),
    "halves": get_args(Halves),
    "envido_primero": get_args(EnvidoPrimero),
    "match_end": get_args(MatchEnd),
}
OPTION_NAMES = frozenset(f.name for f in fields(Rules))


def from_options(base: Rules | None = None, options: dict[str, Any] | None = None) -> Rules:
    """Rules from plain option values (e.g. read from TOML); unknown names raise RulesError."""
    options = dict(options or {})
    unknown = sorted(set(options) - OPTION_NAMES)
    if unknown:
        raise RulesError(f"unknown rules option(s): {', '.join(unknown)}")
    try:
        return replace(base or Rules(), **options)
    except TypeError as exc:  # pragma: no cover - replace() only raises this for bad names
        raise RulesError(str(exc)) from exc


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "flor": Rules(flor=True),
    "a15": Rules(target=15),
    "parejas": Rules(players=4),
    "parejas-flor": Rules(players=4, flor=True),
    "seis": Rules(players=6),
    "pica-pica": Rules(variant="pica_pica"),
    "pata-de-gallo": Rules(variant="pata_de_gallo"),
    "destantado": Rules(variant="destantado"),
    "paulista": Rules(game="paulista"),
    "paulista-duplas": Rules(game="paulista", players=4),
    "manilha-velha": Rules(game="paulista", manilhas="velha"),
}
_ALIASES = {
    "default": "standard",
    "sin-flor": "standard",
    "con-flor": "flor",
    "15": "a15",
    "a-15": "a15",
    "2v2": "parejas",
    "3v3": "seis",
    "pica_pica": "pica-pica",
    "gallo": "pata-de-gallo",
    "pata_de_gallo": "pata-de-gallo",
    "truco-paulista": "paulista",
    "brasileiro": "paulista",
    "duplas": "paulista-duplas",
    "velha": "manilha-velha",
}


def find_rules(name: str) -> Rules:
    """A named preset, compared without case (``standard``, ``flor``, ``a15``, ``parejas``...)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        names = ", ".join(sorted(PRESETS))
        raise RulesError(f"no rules preset named {name!r}; presets: {names}") from None
