"""Events: what happened, returned by ``apply``. Each says who may see it (``visible_to``).

Only ``CardsDealt`` is private (to its seat, and in a blind mão de ferro to nobody, as the view
shows that seat no cards); every other event is public. A face-down card is public as an event
with ``card=None``: its identity never leaves the seat that played it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple, TypeAlias

from truco.actions import Verb
from truco.cards import Card


class Reason(StrEnum):
    """Why points were scored or porotos passed (``Scored.reason``, ``PorotosPassed.reason``),
    and why a hand ended (``SeatView.end_reason``). The values are what the events and the wire
    carry (``str(Reason.MAZO) == "mazo"``)."""

    TRUCO = "truco"
    """The hand's truco part, won at the tricks (or, in destantado, by being the last one in)."""
    TRUCO_NO_QUIERO = "truco-no-quiero"
    """A truco (or a raise) declined."""
    MAZO = "mazo"
    """A side went to the mazo."""
    ENVIDO = "envido"
    """An envido accepted and declared."""
    ENVIDO_NO_QUIERO = "envido-no-quiero"
    """An envido declined."""
    FLOR = "flor"
    """A flor sung, accepted, or answered with con flor me achico."""
    FLOR_NO_QUIERO = "flor-no-quiero"
    """A contraflor (or contraflor al resto) declined."""
    MAO_DE_ONZE = "mao-de-onze"
    """Truco Paulista: the side at 11 ran from its mão de onze (the rivals score 1)."""


class HandStarted(NamedTuple):
    """A new hand was dealt; ``mano`` plays first."""

    hand: int
    mano: int


class CardsDealt(NamedTuple):
    """The cards ``seat`` received (seen by that seat only; by nobody when ``blind``)."""

    seat: int
    cards: tuple[Card, ...]
    blind: bool
    """Truco Paulista, a mão de ferro played blind: not even ``seat`` sees them (as
    ``SeatView.blind`` says)."""


class ViraTurned(NamedTuple):
    """Truco Paulista: the card turned up after the deal (the vira); the rank above it makes
    the manilhas."""

    card: Card


class CardPlayed(NamedTuple):
    """A card on the table; ``card`` is None when it was played face down."""

    seat: int
    card: Card | None
    face_down: bool


class Called(NamedTuple):
    """A call: truco, retruco, vale-cuatro, envido..., flor, contraflor..."""

    seat: int
    verb: Verb


class Answered(NamedTuple):
    """An answer: quiero, no-quiero, con-flor-quiero, con-flor-me-achico."""

    seat: int
    verb: Verb


class WentToMazo(NamedTuple):
    """``seat`` retired from the hand."""

    seat: int


class TrickEnded(NamedTuple):
    """Trick ``trick`` (0-based) went to ``team`` with ``seat``'s card; -1 for both: parda."""

    trick: int
    team: int
    seat: int


class PointsDeclared(NamedTuple):
    """``seat`` declared its envido (or flor) ``points``; ``points`` is None for "son buenas"."""

    seat: int
    points: int | None
    flor: bool


class Discarded(NamedTuple):
    """Pata de gallo: the pie put one of his four cards away, unseen by anyone else."""

    seat: int


class Scored(NamedTuple):
    """``team`` scored ``points`` for ``reason`` (a ``Reason`` value: envido, flor, truco,
    mazo...); where scores are individual (pata de gallo) ``team`` is a player, and each player
    of a side scores."""

    team: int
    points: int
    reason: str


class PorotosPassed(NamedTuple):
    """Destantado: ``seat`` passed ``points`` of his porotos to ``to`` (-1: the pot, worth
    nothing) for ``reason`` (a ``Reason`` value)."""

    seat: int
    to: int
    points: int
    reason: str


class CardsShown(NamedTuple):
    """At the end of the hand, ``seat`` shows the cards that prove its winning points."""

    seat: int
    cards: tuple[Card, ...]


class HandEnded(NamedTuple):
    """The hand is over: ``points`` per team in this hand; ``winner`` took the truco part."""

    points: tuple[int, ...]
    winner: int


class MatchEnded(NamedTuple):
    """``winner`` reached the target."""

    winner: int
    score: tuple[int, ...]


Event: TypeAlias = (
    HandStarted
    | CardsDealt
    | ViraTurned
    | CardPlayed
    | Discarded
    | Called
    | Answered
    | WentToMazo
    | TrickEnded
    | PointsDeclared
    | Scored
    | PorotosPassed
    | CardsShown
    | HandEnded
    | MatchEnded
)


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see ``event``."""
    if type(event) is CardsDealt:
        return event.seat == seat and not event.blind
    return True
