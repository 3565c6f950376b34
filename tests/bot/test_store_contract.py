"""The GameStore contract, run against every store: in memory, SQLite and a real PostgreSQL server."""
from __future__ import annotations

import pytest
import pytest_asyncio

from bot.service import GameService, UserError
from rules import Ending, Outcome
from bot.store import (OPEN_SEAT, ChannelBusy, DailyResult, Delivery, GameRecord, GameStatus, InMemoryStore, StaleRecord,
                       daily_key)
from bot.store.connect import open_store
from bot.store.migrations import postgres_migrations
from bot.store.postgres import PostgresStore

from .conftest import ALICE, BOB, CHANNEL, fake_png

pytestmark = pytest.mark.asyncio
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def record(channel=CHANNEL, status="active", **fields):
    return GameRecord("standard", channel, [("1", "alice"), ("2", "bob")], START, status,
                      created_at="t0", updated_at="t0", **fields)


@pytest_asyncio.fixture(params=["memory", "sqlite", "postgres"])
async def any_store(request, tmp_path):
    if request.param == "memory":
        store = InMemoryStore()
    elif request.param == "sqlite":
        store = await open_store(f"sqlite:///{tmp_path / 'k.sqlite3'}")
    else:
        store = await open_store(request.getfixturevalue("pg_url"))
    yield store
    await store.close()


async def test_a_record_round_trips_with_every_field(any_store):
    rec = record(guild_id="77", seed=2**40 + 3, start_fen=START, moves=["e2e4", "g1f3 f1/g2"], result=None,
                 draw_offer="2", rules_version="0.2.0", score=None, home_channel_id="home", message_id="991",
                 challenger_id="1", move_seconds=86400, due_at=1.8e9 + 0.25, reminded=True, takeback_offer="1",
                 hints=2, plies_played=7, daily="2026-11-23", par=3, practice=True,
                 rematch_of=2**40 + 9)
    game_id = await any_store.create(rec)
    assert rec.id == game_id
    assert await any_store.get(game_id) == rec
    assert await any_store.get(game_id + 1000) is None


async def test_the_rematch_of_a_game_is_found_by_the_game_it_is_the_rematch_of(any_store):
    first = await any_store.create(record(channel="t1", status="finished"))
    assert await any_store.rematch_of(first) is None
    second = await any_store.create(record(channel="t2", rematch_of=first))
    assert (await any_store.rematch_of(first)).id == second and await any_store.rematch_of(second) is None


async def test_an_endings_kind_is_kept_and_read_back_as_an_ending_whatever_its_words_say(any_store):
    rec = record(status="finished", result="0-1", reason="white resigned on time by agreement", ending="goal")
    game_id = await any_store.create(rec)
    stored = await any_store.get(game_id)
    assert type(stored.ending) is Ending and stored.ending == Ending.GOAL and stored.outcome.kind == Ending.GOAL
    assert type(stored.status) is GameStatus and stored.outcome == Outcome.win("black", rec.reason)
    stored.ending = Ending.RESIGNATION
    await any_store.save(stored)
    assert (await any_store.get(game_id)).ending == Ending.RESIGNATION
    stored.status, stored.result, stored.reason, stored.ending = GameStatus.ACTIVE, None, None, None
    await any_store.save(stored)
    reopened = await any_store.get(game_id)
    assert (reopened.ending, reopened.outcome) == (None, None)


async def test_a_status_given_as_a_game_status_is_stored_as_its_text(any_store):
    rec = record(status=GameStatus.ACTIVE)
    game_id = await any_store.create(rec)
    assert (await any_store.open_game(CHANNEL)).id == game_id
    rec.status = GameStatus.FINISHED
    await any_store.save(rec)
    stored = await any_store.get(game_id)
    assert stored.status == "finished" and str(stored.status) == "finished"
    assert (await any_store.latest(CHANNEL, (GameStatus.FINISHED,))).id == game_id
    assert await any_store.open_game(CHANNEL) is None


