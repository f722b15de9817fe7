"""Claimed names and passwords: claim a name, log in on another device, log out, change the
password (docs/players.md, "Names and passwords").

Passwords are hashed with Argon2 (argon2-cffi's defaults: 64 MiB and three passes a hash), off
the event loop and at most ``HASHING_AT_ONCE`` at a time, so that a flood of logins can take
neither the loop nor the memory; at most ``Settings.hashes_waiting`` more wait for a turn, and
one more is refused at once (``503 busy`` with ``Retry-After``): the line never grows. A login
as a player this browser has been (``devices.py``) is checked in a lane of its own, which a
flood of strangers' logins never fills. A login answers alike whether the name is unknown or the
password wrong, and takes alike: an unknown name is checked against a hash of nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import unicodedata
from collections.abc import AsyncIterator
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Depends, FastAPI, Request, Response
from pydantic import BaseModel, Field

from truco import protocol as p
from truco.bots.personas import LABELS, PERSONAS
from truco.server.errors import TableError
from truco.server.net.limits import Buckets
from truco.server.players import devices
from truco.server.players.identity import (
    Identity,
    MeBody,
    PlayerRef,
    current_player,
    is_https,
    me_body,
    request_player,
    request_session,
)
from truco.server.players.names import NameRefused, bot_skeleton, clean_name, name_skeleton
from truco.server.players.records import NameTaken, Player, new_player_id
from truco.server.settings import Settings

NAME_UNAVAILABLE: Final = "name_unavailable"
"""409: the name is another player's (or looks like a bot's), or the player has one already."""
BAD_LOGIN: Final = "bad_login"
"""401: the name and password do not go together (never saying which is wrong)."""
BUSY: Final = "busy"
"""503: too many password checks are waiting in this process; try again after Retry-After."""
STATUS: Final = {NAME_UNAVAILABLE: 409, BAD_LOGIN: 401, BUSY: 503}

MIN_NAME: Final = 3
MAX_NAME: Final = 20
"""Characters in a claimed name, after the name rule (``names.py``) normalised it."""
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
"""Characters in a new password (the request's schema holds it: ``422 bad_message``)."""
HASHING_AT_ONCE: Final = 2
"""Argon2 hashes computed at once by one process (each takes 64 MiB while it runs)..."""
KNOWN_AT_ONCE: Final = 1
"""...and, besides them, for logins as a player the browser has been."""
RETRY_AFTER: Final = 2
"""Seconds a refused password check is told to wait (``Retry-After``)."""

BOT_WORDS: Final = frozenset({"bot", "bots", "robot", "robots"})
_WORD = re.compile(r"\w+")


def name_key(name: str) -> str:
    """The key that makes names unique: NFKC, then case folded (and NFKC again, as casefolding
    may leave characters that are not in that form)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


_PERSONAS: Final = frozenset(bot_skeleton(n) for names in PERSONAS.values() for n in names)
_TITLED: Final = frozenset(
    bot_skeleton(n) for names in PERSONAS.values() for n in names if " " in n
)
"""The personas with a title or an article ("Don Ramón", "La Negra", "Tía Chela"): characters
of the site, where the one-word personas ("Lalo", "Tito") are everyday nicknames as well."""
_LABELS: Final = frozenset(bot_skeleton(x) for pair in LABELS.values() for x in pair)
_BOT_WORDS: Final = frozenset(bot_skeleton(w) for w in BOT_WORDS)


def looks_like_a_bot(name: str, *, nicknames: bool = True) -> bool:
    """A bot's persona ("Don Ramón", "don ramon", "Don Ramón (Experto)", "DonRamon experto") or
    a name that says it is a bot ("Bot", "el bot", "Robot 3"), compared by ``bot_skeleton``:
    without case, accents, spaces or signs, look-alike letters of other scripts ("Dоn Ramón"
    with a Cyrillic о) and digits for letters ("B0t", "T1to").

    ``nicknames=False`` (a casual seat's name): a one-word persona alone ("Lalo", "Tito") is a
    person's name too and passes; with its level's label ("Lalo (Normal)") it is a bot's row.
    """
    words = [bot_skeleton(w) for w in _WORD.findall(name)]
    if any(w in _BOT_WORDS for w in words) or bot_skeleton(name) in _BOT_WORDS:
        return True
    # Without anything in brackets, and without level labels at either end.
    bare = bot_skeleton(re.sub(r"[(\[{].*?[)\]}]", " ", name))
    brackets = [bot_skeleton(x) for x in re.findall(r"[(\[{](.*?)[)\]}]", name)]
    labelled = any(x in _LABELS for x in brackets) or any(
        bare != label and (bare.endswith(label) or bare.startswith(label)) for label in _LABELS
    )
    personas = _PERSONAS if nicknames or labelled else _TITLED
    if bare in personas:
        return True
    return any(
        (bare.endswith(label) and bare[: -len(label)] in _PERSONAS)
        or (bare.startswith(label) and bare[len(label) :] in _PERSONAS)
        for label in _LABELS
    )


def account_name(raw: str) -> str:
    """``raw`` as a claimed name is shown, or ``NameRefused`` saying why it cannot be one."""
    name = clean_name(raw)
    if len(name) < MIN_NAME:
        raise NameRefused("too_short", f"a player's name holds at least {MIN_NAME} characters")
    if len(name) > MAX_NAME:
        raise NameRefused("too_long", f"a player's name holds at most {MAX_NAME} characters")
    if looks_like_a_bot(name):
        raise NameRefused("bot", "that name is a bot's, or looks like one")
    return name


def lookalike_refusal(name: str, claimed: str) -> NameRefused:
    """The refusal of ``name``, which looks like the claimed name ``claimed``."""
    how = "is" if name_key(name) == name_key(claimed) else "looks like"
    return NameRefused(
        "lookalike",
        f"that name {how} {claimed!r}, a player's claimed name (compared by how the letters "
        "look, as Unicode's confusables have it)",
    )


async def seat_name(request: Request, raw: str) -> str:
    """The name of a seat at a casual table, or ``NameRefused``: the name rule, then neither a
    bot's look ("Bot", "Don Ramón (Experto)"; ``looks_like_a_bot(nicknames=False)``) nor a
    claimed name of another player, compared by look (``name_skeleton``). The player who
    claimed that name sits under it freely."""
    name = clean_name(raw)
    if looks_like_a_bot(name, nicknames=False):
        raise NameRefused("bot", "that name is a bot's, or looks like one")
    identity: Identity = request.app.state.identity
    holder = await identity.players.by_skeleton(name_skeleton(name))
    if holder is not None and holder.name is not None:
        me = await current_player(request)
        if holder.id != me.id:
            raise lookalike_refusal(name, holder.name)
    return name


class Lane:
    """Hashes run ``at_once`` at a time, with at most ``waiting`` more in line: the count of
    those in the lane is checked before anything waits, so a refusal comes at once."""

    def __init__(self, at_once: int, waiting: int) -> None:
        self.at_once, self.waiting = at_once, waiting
        self._slots = asyncio.Semaphore(at_once)
        self.inside = 0

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        if self.inside >= self.at_once + self.waiting:
            raise Busy(f"too many password checks are waiting; try again in {RETRY_AFTER} s")
        self.inside += 1
        try:
            async with self._slots:
                yield
        finally:
            self.inside -= 1


class Busy(TableError):
    """A password check refused because its lane is full (``503 busy``, ``Retry-After``)."""

    retry_after = RETRY_AFTER

    def __init__(self, message: str) -> None:
        super().__init__(BUSY, message)


class Hashing:
    """Argon2 off the loop, a few at a time, in two lanes: strangers' and known browsers'."""

    def __init__(self, waiting: int = 8) -> None:
        self.hasher = PasswordHasher()
        self.lanes = {False: Lane(HASHING_AT_ONCE, waiting), True: Lane(KNOWN_AT_ONCE, waiting)}
        self._dummy: str | None = None
        self._making = asyncio.Lock()

    async def hash(self, password: str, known: bool = False) -> str:
        async with self.lanes[known].turn():
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str, known: bool = False) -> bool:
        """Whether ``password`` matches ``stored``; None (no such player) is checked against a
        hash of a random password, so that it costs what a real check costs. ``known``: the
        browser has been this player (its own lane)."""
        if self._dummy is None:
            async with self._making:  # once per process, outside the lanes
                if self._dummy is None:
                    dummy = secrets.token_urlsafe(16)
                    self._dummy = await asyncio.to_thread(self.hasher.hash, dummy)
        target = stored if stored is not None else self._dummy
        async with self.lanes[known].turn():
            try:
                ok: bool = await asyncio.to_thread(self.hasher.verify, target, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)


def _new_password(description: str) -> Any:
    return Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD, description=description)


class ClaimBody(BaseModel):
    name: str = Field(
        min_length=1,
        max_length=64,
        description=f"the name to claim: {MIN_NAME} to {MAX_NAME} characters once normalised",
    )
    password: str = _new_password("the password that will log the player in")


class LoginBody(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(max_length=MAX_PASSWORD)


class EndedBody(BaseModel):
    ended: int = Field(description="how many of the player's other sessions were ended")


class PasswordBody(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, description="the current password")
    new_password: str = _new_password("the new password")


def install(
    app: FastAPI,
    identity: Identity,
    settings: Settings,
    *,
    checked: list[Any],
    errors: Any,
) -> None:
    """Add the account routes (``checked``: the dependencies of every state-changing request,
    ``errors(*codes)``: their documented error answers)."""
    hashing = Hashing(settings.hashes_waiting)
    per_address = Buckets(settings.login_burst, settings.logins_per_minute / 60)
    per_name = Buckets(settings.name_login_burst, settings.name_logins_per_minute / 60)

    def spend(request: Request, key: str | None) -> None:
        address = request.client.host if request.client is not None else ""
        if not per_address.take(address):
            raise TableError(
                p.RATE_LIMITED,
                f"too many attempts from this address: at most {settings.login_burst} at once, "
                f"then {settings.logins_per_minute:g} a minute",
            )
        if key is not None and not per_name.take(key):
            raise TableError(
                p.RATE_LIMITED,
                f"too many attempts for this name: at most {settings.name_login_burst} at once, "
                f"then {settings.name_logins_per_minute:g} a minute",
            )

    async def me(player_id: str) -> dict[str, Any]:
        return await me_body(identity, player_id)

    async def become(
        request: Request, response: Response, player_id: str, session: str = ""
    ) -> None:
        key = await identity.key()
        identity.set_cookie(response, key, player_id, is_https(request.scope), session)
        response.headers["Cache-Control"] = "no-store"

    async def been(request: Request, response: Response, player_id: str) -> None:
        """This browser is ``player_id`` now (with a name): its history says so, and the players
        it has been are linked to him (``devices.py``)."""
        key = await identity.key()
        before = devices.seen(request, key)
        await devices.link(identity.players.store, before, player_id)
        devices.remember(response, key, before, player_id, is_https(request.scope))

    @app.post(
        "/api/me/name",
        response_model=MeBody,
        responses=errors(403, 409, 413, 422, 429, 503),
        dependencies=checked,
    )
    async def claim(
        body: ClaimBody,
        request: Request,
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        name = account_name(body.name)
        spend(request, None)
        if player.name is not None:
            raise TableError(NAME_UNAVAILABLE, "you have claimed a name already")
        look = name_skeleton(name)
        holder = await identity.players.by_skeleton(look)
        if holder is not None and holder.name is not None and holder.id != player.id:
            if name_key(holder.name) == name_key(name):
                raise TableError(NAME_UNAVAILABLE, "that name is not available")
            raise lookalike_refusal(name, holder.name)
        hashed = await hashing.hash(body.password)
        try:
            done = await identity.players.claim(player.id, name, name_key(name), hashed)
        except NameTaken:
            raise TableError(NAME_UNAVAILABLE, "that name is not available") from None
        if not done:  # claimed meanwhile, by another request of this player
            raise TableError(NAME_UNAVAILABLE, "you have claimed a name already")
        # From now on this device is the player through a session of his (sessions.py).
        await become(request, response, player.id, await identity.sessions.open(player.id))
        await been(request, response, player.id)
        return await me(player.id)

    @app.post(
        "/api/login",
        response_model=MeBody,
        responses=errors(401, 403, 413, 422, 429, 503),
        dependencies=checked,
    )
    async def login(body: LoginBody, request: Request, response: Response) -> dict[str, Any]:
        try:
            key = name_key(clean_name(body.name))
        except NameRefused:
            key = None  # no such name can exist: refused below like any wrong login
        spend(request, key if key is not None else "")
        found: Player | None = await identity.players.by_key(key) if key is not None else None
        stored = found.password_hash if found is not None else None
        known = found is not None and found.id in devices.seen(request, await identity.key())
        if (
            not await hashing.verify(stored, body.password, known)
            or found is None
            or stored is None
        ):
            raise TableError(BAD_LOGIN, "wrong name or password")
        if hashing.needs_rehash(stored):
            await identity.players.set_password(found.id, await hashing.hash(body.password))
        await identity.players.touch(found.id)
        await become(request, response, found.id, await identity.sessions.open(found.id))
        await been(request, response, found.id)
        return await me(found.id)

    @app.post(
        "/api/logout",
        response_model=MeBody,
        responses=errors(403, 413, 422, 503),
        dependencies=checked,
    )
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        # This device's session ends: a copy of its cookie is nobody's any more.
        player_id, session = request_player(request), request_session(request)
        if player_id is not None and session:
            await identity.sessions.end(player_id, session)
        fresh = new_player_id()
        await become(request, response, fresh)
        return {"id": fresh, "name": None, "seats": []}

    @app.post(
        "/api/me/password",
        response_model=MeBody,
        responses=errors(401, 403, 413, 422, 429, 503),
        dependencies=checked,
    )
    async def change_password(
        body: PasswordBody,
        request: Request,
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        found = await identity.players.get(player.id)
        key = name_key(found.name) if found is not None and found.name is not None else None
        spend(request, key)
        stored = found.password_hash if found is not None else None
        if not await hashing.verify(stored, body.password):
            raise TableError(BAD_LOGIN, "wrong password")
        await identity.players.set_password(player.id, await hashing.hash(body.new_password))
        # A new password ends every other session: whoever learnt the old one is out.
        keep = request_session(request) or await identity.sessions.open(player.id)
        await identity.sessions.end_others(player.id, keep)
        await become(request, response, player.id, keep)
        return await me(player.id)

    @app.post(
        "/api/me/sessions/close-others",
        response_model=EndedBody,
        responses=errors(403, 413, 422, 503),
        dependencies=checked,
    )
    async def close_others(
        request: Request,
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        """Cerrar las otras sesiones: every device of the player but this one is logged out."""
        response.headers["Cache-Control"] = "no-store"
        session = request_session(request)
        if player.name is None or not session:
            return {"ended": 0}  # a player who claimed no name has no sessions
        return {"ended": await identity.sessions.end_others(player.id, session)}


__all__ = [
    "BAD_LOGIN",
    "BUSY",
    "MAX_NAME",
    "MAX_PASSWORD",
    "MIN_NAME",
    "MIN_PASSWORD",
    "NAME_UNAVAILABLE",
    "STATUS",
    "Busy",
    "account_name",
    "install",
    "lookalike_refusal",
    "looks_like_a_bot",
    "name_key",
    "seat_name",
]
