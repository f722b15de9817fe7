"""The fan-out: what each connection of a table is sent, filtered for its seat.

Every message that shows the match is built here from ``observe`` (the view of one seat, or a
spectator's) and ``visible_to`` (the events that seat may see): a ``full`` message with the
whole view, or an ``ev`` message with one version's events. A spectator's message is built once
for all spectators; each seat's, once per seat.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from truco import protocol as p
from truco.events import Event, visible_to
from truco.server.tables.conn import Conn
from truco.server.tables.seats import Seat
from truco.state import State
from truco.view import observe


@dataclass(frozen=True, slots=True)
class Version:
    """One applied version of a table: what every connection is sent an ``ev`` message of."""

    v: int
    state: State
    events: tuple[Event, ...]


def connections(seats: Iterable[Seat], spectators: Iterable[Conn]) -> list[Conn]:
    """Every connection of a table: the seats' first, then the spectators'."""
    return [s.conn for s in seats if s.conn is not None] + list(spectators)


def send_all(conns: Iterable[Conn], text: str) -> None:
    for conn in conns:
        conn.send(text)


def full(conn: Conn, v: int, state: State, *, info: dict[str, Any], deadline: int | None) -> str:
    """Everything ``conn``'s seat may see of the table now."""
    return p.encode(
        "full",
        {
            "v": v,
            "seat": conn.seat,
            "view": p.view_json(observe(state, conn.seat)),
            "table": info,
            "deadline": deadline,
        },
    )


def ev(version: Version, seat: int | None, deadline: int | None, a: int | None = None) -> str:
    """One version as ``seat`` (None: a spectator) may see it; with ``a``, it acknowledges the
    action ``a`` of the connection it goes to (the action that made this version)."""
    d: dict[str, Any] = {
        "v": version.v,
        "events": [p.event_json(e) for e in version.events if visible_to(e, seat)],
        "view": p.view_json(observe(version.state, seat)),
        "deadline": deadline,
    }
    if a is not None:
        d["a"] = a
    return p.encode("ev", d)


def send_version(
    version: Version,
    seats: Iterable[Seat],
    spectators: Collection[Conn],
    deadline: int | None,
    ack: tuple[Conn, int] | None = None,
) -> bool:
    """Send one new version to every seat and spectator, each as it may see it. ``ack``: the
    connection whose action made the version, and the action's ``a``, which its ``ev`` carries
    (one message, so one write, instead of an ``ev`` and an ``ack``). True if it went out so;
    False if that connection holds no seat any more (it is then acknowledged on its own)."""
    acked = False
    for seat in seats:
        conn = seat.conn
        if conn is not None:
            if ack is not None and conn is ack[0]:
                conn.send(ev(version, seat.seat, deadline, ack[1]))
                acked = True
            else:
                conn.send(ev(version, seat.seat, deadline))
    if spectators:
        send_all(spectators, ev(version, None, deadline))
    return acked


def missed(recent: Sequence[Version], v: int, last_v: int) -> list[Version] | None:
    """The versions a connection that saw ``last_v`` missed, when ``recent`` still holds all of
    them; None: it is sent a ``full`` message instead."""
    gone = [ver for ver in recent if ver.v > last_v]
    if 0 < last_v <= v and ((not gone and last_v == v) or (gone and gone[0].v == last_v + 1)):
        return gone
    return None


def send_sena(
    seats: Iterable[Seat],
    teams: Sequence[int],
    sender: Seat,
    sena: str,
    skip: Collection[Conn] = (),
) -> None:
    """A seña reaches the sender's partners only (not the connections in ``skip``: their
    players mute or block the sender)."""
    text = p.encode("sena", {"seat": sender.seat, "sena": sena})
    for other in seats:
        if (
            other.seat != sender.seat
            and teams[other.seat] == teams[sender.seat]
            and other.conn is not None
            and other.conn not in skip
        ):
            other.conn.send(text)


__all__ = [
    "Version",
    "connections",
    "ev",
    "full",
    "missed",
    "send_all",
    "send_sena",
    "send_version",
]