async def test_ids_grow_and_latest_is_the_newest_game_of_the_channel(any_store):
    first = await any_store.create(record(status="finished"))
    second = await any_store.create(record())
    await any_store.create(record(channel="elsewhere", status="finished"))
    assert second > first
    assert (await any_store.latest(CHANNEL)).id == second
    assert await any_store.latest("nowhere") is None
    declined = await any_store.create(record(status="declined"))
    assert (await any_store.latest(CHANNEL)).id == declined
    assert (await any_store.latest(CHANNEL, ("finished",))).id == first      # a declined challenge hides no game
    assert (await any_store.latest(CHANNEL, ("finished", "active"))).id == second


async def test_a_second_game_in_play_in_a_channel_is_refused_on_create_and_on_save(any_store):
    finished = record(status="finished")
    await any_store.create(finished)
    await any_store.create(record())
    with pytest.raises(ChannelBusy):
        await any_store.create(record(status="active"))
    waiting = record(status="challenge")                   # challenges wait beside a game in play
    await any_store.create(waiting)
    waiting.status = "active"                              # but cannot start beside it
    with pytest.raises(ChannelBusy):
        await any_store.save(waiting)
    finished.status = "active"                             # reopening an old game beside the open one
    with pytest.raises(ChannelBusy):
        await any_store.save(finished)
    assert (await any_store.get(finished.id)).status == "finished"
    await any_store.create(record(channel="other"))        # other channels and finished games are free
    await any_store.create(record(status="declined"))


async def test_a_save_raises_the_version_and_a_stale_one_writes_nothing(any_store):
    await any_store.create(record())
    mine, theirs = await any_store.open_game(CHANNEL), await any_store.open_game(CHANNEL)
    theirs.moves.append("e2e4")
    await any_store.save(theirs)
    assert theirs.version == 1
    mine.moves.append("d2d4")
    with pytest.raises(StaleRecord):
        await any_store.save(mine)
    stored = await any_store.get(mine.id)
    assert stored.moves == ["e2e4"] and stored.version == 1 and mine.version == 0


async def test_open_games_and_their_count_leave_out_finished_and_suspended_ones(any_store):
    ids = [await any_store.create(record(channel=f"c{i}", status=s))
           for i, s in enumerate(["active", "finished", "challenge", "declined", "active"])]
    suspended = await any_store.get(ids[4])
    suspended.status, suspended.error = "suspended", "IllegalMove: gone"
    await any_store.save(suspended)
    assert [r.id for r in await any_store.open_games()] == [ids[0], ids[2]]
    assert await any_store.count_open() == 2
    assert await any_store.open_game("c1") is None
    assert await any_store.open_game("c2") is None          # a challenge is not a game in play
    assert [r.id for r in await any_store.challenges("c2")] == [ids[2]]
    assert (await any_store.open_game("c0")).status == "active"


async def test_postgres_migrations_are_numbered_recorded_and_run_once(pg_url):
    latest = postgres_migrations()[-1].number
    assert latest >= 2
    store = await PostgresStore.open(pg_url)
    assert await store.migrate() == latest
    await store.close()
    again = await PostgresStore.open(pg_url)               # a second start migrates nothing
    assert await again.migrate() == latest
    await again.close()


async def test_processes_starting_together_on_an_empty_database_each_migrate_it_once(pg_url):
    import asyncio

    stores = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(4)))
    game_id = await stores[0].create(record())
    assert (await stores[3].get(game_id)).channel_id == CHANNEL
    for store in stores:
        await store.close()


async def test_unfinished_games_continue_after_a_restart_on_postgres(pg_url):
    store = await open_store(pg_url)
    service = GameService(store, renderer=fake_png)
    await service.challenge(CHANNEL, ALICE, BOB, "moderation")
    await service.accept(CHANNEL, BOB)
    for user, move in [(ALICE, "e4"), (BOB, "f5"), (ALICE, "Qh5+")]:
        await service.move(CHANNEL, user, move)
    await store.close()

    store = await open_store(pg_url)
    service = GameService(store, renderer=fake_png)
    assert await service.restore() == 1
    reply = await service.move(CHANNEL, BOB, "g6")
    assert (await store.open_game(CHANNEL)).fen.endswith(" +1+0")
    assert "alice to move" in reply.text
    with pytest.raises(UserError, match="not your turn"):
        await service.move(CHANNEL, BOB, "a6")
    await store.close()


