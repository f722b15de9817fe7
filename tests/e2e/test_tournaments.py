"""Torneos in Chromium: four people in four browser contexts play a small arena to its end. One
creates it from the lobby's form, the others join from its link; each is sent to his table by
the tournament's page, and the standings there follow the games live (real server, real
browser). A short turn clock plays a person's turn when he lets it run out, so the games end
on their own."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from e2e.conftest import HANG_GUARD, missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]
LONG_MS = int(HANG_GUARD * 1000)


@pytest.fixture(scope="module")
def arena_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(
        tmp_path_factory.mktemp("e2e-torneos"),
        TRUCO_TOURNAMENT_TURN_SECONDS="0.2",
        TRUCO_RATED_TURN_MIN="0.2",
        TRUCO_TOURNAMENT_TICK="0.3",
        TRUCO_BOT_DELAY="0",
        TRUCO_DEAL_DELAY="0",
    ) as url:
        yield url


def test_four_people_play_an_arena_to_its_end(
    arena_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana = new_page("Ana")
    ana.goto(arena_url + "/")
    ana.locator("#torneos summary").click()
    form = ana.locator("#tour-form")
    form.locator('input[name="tour_name"]').fill("Copa e2e")
    form.locator('select[name="tour_kind"]').select_option("arena")
    form.locator('input[name="tour_minutes"]').fill("1")
    form.locator('select[name="tour_target"]').select_option("15")
    form.locator('input[name="tour_starts_in"]').fill("0")
    shots(ana, "torneos-form")
    form.get_by_role("button", name="Crear torneo").click()
    ana.wait_for_url("**/torneo/*")
    link = ana.url
    tid = link.rsplit("/torneo/", 1)[1]
    ana.get_by_role("heading", name="Copa e2e").wait_for()
    others = [new_page(n, mobile=n == "Dora") for n in ("Beto", "Caro", "Dora")]
    for page, name in zip(others, ("Beto", "Caro", "Dora"), strict=True):
        page.goto(arena_url + "/")
        page.evaluate("n => localStorage.setItem('truco:name', n)", name)  # the lobby's name
        page.goto(link)
        page.get_by_role("button", name="Anotarme").click()
        page.get_by_role("button", name="Retirarme").wait_for()
    # Every one of them is sent to a table: the page offers it while he has a game.
    seen_tables = set()
    for page in [ana, *others]:
        go = page.get_by_role("link", name="Ir a tu mesa")
        go.wait_for(timeout=LONG_MS)
        seen_tables.add(go.get_attribute("href"))
    assert len(seen_tables) >= 2
    shots(ana, "torneos-standings")
    # One of them sits at his table: the seat is his by identity.
    beto = others[0]
    beto.get_by_role("link", name="Ir a tu mesa").click()
    beto.wait_for_url("**/t/*")
    beto.locator(".seat.me").wait_for()
    beto.go_back()
    beto.wait_for_url("**/torneo/*")
    # The standings follow the games live, to the end.
    ana.locator(".tour-status", has_text="terminado").first.wait_for(timeout=LONG_MS * 2)
    final = api(arena_url, f"/api/tournaments/{tid}")
    assert final["tournament"]["status"] == "over"
    assert len(final["standings"]) == 4
    assert {"Beto", "Caro", "Dora"} <= {r["name"] for r in final["standings"]}
    games = [g for g in final["games"] if not g["bye"]]
    assert len(games) >= 2 and all(g["winner"] is not None for g in games)
    assert sum(r["score"] for r in final["standings"]) == len(games)
    rows = ana.locator("table.standings tbody tr")
    assert rows.count() == 4
    shots(ana, "torneos-over")
    # The lobby lists it.
    ana.goto(arena_url + "/")
    ana.locator("#tour-list", has_text="Copa e2e").wait_for()
