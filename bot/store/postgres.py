"""PostgreSQL behind the same GameStore interface, for several bot processes (Discord shards).

    store = await open_store(cfg.db_path)   # bot.store.connect; KIBITZ_DB: postgresql://..., sqlite:///path, or a path

`PostgresStore` behaves exactly as `SqliteStore`: a save is a compare-and-set on `version` (one
UPDATE ... WHERE id = $n AND version = $m, atomic in PostgreSQL, so any number of processes may
share the database and none can fork a game), a second open game in a channel is refused by the
same partial unique index (`ChannelBusy`), and migrations are the same numbered files, translated
(bot/store/migrations.py), their version kept in the table `kibitz_schema`. Processes that
start together take an advisory lock while migrating, so each migration runs once; one that
finds the lock held says so in the log and gives up after `lock_timeout` seconds.

Nothing waits on the server for ever: a connection or query not answered within
`query_timeout` seconds (KIBITZ_PG_TIMEOUT), the wait for a free connection in the pool included,
raises TimeoutError, which players see as "try again". Migrations alone have no time limit (an
index build on a big table may take minutes); waiting for another process's migration has its own.

asyncpg is an optional dependency (`pip install 'kibitz[postgres]'`); SQLite needs nothing.
"""
from __future__ import annotations

import json
import asyncio
import logging
import math
import re
from functools import partialmethod
from dataclasses import replace
from typing import Any

from .migrations import BACKFILLS, postgres_migrations
from .records import ChannelBusy, DailyResult, Delivery, GameRecord, GameStatus, PlayerRating, StaleRecord, StoreError, rated_pair
from .rows import (DAILY_COLUMNS, GAME_COLUMNS, OPEN_SQL, OTHER_TABLES, RATING_COLUMNS, SET_ASIDE, UNRATED,
                   SetsAsideBadRows, delivery_of, delivery_row, DELIVERY_COLUMNS, from_row, settings_of, to_row)

try:
    import asyncpg
except ImportError:   # SQLite needs nothing more; a PostgreSQL URL then gets a sentence
    asyncpg = None

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x6B6962   # pg_advisory_xact_lock key: one migrating process at a time
PG_SCHEMES = ("postgresql://", "postgres://")
# The first player's id, read as text: never fails on a row whose players column is not JSON
# (that row then fails to decode, and is set aside).
_FIRST_PLAYER = r"""substring({} from '^\s*\[\s*\[\s*"([^"\\]*)"')"""


def is_postgres_url(target: str) -> bool:
    return str(target).startswith(PG_SCHEMES)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


