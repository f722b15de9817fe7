"""Glicko-2 for one game at a time: a player against an exercise (pure: no I/O).

As lichess rates its puzzles: each first attempt is a game between the player's puzzle rating
and the exercise's own rating, won by the player when he finds the coach's best action and by
the exercise otherwise, and both ratings move (Glickman, "Example of the Glicko-2 system",
2013; one game is a rating period of its own, so an idle rating keeps its deviation).
"""

from __future__ import annotations

import math
from typing import NamedTuple

START = 1500.0
"""A new player's and a new exercise's rating."""
START_DEVIATION = 350.0
"""Their deviation: nothing is known yet."""
START_VOLATILITY = 0.06
MIN_DEVIATION = 45.0
"""A settled rating still moves: the deviation never falls below this (lichess keeps a floor)."""
MAX_DEVIATION = 350.0
TAU = 0.75
"""How fast the volatility may change (Glickman suggests 0.3 to 1.2)."""
SCALE = 173.7178
"""Glicko-2's scale: rating points per unit of its internal mu."""
_EPSILON = 1e-6


class Rating(NamedTuple):
    rating: float
    deviation: float
    volatility: float


NEW = Rating(START, START_DEVIATION, START_VOLATILITY)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(a: Rating, b: Rating) -> float:
    """The chance that ``a`` beats ``b``."""
    mu, mu_b = (a.rating - START) / SCALE, (b.rating - START) / SCALE
    phi_b = b.deviation / SCALE
    return 1.0 / (1.0 + math.exp(-_g(phi_b) * (mu - mu_b)))


def update(a: Rating, b: Rating, score: float) -> Rating:
    """``a``'s rating after one game against ``b`` in which ``a`` scored ``score`` (1 or 0)."""
    mu, phi, sigma = (a.rating - START) / SCALE, a.deviation / SCALE, a.volatility
    mu_b, phi_b = (b.rating - START) / SCALE, b.deviation / SCALE
    g = _g(phi_b)
    e = 1.0 / (1.0 + math.exp(-g * (mu - mu_b)))
    v = 1.0 / (g * g * e * (1.0 - e))
    delta = v * g * (score - e)
    sigma = _volatility(phi, sigma, v, delta)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * g * (score - e)
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, phi_new * SCALE))
    return Rating(START + SCALE * mu_new, deviation, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5 of Glicko-2: the new volatility (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (TAU * TAU)

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        hi = a - k * TAU
    f_lo, f_hi = f(lo), f(hi)
    for _ in range(100):  # converges in a handful; the bound keeps a bad input from looping
        if abs(hi - lo) <= _EPSILON:
            break
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2.0
        hi, f_hi = c, f_c
    return math.exp(lo / 2.0)


def game(player: Rating, exercise: Rating, solved: bool) -> tuple[Rating, Rating]:
    """Both ratings after one first attempt: (the player's, the exercise's)."""
    score = 1.0 if solved else 0.0
    return update(player, exercise, score), update(exercise, player, 1.0 - score)


__all__ = ["NEW", "Rating", "expected", "game", "update"]
