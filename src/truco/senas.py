"""The señas: the words a player may sign to his partners, one list for every layer.

The server accepts these and no other, the web client's buttons and the generated constants come
from here, and the bots sign and read them (``truco.bots.senas``). What a seña says about the
cards is the table's convention: the card señas name the best cards, best first (the anchos,
the sietes bravos, a three, a two, an ancho falso); "nada" says there is nothing to sign; the
last two speak of the envido and the flor.
"""

from __future__ import annotations

from typing import Final

CARD_SENAS: Final[tuple[str, ...]] = (
    "ancho-espada",
    "ancho-basto",
    "siete-espada",
    "siete-oro",
    "tres",
    "dos",
    "ancho-falso",
)
"""The card señas, best card first."""
NADA: Final = "nada"
ENVIDO_ALTO_SENA: Final = "envido-alto"
FLOR_SENA: Final = "flor"
SENAS: Final[tuple[str, ...]] = (*CARD_SENAS, NADA, ENVIDO_ALTO_SENA, FLOR_SENA)
"""Every seña, in the order the table's buttons show them."""
