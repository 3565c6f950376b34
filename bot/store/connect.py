"""The store KIBITZ_DB names (a PostgreSQL URL, `sqlite:///path`, or a plain SQLite path), and
copying every game from one database to another (python -m bot copy-db)."""
from __future__ import annotations

from pathlib import Path

from .postgres import PostgresStore, is_postgres_url, redact
from .records import BadRow, GameStore, StoreError
from .rows import OTHER_TABLES
from .sqlite import SqliteStore


def sqlite_path(target: str) -> str:
    """`sqlite:///relative.db`, `sqlite:////absolute.db` (as SQLAlchemy writes them) or a plain path."""
    return target[len("sqlite:///"):] if target.startswith("sqlite:///") else target


async def open_store(target: str | Path, query_timeout: float | None = None, lock_timeout: float = 120) -> GameStore:
    """The store KIBITZ_DB names: a PostgreSQL URL, `sqlite:///path`, or a plain SQLite path.
    The time limits (Config.store_options; PostgresStore.open) concern PostgreSQL only."""
    target = str(target)
    if is_postgres_url(target):
        return await PostgresStore.open(target, query_timeout=query_timeout, lock_timeout=lock_timeout)
    return await SqliteStore.open(sqlite_path(target))


async def copy_games(source: str, target: str) -> int:
    """Copy every game from one database to another (SQLite or PostgreSQL, either way), ids,
    versions and all, with the ratings, server settings, member preferences and daily results.
    The target must hold no games yet. Returns how many games were copied."""
    if not is_postgres_url(source) and not Path(sqlite_path(source)).is_file():
        raise StoreError(f"There is no database at {source} to copy from.")
    src = await open_store(source)
    try:
        dst = await open_store(target)
        try:
            if await dst.all_games():   # type: ignore[attr-defined]
                raise StoreError(f"The target database {_shown(target)} already holds games; copy-db copies "
                                 f"into an empty database only, so no game is overwritten or merged.")
            try:
                records = await src.all_games()   # type: ignore[attr-defined]
            except BadRow as exc:   # copied without it, the game would be lost in the copy
                raise StoreError(f"Game {exc.game_id} in {_shown(source)} cannot be read ({exc}); copy-db copies "
                                 f"every game or none: mend or delete that row, then copy again.") from None
            tables = {table: await src.table_rows(table) for table in OTHER_TABLES}   # type: ignore[attr-defined]
            await dst.put(records, tables)   # type: ignore[attr-defined]
            return len(records)
        finally:
            await dst.close()
    finally:
        await src.close()


def _shown(target: str) -> str:
    return redact(target) if is_postgres_url(target) else target
