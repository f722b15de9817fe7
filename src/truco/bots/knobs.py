"""The knobs of the rule-based player (``Style``), apart from the policy that reads them: both
halves of the policy (``policy``, and ``paulista`` for Truco Paulista's hands) take them, so
neither half has to import the other for them."""

from __future__ import annotations

from typing import NamedTuple


class Style(NamedTuple):
    """Knobs of the rule-based player."""

    bluff: float = 0.08
    """Chance to call truco or envido with a weak hand."""
    envido_call: int = 27
    """Envido points to call envido as mano (one less as pie)."""
    truco_call: float = 0.68
    """Hand-win estimate to call truco."""
    caution: float = 0.5
    """How strong a caller's range is assumed (0 random .. 1 very strong)."""
    always_quiero: bool = False
    always_raise: bool = False
    misread: float = 0.0
    """Spread of the error a beginner makes reading his own strength (0: reads it right); the
    bot draws the error and hands it to ``decide``."""
    sane: bool = False
    """Never bluff a truco with a hand lost for certain (the rival sees it too). Off for
    ``simple``, which keeps playing as it always has; on for the beginner and the personas."""


DEFAULT = Style()


__all__ = ["DEFAULT", "Style"]
