"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), one game per period.

    new = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), ...])

Scores are 1 for a win, 0.5 for a draw, 0 for a loss. Kibitz rates each game on its own, as
lichess does, so `rate_game` updates both players from one result.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178            # Glicko-2 scale factor
TAU = 0.5                   # system constant: how much volatility may change
EPSILON = 1e-6              # convergence of the volatility iteration
DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with `results` (opponent, score)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    if not results:
        return Rating(player.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, DEFAULT_RD), sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * delta_sum
    return Rating(1500 + SCALE * mu, SCALE * phi, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate_game(white: Rating, black: Rating, white_score: float) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game (white_score 1, 0.5 or 0)."""
    return update(white, [(black, white_score)]), update(black, [(white, 1 - white_score)])
