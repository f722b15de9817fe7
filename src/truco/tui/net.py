"""Joining a server's table (HTTP) for ``truco play --connect``; docs/protocol.md."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from truco.errors import TrucoError
from truco.tui import wire
from truco.tui.cookies import Jar
from truco.tui.session import table_id, ws_url


class Refused(TrucoError):
    """The server answered with an error: its ``code`` and ``message`` (docs/protocol.md)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{message} ({status})")
        self.code = code
        self.message = message


def call(
    base: str,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    jar: Jar | None = None,
    timeout: float = 10.0,
) -> Any:
    """One request to the server's API, as the player of ``jar`` (whose cookie it keeps);
    the answer's JSON; ``Refused`` when the server says no, ``TrucoError`` when it is away."""
    headers = {"Content-Type": "application/json", **(jar.headers(base) if jar else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            if jar is not None:
                jar.take(base, answer.headers.get_all("Set-Cookie") or [])
            return wire.loads(answer.read().decode() or "null")
    except urllib.error.HTTPError as exc:
        if jar is not None:
            jar.take(base, exc.headers.get_all("Set-Cookie") or [])
        try:
            detail = wire.loads(exc.read().decode())
            code, message = str(detail.get("code")), str(detail.get("message") or detail)
        except (ValueError, AttributeError):
            code, message = f"http_{exc.code}", str(exc.reason)
        raise Refused(exc.code, code, message) from None
    except (urllib.error.URLError, OSError) as exc:
        raise TrucoError(f"no pude conectarme a {base}: {exc}") from None


def join_table(
    invite: str, name: str, timeout: float = 10.0, jar: Jar | None = None
) -> tuple[int, str]:
    """Take the first empty seat of the invite's table (as the player of ``jar``, if given):
    returns (seat, token)."""
    base, _ = ws_url(invite)
    try:
        data = call(
            base, "POST", f"/api/tables/{table_id(invite)}/seats", {"name": name}, jar, timeout
        )
    except TrucoError as exc:
        raise TrucoError(f"no pude sentarme en la mesa: {exc}") from None
    try:
        return int(data["seat"]), str(data["token"])
    except (KeyError, TypeError, ValueError):
        raise TrucoError(f"respuesta inesperada del servidor: {data!r}") from None


def my_seat(invite: str, jar: Jar, timeout: float = 10.0) -> int | None:
    """The seat the player of ``jar`` holds at the invite's table (``GET /api/me``), if any."""
    base, _ = ws_url(invite)
    me = call(base, "GET", "/api/me", None, jar, timeout)
    table = table_id(invite)
    seats = [s["seat"] for s in me.get("seats", []) if s.get("table") == table]
    return int(seats[0]) if seats else None


def fetch_hands(
    invite: str, count: int, token: str | None = None, timeout: float = 10.0
) -> list[str]:
    """The table's hands 1..count as hand histories (``GET /api/tables/{id}/hands/{n}.toml``).

    During a match only its players may read them, as they saw them: ``token`` is the seat's.
    """
    base, _ = ws_url(invite)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    texts = []
    for n in range(1, count + 1):
        url = f"{base}/api/tables/{table_id(invite)}/hands/{n}.toml"
        try:
            request = urllib.request.Request(url, headers=headers)
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                texts.append(answer.read().decode())
        except (urllib.error.URLError, OSError) as exc:
            raise TrucoError(f"no pude bajar la mano {n}: {exc}") from None
    return texts