class PostgresStore(SetsAsideBadRows):
    """PostgreSQL through an asyncpg pool; every write is one atomic statement."""

    def __init__(self, pool: Any, url: str, lock_timeout: float = 120) -> None:
        self._pool = pool
        self.url = url
        self.lock_timeout = lock_timeout   # seconds start-up waits for another process's migration
        self._unreadable_settings: set[str] = set()   # servers whose settings row was logged as unreadable

    @classmethod
    async def open(cls, url: str, *, max_size: int = 10, query_timeout: float | None = None,
                   lock_timeout: float = 120) -> "PostgresStore":
        """Connect, migrate and prove the database writable, or raise StoreError with one sentence.
        `query_timeout`: seconds a connection or query may take (None: 10 s to connect, queries
        unlimited, as copy-db wants); `lock_timeout`: seconds to wait for another migrating process."""
        if asyncpg is None:
            raise StoreError("KIBITZ_DB is a PostgreSQL URL, but asyncpg is not installed: "
                             "pip install 'kibitz[postgres]' (SQLite needs nothing).")
        where = redact(url)
        silent = (f"The PostgreSQL server at {where} did not answer within "
                  + (f"{query_timeout:g} s (KIBITZ_PG_TIMEOUT)" if query_timeout else "10 s"))
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=max_size, timeout=query_timeout or 10,
                                             command_timeout=query_timeout)
        except TimeoutError:   # reached (else OSError), but silent: paused, or its disk hung
            raise StoreError(f"{silent}. Is it overloaded or paused?") from None
        except OSError as exc:
            raise StoreError(f"Cannot reach the PostgreSQL server at {where}: {_why(exc)}. "
                             f"Is it running, and is KIBITZ_DB right?") from None
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(f"Cannot use the PostgreSQL database {where}: {_why(exc)}.") from None
        store = cls(_BoundedPool(pool, query_timeout), url, lock_timeout)
        try:
            await store.migrate()
        except asyncpg.PostgresError as exc:
            await pool.close()
            raise StoreError(f"Cannot prepare the PostgreSQL database {where}: {_why(exc)}. "
                             f"The Kibitz user needs to create tables there.") from None
        except TimeoutError:
            pool.terminate()   # closing politely would wait on the silent server too
            raise StoreError(f"{silent} while Kibitz prepared the database. Is it overloaded or paused?") from None
        except BaseException:
            pool.terminate()
            raise
        return store

    async def _lock_migrations(self, conn: Any) -> None:
        """Take the migration lock in `conn`'s transaction. Held by another process: say so and
        wait at most `lock_timeout` seconds, then raise StoreError with one sentence."""
        if await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", MIGRATION_LOCK):
            return
        where = redact(self.url)
        log.info("another process is migrating the PostgreSQL database %s (it holds the migration lock): "
                 "waiting for it, at most %g s (KIBITZ_PG_LOCK_TIMEOUT)", where, self.lock_timeout)
        try:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=self.lock_timeout)
        except TimeoutError:
            raise StoreError(f"Kibitz waited {self.lock_timeout:g} s (KIBITZ_PG_LOCK_TIMEOUT) for another process "
                             f"to finish migrating the PostgreSQL database {where}, and gave up: if that process "
                             f"is stuck, stop it, then start Kibitz again.") from None

    async def migrate(self) -> int:
        """Run the numbered migrations not yet applied, each in its own transaction."""
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                await self._lock_migrations(conn)
                await conn.execute("CREATE TABLE IF NOT EXISTS kibitz_schema (version INTEGER NOT NULL)")
                if await conn.fetchval("SELECT version FROM kibitz_schema") is None:
                    await conn.execute("INSERT INTO kibitz_schema (version) VALUES (0)")
            for migration in postgres_migrations():
                async with conn.transaction():
                    await self._lock_migrations(conn)
                    if await conn.fetchval("SELECT version FROM kibitz_schema") >= migration.number:
                        continue   # applied (perhaps by another process meanwhile)
                    await conn.execute(migration.sql, timeout=math.inf)   # not the query timeout: see the docstring
                    backfill = BACKFILLS.get(migration.number)
                    if backfill is not None:
                        rows = await conn.fetch(backfill.select, timeout=math.inf)
                        await conn.executemany(backfill.update_sql(lambda i: f"${i}"), backfill.updates(rows),
                                               timeout=math.inf)
                    await conn.execute("UPDATE kibitz_schema SET version = $1", migration.number)
            return int(await conn.fetchval("SELECT version FROM kibitz_schema"))

    async def create(self, record: GameRecord) -> int:
        placeholders = ", ".join(f"${i}" for i in range(1, len(GAME_COLUMNS) + 1))
        try:
            game_id = await self._pool.fetchval(
                f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({placeholders}) RETURNING id", *to_row(record))
        except asyncpg.UniqueViolationError:
            raise ChannelBusy(record.channel_id) from None
        record.id = int(game_id)
        return record.id

    async def save(self, record: GameRecord) -> None:
        assignments = ", ".join(f"{c} = ${i}" for i, c in enumerate(GAME_COLUMNS, start=1))
        n = len(GAME_COLUMNS)
        row = to_row(replace(record, version=record.version + 1))
        try:
            status = await self._pool.execute(
                f"UPDATE games SET {assignments} WHERE id = ${n + 1} AND version = ${n + 2}",
                *row, record.id, record.version)
        except asyncpg.UniqueViolationError:
            raise ChannelBusy(record.channel_id) from None
        if status != "UPDATE 1":
            raise StaleRecord(record.id)
        record.version += 1

    async def _one(self, sql: str, *args: Any) -> GameRecord | None:
        return next(iter(await self._many(sql, *args)), None)

    async def get(self, game_id: int) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE id = $1", game_id)

    async def open_game(self, channel_id: str) -> GameRecord | None:
        """The game in play in a channel or thread (challenges wait elsewhere: `challenges`)."""
        return await self._one(f"SELECT * FROM games WHERE channel_id = $1 AND status = '{GameStatus.ACTIVE}'",
                               channel_id)

    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        if statuses is None:
            return await self._one("SELECT * FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id)
        return await self._one("SELECT * FROM games WHERE channel_id = $1 AND status = ANY($2::text[]) "
                               "ORDER BY id DESC LIMIT 1", channel_id, list(statuses))

    async def rematch_of(self, game_id: int) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE rematch_of = $1 ORDER BY id LIMIT 1", game_id)

    async def open_games(self) -> list[GameRecord]:
        return await self._many(f"SELECT * FROM games WHERE {OPEN_SQL} ORDER BY id")

    async def count_open(self) -> int:
        return int(await self._pool.fetchval(f"SELECT COUNT(*) FROM games WHERE {OPEN_SQL}"))

    # -- copying a whole database (python -m bot copy-db) ----------------------------------------
    async def all_games(self) -> list[GameRecord]:
        return [from_row(r) for r in await self._pool.fetch("SELECT * FROM games ORDER BY id")]

    async def table_rows(self, table: str) -> list[tuple]:
        """Every row of one of OTHER_TABLES, its columns in OTHER_TABLES order."""
        return [tuple(r) for r in await self._pool.fetch(f"SELECT {', '.join(OTHER_TABLES[table])} FROM {table}")]

    async def put(self, records: list[GameRecord], tables: dict[str, list[tuple]] | None = None) -> None:
        """Insert records exactly as they are (ids and versions kept), and the rows of OTHER_TABLES
        given, in one transaction; new games then take ids after the highest one."""
        columns = ("id", *GAME_COLUMNS)
        placeholders = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                await conn.executemany(f"INSERT INTO games ({', '.join(columns)}) VALUES ({placeholders})",
                                       [(r.id, *to_row(r)) for r in records])
                for table, rows in (tables or {}).items():
                    names = OTHER_TABLES[table]
                    marks = ", ".join(f"${i}" for i in range(1, len(names) + 1))
                    await conn.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", rows)
                await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), "
                                   "GREATEST((SELECT MAX(id) FROM games), 1), (SELECT COUNT(*) > 0 FROM games))")

    # -- ratings -------------------------------------------------------------------------------
    async def rate(self, game_id: int, guild_id: str, variant: str, white: tuple[str, str],
                   black: tuple[str, str], white_score: float, when: str) -> bool:
        """One transaction; both rows made if new, then locked in player-id order, so games
        ending at once for the same members never deadlock and never lose an update."""
        columns = ", ".join(RATING_COLUMNS)
        placeholders = ", ".join(f"${i}" for i in range(1, len(RATING_COLUMNS) + 1))
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in RATING_COLUMNS[3:])
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                status = await conn.execute(
                    "INSERT INTO rated_games (game_id, rated_at) VALUES ($1, $2) ON CONFLICT DO NOTHING", game_id, when)
                if status != "INSERT 0 1":
                    return False
                names = dict((white, black))
                for pid in sorted(names):   # rows exist before they are locked: a new member's too
                    fresh = PlayerRating(guild_id, variant, pid, names[pid], updated_at=when)
                    await conn.execute(f"INSERT INTO ratings ({columns}) VALUES ({placeholders}) ON CONFLICT DO NOTHING",
                                       *(getattr(fresh, c) for c in RATING_COLUMNS))
                found = {r["player_id"]: PlayerRating(**dict(r)) for r in await conn.fetch(
                    "SELECT * FROM ratings WHERE guild_id = $1 AND variant = $2 AND player_id = ANY($3::text[]) "
                    "ORDER BY player_id FOR UPDATE", guild_id, variant, sorted({white[0], black[0]}))}
                rows = [found.get(pid) or PlayerRating(guild_id, variant, pid, name) for pid, name in (white, black)]
                for row in rated_pair(rows[0], rows[1], (white[1], black[1]), white_score, when):
                    await conn.execute(
                        f"INSERT INTO ratings ({columns}) VALUES ({placeholders}) "
                        f"ON CONFLICT (guild_id, variant, player_id) DO UPDATE SET {updates}",
                        *(getattr(row, c) for c in RATING_COLUMNS))
        return True

    async def leaderboard(self, guild_id: str, variant: str, limit: int = 10) -> list[PlayerRating]:
        rows = await self._pool.fetch(
            "SELECT * FROM ratings WHERE guild_id = $1 AND variant = $2 ORDER BY rating DESC, games DESC, player_id "
            "LIMIT $3", guild_id, variant, limit)
        return [PlayerRating(**dict(r)) for r in rows]

    async def rating_place(self, guild_id: str, variant: str, player_id: str) -> tuple[int, PlayerRating] | None:
        found = await self._pool.fetchrow(
            "SELECT * FROM ratings WHERE guild_id = $1 AND variant = $2 AND player_id = $3",
            guild_id, variant, player_id)
        if found is None:
            return None
        row = PlayerRating(**dict(found))
        above = await self._pool.fetchval(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND variant = $2 AND rating > $3",
            guild_id, variant, row.rating)
        return 1 + int(above), row

    async def player_ratings(self, guild_id: str, player_id: str) -> list[PlayerRating]:
        rows = await self._pool.fetch(
            "SELECT * FROM ratings WHERE guild_id = $1 AND player_id = $2 ORDER BY variant", guild_id, player_id)
        return [PlayerRating(**dict(r)) for r in rows]

    async def best_scores(self, guild_id: str, variant: str, higher_is_better: bool,
                          limit: int = 10) -> list[GameRecord]:
        order = "DESC" if higher_is_better else "ASC"
        return await self._many(
            "SELECT * FROM games WHERE COALESCE(guild_id, '') = $1 AND variant = $2 "
            f"AND status = '{GameStatus.FINISHED}' AND practice = 0 "
            f"AND score IS NOT NULL ORDER BY result IS DISTINCT FROM 'solved', score {order}, id LIMIT $3",
            guild_id, variant, limit)

    # -- lobby, deadlines, settings, dailies ------------------------------------------------------
    async def _many(self, sql: str, *args: Any) -> list[GameRecord]:
        return await self._decoded(await self._pool.fetch(sql, *args))

    async def _mark_suspended(self, game_id: int, error: str, when: str) -> bool:
        return await self._pool.execute(SET_ASIDE.format("$1", "$2", "$3"), error, when, game_id) == "UPDATE 1"

    async def challenges(self, channel_id: str) -> list[GameRecord]:
        return await self._many(f"SELECT * FROM games WHERE status = '{GameStatus.CHALLENGE}' "
                                "AND COALESCE(home_channel_id, channel_id) = $1 ORDER BY id", channel_id)

    async def open_in_guild(self, guild_id: str | None) -> list[GameRecord]:
        return await self._many(f"SELECT * FROM games WHERE guild_id IS NOT DISTINCT FROM $1 AND {OPEN_SQL} "
                                "ORDER BY id", guild_id)

    async def next_due(self, after: float | None = None) -> float | None:
        value = await self._pool.fetchval(f"SELECT MIN(due_at) FROM games WHERE due_at IS NOT NULL AND {OPEN_SQL} "
                                          "AND ($1::double precision IS NULL OR due_at > $1)", after)
        return None if value is None else float(value)

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        return await self._many(f"SELECT * FROM games WHERE due_at IS NOT NULL AND due_at <= $1 AND {OPEN_SQL} "
                                "ORDER BY due_at, id LIMIT $2", now, limit)

    async def settings(self, guild_id: str) -> dict:
        raw = await self._pool.fetchval("SELECT settings FROM guild_settings WHERE guild_id = $1", guild_id)
        return settings_of(guild_id, raw, self._unreadable_settings)

    async def save_settings(self, guild_id: str, settings: dict, when: str) -> None:
        await self._pool.execute("INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES ($1, $2, $3) "
                                 "ON CONFLICT (guild_id) DO UPDATE SET settings = EXCLUDED.settings, "
                                 "updated_at = EXCLUDED.updated_at", guild_id, json.dumps(settings), when)

    async def pings(self, user_id: str) -> bool:
        value = await self._pool.fetchval("SELECT pings FROM member_prefs WHERE user_id = $1", user_id)
        return True if value is None else bool(value)

    async def set_pings(self, user_id: str, on: bool, when: str) -> None:
        await self._pool.execute("INSERT INTO member_prefs (user_id, pings, updated_at) VALUES ($1, $2, $3) "
                                 "ON CONFLICT (user_id) DO UPDATE SET pings = EXCLUDED.pings, "
                                 "updated_at = EXCLUDED.updated_at", user_id, int(on), when)

    async def daily_games(self, day: str, variant: str, player_id: str) -> list[GameRecord]:
        return await self._many("SELECT * FROM games WHERE daily = $1 AND variant = $2 "
                                f"AND {_FIRST_PLAYER.format('players')} = $3 ORDER BY id", day, variant, player_id)

    async def unrecorded_daily_finishes(self, day: str, variant: str, guild_id: str) -> list[GameRecord]:
        return await self._many(
            f"SELECT * FROM games AS g WHERE g.daily = $1 AND g.variant = $2 AND g.status = '{GameStatus.FINISHED}' "
            "AND COALESCE(g.guild_id, '') = $3 AND NOT EXISTS (SELECT 1 FROM daily_results AS d "
            f"WHERE d.day = g.daily AND d.variant = g.variant AND d.player_id = {_FIRST_PLAYER.format('g.players')}) "
            "ORDER BY g.id", day, variant, guild_id)

    async def unrated_finishes(self, guild_id: str) -> list[GameRecord]:
        return await self._many(UNRATED.format("$1"), guild_id)

    async def add_daily_result(self, result: DailyResult) -> bool:
        placeholders = ", ".join(f"${i}" for i in range(1, len(DAILY_COLUMNS) + 1))
        values = [int(v) if isinstance(v, bool) else v for v in (getattr(result, c) for c in DAILY_COLUMNS)]
        status = await self._pool.execute(f"INSERT INTO daily_results ({', '.join(DAILY_COLUMNS)}) "
                                          f"VALUES ({placeholders}) ON CONFLICT DO NOTHING", *values)
        return bool(status == "INSERT 0 1")

    async def daily_results(self, guild_id: str, variant: str, day: str) -> list[DailyResult]:
        rows = await self._pool.fetch("SELECT * FROM daily_results WHERE guild_id = $1 AND variant = $2 AND day = $3",
                                      guild_id, variant, day)
        return [DailyResult(**{**dict(r), "solved": bool(r["solved"])}) for r in rows]

    async def add_delivery(self, delivery: Delivery) -> int:
        marks = ", ".join(f"${i}" for i in range(1, len(DELIVERY_COLUMNS) + 1))
        delivery.id = int(await self._pool.fetchval(
            f"INSERT INTO outbox ({', '.join(DELIVERY_COLUMNS)}) VALUES ({marks}) RETURNING id", *delivery_row(delivery)))
        return delivery.id

    async def deliveries(self, limit: int = 100) -> list[Delivery]:
        return [delivery_of(r) for r in await self._pool.fetch("SELECT * FROM outbox ORDER BY id LIMIT $1", limit)]

    async def drop_delivery(self, delivery_id: int) -> None:
        await self._pool.execute("DELETE FROM outbox WHERE id = $1", delivery_id)

    async def mark_delivery(self, delivery_id: int, reply: dict) -> None:
        await self._pool.execute("UPDATE outbox SET reply = $1 WHERE id = $2", json.dumps(reply), delivery_id)

    async def close(self) -> None:
        """Close the connections politely, or, on a server that does not answer, drop them."""
        try:
            await self._pool.close()
        except (TimeoutError, OSError) as exc:
            log.warning("the PostgreSQL server at %s did not answer while Kibitz closed its connections (%s): "
                        "dropped them", redact(self.url), _why(exc))
            self._pool.terminate()


