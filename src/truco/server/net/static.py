"""The built web client: its pages and its files, compressed and cached as a phone needs them.

The build (``src/truco/web/vite.config.ts``) writes a brotli (``.br``) and a gzip (``.gz``) copy
next to each script, style sheet and page, once; here each request only picks the copy its
``Accept-Encoding`` allows, so nothing is compressed per request. The files under ``/assets/``
carry a hash of their content in their name, so they are cached for a year as ``immutable``; the
pages (``/``, ``/t/{id}``, ``/anotador``) are ``no-cache``, so that a new build is seen at once.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

from truco.server.settings import Settings

NOT_BUILT = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>truco</title></head>
<body><h1>truco</h1>
<p>The web client is not built. Build it into <code>src/truco/web/dist</code>
(<code>make run</code> does it); the API is at <code>/api/tables</code> and the tables at
<code>/ws/tables/{id}</code>.</p></body></html>
"""

IMMUTABLE = "public, max-age=31536000, immutable"
"""For the hashed files under /assets/: a year, never revalidated."""
NO_CACHE = "no-cache"
"""For the pages: kept, but asked again (a 304 when unchanged) every time."""

ENCODINGS: tuple[tuple[str, str], ...] = (("br", ".br"), ("gzip", ".gz"))
"""The precompressed copies, best first: (Content-Encoding, file suffix)."""


def accepted(scope: Scope) -> set[str]:
    """The encodings the request's ``Accept-Encoding`` allows (those with q=0 left out)."""
    out: set[str] = set()
    for item in Headers(scope=scope).get("accept-encoding", "").split(","):
        name, _, params = item.strip().partition(";")
        q = params.strip().removeprefix("q=")
        if name and not (q and q.replace(".", "").strip("0") == ""):
            out.add(name.strip().lower())
    return out


def _cache_control(site: Path, path: Path) -> str:
    # Both resolved: StaticFiles hands over real paths, the settings may give a relative one.
    return IMMUTABLE if path.resolve().parent == site.resolve() / "assets" else NO_CACHE


def file_answer(site: Path, path: Path, scope: Scope, status_code: int = 200) -> Response:
    """``path`` (a file of ``site``) as the request can best take it, with its cache rule: the
    best precompressed copy it accepts, else the file itself; a 304 if it has it already."""
    headers = {"Cache-Control": _cache_control(site, path)}
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    sent = path
    can = accepted(scope)
    for encoding, suffix in ENCODINGS:
        copy = path.with_name(path.name + suffix)
        if copy.is_file():
            # The answer depends on Accept-Encoding, whichever copy is sent.
            headers["Vary"] = "Accept-Encoding"
            if encoding in can:
                headers["Content-Encoding"] = encoding
                sent = copy
                break
    answer = FileResponse(sent, status_code, headers, media, stat_result=os.stat(sent))
    if status_code == 200 and _has_it(answer, scope):
        return NotModifiedResponse(answer.headers)
    return answer


def _has_it(answer: Response, scope: Scope) -> bool:
    """The request's If-None-Match names this answer's ETag (each copy has its own)."""
    etag = answer.headers.get("etag")
    wanted = Headers(scope=scope).get("if-none-match", "")
    tags = [tag.strip().removeprefix("W/") for tag in wanted.split(",")]
    return etag is not None and etag in tags


class WebClient(StaticFiles):
    """``StaticFiles`` answering with the precompressed copies and the cache rules above."""

    def __init__(self, site: Path) -> None:
        super().__init__(directory=site, html=True)
        self.site = site

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        return file_answer(self.site, Path(full_path), scope, status_code)


def mount_web_client(app: FastAPI, site: Path) -> None:
    """Serve ``site`` (the built client): its files, and its page at /t/{id} and /anotador."""
    index = site / "index.html"

    @app.get("/t/{table_id}", include_in_schema=False)
    async def invite(request: Request, table_id: str) -> Response:
        return file_answer(site, index, request.scope)

    @app.get("/anotador", include_in_schema=False)
    async def anotador(request: Request) -> Response:
        return file_answer(site, index, request.scope)

    app.mount("/", WebClient(site), name="web")


def static_dir(settings: Settings) -> Path:
    """The built web client: ``Settings.static_dir``, or the package's own build."""
    if settings.static_dir is not None:
        return Path(settings.static_dir)
    return Path(__file__).resolve().parent.parent.parent / "web" / "dist"


def install(app: FastAPI, site: Path) -> None:
    """Serve the web client built in ``site``, or a page that says it is not built (last: it
    answers every path the routes before it do not)."""
    if (site / "index.html").is_file():
        mount_web_client(app, site)
    else:

        @app.get("/", include_in_schema=False)
        @app.get("/t/{table_id}", include_in_schema=False)
        async def not_built() -> HTMLResponse:
            return HTMLResponse(NOT_BUILT)
