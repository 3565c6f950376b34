"""Where games live: the GameStore protocol, with SQLite and in-memory versions.

A record keeps what is needed to replay a game: variant, seed and start FEN, the move list.

Every save is a compare-and-set on the record's `version`: the store writes only if the stored
row still has the version the record was read with, then raises it by one; otherwise it raises
`StaleRecord` and writes nothing. So two writers can never fork a game: the slower one is
refused and must reload.

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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import aiosqlite

from .paths import data_dir
from .ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, Rating, rate_game

MIGRATIONS = data_dir() / "migrations"
OPEN = ("challenge", "active")
PLAYING = "active"      # the one status a channel (or thread) may hold only one game in
OPEN_SEAT = ("", "")    # an open challenge's free seat in `players`: anyone but the challenger may take it


class ChannelBusy(Exception):
    """The channel already has a game in play."""


class StaleRecord(Exception):
    """The game was changed by someone else since it was read: nothing was written."""


class StoreError(Exception):
    """The database cannot be used (in use, not a database, read-only, bad path): one sentence."""


@dataclass
class GameRecord:
    variant: str
    channel_id: str
    players: list[tuple[str, str]]          # (id, name) in seat order: white, black; solo: one
    fen: str
    status: str
    guild_id: str | None = None
    seed: int | None = None
    start_fen: str | None = None
    moves: list[str] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None
    score: int | None = None
    draw_offer: str | None = None
    created_at: str = ""
    updated_at: str = ""
    version: int = 0                 # raised by every save (compare-and-set)
    rules_version: str | None = None # Kibitz version the game was started under
    error: str | None = None         # why a suspended game could not be restored
    home_channel_id: str | None = None   # the channel it was asked for in (the game may be in a thread)
    message_id: str | None = None        # the challenge's message, edited when the challenge is settled
    challenger_id: str | None = None     # who challenged (two-player games)
    move_seconds: int | None = None      # time allowed per move; None: no deadline
    due_at: float | None = None          # Unix time of the next deadline (challenge expiry, or the move)
    reminded: bool = False               # the player to move was reminded of due_at
    takeback_offer: str | None = None    # id of the player whose takeback request stands
    hints: int = 0                       # hints shown (puzzles)
    plies_played: int = 0                # turns played, undone ones included (puzzles)
    daily: str | None = None             # YYYY-MM-DD (UTC) of a daily deal
    par: int | None = None               # best score the daily's solver found
    id: int | None = None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def open_seat(self) -> int | None:
        """The seat (0 white, 1 black) an open challenge leaves to whoever accepts, else None."""
        return next((i for i, p in enumerate(self.players) if tuple(p) == OPEN_SEAT), None) \
            if len(self.players) == 2 else None

    def copy(self) -> "GameRecord":
        return replace(self, players=list(self.players), moves=list(self.moves))


@dataclass
class PlayerRating:
    """One member's Glicko-2 rating in one variant of one server, with their rated games."""
    guild_id: str
    variant: str
    player_id: str
    name: str
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    updated_at: str = ""

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.rd, self.volatility)

    def after(self, new: Rating, score: float, name: str, when: str) -> "PlayerRating":
        """This row after one rated game with `score` (1, 0.5, 0) and the new rating."""
        return replace(self, name=name, rating=new.rating, rd=new.rd, volatility=new.volatility,
                       games=self.games + 1, wins=self.wins + (score == 1), draws=self.draws + (score == 0.5),
                       losses=self.losses + (score == 0), updated_at=when)


@dataclass
class DailyResult:
    """The first finish of one member's copy of a daily deal (the one that counts)."""
    day: str
    variant: str
    player_id: str
    guild_id: str
    name: str
    game_id: int
    solved: bool
    score: int | None
    hints: int
    plies: int
    finished_at: str


DAILY_COLUMNS = ("day", "variant", "player_id", "guild_id", "name", "game_id", "solved", "score", "hints", "plies",
                 "finished_at")


