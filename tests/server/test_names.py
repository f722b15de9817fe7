"""Players' names: normalised, trimmed, refused with the reason when they hide or disguise text."""

from __future__ import annotations

import unicodedata
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from server.helpers import create
from truco.server.players.names import BAD_NAME, BIDI, JOINERS, MAX_NAME, NameRefused, clean_name


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
        assert refused.reason in {"blank", "too_long", "control", "bidi", "invisible"}
        return
    assert name == name.strip() and "  " not in name
    assert 1 <= len(name) <= MAX_NAME
    assert not any(_hidden(ch) for ch in name)
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
