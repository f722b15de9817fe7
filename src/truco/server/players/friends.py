"""Amigos' routes: follow and unfollow a player by name, the list of one's friends (who is online,
and at which table), and invitations to a table (docs/players.md, "Amigos").

A friend is a player one follows. Following needs a claimed name (as the friend has one: he is
followed by it). The list is the page's heartbeat: asking for it makes the asker online
(``presence.py``). A friend online is shown at the tables where he holds a seat and the match
goes on (every table may be watched, and its invite link seats whoever comes in an empty seat).
An invitation goes from a player seated at a table to a player she follows; the friend sees it
in his list with the table's invite link, ``/t/ID``.

A block wins over all of this (``blocks.py``): a player one blocks, or who blocks one, cannot be
followed or invited, and a friend who blocks the asker is shown offline and at no table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from fastapi import Depends, FastAPI, Path, Response
from fastapi.params import Depends as DependsParam
from pydantic import BaseModel, Field

from truco import protocol as p
from truco.server.errors import TableError
from truco.server.net.limits import Buckets
from truco.server.players.accounts import name_key
from truco.server.players.blocks import Blocks
from truco.server.players.follows import Follows, TooManyFollows
from truco.server.players.identity import Identity, PlayerRef, current_player
from truco.server.players.presence import Presence
from truco.server.players.ranking import NAME_REQUIRED, PLAYER_NOT_FOUND
from truco.server.settings import Settings

FOLLOW_SELF = "follow_self"
"""A player asked to follow (or invite) herself (HTTP 422)."""
TOO_MANY_FOLLOWS = "too_many_follows"
"""The player follows ``max_follows`` players already (HTTP 409)."""
NOT_FOLLOWING = "not_following"
"""An invitation to a player one does not follow (HTTP 409)."""
BLOCKED = "blocked"
"""A follow or an invitation between two players one of whom blocks the other (HTTP 403)."""
NOT_AT_TABLE = "not_at_table"
"""An invitation to a table where the inviter holds no seat, or whose match is over (HTTP 403)."""

STATUS = {
    FOLLOW_SELF: 422,
    TOO_MANY_FOLLOWS: 409,
    NOT_FOLLOWING: 409,
    NOT_AT_TABLE: 403,
    BLOCKED: 403,
}

NAME_MOST = 100
"""The longest name looked up (a claimed name is at most 20 characters after its rule)."""


class FollowBody(BaseModel):
    name: str = Field(min_length=1, max_length=NAME_MOST)


class InviteBody(BaseModel):
    name: str = Field(min_length=1, max_length=NAME_MOST, description="the friend invited")
    table: str = Field(min_length=1, max_length=32, description="a table the inviter sits at")


class FollowingBody(BaseModel):
    name: str
    following: bool
    yourself: bool = False
    """The name is the asker's own (nobody follows himself)."""


class FriendTable(BaseModel):
    table: str
    invite: str


class FriendBody(BaseModel):
    name: str
    online: bool
    tables: list[FriendTable]


class InviteEntry(BaseModel):
    name: str
    """Who invited."""
    table: str
    invite: str
    at: str


class FriendsBody(BaseModel):
    friends: list[FriendBody]
    invites: list[InviteEntry]
    most: int
    """How many players one may follow."""


class SentBody(BaseModel):
    name: str
    table: str
    invite: str


