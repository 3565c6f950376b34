"""One unreadable game row stops nothing else, on SQLite and on PostgreSQL: it is set aside (status
'suspended', its data kept, logged once with its id, its channel free) wherever it is read, and
every other game goes on. Rows are corrupted behind the bot's back, in raw SQL."""
from __future__ import annotations

import logging
import sqlite3

import asyncpg
import pytest
import pytest_asyncio

from bot.service import GameService, UserError
from bot.store import GameRecord, StoreError
from bot.store.connect import copy_games, open_store
from bot.store.postgres import is_postgres_url

from .conftest import ALICE, BOB, CAROL, HandClock, fake_png

pytestmark = pytest.mark.asyncio

DAY = 86400
SET_ASIDE = "cannot be read from the database and is set aside"
FOOLS_MATE = '["f2f3", "e7e5", "g2g4", "d8h4"]'


@pytest.fixture(params=["sqlite", "postgres"])
def url(request, tmp_path):
    return f"sqlite:///{tmp_path / 'k.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest_asyncio.fixture
async def db(url):
    store = await open_store(url)
    yield store
    await store.close()


@pytest.fixture
def clock():
    return HandClock()


async def raw(url: str, sql: str) -> tuple | None:
    """Run one statement on the database directly, as an outsider would; its first row, if any."""
    if is_postgres_url(url):
        conn = await asyncpg.connect(url)
        try:
            row = await conn.fetchrow(sql)
            return tuple(row) if row else None
        finally:
            await conn.close()
    conn = sqlite3.connect(url[len("sqlite:///"):])
    try:
        row = conn.execute(sql).fetchone()
        conn.commit()
        return row
    finally:
        conn.close()


def timed(store, clock) -> GameService:
    return GameService(store, renderer=fake_png, timer=clock, challenge_ttl=600, move_deadline=3 * DAY)


async def started(service, channel, guild="g", white=ALICE, black=BOB) -> int:
    reply = await service.challenge(channel, white, black, "standard", colour="white", guild=guild)
    await service.accept(channel, black)
    return reply.game_id


def logged(caplog, game_id) -> int:
    return sum(SET_ASIDE in r.getMessage() and r.getMessage().startswith(f"game {game_id} ") for r in caplog.records)


async def test_an_unreadable_row_with_a_due_deadline_stops_no_other_deadline(url, db, clock, caplog):
    caplog.set_level(logging.ERROR, logger="bot.store")
    service = timed(db, clock)
    bad, good = await started(service, "c-bad"), await started(service, "c-good")
    await raw(url, f"UPDATE games SET moves = 'e2e4 e7e5' WHERE id = {bad}")
    clock.now += 3 * DAY   # both past their deadline
    events = await service.due_events()
    assert [(e.kind, e.record.id) for e in events] == [("timeout", good)]
    assert (await db.get(good)).reason == "time"
    status, moves, error = await raw(url, f"SELECT status, moves, error FROM games WHERE id = {bad}")
    assert (status, moves) == ("suspended", "e2e4 e7e5")   # set aside, its data kept
    assert "moves is not JSON" in error
    # read again everywhere, it is logged once, and nothing is left due
    assert await service.due_events() == [] and await service.next_due() is None
    assert await db.get(bad) is None and await db.latest("c-bad") is None
    assert logged(caplog, bad) == 1


async def test_on_postgres_one_unreadable_row_stops_no_shards_deadlines(pg_url, clock, caplog):
    """Each process's due() reads every guild: the row set aside by one is skipped by the other."""
    caplog.set_level(logging.ERROR, logger="bot.store")
    stores = [await open_store(pg_url), await open_store(pg_url)]
    try:
        first, second = timed(stores[0], clock), timed(stores[1], clock)
        bad = await started(first, "c-bad", guild="g1")
        good = await started(second, "c-good", guild="g2")
        await raw(pg_url, f"UPDATE games SET players = '[[\"1\", \"alice\"], [\"2\"' WHERE id = {bad}")
        clock.now += 3 * DAY
        assert [e.record.id for e in await second.due_events(owns=lambda guild: guild == "g2")] == [good]
        assert await first.due_events(owns=lambda guild: guild == "g1") == []
        assert (await raw(pg_url, f"SELECT status FROM games WHERE id = {bad}")) == ("suspended",)
        assert logged(caplog, bad) == 1
    finally:
        for store in stores:
            await store.close()


async def test_games_lists_the_others_and_the_bad_games_channel_is_told_once_and_free(url, db, clock, caplog):
    caplog.set_level(logging.ERROR, logger="bot.store")
    service = timed(db, clock)
    bad = await started(service, "c-bad")
    await started(service, "c-good", white=CAROL, black=BOB)
    await service.board("c-bad")   # in play, and in this process's memory
    await raw(url, f"UPDATE games SET moves = '[\"e2e4\", ' WHERE id = {bad}")
    listing = (await service.games("g")).text
    assert "(1)" in listing and "carol vs bob" in listing and "alice" not in listing
    with pytest.raises(UserError) as told:
        await service.move("c-bad", ALICE, "e4")
    assert str(told.value).startswith(f"Game #{bad} (Standard chess) could not be read from the database, so it "
                                      f"has been set aside with its data kept. This channel is free for a new game.")
    assert "No game in this channel" in str(told.value)
    reply = await service.challenge("c-bad", ALICE, BOB, "standard", guild="g")   # the channel is free...
    assert "could not be read" not in reply.text                                 # ...and told once
    await service.accept("c-bad", BOB)
    assert "alice to move" in (await service.games("g")).text
    assert logged(caplog, bad) == 1


