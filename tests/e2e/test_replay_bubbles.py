"""The replay's bubbles are readable (issue 25, point 5): every bubble on the replay's board,
a call's, an answer's or a declaration's, has text darker than its background (a contrast of
at least 4.5:1, WCAG AA), where the replay's screen draws white text and the bubble was white
on white. Real server, real Chromium.
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

CONTRAST_JS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  return [...document.querySelectorAll('.replay-screen .board .bubble')].map((el) => {
    const s = getComputedStyle(el);
    const a = lum(rgb(s.color)), b = lum(rgb(s.backgroundColor));
    return { text: el.textContent, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  });
}"""


@pytest.mark.timeout(150)
def test_the_replays_bubbles_are_dark_on_light(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page, created = seated(new_page, base_url, {"players": 2, "target": 10}, {"1": "facil"})
    table = created["table"]
    # Calls and answers make bubbles: she calls truco and envido whenever she may.
    prefer = ("envido", "truco", "quiero", "mazo")
    play_until(page, lambda: page.locator(".match-over").count() > 0, 120, prefer=prefer)
    page.locator(".match-over .replay-link").click()
    page.wait_for_url(re.compile(rf"/r/{table}/1/0$"))
    page.locator(".replay-screen .board").wait_for()
    seen: list[dict[str, object]] = []
    hands = page.locator(".replay-hands a").count()
    for hand in range(1, hands + 1):
        page.goto(f"{base_url}/r/{table}/{hand}/0")
        page.locator('.replay-step.current[data-step="0"]').wait_for()
        steps = page.locator(".replay-step").count() - 1
        for step in range(1, steps + 1):
            page.keyboard.press("ArrowRight")
            page.locator(f'.replay-step.current[data-step="{step}"]').wait_for()
            found = page.evaluate(CONTRAST_JS)
            if found and not seen:
                shots(page, "replay-bubbles")
            seen.extend(found)
        if len(seen) >= 3:
            break
    assert seen, "no bubble on the replay's board"
    unreadable = [b for b in seen if float(str(b["ratio"])) < 4.5]
    assert not unreadable, unreadable
