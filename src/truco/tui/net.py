"""Joining a server's table (HTTP) for ``truco play --connect``; docs/protocol.md."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from truco.errors import TrucoError
from truco.tui.session import table_id, ws_url


def join_table(invite: str, name: str, timeout: float = 10.0) -> tuple[int, str]:
    """Take the first empty seat of the invite's table: returns (seat, token)."""
    base, _ = ws_url(invite)
    url = f"{base}/api/tables/{table_id(invite)}/seats"
    body = json.dumps({"name": name}).encode()
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            data: Any = json.loads(answer.read().decode())
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read().decode())
            message = detail.get("message") or detail.get("code") or detail
        except (ValueError, AttributeError):
            message = exc.reason
        raise TrucoError(f"no pude sentarme en la mesa ({exc.code}): {message}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise TrucoError(f"no pude conectarme a {base}: {exc}") from None
    try:
        return int(data["seat"]), str(data["token"])
    except (KeyError, TypeError, ValueError):
        raise TrucoError(f"respuesta inesperada del servidor: {data!r}") from None


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
