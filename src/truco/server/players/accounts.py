"""Claimed names and passwords: claim a name, log in on another device, log out, change the
password (docs/players.md, "Names and passwords").

Passwords are hashed with Argon2 (argon2-cffi's defaults: 64 MiB and three passes a hash), off
the event loop and at most ``HASHING_AT_ONCE`` at a time, so that a flood of logins can take
neither the loop nor the memory. A login answers alike whether the name is unknown or the
password wrong, and takes alike: an unknown name is checked against a hash of nothing.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import unicodedata
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Depends, FastAPI, Request, Response
from pydantic import BaseModel, Field

from truco import protocol as p
from truco.bots.personas import LABELS, PERSONAS
from truco.server.errors import TableError
from truco.server.net.limits import Buckets
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
from truco.server.players.names import NameRefused, clean_name
from truco.server.players.records import NameTaken, Player, new_player_id
from truco.server.settings import Settings

NAME_UNAVAILABLE: Final = "name_unavailable"
"""409: the name is another player's (or looks like a bot's), or the player has one already."""
BAD_LOGIN: Final = "bad_login"
"""401: the name and password do not go together (never saying which is wrong)."""
STATUS: Final = {NAME_UNAVAILABLE: 409, BAD_LOGIN: 401}

MIN_NAME: Final = 3
MAX_NAME: Final = 20
"""Characters in a claimed name, after the name rule (``names.py``) normalised it."""
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
"""Characters in a new password (the request's schema holds it: ``422 bad_message``)."""
HASHING_AT_ONCE: Final = 2
"""Argon2 hashes computed at once by one process (each takes 64 MiB while it runs)."""

BOT_WORDS: Final = frozenset({"bot", "bots", "robot", "robots"})
_WORD = re.compile(r"\w+")


def name_key(name: str) -> str:
    """The key that makes names unique: NFKC, then case folded (and NFKC again, as casefolding
    may leave characters that are not in that form)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _skeleton(text: str) -> str:
    """Letters and digits only, without accents or case: what a name looks like at a glance."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())


_PERSONAS: Final = frozenset(_skeleton(n) for names in PERSONAS.values() for n in names)
_LABELS: Final = frozenset(_skeleton(x) for pair in LABELS.values() for x in pair)


def looks_like_a_bot(name: str) -> bool:
    """A bot's persona ("Don Ramón", "don ramon", "Don Ramón (Experto)", "DonRamon experto") or
    a name that says it is a bot ("Bot", "el bot", "Robot 3")."""
    words = [_skeleton(w) for w in _WORD.findall(name.casefold())]
    if any(w in BOT_WORDS for w in words) or _skeleton(name) in BOT_WORDS:
        return True
    # Without anything in brackets, and without level labels at either end.
    bare = re.sub(r"[(\[{].*?[)\]}]", " ", name)
    skeleton = _skeleton(bare)
    if skeleton in _PERSONAS:
        return True
    return any(
        (skeleton.endswith(label) and skeleton[: -len(label)] in _PERSONAS)
        or (skeleton.startswith(label) and skeleton[len(label) :] in _PERSONAS)
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


class Hashing:
    """Argon2 off the loop, a few at a time."""

    def __init__(self) -> None:
        self.hasher = PasswordHasher()
        self._slots = asyncio.Semaphore(HASHING_AT_ONCE)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; None (no such player) is checked against a
        hash of a random password, so that it costs what a real check costs."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        target = stored if stored is not None else self._dummy
        async with self._slots:
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
    hashing = Hashing()
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
        hashed = await hashing.hash(body.password)
        try:
            done = await identity.players.claim(player.id, name, name_key(name), hashed)
        except NameTaken:
            raise TableError(NAME_UNAVAILABLE, "that name is not available") from None
        if not done:  # claimed meanwhile, by another request of this player
            raise TableError(NAME_UNAVAILABLE, "you have claimed a name already")
        # From now on this device is the player through a session of his (sessions.py).
        await become(request, response, player.id, await identity.sessions.open(player.id))
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
        if not await hashing.verify(stored, body.password) or found is None or stored is None:
            raise TableError(BAD_LOGIN, "wrong name or password")
        if hashing.needs_rehash(stored):
            await identity.players.set_password(found.id, await hashing.hash(body.password))
        await identity.players.touch(found.id)
        await become(request, response, found.id, await identity.sessions.open(found.id))
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
    "MAX_NAME",
    "MAX_PASSWORD",
    "MIN_NAME",
    "MIN_PASSWORD",
    "NAME_UNAVAILABLE",
    "STATUS",
    "account_name",
    "install",
    "looks_like_a_bot",
    "name_key",
]
