"""Players' names: normalised, trimmed, refused with the reason when they hide or disguise text."""

from __future__ import annotations

import unicodedata
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from server.helpers import create
from server.test_restart import Server
from truco.server.players.accounts import account_name, looks_like_a_bot
from truco.server.players.names import (
    BAD_NAME,
    BIDI,
    BLANKS,
    JOINERS,
    MAX_MARKS,
    MAX_NAME,
    NAME_LOOKALIKE,
    NameRefused,
    bot_skeleton,
    clean_name,
    name_skeleton,
    skeleton,
)

ORDINARY = [
    "Lalo",  # a persona's nickname too: a person may sit under it at a casual table
    "Ñoño",
    "José María",
    "Conceição",
    "Lulú",
    "Pepe2",
    "María José",
    "Martín",
    "Agustina",
    "João",
    "Gonçalo",
    "Luís",
    "Inês",
    "Ana Lía",
    "Ramona",
    "Titogol",
    "Bottaro",
    "Abbot",
    "El Pibe 10",
    "Nguyễn",  # two marks on one letter
    "Tomás_99",
    "Tito (Rosario)",  # a nickname with a town in brackets, not a level
    "🐦",  # emoji alone: a sign, visible
    "🧉🃏",
    "Ñandú 🐦",
]
"""Everyday names of the table, in Spanish and Portuguese: none is refused anywhere."""


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ana", "Ana"),
        ("  Beto  ", "Beto"),
        ("Caro\u00a0Díaz", "Caro Díaz"),  # no-break space
        ("Ｄａｎｉ", "Dani"),  # full-width letters
        ("ﬁto", "fito"),  # ligature
        ("Eva   la  Grande", "Eva la Grande"),
        ("e\u0301", "é"),  # composed
        ("Ñandú 🐦", "Ñandú 🐦"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # a family: joiners inside
        ("می\u200cخواهم", "می\u200cخواهم"),  # Persian with a non-joiner
        ("<iframe onload=alert(1)>", "<iframe onload=alert(1)>"),  # text: the clients escape it
        ("x" * MAX_NAME, "x" * MAX_NAME),
    ],
)
def test_names_that_are_kept(raw: str, shown: str) -> None:
    assert clean_name(raw) == shown


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "blank"),
        ("   ", "blank"),
        ("\u3000\u00a0", "blank"),  # ideographic and no-break spaces
        ("\u200d", "blank"),  # a joiner alone shows nothing
        ("\u0301\u0301", "blank"),  # combining marks alone
        ("\u200b", "invisible"),  # zero-width space
        ("\u200b\u2060\ufeff", "invisible"),
        ("Ana\u200b", "invisible"),
        ("\u00adAna", "invisible"),  # soft hyphen
        ("Ana\x00", "control"),
        ("Ana\nBeto", "control"),
        ("\tAna", "control"),
        ("Ana\x1b[31m", "control"),
        ("Ana\x7f", "control"),
        ("Ana\x85", "control"),
        ("Ana\u2028", "control"),
        ("\u3164", "invisible"),  # Hangul filler: a letter that draws nothing
        ("Ana\u3164", "invisible"),
        ("\uffa0\u115f", "invisible"),
        ("\u2800", "invisible"),  # the blank Braille pattern
        ("a" + "\u0301" * 10, "marks"),  # a letter under ten combining marks
        ("Zalgo" + "\u0336\u0334\u0335\u0337", "marks"),
        ("\u202eanA", "bidi"),  # right-to-left override
        ("Ana\u2066x\u2069", "bidi"),
        ("\u200fAna", "bidi"),
        ("x" * (MAX_NAME + 1), "too_long"),
        ("x" * 7 + "\ufdfa", "too_long"),  # 8 characters, but NFKC spells U+FDFA with 18
    ],
)
def test_names_that_are_refused(raw: str, reason: str) -> None:
    with pytest.raises(NameRefused) as refused:
        clean_name(raw)
    assert refused.value.reason == reason
    assert refused.value.message


def _hidden(ch: str) -> bool:
    return ch in BIDI or (
        unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp", "Cf") and ch not in JOINERS
    )


