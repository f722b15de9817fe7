"""Fixtures of the browser tests: a real ``truco serve`` and a headless Debian Chromium."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
DIST_INDEX = ROOT / "src" / "truco" / "web" / "dist" / "index.html"
TRUCO = ROOT / ".venv" / "bin" / "truco"
SHOTS = ROOT / "test-output" / "e2e"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
HANG_GUARD = 240.0
"""Seconds after which a test's wait for the server or the page gives up. Every wait returns as
soon as what it waits for is there, so this only stops a hung test: a loaded machine may take
many times as long as a quiet one, and that must not fail a test (pytest's own limit is 300 s)."""
TIMEOUT_MS = 60_000
"""Every Playwright wait (clicks, selectors, navigation) gives up after this long: a hang guard
as well, as each returns when its element is ready."""


def missing_requirements() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (the browser tests use Debian's Chromium, never a download)"
    if not DIST_INDEX.exists():
        return f"{DIST_INDEX} is missing: build it with `npm ci && npm run build` in src/truco/web"
    if not TRUCO.exists():
        return f"{TRUCO} is missing (the venv's `truco` command)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the `playwright` Python package is not installed"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(tmp: Path, **env_extra: str) -> Iterator[str]:
    """A real ``truco serve`` on a free local port, its SQLite file in ``tmp``; yields its URL.

    ``env_extra``: more ``TRUCO_*`` settings (a short grace period, say).
    """
    port = _free_port()
    # Short pauses keep the matches quick; the seed makes the deals repeatable.
    # No Ejercicios pass on its own: a session's server lives long enough for one, whose search
    # would take a core from the tests (test_ejercicios.py runs its pass itself).
    env = {
        **os.environ,
        "TRUCO_BOT_DELAY": "0.05",
        "TRUCO_DEAL_DELAY": "0.2",
        "TRUCO_SEED": "11",
        "TRUCO_EXERCISES_INTERVAL": "0",
    }
    env.update(env_extra)
    env.pop("TRUCO_DATABASE_URL", None)
    log = (tmp / "server.log").open("wb")
    cmd = [
        str(TRUCO),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(tmp / "t.db"),
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=tmp,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + HANG_GUARD  # it stops at once if the server exits
        while True:
            if proc.poll() is not None:
                pytest.fail(f"truco serve exited with {proc.returncode}; see {tmp / 'server.log'}")
            try:
                with urllib.request.urlopen(url + "/api/tables", timeout=1) as res:
                    if res.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                log_file = tmp / "server.log"
                pytest.fail(f"truco serve did not answer in {HANG_GUARD:.0f} s; see {log_file}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=8)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        log.close()


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``truco serve`` for the session (see :func:`serving`)."""
    reason = missing_requirements()
    if reason:
        pytest.skip(reason)
    with serving(tmp_path_factory.mktemp("e2e-server")) as url:
        yield url


# Module scope, not session: while Playwright's sync API is open it keeps an asyncio loop
# running in the main thread, and later tests that call asyncio.run() would fail.
@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def shots() -> Callable[[Any, str], None]:
    """``shots(page, "name")`` saves test-output/e2e/name.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> None:
        page.screenshot(path=str(SHOTS / f"{name}.png"), timeout=TIMEOUT_MS)

    return take


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_page(name, mobile=False, landscape=False)``: a page in a fresh browser context (its
    own storage); ``mobile`` a phone's screen, upright or on its side.

    The test errors at teardown if any of its pages threw an uncaught exception.
    """
    contexts: list[Any] = []
    errors: list[str] = []

    def make(name: str, mobile: bool = False, landscape: bool = False) -> Any:
        if mobile:
            # A phone held upright (390 x 844), or on its side (844 x 390).
            size = {"width": 844, "height": 390} if landscape else {"width": 390, "height": 844}
            ctx = browser.new_context(viewport=size, is_mobile=True, has_touch=True)
        else:
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.set_default_timeout(TIMEOUT_MS)
        ctx.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
        return page

    try:
        yield make
    finally:
        for ctx in contexts:
            ctx.close()
    if errors:
        pytest.fail(f"uncaught errors in the pages: {errors[:10]}")
