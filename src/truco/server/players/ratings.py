"""Ratings: what a rated match does to its players' skills (pure: no I/O; docs/players.md).

A skill is OpenSkill's Gaussian (mu, sigma) under the Plackett-Luce model, one per player and
mode (``1v1``, ``2v2``, ``3v3``). A truco match has two teams and no draws, which is the case
every Weng-Lin model handles in closed form; Plackett-Luce is the package's reference model, and
its logistic win probability is the one the bots' ladder is calibrated with (below), so the
numbers the ladder gives are the ones the updates use. The number people see is conservative:
``1000 + 25 * (mu - 3 sigma)``, 1000 for a newcomer, about 1500 for a player settled at the
strength of the ``normal`` bot; a rating is provisional for its first ``PROVISIONAL_MATCHES``.

Bots have fixed skills per level and mode, calibrated from arena results; they never move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from truco.rules import Rules

MODES = ("1v1", "2v2", "3v3")
"""The rated modes: the standard game with 2, 4 or 6 seats (teams of 1, 2 and 3)."""
PLAYERS_MODE = {2: "1v1", 4: "2v2", 6: "3v3"}

MU, SIGMA = 25.0, 25.0 / 3.0
"""A newcomer's skill: OpenSkill's defaults."""
BETA = 25.0 / 6.0
"""How much one match's performance varies around a player's skill (the default)."""
BASE, SCALE = 1000, 25
"""The rating shown is ``BASE + SCALE * (mu - 3 sigma)``: one mu is worth 25 points, close to
Elo's spread (the ladder's first step, 68.5 %, is 135 Elo and 115 points here)."""
PROVISIONAL_MATCHES = 10
"""A rating is provisional (shown with a ``?``) until its mode has this many rated matches:
by then sigma has fallen from 8.3 to about 5 (against a bot; about 3 after 40 matches)."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)

BOT_SIGMA = 1.0
"""The bots' fixed uncertainty: about that of the calibration itself (each step of the ladder
below is measured to within about +-1 mu at 95 %)."""

LADDER: dict[str, tuple[float, float, float]] = {
    "1v1": (0.663, 0.673, 0.82),
    "2v2": (0.5975, 0.565, 0.66),
    "3v3": (0.5875, 0.565, 0.575),
}
"""Measured win rates of each level against the one below it, per mode: normal vs fácil,
difícil vs normal, experto vs difícil (arena, duplicate pairs, matches to 30; the runs and their
intervals are in docs/players.md). The levels on the blueprint (issue 24) but for experto vs
difícil in teams, not yet measured again."""


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        """The conservative number shown."""
        return shown(self.mu, self.sigma)


NEW = Skill(MU, SIGMA)


def shown(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def mode_of(rules: Rules) -> str | None:
    """The rated mode of a table's rules; None where a table cannot be rated: the variants
    (pata de gallo and destantado have no teams; pica-pica's one-against-one rounds make it
    another game), and any count of seats but 2, 4 and 6."""
    if rules.variant != "standard":
        return None
    return PLAYERS_MODE.get(rules.players)


def _step(win_rate: float, per_team: int) -> float:
    """The mu between two levels whose teams (``per_team`` bots each) win ``win_rate`` against
    each other: Plackett-Luce's P = 1 / (1 + exp(-(team mu difference) / c)), with
    c = sqrt(2 * per_team * BOT_SIGMA^2 + 2 * BETA^2), solved for one bot's difference."""
    c = math.sqrt(2 * per_team * BOT_SIGMA**2 + 2 * BETA**2)
    return c * math.log(win_rate / (1 - win_rate)) / per_team


def _bot_skills() -> dict[str, dict[str, Skill]]:
    """Each level's fixed skill per mode; ``normal`` is placed at a newcomer's mu (25): a new
    player is assumed to play like it until his results say otherwise."""
    out: dict[str, dict[str, Skill]] = {}
    for mode, (easy, hard, expert) in LADDER.items():
        per_team = MODES.index(mode) + 1
        normal = MU
        facil = normal - _step(easy, per_team)
        dificil = normal + _step(hard, per_team)
        experto = dificil + _step(expert, per_team)
        out[mode] = {
            level: Skill(round(mu, 2), BOT_SIGMA)
            for level, mu in (
                ("facil", facil),
                ("normal", normal),
                ("dificil", dificil),
                ("experto", experto),
            )
        }
    return out


BOTS: dict[str, dict[str, Skill]] = _bot_skills()
"""``BOTS[mode][level]``: the bots' fixed skills (docs/players.md lists them)."""


def bot_skill(mode: str, level: str) -> Skill | None:
    """A bot level's fixed skill (None: not a level offered to people, never at a rated
    table)."""
    return BOTS.get(mode, {}).get(level)


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat of a finished rated match."""

    team: int
    skill: Skill
    fixed: bool = False
    """A bot: its skill never moves."""
    left: bool = False
    """The person left for good (a bot finished the match for him): a loss, whatever the
    result."""


def rate(entries: Sequence[Entry], winner: int) -> list[Skill]:
    """The skills after a match ``winner`` (team 0 or 1) won, in the order of ``entries``.

    Everyone is rated on the result at the table; a person who left for good is rated as having
    lost it (if his team won, his own update is the one a loss would have given him; his
    partners and rivals keep theirs). Bots keep their skills.
    """
    won = _update(entries, winner)
    lost = (
        _update(entries, 1 - winner) if any(e.left and e.team == winner for e in entries) else won
    )
    out = []
    for i, entry in enumerate(entries):
        if entry.fixed:
            out.append(entry.skill)
        elif entry.left:
            out.append(lost[i] if entry.team == winner else won[i])
        else:
            out.append(won[i])
    return out


def _update(entries: Sequence[Entry], winner: int) -> list[Skill]:
    teams: list[list[PlackettLuceRating]] = [[], []]
    where: list[tuple[int, int]] = []
    for entry in entries:
        team = teams[entry.team]
        where.append((entry.team, len(team)))
        team.append(MODEL.rating(mu=entry.skill.mu, sigma=entry.skill.sigma))
    ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
    after = MODEL.rate(teams, ranks=ranks)
    return [Skill(after[t][i].mu, after[t][i].sigma) for t, i in where]


__all__ = [
    "BOTS",
    "MODES",
    "NEW",
    "PROVISIONAL_MATCHES",
    "Entry",
    "Skill",
    "bot_skill",
    "mode_of",
    "provisional",
    "rate",
    "shown",
]