@given(st.text(max_size=40))
def test_a_kept_name_is_visible_plain_text(raw: str) -> None:
    try:
        name = clean_name(raw)
    except NameRefused as refused:
        assert refused.reason in {"blank", "too_long", "control", "bidi", "invisible", "marks"}
        return
    assert name == name.strip() and "  " not in name
    assert 1 <= len(name) <= MAX_NAME
    assert not any(_hidden(ch) or ch in BLANKS for ch in name)
    assert any(unicodedata.category(ch)[0] in "LNPS" for ch in name)
    # Cleaning is idempotent: a shown name is kept as it is.
    assert clean_name(name) == name
    assert unicodedata.normalize("NFKC", name) == name


@given(st.text(min_size=1, max_size=10), st.sampled_from(sorted(BIDI)), st.integers(0, 10))
def test_a_direction_character_anywhere_is_refused(text: str, ch: str, at: int) -> None:
    with pytest.raises(NameRefused):
        clean_name(text[:at] + ch + text[at:])


def test_create_and_join_refuse_bad_names_and_say_why(client: TestClient) -> None:
    for raw, words in [
        ("\u200b\u200b", "invisible"),
        ("Ana\x00", "control"),
        ("\u202eanA", "text-direction"),
        ("   ", "visible"),
    ]:
        r = client.post("/api/tables", json={"name": raw})
        assert r.status_code == 422, raw
        assert r.json()["code"] == BAD_NAME
        assert words in r.json()["message"]
    table = create(client)["table"]
    r = client.post(f"/api/tables/{table}/seats", json={"name": "Beto\u2066"})
    assert r.status_code == 422 and r.json()["code"] == BAD_NAME
    # The seat is still free, and a name is stored as it will be shown.
    r = client.post(f"/api/tables/{table}/seats", json={"name": "  Ｂｅｔｏ  "})
    assert r.status_code == 200, r.text
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1]["name"] == "Beto"
    r = client.post("/api/tables", json={"name": " Caro\u00a0 Díaz "})
    assert r.status_code == 201
    created = client.get(f"/api/tables/{r.json()['table']}").json()
    assert created["seats"][0]["name"] == "Caro Díaz"


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_pass_the_rule_and_sit_at_casual_tables(name: str) -> None:
    assert clean_name(name) == name
    assert not looks_like_a_bot(name, nicknames=False)


NICKNAMES = {"Lalo", "Tito (Rosario)"}
"""Everyday names that are also a bot persona's: a claim, which reserves a name for good on the
whole site, never takes a persona's (docs/players.md)."""


@pytest.mark.parametrize("name", [n for n in ORDINARY if n not in NICKNAMES and len(n) >= 3])
def test_ordinary_names_can_be_claimed(name: str) -> None:
    assert account_name(name) == name


def test_the_skeleton_is_uts39s() -> None:
    # Look-alikes share a skeleton (UTS #39, section 4).
    assert skeleton("paypal") == skeleton("p\u0430yp\u0430l")  # Cyrillic а
    assert skeleton("\u0441") == "c"  # Cyrillic es
    assert skeleton("rn") == skeleton("m")
    assert skeleton("\u13da\u13a2") == skeleton("ST")  # Cherokee letters
    assert skeleton("Ana") != skeleton("Ane")
    # Names: case, width and other scripts' look-alikes fold to one key.
    alike = {"Ana", "ANA", "ana", "\u0410na", "Ａｎａ", "\u0391na", "An\u0430"}
    assert {name_skeleton(n) for n in alike} == {name_skeleton("Ana")}
    assert name_skeleton("Ana") != name_skeleton("Ana María")
    assert name_skeleton("Lalo") != name_skeleton("Lolo")
    assert name_skeleton("José") != name_skeleton("Jose")  # an accent is seen: another name


def test_the_bot_skeleton_reads_digits_and_other_scripts_as_letters() -> None:
    for disguised, plain in [
        ("D\u043en Ramón", "Don Ramón"),
        ("Ch\u0456che", "Chiche"),
        ("B0t", "bot"),
        ("\u0392ot", "bot"),  # Greek capital beta
        ("R0bot", "robot"),
        ("T1to", "Tito"),
        ("R0B0T", "robot"),
        ("B4t0", "bato"),
        ("D.o.n R4món", "donramon"),
    ]:
        assert bot_skeleton(disguised) == bot_skeleton(plain), disguised


