"""Security headers on every HTTP answer: pages, static files, the API, its errors and a 500."""

from __future__ import annotations

import re
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from httpx import Response

from server.helpers import serving
from truco.server import Settings
from truco.server.app import create_app
from truco.server.net.headers import CONTENT_SECURITY_POLICY
from truco.server.net.static import NOT_BUILT

DIST = Path(__file__).resolve().parents[2] / "src" / "truco" / "web" / "dist"


def assert_secured(res: Response) -> None:
    csp = res.headers.get("content-security-policy", "")
    directives = dict(
        (part.split(" ", 1) + [""])[:2] for part in (p.strip() for p in csp.split(";")) if part
    )
    assert directives.get("script-src") == "'self'", csp
    assert directives.get("style-src") == "'self'", csp
    assert directives.get("default-src") == "'self'", csp
    assert directives.get("frame-ancestors") == "'none'", csp
    assert directives.get("object-src") == "'none'", csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert res.headers.get("x-content-type-options") == "nosniff"
    assert res.headers.get("referrer-policy") == "same-origin"
    assert res.headers.get("x-frame-options") == "DENY"


def assert_gets_secured(client: TestClient, answers: list[tuple[str, int]]) -> None:
    for path, status in answers:
        res = client.get(path)
        assert res.status_code == status, path
        assert_secured(res)


def test_api_answers_and_errors_carry_the_headers(client: TestClient) -> None:
    assert_secured(client.get("/api/tables"))
    created = client.post("/api/tables", json={"name": "Ana", "bots": {"1": "random"}})
    assert created.status_code == 201
    assert_secured(created)
    table = created.json()["table"]
    assert_gets_secured(
        client,
        [
            (f"/api/tables/{table}", 200),
            # Mid-match the hands are the players' only (issue 16, point 8): a refusal, secured.
            (f"/api/tables/{table}/match.toml", 401),
            ("/api/tables/nope", 404),
            ("/api/nothing/here", 404),
            ("/openapi.json", 200),
        ],
    )
    token = {"Authorization": f"Bearer {created.json()['token']}"}
    own = client.get(f"/api/tables/{table}/match.toml", headers=token)
    assert own.status_code == 200
    assert_secured(own)
    for res in [
        client.post("/api/tables", json={"name": ""}),
        client.post("/api/tables", content=b"{", headers={"content-type": "application/json"}),
        client.delete("/api/tables"),
        client.post(
            "/api/tables", json={"name": "Ana"}, headers={"origin": "https://evil.example"}
        ),
    ]:
        assert res.status_code >= 400
        assert res.json()["code"]
        assert_secured(res)


def test_an_unexpected_error_carries_the_headers(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("boom")

    # A route added after the catch-all /api/{rest} never answers; put it first.
    app.router.routes.insert(0, app.router.routes.pop())
    with TestClient(app, raise_server_exceptions=False) as c:
        res = c.get("/api/boom")
    assert res.status_code == 500
    assert_secured(res)


def test_the_websocket_still_connects(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert '"table_not_found"' in ws.receive_text()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "dist"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text('<!doctype html><script type="module" src="/assets/a.js">')
    (site / "assets" / "a.js").write_text("export {};\n")
    (site / "assets" / "a.css").write_text("body{}\n")
    return site


def test_pages_and_static_files_carry_the_headers(settings: Settings, site: Path) -> None:
    settings = replace(settings, static_dir=str(site))
    with serving(settings) as c:
        assert_gets_secured(
            c,
            [
                ("/", 200),
                ("/t/abc", 200),
                ("/anotador", 200),
                ("/assets/a.js", 200),
                ("/assets/a.css", 200),
                ("/assets/missing.js", 404),
            ],
        )


def test_the_not_built_page_carries_the_headers_and_needs_no_inline_code(
    settings: Settings, tmp_path: Path
) -> None:
    settings = replace(settings, static_dir=str(tmp_path / "empty"))
    with serving(settings) as c:
        for path in ("/", "/t/abc"):
            res = c.get(path)
            assert res.status_code == 200
            assert "not built" in res.text
            assert_secured(res)
    assert not re.search(r"<script|<style|\sstyle=|\son\w+=", NOT_BUILT, re.I)


@pytest.mark.skipif(not (DIST / "index.html").is_file(), reason="the web client is not built")
def test_the_built_pages_hold_no_inline_script_or_style() -> None:
    for page in (DIST / "index.html", DIST / "anotador" / "index.html"):
        text = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text, re.I):
            assert re.search(r"\ssrc=", tag), f"{page}: inline script {tag}"
        assert not re.search(r"<style|\sstyle=|\son\w+=", text, re.I), page
    assert "'self'" in CONTENT_SECURITY_POLICY
