"""An in-memory store that commits a write and then loses its answer, as a cut connection would.

    store = LosesAnswers()
    store.lose = True         # the next save or create is stored, then raises ConnectionResetError
    store.blind_after = 1     # and the first read of a game after it fails too (the store cannot say)
    store.blind_reads = 1     # the next read of a game fails

The PostgreSQL version of the same fault is tests/bot/pg_proxy.py.
"""
from __future__ import annotations

from typing import Awaitable, NoReturn

from bot.store import GameRecord, InMemoryStore


class LosesAnswers(InMemoryStore):
    lose = False
    blind_after = 0
    blind_reads = 0

    def _lost(self) -> bool:
        lost, self.lose = self.lose, False
        return lost

    async def _store(self, write: Awaitable[object]) -> NoReturn:
        """Run a write of the in-memory store (its own reads are never blind), then lose its answer."""
        blind, self.blind_reads = self.blind_reads, 0
        try:
            await write
        finally:
            self.blind_reads, self.blind_after = blind + self.blind_after, 0
        raise ConnectionResetError("connection lost after the commit")

    async def save(self, record: GameRecord) -> None:
        if not self._lost():
            return await super().save(record)
        await self._store(super().save(record.copy()))   # stored; the caller's record keeps its version

    async def create(self, record: GameRecord) -> int:
        if not self._lost():
            return await super().create(record)
        await self._store(super().create(record.copy()))   # stored; the caller's record gets no id

    def _read(self) -> None:
        if self.blind_reads:
            self.blind_reads -= 1
            raise ConnectionResetError("the database does not answer")

    async def get(self, game_id: int) -> GameRecord | None:
        self._read()
        return await super().get(game_id)

    async def open_game(self, channel_id: str) -> GameRecord | None:
        self._read()
        return await super().open_game(channel_id)

    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        self._read()
        return await super().latest(channel_id, statuses)

    async def challenges(self, channel_id: str) -> list[GameRecord]:
        self._read()
        return await super().challenges(channel_id)
