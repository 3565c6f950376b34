"""The service's daily deals: one copy a player a day, the first finish kept, the boards; the
KingSwap! grid's checks; and the console's /puzzle <variant> daily and /leaderboard <variant> daily."""
from __future__ import annotations

import datetime
import importlib
import io
import threading

import pytest

import rules
from bot import daily
from bot.console import Console
from bot.service import GameService, UserError
from bot.store import DailyResult, GameRecord, InMemoryStore
from bot.store.connect import open_store
from tests.conftest import HINT_NODES

from .conftest import ALICE, BOB, CAROL, HandClock, fake_png

pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("deals_worked_out_once")]

PATIENCE = "solitary-patience"
DAY = datetime.datetime(2026, 3, 14, 12, tzinfo=datetime.timezone.utc).timestamp()


@pytest.fixture
def clock():
    return HandClock(DAY)


@pytest.fixture
def svc(store, clock):
    return GameService(store, renderer=fake_png, timer=clock)


async def test_everyone_gets_the_same_deal_and_the_next_day_another(svc, clock):
    await svc.start_daily("t-alice", ALICE, PATIENCE, guild="g")
    await svc.start_daily("t-bob", BOB, PATIENCE, guild="g")
    [alice] = await svc.store.daily_games("2026-03-14", PATIENCE, ALICE.id)
    [bob] = await svc.store.daily_games("2026-03-14", PATIENCE, BOB.id)
    expected = rules.daily_deal(PATIENCE, datetime.date(2026, 3, 14))
    assert alice.start_fen == bob.start_fen == expected.fen
    assert alice.daily == "2026-03-14" and alice.channel_id == "t-alice"
    clock.now += 86400
    await svc.start_daily("t-alice-2", ALICE, PATIENCE, guild="g")
    [tomorrow] = await svc.store.daily_games("2026-03-15", PATIENCE, ALICE.id)
    assert tomorrow.start_fen != alice.start_fen


async def test_the_deal_is_worked_out_once_a_day_in_a_worker_thread(svc, monkeypatch):
    calls = []
    real = rules.daily_deal

    def counted(slug, day, **kw):
        calls.append((slug, day, threading.current_thread() is threading.main_thread()))
        return real(slug, day, **kw)

    monkeypatch.setattr(rules, "daily_deal", counted)
    await svc.start_daily("t-alice", ALICE, "kingswap")
    await svc.start_daily("t-bob", BOB, "kingswap")
    assert calls == [("kingswap", datetime.date(2026, 3, 14), False)]


async def test_kingswap_daily_carries_its_par_and_safe_passage_targets_level_three(svc):
    reply = await svc.start_daily("t1", ALICE, "kingswap")
    [record] = await svc.store.daily_games("2026-03-14", "kingswap", ALICE.id)
    assert record.par is not None and f"par {record.par}" in reply.text
    await svc.start_daily("t2", ALICE, "safe-passage")
    [passage] = await svc.store.daily_games("2026-03-14", "safe-passage", ALICE.id)
    assert passage.start_fen == rules.VARIANTS["safe-passage"].level_start(3)


async def test_a_second_copy_the_same_day_is_refused(svc):
    await svc.start_daily("t1", ALICE, PATIENCE)
    with pytest.raises(UserError, match="already have today's"):
        await svc.start_daily("t2", ALICE, PATIENCE)
    assert len(await svc.store.daily_games("2026-03-14", PATIENCE, ALICE.id)) == 1
    assert await svc.store.open_game("t2") is None


async def test_a_variant_without_a_daily_deal_is_refused(svc):
    with pytest.raises(UserError, match="two-player game"):
        await svc.start_daily("t1", ALICE, "standard")
    with pytest.raises(UserError, match="no daily deal"):
        await svc.daily_deal("standard")
    with pytest.raises(UserError, match="no daily deal"):
        await svc.daily_board("g", ALICE, "standard")


async def test_only_the_first_finish_counts_with_hints_and_turns_played(svc):
    await svc.start_daily("t1", ALICE, PATIENCE, guild="g")
    record = await svc.store.open_game("t1")
    first = rules.new_game(PATIENCE, fen=record.start_fen).legal_moves()[0]
    await svc.move("t1", ALICE, first)
    await svc.hint("t1", ALICE, node_budget=HINT_NODES)
    gave_up = await svc.resign("t1", ALICE)
    assert "counts for the daily board" in gave_up.text and "Hints: 1." in gave_up.text
    undone = await svc.undo("t1", ALICE)
    assert daily.PRACTICE in undone.text
    again = await svc.move("t1", ALICE, first)
    assert daily.PRACTICE in again.text
    await svc.resign("t1", ALICE)
    [row] = await svc.store.daily_results("g", PATIENCE, "2026-03-14")
    assert (row.name, row.solved, row.hints, row.plies) == ("alice", False, 1, 1)
    assert row.game_id == record.id


