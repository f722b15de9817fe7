"""The players' routes: the identity (``/api/me``, and its cookie on every answer), claimed
names and passwords, the ranking's and the players' pages, Amigos (friends), and moderation
(mutes, blocks, reports)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI

from truco.server.api import errors
from truco.server.players import accounts, friends, identity, moderation, ranking
from truco.server.players.identity import Identity
from truco.server.players.presence import MemoryPresence, Presence
from truco.server.settings import Settings
from truco.server.store.database import Store


def install(
    app: FastAPI,
    store: Store,
    settings: Settings,
    *,
    checked: list[Any],
    site: Path,
    presence: Presence | None = None,
) -> Identity:
    """Add the players' routes to ``app`` (``checked``: the dependencies of every request that
    changes something; ``site``: the built web client, whose page answers the players' pages;
    ``presence``: who is online, in Redis for a cluster, by default in this process's memory);
    returns the identity, which knows the players."""
    who = identity.install(app, store, settings, errors(503))
    accounts.install(app, who, settings, checked=checked, errors=errors)
    ranking.install(
        app,
        store,
        who.players,
        site=site,
        errors=errors(404, 422, 503),
        zone=ranking.zone_of(settings.ranking_zone),
    )
    friends.install(
        app,
        who,
        settings,
        presence or MemoryPresence(settings.presence_seconds),
        checked=checked,
        errors=errors,
    )
    moderation.install(app, who, settings, checked=checked, errors=errors)
    return who


__all__ = ["install"]
