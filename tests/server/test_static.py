"""The built web client over the wire: compressed copies made at build time, cache rules."""

from __future__ import annotations

import gzip
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from server.helpers import serving
from truco.server import Settings
from truco.server.net.static import IMMUTABLE, NO_CACHE

DIST = Path(__file__).resolve().parents[2] / "src" / "truco" / "web" / "dist"
SCRIPT = "export const deck = 40;\n" * 200


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A built client as the build leaves it: hashed files with their .gz (and .br) copies."""
    site = tmp_path / "dist"
    (site / "assets").mkdir(parents=True)
    page = '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>'
    (site / "index.html").write_text(page)
    (site / "index.html.gz").write_bytes(gzip.compress(page.encode()))
    (site / "assets" / "index-abc123.js").write_text(SCRIPT)
    (site / "assets" / "index-abc123.js.gz").write_bytes(gzip.compress(SCRIPT.encode()))
    # Not a real brotli stream (no brotli in Python here): the server sends the copy as it is.
    (site / "assets" / "index-abc123.js.br").write_bytes(b"brotli copy")
    (site / "assets" / "plain-def456.css").write_text("body{}\n")
    return site


@pytest.fixture
def web(settings: Settings, site: Path) -> Iterator[TestClient]:
    with serving(replace(settings, static_dir=str(site))) as c:
        yield c


def test_hashed_files_are_compressed_and_cached_for_good(web: TestClient) -> None:
    res = web.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip"})
    assert res.status_code == 200
    assert res.headers["content-encoding"] == "gzip"
    assert res.headers["cache-control"] == IMMUTABLE
    assert "immutable" in IMMUTABLE and "max-age=31536000" in IMMUTABLE
    assert res.headers["vary"] == "Accept-Encoding"
    assert res.headers["content-type"].startswith("text/javascript")
    assert res.text == SCRIPT  # the client undid the gzip
    assert int(res.headers["content-length"]) < len(SCRIPT) // 10

    best = web.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip, br"})
    assert best.headers["content-encoding"] == "br"
    assert best.headers["content-length"] == str(len(b"brotli copy"))

    plain = web.get("/assets/index-abc123.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.text == SCRIPT
    refused = web.get("/assets/index-abc123.js", headers={"Accept-Encoding": "br;q=0, gzip"})
    assert refused.headers["content-encoding"] == "gzip"

    # A file without copies goes as it is, still cached for good.
    css = web.get("/assets/plain-def456.css", headers={"Accept-Encoding": "gzip, br"})
    assert "content-encoding" not in css.headers
    assert css.headers["cache-control"] == IMMUTABLE


def test_a_relative_static_dir_keeps_the_cache_rules(
    settings: Settings, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(site.parent)
    with serving(replace(settings, static_dir=site.name)) as web:
        assert web.get("/assets/index-abc123.js").headers["cache-control"] == IMMUTABLE
        assert web.get("/").headers["cache-control"] == NO_CACHE


def test_the_page_is_asked_again_every_time(web: TestClient) -> None:
    for path in ("/", "/t/abc", "/anotador"):
        res = web.get(path, headers={"Accept-Encoding": "gzip"})
        assert res.status_code == 200, path
        assert res.headers["cache-control"] == NO_CACHE, path
        assert res.headers["content-encoding"] == "gzip", path
        assert res.headers["content-type"].startswith("text/html"), path
        assert "/assets/index-abc123.js" in res.text
        again = web.get(
            path, headers={"Accept-Encoding": "gzip", "If-None-Match": res.headers["etag"]}
        )
        assert again.status_code == 304, path
    assert web.get("/assets/missing.js").status_code == 404


@pytest.mark.skipif(not (DIST / "index.html").is_file(), reason="the web client is not built")
def test_the_build_leaves_compressed_copies_of_every_script_and_style() -> None:
    assets = [p for p in (DIST / "assets").iterdir() if p.suffix in (".js", ".css")]
    assert assets
    for path in [*assets, DIST / "index.html"]:
        for suffix in (".br", ".gz"):
            copy = path.with_name(path.name + suffix)
            assert copy.is_file(), copy
            assert copy.stat().st_size < path.stat().st_size, copy
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == path.read_bytes()
