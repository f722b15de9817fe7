"""The game server: HTTP API and table WebSockets over the rules engine (docs/protocol.md)."""

from __future__ import annotations

from truco.server.app import create_app
from truco.server.settings import Settings, sqlite_url


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "truco.db") -> None:
    """Run the server with uvicorn on ``host:port``, with its data in the SQLite file ``db``."""
    import uvicorn

    settings = Settings.from_env(database_url=sqlite_url(db))
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        log_level="info",
    )


__all__ = ["Settings", "create_app", "serve", "sqlite_url"]
