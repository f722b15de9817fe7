"""The variants in the browser: a person and bots of the easiest level play pata de gallo and
destantado (three seats) and pica-pica (six) to the end of a match, through the lobby's form.

The bots are Fácil (``simple``; ``random`` is never offered to people); the matches are short ones
(target 10 or 15, 3 porotos, pica-pica from the first point). A match that ends before it showed
what the test is about (the person's discard as the pie, a round of 1v1 hands) goes on with a
rematch. Screenshots go to test-output/e2e/variant-*.png.
"""

from __future__ import annotations

import contextlib
import random
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from e2e.conftest import HANG_GUARD, missing_requirements

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api, choose, click_act  # noqa: E402
from truco.bots.personas import persona  # noqa: E402

STATE_JS = """() => ({
  over: document.querySelector('.match-over') !== null,
  rematch: document.querySelector('.match-over [data-cmd="rematch"]:not([disabled])') !== null,
  summary: document.querySelector('[data-cmd="close-summary"]') !== null,
  acts: [...document.querySelectorAll('[data-act]')]
    .filter((e) => !e.disabled)
    .map((e) => e.getAttribute('data-act')),
  call: document.querySelector('.waiting-call')?.textContent ?? '',
  hand: document.querySelector('.board .hand-no')?.textContent ?? '',
  pica: document.querySelector('.board .pica-label.pica')?.textContent ?? null,
  everyone: document.querySelector('.board .pica-label:not(.pica)') !== null,
  out: document.querySelectorAll('.board .seat.sitting-out').length,
  seats: document.querySelectorAll('.board .seat').length,
  bets: document.querySelectorAll('.board .badge.bet').length,
  pie: document.querySelector('.board .seat.pie')?.getAttribute('data-seat') ?? null,
  discardHint: document.querySelector('.discard-hint') !== null,
  myCards: document.querySelectorAll('.my-card').length,
})"""
"""What the person sees, the variants' marks included."""


def create_variant(
    page: Page, base_url: str, variant: str, seats: int, fields: dict[str, str]
) -> str:
    """Create a table of ``variant`` from the home form, every other seat a Fácil bot."""
    page.goto(base_url + "/")
    page.fill('input[name="name"]', "Ana")
    page.select_option('select[name="variant"]', variant)
    # The form shows only the options of the variant, and the seats it is played with.
    page.locator(f'.bot-row[data-row="{seats - 1}"]').wait_for()
    if seats < 6:
        assert page.locator(f'.bot-row[data-row="{seats}"]').is_hidden()
    assert page.locator('select[name="players"]').is_hidden()
    for name, value in fields.items():
        page.select_option(f'select[name="{name}"]', value)
    page.select_option('select[name="turn"]', "0")
    for seat in range(1, seats):
        page.select_option(f'select[name="seat{seat}"]', "facil")
    page.click('#create button[type="submit"]')
    page.wait_for_url("**/t/*")
    return page.url.rsplit("/t/", 1)[1]


def pick(state: dict[str, Any], rng: random.Random) -> str:
    """The pie discards at random; otherwise the plain player of the 1v1 test."""
    discards: list[str] = [a for a in state["acts"] if a.startswith("discard ")]
    if discards:
        return rng.choice(discards)
    chosen: str = choose(state, rng)
    return chosen


def play(
    page: Page,
    table: tuple[str, str],
    rng: random.Random,
    seconds: float,
    done: Callable[[int], bool],
    watch: Callable[[dict[str, Any]], None],
) -> int:
    """Play until a match is over and ``done(matches)``; a rematch when it is not. Every state
    seen goes to ``watch``. Returns the actions the person took."""
    base_url, table_id = table
    acted = matches = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = page.evaluate(STATE_JS)
        watch(state)
        if state["over"]:
            matches += 1
            if done(matches):
                return acted
            page.click('.match-over [data-cmd="rematch"]')
            # The bots agree at once: the next match starts (it may even end before the page
            # is looked at again, so the table's match counter says when).
            while api(base_url, f"/api/tables/{table_id}")["match"] == matches:
                assert time.monotonic() < deadline, "the rematch did not start"
                time.sleep(0.05)
            page.wait_for_function(
                "() => !document.querySelector('.match-over [data-cmd=\"rematch\"][disabled]')"
            )
        elif state["summary"]:
            with contextlib.suppress(PlaywrightError):
                page.click('[data-cmd="close-summary"]', timeout=1_000)
        elif state["acts"] and click_act(page, pick(state, rng)):
            acted += 1
        else:
            time.sleep(0.03)
    raise AssertionError(f"not done within {seconds} s: {matches=} {acted=}")


def scores(page: Page, where: str = ".match-over") -> list[int]:
    """The per-player scores of the boards in ``where``, in seat order."""
    boards = page.locator(f"{where} .scoreboard.players .player")
    out: dict[int, int] = {}
    for i in range(boards.count()):
        board = boards.nth(i)
        seat = int(board.get_attribute("data-seat") or -1)
        out[seat] = int(board.locator(".team-score").get_attribute("data-score") or -1)
    return [out[s] for s in sorted(out)]


def winner_seat(page: Page) -> int:
    """The seat whose board the end-of-match modal marks as the winner's."""
    winner = page.locator(".match-over .scoreboard.players .player.winner")
    assert winner.count() == 1
    return int(winner.get_attribute("data-seat") or -1)


