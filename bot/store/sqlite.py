"""SQLite behind the GameStore protocol, through aiosqlite.

One process per SQLite file: `SqliteStore.open` takes an exclusive advisory lock on the file
(released by the kernel when the process dies, even by kill -9) and refuses a second process
with `StoreError`. It also refuses, with one sentence each, a file that is not a database, a
read-only one, a directory, and a path under a file, before the bot connects anywhere.
"""
from __future__ import annotations

import asyncio
import errno
import fcntl
import json
import os
import sqlite3
from pathlib import Path

import aiosqlite

from .migrations import BACKFILLS, sqlite_migrations
from .records import ChannelBusy, DailyResult, Delivery, GameRecord, GameStatus, PlayerRating, StaleRecord, StoreError, rated_pair
from .rows import (DAILY_COLUMNS, GAME_COLUMNS, OPEN_SQL, OTHER_TABLES, RATING_COLUMNS, SET_ASIDE, UNRATED, SetsAsideBadRows,
                   DELIVERY_COLUMNS, delivery_of, delivery_row, from_row, settings_of, to_row)

_UPDATE_GAME = f"UPDATE games SET {', '.join(f'{c} = ?' for c in GAME_COLUMNS)} WHERE id = ? AND version = ?"
# The first player's id, in SQL that never fails on a row whose players column is not JSON.
_FIRST_PLAYER = "CASE WHEN json_valid({0}) THEN json_extract({0}, '$[0][0]') END"


