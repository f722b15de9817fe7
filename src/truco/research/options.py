"""The options of a research game, the same for OpenSpiel and PettingZoo: every field of
``truco.Rules`` by name and ``returns``; and the bounds on what one hand can score."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from truco.research.match import RETURNS
from truco.rules import Rules, from_options

RULES_DEFAULTS: Final[dict[str, Any]] = {
    f.name: f.default for f in dataclasses.fields(Rules) if f.default is not dataclasses.MISSING
}
"""Every option of ``Rules`` and its default."""


def rules_of(options: dict[str, Any]) -> tuple[Rules, str]:
    """The rules and the returns' mode of a game's options (unknown names refused).

    A value equal to its default is left for ``Rules`` to fill in, as OpenSpiel hands every
    parameter over, the defaults too: a variant given with the default 2 seats gets its own."""
    given = {k: v for k, v in options.items() if k != "returns"}
    unknown = sorted(set(given) - set(RULES_DEFAULTS))
    if unknown:
        raise ValueError(f"truco has no option {', '.join(unknown)}")
    returns = options.get("returns", "match")
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {RETURNS}, not {returns!r}")
    changed = {k: v for k, v in given.items() if v != RULES_DEFAULTS[k]}
    return from_options(Rules(), changed), returns


def max_hand_points(rules: Rules) -> int:
    """A bound on the points one side can score in one hand: a falta (the match), the truco's
    top value, every seat's flor and the envido chain's."""
    flor = max(
        rules.flor_value,
        rules.flor_quiero_value,
        rules.contraflor_value,
        rules.contraflor_resto_decline_after_contraflor,
    )
    return 2 * rules.target + 12 + rules.players * flor + 10
