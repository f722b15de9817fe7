"""The coach in the browser (issue 13): a hand played against a bot, "Analizar" in the hand's
summary opens the hand's replay in a tab of its own with each of the player's decisions marked
(la mejor / imprecisión / error / error grave) and a bar chart of the alternatives; during the
match without the face-up line, after it with it. Real server, real Chromium.
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
from e2e.test_table import play_until, summary_shown  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]
LABELS = {"la mejor", "imprecisión", "error", "error grave"}


def analysed(page: Page, link: str, table: str, hand: int) -> Page:
    """Press "Analizar" (``link``): the replay of ``hand`` opens in a new tab and goes to the
    player's first decision once the analysis is in; the tab."""
    with page.context.expect_page() as opened:
        page.locator(link).click()
    tab = opened.value
    tab.wait_for_url(re.compile(rf"/r/{table}/{hand}/\d+$"))
    tab.locator(".analysis .an-decision").wait_for()
    return tab


def check_marks(tab: Page) -> None:
    """Each decision marked beside its play with its label; the one on screen in full, with a
    bar per alternative (the played one and the best marked)."""
    marks = tab.locator(".replay-step .an-mark")
    assert marks.count() >= 1
    assert {m.inner_text() for m in marks.all()} <= LABELS
    # The step on screen is a decision: its own mark is beside it.
    assert tab.locator(".replay-step.current .an-mark").count() == 1
    panel = tab.locator(".an-decision")
    assert panel.locator(".an-head .an-mark").inner_text() in LABELS
    bars = panel.locator(".an-bar")
    assert bars.count() >= 2
    assert panel.locator(".an-bar svg rect").count() == bars.count()
    assert panel.locator(".an-bar.played").count() == 1
    assert panel.locator(".an-bar.best").count() >= 1


def test_analizar_after_a_hand_marks_each_decision_during_the_match(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page, created = seated(new_page, base_url, {"players": 2, "target": 30}, {"1": "normal"})
    table = created["table"]
    play_until(page, summary_shown(page), 60)
    tab = analysed(page, ".summary .analyse-link", table, 1)
    check_marks(tab)
    # The match goes on: the line with every card face up waits for its end.
    assert "cuando termine el partido" in tab.locator(".an-face-up").inner_text()
    assert "Ana" in tab.locator(".board .seat.me").inner_text()
    shots(tab, "analysis-during-match")
    # Another of her decisions, from the list of the hand's decisions.
    items = tab.locator(".an-list a")
    if items.count() > 1:
        step = items.nth(1).get_attribute("data-replay-step")
        items.nth(1).click()
        tab.wait_for_url(re.compile(rf"/r/{table}/1/{step}$"))
        tab.locator(f'.replay-step.current[data-step="{step}"] .an-mark').wait_for()
    # The table, in the first tab, played on meanwhile and is still hers.
    assert page.locator(".board .seat.me").count() == 1


def test_analizar_after_the_match_adds_the_face_up_line(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page, created = seated(new_page, base_url, {"players": 2, "target": 10}, {"1": "facil"})
    table = created["table"]
    # Ana goes to the mazo whenever she may: a quick match.
    play_until(page, lambda: page.locator(".match-over").count() > 0, 150, prefer=("mazo",))
    tab = analysed(page, ".match-over .analyse-link", table, last_hand(page))
    check_marks(tab)
    assert "A la vista" in tab.locator(".an-face-up").inner_text()
    shots(tab, "analysis-after-match")


def last_hand(page: Page) -> int:
    """The hand the end-of-match "Analizar" opens: the match's last."""
    href = page.locator(".match-over .analyse-link").get_attribute("href") or ""
    found = re.search(r"/r/[^/]+/(\d+)/0\?analizar$", href)
    assert found, href
    return int(found.group(1))
