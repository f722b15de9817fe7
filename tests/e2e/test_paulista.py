"""Truco Paulista in the browser (real server, real Chromium): a match to the end against a bot,
made from the lobby's form, and two people in two browser contexts at one Paulista table of
four (two bots), through a hand and more. The table speaks pt-BR, draws the French deck, shows
the vira and its manilha beside the table and the score as tentos. Screenshots go to
test-output/e2e/paulista-*.png.
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

from e2e.test_browser import api, click_act  # noqa: E402
from e2e.test_table import CUT_OPTIONS_JS  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]

STATE_JS = """() => ({
  over: document.querySelector('.match-over') !== null,
  summary: document.querySelector('[data-cmd="close-summary"]') !== null,
  acts: [...document.querySelectorAll('[data-act]')]
    .filter((e) => !e.disabled)
    .map((e) => e.getAttribute('data-act')),
  labels: [...document.querySelectorAll('.actions [data-act]')].map((e) => e.textContent),
  hand: Number((document.querySelector('.board .hand-no')?.textContent ?? '0').replace(/\\D/g, '')),
  lang: document.documentElement.lang,
  vira: document.querySelector('.board .vira-panel')?.getAttribute('data-vira') ?? null,
  manilha: document.querySelector('.board .vira-panel .manilha')?.textContent ?? null,
  french: document.querySelectorAll('.my-card svg.card.french').length,
  spanish: document.querySelectorAll('svg.card:not(.french)').length,
  tentos: document.querySelectorAll('.scoreboard.tentos-board svg.tentos').length,
  onze: document.querySelector('.onze-hint') !== null,
  announce: document.querySelector('.board .announce')?.textContent ?? null,
})"""
"""What a player at a Paulista table sees."""


def choose(state: dict[str, Any], rng: random.Random) -> str:
    """A plain Paulista player: plays the mão de onze, accepts (desce) a call, calls truco now
    and then, else plays a card."""
    acts: list[str] = state["acts"]
    for wanted in ("joga", "desce"):
        if wanted in acts:
            return wanted
    if "truco" in acts and rng.random() < 0.3:
        return "truco"
    plays = [a for a in acts if a.startswith("play ")]
    if plays:
        return rng.choice(plays)
    calm = [a for a in acts if a != "corre"]
    return (calm or acts)[0]


def download(base_url: str, path: str) -> str:
    with urllib.request.urlopen(base_url + path, timeout=5) as res:
        text: str = res.read().decode()
        return text


def create_paulista(page: Page, base_url: str, players: int, seats: dict[int, str]) -> str:
    """Ana makes a Truco Paulista table from the home form; returns its id."""
    page.goto(base_url + "/")
    page.fill('input[name="name"]', "Ana")
    option = page.locator('select[name="variant"] option[value="paulista"]')
    assert "Truco Paulista" in (option.text_content() or "")
    page.select_option('select[name="variant"]', "paulista")
    # Its options show (manilhas, mão de ferro); the Argentine ones (target, flor, falta) hide.
    page.locator('select[name="manilhas"]').wait_for()
    assert page.locator('select[name="target"]').is_hidden()
    assert page.locator('input[name="flor"]').is_hidden()
    page.select_option('select[name="players"]', str(players))
    page.select_option('select[name="manilhas"]', "vira")
    page.select_option('select[name="turn"]', "0")
    for seat, kind in seats.items():
        page.select_option(f'select[name="seat{seat}"]', kind)
    page.click('#create button[type="submit"]')
    page.wait_for_url("**/t/*")
    return page.url.rsplit("/t/", 1)[1]


def look(state: dict[str, Any], seen: dict[str, Any]) -> None:
    """What every state of a Paulista table must show, and what the test saw at least once."""
    if state["hand"] > 0 and not state["over"]:
        assert state["lang"] == "pt-BR", state
        assert state["tentos"] == 2, state
        assert state["spanish"] == 0, state  # every card on the page is of the French deck
    if state["vira"]:
        seen["viras"].add(state["vira"])
        assert (state["manilha"] or "").startswith("Manilha: "), state
    seen["french"] |= state["french"] > 0
    seen["labels"].update(state["labels"])
    seen["onze"] |= state["onze"]
    if state["announce"]:
        seen["announces"].add(state["announce"].split(": ", 1)[-1])


def fresh_seen() -> dict[str, Any]:
    return {"viras": set(), "french": False, "labels": set(), "onze": False, "announces": set()}


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_the_paulista_form_options_are_never_cut(
    base_url: str, new_page: NewPage, shots: Shots, mobile: bool
) -> None:
    page = new_page("Ana", mobile=mobile)
    page.goto(base_url + "/")
    page.select_option('select[name="variant"]', "paulista")
    page.locator('select[name="mao_de_ferro"]').wait_for()
    assert page.evaluate(CUT_OPTIONS_JS) == []
    shots(page, f"paulista-create-form-{'phone' if mobile else 'desktop'}")


@pytest.mark.timeout(300)
def test_a_paulista_match_to_the_end_against_a_bot(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana = new_page("Ana")
    table = create_paulista(ana, base_url, 2, {1: "facil"})
    ana.locator(".my-card svg.card.french").nth(2).wait_for()
    ana.locator(".board .vira-panel").wait_for()
    shots(ana, "paulista-1v1-start")
    # The header's button turns the table to the visitor's language and back to pt-BR.
    target = ana.locator(".scoreboard .target")
    assert target.text_content() == "Partida de 12 tentos"
    ana.click('[data-cmd="lang"]')
    ana.wait_for_function("() => document.documentElement.lang === 'es'")
    assert target.text_content() == "A 12 tentos"
    ana.click('[data-cmd="lang"]')
    ana.wait_for_function("() => document.documentElement.lang === 'pt-BR'")
    assert target.text_content() == "Partida de 12 tentos"
    rng = random.Random(12)
    seen = fresh_seen()
    acted = 0
    deadline = time.monotonic() + HANG_GUARD
    while True:
        assert time.monotonic() < deadline, f"the match did not end: {acted=}"
        state = ana.evaluate(STATE_JS)
        look(state, seen)
        if state["over"]:
            break
        if state["summary"]:
            with contextlib.suppress(PlaywrightError):
                ana.click('[data-cmd="close-summary"]', timeout=1_000)
        elif state["acts"] and click_act(ana, choose(state, rng)):
            acted += 1
            if acted == 4:
                shots(ana, "paulista-1v1-mid-hand")
        else:
            time.sleep(0.03)
    shots(ana, "paulista-1v1-match-over")
    modal = ana.locator(".match-over")
    score = [
        int(modal.locator(f".team-{t} .team-score").get_attribute("data-score") or -1)
        for t in (0, 1)
    ]
    assert max(score) >= 12 > min(score), score
    assert modal.locator("svg.tentos").count() == 2
    assert "12 tentos" in (modal.text_content() or "")
    title = modal.locator(".big").text_content() or ""
    assert title == "Você ganhou!" or title.endswith(" ganhou"), title  # pt-BR
    assert len(seen["viras"]) >= 2 and seen["french"], seen  # a new vira every hand
    assert "Truco!" in seen["labels"], seen["labels"]
    assert acted >= 6
    info = api(base_url, f"/api/tables/{table}")
    assert info["status"] == "over" and info["options"]["game"] == "paulista"
    assert 'game = "paulista"' in download(base_url, f"/api/tables/{table}/match.toml")


@pytest.mark.timeout(300)
def test_two_people_at_one_paulista_table_of_four(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana = new_page("Ana")
    beto = new_page("Beto", mobile=True)
    table = create_paulista(ana, base_url, 4, {1: "human", 2: "facil", 3: "facil"})
    invite = ana.input_value("#invite")
    # The lobby names the game while the table waits for Beto.
    beto.goto(base_url + "/")
    beto.locator(f'.lobby a[href="/t/{table}"]').wait_for()
    assert "Truco Paulista" in (beto.locator(f'.lobby a[href="/t/{table}"]').text_content() or "")
    beto.goto(invite)
    beto.fill("#join-name", "Beto")
    beto.click('[data-cmd="join"]')
    for page in (ana, beto):
        page.locator(".my-card svg.card.french").nth(2).wait_for()
        page.locator(".board .vira-panel").wait_for()
    shots(ana, "paulista-2v2-ana")
    shots(beto, "paulista-2v2-beto-phone")
    # Both see the same vira, in pt-BR, the score as tentos.
    first = [p.evaluate(STATE_JS) for p in (ana, beto)]
    assert first[0]["vira"] == first[1]["vira"] and first[0]["vira"]
    assert all(s["lang"] == "pt-BR" and s["tentos"] == 2 for s in first)

    rng = random.Random(21)
    players = {"ana": ana, "beto": beto}
    seen = fresh_seen()
    acted = {"ana": 0, "beto": 0}
    summaries: set[str] = set()
    deadline = time.monotonic() + HANG_GUARD
    while True:
        assert time.monotonic() < deadline, f"not two hands played: {acted=} {summaries=}"
        progressed = False
        states = {who: page.evaluate(STATE_JS) for who, page in players.items()}
        if all(s["over"] or s["hand"] >= 3 for s in states.values()) and all(acted.values()):
            break
        for who, page in players.items():
            state = states[who]
            look(state, seen)
            if state["over"]:
                continue
            if state["summary"]:
                summaries.add(who)
                with contextlib.suppress(PlaywrightError):
                    page.click('[data-cmd="close-summary"]', timeout=1_000)
                progressed = True
            elif state["acts"] and click_act(page, choose(state, rng)):
                acted[who] += 1
                progressed = True
        if not progressed:
            time.sleep(0.05)
    shots(ana, "paulista-2v2-later-ana")
    assert summaries == {"ana", "beto"}, summaries  # each saw a hand end
    assert acted["ana"] >= 2 and acted["beto"] >= 2, acted
    assert len(seen["viras"]) >= 2, seen
    # The two pages agree on the score, drawn as tentos.
    time.sleep(0.5)
    scores = [
        [
            int(
                p.locator(f".scoreboard .team-{t} .team-score").first.get_attribute("data-score")
                or -1
            )
            for t in (0, 1)
        ]
        for p in (ana, beto)
    ]
    assert scores[0] == scores[1], scores
    info = api(base_url, f"/api/tables/{table}")
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot", "bot"]
    assert info["options"]["game"] == "paulista" and info["options"]["players"] == 4