def assert_title(page: Page, winner: int) -> None:
    """The modal's title names the winner: the person, or a bot by its persona."""
    title = page.locator(".match-over .big").text_content() or ""
    table = page.url.rsplit("/t/", 1)[1]
    name = persona("facil", winner, table)
    assert title == ("¡Ganaste!" if winner == 0 else f"Ganó {name}"), title


def download(base_url: str, path: str) -> str:
    with urllib.request.urlopen(base_url + path, timeout=5) as res:
        assert res.status == 200
        text: str = res.read().decode()
        return text


def test_pata_de_gallo_a_person_and_two_bots(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    table = create_variant(ana, base_url, "pata_de_gallo", 3, {"target": "10"})
    ana.locator(".board .seat").nth(2).wait_for()
    ana.locator(".scoreboard.players .player").nth(2).wait_for()
    shots(ana, "variant-gallo-start")
    seen: dict[str, Any] = {"discarded": 0, "pies": set(), "shot": False}

    def watch(state: dict[str, Any]) -> None:
        assert state["seats"] == 3
        if state["pie"] is not None:
            seen["pies"].add(state["pie"])
        if state["discardHint"]:
            # The pie holds four cards and may do nothing but put one away.
            # (No button at all while his discard waits for its ack.)
            assert state["myCards"] == 4, state
            assert all(a.startswith("discard ") for a in state["acts"]), state
            seen["discarded"] += len(state["acts"]) == 4
            if not seen["shot"]:
                seen["shot"] = True
                shots(ana, "variant-gallo-pie-discards")

    acted = play(
        ana, (base_url, table), random.Random(6), HANG_GUARD, lambda _: seen["discarded"] > 0, watch
    )
    shots(ana, "variant-gallo-match-over")
    final = scores(ana)
    assert len(final) == 3 and max(final) >= 10, final
    # The winner is a player (the first to the target), named in the title.
    winner = winner_seat(ana)
    assert final[winner] == max(final) >= 10, (winner, final)
    assert_title(ana, winner)
    assert seen["pies"] >= {"0", "2"}, seen  # the pie changes every hand, the person's turn too
    assert acted >= 2
    info = api(base_url, f"/api/tables/{table}")
    assert info["options"]["variant"] == "pata_de_gallo" and len(info["seats"]) == 3
    assert "discard" in download(base_url, f"/api/tables/{table}/match.toml")


def test_destantado_a_person_and_two_bots(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    table = create_variant(ana, base_url, "destantado", 3, {"porotos": "3"})
    ana.locator(".scoreboard.players .porotos").nth(2).wait_for()
    assert ana.locator(".scoreboard.players .poroto").count() == 9  # three piles of three
    shots(ana, "variant-destantado-start")
    seen: dict[str, int] = {"bets": 0}

    def watch(state: dict[str, Any]) -> None:
        assert state["seats"] == 3 and not state["discardHint"]
        if state["bets"]:
            seen["bets"] += 1
            if seen["bets"] == 1:
                shots(ana, "variant-destantado-in-the-bet")

    acted = play(ana, (base_url, table), random.Random(7), HANG_GUARD, lambda _: True, watch)
    shots(ana, "variant-destantado-match-over")
    final = scores(ana)
    assert len(final) == 3 and min(final) == 0, final  # the winner passed all his porotos
    winner = winner_seat(ana)
    assert final[winner] == 0, (winner, final)
    assert_title(ana, winner)
    assert seen["bets"] > 0 and acted > 0
    log = ana.locator("#log-lines").text_content() or ""
    assert " pasa " in log, log[-500:]


def test_pica_pica_a_person_and_five_bots(
    base_url: str, new_page: Callable[..., Page], shots: Callable[[Page, str], None]
) -> None:
    ana = new_page("Ana")
    table = create_variant(ana, base_url, "pica_pica", 6, {"target": "15", "pica_from": "1"})
    ana.locator(".board .seat").nth(5).wait_for()
    shots(ana, "variant-pica-start")
    seen: dict[str, Any] = {"picas": set(), "everyone": False, "shot": False}

    def watch(state: dict[str, Any]) -> None:
        assert state["seats"] == 6
        if state["pica"] is not None:
            # A 1v1 hand: the four who sit it out are greyed.
            assert state["out"] == 4, state
            seen["picas"].add(state["pica"])
            if not seen["shot"] and state["myCards"] == 0:
                seen["shot"] = True
                shots(ana, "variant-pica-1v1-watching")
            if state["acts"] and "pica-mine" not in seen:
                seen["pica-mine"] = True
                shots(ana, "variant-pica-1v1-playing")
        elif state["everyone"]:
            assert state["out"] == 0, state
            seen["everyone"] = True

    def enough(_: int) -> bool:
        return len(seen["picas"]) == 3

    play(ana, (base_url, table), random.Random(8), HANG_GUARD, enough, watch)
    shots(ana, "variant-pica-match-over")
    assert ana.locator(".match-over .scoreboard .team").count() == 2  # scores per team
    assert len(seen["picas"]) == 3, seen  # a whole round of 1v1 hands: 1, 2 and 3 of 3
    assert seen["everyone"], seen  # and hands of everyone (the first one at least)
    info = api(base_url, f"/api/tables/{table}")
    assert info["status"] == "over" and len(info["seats"]) == 6
    text = download(base_url, f"/api/tables/{table}/match.toml")
    assert 'variant = "pica_pica"' in text and "pica = " in text