async def test_challenges_wait_in_their_home_channel_and_a_server_lists_its_open_games(any_store):
    waiting = record(status="challenge", home_channel_id=CHANNEL, guild_id="g1")
    waiting.players[1] = OPEN_SEAT
    await any_store.create(waiting)
    await any_store.create(record(channel="thread-1", status="active", home_channel_id=CHANNEL, guild_id="g1"))
    await any_store.create(record(channel="c9", status="finished", guild_id="g1"))
    await any_store.create(record(channel="c8", status="active", guild_id="g2"))
    stored = (await any_store.challenges(CHANNEL))
    assert [r.id for r in stored] == [waiting.id] and stored[0].open_seat == 1
    assert await any_store.challenges("thread-1") == []
    assert [r.channel_id for r in await any_store.open_in_guild("g1")] == [CHANNEL, "thread-1"]
    assert [r.channel_id for r in await any_store.open_in_guild("g2")] == ["c8"]


async def test_the_next_deadline_and_the_games_it_has_come_for(any_store):
    assert await any_store.next_due() is None
    late = await any_store.create(record(channel="a", due_at=100.0))
    await any_store.create(record(channel="b", due_at=300.0))
    await any_store.create(record(channel="c", status="finished", due_at=50.0))   # finished: never due
    soon = await any_store.create(record(channel="d", status="challenge", due_at=200.0))
    assert await any_store.next_due() == 100.0
    assert await any_store.next_due(after=100.0) == 200.0   # the next one still to come after a time
    assert await any_store.next_due(after=300.0) is None
    assert [r.id for r in await any_store.due(250.0)] == [late, soon]
    assert await any_store.due(99.0) == []


async def test_server_settings_and_member_pings_are_kept(any_store):
    assert await any_store.settings("g1") == {}
    await any_store.save_settings("g1", {"threads": False, "days": 2}, "t1")
    await any_store.save_settings("g1", {"threads": True, "days": 5, "variants": ["zoo"]}, "t2")
    assert await any_store.settings("g1") == {"threads": True, "days": 5, "variants": ["zoo"]}
    assert await any_store.settings("g2") == {}
    assert await any_store.pings("7") is True
    await any_store.set_pings("7", False, "t1")
    assert await any_store.pings("7") is False and await any_store.pings("8") is True
    await any_store.set_pings("7", True, "t2")
    assert await any_store.pings("7") is True


async def test_only_the_first_finish_of_a_daily_counts(any_store):
    first = DailyResult("2026-11-23", "kingswap", "1", "g1", "alice", 5, True, 3, 0, 12, "t1")
    assert await any_store.add_daily_result(first) is True
    again = DailyResult("2026-11-23", "kingswap", "1", "g1", "alice", 6, True, 1, 0, 30, "t2")
    assert await any_store.add_daily_result(again) is False
    other = DailyResult("2026-11-23", "kingswap", "2", "g1", "bob", 7, False, 4, 2, 9, "t3")
    assert await any_store.add_daily_result(other) is True
    board = sorted(await any_store.daily_results("g1", "kingswap", "2026-11-23"), key=lambda r: daily_key(r, False))
    assert [(r.name, r.score, r.solved) for r in board] == [("alice", 3, True), ("bob", 4, False)]
    assert await any_store.daily_results("g2", "kingswap", "2026-11-23") == []


async def test_a_members_copies_of_a_daily_deal_are_found(any_store):
    mine = GameRecord("kingswap", "t-1", [("1", "alice")], START, "active", created_at="t", updated_at="t",
                      daily="2026-11-23")
    theirs = GameRecord("kingswap", "t-2", [("2", "bob")], START, "active", created_at="t", updated_at="t",
                        daily="2026-11-23")
    await any_store.create(mine)
    await any_store.create(theirs)
    assert [r.id for r in await any_store.daily_games("2026-11-23", "kingswap", "1")] == [mine.id]
    assert await any_store.daily_games("2026-11-24", "kingswap", "1") == []


