"""The game server: HTTP API and table WebSockets over the rules engine (docs/protocol.md)."""

from __future__ import annotations

import gc
import os
from typing import Any

from truco.server.app import create_app
from truco.server.net import redact
from truco.server.settings import Settings, sqlite_url


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "truco.db") -> None:
    """Run the server with uvicorn on ``host:port``, with its data in the SQLite file ``db``.

    ``TRUCO_DATABASE_URL`` (e.g. PostgreSQL for a cluster) takes precedence over ``db``.
    """
    import uvicorn

    from_env = bool(os.environ.get("TRUCO_DATABASE_URL"))
    try:
        settings = (
            Settings.from_env() if from_env else Settings.from_env(database_url=sqlite_url(db))
        )
    except ValueError as exc:  # a TRUCO_* variable that does not parse: said, not a traceback
        raise SystemExit(f"truco serve: {exc}") from None
    app = create_app(settings)
    # A full collection stalls every table at once, for as long as it takes to scan the heap
    # (hundreds of ms with hundreds of tables): the objects the libraries made at import are
    # moved out of its sight, and it runs far less often (game states are freed by reference
    # counting when they leave a table's history; cycles are rare and wait a little longer).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
    uvicorn.Server(uvicorn_config(app, settings, host, port)).run()


def uvicorn_config(app: object, settings: Settings, host: str, port: int) -> Any:
    """uvicorn's configuration of ``app``, with the socket bounds of ``admission.guarded``."""
    import uvicorn

    from truco.server.net.admission import guarded

    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        http=guarded(settings),
        ws_max_size=settings.max_frame,  # uvicorn closes larger frames with 1009 itself
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        # Behind a proxy, the client's address comes from X-Forwarded-For (the limits use it),
        # read from the named proxies only: with none named, no header is read at all, since
        # uvicorn would otherwise trust one from any local client, which could then give itself
        # a fresh address for every request and dodge the per-address limits.
        proxy_headers=bool(settings.proxies),
        forwarded_allow_ips=list(settings.proxies) or None,
        log_level="info",
        log_config=redact.log_config(),
    )


__all__ = ["Settings", "create_app", "serve", "sqlite_url", "uvicorn_config"]