def result(name: str, score: int, *, solved=True, hints=0, plies=10, at="2026-03-14T10:00:00+00:00",
           variant="kingswap") -> DailyResult:
    return DailyResult("2026-03-14", variant, f"id-{name}", "g", name, 1, solved, score, hints, plies, at)


@pytest.mark.parametrize("variant, rows, order", [
    ("kingswap", [result("a", 4), result("b", 2), result("c", 3)], "bca"),
    ("kingswap", [result("a", 2, hints=1), result("b", 2), result("c", 2, hints=2)], "bac"),
    ("kingswap", [result("a", 2, plies=12), result("b", 2, plies=9), result("c", 2, plies=30)], "bac"),
    ("kingswap", [result("a", 2, at="2026-03-14T11:00:00+00:00"), result("b", 2, at="2026-03-14T09:00:00+00:00")],
     "ba"),
    ("kingswap", [result("a", 1, solved=False), result("b", 6)], "ba"),
    ("safe-passage", [result("a", 1, variant="safe-passage"), result("b", 3, variant="safe-passage")], "ba"),
], ids=["score", "hints", "turns", "earliest", "solved-first", "higher-level-first"])
async def test_the_daily_board_orders_score_then_hints_turns_and_time(svc, variant, rows, order):
    for row in rows:
        assert await svc.store.add_daily_result(row)
    text = (await svc.daily_board("g", ALICE, variant)).text
    places = [line.split("**")[1] for line in text.splitlines()[1:]]
    assert "".join(places) == order


async def test_the_daily_board_shows_only_this_servers_results_of_today(svc):
    await svc.store.add_daily_result(result("here", 2))
    await svc.store.add_daily_result(DailyResult("2026-03-14", "kingswap", "x", "other", "elsewhere", 2, True, 1, 0, 1, ""))
    await svc.store.add_daily_result(DailyResult("2026-03-13", "kingswap", "y", "g", "yesterday", 3, True, 1, 0, 1, ""))
    text = (await svc.daily_board("g", ALICE, "kingswap")).text
    assert "here" in text and "elsewhere" not in text and "yesterday" not in text


async def test_the_all_time_board_keeps_each_players_best_score_solved_first(svc):
    for who, score, result_ in ((ALICE, 6, "solved"), (ALICE, 2, "solved"), (BOB, 3, "solved"), (CAROL, 0, "failed")):
        await svc.store.create(GameRecord("kingswap", f"c-{who.id}-{score}", [(who.id, who.name)], "x", "finished",
                                          "g", result=result_, score=score))
    text = (await svc.leaderboard("g", ALICE, "kingswap")).text
    assert "1. **alice** 2 casualties" in text and "2. **bob** 3 casualties" in text
    assert "3. **carol** 0 casualties · not solved" in text   # a failure with no casualties: after the solved
    assert text.count("alice") == 1 and "daily:True" in text


async def test_a_grid_click_on_another_ply_or_by_another_member_changes_nothing(svc):
    await svc.start_puzzle("c1", ALICE, "kingswap", seed=7)
    record = await svc.store.open_game("c1")
    move = rules.new_game("kingswap", seed=7).legal_moves()[0]
    with pytest.raises(UserError, match="earlier position"):
        await svc.play_grid("c1", ALICE, record.id, 1, move)
    with pytest.raises(UserError, match="not playing"):
        await svc.play_grid("c1", BOB, record.id, 0, move)
    with pytest.raises(UserError, match="not a legal move"):
        await svc.play_grid("c1", ALICE, record.id, 0, "a1a1")
    assert (await svc.store.open_game("c1")).moves == []
    state = await svc.grid("c1", ALICE, record.id, 0, move[:2])
    lit = {c.square for row in state.rows for c in row if c.enabled}
    assert lit == {m[2:] for m in rules.new_game("kingswap", seed=7).legal_moves() if m[:2] == move[:2]} | {move[:2]}


