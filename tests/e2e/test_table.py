"""A table that keeps faith with its players (issue 11): real server, real Chromium.

Each test shows one promise the table makes to a person sitting at it; screenshots, at a
desktop and at a phone size (390x844), go to test-output/e2e/.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from e2e.conftest import missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api, seated  # noqa: E402

Shots = Callable[[Page, str], None]
NewPage = Callable[..., Page]


def wait_until(check: Callable[[], bool], seconds: float = 10, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


def seat_info(base_url: str, table: str, seat: int) -> dict[str, Any]:
    info: dict[str, Any] = api(base_url, f"/api/tables/{table}")["seats"][seat]
    return info


@pytest.fixture(scope="module")
def short_grace_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose caretaker takes an absent player's seat after half a second."""
    with serving(tmp_path_factory.mktemp("e2e-grace"), TRUCO_GRACE_SECONDS="0.5") as url:
        yield url


def test_the_create_form_starts_at_four_players_with_bots(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page = new_page("Ana", mobile=True)
    page.goto(base_url + "/")
    assert page.input_value('select[name="players"]') == "4"
    for seat in (1, 2, 3):
        assert page.locator(f'.bot-row[data-row="{seat}"]').is_visible()
        assert page.input_value(f'select[name="seat{seat}"]') != "human"
    assert page.locator('.bot-row[data-row="4"]').is_hidden()
    shots(page, "table-create-form-phone")
    page.fill('input[name="name"]', "Ana")
    page.click('#create button[type="submit"]')
    page.wait_for_url("**/t/*")
    page.locator(".board.players-4 .seat").nth(3).wait_for()
    page.locator(".my-card").nth(2).wait_for()


def test_reopening_the_invite_puts_you_back_in_your_seat(
    short_grace_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana = new_page("Ana", mobile=True)
    ana.goto(short_grace_url + "/")
    ana.fill('input[name="name"]', "Ana")
    ana.select_option('select[name="players"]', "2")
    ana.select_option('select[name="seat1"]', "normal")
    ana.select_option('select[name="turn"]', "0")
    ana.click('#create button[type="submit"]')
    ana.wait_for_url("**/t/*")
    invite = ana.url
    table = invite.rsplit("/t/", 1)[1]
    ana.locator(".my-card").first.wait_for()

    # She closes the tab. Her table is hers and a bot's: nobody plays for her, it waits for her
    # (paused), even after the grace period.
    context = ana.context
    ana.close()
    wait_until(lambda: bool(api(short_grace_url, f"/api/tables/{table}")["paused"]), what="pause")
    time.sleep(1)  # twice the grace period
    assert not seat_info(short_grace_url, table, 0).get("replaced")

    # The same browser opens the invite again: she is back in her seat, not a spectator.
    again = context.new_page()
    again.goto(invite)
    again.locator(".board .seat.me").wait_for()
    assert again.locator(".spectating").count() == 0
    assert again.locator('[data-cmd="join"]').count() == 0
    wait_until(
        lambda: not api(short_grace_url, f"/api/tables/{table}")["paused"], what="table resumed"
    )
    assert seat_info(short_grace_url, table, 0)["connected"]
    shots(again, "table-seat-back-phone")


def test_two_tabs_of_one_seat_do_not_fight_over_it(base_url: str, new_page: NewPage) -> None:
    first, created = seated(new_page, base_url, {"players": 2}, {"1": "normal"})
    second = first.context.new_page()
    second.goto(base_url + created["invite"])
    second.locator(".board .seat.me").wait_for()
    # The tab opened last plays; the first one stops and offers to play there again.
    first.locator('[data-cmd="play-here"]').wait_for()
    time.sleep(1.5)  # long enough for a socket to have come back and taken the seat
    assert second.locator(".board .seat.me").count() == 1
    assert second.locator('[data-cmd="play-here"]').count() == 0
    first.click('[data-cmd="play-here"]')
    first.locator(".board .seat.me").wait_for()
    second.locator('[data-cmd="play-here"]').wait_for()


# --- a seated player at a table made through the API --------------------------------------

STATE_JS = """() => ({
  acts: [...document.querySelectorAll('[data-act]')].filter((e) => !e.disabled)
    .map((e) => e.getAttribute('data-act')),
  summary: document.querySelector('.summary') !== null,
  over: document.querySelector('.match-over') !== null,
})"""

COVERED_JS = """() => [...document.querySelectorAll('[data-act]')].filter((e) => !e.disabled)
  .filter((e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0) return false;
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !(hit && e.contains(hit));
  }).map((e) => e.getAttribute('data-act'))"""
"""The enabled action buttons that something else covers (on screen, scrolled into view)."""

OVERLAPS_JS = """([a, b]) => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0);
  const meet = (r, s) => r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1
    && s.top < r.bottom - 1;
  let n = 0;
  for (const r of boxes(a)) for (const s of boxes(b)) if (meet(r, s)) n++;
  return n;
}"""
"""How many pairs of an ``a`` element and a ``b`` element overlap on the screen."""

STACKED_JS = """() => {
  let n = 0;
  for (const pile of document.querySelectorAll('.pile')) {
    const rs = [...pile.querySelectorAll('.played')].map((e) => e.getBoundingClientRect());
    for (let i = 0; i < rs.length; i++)
      for (let j = i + 1; j < rs.length; j++)
        if (rs[i].left < rs[j].right - 1 && rs[j].left < rs[i].right - 1) n++;
  }
  return n;
}"""
"""How many pairs of cards of one seat lie over one another."""


def step(page: Page, prefer: tuple[str, ...] = ("quiero",)) -> bool:
    """Take one action if it is the player's turn (a preferred one, else a card); True if so."""
    state = page.evaluate(STATE_JS)
    acts: list[str] = state["acts"]
    if not acts:
        return False
    wanted = next((a for a in prefer if a in acts), None)
    wanted = wanted or next((a for a in acts if a.startswith("play ")), None)
    wanted = wanted or next((a for a in acts if a not in ("mazo", "no-quiero")), acts[0])
    try:
        page.locator(f'[data-act="{wanted}"]').first.click(timeout=1_000)
    except Exception:  # re-rendered away meanwhile: the next step looks again
        return False
    return True


def play_until(page: Page, done: Callable[[], bool], seconds: float = 25, **kw: Any) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s")
        if not step(page, **kw):
            time.sleep(0.05)


def summary_shown(page: Page) -> Callable[[], bool]:
    return lambda: page.locator(".summary").count() > 0


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_the_hand_summary_never_covers_the_game(
    base_url: str, new_page: NewPage, shots: Shots, mobile: bool
) -> None:
    page, _ = seated(new_page, base_url, {"players": 2, "target": 30}, {"1": "normal"}, mobile)
    play_until(page, summary_shown(page))
    # The next hand is dealt while the summary is still there: when it is her turn, every
    # button she may press is uncovered, and the summary lies beside or under the table.
    deadline = time.monotonic() + 15
    while not page.evaluate(STATE_JS)["acts"]:
        assert time.monotonic() < deadline, "her turn did not come"
        time.sleep(0.05)
    assert page.locator(".summary").count() == 1
    assert page.locator(".modal-back").count() == 0
    for sel in ("[data-act]", ".actions"):
        page.locator(sel).first.scroll_into_view_if_needed()
        assert page.evaluate(COVERED_JS) == []
    assert page.evaluate(OVERLAPS_JS, [".summary", ".board"]) == 0
    assert page.evaluate(OVERLAPS_JS, [".summary", ".my-area"]) == 0
    shots(page, f"table-summary-beside-{'phone' if mobile else 'desktop'}")


def test_the_summary_says_why_and_a_tapada_stays_face_down(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page, _ = seated(
        new_page, base_url, {"players": 2, "target": 30, "tapada": "always"}, {"1": "normal"}
    )
    # Her first card goes face down: she still sees it as a face-down card.
    page.locator('[data-cmd="tapada"]').click()
    page.locator(".my-card.tapada-pick").first.click()
    page.locator(".pile .played.face-down svg.card-back").wait_for()
    assert (
        page.locator(".pile .played.face-down svg.card").count()
        == page.locator(".pile .played.face-down svg.card-back").count()
    )
    shots(page, "table-tapada-face-down")
    play_until(page, summary_shown(page))
    summary = page.locator(".summary")
    why = summary.locator(".sum-why").text_content() or ""
    phrases = ("ganó", "ganaron", "parda", "se fue al mazo", "no quiso", "por ser mano")
    assert any(p in why for p in phrases), why
    assert (summary.locator(".sum-total").text_content() or "").startswith("Esta mano:")
    assert (summary.locator(".sum-score").text_content() or "").startswith("Tanteador:")
    # Her own tapada in the summary's tricks is face down too (if the hand got that far).
    if summary.locator(".sum-trick").count() > 0:
        assert summary.locator(".sum-card.face-down svg.card-back").count() >= 1
    shots(page, "table-summary-why")


def test_every_word_said_can_be_read_and_heard(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    tones = """() => {
      window.__tones = 0;
      const make = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function () {
        window.__tones++;
        return make.call(this);
      };
    }"""
    page, created = seated(new_page, base_url, {"players": 2, "target": 30}, {"1": "normal"})
    page.context.add_init_script(f"({tones})()")
    page.reload()
    page.locator(".board .seat.me").wait_for()
    # The log of plays is open on a wide screen.
    assert page.locator("#log-box").get_attribute("open") is not None
    # She sings envido as soon as she may: the call is announced large, and stays in the line
    # of the hand's calls with its answer, in order.
    deadline = time.monotonic() + 15
    while True:
        acts = page.evaluate(STATE_JS)["acts"]
        if "envido" in acts:
            break
        assert time.monotonic() < deadline, acts
        if not step(page, prefer=()):
            time.sleep(0.05)
    page.locator('[data-act="envido"]').click()
    page.locator(".board .announce", has_text="Envido").wait_for()
    shots(page, "table-call-announced")
    line = page.locator(".board .calls-line")
    line.locator("li", has_text="Ana").first.wait_for()
    first = line.locator("li").first.text_content() or ""
    assert first == "Ana: Envido", first
    assert page.evaluate("window.__tones") > 0
    play_until(page, summary_shown(page))
    play_until(page, lambda: page.locator(".log-line.hand-start").count() >= 2)
    log = page.locator("#log-lines")
    text = log.text_content() or ""
    assert "Mano 2" in text and "Mano 3" in text, text
    at_end = "(e) => e.scrollTop + e.clientHeight >= e.scrollHeight - 2"
    assert log.evaluate(at_end)
    shots(page, "table-log-open")
    # The mute switch is remembered: no more sounds, after a reload too.
    page.click("#mute")
    page.reload()
    page.locator(".board .seat.me").wait_for()
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    play_until(page, lambda: page.locator(".log-line.hand-start").count() >= 1)
    before = page.evaluate("window.__tones")
    play_until(page, summary_shown(page))
    assert page.evaluate("window.__tones") == before
    del created


def test_the_table_reads_at_a_glance(base_url: str, new_page: NewPage, shots: Shots) -> None:
    # 2 vs 2, Ana at seat 0 and Beto at seat 1: "Nosotros" is the same colour for both.
    ana, created = seated(
        new_page, base_url, {"players": 4, "target": 30}, {"2": "normal", "3": "normal"}
    )
    # The lobby says how many seats are free, in words.
    body = {"name": "Caro", "options": {"players": 4}, "bots": {"3": "normal"}}
    two_free = api(base_url, "/api/tables", body)
    lobby = new_page("Lobby")
    lobby.goto(base_url + "/")
    row = lobby.locator(f'.lobby a[href="/t/{two_free["table"]}"]')
    assert "2 lugares libres" in (row.text_content() or "")
    row = lobby.locator(f'.lobby a[href="/t/{created["table"]}"]')
    assert "1 lugar libre" in (row.text_content() or "")
    shots(lobby, "table-lobby-free-seats")
    beto = new_page("Beto", mobile=True)
    beto.goto(base_url + created["invite"])
    beto.fill("#join-name", "Beto")
    beto.click('[data-cmd="join"]')
    beto.locator(".board .seat.me").wait_for()
    ana.locator(".scoreboard").wait_for()
    # Each style is read where the element is found, in one task of the page: an element the
    # page redraws between a locator's finding it and reading it is detached, and reads as "".
    style = "([css, prop]) => getComputedStyle(document.querySelector(css))[prop]"

    def looks(page: Page, css: str, prop: str) -> str:
        page.locator(css).first.wait_for()
        found: str = page.evaluate(style, [css, prop])
        return found

    ours = [looks(p, ".scoreboard .ours .team-name", "color") for p in (ana, beto)]
    theirs = [looks(p, ".scoreboard .theirs .team-name", "color") for p in (ana, beto)]
    assert ours[0] == ours[1] and theirs[0] == theirs[1] and ours[0] != theirs[0]
    mine = [looks(p, ".board .seat.me .plate", "borderTopColor") for p in (ana, beto)]
    assert mine[0] == mine[1]
    # A spectator sees the players' names, not "Equipo 1".
    watcher = new_page("Watcher", mobile=True)
    watcher.goto(base_url + created["invite"])
    watcher.locator(".scoreboard").wait_for()
    score = watcher.locator(".scoreboard").text_content() or ""
    assert "Equipo" not in score and "Ana" in score and "Beto" in score, score
    # Two tricks on: each seat's cards side by side, and no bubble over a card.
    pages = {"ana": ana, "beto": beto}
    deadline = time.monotonic() + 30
    checked = 0
    while time.monotonic() < deadline and checked < 2:
        for page in pages.values():
            step(page, prefer=("envido", "quiero"))
        for page in (ana, beto, watcher):
            assert page.evaluate(OVERLAPS_JS, [".bubble", ".pile .played"]) == 0
            assert page.evaluate(STACKED_JS) == 0
        if ana.locator(".pile.rel-0 .played").count() >= 2:
            checked += 1
            shots(ana, "table-tricks-side-by-side")
            shots(beto, "table-tricks-side-by-side-phone")
        time.sleep(0.05)
    assert checked, "no seat played two cards"
    shots(watcher, "table-spectator-names-phone")


CUT_OPTIONS_JS = """() => {
  const out = [];
  const ctx = document.createElement('canvas').getContext('2d');
  for (const sel of document.querySelectorAll('#create select')) {
    if (sel.offsetParent === null) continue;
    const cs = getComputedStyle(sel);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
    const room = sel.clientWidth - pad - 20;
    for (const o of sel.options) {
      if (ctx.measureText(o.text).width > room) out.push(o.text);
    }
  }
  return out;
}"""
"""The options of the create form's visible selects whose text is wider than their select."""


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_create_form_options_are_never_cut(
    base_url: str, new_page: NewPage, shots: Shots, mobile: bool
) -> None:
    page = new_page("Ana", mobile=mobile)
    page.goto(base_url + "/")
    cut = page.evaluate(CUT_OPTIONS_JS)
    assert cut == [], cut
    shots(page, f"table-create-form-{'phone' if mobile else 'desktop'}")


def test_downloads_and_the_log_use_the_words_of_the_table(base_url: str, new_page: NewPage) -> None:
    page, _ = seated(new_page, base_url, {"players": 2, "target": 30}, {"1": "normal"})
    play_until(page, summary_shown(page))
    log = page.locator("#log-lines").text_content() or ""
    assert "Primera:" in log and "Baza" not in log, log
    assert "Descargar la mano 1 (historial)" in (page.locator(".summary").text_content() or "")
    page.locator(".downloads summary").click()
    menu = page.locator(".downloads .menu").text_content() or ""
    assert "Descargar la mano 1 (historial)" in menu and "(historial)" in menu


def test_the_anotador_fits_a_phone_and_a_new_game_asks_and_can_be_undone(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    page = new_page("Anotador", mobile=True)
    page.goto(base_url + "/anotador")
    side0 = page.locator('.an-side[data-side="0"]')
    side1 = page.locator('.an-side[data-side="1"]')
    side0.locator('[data-q="truco"]').click()
    side1.locator('[data-q="envido"]').click()
    side1.locator('[data-q="real envido"]').click()

    def points() -> tuple[int, int]:
        return (
            int(side0.locator(".an-score").get_attribute("data-score") or -1),
            int(side1.locator(".an-score").get_attribute("data-score") or -1),
        )

    assert points() == (2, 5)
    # Both teams, every button of theirs, on the screen at once: no scrolling to keep score.
    fits = page.evaluate(
        """() => [...document.querySelectorAll('.an-side')].every((e) => {
          const r = e.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        }) && document.scrollingElement.scrollHeight <= window.innerHeight + 1"""
    )
    shots(page, "anotador-phone-both-teams")
    assert fits
    # "Partido nuevo" asks first; "No" keeps the game.
    page.click('.an-foot [data-an="new"]')
    page.locator(".an-confirm").wait_for()
    assert points() == (2, 5)
    shots(page, "anotador-phone-new-game-asks")
    page.click('[data-an="new-no"]')
    assert page.locator(".an-confirm").count() == 0 and points() == (2, 5)
    # "Sí" starts from zero, and "Deshacer" brings the game back.
    page.click('.an-foot [data-an="new"]')
    page.click('[data-an="new-yes"]')
    assert points() == (0, 0)
    page.click('[data-an="undo"]')
    assert points() == (2, 5)
    page.reload()
    page.locator(".an-side").nth(1).wait_for()
    assert points() == (2, 5)
