"""The create-table form starts at the site's usual table: two teams of two, bots in the empty
seats (issue 17; ``001_*`` describes the game as "Two teams of two")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from e2e.conftest import missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402


def test_create_form_starts_at_two_teams_of_two_with_bots(
    base_url: str, new_page: Callable[..., Page]
) -> None:
    page = new_page("Ana")
    page.goto(base_url + "/")
    assert page.locator('select[name="players"]').input_value() == "4"
    for seat in (1, 2, 3):
        row = page.locator(f'.bot-row[data-row="{seat}"]')
        assert row.is_visible()
        assert page.locator(f'select[name="seat{seat}"]').input_value() == "normal"
    page.click('#create button[type="submit"]')
    page.wait_for_url("**/t/*")
    page.locator(".scoreboard").first.wait_for()


def test_a_person_alone_with_bots_has_no_turn_clock_unless_she_sets_one(
    base_url: str, new_page: Callable[..., Page]
) -> None:
    """Issue 11, point 1: a table of one person against bots has no turn clock unless its
    creator sets one; with another person seated the clock starts at a minute."""
    page = new_page("Ana")
    page.goto(base_url + "/")
    turn = page.locator('select[name="turn"]')
    assert turn.input_value() == "0"  # every other seat a bot
    page.select_option('select[name="seat2"]', "human")
    assert turn.input_value() == "60"
    page.select_option('select[name="seat2"]', "normal")
    assert turn.input_value() == "0"
    # Once she picks a clock herself, the seats no longer change it.
    page.select_option('select[name="turn"]', "30")
    page.select_option('select[name="seat2"]', "human")
    page.select_option('select[name="seat2"]', "facil")
    assert turn.input_value() == "30"
    page.select_option('select[name="turn"]', "0")
    page.click('#create button[type="submit"]')
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/t/", 1)[1]
    info = page.request.get(f"{base_url}/api/tables/{table}").json()
    assert info["turn_seconds"] is None
