"""Players in the browser (docs/players.md): a name claimed in one browser, logged into in
another, and the seat taken back there. Real server, real Chromium, two browser contexts (two
devices: their own cookies and storage)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest

from e2e.conftest import missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_table import seat_info, wait_until  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]
PASSWORD = "dulce de leche 77"


def open_menu(page: Page) -> None:
    """On a phone the header's buttons, the account among them, fold into one menu."""
    toggle = page.locator('header.top [data-cmd="menu"]')
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def test_a_name_claimed_on_one_device_takes_its_seat_back_on_another(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    # The first visit is a player already, with no form: anonymous until she claims a name.
    laptop = new_page("laptop")
    laptop.goto(base_url + "/")
    laptop.locator("#account .account-name", has_text="Anónimo").wait_for()
    cookies = {c["name"]: c for c in laptop.context.cookies()}
    assert cookies["truco_player"]["httpOnly"] and cookies["truco_player"]["sameSite"] == "Lax"

    laptop.click('[data-cmd="account-claim"]')
    laptop.fill('#account-form input[name="name"]', "Ana Laura")
    laptop.fill('#account-form input[name="password"]', PASSWORD)
    shots(laptop, "identity-claim")
    laptop.click('#account-form button[type="submit"]')
    laptop.locator("#account .account-name", has_text="Ana Laura").wait_for()
    assert laptop.locator('[data-cmd="account-logout"]').is_visible()

    # She sits at a table against a bot.
    laptop.fill('input[name="name"]', "Ana Laura")
    laptop.select_option('select[name="players"]', "2")
    laptop.select_option('select[name="seat1"]', "normal")
    laptop.select_option('select[name="turn"]', "0")
    laptop.click('#create button[type="submit"]')
    laptop.wait_for_url("**/t/*")
    table = laptop.url.rsplit("/t/", 1)[1]
    laptop.locator(".board .seat.me").wait_for()

    # A second device: a wrong password first (one message, whatever was wrong), then hers.
    phone = new_page("phone", mobile=True)
    phone.goto(base_url + "/")
    open_menu(phone)
    phone.locator("#account .account-name", has_text="Anónimo").wait_for()
    phone.click('[data-cmd="account-login"]')
    phone.fill('#account-form input[name="name"]', "ana laura")
    phone.fill('#account-form input[name="password"]', "no es esta")
    phone.click('#account-form button[type="submit"]')
    phone.locator(".account-note", has_text="Nombre o contraseña incorrectos.").wait_for()
    phone.fill('#account-form input[name="password"]', PASSWORD)
    phone.click('#account-form button[type="submit"]')
    phone.locator("#account .account-name", has_text="Ana Laura").wait_for(state="attached")
    open_menu(phone)

    # The lobby lists the table where she sits, named by her rival and the score; there, she
    # has her seat, with no token.
    link = phone.locator(f'#my-tables a[href="/t/{table}"]')
    rival = seat_info(base_url, table, 1)["name"]
    link.filter(has_text=re.compile(rf"^Contra {re.escape(rival)} · \d+ a \d+$")).wait_for()
    link.click()
    phone.wait_for_url(f"**/t/{table}")
    phone.locator(".board .seat.me").wait_for()
    phone.locator(".my-card").first.wait_for()
    assert phone.locator('[data-cmd="join"]').count() == 0
    shots(phone, "identity-seat-back-phone")

    # The laptop was replaced and does not fight for the seat; it may take it again.
    laptop.locator('[data-cmd="play-here"]').wait_for()
    time.sleep(1.5)  # long enough for a socket to have come back and taken the seat
    assert phone.locator(".board .seat.me").count() == 1
    assert seat_info(base_url, table, 0)["connected"]
    laptop.click('[data-cmd="play-here"]')
    laptop.locator(".board .seat.me").wait_for()
    phone.locator('[data-cmd="play-here"]').wait_for()

    # Logging out makes the phone a fresh anonymous visitor: a spectator at her table.
    phone.goto(base_url + "/")
    open_menu(phone)
    phone.click('[data-cmd="account-logout"]')
    phone.locator("#account .account-name", has_text="Anónimo").wait_for(state="attached")
    phone.goto(base_url + f"/t/{table}")
    phone.locator(".board").wait_for()
    wait_until(lambda: phone.locator(".spectating").count() > 0, what="the phone only watches")
    assert phone.locator(".board .seat.me").count() == 0
