"""The ratings part of the GameStore contract, run against every store (memory, SQLite, PostgreSQL)."""
from __future__ import annotations

import asyncio

import pytest

from . import test_store_contract as contract

pytestmark = pytest.mark.asyncio
any_store = contract.any_store   # the fixture: each test runs on every store
record = contract.record
GUILD, VARIANT = "77", "standard"
ALICE, BOB, CAROL = ("1", "alice"), ("2", "bob"), ("3", "carol")


async def test_a_rated_win_puts_the_winner_above_the_loser_with_counts(any_store):
    assert await any_store.rate(1, GUILD, VARIANT, ALICE, BOB, 1.0, "t1") is True
    board = await any_store.leaderboard(GUILD, VARIANT)
    assert [r.player_id for r in board] == ["1", "2"]
    winner, loser = board
    assert winner.rating > 1500 > loser.rating
    assert (winner.games, winner.wins, winner.draws, winner.losses) == (1, 1, 0, 0)
    assert (loser.games, loser.wins, loser.draws, loser.losses) == (1, 0, 0, 1)
    assert winner.name == "alice" and winner.updated_at == "t1"


async def test_rating_the_same_game_twice_changes_nothing(any_store):
    await any_store.rate(5, GUILD, VARIANT, ALICE, BOB, 0.0, "t1")
    before = await any_store.leaderboard(GUILD, VARIANT)
    assert await any_store.rate(5, GUILD, VARIANT, ALICE, BOB, 0.0, "t2") is False
    assert await any_store.leaderboard(GUILD, VARIANT) == before


async def test_ratings_are_kept_per_server_and_per_variant(any_store):
    await any_store.rate(1, GUILD, VARIANT, ALICE, BOB, 1.0, "t1")
    await any_store.rate(2, "other", VARIANT, BOB, ALICE, 1.0, "t1")
    await any_store.rate(3, GUILD, "atomic", BOB, ALICE, 0.5, "t1")
    assert [r.player_id for r in await any_store.leaderboard("other", VARIANT)] == ["2", "1"]
    mine = await any_store.player_ratings(GUILD, "2")
    assert [(r.variant, r.games, r.draws, r.losses) for r in mine] == [("atomic", 1, 1, 0), ("standard", 1, 0, 1)]
    assert await any_store.leaderboard(GUILD, "kingswap") == []


async def test_a_members_place_counts_those_rated_above(any_store):
    await any_store.rate(1, GUILD, VARIANT, ALICE, BOB, 1.0, "t1")
    await any_store.rate(2, GUILD, VARIANT, CAROL, BOB, 1.0, "t2")
    place, row = await any_store.rating_place(GUILD, VARIANT, "2")
    assert place == 3 and row.games == 2 and row.losses == 2
    assert (await any_store.rating_place(GUILD, VARIANT, "1"))[0] in (1, 2)
    assert await any_store.rating_place(GUILD, VARIANT, "9") is None


async def test_the_top_ten_is_ten_rows_best_first(any_store):
    for n in range(12):
        await any_store.rate(100 + n, GUILD, VARIANT, (f"w{n:02}", f"w{n}"), (f"b{n:02}", f"b{n}"), 1.0, "t")
    board = await any_store.leaderboard(GUILD, VARIANT)
    assert len(board) == 10
    assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)


async def test_games_ending_together_are_all_counted(any_store):
    await asyncio.gather(*(any_store.rate(200 + n, GUILD, VARIANT, ALICE, BOB, 1.0, "t") for n in range(6)))
    place, row = await any_store.rating_place(GUILD, VARIANT, "1")
    assert place == 1 and row.games == 6 and row.wins == 6


async def test_best_scores_reads_finished_puzzles_solved_first_then_best(any_store):
    for score, result in ((7, "solved"), (3, "solved"), (1, "failed"), (5, "solved")):
        rec = record(status="finished", guild_id=GUILD, result=result, reason="r", score=score)
        rec.variant = "knights-tour"
        await any_store.create(rec)
    lower = await any_store.best_scores(GUILD, "knights-tour", higher_is_better=False)
    assert [r.score for r in lower] == [3, 5, 7, 1]   # solved first, then not solved
    higher = await any_store.best_scores(GUILD, "knights-tour", higher_is_better=True, limit=2)
    assert [r.score for r in higher] == [7, 5]
    assert await any_store.best_scores("other", "knights-tour", higher_is_better=False) == []
