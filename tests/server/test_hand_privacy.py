"""Finished hands during a match: only its players download them, as they saw them (issue 16,
point 8); once the match is over, everyone sees everything."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from server.helpers import Player, create, join, step
from server.test_play import play_out
from truco import notation


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_hand_ended_by_a_mazo_keeps_the_folded_cards_secret(client: TestClient) -> None:
    t = create(client, options={"target": 15})
    table, ana_token = t["table"], t["token"]
    ana = Player(client, table, ana_token)
    beto_token = join(client, table)
    beto = Player(client, table, beto_token)
    assert step([ana, beto], lambda legal: "mazo")  # the mano goes to the mazo at once
    assert ana.view is not None and beto.view is not None
    ana_cards, beto_cards = ana.view["cards"], beto.view["cards"]
    step([ana, beto], lambda legal: legal[0])  # hand 1 is over: someone acts in hand 2

    for path in (f"/api/tables/{table}/hands/1.toml", f"/api/tables/{table}/match.toml"):
        for headers in ({}, bearer("not-a-seat-token"), {"Authorization": "Basic eDp5"}):
            r = client.get(path, headers=headers)
            assert r.status_code == 401 and r.json()["code"] == "bad_token", (path, r.text)
        # Each player sees his own hand and "??" for every card he did not see.
        as_ana = client.get(path, headers=bearer(ana_token))
        as_beto = client.get(path, headers=bearer(beto_token))
        assert as_ana.status_code == as_beto.status_code == 200
        for text, own, hidden in (
            (as_ana.text, ana_cards, beto_cards),
            (as_beto.text, beto_cards, ana_cards),
        ):
            assert all(card in text for card in own), text
            assert not any(card in text for card in hidden), text
            assert '"?? ?? ??"' in text

    hand = notation.loads(
        client.get(f"/api/tables/{table}/hands/1.toml", headers=bearer(ana_token)).text
    )
    assert hand.actions == ((0, notation.parse_action_line("0 mazo", players=2)[1]),)

    # Once the match is over, the hands are public and whole: they replay.
    play_out([ana, beto], random.Random(3))
    public = client.get(f"/api/tables/{table}/hands/1.toml")
    assert public.status_code == 200
    assert all(card in public.text for card in ana_cards + beto_cards)
    assert notation.replay_text(public.text).finished


def test_the_pies_discard_and_the_bots_cards_stay_hidden(client: TestClient) -> None:
    t = create(client, options={"variant": "pata_de_gallo"}, bots={"1": "random", "2": "random"})
    ana = Player(client, t["table"], t["token"])
    rng = random.Random(5)
    while ana.view is None or ana.view["hand"] < 2:
        assert step([ana], rng.choice)
    text = client.get(f"/api/tables/{t['table']}/hands/1.toml", headers=bearer(t["token"])).text
    hand = notation.loads(text)
    # Hand 1: seat 0 is mano, seat 2 the pie, who put a card away unseen.
    assert "2 discard ??" in text
    assert all(c is not None for c in hand.hands[0])
    assert None in hand.hands[1] and None in hand.hands[2]
    assert client.get(f"/api/tables/{t['table']}/hands/1.toml").status_code == 401
