"""Moving around the web client in one tab: the lobby, the anotador, a table and back, and the
language switch on each page (the router, the input and the page's header working together)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from e2e.conftest import missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api  # noqa: E402


def test_lobby_anotador_table_and_back_in_both_languages(
    base_url: str, new_page: Callable[..., Page]
) -> None:
    created = api(base_url, "/api/tables", {"name": "Ana", "options": {"players": 2}})
    page = new_page("Visitor")
    page.goto(base_url + "/")
    page.locator("#create").wait_for()
    page.locator(".card-panel h2", has_text="Nueva mesa").wait_for()
    page.click('[data-cmd="lang"]')
    page.locator(".card-panel h2", has_text="New table").wait_for()
    page.click('[data-cmd="lang"]')
    page.locator(".card-panel h2", has_text="Nueva mesa").wait_for()
    # The anotador by its link, and home again by the brand.
    page.click('a[data-cmd="anotador"]')
    page.wait_for_url("**/anotador")
    page.locator("main.anotador").wait_for()
    page.click('[data-cmd="lang"]')
    page.locator("main.anotador h1", has_text="Score keeper").wait_for()
    page.click('[data-cmd="lang"]')
    page.click('a[data-cmd="home"]')
    page.wait_for_url(base_url + "/")
    page.locator("#create").wait_for()
    # A table from the lobby's list; the language switch keeps its connection.
    page.locator(f'#lobby a[href="/t/{created["table"]}"]').click()
    page.wait_for_url(f"**/t/{created['table']}")
    page.locator('[data-cmd="join"][data-seat="1"]').wait_for()
    page.click('[data-cmd="lang"]')
    page.locator('[data-cmd="join"][data-seat="1"]', has_text="Sit").wait_for()
    page.locator("#invite").wait_for()
    # Back, as the browser's button does, and forward again.
    page.go_back()
    page.locator("#create").wait_for()
    page.go_forward()
    page.locator('[data-cmd="join"][data-seat="1"]').wait_for()
