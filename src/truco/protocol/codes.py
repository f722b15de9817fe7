"""The table protocol's constants (docs/protocol.md): limits, error and close codes, the
message types, the WebSocket subprotocols. Written out for the browser client by
``python -m truco.protocol_ts``; the codec (``truco.protocol.codec``) uses them."""

from __future__ import annotations

from typing import Final

from truco.protocol.shapes import CLIENT_MESSAGES, SERVER_MESSAGES
from truco.state import Phase

MAX_MESSAGE = 8 * 1024
"""The largest message, in bytes of UTF-8, either way."""
MAX_CHAT = 300
"""The longest chat line, in characters."""
MAX_COUNTER = 2**53
"""The largest ``a`` and ``v`` a client may send (JavaScript's safe integers)."""

# Error codes (stable: clients switch on them).
BAD_JSON: Final = "bad_json"
TOO_LARGE: Final = "too_large"
UNKNOWN_TYPE: Final = "unknown_type"
BAD_MESSAGE: Final = "bad_message"
NOT_SEATED: Final = "not_seated"
NOT_YOUR_TURN: Final = "not_your_turn"
ILLEGAL_ACTION: Final = "illegal_action"
STALE_VERSION: Final = "stale_version"
MATCH_OVER: Final = "match_over"
BAD_TOKEN: Final = "bad_token"
TABLE_NOT_FOUND: Final = "table_not_found"
SEAT_TAKEN: Final = "seat_taken"
RATE_LIMITED: Final = "rate_limited"
BAD_OPTIONS: Final = "bad_options"
PISTA_UNAVAILABLE: Final = "pista_unavailable"
"""A pista was asked where there is none: a table with another person, a spectator, a seat
that is not to act, or the pool could not answer in time."""
UNAVAILABLE: Final = "unavailable"
"""The database, or the server process that owns the table, could not be reached; nothing was
applied: try again."""
REMOVED: Final = "removed"
"""The table's creator removed this person from the table before it started: she may not sit
there again (her connection is closed with ``CLOSE_REMOVED``)."""
ERROR_CODES: Final = frozenset(
    {
        BAD_JSON,
        TOO_LARGE,
        UNKNOWN_TYPE,
        BAD_MESSAGE,
        NOT_SEATED,
        NOT_YOUR_TURN,
        ILLEGAL_ACTION,
        STALE_VERSION,
        MATCH_OVER,
        BAD_TOKEN,
        TABLE_NOT_FOUND,
        SEAT_TAKEN,
        RATE_LIMITED,
        BAD_OPTIONS,
        PISTA_UNAVAILABLE,
        UNAVAILABLE,
        REMOVED,
    }
)

PHASES: Final = tuple(phase.wire for phase in Phase)
"""The view's ``phase`` as the wire spells it, by the core's number (``truco.state.Phase``)."""

CLIENT_TYPES: Final = tuple(CLIENT_MESSAGES)
"""The ``t`` of every message a client sends (each with its ``d``'s shape in ``shapes``)."""
SERVER_TYPES: Final = tuple(SERVER_MESSAGES)
"""The ``t`` of every message the server sends (each with its ``d``'s shape in ``shapes``)."""

# WebSocket close codes (docs/protocol.md, "Limits"): clients tell by them why they were closed.
CLOSE_BAD_ORIGIN: Final = 1008
"""The handshake was refused for its ``Origin``."""
CLOSE_TOO_BIG: Final = 1009
"""A frame larger than the server's ``max_frame``."""
CLOSE_GOING_AWAY: Final = 1012
"""The server stops, or lost its link to the other processes: reconnect."""
CLOSE_TRY_AGAIN: Final = 1013
"""The client reads too slowly, or the table's process cannot be reached yet: reconnect."""
CLOSE_REPLACED: Final = 4001
"""A newer connection with the same seat token took this one's place."""
CLOSE_MOVED: Final = 4012
"""The table moved to another server process: reconnect (to any process)."""
CLOSE_BAD_TOKEN: Final = 4401
"""After a ``bad_token`` error."""
CLOSE_NOT_FOUND: Final = 4404
"""After a ``table_not_found`` error."""
CLOSE_REMOVED: Final = 4403
"""After a ``removed`` error: the creator removed this seat's person (4000 + HTTP's 403)."""
CLOSE_TOO_FAST: Final = 4429
"""Over the connection's message rate (4000 + HTTP's 429)."""
CLOSE_CODES: Final = {
    "bad_origin": CLOSE_BAD_ORIGIN,
    "too_big": CLOSE_TOO_BIG,
    "going_away": CLOSE_GOING_AWAY,
    "try_again": CLOSE_TRY_AGAIN,
    "replaced": CLOSE_REPLACED,
    "moved": CLOSE_MOVED,
    "bad_token": CLOSE_BAD_TOKEN,
    "not_found": CLOSE_NOT_FOUND,
    "too_fast": CLOSE_TOO_FAST,
    "removed": CLOSE_REMOVED,
}

SUBPROTOCOL: Final = "truco"
"""The WebSocket subprotocol a client offers (``Sec-WebSocket-Protocol``); the server picks it."""
TOKEN_PROTOCOL: Final = "token."
"""A seat token travels as a second offered subprotocol, ``token.TOKEN``, never in the URL (URLs
end up in access logs and browser history); the server never echoes it."""


PLAYER_PROTOCOL: Final = "player"
"""Offered by a client without a seat token that wants the seat its player (the identity
cookie, docs/players.md) holds at the table, if any; without it, such a client is a spectator."""


def ws_protocols(token: str | None, player: bool = False) -> list[str]:
    """The subprotocols a client offers: ``truco``, and its seat token if it has one (else, with
    ``player``, the request for its player's seat)."""
    if token:
        return [SUBPROTOCOL, TOKEN_PROTOCOL + token]
    return [SUBPROTOCOL] + ([PLAYER_PROTOCOL] if player else [])


def token_of(protocols: list[str]) -> str | None:
    """The seat token among the subprotocols a client offered (None: a spectator)."""
    for offered in protocols:
        if offered.startswith(TOKEN_PROTOCOL) and len(offered) > len(TOKEN_PROTOCOL):
            return offered[len(TOKEN_PROTOCOL) :]
    return None
