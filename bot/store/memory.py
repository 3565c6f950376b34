"""The store in a dict: the same behaviour as SqliteStore (tests, throwaway sessions)."""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Callable

from .records import ChannelBusy, DailyResult, Delivery, GameRecord, GameStatus, PlayerRating, SetAside, StaleRecord, rated_pair
from .rows import RATED_RESULTS


def _board_key(row: PlayerRating) -> tuple:
    return (-row.rating, -row.games, row.player_id)


class InMemoryStore:
    """The same behaviour as SqliteStore, in a dict (tests, throwaway sessions)."""

    on_set_aside: Callable[[SetAside], None] | None = None   # never told: a record in memory always reads

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

    async def rematch_of(self, game_id: int) -> GameRecord | None:
        return next((r.copy() for r in self._rows.values() if r.rematch_of == game_id), None)

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
        new = rated_pair(rows[0], rows[1], (white[1], black[1]), white_score, when)
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
                and r.status == GameStatus.FINISHED and r.score is not None and not r.practice]
        rows.sort(key=lambda r: (r.result != "solved", (-(r.score or 0) if higher_is_better else (r.score or 0)),
                                 r.id or 0))
        return [r.copy() for r in rows[:limit]]

    # -- lobby, deadlines, settings, dailies ------------------------------------------------------
    def _sorted(self, rows) -> list[GameRecord]:
        return [r.copy() for r in sorted(rows, key=lambda r: r.id or 0)]

    async def challenges(self, channel_id: str) -> list[GameRecord]:
        return self._sorted(r for r in self._rows.values() if r.status == GameStatus.CHALLENGE
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
                            and r.status == GameStatus.FINISHED and (r.guild_id or "") == guild_id and r.players
                            and (day, variant, r.players[0][0]) not in self._daily)

    async def unrated_finishes(self, guild_id: str) -> list[GameRecord]:
        return self._sorted(r for r in self._rows.values() if r.status == GameStatus.FINISHED
                            and (r.guild_id or "") == guild_id and r.result in RATED_RESULTS and r.id not in self._rated)

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

    async def mark_delivery(self, delivery_id: int, reply: dict) -> None:
        if delivery_id in self._outbox:
            self._outbox[delivery_id] = replace(self._outbox[delivery_id], reply=json.loads(json.dumps(reply)))