@pytest.mark.parametrize(
    "name",
    [
        "D\u043en Ramón",
        "Ch\u0456che",
        "B0t",
        "\u0392ot",
        "R0bot",
        "T1to",
        "Don Ramón (Experto)",
        "Lalo (Normal)",
        "Tito Fácil",
        "Robot 3",
    ],
)
def test_a_bot_in_disguise_is_refused_a_claim_and_a_casual_seat(name: str) -> None:
    assert looks_like_a_bot(name)
    with pytest.raises(NameRefused):
        account_name(name)
    seatable = looks_like_a_bot(name, nicknames=False)
    # The one-word personas alone are everyday nicknames at a casual seat; disguised or labelled
    # they are not.
    assert seatable or bot_skeleton(name) in {bot_skeleton("Chiche"), bot_skeleton("Tito")}


def test_marks_up_to_the_limit_pass() -> None:
    assert clean_name("a" + "\u0301\u0302\u0303"[:MAX_MARKS]) == unicodedata.normalize(
        "NFKC", "a" + "\u0301\u0302\u0303"[:MAX_MARKS]
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "truco.db")
    yield running
    running.stop()


def _claim(c: httpx.Client, name: str) -> httpx.Response:
    return c.post("/api/me/name", json={"name": name, "password": "mate amargo 1921"})


def test_a_real_server_keeps_look_alikes_and_bots_out(server: Server) -> None:
    with (
        httpx.Client(base_url=server.base) as ana,
        httpx.Client(base_url=server.base) as other,
        httpx.Client(base_url=server.base) as third,
    ):
        assert _claim(ana, "Ana").status_code == 200
        # A look-alike of a claimed name: refused, saying whose name it looks like.
        for alike in ("\u0410na", "An\u0430", "\u0391NA"):
            r = _claim(other, alike)
            assert r.status_code == 422, (alike, r.text)
            assert r.json()["code"] == NAME_LOOKALIKE and "'Ana'" in r.json()["message"]
        r = _claim(other, "ANA")  # the same name: taken, as before
        assert r.status_code == 409 and r.json()["code"] == "name_unavailable"
        for bot in ("D\u043en Ramón", "Ch\u0456che", "B0t", "\u0392ot", "R0bot", "T1to"):
            r = _claim(other, bot)
            assert r.status_code == 422 and r.json()["code"] == BAD_NAME, (bot, r.text)
        for blank in ("\u3164\u3164\u3164", "\u2800\u2800\u2800", "a" + "\u0301" * 10):
            r = _claim(other, blank)
            assert r.status_code == 422 and r.json()["code"] == BAD_NAME, (blank, r.text)
        assert other.get("/api/me").json()["name"] is None
        # Casual tables: neither a bot's row nor a claimed name of another player.
        for name, code in [
            ("Don Ramón (Experto)", BAD_NAME),
            ("Bot", BAD_NAME),
            ("R0bot", BAD_NAME),
            ("Ana", NAME_LOOKALIKE),
            ("\u0410na", NAME_LOOKALIKE),
            ("\u3164", BAD_NAME),
        ]:
            r = other.post("/api/tables", json={"name": name})
            assert r.status_code == 422 and r.json()["code"] == code, (name, r.text)
        table = other.post("/api/tables", json={"name": "Beto"})
        assert table.status_code == 201, table.text
        tid = table.json()["table"]
        r = third.post(f"/api/tables/{tid}/seats", json={"name": "\u0410NA"})
        assert r.status_code == 422 and r.json()["code"] == NAME_LOOKALIKE
        r = third.post(f"/api/tables/{tid}/seats", json={"name": "D\u043en Ram\u00f3n"})
        assert r.status_code == 422 and r.json()["code"] == BAD_NAME
        # The player who claimed Ana sits under it; ordinary names sit anywhere.
        r = ana.post(f"/api/tables/{tid}/seats", json={"name": "Ana"})
        assert r.status_code == 200, r.text
        for name in ORDINARY[:6]:
            made = third.post("/api/tables", json={"name": name})
            assert made.status_code == 201, (name, made.text)
        seats = third.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["name"] for s in seats] == ["Beto", "Ana"]