class SqliteStore(SetsAsideBadRows):
    """SQLite through aiosqlite: WAL, synchronous=NORMAL, one writer at a time, numbered migrations.

    The connection is in autocommit mode (``isolation_level=None``): a write of one statement
    (saving a game, settings) commits itself, in one trip to aiosqlite's thread; a write of several
    statements (a rating, a copy) is one explicit ``BEGIN IMMEDIATE`` .. ``COMMIT``. Every write,
    of one statement or several, holds ``_write``, so no statement of one task ever lands inside
    another task's transaction (the tasks share the connection).
    """

    def __init__(self, conn: aiosqlite.Connection, lock_fd: int | None = None) -> None:
        self._conn = conn
        self._write = asyncio.Lock()
        self._lock_fd = lock_fd
        # Ping preferences, read once per member: every move asks for one. The file is locked to
        # this process (one process per file), and set_pings keeps it up to date.
        self._pings: dict[str, bool] = {}
        self._pings_set = 0   # set_pings calls so far: a read that overlapped one is not kept
        self._unreadable_settings: set[str] = set()   # servers whose settings row was logged as unreadable

    @classmethod
    async def open(cls, path: str | Path) -> "SqliteStore":
        """Open (creating and migrating) the database, or raise StoreError with one sentence."""
        lock_fd = None if str(path) == ":memory:" else _lock_file(Path(path))
        conn = None
        try:
            conn = aiosqlite.connect(str(path), isolation_level=None)   # autocommit: see the class docstring
            worker = getattr(conn, "_thread", None)
            if worker is not None:
                worker.daemon = True   # a store left open (a crash, a failed test) never keeps the process alive
            await conn
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            check = await _scalar(conn, "PRAGMA quick_check")
            if check != "ok":
                raise StoreError(f"The database {path} is damaged ({check}). Restore it from a backup.")
            store = cls(conn, lock_fd)
            await store.migrate()
            await store._prove_writable()
            return store
        except BaseException as exc:
            if conn is not None:
                await conn.close()   # else aiosqlite's thread keeps the process alive
            if lock_fd is not None:
                os.close(lock_fd)
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(_database_sentence(path, exc)) from None
            raise

    async def _prove_writable(self) -> None:
        """A read-only database is refused at start-up, not at the first move."""
        async with self._write:
            version = await _scalar(self._conn, "PRAGMA user_version")
            await self._conn.execute(f"PRAGMA user_version = {int(version)}")

    async def migrate(self) -> int:
        async with self._write:
            version = await _scalar(self._conn, "PRAGMA user_version")
            for migration in sqlite_migrations():
                if migration.number <= version:
                    continue
                try:   # the file, its backfill (if any) and the new version: one transaction
                    await self._conn.executescript(f"BEGIN;\n{migration.sql}")
                    backfill = BACKFILLS.get(migration.number)
                    if backfill is not None:
                        rows = await (await self._conn.execute(backfill.select)).fetchall()
                        await self._conn.executemany(backfill.update_sql(lambda _: "?"), backfill.updates(rows))
                    await self._conn.execute(f"PRAGMA user_version = {migration.number}")
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._conn.rollback()
                    raise
                version = migration.number
            return version

    async def create(self, record: GameRecord) -> int:
        placeholders = ", ".join("?" for _ in GAME_COLUMNS)
        async with self._write:
            try:   # one statement: it commits itself, or fails and changes nothing
                cursor = await self._conn.execute(
                    f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({placeholders})", to_row(record))
            except aiosqlite.IntegrityError:
                raise ChannelBusy(record.channel_id) from None
        record.id = int(cursor.lastrowid or 0)
        return record.id

    async def save(self, record: GameRecord) -> None:
        row = to_row(record, version=record.version + 1)
        async with self._write:
            try:   # one compare-and-set statement: it commits itself, or changes nothing
                cursor = await self._conn.execute(_UPDATE_GAME, (*row, record.id, record.version))
            except aiosqlite.IntegrityError:
                raise ChannelBusy(record.channel_id) from None
        if cursor.rowcount != 1:
            raise StaleRecord(record.id)
        record.version += 1

    async def _one(self, sql: str, args: tuple) -> GameRecord | None:
        return next(iter(await self._many(sql, args)), None)

    async def get(self, game_id: int) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game(self, channel_id: str) -> GameRecord | None:
        """The game in play in a channel or thread (challenges wait elsewhere: `challenges`)."""
        return await self._one(f"SELECT * FROM games WHERE channel_id = ? AND status = '{GameStatus.ACTIVE}'",
                               (channel_id,))

    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        if statuses is None:
            return await self._one("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        marks = ", ".join("?" for _ in statuses)
        return await self._one(f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) "
                               "ORDER BY id DESC LIMIT 1", (channel_id, *statuses))

    async def rematch_of(self, game_id: int) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE rematch_of = ? ORDER BY id LIMIT 1", (game_id,))

    async def open_games(self) -> list[GameRecord]:
        return await self._many(f"SELECT * FROM games WHERE {OPEN_SQL} ORDER BY id", ())

    async def count_open(self) -> int:
        return int(await _scalar(self._conn, f"SELECT COUNT(*) FROM games WHERE {OPEN_SQL}"))

    # -- copying a whole database (python -m bot copy-db) ----------------------------------------
    async def all_games(self) -> list[GameRecord]:
        rows = await (await self._conn.execute("SELECT * FROM games ORDER BY id")).fetchall()
        return [from_row(r) for r in rows]

    async def table_rows(self, table: str) -> list[tuple]:
        """Every row of one of OTHER_TABLES, its columns in OTHER_TABLES order."""
        columns = ", ".join(OTHER_TABLES[table])
        return [tuple(r) for r in await (await self._conn.execute(f"SELECT {columns} FROM {table}")).fetchall()]

    async def put(self, records: list[GameRecord], tables: dict[str, list[tuple]] | None = None) -> None:
        """Insert records exactly as they are (ids and versions kept), and the rows of OTHER_TABLES
        given, in one transaction."""
        columns = ("id", *GAME_COLUMNS)
        placeholders = ", ".join("?" for _ in columns)
        async with self._write:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                await self._conn.executemany(f"INSERT INTO games ({', '.join(columns)}) VALUES ({placeholders})",
                                             [(r.id, *to_row(r)) for r in records])
                for table, rows in (tables or {}).items():
                    names = OTHER_TABLES[table]
                    await self._conn.executemany(
                        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})", rows)
                await self._conn.commit()
            except BaseException:
                await self._conn.rollback()
                raise

    # -- ratings -------------------------------------------------------------------------------
    async def rate(self, game_id: int, guild_id: str, variant: str, white: tuple[str, str],
                   black: tuple[str, str], white_score: float, when: str) -> bool:
        async with self._write:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                cursor = await self._conn.execute(
                    "INSERT OR IGNORE INTO rated_games (game_id, rated_at) VALUES (?, ?)", (game_id, when))
                if cursor.rowcount != 1:
                    await self._conn.rollback()
                    return False
                rows = []
                for pid, name in (white, black):
                    found = await (await self._conn.execute(
                        "SELECT * FROM ratings WHERE guild_id = ? AND variant = ? AND player_id = ?",
                        (guild_id, variant, pid))).fetchone()
                    rows.append(PlayerRating(**dict(found)) if found else PlayerRating(guild_id, variant, pid, name))
                placeholders = ", ".join("?" for _ in RATING_COLUMNS)
                for row in rated_pair(rows[0], rows[1], (white[1], black[1]), white_score, when):
                    await self._conn.execute(
                        f"INSERT OR REPLACE INTO ratings ({', '.join(RATING_COLUMNS)}) VALUES ({placeholders})",
                        tuple(getattr(row, c) for c in RATING_COLUMNS))
                await self._conn.commit()
            except BaseException:
                await self._conn.rollback()
                raise
        return True

    async def leaderboard(self, guild_id: str, variant: str, limit: int = 10) -> list[PlayerRating]:
        rows = await (await self._conn.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND variant = ? ORDER BY rating DESC, games DESC, player_id "
            "LIMIT ?", (guild_id, variant, limit))).fetchall()
        return [PlayerRating(**dict(r)) for r in rows]

    async def rating_place(self, guild_id: str, variant: str, player_id: str) -> tuple[int, PlayerRating] | None:
        found = await (await self._conn.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND variant = ? AND player_id = ?",
            (guild_id, variant, player_id))).fetchone()
        if found is None:
            return None
        row = PlayerRating(**dict(found))
        above = await (await self._conn.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND variant = ? AND rating > ?",
            (guild_id, variant, row.rating))).fetchone()
        return 1 + int(above[0] if above else 0), row

    async def player_ratings(self, guild_id: str, player_id: str) -> list[PlayerRating]:
        rows = await (await self._conn.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND player_id = ? ORDER BY variant",
            (guild_id, player_id))).fetchall()
        return [PlayerRating(**dict(r)) for r in rows]

    async def best_scores(self, guild_id: str, variant: str, higher_is_better: bool,
                          limit: int = 10) -> list[GameRecord]:
        order = "DESC" if higher_is_better else "ASC"
        return await self._many(
            "SELECT * FROM games WHERE COALESCE(guild_id, '') = ? AND variant = ? "
            f"AND status = '{GameStatus.FINISHED}' AND practice = 0 "
            f"AND score IS NOT NULL ORDER BY result IS NOT 'solved', score {order}, id LIMIT ?",
            (guild_id, variant, limit))

    # -- lobby, deadlines, settings, dailies ------------------------------------------------------
    async def _many(self, sql: str, args: tuple) -> list[GameRecord]:
        return await self._decoded(await (await self._conn.execute(sql, args)).fetchall())

    async def _mark_suspended(self, game_id: int, error: str, when: str) -> bool:
        return await self._write_one(SET_ASIDE.format("?", "?", "?"), (error, when, game_id)) == 1

    async def challenges(self, channel_id: str) -> list[GameRecord]:
        return await self._many(f"SELECT * FROM games WHERE status = '{GameStatus.CHALLENGE}' "
                                "AND COALESCE(home_channel_id, channel_id) = ? ORDER BY id", (channel_id,))

    async def open_in_guild(self, guild_id: str | None) -> list[GameRecord]:
        if guild_id is None:
            return await self._many("SELECT * FROM games WHERE guild_id IS NULL "
                                    f"AND {OPEN_SQL} ORDER BY id", ())
        return await self._many(f"SELECT * FROM games WHERE guild_id = ? AND {OPEN_SQL} "
                                "ORDER BY id", (guild_id,))

    async def next_due(self, after: float | None = None) -> float | None:
        row = await (await self._conn.execute(
            f"SELECT MIN(due_at) FROM games WHERE due_at IS NOT NULL AND {OPEN_SQL} "
            "AND typeof(due_at) IN ('real', 'integer') "   # a broken one is set aside where it is read
            "AND (? IS NULL OR due_at > ?)", (after, after))).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        return await self._many("SELECT * FROM games WHERE due_at IS NOT NULL AND due_at <= ? "
                                f"AND {OPEN_SQL} ORDER BY due_at, id LIMIT ?", (now, limit))

    async def settings(self, guild_id: str) -> dict:
        row = await (await self._conn.execute("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                              (guild_id,))).fetchone()
        return settings_of(guild_id, row[0] if row else None, self._unreadable_settings)

    async def _write_one(self, sql: str, args: tuple) -> int:
        """One statement, which commits itself (autocommit) or fails and changes nothing."""
        async with self._write:
            cursor = await self._conn.execute(sql, args)
        return cursor.rowcount

    async def save_settings(self, guild_id: str, settings: dict, when: str) -> None:
        await self._write_one("INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                              "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                              "updated_at = excluded.updated_at", (guild_id, json.dumps(settings), when))

    async def pings(self, user_id: str) -> bool:
        known = self._pings.get(user_id)
        if known is not None:
            return known
        sets = self._pings_set
        row = await (await self._conn.execute("SELECT pings FROM member_prefs WHERE user_id = ?",
                                              (user_id,))).fetchone()
        on = True if row is None else bool(row[0])
        if sets == self._pings_set:
            self._pings[user_id] = on
        return on

    async def set_pings(self, user_id: str, on: bool, when: str) -> None:
        self._pings_set += 1
        self._pings.pop(user_id, None)   # a failed write leaves it to be read again
        await self._write_one("INSERT INTO member_prefs (user_id, pings, updated_at) VALUES (?, ?, ?) "
                              "ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings, "
                              "updated_at = excluded.updated_at", (user_id, int(on), when))
        self._pings[user_id] = on

    async def daily_games(self, day: str, variant: str, player_id: str) -> list[GameRecord]:
        return await self._many("SELECT * FROM games WHERE daily = ? AND variant = ? "
                                f"AND {_FIRST_PLAYER.format('players')} = ? ORDER BY id", (day, variant, player_id))

    async def unrecorded_daily_finishes(self, day: str, variant: str, guild_id: str) -> list[GameRecord]:
        return await self._many(
            f"SELECT * FROM games AS g WHERE g.daily = ? AND g.variant = ? AND g.status = '{GameStatus.FINISHED}' "
            "AND COALESCE(g.guild_id, '') = ? AND NOT EXISTS (SELECT 1 FROM daily_results AS d "
            f"WHERE d.day = g.daily AND d.variant = g.variant AND d.player_id = {_FIRST_PLAYER.format('g.players')}) "
            "ORDER BY g.id", (day, variant, guild_id))

    async def unrated_finishes(self, guild_id: str) -> list[GameRecord]:
        return await self._many(UNRATED.format("?"), (guild_id,))

    async def add_daily_result(self, result: DailyResult) -> bool:
        placeholders = ", ".join("?" for _ in DAILY_COLUMNS)
        values = tuple(int(v) if isinstance(v, bool) else v for v in (getattr(result, c) for c in DAILY_COLUMNS))
        return await self._write_one(f"INSERT OR IGNORE INTO daily_results ({', '.join(DAILY_COLUMNS)}) "
                                     f"VALUES ({placeholders})", values) == 1

    async def daily_results(self, guild_id: str, variant: str, day: str) -> list[DailyResult]:
        rows = await (await self._conn.execute(
            "SELECT * FROM daily_results WHERE guild_id = ? AND variant = ? AND day = ?",
            (guild_id, variant, day))).fetchall()
        return [DailyResult(**{**dict(r), "solved": bool(r["solved"])}) for r in rows]

    async def add_delivery(self, delivery: Delivery) -> int:
        async with self._write:
            cursor = await self._conn.execute(f"INSERT INTO outbox ({', '.join(DELIVERY_COLUMNS)}) VALUES "
                                              f"({', '.join('?' for _ in DELIVERY_COLUMNS)})", delivery_row(delivery))
        delivery.id = int(cursor.lastrowid or 0)
        return delivery.id

    async def deliveries(self, limit: int = 100) -> list[Delivery]:
        rows = await (await self._conn.execute("SELECT * FROM outbox ORDER BY id LIMIT ?", (limit,))).fetchall()
        return [delivery_of(r) for r in rows]

    async def drop_delivery(self, delivery_id: int) -> None:
        await self._write_one("DELETE FROM outbox WHERE id = ?", (delivery_id,))

    async def mark_delivery(self, delivery_id: int, reply: dict) -> None:
        await self._write_one("UPDATE outbox SET reply = ? WHERE id = ?", (json.dumps(reply), delivery_id))

    async def close(self) -> None:
        """Checkpoint the WAL into the main file (left empty), then close: the file alone holds every game."""
        try:
            async with self._write:
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass   # a reader in the way (a backup): closing checkpoints too, else the next open does
        await self._conn.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


async def _scalar(conn: aiosqlite.Connection, sql: str):
    row = await (await conn.execute(sql)).fetchone()
    if row is None:
        raise sqlite3.DatabaseError(f"no answer to {sql}")
    return row[0]


def _lock_file(path: Path) -> int:
    """Create the parent folder and take an exclusive lock on the database file (one process
    per file). Raises StoreError with a sentence for every way the path can be unusable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreError(f"Cannot create the database {path}: a part of its folder path is a file, "
                         f"not a folder. Set KIBITZ_DB to a file path in a folder.") from None
    except OSError as exc:
        raise StoreError(f"Cannot create the folder for the database {path}: {exc.strerror}.") from None
    if path.is_dir():
        raise StoreError(f"KIBITZ_DB points at a folder ({path}), not a database file. "
                         f"Set it to a file path such as {path / 'kibitz.sqlite3'}.")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except PermissionError:
        raise StoreError(f"The database {path} is read-only (or its folder is): Kibitz needs to write "
                         f"to it. Fix its permissions or set KIBITZ_DB to a writable file.") from None
    except OSError as exc:
        raise StoreError(f"Cannot open the database {path}: {exc.strerror}.") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise StoreError(f"Another Kibitz process is already using {path}. With SQLite, run one "
                             f"process per database file (use PostgreSQL to run several).") from None
        raise StoreError(f"Cannot lock the database {path}: {exc.strerror}.") from None
    return fd


def _database_sentence(path: str | Path, exc: sqlite3.DatabaseError) -> str:
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return f"The file {path} is not a Kibitz database (or it is damaged): {text}. Move it away or restore a backup."
    if "readonly" in text or "read-only" in text:
        return (f"The database {path} is read-only (or its folder is): Kibitz needs to write to it. "
                f"Fix its permissions or set KIBITZ_DB to a writable file.")
    return f"Cannot use the database {path}: {text}."
