"""`python -m bot backup FILE`: a consistent copy of the SQLite database, safe while the bot runs.

SQLite's online backup API copies the database as one snapshot (what the bot's writes had
committed when the copy began, WAL included) while the bot goes on writing. The copy is one
self-contained file: to restore it, stop the bot and put it in place of KIBITZ_DB (README,
"Backups"). PostgreSQL has its own tool for this, pg_dump.
"""
from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from .store import StoreError


def backup(source: str | Path, target: str | Path) -> int:
    """Copy the database at `source` to the new file `target`; returns how many games it holds.
    Raises StoreError with one sentence when there is nothing to copy or nowhere to put it."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise StoreError(f"There is no database at {source} to back up (KIBITZ_DB names it).")
    if target.exists():
        raise StoreError(f"{target} already exists: give the backup a new file name, so nothing is overwritten.")
    try:
        with contextlib.closing(sqlite3.connect(source)) as src, \
                contextlib.closing(sqlite3.connect(target)) as copy:
            src.backup(copy)   # in one step: the copy is one snapshot, however busy the bot is
            check = copy.execute("PRAGMA quick_check").fetchone()[0]
            games = copy.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise StoreError(f"Could not back up {source} to {target}: {exc}.") from None
    if check != "ok":
        target.unlink(missing_ok=True)
        raise StoreError(f"The copy of {source} failed its check ({check}); the database may be damaged.")
    return int(games)