@dataclass
class Delivery:
    """An answer Discord could not take yet (migration 005, bot/views/outbox.py): a message to post
    ("post": `reply` holds its text, ply, ping and buttons, `ref` its nonce; a board is drawn again
    from game `game_id` when sent) or one to delete ("delete": `ref` is the message id)."""
    kind: str
    guild_id: str | None
    channel_id: str
    ref: str
    game_id: int | None = None
    reply: dict = field(default_factory=dict)
    created_at: str = ""
    id: int | None = None


DELIVERY_COLUMNS = ("kind", "guild_id", "channel_id", "game_id", "ref", "reply", "created_at")


def delivery_row(delivery: Delivery) -> tuple:
    return tuple(json.dumps(delivery.reply) if c == "reply" else getattr(delivery, c) for c in DELIVERY_COLUMNS)


def delivery_of(row) -> Delivery:
    return Delivery(**{**dict(row), "reply": json.loads(row["reply"])})


def daily_key(row: DailyResult, higher_is_better: bool) -> tuple:
    """Score board order: solved first, best score, fewer hints, fewer turns played, earliest finish."""
    score = row.score if row.score is not None else 0
    return (not row.solved, -score if higher_is_better else score, row.hints, row.plies, row.finished_at)


RATING_COLUMNS = ("guild_id", "variant", "player_id", "name", "rating", "rd", "volatility", "games", "wins",
                  "draws", "losses", "updated_at")


def _rated_pair(white: PlayerRating, black: PlayerRating, names: tuple[str, str], white_score: float,
                when: str) -> tuple[PlayerRating, PlayerRating]:
    new_white, new_black = rate_game(white.glicko, black.glicko, white_score)
    return (white.after(new_white, white_score, names[0], when),
            black.after(new_black, 1 - white_score, names[1], when))


# Tables besides `games` that a whole-database copy (python -m bot copy-db) carries over, with their columns.
OTHER_TABLES: dict[str, tuple[str, ...]] = {
    "ratings": RATING_COLUMNS,
    "rated_games": ("game_id", "rated_at"),
    "guild_settings": ("guild_id", "settings", "updated_at"),
    "member_prefs": ("user_id", "pings", "updated_at"),
    "daily_results": DAILY_COLUMNS,
}


def _board_key(row: PlayerRating) -> tuple:
    return (-row.rating, -row.games, row.player_id)


class GameStore(Protocol):
    async def create(self, record: GameRecord) -> int: ...
    async def save(self, record: GameRecord) -> None:
        """Write `record` if the stored row still has `record.version`, then raise it by one;
        else raise StaleRecord. Raises ChannelBusy for a second open game in a channel."""
    async def get(self, game_id: int) -> GameRecord | None: ...
    async def open_game(self, channel_id: str) -> GameRecord | None: ...
    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        """The newest game played in a channel or thread (of those statuses, if given)."""
    async def open_games(self) -> list[GameRecord]: ...
    async def count_open(self) -> int: ...
    async def close(self) -> None: ...
    # -- ratings (migration 003) ------------------------------------------------------------
    async def rate(self, game_id: int, guild_id: str, variant: str, white: tuple[str, str],
                   black: tuple[str, str], white_score: float, when: str) -> bool:
        """Rate a finished game once: update both players (id, name) in one transaction and
        remember the game id. False, changing nothing, when the game was rated already."""
    async def leaderboard(self, guild_id: str, variant: str, limit: int = 10) -> list[PlayerRating]: ...
    async def rating_place(self, guild_id: str, variant: str, player_id: str) -> tuple[int, PlayerRating] | None:
        """The member's place (1 = top) on the variant's board, with their row; None if unrated."""
    async def player_ratings(self, guild_id: str, player_id: str) -> list[PlayerRating]: ...
    async def best_scores(self, guild_id: str, variant: str, higher_is_better: bool,
                          limit: int = 10) -> list[GameRecord]:
        """The finished games of a puzzle in this server that have a score, best first: solved
        before not solved, then the better score, then the earlier game."""
    # -- lobby, deadlines, settings, dailies (migration 004) -------------------------------------
    async def challenges(self, channel_id: str) -> list[GameRecord]:
        """Challenges waiting in a channel, oldest first."""
    async def open_in_guild(self, guild_id: str | None) -> list[GameRecord]:
        """A server's games in play and waiting challenges (guild None: those outside a server), oldest first."""
    async def next_due(self, after: float | None = None) -> float | None:
        """The earliest due_at among open games (of those later than `after`, if given), or None."""
    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        """Open games whose due_at has come (due_at <= now), earliest first."""
    async def settings(self, guild_id: str) -> dict:
        """A server's stored settings ({} if none)."""
    async def save_settings(self, guild_id: str, settings: dict, when: str) -> None: ...
    async def pings(self, user_id: str) -> bool:
        """Whether the member wants to be pinged (True unless they turned pings off)."""
    async def set_pings(self, user_id: str, on: bool, when: str) -> None: ...
    async def daily_games(self, day: str, variant: str, player_id: str) -> list[GameRecord]:
        """The member's copies of a day's deal, oldest first."""
    async def add_daily_result(self, result: DailyResult) -> bool:
        """Keep the first finish of a member's daily; False, changing nothing, if one is kept already."""
    async def unrecorded_daily_finishes(self, day: str, variant: str, guild_id: str) -> list[GameRecord]:
        """Finished daily copies of a server ('' outside one) whose player has no result kept for
        the day: a finish saved just before the process died, before its result was written."""
    async def daily_results(self, guild_id: str, variant: str, day: str) -> list[DailyResult]:
        """A server's results for a day's deal, unordered."""
    # -- the outbox (migration 005) ----------------------------------------------------------------
    async def add_delivery(self, delivery: Delivery) -> int: ...
    async def deliveries(self, limit: int = 100) -> list[Delivery]:
        """Pending deliveries, oldest first."""
    async def drop_delivery(self, delivery_id: int) -> None: ...


