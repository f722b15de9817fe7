"""Moderation in Chromium (issue 26, point 12; docs/players.md, "Silenciar, bloquear y
denunciar"): real server, real browser, each person in his own browser context (his own identity
cookie), every action taken from the "⋯" of another person's plate.

- Silenciar: the muted player's chat and señas never reach the muter's page (what her socket
  received is read, not only what is drawn), while his partner still gets both; so after a
  reload.
- Bloquear: his chat is hidden, and Jugar ahora never seats the two together.
- Denunciar: the report is stored and listed by ``truco admin reports`` (the real command,
  against the server's database).
- Sacar de la mesa: the person removed by the creator may not sit at that table again.

The plates with their "⋯" and badges, and the dialog, fit a phone (390 x 844) with nothing
covering anything (test_layout's check). Screenshots go to test-output/e2e/mod-*.png.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.conftest import TRUCO, missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_browser import api, create_table  # noqa: E402
from e2e.test_layout import LAYOUT_JS  # noqa: E402

NewPage = Callable[..., Page]
Shots = Callable[[Page, str], None]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The server of this module, and its SQLite file (``truco admin reports`` reads it). Jugar
    ahora offers no bots within a test (a page that waits keeps saying so)."""
    tmp = Path(tmp_path_factory.mktemp("e2e-moderation"))
    with serving(tmp, TRUCO_QUEUE_BOTS_AFTER="600") as url:
        yield url, tmp / "t.db"


@pytest.fixture(scope="module")
def base_url(served: tuple[str, Path]) -> str:
    return served[0]


def received(page: Page) -> list[dict[str, Any]]:
    """Every message the page's table sockets receive from now on (across reloads)."""
    got: list[dict[str, Any]] = []

    def frame(payload: str | bytes) -> None:
        if isinstance(payload, str):
            got.append(json.loads(payload))

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return got


def from_seat(messages: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The chat lines and señas among ``messages`` sent by the person of ``seat``."""
    return [m for m in messages if m["t"] in ("chat", "sena") and m["d"].get("seat") == seat]


def sit(page: Page, base_url: str, table: str, name: str, seat: int) -> None:
    """Open the table's invitation and take ``seat``."""
    page.goto(f"{base_url}/t/{table}")
    page.fill("#join-name", name)
    page.click(f'[data-cmd="join"][data-seat="{seat}"]')
    page.locator(".board .seat.me").wait_for()


def say(page: Page, text: str) -> None:
    """Write a chat line (the chat folds away on a phone: open it first)."""
    if not page.locator("#chat-box").evaluate("(e) => e.open"):
        page.locator("#chat-box > summary").click()
    page.fill("#chat-form input", text)
    page.press("#chat-form input", "Enter")


def chat_line(page: Page, text: str) -> Any:
    return page.locator("#chat-lines .chat-line", has_text=text)


def options_of(page: Page, seat: int) -> Any:
    """Open the options of the person in ``seat`` from the "⋯" of his plate."""
    page.locator(f'.board .seat[data-seat="{seat}"] [data-cmd="mod-menu"]').click()
    dialog = page.locator(".mod-menu")
    dialog.wait_for()
    return dialog


def badge(page: Page, seat: int, text: str) -> None:
    page.locator(f'.board .seat[data-seat="{seat}"] .muted-badge', has_text=text).wait_for()


def fits(page: Page) -> None:
    """Nothing on the board covers anything, and the open dialog (if any) lies on screen."""
    page.evaluate("window.scrollTo(0, 0)")
    layout = page.evaluate(LAYOUT_JS)
    assert not layout["problems"], layout["problems"]
    dialog = page.locator(".mod-menu")
    if dialog.count():
        box = dialog.bounding_box()
        size = page.viewport_size
        assert box is not None and size is not None
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert (
            box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]
        ), box


