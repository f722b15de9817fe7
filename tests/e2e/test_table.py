"""A table that keeps faith with its players (issue 11): real server, real Chromium.

Each test shows one promise the table makes to a person sitting at it; screenshots, at a
desktop and at a phone size (390x844), go to test-output/e2e/.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from e2e.conftest import missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]


def api(base_url: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base_url + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=5) as res:
        return json.loads(res.read())


def wait_until(check: Callable[[], bool], seconds: float = 10, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


def seat_info(base_url: str, table: str, seat: int) -> dict[str, Any]:
    info: dict[str, Any] = api(base_url, f"/api/tables/{table}")["seats"][seat]
    return info


@pytest.fixture(scope="module")
def short_grace_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose caretaker takes an absent player's seat after half a second."""
    with serving(tmp_path_factory.mktemp("e2e-grace"), TRUCO_GRACE_SECONDS="0.5") as url:
        yield url


@pytest.mark.timeout(30)
def test_the_create_form_starts_at_four_players_with_bots(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page = new_page("Ana", mobile=True)
    page.goto(base_url + "/")
    assert page.input_value('select[name="players"]') == "4"
    for seat in (1, 2, 3):
        assert page.locator(f'.bot-row[data-row="{seat}"]').is_visible()
        assert page.input_value(f'select[name="seat{seat}"]') != "human"
    assert page.locator('.bot-row[data-row="4"]').is_hidden()
    shots(page, "table-create-form-phone")
    page.fill('input[name="name"]', "Ana")
    page.click('#create button[type="submit"]')
    page.wait_for_url("**/t/*")
    page.locator(".board.players-4 .seat").nth(3).wait_for()
    page.locator(".my-card").nth(2).wait_for()


@pytest.mark.timeout(40)
def test_reopening_the_invite_puts_you_back_in_your_seat(
    short_grace_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana = new_page("Ana", mobile=True)
    ana.goto(short_grace_url + "/")
    ana.fill('input[name="name"]', "Ana")
    ana.select_option('select[name="players"]', "2")
    ana.select_option('select[name="seat1"]', "normal")
    ana.select_option('select[name="turn"]', "0")
    ana.click('#create button[type="submit"]')
    ana.wait_for_url("**/t/*")
    invite = ana.url
    table = invite.rsplit("/t/", 1)[1]
    ana.locator(".my-card").first.wait_for()

    # She closes the tab; the caretaker takes her seat once the grace period is over.
    context = ana.context
    ana.close()
    wait_until(lambda: bool(seat_info(short_grace_url, table, 0).get("replaced")), what="takeover")

    # The same browser opens the invite again: she is back in her seat, not a spectator.
    again = context.new_page()
    again.goto(invite)
    again.locator(".board .seat.me").wait_for()
    assert again.locator(".spectating").count() == 0
    assert again.locator('[data-cmd="join"]').count() == 0
    wait_until(
        lambda: not seat_info(short_grace_url, table, 0).get("replaced"), what="seat given back"
    )
    assert seat_info(short_grace_url, table, 0)["connected"]
    shots(again, "table-seat-back-phone")


@pytest.mark.timeout(30)
def test_two_tabs_of_one_seat_do_not_fight_over_it(base_url: str, new_page: NewPage) -> None:
    created = api(
        base_url,
        "/api/tables",
        {"name": "Ana", "options": {"players": 2}, "bots": {"1": "normal"}},
    )
    first = new_page("Ana")
    first.goto(base_url + "/")
    token = json.dumps({"seat": created["seat"], "token": created["token"]})
    first.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"truco:seat:{created['table']}", token]
    )
    first.goto(base_url + created["invite"])
    first.locator(".board .seat.me").wait_for()
    second = first.context.new_page()
    second.goto(base_url + created["invite"])
    second.locator(".board .seat.me").wait_for()
    # The tab opened last plays; the first one stops and offers to play there again.
    first.locator('[data-cmd="play-here"]').wait_for()
    time.sleep(1.5)  # long enough for a socket to have come back and taken the seat
    assert second.locator(".board .seat.me").count() == 1
    assert second.locator('[data-cmd="play-here"]').count() == 0
    first.click('[data-cmd="play-here"]')
    first.locator(".board .seat.me").wait_for()
    second.locator('[data-cmd="play-here"]').wait_for()