def iso_utc(at: datetime) -> str:
    """A time on the wire: ISO 8601 in UTC, with Z."""
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def install(
    app: FastAPI,
    identity: Identity,
    settings: Settings,
    presence: Presence,
    *,
    checked: Sequence[DependsParam],
    errors: Callable[..., dict[int | str, dict[str, Any]]],
) -> Follows:
    """Add Amigos' routes to ``app``; returns the store of follows."""
    follows = Follows(identity.players.store)
    blocks = Blocks(identity.players.store)
    polls = Buckets(settings.friends_polls_burst, settings.friends_polls_per_second)
    invites = Buckets(settings.invite_burst, settings.invites_per_minute / 60)
    app.state.follows = follows

    def named(player: PlayerRef) -> str:
        if player.name is None:
            raise TableError(NAME_REQUIRED, "claim a name first: friends know each other by name")
        return player.name

    async def someone(name: str, me: PlayerRef) -> tuple[str, str]:
        """The player who claimed ``name``: his id and his name as claimed."""
        found = await identity.players.by_key(name_key(name.strip()))
        if found is None or found.name is None:
            raise TableError(PLAYER_NOT_FOUND, "no player has claimed that name")
        if found.id == me.id:
            raise TableError(FOLLOW_SELF, "that is your own name")
        return found.id, found.name

    async def not_blocked(me: str, them: str) -> None:
        if await blocks.blocked_between(me, them):
            raise TableError(BLOCKED, "one of you blocks the other")

    def no_store(response: Response) -> None:
        response.headers["Cache-Control"] = "no-store"

    @app.get("/api/me/friends", response_model=FriendsBody, responses=errors(429, 503))
    async def friends(
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        if not polls.take(player.id):
            rate = settings.friends_polls_per_second
            raise TableError(
                p.RATE_LIMITED,
                f"too many questions: at most {settings.friends_polls_burst} at once, "
                f"then {rate:g} a second",
            )
        if player.name is None:  # nobody can follow a player without a name
            return {"friends": [], "invites": [], "most": settings.max_follows}
        await presence.seen(player.id)
        followed = await follows.followed(player.id)
        ids = [f.id for f in followed]
        # A friend who blocks the asker is not seen online, nor at his tables.
        online = await presence.online(ids) - await blocks.blockers_of(player.id, ids)
        tables = await follows.tables_of([pid for pid in ids if pid in online])
        got = await follows.invites(player.id, settings.invite_seconds)
        return {
            "friends": [
                {
                    "name": f.name,
                    "online": f.id in online,
                    "tables": [{"table": t, "invite": f"/t/{t}"} for t in tables.get(f.id, [])],
                }
                for f in followed
            ],
            "invites": [
                {
                    "name": i.from_name,
                    "table": i.table,
                    "invite": f"/t/{i.table}",
                    "at": iso_utc(i.at),
                }
                for i in got
            ],
            "most": settings.max_follows,
        }

    @app.get(
        "/api/me/friends/{name}", response_model=FollowingBody, responses=errors(404, 422, 503)
    )
    async def following(
        response: Response,
        name: str = Path(max_length=NAME_MOST),
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        found = await identity.players.by_key(name_key(name.strip()))
        if found is None or found.name is None:
            raise TableError(PLAYER_NOT_FOUND, "no player has claimed that name")
        return {
            "name": found.name,
            "following": await follows.follows(player.id, found.id),
            "yourself": found.id == player.id,
        }

    @app.post(
        "/api/me/friends",
        response_model=FollowingBody,
        responses=errors(403, 404, 409, 413, 422, 503),
        dependencies=list(checked),
    )
    async def follow(
        body: FollowBody,
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        named(player)
        their_id, their_name = await someone(body.name, player)
        await not_blocked(player.id, their_id)
        try:
            await follows.follow(player.id, their_id, settings.max_follows)
        except TooManyFollows:
            raise TableError(
                TOO_MANY_FOLLOWS, f"you follow {settings.max_follows} players, the most one may"
            ) from None
        return {"name": their_name, "following": True}

    @app.delete(
        "/api/me/friends/{name}",
        response_model=FollowingBody,
        responses=errors(403, 404, 422, 503),
        dependencies=list(checked),
    )
    async def unfollow(
        response: Response,
        name: str = Path(max_length=NAME_MOST),
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        their_id, their_name = await someone(name, player)
        await follows.unfollow(player.id, their_id)
        return {"name": their_name, "following": False}

    @app.post(
        "/api/me/invites",
        response_model=SentBody,
        status_code=201,
        responses=errors(403, 404, 409, 413, 422, 429, 503),
        dependencies=list(checked),
    )
    async def invite(
        body: InviteBody,
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        named(player)
        their_id, their_name = await someone(body.name, player)
        if not await follows.follows(player.id, their_id):
            raise TableError(NOT_FOLLOWING, "invite the players you follow")
        await not_blocked(player.id, their_id)
        if not await follows.seated(player.id, body.table):
            raise TableError(NOT_AT_TABLE, "invite to a table where you sit and the match goes on")
        if not invites.take(player.id):
            raise TableError(
                p.RATE_LIMITED,
                f"too many invitations: at most {settings.invite_burst} at once, "
                f"then {settings.invites_per_minute:g} a minute",
            )
        await follows.invite(player.id, their_id, body.table, settings.invite_seconds)
        return {"name": their_name, "table": body.table, "invite": f"/t/{body.table}"}

    return follows


__all__ = [
    "BLOCKED",
    "FOLLOW_SELF",
    "NOT_AT_TABLE",
    "NOT_FOLLOWING",
    "STATUS",
    "TOO_MANY_FOLLOWS",
    "install",
    "iso_utc",
]