async def test_leaderboards_and_exports_read_past_an_unreadable_finished_game(url, db, clock):
    service = timed(db, clock)
    for channel, user, score in (("p-good", CAROL, 3), ("p-bad", ALICE, 1)):
        await db.create(GameRecord("kingswap", channel, [(user.id, user.name)], "x", "finished", "g",
                                   result="solved", score=score, created_at="t", updated_at="t"))
    for channel in ("c-good", "c-bad"):
        await started(service, channel)
        await service.resign(channel, ALICE)
    await raw(url, "UPDATE games SET moves = 'broken' WHERE channel_id IN ('p-bad', 'c-bad')")
    board = (await service.leaderboard("g", ALICE, "kingswap")).text
    assert "carol" in board and "alice" not in board
    assert "alice" in (await service.leaderboard("g", ALICE, "standard")).text
    assert (await service.export("c-good")).filename.endswith(".pgn")
    with pytest.raises(UserError, match="No game to show in this channel"):
        await service.export("c-bad")


async def test_every_read_of_games_goes_on_past_unreadable_rows(url, db, caplog):
    caplog.set_level(logging.ERROR, logger="bot.store")
    day = "2026-03-14"

    async def made(channel, status, players=(("1", "alice"), ("2", "bob")), **fields):
        return await db.create(GameRecord("standard", channel, list(players), "x", status, "g", created_at="t",
                                          updated_at="t", **fields))

    good = [await made("c1", "active", due_at=100.0), await made("c2", "challenge", home_channel_id="c2", due_at=100.0)]
    bad = [await made("c3", "active", due_at=100.0), await made("c2", "challenge", home_channel_id="c2", due_at=100.0),
           await made("c4", "active", due_at=100.0)]
    good_daily = await made("d1", "finished", [("p1", "p1")], daily=day)
    bad_daily = await made("d2", "finished", [("p2", "p2")], daily=day)
    bad_ending = await made("d3", "finished", [("p3", "p3")], result="solved", ending="solved")
    # SQLite keeps any value in any column; PostgreSQL's columns are typed, but JSON is only text there
    broken = ("moves", '"e2e4"') if is_postgres_url(url) else ("due_at", "soon")
    for game_id, column, value in ((bad[0], "moves", "not json"), (bad[1], "players", '{"white": "1"}'),
                                   (bad[2], *broken), (bad_daily, "players", "oops"), (bad_ending, "ending", "won")):
        await raw(url, f"UPDATE games SET {column} = '{value}' WHERE id = {game_id}")

    assert [r.id for r in await db.due(200.0)] == good
    assert [r.id for r in await db.open_games()] == good
    assert [r.id for r in await db.open_in_guild("g")] == good
    assert [r.id for r in await db.challenges("c2")] == good[1:]
    assert await db.open_game("c3") is None
    assert [r.id for r in await db.daily_games(day, "standard", "p1")] == [good_daily]
    assert [r.id for r in await db.unrecorded_daily_finishes(day, "standard", "g")] == [good_daily]
    assert await db.next_due() == 100.0
    for game_id in bad + [bad_daily, bad_ending]:
        assert await db.get(game_id) is None
        assert (await raw(url, f"SELECT status FROM games WHERE id = {game_id}")) == ("suspended",)
        assert logged(caplog, game_id) == 1


async def test_a_stored_game_in_play_whose_moves_end_it_is_finished_on_load(url, db, clock):
    service = timed(db, clock)
    shown, due = await started(service, "c-shown"), await started(service, "c-due")
    await raw(url, f"UPDATE games SET moves = '{FOOLS_MATE}' WHERE id IN ({shown}, {due})")
    clock.now += 3 * DAY
    restarted = timed(db, clock)   # a process that has not read them yet
    reply = await restarted.board("c-shown")
    assert "This game is over" in reply.text and "bob wins" in reply.text
    assert await restarted.due_events() == []   # ended by its moves, not lost on time
    for game_id in (shown, due):
        stored = await db.get(game_id)
        assert (stored.status, stored.result, stored.reason, stored.ending, stored.due_at) == (
            "finished", "0-1", "checkmate", "checkmate", None)
    assert (await db.rating_place("g", "standard", BOB.id))[1].games == 2   # rated like any finished game


async def test_copy_db_refuses_a_database_with_an_unreadable_game_and_names_it(tmp_path):
    source, target = f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"
    store = await open_store(source)
    service = GameService(store, renderer=fake_png)
    await started(service, "c-good")
    bad = await started(service, "c-bad")
    await store.close()
    await raw(source, f"UPDATE games SET moves = '[' WHERE id = {bad}")
    with pytest.raises(StoreError, match=f"Game {bad} in .* cannot be read"):
        await copy_games(source, target)


async def test_unreadable_server_settings_read_as_the_defaults_logged_once_and_kept(url, db, clock, caplog):
    caplog.set_level(logging.ERROR, logger="bot.store")
    service = timed(db, clock)
    await raw(url, "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES ('g', 'not json', 't'), "
                   "('h', '[\"chess960\"]', 't')")
    for guild in ("g", "h"):
        assert await db.settings(guild) == {}
        reply = await service.challenge(f"c-{guild}", ALICE, BOB, "standard", guild=guild)   # not "went wrong"
        assert reply.game_id and "Variants: all on." in (await service.show_settings(guild)).text
    assert await db.settings("g") == {}
    assert (await raw(url, "SELECT settings FROM guild_settings WHERE guild_id = 'g'")) == ("not json",)   # kept
    told = [r.getMessage() for r in caplog.records if "settings of server" in r.getMessage()]
    assert [m.split(" cannot be read")[0] for m in told] == ["the settings of server g", "the settings of server h"]
    await service.change_settings("g", disable="deadline")   # the server mends them by changing them
    assert (await db.settings("g"))["disabled"] == ["deadline"]