def test_a_mute_hides_his_chat_and_senas_from_the_muter_only(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    # 3 vs 3: Ana, Caro and Eva are partners (seats 0, 2 and 4), the rivals bots; a seña goes to
    # the sender's partners, so Eva is the one who still gets Caro's once Ana mutes her.
    ana, caro, eva = new_page("Ana"), new_page("Caro"), new_page("Eva")
    heard = received(ana)
    table = create_table(
        ana, base_url, 6, {1: "facil", 2: "human", 3: "facil", 4: "human", 5: "facil"}
    )
    sit(caro, base_url, table, "Caro", 2)
    sit(eva, base_url, table, "Eva", 4)
    for page in (ana, caro, eva):
        page.locator(".my-card").first.wait_for()
    say(caro, "hola")
    chat_line(ana, "hola").wait_for()

    dialog = options_of(ana, 2)
    assert dialog.locator("h2").inner_text() == "Caro"
    assert dialog.get_by_role("button", name="Sacar de la mesa").count() == 0  # it started
    shots(ana, "mod-options")
    dialog.get_by_role("button", name="Silenciar").click()
    badge(ana, 2, "silenciado")
    assert ana.locator(".mod-menu").count() == 0
    assert chat_line(ana, "hola").count() == 0  # her line on screen went too

    def caro_speaks(line: str, sena: str, sena_words: str) -> None:
        say(caro, line)
        caro.locator("details.senas > summary").click()
        caro.locator(f'[data-sena="{sena}"]').click()
        # Eva gets both; once she answered and Ana read her answer, anything of Caro's for Ana
        # would have come before it (the table sends each line to everyone at once, in order).
        chat_line(eva, line).wait_for()
        eva.locator('.board .seat[data-seat="2"] .bubble.sena', has_text=sena_words).wait_for()
        say(eva, f"{line}: listo")
        chat_line(ana, f"{line}: listo").wait_for()
        assert chat_line(ana, line).count() == 1  # Eva's, not Caro's

    mark = len(heard)
    caro_speaks("no me ves", "tres", "Un tres")
    assert from_seat(heard[mark:], 2) == []
    assert ana.locator('.board .seat[data-seat="2"] .bubble.sena').count() == 0

    # A reload keeps it: it is the identity's, in the database (and the señas of the hand the
    # new connection is sent again leave hers out).
    mark = len(heard)
    ana.reload()
    ana.locator(".board .seat.me").wait_for()
    badge(ana, 2, "silenciado")
    caro_speaks("sigo acá", "dos", "Un dos")
    assert from_seat(heard[mark:], 2) == []
    assert any(m["t"] == "full" for m in heard[mark:])
    shots(ana, "mod-muted")

    # Quitar silencio: her lines come again.
    options_of(ana, 2).get_by_role("button", name="Quitar silencio").click()
    ana.locator('.board .seat[data-seat="2"] .muted-badge').wait_for(state="detached")
    say(caro, "volví")
    chat_line(ana, "volví").wait_for()


def test_a_block_hides_his_chat_and_keeps_the_two_apart_in_jugar_ahora(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana, beto = new_page("Ana", mobile=True), new_page("Beto")
    heard = received(ana)
    table = create_table(ana, base_url, 2, {1: "human"})
    sit(beto, base_url, table, "Beto", 1)
    ana.locator(".my-card").first.wait_for()
    fits(ana)
    dialog = options_of(ana, 1)
    fits(ana)
    shots(ana, "mod-options-phone")
    dialog.get_by_role("button", name="Bloquear").click()
    badge(ana, 1, "bloqueado")
    fits(ana)
    shots(ana, "mod-blocked-phone")

    mark = len(heard)
    say(beto, "hola")
    chat_line(beto, "hola").wait_for()  # the table sent it to everyone it goes to
    say(ana, "che")
    chat_line(ana, "che").wait_for()
    assert chat_line(ana, "hola").count() == 0
    assert from_seat(heard[mark:], 1) == []

    # Jugar ahora: Ana waits, then Beto; Carla comes and meets Ana (the longest waiter), never
    # Beto; Dora then meets Beto (he is paired, only never with Ana).
    carla, dora = new_page("Carla"), new_page("Dora")
    for page, name in ((ana, "Ana"), (beto, "Beto"), (carla, "Carla"), (dora, "Dora")):
        page.goto(base_url + "/")
        page.fill('#create input[name="name"]', name)
    for page in (ana, beto):
        page.get_by_role("button", name="Jugar ahora 1v1").click()
        page.locator(".playnow-wait").wait_for()
    carla.get_by_role("button", name="Jugar ahora 1v1").click()
    ana.wait_for_url("**/t/*")
    carla.wait_for_url("**/t/*")
    met = ana.url.rsplit("/t/", 1)[1]
    assert carla.url.rsplit("/t/", 1)[1] == met
    assert "/t/" not in beto.url and beto.locator(".playnow-wait").is_visible()
    dora.get_by_role("button", name="Jugar ahora 1v1").click()
    beto.wait_for_url("**/t/*")
    dora.wait_for_url("**/t/*")
    assert beto.url.rsplit("/t/", 1)[1] == dora.url.rsplit("/t/", 1)[1] != met
    names = sorted(s["name"] for s in api(base_url, f"/api/tables/{met}")["seats"])
    assert names == ["Ana", "Carla"]


def test_a_report_from_the_table_is_listed_by_truco_admin_reports(
    served: tuple[str, Path], new_page: NewPage, shots: Shots
) -> None:
    base_url, db = served
    ana, beto = new_page("Ana"), new_page("Beto", mobile=True)
    table = create_table(ana, base_url, 2, {1: "human"})
    sit(beto, base_url, table, "Beto", 1)
    line = "sos un <b>tronco</b> & medio"
    say(beto, line)
    chat_line(ana, line).wait_for()
    dialog = options_of(ana, 1)
    dialog.get_by_role("button", name="Denunciar").click()
    form = dialog.locator("#report-form")
    form.locator('select[name="reason"]').select_option("acoso")
    # His line is offered as it was said: text, never markup.
    form.locator('select[name="quoted"]').select_option(line)
    assert form.locator("select b").count() == 0
    form.locator('input[name="text"]').fill("me insulta cada mano")
    fits(ana)
    shots(ana, "mod-report")
    form.get_by_role("button", name="Enviar denuncia").click()
    ana.locator("#toast", has_text="Denuncia enviada").wait_for()
    assert ana.locator(".mod-menu").count() == 0

    env = {k: v for k, v in os.environ.items() if k != "TRUCO_DATABASE_URL"}
    out = subprocess.run(
        [str(TRUCO), "admin", "reports", "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    mine = [r for r in json.loads(out.stdout) if r["table"] == table]
    assert len(mine) == 1, out.stdout
    got = mine[0]
    assert (got["name"], got["seat"], got["reason"]) == ("Beto", 1, "acoso")
    assert (got["text"], got["quoted"]) == ("me insulta cada mano", line)
    plain = subprocess.run(
        [str(TRUCO), "admin", "reports", "--db", str(db)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    assert f"at {table} seat 1" in plain.stdout and "me insulta cada mano" in plain.stdout


def test_a_person_the_creator_removed_cannot_sit_again(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana, beto = new_page("Ana", mobile=True), new_page("Beto")
    table = create_table(ana, base_url, 4, {1: "human", 2: "human", 3: "human"})
    sit(beto, base_url, table, "Beto", 1)
    # Only the creator may remove anyone: Beto's options of Ana's plate do not offer it.
    his = options_of(beto, 0)
    his.get_by_role("button", name="Silenciar").wait_for()
    assert his.get_by_role("button", name="Sacar de la mesa").count() == 0
    his.get_by_role("button", name="Cerrar").click()

    ana.locator('.board .seat[data-seat="1"] [data-cmd="mod-menu"]').wait_for()
    fits(ana)
    dialog = options_of(ana, 1)
    fits(ana)
    shots(ana, "mod-remove-phone")
    dialog.get_by_role("button", name="Sacar de la mesa").click()
    ana.locator(".mod-menu").wait_for(state="detached")
    assert api(base_url, f"/api/tables/{table}")["seats"][1]["kind"] == "empty"

    # Beto hears why, and watches: he may sit in no seat of this table again, after a reload too.
    beto.locator("#toast", has_text="te sacó de esta mesa").wait_for()
    for attempt in range(2):
        if attempt:
            beto.reload()
        beto.fill("#join-name", "Beto")
        with beto.expect_response(
            lambda r: r.url.endswith(f"/api/tables/{table}/seats") and r.request.method == "POST"
        ) as answer:
            beto.click('[data-cmd="join"][data-seat="2"]')
        assert (answer.value.status, answer.value.json()["code"]) == (403, "removed")
        beto.locator("#toast", has_text="te sacó de esta mesa").wait_for()
        assert beto.locator(".board .seat.me").count() == 0
    shots(beto, "mod-removed")
    seats = api(base_url, f"/api/tables/{table}")["seats"]
    assert [s["kind"] for s in seats] == ["human", "empty", "empty", "empty"]