async def test_finished_daily_copies_without_a_kept_result_are_found(any_store):
    def copy(player, status, guild="g1"):
        return GameRecord("kingswap", f"t-{player}", [(player, player)], START, status, guild_id=guild,
                          created_at="t", updated_at="t", daily="2026-11-23")
    lost, kept, playing, elsewhere = copy("1", "finished"), copy("2", "finished"), copy("3", "active"), \
        copy("4", "finished", guild=None)
    for record in (lost, kept, playing, elsewhere):
        await any_store.create(record)
    await any_store.add_daily_result(DailyResult("2026-11-23", "kingswap", "2", "g1", "2", kept.id, True, 3, 0, 9, "t"))
    assert [r.id for r in await any_store.unrecorded_daily_finishes("2026-11-23", "kingswap", "g1")] == [lost.id]
    assert [r.id for r in await any_store.unrecorded_daily_finishes("2026-11-23", "kingswap", "")] == [elsewhere.id]
    assert await any_store.unrecorded_daily_finishes("2026-11-24", "kingswap", "g1") == []


async def test_finished_games_left_unrated_are_found_by_server(any_store):
    def game(guild="g1", status="finished", result="1-0"):
        return record(channel=f"c{guild}{status}{result}", status=status, guild_id=guild, result=result)

    lost, rated, drawn, puzzle, playing, elsewhere, outside = (
        game(), game(result="0-1"), game(result="1/2-1/2"), game(result="solved"), game(status="active", result=None),
        game("g2"), game(None))
    for each in (lost, rated, drawn, puzzle, playing, elsewhere, outside):
        await any_store.create(each)
    await any_store.rate(rated.id, "g1", "standard", ("1", "alice"), ("2", "bob"), 0.0, "t")
    assert [r.id for r in await any_store.unrated_finishes("g1")] == [lost.id, drawn.id]
    assert [r.id for r in await any_store.unrated_finishes("")] == [outside.id]


async def test_pending_deliveries_are_kept_in_order_until_dropped(any_store):
    board = Delivery("post", "g1", "c1", "12345-0", game_id=7, reply={"text": "alice plays **e4**.", "ply": 1,
                                                                      "ping": "2", "controls": ["draw", "resign"]},
                     created_at="t0")
    removal = Delivery("delete", None, "c2", "991", created_at="t1")
    first, second = await any_store.add_delivery(board), await any_store.add_delivery(removal)
    assert second > first and (board.id, removal.id) == (first, second)
    assert await any_store.deliveries() == [board, removal]
    assert [d.id for d in await any_store.deliveries(limit=1)] == [first]
    await any_store.drop_delivery(first)
    await any_store.drop_delivery(first)   # dropping twice (two tries racing) is harmless
    assert await any_store.deliveries() == [removal]


async def test_a_pending_delivery_is_marked_in_place_and_a_dropped_one_is_not_brought_back(any_store):
    board = Delivery("post", "g1", "c1", "12345-0", game_id=7, reply={"text": "alice plays **e4**.", "ply": 1},
                     created_at="t0")
    later = Delivery("post", "g1", "c1", "12346-0", game_id=7, reply={"text": "bob plays **e5**.", "ply": 2},
                     created_at="t1")
    await any_store.add_delivery(board)
    await any_store.add_delivery(later)
    await any_store.mark_delivery(board.id, {**board.reply, "lost": True})
    marked = Delivery(**{**vars(board), "reply": {**board.reply, "lost": True}})
    assert await any_store.deliveries() == [marked, later]   # same id, place and fields; the other row untouched
    await any_store.mark_delivery(board.id, board.reply)   # cleared again
    assert await any_store.deliveries() == [board, later]
    await any_store.drop_delivery(board.id)
    await any_store.mark_delivery(board.id, {**board.reply, "lost": True})   # gone meanwhile: nothing comes back
    assert await any_store.deliveries() == [later]