class InMemoryStore:
    """The same behaviour as SqliteStore, in a dict (tests, throwaway sessions)."""

    def __init__(self) -> None:
        self._rows: dict[int, GameRecord] = {}
        self._next = 1
        self._ratings: dict[tuple[str, str, str], PlayerRating] = {}
        self._rated: set[int] = set()
        self._settings: dict[str, dict] = {}
        self._pings: dict[str, bool] = {}
        self._daily: dict[tuple[str, str, str], DailyResult] = {}
        self._outbox: dict[int, Delivery] = {}

    async def create(self, record: GameRecord) -> int:
        if record.playing and await self.open_game(record.channel_id):
            raise ChannelBusy(record.channel_id)
        record.id = self._next
        self._next += 1
        self._rows[record.id] = record.copy()
        return record.id

    async def save(self, record: GameRecord) -> None:
        stored = self._rows.get(record.id) if record.id is not None else None
        if stored is None or stored.version != record.version:
            raise StaleRecord(record.id)
        if record.playing:
            other = await self.open_game(record.channel_id)
            if other and other.id != record.id:
                raise ChannelBusy(record.channel_id)
        record.version += 1
        self._rows[stored.id or 0] = record.copy()

    async def get(self, game_id: int) -> GameRecord | None:
        row = self._rows.get(game_id)
        return row.copy() if row else None

    async def open_game(self, channel_id: str) -> GameRecord | None:
        """The game in play in a channel or thread (challenges wait elsewhere: `challenges`)."""
        return next((r.copy() for r in self._rows.values() if r.channel_id == channel_id and r.playing), None)

    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        rows = [r for r in self._rows.values() if r.channel_id == channel_id
                and (statuses is None or r.status in statuses)]
        return max(rows, key=lambda r: r.id or 0).copy() if rows else None

    async def open_games(self) -> list[GameRecord]:
        return [r.copy() for r in self._rows.values() if r.is_open]

    async def count_open(self) -> int:
        return sum(r.is_open for r in self._rows.values())

    async def close(self) -> None:
        pass

    # -- ratings -------------------------------------------------------------------------------
    async def rate(self, game_id: int, guild_id: str, variant: str, white: tuple[str, str],
                   black: tuple[str, str], white_score: float, when: str) -> bool:
        if game_id in self._rated:
            return False
        rows = [self._ratings.get((guild_id, variant, pid)) or PlayerRating(guild_id, variant, pid, name)
                for pid, name in (white, black)]
        new = _rated_pair(rows[0], rows[1], (white[1], black[1]), white_score, when)
        for row in new:
            self._ratings[(guild_id, variant, row.player_id)] = row
        self._rated.add(game_id)
        return True

    def _board(self, guild_id: str, variant: str) -> list[PlayerRating]:
        rows = [r for (g, v, _), r in self._ratings.items() if g == guild_id and v == variant]
        return sorted(rows, key=_board_key)

    async def leaderboard(self, guild_id: str, variant: str, limit: int = 10) -> list[PlayerRating]:
        return [replace(r) for r in self._board(guild_id, variant)[:limit]]

    async def rating_place(self, guild_id: str, variant: str, player_id: str) -> tuple[int, PlayerRating] | None:
        row = self._ratings.get((guild_id, variant, player_id))
        if row is None:
            return None
        return 1 + sum(r.rating > row.rating for r in self._board(guild_id, variant)), replace(row)

    async def player_ratings(self, guild_id: str, player_id: str) -> list[PlayerRating]:
        return sorted((replace(r) for (g, _, p), r in self._ratings.items() if g == guild_id and p == player_id),
                      key=lambda r: r.variant)

    async def best_scores(self, guild_id: str, variant: str, higher_is_better: bool,
                          limit: int = 10) -> list[GameRecord]:
        rows = [r for r in self._rows.values() if (r.guild_id or "") == guild_id and r.variant == variant
                and r.status == "finished" and r.score is not None]
        rows.sort(key=lambda r: (r.result != "solved", (-(r.score or 0) if higher_is_better else (r.score or 0)),
                                 r.id or 0))
        return [r.copy() for r in rows[:limit]]

    # -- lobby, deadlines, settings, dailies ------------------------------------------------------
    def _sorted(self, rows) -> list[GameRecord]:
        return [r.copy() for r in sorted(rows, key=lambda r: r.id or 0)]

    async def challenges(self, channel_id: str) -> list[GameRecord]:
        return self._sorted(r for r in self._rows.values() if r.status == "challenge"
                            and (r.home_channel_id or r.channel_id) == channel_id)

    async def open_in_guild(self, guild_id: str | None) -> list[GameRecord]:
        return self._sorted(r for r in self._rows.values() if r.is_open and r.guild_id == guild_id)

    async def next_due(self, after: float | None = None) -> float | None:
        return min((r.due_at for r in self._rows.values() if r.is_open and r.due_at is not None
                    and (after is None or r.due_at > after)), default=None)

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        rows = [r for r in self._rows.values() if r.is_open and r.due_at is not None and r.due_at <= now]
        rows.sort(key=lambda r: (r.due_at or 0.0, r.id or 0))
        return [r.copy() for r in rows[:limit]]

    async def settings(self, guild_id: str) -> dict:
        return json.loads(json.dumps(self._settings.get(guild_id, {})))

    async def save_settings(self, guild_id: str, settings: dict, when: str) -> None:
        self._settings[guild_id] = json.loads(json.dumps(settings))

    async def pings(self, user_id: str) -> bool:
        return self._pings.get(user_id, True)

    async def set_pings(self, user_id: str, on: bool, when: str) -> None:
        self._pings[user_id] = bool(on)

    async def daily_games(self, day: str, variant: str, player_id: str) -> list[GameRecord]:
        return self._sorted(r for r in self._rows.values() if r.daily == day and r.variant == variant
                            and r.players and r.players[0][0] == player_id)

    async def unrecorded_daily_finishes(self, day: str, variant: str, guild_id: str) -> list[GameRecord]:
        return self._sorted(r for r in self._rows.values() if r.daily == day and r.variant == variant
                            and r.status == "finished" and (r.guild_id or "") == guild_id and r.players
                            and (day, variant, r.players[0][0]) not in self._daily)

    async def add_daily_result(self, result: DailyResult) -> bool:
        key = (result.day, result.variant, result.player_id)
        if key in self._daily:
            return False
        self._daily[key] = replace(result)
        return True

    async def daily_results(self, guild_id: str, variant: str, day: str) -> list[DailyResult]:
        return [replace(r) for r in self._daily.values() if r.guild_id == guild_id and r.variant == variant
                and r.day == day]

    async def add_delivery(self, delivery: Delivery) -> int:
        delivery.id = max(self._outbox, default=0) + 1
        self._outbox[delivery.id] = replace(delivery, reply=json.loads(json.dumps(delivery.reply)))
        return delivery.id

    async def deliveries(self, limit: int = 100) -> list[Delivery]:
        return [replace(d, reply=json.loads(json.dumps(d.reply))) for _, d in sorted(self._outbox.items())[:limit]]

    async def drop_delivery(self, delivery_id: int) -> None:
        self._outbox.pop(delivery_id, None)


