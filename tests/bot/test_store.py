"""SQLite store: migrations, round trip, one open game per channel, survival across a restart."""
import re
import sqlite3
from dataclasses import replace

import pytest

from bot.service import GameService
from bot.store import MIGRATIONS, ChannelBusy, GameRecord, GameStatus, SqliteStore, StaleRecord

from .conftest import ALICE, BOB, CHANNEL, fake_png

pytestmark = pytest.mark.asyncio


def record(channel=CHANNEL, status="active"):
    return GameRecord("standard", channel, [("1", "alice"), ("2", "bob")],
                      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", status,
                      created_at="t0", updated_at="t0")


async def test_migrations_set_the_user_version_and_are_idempotent():
    store = await SqliteStore.open(":memory:")
    latest = max(int(script.name.split("_", 1)[0]) for script in MIGRATIONS.glob("*.sql"))
    assert latest >= 2
    assert await store.migrate() == latest
    assert await store.migrate() == latest
    await store.close()


async def test_the_status_enum_names_exactly_the_statuses_the_games_table_allows():
    store = await SqliteStore.open(":memory:")
    [(sql,)] = await (await store._conn.execute("SELECT sql FROM sqlite_master WHERE name = 'games'")).fetchall()
    await store.close()
    [allowed] = re.findall(r"CHECK \(status IN \(([^)]*)\)\)", sql)
    assert sorted(re.findall(r"'(\w+)'", allowed)) == sorted(GameStatus)


async def test_record_round_trips(tmp_path):
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    rec = record()
    rec.moves = ["e2e4", "g1f3 f1/g2"]
    game_id = await store.create(rec)
    loaded = await store.get(game_id)
    assert loaded == rec
    await store.close()


async def test_second_open_game_in_a_channel_is_refused(tmp_path):
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    await store.create(record())
    with pytest.raises(ChannelBusy):
        await store.create(record())
    await store.create(record(channel="other"))
    await store.create(record(status="finished"))
    await store.close()


async def test_unfinished_games_continue_after_a_restart(tmp_path):
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    service = GameService(store, renderer=fake_png)
    await service.challenge(CHANNEL, ALICE, BOB, "standard")
    await service.accept(CHANNEL, BOB)
    await service.move(CHANNEL, ALICE, "e4")
    await service.start_puzzle("puzzles", ALICE, "kingswap", seed=5)
    await service.move("puzzles", ALICE, (await service.move_suggestions("puzzles", ALICE))[0])
    await store.close()

    store = await SqliteStore.open(path)
    service = GameService(store, renderer=fake_png)
    assert await service.restore() == 2
    reply = await service.move(CHANNEL, BOB, "e5")
    assert reply.text.startswith("1… bob plays **e5**.")
    assert "moves played: 1" in (await service.board("puzzles")).text
    await store.close()


async def test_variant_state_beyond_the_board_survives_a_restart(tmp_path):
    # Moderation counts checks in a FEN field: replaying the stored moves must rebuild it.
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    service = GameService(store, renderer=fake_png)
    await service.challenge(CHANNEL, ALICE, BOB, "moderation")
    await service.accept(CHANNEL, BOB)
    for user, move in [(ALICE, "e4"), (BOB, "f5"), (ALICE, "Qh5+")]:
        await service.move(CHANNEL, user, move)
    fen_before = (await store.open_game(CHANNEL)).fen
    assert fen_before.endswith(" +1+0")
    await store.close()

    store = await SqliteStore.open(path)
    service = GameService(store, renderer=fake_png)
    await service.restore()
    reply = await service.move(CHANNEL, BOB, "g6")
    assert (await store.open_game(CHANNEL)).fen.endswith(" +1+0")
    assert "alice to move" in reply.text
    await store.close()


async def test_every_write_is_committed_when_it_returns_and_leaves_no_transaction_open(tmp_path):
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    rec = record()
    game_id = await store.create(rec)
    rec.moves, rec.fen = ["e2e4"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    await store.save(rec)
    stale = replace(rec, version=rec.version - 1, moves=["d2d4"])
    with pytest.raises(StaleRecord):
        await store.save(stale)
    with pytest.raises(ChannelBusy):
        await store.create(record())
    assert await store.rate(game_id, "g", "standard", ("1", "alice"), ("2", "bob"), 1.0, "t1")
    await store.set_pings("1", False, "t1")

    reader = sqlite3.connect(path)   # another connection sees only what was committed
    try:
        assert reader.execute("SELECT moves, version FROM games").fetchall() == [('["e2e4"]', 1)]
        assert reader.execute("SELECT COUNT(*) FROM ratings").fetchone() == (2,)
        assert reader.execute("SELECT pings FROM member_prefs").fetchall() == [(0,)]
    finally:
        reader.close()
    assert not store._conn.in_transaction
    await store.close()
