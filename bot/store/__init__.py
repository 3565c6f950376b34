"""Where games live: the GameStore protocol (records), kept in memory (memory), in SQLite (sqlite)
or in PostgreSQL (postgres), the SQL versions sharing one row mapping (rows). `connect` opens the
store KIBITZ_DB names.

The names below are those the rest of the bot imports from `bot.store`. PostgreSQL (and `connect`,
which may open it) are imported from their modules, so nothing loads asyncpg unless it is used.
"""
from .memory import InMemoryStore
from .records import (OPEN, OPEN_SEAT, PLAYING, BadRow, ChannelBusy, DailyResult, Delivery, GameRecord, GameStatus, GameStore,
                      PlayerRating, SetAside, StaleRecord, StoreError, daily_key)
from .rows import DAILY_COLUMNS, OTHER_TABLES, RATING_COLUMNS, holds
from .migrations import MIGRATIONS
from .sqlite import SqliteStore

__all__ = ["DAILY_COLUMNS", "MIGRATIONS", "OPEN", "OPEN_SEAT", "OTHER_TABLES", "PLAYING", "RATING_COLUMNS", "BadRow",
           "ChannelBusy", "DailyResult", "Delivery", "GameRecord", "GameStatus", "GameStore", "InMemoryStore", "PlayerRating",
           "SetAside", "SqliteStore", "StaleRecord", "StoreError", "daily_key", "holds"]
