"""The one refusal of the server, and the close code the codec does not name.

``TableError`` is raised by a table, by the hub and by another process answering a call
(``cluster.py`` carries it across Redis): ``code`` is a protocol error code, so every layer
answers a client the same way. Close codes are the codec's (``protocol.CLOSE_*``); only the one
below is the server's own.
"""

from __future__ import annotations

from typing import Final

from truco import protocol as p

CLOSE_EXPIRED: Final = 4410
"""Close code: the table expired, nobody joined it in time (4000 + HTTP's 410 Gone)."""


class TableError(Exception):
    """A refused request: ``code`` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def unavailable(exc: Exception) -> TableError:
    """The database did not answer: nothing was applied."""
    return TableError(
        p.UNAVAILABLE, f"the database is unreachable, nothing was applied; try again ({exc})"
    )


def set_aside_error(table_id: str) -> TableError:
    return TableError(
        p.TABLE_NOT_FOUND,
        f"table {table_id} is set aside: it cannot be restored or played on "
        "(truco admin tables --broken says why)",
    )


__all__ = ["CLOSE_EXPIRED", "TableError", "set_aside_error", "unavailable"]
