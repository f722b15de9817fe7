"""The Pista (issue 13): at a table of one person against bots she may ask, on her turn, for the
expert's choice; at a table with another person there is no such button. Real server, real
Chromium; screenshots go to test-output/e2e/.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from e2e.conftest import missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api, create_table  # noqa: E402

LEGAL_JS = """() => [...document.querySelectorAll('[data-act]')]
  .filter((e) => !e.disabled).map((e) => e.getAttribute('data-act'))"""
"""The actions the page offers: a button for each legal action of the seat's decision."""


def test_pista_suggests_one_of_the_legal_actions_against_bots(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    table = create_table(ana, base_url, 2, {1: "experto"})
    assert api(base_url, f"/api/tables/{table}")["pista"] is True
    # The button shows up on her turn (the bot may be mano and play first).
    button = ana.locator('[data-cmd="pista"]')
    button.wait_for()
    assert ana.locator(".turn.mine").count() == 1
    legal = ana.evaluate(LEGAL_JS)
    button.click()
    hint = ana.locator(".pista-hint")
    hint.wait_for()
    assert hint.inner_text().startswith("Pista: ")
    suggested = ana.locator(".suggested[data-act]")
    assert suggested.count() == 1
    assert suggested.get_attribute("data-act") in legal
    shots(ana, "pista-suggested")


def test_no_pista_at_a_table_with_two_people(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    beto = new_page("Beto")
    table = create_table(ana, base_url, 2, {1: "human"})
    beto.goto(ana.input_value("#invite"))
    beto.fill("#join-name", "Beto")
    beto.click('[data-cmd="join"]')
    ana.locator(".my-card").nth(2).wait_for()
    beto.locator(".my-card").nth(2).wait_for()
    # Whoever is to act sees the actions, and no Pista.
    ana.locator(".turn.mine, .turn").first.wait_for()
    turn = ana if ana.locator(".turn.mine").count() else beto
    turn.locator(".turn.mine").wait_for()
    assert turn.evaluate(LEGAL_JS)
    assert ana.locator('[data-cmd="pista"]').count() == 0
    assert beto.locator('[data-cmd="pista"]').count() == 0
    assert api(base_url, f"/api/tables/{table}")["pista"] is False
    shots(turn, "pista-none-between-people")
