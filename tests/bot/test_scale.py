"""More than one process: services racing on one PostgreSQL database never fork a game, copy-db
moves every game between SQLite and PostgreSQL, and shard settings decide which process owns a guild."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from bot import __main__ as cli
from bot.config import ConfigError, load, parse_shards, shard_of
from bot.service import STALE, GameService, UserError
from bot.store import OTHER_TABLES, DailyResult, SqliteStore, StoreError
from bot.store.connect import copy_games, open_store, sqlite_path
from bot.store.postgres import PostgresStore, redact

from .conftest import ALICE, BOB, CHANNEL, fake_png

ROOT = Path(__file__).resolve().parents[2]
SEATS = {rules.WHITE: ALICE, rules.BLACK: BOB}


async def started(service, channel=CHANNEL, slug="standard"):
    await service.challenge(channel, ALICE, BOB, slug)
    await service.accept(channel, BOB)


def replayed(record) -> rules.Game:
    game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
    for move in record.moves:
        game.play(move)
    return game


# -- racing on one PostgreSQL database ------------------------------------------------------------

@pytest.mark.asyncio
async def test_two_services_on_one_postgres_database_racing_moves_never_fork_the_game(pg_url):
    # Two stores with their own connection pools: as two bot processes would be.
    stores = [await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)]
    first, second = (GameService(s, renderer=fake_png) for s in stores)
    await started(first)
    shadow, applied, told = rules.new_game("standard"), [], []
    for ply in range(16):
        candidates = sorted(shadow.legal_moves())
        moves = (candidates[ply % len(candidates)], candidates[-1 - ply % len(candidates)])
        player = SEATS[shadow.turn]
        results = await asyncio.gather(*(svc.move(CHANNEL, player, mv) for svc, mv in zip((first, second), moves)),
                                       return_exceptions=True)
        winners = [mv for mv, res in zip(moves, results) if not isinstance(res, BaseException)]
        losers = [res for res in results if isinstance(res, BaseException)]
        assert len(winners) == 1, (ply, moves, results)   # exactly one of the two applies
        assert all(isinstance(exc, UserError) for exc in losers), losers
        told += [str(exc) for exc in losers]
        shadow.play(winners[0])
        applied.append(winners[0])
    stored = await stores[0].open_game(CHANNEL)
    assert stored.moves == applied                         # the winners, in order, and nothing else
    assert replayed(stored).fen() == stored.fen == shadow.fen()
    assert stored.version == len(applied) + 1              # accept, then one save per applied move
    assert len(told) == 16 and all(t in (STALE, "It is not your turn.") for t in told), told
    assert STALE in told                                   # at least one true lost race, not only turn order
    for store in stores:
        await store.close()


def test_bot_processes_racing_on_one_game_in_postgres_never_fork_it(pg_url):
    async def setup():
        store = await open_store(pg_url)
        await started(GameService(store, renderer=fake_png))
        await store.close()

    asyncio.run(setup())
    plies = 24
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "KIBITZ"))}
    racers = [subprocess.Popen([sys.executable, "-m", "tests.bot.race_player", pg_url, CHANNEL, str(seed),
                                str(plies)], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for seed in (1, 2, 3)]
    for racer in racers:   # each has its store open: start them together, however long each took to start
        assert racer.stdout is not None and racer.stdout.readline().strip() == "ready", racer.communicate()[1]
    for racer in racers:
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    reports = []
    for racer in racers:
        out, err = racer.communicate(timeout=120)
        assert racer.returncode == 0, err
        reports.append(json.loads(out))

    async def stored_game():
        store = await open_store(pg_url)
        try:
            return await store.latest(CHANNEL)
        finally:
            await store.close()

    stored = asyncio.run(stored_game())
    wins = sorted((t["ply"], t["move"]) for report in reports for t in report if "ply" in t)
    assert [ply for ply, _ in wins] == list(range(1, len(stored.moves) + 1))   # one winner per ply, no gaps
    assert [move for _, move in wins] == stored.moves
    assert replayed(stored).fen() == stored.fen
    # A racer catches only UserError (a sentence for the player): anything else would end it non-zero.
    losses = [t["told"] for report in reports for t in report if "told" in t]
    assert losses, "three processes never collided: the race did not happen"


# -- copy-db ---------------------------------------------------------------------------------------

async def some_games(store) -> None:
    service = GameService(store, renderer=fake_png)
    await started(service, "duel")
    await service.move("duel", ALICE, "e4")
    await service.move("duel", BOB, "c5")
    await started(service, "done", "moderation")
    await service.resign("done", BOB)
    await service.start_puzzle("puzzles", ALICE, "kingswap", seed=5)
    await service.challenge("waiting", ALICE, BOB, "standard")
    await store.save_settings("g1", {"threads": False}, "t1")
    await store.set_pings(BOB.id, False, "t1")
    await store.add_daily_result(DailyResult("2026-11-23", "kingswap", ALICE.id, "g1", "alice", 3, True, 2, 1, 9,
                                             "t1"))


async def other_tables(store) -> dict[str, list[tuple]]:
    return {table: sorted(await store.table_rows(table), key=repr) for table in OTHER_TABLES}


@pytest.mark.asyncio
async def test_copy_db_copies_every_game_from_sqlite_to_postgres_and_back_unchanged(tmp_path, pg_url):
    source = await SqliteStore.open(tmp_path / "old.sqlite3")
    await some_games(source)
    originals = await source.all_games()
    await source.close()

    source = await SqliteStore.open(tmp_path / "old.sqlite3")
    tables = await other_tables(source)
    await source.close()
    assert all(tables.values()), tables                    # ratings, settings, pings, dailies: each has rows

    assert await copy_games(str(tmp_path / "old.sqlite3"), pg_url) == 4
    pg = await open_store(pg_url)
    assert await pg.all_games() == originals               # ids, versions, moves, results: all of it
    assert await other_tables(pg) == tables                # and every other table
    service = GameService(pg, renderer=fake_png)
    await service.move("duel", ALICE, "Nf3")               # games go on from where they were
    new_id = (await service.challenge("fresh", ALICE, BOB, "standard")).game_id
    assert new_id == max(r.id for r in originals) + 1      # new ids follow the copied ones
    expected = await pg.all_games()
    await pg.close()

    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    assert await copy_games(pg_url, back) == 5
    store = await open_store(back)
    assert await store.all_games() == expected
    assert await other_tables(store) == tables
    await store.close()


def test_copy_db_refuses_a_target_that_already_holds_games(tmp_path):
    async def make(path):
        store = await SqliteStore.open(path)
        await some_games(store)
        await store.close()

    asyncio.run(make(tmp_path / "a.sqlite3"))
    asyncio.run(make(tmp_path / "b.sqlite3"))
    with pytest.raises(StoreError, match="already holds games"):
        asyncio.run(copy_games(str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")))


def test_copy_db_from_a_missing_sqlite_file_is_refused_and_creates_nothing(tmp_path):
    with pytest.raises(StoreError, match="no database at"):
        asyncio.run(copy_games(str(tmp_path / "typo.sqlite3"), str(tmp_path / "b.sqlite3")))
    assert list(tmp_path.iterdir()) == []


def test_python_m_bot_copy_db_copies_and_reports_the_count(tmp_path, pg_url):
    async def make():
        store = await SqliteStore.open(tmp_path / "a.sqlite3")
        await some_games(store)
        await store.close()

    asyncio.run(make())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "KIBITZ"))}
    done = subprocess.run([sys.executable, "-m", "bot", "copy-db", str(tmp_path / "a.sqlite3"), pg_url],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Copied 4 game(s)." in done.stdout
    usage = subprocess.run([sys.executable, "-m", "bot", "copy-db", "only-one"], capture_output=True, text=True,
                           env=env, cwd=tmp_path, timeout=60)
    assert usage.returncode == 2 and "usage: python -m bot copy-db SOURCE TARGET" in usage.stderr


# -- choosing the store ----------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_kibitz_db_chooses_sqlite_for_a_path_or_sqlite_url_and_postgres_for_a_url(tmp_path, pg_url):
    assert sqlite_path("sqlite:////var/k.db") == "/var/k.db" and sqlite_path("k.db") == "k.db"
    for target in (str(tmp_path / "a.sqlite3"), f"sqlite:///{tmp_path / 'b.sqlite3'}"):
        store = await open_store(target)
        assert isinstance(store, SqliteStore)
        await store.close()
    assert (tmp_path / "b.sqlite3").is_file()
    store = await open_store(pg_url)
    assert isinstance(store, PostgresStore)
    await store.close()


@pytest.mark.asyncio
async def test_an_unreachable_postgres_server_is_refused_with_a_sentence_without_its_password():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]                          # nothing listens here once closed
    with pytest.raises(StoreError, match="Cannot reach the PostgreSQL server") as caught:
        await open_store(f"postgresql://kibitz:hunter2@127.0.0.1:{port}/kibitz")
    assert "hunter2" not in str(caught.value) and "kibitz:***@" in str(caught.value)
    assert redact("postgresql://u@h/db") == "postgresql://u@h/db"


# -- shards ----------------------------------------------------------------------------------------

def test_shard_settings_are_read_from_the_environment():
    cfg = load({"KIBITZ_SHARD_COUNT": "4", "KIBITZ_SHARD_IDS": "0, 2"}, dotenv=Path("/nonexistent"))
    assert (cfg.shard_count, cfg.shard_ids) == (4, (0, 2))
    assert not cfg.runs_every_shard
    whole = load({"KIBITZ_SHARD_COUNT": "2"}, dotenv=Path("/nonexistent"))
    assert (whole.shard_count, whole.shard_ids, whole.runs_every_shard) == (2, None, True)
    plain = load({}, dotenv=Path("/nonexistent"))
    assert (plain.shard_count, plain.shard_ids, plain.sharded) == (None, None, False)


@pytest.mark.parametrize("count, ids, complaint", [
    ("0", "", "1 or more"), ("many", "", "whole number"), ("", "0,1", "KIBITZ_SHARD_COUNT is not"),
    ("2", "0,2", "from 0 to 1"), ("2", "0,x", "separated by commas"), ("3", "1,1", "twice"), ("2", "-1", "from 0"),
])
def test_bad_shard_settings_are_refused_with_a_sentence(count, ids, complaint):
    with pytest.raises(ConfigError, match=complaint):
        parse_shards(count, ids)


def test_a_guild_belongs_to_the_shard_discord_routes_it_to():
    guild = (123456789 << 22) | 987                        # a snowflake: timestamp bits above bit 22
    assert shard_of(guild, 4) == 123456789 % 4 == 1
    assert shard_of(str(guild), 4) == 1                    # records keep ids as text
    assert shard_of(None, 4) == 0                          # direct messages: shard 0
    here = load({"KIBITZ_SHARD_COUNT": "4", "KIBITZ_SHARD_IDS": "1,3"}, dotenv=Path("/nonexistent"))
    assert here.owns_guild(guild) and here.owns_guild(str(guild))
    assert not here.owns_guild(guild + (1 << 22)) and not here.owns_guild(None)
    assert load({}, dotenv=Path("/nonexistent")).owns_guild(guild)    # unsharded: every guild


def test_the_discord_bot_runs_the_configured_shards_and_knows_its_guilds():
    from bot.discord.app import DiscordConfig, ShardedKibitzBot, create_bot, shard_options
    from bot.store import InMemoryStore

    cfg = load({"KIBITZ_SHARD_COUNT": "4", "KIBITZ_SHARD_IDS": "1,3"}, dotenv=Path("/nonexistent"))
    assert shard_options(cfg) == {"shard_count": 4, "shard_ids": [1, 3]}
    assert shard_options(load({}, dotenv=Path("/nonexistent"))) == {}
    service = GameService(InMemoryStore(), renderer=fake_png)
    bot = create_bot(service, config=DiscordConfig(), **shard_options(cfg))
    assert isinstance(bot, ShardedKibitzBot) and (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    guild = (1 << 22) * 5                                  # shard 5 % 4 = 1
    assert bot.owns_guild(guild) and not bot.owns_guild(guild + (1 << 22))
    single = create_bot(service, config=DiscordConfig())
    assert not isinstance(single, ShardedKibitzBot) and single.owns_guild(guild)


def test_sqlite_with_shards_run_in_other_processes_is_refused_with_a_sentence(tmp_path):
    cfg = load({"KIBITZ_SHARD_COUNT": "2", "KIBITZ_SHARD_IDS": "0", "KIBITZ_DB": str(tmp_path / "k.sqlite3")},
               dotenv=Path("/nonexistent"))
    with pytest.raises(StoreError, match="must share one database: set KIBITZ_DB to a PostgreSQL URL"):
        cli.check_shards(cfg)
    cli.check_shards(load({"KIBITZ_SHARD_COUNT": "2", "KIBITZ_DB": "k.sqlite3"}, dotenv=Path("/nonexistent")))
    cli.check_shards(load({"KIBITZ_SHARD_COUNT": "2", "KIBITZ_SHARD_IDS": "0",
                           "KIBITZ_DB": "postgresql://k@db/k"}, dotenv=Path("/nonexistent")))
