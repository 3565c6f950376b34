"""The service's /hint: searched in a worker thread, counted with the compare-and-set save. The
searches here are bounded by positions (HINT_NODES), not seconds: the same on a busy machine."""
from __future__ import annotations

import asyncio
import os
import threading

import pytest

import rules
from bot.service import STALE, GameService, Player, UserError
from bot.store import InMemoryStore

from tests.conftest import HINT_NODES

from .conftest import ALICE, BOB, CHANNEL, fake_png

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("slug, seed", [("kingswap", 0), ("kingswap", 5), ("safe-passage", 5),
                                        ("solitary-patience", 5)])
async def test_each_puzzle_hints_a_legal_move_and_counts_it(service, slug, seed):
    await service.start_puzzle(CHANNEL, ALICE, slug, seed=seed)
    reply = await service.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    record = await service.store.open_game(CHANNEL)
    move = reply.text.split("`")[1]
    assert move in rules.new_game(slug, seed=seed, fen=record.start_fen).legal_moves()
    assert record.hints == 1 and "1 hint taken" in reply.text


async def test_the_search_runs_in_a_worker_thread(service, monkeypatch):
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=5)
    where = []
    real = rules.hint

    def spy(game, seconds=2.0, node_budget=None):
        where.append((threading.current_thread() is threading.main_thread(), seconds, node_budget))
        return real(game, seconds, node_budget)

    monkeypatch.setattr(rules, "hint", spy)
    await service.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    assert where == [(False, 2.0, HINT_NODES)]


async def test_no_hint_within_the_time_says_so_and_counts_nothing(service, monkeypatch):
    """Players' hints search for 2 seconds (no budget of positions): the answer says so."""
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=5)
    asked = []
    monkeypatch.setattr(rules, "hint", lambda game, seconds=2.0, node_budget=None: asked.append((seconds, node_budget)))
    reply = await service.hint(CHANNEL, ALICE)
    assert asked == [(2.0, None)]
    assert reply.text.startswith("No hint") and "2 seconds" in reply.text
    assert (await service.store.open_game(CHANNEL)).hints == 0


async def test_no_hint_within_the_budget_of_positions_says_so_and_counts_nothing(service):
    """Seed 5's tour needs more than 100 positions of search: a real search finds none within them."""
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=5)
    reply = await service.hint(CHANNEL, ALICE, node_budget=100)
    assert reply.text == "No hint: the search found no good move within 100 positions. Nothing was counted."
    assert (await service.store.open_game(CHANNEL)).hints == 0


async def test_a_tour_proved_lost_says_so_and_counts_nothing(service, monkeypatch):
    """The search proved no tour can be completed (a real search, on a small lost position):
    no move is hinted, the player is told why and pointed to /undo, and no hint is counted."""
    from rules.variants.kingswap.hint import kingswap_hint

    lost = rules.new_game("kingswap", fen="5/5/5/5/2N1K 1 0")   # one man left, two swaps needed
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=5)
    monkeypatch.setattr(rules, "hint", lambda game, seconds=2.0, node_budget=None: kingswap_hint(lost, seconds, node_budget))
    reply = await service.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    assert reply.text == ("No hint: The tour can no longer be completed from this position. "
                          "`/undo` takes moves back. Nothing was counted.")
    assert (await service.store.open_game(CHANNEL)).hints == 0


async def test_hints_are_shown_with_the_final_score_and_kept_in_the_store(service):
    await service.start_puzzle(CHANNEL, ALICE, "solitary-patience", seed=5)
    await service.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    await service.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    reply = await service.resign(CHANNEL, ALICE)
    assert "**Failed**: Gave up. Men not home: 27. Hints: 2." in reply.text
    assert (await service.store.latest(CHANNEL)).hints == 2


async def test_a_hint_on_a_game_changed_elsewhere_is_not_counted(store):
    first, second = GameService(store, renderer=fake_png), GameService(store, renderer=fake_png)
    await first.start_puzzle(CHANNEL, ALICE, "kingswap", seed=5)
    await first.board(CHANNEL)   # both processes hold the game
    await second.board(CHANNEL)
    await second.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    with pytest.raises(UserError, match=STALE.split(";")[0]):
        await first.hint(CHANNEL, ALICE, node_budget=HINT_NODES)
    assert (await store.open_game(CHANNEL)).hints == 1


async def test_hints_are_only_for_the_player_of_a_solo_puzzle(service):
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=5)
    with pytest.raises(UserError, match="not playing"):
        await service.hint(CHANNEL, BOB)
    await service.challenge("duel", ALICE, BOB, "standard")
    await service.accept("duel", BOB)
    with pytest.raises(UserError, match="solo puzzles"):
        await service.hint("duel", ALICE)


async def test_no_hint_without_a_game_in_play():
    service = GameService(InMemoryStore(), renderer=fake_png)
    with pytest.raises(UserError, match="No game"):
        await service.hint(CHANNEL, ALICE)


async def test_hints_asked_at_once_leave_the_other_games_free_to_move(service, monkeypatch):
    """Hints search for seconds each: many at once must not hold the worker threads that judge
    moves and draw boards elsewhere."""
    many = min(32, (os.cpu_count() or 1) + 4)          # the default pool's size, and more
    release, searching = threading.Event(), []

    def held(game, seconds=2.0, node_budget=None):
        searching.append(game)
        release.wait(30)

    monkeypatch.setattr(rules, "hint", held)
    for n in range(many):
        await service.start_puzzle(f"hint-{n}", Player(str(100 + n), f"p{n}"), "kingswap", seed=5)
    await service.start_puzzle("elsewhere", BOB, "solitary-patience", seed=5)
    hints = [asyncio.ensure_future(service.hint(f"hint-{n}", Player(str(100 + n), f"p{n}"))) for n in range(many)]
    try:
        for _ in range(2000):                           # until the hints are under way
            if searching:
                break
            await asyncio.sleep(0.005)
        assert searching
        record = await service.store.open_game("elsewhere")
        move = rules.new_game("solitary-patience", seed=5, fen=record.start_fen).legal_moves()[0]
        played = await asyncio.wait_for(service.move("elsewhere", BOB, move), timeout=20)
        assert "bob plays" in played.text
    finally:
        release.set()
        replies = await asyncio.gather(*hints)
    assert all(reply.text.startswith("No hint") for reply in replies)
