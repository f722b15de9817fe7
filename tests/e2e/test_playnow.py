"""Jugar ahora in Chromium: two people press "Jugar ahora 1v1" and sit at one table; a person
alone is offered bots and plays with them (real server, real browser)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from e2e.conftest import missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]


@pytest.fixture(scope="module")
def quick_offer_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that offers bots after one second in the queue."""
    with serving(tmp_path_factory.mktemp("e2e-offer"), TRUCO_QUEUE_BOTS_AFTER="1") as url:
        yield url


def test_two_people_press_jugar_ahora_and_meet(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana, beto = new_page("Ana"), new_page("Beto", mobile=True)
    for page, name in ((ana, "Ana"), (beto, "Beto")):
        page.goto(base_url + "/")
        page.fill('#create input[name="name"]', name)
    ana.get_by_role("button", name="Jugar ahora 1v1").click()
    ana.locator(".playnow-wait", has_text="Buscando rivales").wait_for()
    ana.locator('[data-cmd="playnow"][data-do="cancel"]').wait_for()
    shots(ana, "playnow-waiting")
    beto.get_by_role("button", name="Jugar ahora 1v1").click()
    ana.wait_for_url("**/t/*")
    beto.wait_for_url("**/t/*")
    table = ana.url.rsplit("/t/", 1)[1]
    assert beto.url.rsplit("/t/", 1)[1] == table
    # Each sits in her own seat, at a table of two that is already playing.
    for page in (ana, beto):
        page.locator(".board.players-2 .seat.me").wait_for()
        page.locator(".my-card").first.wait_for()
    info = api(base_url, f"/api/tables/{table}")
    assert info["status"] == "playing"
    assert sorted(s["name"] for s in info["seats"]) == ["Ana", "Beto"]
    shots(beto, "playnow-table-phone")


def test_a_person_alone_is_offered_bots(
    quick_offer_url: str, new_page: NewPage, shots: Shots
) -> None:
    page = new_page("Carla")
    page.goto(quick_offer_url + "/")
    page.get_by_role("button", name="Jugar ahora 3v3").click()
    page.locator(".playnow-offer", has_text="¿Jugamos con bots mientras tanto?").wait_for()
    shots(page, "playnow-offer")
    page.locator('[data-cmd="playnow"][data-do="bots"]').click()
    page.wait_for_url("**/t/*")
    page.locator(".board.players-6 .seat.me").wait_for()
    table = page.url.rsplit("/t/", 1)[1]
    kinds = [s["kind"] for s in api(quick_offer_url, f"/api/tables/{table}")["seats"]]
    assert kinds == ["human"] + ["bot"] * 5


def test_cancel_leaves_the_queue(base_url: str, new_page: NewPage) -> None:
    page = new_page("Dora")
    page.goto(base_url + "/")
    page.get_by_role("button", name="Jugar ahora 2v2").click()
    page.locator(".playnow-wait").wait_for()
    page.locator('[data-cmd="playnow"][data-do="cancel"]').click()
    page.get_by_role("button", name="Jugar ahora 2v2").wait_for()
    assert page.locator(".playnow-wait").count() == 0


@pytest.mark.parametrize("mobile", [True, False])
def test_the_three_modes_share_one_row(base_url: str, new_page: NewPage, mobile: bool) -> None:
    """1v1, 2v2 and 3v3 side by side, edge to edge in their row (on a phone the 3v3 once wrapped
    onto a row of its own, pushed off the left edge by a margin)."""
    page = new_page("Eli", mobile=mobile)
    page.goto(base_url + "/")
    row = page.locator(".playnow-modes")
    row.locator("button").first.wait_for()
    edge = row.bounding_box()
    boxes = [b.bounding_box() for b in row.locator("button").all()]
    assert edge is not None and len(boxes) == 3 and all(b is not None for b in boxes)
    tops = {round(b["y"]) for b in boxes if b}
    assert len(tops) == 1, boxes
    first, last = boxes[0], boxes[-1]
    assert first and last
    assert abs(first["x"] - edge["x"]) <= 1
    assert abs(last["x"] + last["width"] - (edge["x"] + edge["width"])) <= 1
