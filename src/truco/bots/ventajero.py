"""``ventajero``: an exploiter that reads the expert during the match and bets against its
leaks (for the arena; never offered to people).

It plays ``simple``'s rules with knobs moved after every hand by the counts its seat's reading
keeps of the rivals (``rivals.Reading`` without the types, learned from the seat's own view at
the end of each hand, ``rivals.learn``):

- the more often its rivals fold to its calls (truco and envido) than ``simple`` expects, the
  more it bluffs and the lower it calls envido; against rivals who accept, it stops bluffing;
- the less its rivals' calls say about their cards (they call with weak cards seen at the end),
  the more of their calls it accepts; against rivals who never call weak, it folds more.
"""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.base import Situation
from truco.bots.context import ctx_of_view
from truco.bots.knobs import DEFAULT, Style
from truco.bots.policy import decide
from truco.bots.rivals import BASE_ACCEPTS, PRIOR, Reading, Seen, tendency


def adapted(seen: list[Seen]) -> Style:
    """``simple``'s knobs moved by what the rivals showed (their counts pooled)."""
    pooled = Seen()
    for s in seen:
        pooled.hands += s.hands
        pooled.truco_hands += s.truco_hands
        pooled.envido_hands += s.envido_hands
        pooled.answers += s.answers
        pooled.accepts += s.accepts
        for kind, n in s.revealed.items():
            pooled.revealed[kind] = pooled.revealed.get(kind, 0) + n
            pooled.weak[kind] = pooled.weak.get(kind, 0) + s.weak.get(kind, 0)
    folds = 1.0 - (pooled.accepts + PRIOR * BASE_ACCEPTS) / (pooled.answers + PRIOR)
    edge = folds - (1.0 - BASE_ACCEPTS)  # > 0: they fold more than simple expects
    trust = tendency(pooled).calls
    return DEFAULT._replace(
        bluff=max(0.0, min(0.5, DEFAULT.bluff + 1.2 * edge)),
        envido_call=max(23, min(30, round(DEFAULT.envido_call - 10 * edge))),
        truco_call=max(0.55, min(0.8, DEFAULT.truco_call - 0.3 * edge)),
        caution=max(0.0, min(1.0, DEFAULT.caution * trust)),
    )


def style_of(reading: Reading | None) -> Style:
    """The knobs it plays with: ``simple``'s until a hand of the match has been read."""
    if reading is None or not reading.seen:
        return DEFAULT
    return adapted(list(reading.seen.values()))


class VentajeroBot:
    """Adapts ``simple``'s knobs to its rivals' folds and bluffs, hand after hand."""

    name = "ventajero"

    def fresh_reading(self) -> Reading:
        """The reading its seat keeps over a match: the counts alone (``rivals.Seen``)."""
        return Reading(types=False)

    def choose(self, told: Situation, rng: Random) -> Action:
        draw = rng.random()
        legal = told.legal
        if len(legal) == 1:
            return legal[0]
        return decide(ctx_of_view(told.view), legal, draw, style_of(told.reading))


__all__ = ["VentajeroBot", "adapted", "style_of"]
