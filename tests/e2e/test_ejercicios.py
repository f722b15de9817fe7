"""Ejercicios in the browser (docs/players.md): a match played to its end through the real
server, one generation pass (`truco admin ejercicios`, on the server's SQLite file), then the
lobby's link to /ejercicios in Chromium: the position, an answer, the coach's words and the
puzzle rating's move; the stream's next exercise after it. Real server, real Chromium.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from e2e.conftest import TRUCO, missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from server.clusterfix import Socket  # noqa: E402
from server.helpers import step  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of its own (its database is read by the generation pass), and its folder."""
    tmp = tmp_path_factory.mktemp("ejercicios")
    # No periodic pass (the fixture's default): the test runs one itself, from the command line.
    with serving(tmp) as url:
        yield url, tmp


def play_to_the_end(base: str, seed: int) -> str:
    r = httpx.post(
        f"{base}/api/tables",
        json={"name": "Ana", "options": {"target": 15}, "bots": {"1": "random"}},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    table, token = r.json()["table"], r.json()["token"]
    ana = Socket(base, table, token)
    rng = random.Random(seed)
    try:
        while step([ana], rng.choice):
            pass
    finally:
        ana.close()
    assert httpx.get(f"{base}/api/tables/{table}", timeout=10).json()["status"] == "over"
    return str(table)


def test_an_exercise_from_a_finished_match_answered_in_the_browser(
    site: tuple[str, Path], new_page: NewPage, shots: Shots
) -> None:
    base, tmp = site
    play_to_the_end(base, 4)
    # A match left in play gives nothing: its table is not even read.
    r = httpx.post(
        f"{base}/api/tables",
        json={"name": "Beto", "options": {"target": 15}, "bots": {"1": "random"}},
        timeout=10,
    )
    assert r.status_code == 201
    made = subprocess.run(
        [str(TRUCO), "admin", "ejercicios", "--db", str(tmp / "t.db"), "--worlds", "48", "--json"],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    done = json.loads(made.stdout)
    assert done["tables"] == 1 and done["found"] >= 1, done

    page = new_page("ejercicios")
    page.goto(base + "/")
    page.locator(".ejercicios-link a").click()
    page.wait_for_url(f"{base}/ejercicios")
    page.locator(".ej-action").first.wait_for()
    assert "1500" in page.locator(".ej-mine").inner_text()
    assert page.locator(".ej-hand svg.card").count() >= 1
    shots(page, "ejercicios-position")

    page.locator(".ej-action").first.click()
    answer = page.locator(".ej-answer")
    answer.wait_for()
    assert page.locator(".ej-words").inner_text().startswith("Lo mejor es")
    assert page.locator(".ej-options li").count() == page.locator(".ej-action").count()
    change = page.locator(".ej-rating-change").inner_text()
    assert change.startswith("Tu puntaje: 1500 → ")
    after = int(change.rsplit("→", 1)[1])
    assert after != 1500
    assert str(after) in page.locator(".ej-mine").inner_text()
    assert page.locator(".ej-action[disabled]").count() == page.locator(".ej-action").count()
    shots(page, "ejercicios-answer")

    # The same answer from the server, on a reload: the day's exercise keeps it.
    page.reload()
    page.locator(".ej-answer").wait_for()
    assert str(after) in page.locator(".ej-mine").inner_text()

    # The stream: the next exercise is another one, not tried yet (or none left).
    page.locator('nav.tabs [data-ej="siguiente"]').click()
    page.wait_for_function(
        "() => document.querySelector('.ej-action:not([disabled])') || "
        "document.querySelector('.ej-none')"
    )
    if done["found"] == 1:
        assert page.locator(".ej-none").count() == 1
    else:
        assert page.locator(".ej-answer").count() == 0

    # In English: the coach's words in English.
    page.locator('[data-cmd="lang"]').first.click()
    assert page.locator("main.ejercicios h2").inner_text() == "Exercises"
