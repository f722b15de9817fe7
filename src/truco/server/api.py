"""The HTTP API's one error shape: the status of each error code, the documented error answers
of an operation, the handlers that answer every refusal alike, the same-origin check of the
requests that change something, and the catch-all for API paths and methods that do not exist."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from truco import protocol as p
from truco.server.errors import TableError
from truco.server.net.admission import TOO_LARGE, TOO_SLOW
from truco.server.net.limits import BAD_ORIGIN, origin_ok
from truco.server.players import accounts, friends, moderation, ranking
from truco.server.players.names import BAD_NAME, NAME_LOOKALIKE, NameRefused
from truco.server.schemas import ErrorBody
from truco.server.settings import Settings
from truco.server.store.schema import StoreUnavailable

# HTTP-only error codes: a path or method the API does not have.
NOT_FOUND = "not_found"
METHOD_NOT_ALLOWED = "method_not_allowed"
INTERNAL = "internal_error"
"""A fault of the server's own (logged with its traceback), answered 500 in the API's shape."""

STATUS = {
    p.TABLE_NOT_FOUND: 404,
    p.SEAT_TAKEN: 409,
    p.BAD_OPTIONS: 422,
    p.BAD_MESSAGE: 422,
    p.BAD_TOKEN: 401,
    p.UNAVAILABLE: 503,
    p.REMOVED: 403,
    BAD_NAME: 422,
    NAME_LOOKALIKE: 422,
    ranking.NAME_REQUIRED: 403,
    ranking.PLAYER_NOT_FOUND: 404,
    BAD_ORIGIN: 403,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    p.RATE_LIMITED: 429,
    TOO_LARGE: 413,
    TOO_SLOW: 408,
    INTERNAL: 500,
    **accounts.STATUS,
    **friends.STATUS,
    **moderation.STATUS,
}


def errors(*codes: int, json: bool = False) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of one operation (the schema tests hold the app to them).

    ``json``: spell out the media type, for an operation whose own answers are not JSON
    (FastAPI would document its errors in the operation's media type).
    """
    if not json:
        return {code: {"model": ErrorBody} for code in codes}
    ref = {"schema": {"$ref": "#/components/schemas/ErrorBody"}}
    return {code: {"description": "Error", "content": {"application/json": ref}} for code in codes}


def error(code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=STATUS.get(code, 400))


def same_origin(settings: Settings) -> Any:
    """The dependency of every request that changes something."""

    async def check(request: Request) -> None:
        # A browser sends Origin with every POST; a page on another site must not create tables
        # or take seats in the player's name. Clients that are not browsers send no Origin.
        origin = request.headers.get("origin")
        if origin is not None and not origin_ok(
            origin, request.headers.get("host", ""), settings.allowed_origins
        ):
            raise TableError(BAD_ORIGIN, f"requests from the origin {origin[:100]!r} are refused")

    return check


def install_errors(app: FastAPI) -> None:
    """Answer every refusal, the framework's own included, in the one error shape."""

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        answer = error(exc.code, exc.message)
        if isinstance(exc, accounts.Busy):
            answer.headers["Retry-After"] = str(exc.retry_after)
        return answer

    @app.exception_handler(NameRefused)
    async def bad_name(request: Request, exc: NameRefused) -> JSONResponse:
        return error(NAME_LOOKALIKE if exc.reason == "lookalike" else BAD_NAME, exc.message)

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        return error(p.UNAVAILABLE, f"the database is unreachable, nothing was applied ({exc})")

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        # Starlette logs the traceback after this answer; the client learns nothing of it.
        return error(INTERNAL, "the server failed to answer this request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own refusals (a body it cannot decode, a route without that method) in the
        # API's one error shape instead of {"detail": ...}.
        if exc.status_code == 400:
            return error(p.BAD_MESSAGE, f"body: {exc.detail}")
        code = {404: NOT_FOUND, 405: METHOD_NOT_ALLOWED}.get(exc.status_code, "http_error")
        return JSONResponse(
            {"code": code, "message": str(exc.detail)},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return error(p.BAD_MESSAGE, f"{where}: {first.get('msg', 'bad request')}")


def install_catch_all(app: FastAPI) -> None:
    """The answer to an API path or method that does not exist: after every API route."""

    @app.api_route(
        "/api/{rest:path}",
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY"],
        include_in_schema=False,
    )
    async def no_such_api(request: Request, rest: str) -> JSONResponse:
        # Without this, the web client's static files (mounted at /) would answer a wrong method
        # on an API path with their own 405 ("Allow: GET, HEAD"), and an unknown API path with
        # an HTML page.
        path = request.url.path
        allowed = sorted(
            {
                method
                for route in app.routes
                if isinstance(route, APIRoute)
                and route.endpoint is not no_such_api
                and route.path_regex.match(path)
                for method in route.methods or ()
            }
        )
        if allowed:
            response = error(METHOD_NOT_ALLOWED, f"{path} answers {', '.join(allowed)} only")
            response.headers["allow"] = ", ".join(allowed)
            return response
        return error(NOT_FOUND, f"no API at {path}")


__all__ = [
    "INTERNAL",
    "METHOD_NOT_ALLOWED",
    "NOT_FOUND",
    "STATUS",
    "error",
    "errors",
    "install_catch_all",
    "install_errors",
    "same_origin",
]