class _BoundedPool:
    """An asyncpg pool whose waits for a free connection are bounded too (asyncpg's own fetch,
    execute, ... wait for ever): a query, its wait included, gets `timeout` seconds in all (None:
    no limit), so a frozen server answers many commands at once as quickly as one."""

    def __init__(self, pool: Any, timeout: float | None) -> None:
        self._pool, self._timeout = pool, timeout

    def acquire(self) -> Any:
        return self._pool.acquire(timeout=self._timeout)

    async def _query(self, method: str, sql: str, *args: Any) -> Any:
        started = asyncio.get_running_loop().time()
        async with self.acquire() as conn:
            left = None if self._timeout is None else self._timeout - (asyncio.get_running_loop().time() - started)
            return await getattr(conn, method)(sql, *args, timeout=left)

    fetch = partialmethod(_query, "fetch")
    fetchrow = partialmethod(_query, "fetchrow")
    fetchval = partialmethod(_query, "fetchval")
    execute = partialmethod(_query, "execute")

    async def close(self) -> None:
        await self._pool.close()

    def terminate(self) -> None:
        self._pool.terminate()


def _why(exc: BaseException) -> str:
    """An error's text, or its type's name when it has none (str(TimeoutError()) is empty)."""
    return str(exc) or type(exc).__name__
