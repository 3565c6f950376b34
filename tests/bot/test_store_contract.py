"""The GameStore contract, run against every store: in memory, SQLite and a real PostgreSQL server."""
from __future__ import annotations

import pytest
import pytest_asyncio

from bot.service import GameService, UserError
from bot.store import ChannelBusy, GameRecord, InMemoryStore, StaleRecord
from bot.store_pg import PG_MIGRATIONS, PostgresStore, open_store

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
                 draw_offer="2", rules_version="0.2.0", score=None)
    game_id = await any_store.create(rec)
    assert rec.id == game_id
    assert await any_store.get(game_id) == rec
    assert await any_store.get(game_id + 1000) is None


async def test_ids_grow_and_latest_is_the_newest_game_of_the_channel(any_store):
    first = await any_store.create(record(status="finished"))
    second = await any_store.create(record())
    await any_store.create(record(channel="elsewhere", status="finished"))
    assert second > first
    assert (await any_store.latest(CHANNEL)).id == second
    assert await any_store.latest("nowhere") is None


async def test_a_second_open_game_in_a_channel_is_refused_on_create_and_on_save(any_store):
    finished = record(status="finished")
    await any_store.create(finished)
    await any_store.create(record())
    with pytest.raises(ChannelBusy):
        await any_store.create(record(status="challenge"))
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
    assert (await any_store.open_game("c2")).status == "challenge"


async def test_postgres_migrations_are_numbered_recorded_and_run_once(pg_url):
    latest = max(int(script.name.split("_", 1)[0]) for script in PG_MIGRATIONS.glob("*.sql"))
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
