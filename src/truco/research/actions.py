"""The fixed numbering of every action, the same for every variant (docs/research.md).

``0-39`` play a card face up, ``40-79`` face down (tapada), ``80-119`` put it away (the pie's
discard in pata de gallo), then one number for each call, answer and the mazo, in the order of
``Verb``. A card's number is its index in ``truco.cards.DECK``. Chance outcomes (the deal) use
the card numbers too: each chance node deals one card.
"""

from __future__ import annotations

from typing import Final

from truco.actions import DISCARD, PLAY, SIMPLE, TAPADA, Action
from truco.cards import DECK

CARDS: Final = len(DECK)
ACTIONS: Final[tuple[Action, ...]] = (*PLAY, *TAPADA, *DISCARD, *SIMPLE.values())
"""Every action, by its number."""
NUM_ACTIONS: Final = len(ACTIONS)
ACTION_ID: Final[dict[Action, int]] = {a: i for i, a in enumerate(ACTIONS)}
"""The number of each action."""
TAPADA_BASE: Final = CARDS
DISCARD_BASE: Final = 2 * CARDS
HIDDEN_TAPADA: Final = NUM_ACTIONS
"""In an information state's history: another seat's card played face down, unseen."""
HIDDEN_DISCARD: Final = NUM_ACTIONS + 1
"""In an information state's history: another seat's discard, unseen."""
SEEN_ACTIONS: Final = NUM_ACTIONS + 2
"""The actions as a seat may see them: every action, and the two unseen ones."""


def action_id(action: Action) -> int:
    """The number of ``action``."""
    return ACTION_ID[action]


def seen_id(text: str) -> int:
    """The number of an action as ``observe`` writes it in a hand's history (``tapada ??``:
    ``HIDDEN_TAPADA``; ``discard ??``: ``HIDDEN_DISCARD``)."""
    if text == "tapada ??":
        return HIDDEN_TAPADA
    if text == "discard ??":
        return HIDDEN_DISCARD
    return ACTION_ID[Action.parse(text)]


def action_text(number: int) -> str:
    """The notation of action ``number`` (``play 1e``, ``truco``...)."""
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"there is no action {number}: actions are 0 to {NUM_ACTIONS - 1}")
    return str(ACTIONS[number])
