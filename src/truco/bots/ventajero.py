"""``ventajero``: an exploiter that reads the expert during the match and bets against its
leaks (for the arena; never offered to people).

It plays ``simple``'s rules with knobs it moves after every hand, from the same counts the
expert keeps of its rivals (``rivals.learn``, from its own seat's view at the end of each hand):

- the more often its rivals fold to its calls (truco and envido) than ``simple`` expects, the
  more it bluffs and the lower it calls envido; against rivals who accept, it stops bluffing;
- the less its rivals' calls say about their cards (they call with weak cards seen at the end),
  the more of their calls it accepts; against rivals who never call weak, it folds more.
"""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.context import ctx_of_view
from truco.bots.knobs import DEFAULT, Style
from truco.bots.policy import decide
from truco.bots.rivals import BASE_ACCEPTS, PRIOR, Seen, learn, tendency
from truco.view import SeatView


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


class VentajeroBot:
    """Adapts ``simple``'s knobs to its rivals' folds and bluffs, hand after hand."""

    name = "ventajero"

    def __init__(self) -> None:
        self.seen: dict[int, Seen] = {}
        self.style = DEFAULT
        self._hand = 0

    def watch(self, view: SeatView) -> None:
        """See the end of a hand (the seat's view between hands) and adapt."""
        if view.seat is None or view.phase == 1 or not view.hand_no or not view.history:
            return
        if view.hand_no < self._hand:
            self.seen.clear()  # a new match
        elif view.hand_no == self._hand:
            return
        self._hand = view.hand_no
        learn(self.seen, view)
        self.style = adapted(list(self.seen.values()))

    def choose(self, view: SeatView, legal: tuple[Action, ...], rng: Random) -> Action:
        draw = rng.random()
        if len(legal) == 1:
            return legal[0]
        return decide(ctx_of_view(view), legal, draw, self.style)


__all__ = ["VentajeroBot", "adapted"]
