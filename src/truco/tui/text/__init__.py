"""What the terminal clients write: cards, seats, events, the table and the score, as Rich markup.

Pure functions of a ``SeatView`` (and events), shared by the Textual client (local and online)
and by the line-based game (``truco.tui.plain``, which prints them through ``plain``). One module
per concern: ``words`` (cards, calls, reasons), ``keys`` (a key per legal action), ``commands``
(what a player types, read back into an action), ``names`` (who is who), ``table`` (the hand on
the table), ``score`` and ``log`` (a line per event, the hand's summary); ``truco.tui.text``
gives them all.
"""

from __future__ import annotations

from truco.tui.text.commands import parse_words, words_key
from truco.tui.text.keys import CALL_KEYS, action_keys, action_label
from truco.tui.text.log import event_line, hand_points_text, hand_summary
from truco.tui.text.names import Names, discarded, pica_seats, sitting_out
from truco.tui.text.paulista import manilha_name, vira_line
from truco.tui.text.score import match_summary, score_label, score_line, score_lines
from truco.tui.text.table import pending_call, stake, stakes_line, table_lines, variant_lines
from truco.tui.text.words import (
    LABELS,
    REASONS,
    SAY,
    SENA_WORDS,
    SUIT_NAME,
    SUIT_STYLE,
    TRUCO_NAMES,
    action_words,
    card,
    card_words,
    cards_words,
    plain,
    sena_line,
    trick_name,
)

__all__ = [
    "CALL_KEYS",
    "LABELS",
    "REASONS",
    "SAY",
    "SENA_WORDS",
    "SUIT_NAME",
    "SUIT_STYLE",
    "TRUCO_NAMES",
    "Names",
    "action_keys",
    "action_label",
    "action_words",
    "card",
    "card_words",
    "cards_words",
    "discarded",
    "event_line",
    "hand_points_text",
    "hand_summary",
    "manilha_name",
    "match_summary",
    "parse_words",
    "pending_call",
    "pica_seats",
    "plain",
    "score_label",
    "score_line",
    "score_lines",
    "sena_line",
    "sitting_out",
    "stake",
    "stakes_line",
    "table_lines",
    "trick_name",
    "variant_lines",
    "vira_line",
    "words_key",
]
