"""A rated 1v1 between two people, end to end: a real server, two Chromium contexts (two
players, each with his own identity cookie), the create form, the table, the end-of-match
panel, the ranking, the player page and the replay (docs/players.md)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from e2e.conftest import missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_table import step  # noqa: E402

NewPage = Callable[..., Page]
Shots = Callable[[Page, str], None]
CHANGE = re.compile(r"([+−±])(\d+) → (\d+)")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own: the ranking it shows holds only this test's players."""
    with serving(Path(tmp_path_factory.mktemp("e2e-rated"))) as url:
        yield url


def claim(page: Page, base_url: str, name: str) -> None:
    """The player of this browser context claims ``name`` (identity's API, with the context's
    identity cookie)."""
    page.goto(base_url + "/")
    r = page.request.post(
        base_url + "/api/me/name",
        data={"name": name, "password": f"clave de {name} 2026"},
        headers={"Origin": base_url},
    )
    assert r.ok, r.text()
    assert page.request.get(base_url + "/api/me").json()["name"] == name


def change_of(page: Page, name: str) -> tuple[int, int]:
    """(delta, rating after) of ``name``'s line in the end-of-match panel."""
    line = " ".join(
        (page.locator(".rated-changes li", has_text=name).first.text_content() or "").split()
    )
    found = CHANGE.search(line)
    assert found, line
    sign = -1 if found.group(1) == "−" else 1
    return sign * int(found.group(2)), int(found.group(3))


def test_two_players_play_a_rated_match_and_see_their_ratings_move(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana, beto = new_page("Ana"), new_page("Beto")
    claim(ana, base_url, "Ana")
    claim(beto, base_url, "Beto")

    # Ana creates a rated 1v1 to 10 with the form: a person in the other seat.
    ana.goto(base_url + "/")
    form = ana.locator("#create")
    form.locator('select[name="players"]').select_option("2")
    form.locator('select[name="target"]').select_option("10")
    form.locator('select[name="seat1"]').select_option("human")
    form.locator('input[name="rated"]').check()
    form.locator('button[type="submit"]').click()
    ana.wait_for_url(re.compile(r"/t/[^/]+$"))
    ana.locator(".rated-note").wait_for()
    invite = ana.locator("#invite").input_value()

    beto.goto(invite)
    beto.locator('[data-cmd="join"]').first.click()
    for page in (ana, beto):
        page.locator(".board .seat.me").wait_for()
    # At a rated table each sits under his claimed name.
    assert "Ana" in beto.locator(".board").inner_text()

    # They play it out: whoever is to act goes to the mazo (one click ends the hand).
    deadline = time.monotonic() + 240  # a hang guard: it ends as soon as the match does
    while not all(p.locator(".match-over .rated-changes").count() for p in (ana, beto)):
        assert time.monotonic() < deadline, "the rated match did not end"
        if not any([step(ana, prefer=("mazo",)), step(beto, prefer=("mazo",))]):
            time.sleep(0.05)

    seen = {
        who: {n: change_of(p, n) for n in ("Ana", "Beto")}
        for who, p in (("ana", ana), ("beto", beto))
    }
    assert seen["ana"] == seen["beto"]  # both see both changes, the same
    (ana_delta, ana_after), (beto_delta, beto_after) = seen["ana"]["Ana"], seen["ana"]["Beto"]
    assert sorted([ana_delta > 0, beto_delta > 0]) == [False, True]  # one won, one lost
    assert ana_after == 1000 + ana_delta and beto_after == 1000 + beto_delta
    shots(ana, "rated-end-desktop")

    # The ranking shows the new numbers, the winner first.
    beto.goto(base_url + "/ranking?mode=1v1")
    rows = beto.locator("table.ranking tbody tr")
    rows.first.wait_for()
    ranked = [rows.nth(i).inner_text().split("\t") for i in range(rows.count())]
    by_name = {r[1].strip(): r[2].strip() for r in ranked}
    assert by_name == {"Ana": f"{ana_after}?", "Beto": f"{beto_after}?"}
    assert ranked[0][1].strip() == ("Ana" if ana_delta > 0 else "Beto")
    shots(beto, "rated-ranking")

    # The week's ranking (issue 29, point 4): the match just played is in it, the winner first
    # by the points won, each with his wins out of his matches of the week.
    beto.locator("nav.periods a", has_text="Esta semana").click()
    beto.wait_for_url(re.compile(r"/ranking\?mode=1v1&period=week$"))
    beto.locator("table.ranking th", has_text="Sumó").wait_for()
    week = beto.locator("table.ranking tbody tr")
    weekly = [week.nth(i).inner_text().split("\t") for i in range(week.count())]
    winner = "Ana" if ana_delta > 0 else "Beto"
    assert [r[1].strip() for r in weekly] == [winner, "Beto" if winner == "Ana" else "Ana"]
    by_week = {r[1].strip(): (r[2].strip(), r[3].strip()) for r in weekly}
    ana_won = "1/1" if ana_delta > 0 else "0/1"
    assert by_week["Ana"] == (f"{ana_delta:+d}".replace("-", "−"), ana_won)
    shots(beto, "rated-ranking-week")
    beto.goto(base_url + "/ranking?mode=1v1")

    # Ana's page (a click from the ranking): her rating, its chart, the match, and its replay.
    beto.locator("table.ranking a", has_text="Ana").click()
    beto.wait_for_url(re.compile(r"/jugador/Ana$"))
    beto.locator(".mode-rating svg.rating-chart polyline").wait_for()
    assert f"{ana_after}?" in beto.locator(".mode-rating").first.inner_text()
    shots(beto, "rated-player")
    match_row = beto.locator("table.matches tbody tr").first
    assert "Beto" in match_row.inner_text()
    match_row.locator("a", has_text="repetición").click()
    beto.wait_for_url(re.compile(r"/r/[^/?]+(/\d+/\d+)?\?match=1$"))
    beto.locator(".replay-screen .board").wait_for()
    shots(beto, "rated-replay")
