"""Señas by a bot partner (issue 14, point 1): a person partnered with a bot sees its señas on
the bot's seat, as she sees a person's; the rivals' seats never show one. Real server, real
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

from e2e.test_browser import create_table  # noqa: E402


def test_a_bot_partner_s_senas_show_on_its_seat(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    create_table(ana, base_url, 4, {1: "normal", 2: "normal", 3: "normal"})
    # Seat 2 is Ana's partner: it signs before the first decision of their side.
    bubble = ana.locator('[data-seat="2"] .bubble.sena')
    bubble.first.wait_for(timeout=20_000)
    assert bubble.first.inner_text().startswith("Seña: ")
    assert ana.locator('[data-seat="1"] .bubble.sena, [data-seat="3"] .bubble.sena').count() == 0
    shots(ana, "sena-from-a-bot-partner")


def test_a_sena_sent_is_confirmed_to_its_sender(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    create_table(ana, base_url, 4, {1: "normal", 2: "normal", 3: "normal"})
    ana.locator("details.senas summary").click()
    ana.locator('button.sena[data-sena="ancho-espada"]').click()
    # The server echoes no seña to its sender: she sees hers on her own seat, and in words.
    mine = ana.locator('[data-seat="0"] .bubble.sena')
    mine.first.wait_for(timeout=20_000)
    assert "Ancho de espada" in mine.first.inner_text()
    toast = ana.locator("#toast")
    toast.filter(has_text="Le hiciste la seña a tu compañero: Ancho de espada").wait_for()
    shots(ana, "sena-sent")
