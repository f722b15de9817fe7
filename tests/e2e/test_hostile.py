"""Hostile names in a real browser: at a pata de gallo table (whose scoreboard draws each
player's fósforos with the player's name) names made of markup stay text for the players and
for a spectator, and the pages run under the server's Content-Security-Policy without a
violation. Screenshots go to test-output/e2e/hostile-*.png.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.conftest import missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api  # noqa: E402

CREATOR = "<iframe onload=alert(1)>"
JOINER = '"><svg onload=alert(2)>'

INJECTED_JS = """() => {
  const injected = [...document.querySelectorAll('iframe, img, script:not([src]), object, embed')]
    .map((e) => e.outerHTML.slice(0, 80));
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.attributes) {
      if (a.name.startsWith('on')) injected.push(`${e.tagName} ${a.name}`);
    }
  }
  return injected;
}"""
"""Elements and attributes that only an injection could have put on the page."""


def watch(page: Page) -> tuple[list[str], list[str]]:
    """The dialogs a page opens (an alert is a script that ran) and its CSP complaints."""
    dialogs: list[str] = []
    csp: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on(
        "console",
        lambda msg: csp.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return dialogs, csp


def test_hostile_names_at_a_pata_de_gallo_table_stay_text(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    created = api(
        base_url,
        "/api/tables",
        {
            "name": CREATOR,
            "options": {"variant": "pata_de_gallo", "target": 15},
            "bots": {"1": "random"},
        },
    )
    # A person takes the last seat through the page, typing a hostile name of their own.
    player = new_page("Player")
    player_dialogs, player_csp = watch(player)
    player.goto(base_url + created["invite"])
    player.fill("#join-name", JOINER)
    player.locator('[data-cmd="join"][data-seat="2"]').click()
    player.locator(".board .seat").nth(2).wait_for()
    player.locator(".scoreboard").wait_for()
    # A spectator watches the same table.
    watcher = new_page("Watcher")
    watcher_dialogs, watcher_csp = watch(watcher)
    watcher.goto(base_url + created["invite"])
    watcher.locator(".spectating").wait_for()
    watcher.locator(".board .seat").nth(2).wait_for()
    watcher.locator(".scoreboard").wait_for()
    shots(player, "hostile-player")
    shots(watcher, "hostile-spectator")
    for page, dialogs, csp in (
        (player, player_dialogs, player_csp),
        (watcher, watcher_dialogs, watcher_csp),
    ):
        assert page.evaluate(INJECTED_JS) == []
        # The names are on the screen as the text they are: in the scoreboard and in the
        # fósforos' label, on the board's plates.
        names = page.locator(".scoreboard").text_content() or ""
        assert CREATOR in names
        assert JOINER in names
        labels = page.eval_on_selector_all(
            ".scoreboard svg.fosforos", "(svgs) => svgs.map((s) => s.getAttribute('aria-label'))"
        )
        assert any(CREATOR in (label or "") for label in labels)
        assert JOINER in (page.locator(".board").text_content() or "")
        # A round trip to the page lets anything that was going to run, run.
        page.evaluate("() => new Promise((done) => setTimeout(done, 0))")
        assert dialogs == []
        assert csp == []
    # The lobby lists a waiting table with a hostile name, as text too.
    waiting = api(base_url, "/api/tables", {"name": CREATOR, "options": {"players": 2}})
    lobby = new_page("Lobby")
    lobby_dialogs, lobby_csp = watch(lobby)
    lobby.goto(base_url + "/")
    lobby.locator(f'#lobby a[href="/t/{waiting["table"]}"]').wait_for()
    assert lobby.evaluate(INJECTED_JS) == []
    assert CREATOR in (lobby.locator("#lobby").text_content() or "")
    assert lobby_dialogs == []
    assert lobby_csp == []


def test_the_anotador_keeps_a_hostile_side_name_as_text(
    base_url: str, new_page: Callable[..., Page]
) -> None:
    page = new_page("Anotador")
    dialogs, csp = watch(page)
    page.goto(base_url + "/anotador")
    page.fill('[data-an-name="0"]', CREATOR)
    page.locator('[data-an-name="1"]').focus()
    page.locator('[data-an="add"][data-side="0"][data-points="1"]').click()
    page.locator('.an-side[data-side="0"] .an-score[data-score="1"]').wait_for()
    assert page.evaluate(INJECTED_JS) == []
    label = page.locator('.an-side[data-side="0"] svg.fosforos').get_attribute("aria-label")
    assert label == f"{CREATOR}: 1"
    assert dialogs == []
    assert csp == []