_COLUMNS = ("variant", "guild_id", "channel_id", "players", "seed", "start_fen", "moves", "fen", "status",
            "result", "reason", "score", "draw_offer", "created_at", "updated_at", "version",
            "rules_version", "error", "home_channel_id", "message_id", "challenger_id", "move_seconds", "due_at",
            "reminded", "takeback_offer", "hints", "plies_played", "daily", "par")


_UPDATE_GAME = f"UPDATE games SET {', '.join(f'{c} = ?' for c in _COLUMNS)} WHERE id = ? AND version = ?"


def _to_row(record: GameRecord, version: int | None = None) -> tuple:
    """The record as a row of _COLUMNS (`version`: the version to write, if not the record's)."""
    values = {c: getattr(record, c) for c in _COLUMNS}
    if version is not None:
        values["version"] = version
    values["players"] = json.dumps([list(p) for p in record.players])
    values["moves"] = json.dumps(record.moves)
    values["reminded"] = int(record.reminded)
    return tuple(values[c] for c in _COLUMNS)


def _from_row(row: aiosqlite.Row) -> GameRecord:
    data = dict(row)
    data["players"] = [tuple(p) for p in json.loads(data["players"])]
    data["moves"] = json.loads(data["moves"])
    data["reminded"] = bool(data["reminded"])
    return GameRecord(**data)


