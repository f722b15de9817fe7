"""The room of each variant: the registry's room names (``VariantInfo.room``) made hooks.

Each game plays its hands in its own module, a leaf that nothing else of the core imports but
this registry (and the rooms built on it: pata de gallo, pica-pica and destantado build on the
Argentine calls). ``ROOMS`` maps every value of ``Rules.variant`` to its room's hooks object
(a ``hand.Room``), built once; the engine looks a state's room up once per action or deal with
``room_of`` and calls nothing but its hooks, instead of testing which variant it is.
"""

from __future__ import annotations

from typing import Final

from truco import argentino, destantado, pata_de_gallo, paulista, pica_pica
from truco.actions import DISCARD, PLAY, SIMPLE, TAPADA, Action
from truco.hand import Room
from truco.legal import Refusal
from truco.rules import Rules
from truco.state import DEAL, F_PHASE, F_RULES, OVER, StateLike
from truco.variants import VARIANTS

_BY_MODULE: Final[dict[str, Room]] = {
    "argentino": argentino.ROOM,
    "pata_de_gallo": pata_de_gallo.ROOM,
    "pica_pica": pica_pica.ROOM,
    "destantado": destantado.ROOM,
    "paulista": paulista.ROOM,
}
ROOMS: Final[dict[str, Room]] = {info.name: _BY_MODULE[info.room] for info in VARIANTS}
"""The room of each variant, by ``Rules.variant``."""


def room_of(rules: Rules) -> Room:
    """The room that plays the hands of ``rules``' variant."""
    return ROOMS[rules.variant]


def legal_of(s: StateLike) -> tuple[Action, ...]:
    """The legal actions of the seat to act, during a hand (a State or the engine's list)."""
    return ROOMS[s[F_RULES].variant].legal_of(s)


def refusal(s: StateLike, action: Action) -> Refusal | None:
    """None when ``action`` is legal for the seat to act now, else the rule that forbids it."""
    phase = s[F_PHASE]
    if phase == OVER:
        return Refusal.MATCH_OVER
    if phase == DEAL:
        return Refusal.NOT_DEALT
    return ROOMS[s[F_RULES].variant].refusal(s, action)


EVERY_ACTION: Final[tuple[Action, ...]] = (*PLAY, *TAPADA, *DISCARD, *SIMPLE.values())
"""Every action there is, each once."""


def legal_by_rule(s: StateLike) -> frozenset[Action]:
    """The actions no rule refuses now: what ``legal_of`` gives, from the rule itself (slow:
    every action is asked; the tests hold the two equal)."""
    return frozenset(action for action in EVERY_ACTION if refusal(s, action) is None)
