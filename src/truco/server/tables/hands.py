"""Finished hands as one seat saw them at the table (docs/protocol.md, "HTTP").

While a match is on, its hands are evidence: a folded player's unplayed cards, his envido, a
tapada, the pie's discard. A seat downloads a hand as it saw it, and what it saw is what the
core's ``observe`` showed it: its own dealt cards, and at the end of the hand every card on the
table or shown; everything else is ``??`` (the notation's unseen card).
"""

from __future__ import annotations

from truco.notation import HandHistory, parse_action_line, states
from truco.view import observe, visible_cards


def as_seen_by(history: HandHistory, seat: int) -> HandHistory:
    """``history`` with what ``seat`` did not see at the table blanked (``??``)."""
    steps = [state for state, _ in states(history)]
    dealt, last = observe(steps[0], seat), observe(steps[-1], seat)
    seen = set(dealt.hand) | visible_cards(last)
    players = history.rules.players
    return HandHistory(
        rules=history.rules,
        score=history.score,
        mano=history.mano,
        pica=history.pica,
        hands=tuple(tuple(c if c in seen else None for c in hand) for hand in history.hands),
        # The view's history already writes another seat's tapada or discard as ``??``.
        actions=tuple(
            parse_action_line(f"{who} {text}", players=players) for who, text in last.history
        ),
    )


__all__ = ["as_seen_by"]
