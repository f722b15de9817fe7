"""Amigos end to end (issue 29, point 2): a real server, two Chromium contexts (two players, each
with his own identity cookie). Ana follows Beto from his page; Beto sits at a table; Ana sees him
online at that table in "Tus amigos" and follows the link; Beto invites her from his table and
she sees the invitation (docs/players.md, "Amigos")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from e2e.conftest import missing_requirements, serving

_reason = missing_requirements()
if _reason:
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from e2e.test_rated import claim  # noqa: E402

NewPage = Callable[..., Page]
Shots = Callable[[Page, str], None]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(Path(tmp_path_factory.mktemp("e2e-friends"))) as url:
        yield url


def test_a_friend_online_at_his_table_and_an_invitation(
    base_url: str, new_page: NewPage, shots: Shots
) -> None:
    ana, beto = new_page("Ana"), new_page("Beto")
    claim(ana, base_url, "Ana")
    claim(beto, base_url, "Beto")

    # Ana follows Beto from his page.
    ana.goto(base_url + "/jugador/beto")
    ana.locator('#follow [data-cmd="follow"]').click()
    ana.locator('#follow [data-cmd="unfollow"]', has_text="Dejar de seguir").wait_for()
    assert "Seguís a Beto." in (ana.locator("#follow").text_content() or "")

    # Beto creates a table that waits for a person in the other seat.
    beto.goto(base_url + "/")
    form = beto.locator("#create")
    form.locator('select[name="players"]').select_option("2")
    form.locator('select[name="seat1"]').select_option("human")
    form.locator('button[type="submit"]').click()
    beto.wait_for_url(re.compile(r"/t/[^/]+$"))
    table = beto.url.rsplit("/", 1)[1]

    # Ana opens "Tus amigos": Beto is online, at that table (his open page is his presence).
    ana.goto(base_url + "/")
    ana.locator('[data-cmd="account-friends"]').click()
    dialog = ana.locator(".friends-dialog")
    friend = dialog.locator("li.friend.online", has_text="Beto")
    friend.locator(".presence", has_text="en línea").wait_for()
    link = friend.locator("a.friend-table", has_text=f"en la mesa {table}")
    link.wait_for()
    shots(ana, "friends-online")
    link.click()
    ana.wait_for_url(re.compile(rf"/t/{table}$"))
    ana.locator('[data-cmd="join"]').first.wait_for()  # Beto's table, with a seat for her

    # Beto follows Ana back and invites her from his table.
    beto.goto(base_url + "/jugador/Ana")
    beto.locator('#follow [data-cmd="follow"]').click()
    beto.locator('#follow [data-cmd="unfollow"]').wait_for()
    beto.goto(base_url + f"/t/{table}")
    beto.locator('[data-cmd="account-friends"]').click()
    beto.locator('.friends-dialog [data-cmd="friend-invite"][data-name="Ana"]').click()
    beto.locator(".friends-note", has_text="Invitaste a Ana.").wait_for()

    # Ana sees the invitation in her list, with the table's invite link.
    ana.goto(base_url + "/")
    ana.locator('[data-cmd="account-friends"] .badge', has_text="1").wait_for()
    ana.locator('[data-cmd="account-friends"]').click()
    invite = ana.locator(".friends-dialog li.invite", has_text="Beto te invita a su mesa")
    invite.wait_for()
    assert invite.locator("a").get_attribute("href") == f"/t/{table}"
    shots(ana, "friends-invited")
