"""The ASGI app, assembled: each part of the server installs its own routes (docs/protocol.md).

The order is the routes' order: every API route before the catch-all for unknown API paths,
and the web client's files last, since they answer any path."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from fastapi import Depends, FastAPI

from truco.server import api
from truco.server.cluster.hub import ClusterHub, make_hub
from truco.server.exercises import routes as exercises
from truco.server.exercises.service import Generator
from truco.server.exercises.store import Exercises
from truco.server.net import redact, static
from truco.server.net.admission import BodyLimit
from truco.server.net.headers import add_security_headers
from truco.server.players import ranking
from truco.server.players import routes as players
from truco.server.players.blocks import Blocks
from truco.server.players.presence import MemoryPresence, Presence, RedisPresence
from truco.server.queue import playnow
from truco.server.settings import Settings
from truco.server.store.database import Store
from truco.server.tables import analysis, botpool, replay, websocket
from truco.server.tables import routes as tables
from truco.server.tournaments import routes as tournaments


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    redact.install()
    hub = make_hub(Store(settings.database_url, settings.db_wait_seconds), settings)
    generator = Generator(Exercises(hub.store), settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        await app.state.tournaments.start()
        generator.start()
        try:
            yield
        finally:
            await generator.stop()
            await app.state.tournaments.stop()
            await who.sightings.settle()
            await hub.stop()
            botpool.close_all()

    app = FastAPI(title="truco", lifespan=lifespan)
    add_security_headers(app, settings.hsts_seconds)
    app.add_middleware(BodyLimit, max_body=settings.max_body, body_seconds=settings.body_seconds)
    checked = [Depends(api.same_origin(settings))]
    site = static.static_dir(settings)
    who = players.install(
        app, hub.store, settings, checked=checked, site=site, presence=_presence(hub, settings)
    )
    app.state.hub = hub
    api.install_errors(app)
    get_table = tables.install(app, hub, settings, checked)
    analysis.install(app, hub, settings)  # before the catch-all below: the coach's route
    replay.install(app, get_table, site)  # /api/tables/{id}/replay, /r/{id}

    async def claimed(player_id: str) -> bool:
        found = await who.players.get(player_id)
        return found is not None and found.name is not None

    # Jugar ahora: /api/queue (docs/players.md), paired by the players' skill in the mode.
    playnow.install(
        app,
        hub,
        settings,
        checked=checked,
        rating_of=ranking.skill_lookup(hub.store),
        claimed=claimed,
        apart=Blocks(hub.store).apart,  # a block keeps two players apart (docs/players.md)
    )
    # Torneos: /api/tournaments (docs/players.md), paired under the cluster's lease.
    tournaments.install(
        app,
        hub,
        settings,
        checked=checked,
        rating_of=ranking.skill_lookup(hub.store),
        claimed=claimed,
        site=site,
    )
    # Ejercicios: /api/ejercicios (docs/players.md), positions of finished matches.
    exercises.install(app, generator.exercises, settings, checked=checked, site=site)
    api.install_catch_all(app)
    websocket.install(app, hub, settings)
    static.install(app, site)
    return app


def _presence(hub: object, settings: Settings) -> Presence:
    """Who is online: in Redis for a cluster (on the hub's own connection), so that every process
    sees the players of the others; in memory for one process."""
    if isinstance(hub, ClusterHub):
        return RedisPresence(hub.bus.redis, hub.bus.node, settings.presence_seconds)
    return MemoryPresence(settings.presence_seconds)
