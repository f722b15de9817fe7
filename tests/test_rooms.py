"""rooms: each variant's room, from the registry's room names, and the hooks the engine asks."""

from __future__ import annotations

import importlib

import pytest

from truco import argentino, paulista
from truco.hand import Room
from truco.rooms import ROOMS, room_of
from truco.rules import Rules
from truco.state import new_match
from truco.variants import VARIANTS, VariantInfo


@pytest.mark.parametrize("info", VARIANTS, ids=lambda v: v.name)
def test_each_variant_is_played_in_the_room_its_entry_names(info: VariantInfo) -> None:
    room = ROOMS[info.name]
    assert isinstance(room, Room)
    assert room is importlib.import_module(f"truco.{info.room}").ROOM
    assert room_of(Rules(variant=info.name)) is room  # type: ignore[arg-type]
    # The room deals other than three cards exactly where the registry says the deal is sized.
    assert room.sized_deal is info.sized_deal


@pytest.mark.parametrize("info", VARIANTS, ids=lambda v: v.name)
def test_only_paulista_is_not_an_argentine_room(info: VariantInfo) -> None:
    room = ROOMS[info.name]
    assert isinstance(room, argentino.Argentino) is (info.game == "argentino")
    assert isinstance(room, paulista.Paulista) is (info.game == "paulista")


def test_the_vira_is_turned_only_in_paulista_with_its_manilhas() -> None:
    assert room_of(Rules(game="paulista")).turns_vira(Rules(game="paulista"))
    velha = Rules(game="paulista", manilhas="velha")
    assert not room_of(velha).turns_vira(velha)
    assert not room_of(Rules()).turns_vira(Rules())


@pytest.mark.parametrize(
    ("variant", "sizes"),
    # Pata de gallo: the pie, the seat before the mano (seat 0), gets the fourth card.
    [("standard", (3, 3)), ("pata_de_gallo", (3, 3, 4)), ("destantado", (3, 3, 3))],
)
def test_the_first_deal_sizes(variant: str, sizes: tuple[int, ...]) -> None:
    state = new_match(Rules(variant=variant))  # type: ignore[arg-type]
    assert room_of(state.rules).hand_sizes(state) == sizes
