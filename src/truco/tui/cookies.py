"""The terminal player's identity at each server: the identity cookie kept in a file.

A browser keeps the server's ``truco_player`` cookie (docs/players.md); the terminal client
keeps it in ``$XDG_CONFIG_HOME/truco/cookies.json`` (or ``~/.config/truco/cookies.json``), one
per server, readable by its owner only (mode 0600: whoever reads it plays as that player). So a
terminal player is the same player across runs, takes back her seats, and logs in with
``truco cuenta``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from http.cookies import CookieError, SimpleCookie
from pathlib import Path

COOKIE = "truco_player"
"""The server's identity cookie (``truco.server.players.identity.COOKIE``)."""


def config_dir(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/truco``, or ``~/.config/truco``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "truco"


class Jar:
    """The identity cookie of each server (by its base URL), kept in one file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "cookies.json"

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, base: str) -> str | None:
        return self._load().get(base.rstrip("/"))

    def headers(self, base: str) -> dict[str, str]:
        """The ``Cookie`` header for a request to ``base`` (none before the first answer)."""
        value = self.get(base)
        return {"Cookie": f"{COOKIE}={value}"} if value else {}

    def take(self, base: str, set_cookies: Iterable[str]) -> None:
        """Keep the identity a server's answer set (its ``Set-Cookie`` values)."""
        for header in set_cookies:
            try:
                morsel = SimpleCookie(header).get(COOKIE)
            except CookieError:
                continue
            if morsel is not None and morsel.value:
                self._store(base.rstrip("/"), morsel.value)

    def _store(self, base: str, value: str) -> None:
        data = self._load()
        if data.get(base) == value:
            return
        data[base] = value
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        # Created 0600 from the start: the identity is never readable by others, not even briefly.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(tmp, self.path)
        os.chmod(self.path, 0o600)


__all__ = ["COOKIE", "Jar", "config_dir"]
