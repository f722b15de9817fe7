"""The personas' styles: cauto, agresivo, mentiroso, each a setting of the same policy's knobs.

A style is how a persona bets, not how well it plays: the level sets the program (the beginner,
``simple``, the expert), the style its thresholds and bluffs. The policy bots (fácil, normal)
take the style's ``Style``; the expert searches the same way at every style and takes its
``bet_share`` (how often it bets when betting is about as good as not) and ``margin`` (how far
from the best an action may be and still be taken), so that its style shows without costing it
much.
"""

from __future__ import annotations

from typing import NamedTuple

from truco.bots.knobs import DEFAULT, Style


class Manner(NamedTuple):
    """One style: its key, its label in Spanish and in English, and its knobs."""

    key: str
    es: str
    en: str
    style: Style
    """The policy's knobs (fácil and normal; fácil adds its misreading to them)."""
    bet_share: float
    """The expert's share of bets among near-equal actions (0.25 for the plain expert)."""
    margin: float
    """The expert's margin of near-equal actions (0.01 for the plain expert)."""


CAUTO = Manner(
    "cauto",
    "Cauto",
    "Cautious",
    Style(bluff=0.03, envido_call=29, truco_call=0.76, caution=0.7, sane=True),
    0.1,
    0.01,
)
AGRESIVO = Manner(
    "agresivo",
    "Agresivo",
    "Aggressive",
    Style(bluff=0.1, envido_call=25, truco_call=0.6, caution=0.3, sane=True),
    0.5,
    0.015,
)
MENTIROSO = Manner(
    "mentiroso",
    "Mentiroso",
    "Bluffer",
    Style(bluff=0.3, envido_call=27, truco_call=0.68, caution=0.5, sane=True),
    0.45,
    0.03,
)
MANNERS: dict[str, Manner] = {m.key: m for m in (CAUTO, AGRESIVO, MENTIROSO)}


def shifted(manner: Manner, base: Style, down: float = 1.0) -> Style:
    """A style on another level's knobs: ``base`` moved as far from ``simple``'s knobs as the
    style is (a cautious beginner waits for more than a beginner, a bluffer beginner bluffs
    more), thresholds lowered only by ``down`` of the style's step (a beginner who calls
    sooner than ``simple`` would no longer be a beginner), with ``base``'s caution and
    misreading."""
    style = manner.style

    def step(delta: float) -> float:
        return delta if delta >= 0 else down * delta

    return base._replace(
        bluff=max(0.0, base.bluff + style.bluff - DEFAULT.bluff),
        envido_call=base.envido_call + round(step(style.envido_call - DEFAULT.envido_call)),
        truco_call=base.truco_call + step(style.truco_call - DEFAULT.truco_call),
    )