async def test_console_daily_plays_in_a_channel_of_its_own_and_finds_it_again(store, clock, tmp_path):
    out = io.StringIO()
    console = Console(GameService(store, renderer=fake_png, timer=clock), tmp_path, stdout=out)
    await console.handle("/puzzle solitary-patience daily")
    assert console.channel == "daily-solitary-patience-2026-03-14-you"
    assert "a channel of its own" in out.getvalue() and "daily deal" in out.getvalue()
    await console.handle("/hint")
    assert "Hint for you" in out.getvalue()
    await console.handle("/channel chess")
    await console.handle("/puzzle solitary-patience daily")
    assert console.channel == "daily-solitary-patience-2026-03-14-you" and "already have today's" in out.getvalue()
    await console.handle("/resign")
    await console.handle("/leaderboard solitary-patience daily")
    assert "1. You" in out.getvalue() and "1 hint" in out.getvalue()
    await console.handle("/puzzle solitary-patience daily seed:3")
    assert "leave out the seed" in out.getvalue()


async def test_the_day_is_the_utc_day(clock):
    svc = GameService(InMemoryStore(), renderer=fake_png, timer=HandClock(DAY + 12 * 3600 - 1))
    assert svc.today() == "2026-03-14"
    svc.timer = HandClock(DAY + 12 * 3600)
    assert svc.today() == "2026-03-15"


async def test_a_puzzle_turned_off_in_the_server_deals_no_daily(svc):
    await svc.change_settings("g", disable="solitary-patience")
    with pytest.raises(UserError, match="turned off"):
        await svc.start_daily("t1", ALICE, PATIENCE, guild="g")
    assert await svc.store.daily_games("2026-03-14", PATIENCE, ALICE.id) == []
    await svc.start_daily("t2", ALICE, PATIENCE, guild="elsewhere")   # another server's settings are its own


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_members_daily_copy_is_found_without_reading_everyone_elses(kind, tmp_path, request, monkeypatch):
    """Thousands play a day's deal: finding one member's copy must not turn every copy into a record
    on the event loop (asking for a daily looks twice)."""
    url = f"sqlite:///{tmp_path / 'k.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    store = await open_store(url)
    try:
        for n in range(5):
            await store.create(GameRecord("kingswap", f"t{n}-{kind}-{tmp_path.name}", [(f"p{n}", f"p{n}")], "x",
                                          "active", "g", daily="2026-03-14"))
        module = importlib.import_module("bot.store.rows")   # where both SQL stores decode their rows
        read = []
        real = module.from_row
        monkeypatch.setattr(module, "from_row", lambda row: read.append(1) or real(row))
        [mine] = await store.daily_games("2026-03-14", "kingswap", "p3")
        assert mine.players == [("p3", "p3")] and len(read) == 1
        assert await store.daily_games("2026-03-14", "kingswap", "nobody") == []
    finally:
        await store.close()


async def test_games_leaves_out_daily_copies_played_in_private(svc):
    await svc.start_puzzle("open-table", CAROL, "kingswap", seed=3, guild="g")
    await svc.start_daily("t-alice", ALICE, PATIENCE, guild="g")
    listing = (await svc.games("g")).text
    assert "(1)" in listing and "carol" in listing
    assert "alice" not in listing and "Solitary" not in listing


class LosesDailyResults(InMemoryStore):
    """A store whose daily-result write fails, as when the process dies just after the finish is saved."""

    fail = True

    async def add_daily_result(self, result):
        if self.fail:
            raise OSError("the process died here")
        return await super().add_daily_result(result)


async def test_a_finish_whose_result_was_never_written_is_kept_when_the_board_is_read():
    store = LosesDailyResults()
    svc = GameService(store, renderer=fake_png, timer=HandClock(DAY))
    await svc.start_daily("t-alice", ALICE, PATIENCE, guild="g")
    await svc.resign("t-alice", ALICE)                        # saved as finished; its result is lost
    store.fail = False
    assert await store.daily_results("g", PATIENCE, "2026-03-14") == []
    board = await svc.daily_board("g", ALICE, PATIENCE)
    [kept] = await store.daily_results("g", PATIENCE, "2026-03-14")
    assert kept.player_id == ALICE.id and kept.solved is False and "alice" in board.text


async def test_a_lost_result_is_kept_before_undo_turns_the_copy_into_practice():
    store = LosesDailyResults()
    svc = GameService(store, renderer=fake_png, timer=HandClock(DAY))
    await svc.start_daily("t-alice", ALICE, PATIENCE, guild="g")
    moves = (await svc.move_suggestions("t-alice", ALICE, "", limit=None))
    await svc.move("t-alice", ALICE, moves[0])
    await svc.resign("t-alice", ALICE)
    store.fail = False
    await svc.undo("t-alice", ALICE)                           # reopens the copy: its first finish is kept first
    [kept] = await store.daily_results("g", PATIENCE, "2026-03-14")
    assert kept.plies == 1 and kept.solved is False
