"""Glicko-2 against the worked example in Glickman's paper, and one-game updates."""
from __future__ import annotations

import pytest

from bot.ratings import Rating, rate_game, update


def test_glickmans_worked_example_gives_the_published_rating_rd_and_volatility():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = update(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_between_new_players_raises_the_winner_and_lowers_the_loser_by_the_same_amount():
    white, black = rate_game(Rating(), Rating(), 1.0)
    assert white.rating > 1500 > black.rating
    assert white.rating - 1500 == pytest.approx(1500 - black.rating)
    assert white.rd < 350 and black.rd < 350


def test_a_draw_between_equals_leaves_ratings_and_moves_the_weaker_up():
    white, black = rate_game(Rating(), Rating(), 0.5)
    assert white.rating == pytest.approx(1500) and black.rating == pytest.approx(1500)
    weak, strong = rate_game(Rating(1400, 80), Rating(1700, 80), 0.5)
    assert weak.rating > 1400 and strong.rating < 1700


def test_a_period_without_games_only_widens_the_deviation():
    new = update(Rating(1600, 100, 0.06), [])
    assert new.rating == 1600 and new.rd > 100
