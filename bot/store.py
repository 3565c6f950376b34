"""Where games live: the GameStore protocol, with SQLite and in-memory versions.

A record keeps what is needed to replay a game: variant, seed or start FEN, the move list.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent.parent / "data" / "migrations"
OPEN = ("challenge", "active")


class ChannelBusy(Exception):
    """The channel already has an open game."""


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
    id: int | None = None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def copy(self) -> "GameRecord":
        return replace(self, players=list(self.players), moves=list(self.moves))


class GameStore(Protocol):
    async def create(self, record: GameRecord) -> int: ...
    async def save(self, record: GameRecord) -> None: ...
    async def get(self, game_id: int) -> GameRecord | None: ...
    async def open_game(self, channel_id: str) -> GameRecord | None: ...
    async def latest(self, channel_id: str) -> GameRecord | None: ...
    async def open_games(self) -> list[GameRecord]: ...
    async def close(self) -> None: ...


class InMemoryStore:
    """The same behaviour as SqliteStore, in a dict (tests, throwaway sessions)."""

    def __init__(self) -> None:
        self._rows: dict[int, GameRecord] = {}
        self._next = 1

    async def create(self, record: GameRecord) -> int:
        if record.is_open and await self.open_game(record.channel_id):
            raise ChannelBusy(record.channel_id)
        record.id = self._next
        self._next += 1
        self._rows[record.id] = record.copy()
        return record.id

    async def save(self, record: GameRecord) -> None:
        if record.is_open:
            other = await self.open_game(record.channel_id)
            if other and other.id != record.id:
                raise ChannelBusy(record.channel_id)
        self._rows[record.id] = record.copy()

    async def get(self, game_id: int) -> GameRecord | None:
        row = self._rows.get(game_id)
        return row.copy() if row else None

    async def open_game(self, channel_id: str) -> GameRecord | None:
        return next((r.copy() for r in self._rows.values() if r.channel_id == channel_id and r.is_open), None)

    async def latest(self, channel_id: str) -> GameRecord | None:
        rows = [r for r in self._rows.values() if r.channel_id == channel_id]
        return max(rows, key=lambda r: r.id).copy() if rows else None

    async def open_games(self) -> list[GameRecord]:
        return [r.copy() for r in self._rows.values() if r.is_open]

    async def close(self) -> None:
        pass


_COLUMNS = ("variant", "guild_id", "channel_id", "players", "seed", "start_fen", "moves", "fen", "status",
            "result", "reason", "score", "draw_offer", "created_at", "updated_at")


def _to_row(record: GameRecord) -> tuple:
    values = {c: getattr(record, c) for c in _COLUMNS}
    values["players"] = json.dumps([list(p) for p in record.players])
    values["moves"] = json.dumps(record.moves)
    return tuple(values[c] for c in _COLUMNS)


def _from_row(row: aiosqlite.Row) -> GameRecord:
    data = dict(row)
    data["players"] = [tuple(p) for p in json.loads(data["players"])]
    data["moves"] = json.loads(data["moves"])
    return GameRecord(**data)


class SqliteStore:
    """SQLite through aiosqlite: WAL, synchronous=NORMAL, one writer at a time, numbered migrations."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> "SqliteStore":
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path))
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        store = cls(conn)
        await store.migrate()
        return store

    async def migrate(self) -> int:
        async with self._write:
            (version,) = await (await self._conn.execute("PRAGMA user_version")).fetchone()
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
            try:
                cursor = await self._conn.execute(
                    f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({placeholders})", _to_row(record))
                await self._conn.commit()
            except aiosqlite.IntegrityError:
                await self._conn.rollback()
                raise ChannelBusy(record.channel_id) from None
        record.id = cursor.lastrowid
        return record.id

    async def save(self, record: GameRecord) -> None:
        assignments = ", ".join(f"{c} = ?" for c in _COLUMNS)
        async with self._write:
            try:
                await self._conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*_to_row(record), record.id))
                await self._conn.commit()
            except aiosqlite.IntegrityError:
                await self._conn.rollback()
                raise ChannelBusy(record.channel_id) from None

    async def _one(self, sql: str, args: tuple) -> GameRecord | None:
        row = await (await self._conn.execute(sql, args)).fetchone()
        return _from_row(row) if row else None

    async def get(self, game_id: int) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game(self, channel_id: str) -> GameRecord | None:
        return await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('challenge', 'active')", (channel_id,))

    async def latest(self, channel_id: str) -> GameRecord | None:
        return await self._one("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def open_games(self) -> list[GameRecord]:
        rows = await (await self._conn.execute(
            "SELECT * FROM games WHERE status IN ('challenge', 'active') ORDER BY id")).fetchall()
        return [_from_row(r) for r in rows]

    async def close(self) -> None:
        await self._conn.close()
