"""The replay in the browser (issue 12): a quick match against a bot played to its end, its
replay opened from the end-of-match panel, stepped forward and back by buttons and keys, a
rival's card face up, and a deep link that reloads where it points. Real server, real Chromium.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from e2e.conftest import missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import seated  # noqa: E402
from e2e.test_table import play_until  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]


def current_step(page: Page) -> int:
    return int(page.locator(".replay-step.current").get_attribute("data-step") or -1)


def at(page: Page, table: str, hand: int, step: int) -> None:
    page.wait_for_url(re.compile(rf"/r/{table}/{hand}/{step}$"))
    page.locator(f'.replay-step.current[data-step="{step}"]').wait_for()


def test_a_finished_match_replays_hand_by_hand_with_every_card_face_up(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page, created = seated(new_page, base_url, {"players": 2, "target": 10}, {"1": "facil"})
    table = created["table"]
    # Ana goes to the mazo whenever she may: a quick match, every hand a few plays long.
    play_until(page, lambda: page.locator(".match-over").count() > 0, 90, prefer=("mazo",))
    page.locator(".match-over .replay-link").click()

    at(page, table, 1, 0)
    page.locator(".replay-screen .board").wait_for()
    assert page.locator(".replay-hands a").count() >= 2
    assert "Repetición" in page.locator(".replay-head h1").inner_text()
    # Every card face up: the bot's three cards are drawn on its plate at the deal.
    rival = page.locator('.board .seat[data-seat="1"] .open-hand svg[data-card]')
    assert rival.count() == 3
    assert page.locator('.board .seat[data-seat="0"] .open-hand svg[data-card]').count() == 3
    shots(page, "replay-desktop")

    # Forward and back: the keys and the buttons, the address following every step.
    page.keyboard.press("ArrowRight")
    at(page, table, 1, 1)
    page.keyboard.press("ArrowLeft")
    at(page, table, 1, 0)
    page.locator('[data-replay="next"]').click()
    at(page, table, 1, 1)
    steps = page.locator(".replay-step").count() - 1
    page.keyboard.press("End")
    at(page, table, 1, steps)
    page.keyboard.press("Home")
    at(page, table, 1, 0)
    page.locator('[data-replay-hand="2"]').click()
    at(page, table, 2, 0)
    # Back from a hand's deal goes to the end of the hand before.
    page.locator('[data-replay="prev"]').click()
    at(page, table, 1, steps)
    share = page.locator(".replay-share input").input_value()
    assert share.endswith(f"/r/{table}/1/{steps}")

    # A deep link reloads where it points.
    page.goto(f"{base_url}/r/{table}/2/1")
    at(page, table, 2, 1)
    assert page.locator(".replay-hands a.current").inner_text().startswith("Mano 2")
    assert page.locator(".board .hand-no").inner_text() == "Mano 2"
    assert page.locator('.board .seat[data-seat="1"] .open-hand svg[data-card]').count() >= 2

    # A link that names the match keeps naming it as one steps.
    page.goto(f"{base_url}/r/{table}/1/0?match=1")
    page.locator('.replay-step.current[data-step="0"]').wait_for()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"/r/{table}/1/1\?match=1$"))

    phone = new_page("Beto", mobile=True)
    phone.goto(f"{base_url}/r/{table}")
    at(phone, table, 1, 0)
    assert phone.locator('.board .seat[data-seat="1"] .open-hand svg[data-card]').count() == 3
    shots(phone, "replay-phone")


def test_during_a_match_a_stranger_is_told_only_players_may_replay(
    base_url: str, new_page: NewPage
) -> None:
    _page, created = seated(new_page, base_url, {"players": 2, "target": 30}, {"1": "facil"})
    stranger = new_page("Caro")
    stranger.goto(f"{base_url}/r/{created['table']}")
    stranger.locator(".replay-problem").wait_for()
    assert "solo sus jugadores" in stranger.locator(".replay-problem").inner_text()
    assert stranger.locator(".open-hand").count() == 0