class SqliteStore:
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
            for script in sorted(MIGRATIONS.glob("*.sql")):
                number = int(script.name.split("_", 1)[0])
                if number <= version:
                    continue
                await self._conn.executescript(
                    f"BEGIN;\n{script.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;")
                version = number
            return version

    async def create(self, record: GameRecord) -> int:
        placeholders = ", ".join("?" for _ in _COLUMNS)
        async with self._write:
            try:   # one statement: it commits itself, or fails and changes nothing
                cursor = await self._conn.execute(
                    f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({placeholders})", _to_row(record))
            except aiosqlite.IntegrityError:
                raise ChannelBusy(record.channel_id) from None
        record.id = int(cursor.lastrowid or 0)
        return record.id

    async def save(self, record: GameRecord) -> None:
        row = _to_row(record, version=record.version + 1)
        async with self._write:
            try:   # one compare-and-set statement: it commits itself, or changes nothing
                cursor = await self._conn.execute(_UPDATE_GAME, (*row, record.id, record.version))
            except aiosqlite.IntegrityError:
                raise ChannelBusy(record.channel_id) from None
        if cursor.rowcount != 1:
            raise StaleRecord(record.id)
        record.version += 1

    async def _one(self, sql: str, args: tuple) -> GameRecord | None:
        row = await (await self._conn.execute(sql, args)).fetchone()
        return _from_row(row) if row else None

    async def get(self, game_id: int) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game(self, channel_id: str) -> GameRecord | None:
        """The game in play in a channel or thread (challenges wait elsewhere: `challenges`)."""
        return await self._one("SELECT * FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,))

    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        if statuses is None:
            return await self._one("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        marks = ", ".join("?" for _ in statuses)
        return await self._one(f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) "
                               "ORDER BY id DESC LIMIT 1", (channel_id, *statuses))

    async def open_games(self) -> list[GameRecord]:
        rows = await (await self._conn.execute(
            "SELECT * FROM games WHERE status IN ('challenge', 'active') ORDER BY id")).fetchall()
        return [_from_row(r) for r in rows]

    async def count_open(self) -> int:
        return int(await _scalar(self._conn, "SELECT COUNT(*) FROM games WHERE status IN ('challenge', 'active')"))

    # -- copying a whole database (python -m bot copy-db) ----------------------------------------
    async def all_games(self) -> list[GameRecord]:
        rows = await (await self._conn.execute("SELECT * FROM games ORDER BY id")).fetchall()
        return [_from_row(r) for r in rows]

    async def table_rows(self, table: str) -> list[tuple]:
        """Every row of one of OTHER_TABLES, its columns in OTHER_TABLES order."""
        columns = ", ".join(OTHER_TABLES[table])
        return [tuple(r) for r in await (await self._conn.execute(f"SELECT {columns} FROM {table}")).fetchall()]

    async def put(self, records: list[GameRecord], tables: dict[str, list[tuple]] | None = None) -> None:
        """Insert records exactly as they are (ids and versions kept), and the rows of OTHER_TABLES
        given, in one transaction."""
        columns = ("id", *_COLUMNS)
        placeholders = ", ".join("?" for _ in columns)
        async with self._write:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                await self._conn.executemany(f"INSERT INTO games ({', '.join(columns)}) VALUES ({placeholders})",
                                             [(r.id, *_to_row(r)) for r in records])
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
                for row in _rated_pair(rows[0], rows[1], (white[1], black[1]), white_score, when):
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
        rows = await (await self._conn.execute(
            "SELECT * FROM games WHERE COALESCE(guild_id, '') = ? AND variant = ? AND status = 'finished' "
            f"AND score IS NOT NULL ORDER BY result IS NOT 'solved', score {order}, id LIMIT ?",
            (guild_id, variant, limit))).fetchall()
        return [_from_row(r) for r in rows]

    # -- lobby, deadlines, settings, dailies ------------------------------------------------------
    async def _many(self, sql: str, args: tuple) -> list[GameRecord]:
        return [_from_row(r) for r in await (await self._conn.execute(sql, args)).fetchall()]

    async def challenges(self, channel_id: str) -> list[GameRecord]:
        return await self._many("SELECT * FROM games WHERE status = 'challenge' "
                                "AND COALESCE(home_channel_id, channel_id) = ? ORDER BY id", (channel_id,))

    async def open_in_guild(self, guild_id: str | None) -> list[GameRecord]:
        if guild_id is None:
            return await self._many("SELECT * FROM games WHERE guild_id IS NULL "
                                    "AND status IN ('challenge', 'active') ORDER BY id", ())
        return await self._many("SELECT * FROM games WHERE guild_id = ? AND status IN ('challenge', 'active') "
                                "ORDER BY id", (guild_id,))

    async def next_due(self, after: float | None = None) -> float | None:
        row = await (await self._conn.execute(
            "SELECT MIN(due_at) FROM games WHERE due_at IS NOT NULL AND status IN ('challenge', 'active') "
            "AND (? IS NULL OR due_at > ?)", (after, after))).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        return await self._many("SELECT * FROM games WHERE due_at IS NOT NULL AND due_at <= ? "
                                "AND status IN ('challenge', 'active') ORDER BY due_at, id LIMIT ?", (now, limit))

    async def settings(self, guild_id: str) -> dict:
        row = await (await self._conn.execute("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                              (guild_id,))).fetchone()
        return json.loads(row[0]) if row else {}

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
                                "AND json_extract(players, '$[0][0]') = ? ORDER BY id", (day, variant, player_id))

    async def unrecorded_daily_finishes(self, day: str, variant: str, guild_id: str) -> list[GameRecord]:
        return await self._many(
            "SELECT * FROM games AS g WHERE g.daily = ? AND g.variant = ? AND g.status = 'finished' "
            "AND COALESCE(g.guild_id, '') = ? AND NOT EXISTS (SELECT 1 FROM daily_results AS d "
            "WHERE d.day = g.daily AND d.variant = g.variant AND d.player_id = json_extract(g.players, '$[0][0]')) "
            "ORDER BY g.id", (day, variant, guild_id))

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

    async def close(self) -> None:
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
