"""Stopping the console with SIGTERM or SIGINT leaves every game in the main database file, and
`python -m bot backup FILE` copies a database in use into one file that opens with every game.
(The Discord bot's own stop: tests/discord/test_stopping.py.)"""
from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rules
from bot.service import GameService, Player
from bot.store import SqliteStore

from .conftest import fake_png

ROOT = Path(__file__).resolve().parents[2]
MOVE = rules.new_game("kingswap", seed=7).legal_moves()[0]


def environment(db: Path | str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIBITZ_", "DISCORD_"))}
    return {**env, "PYTHONPATH": str(ROOT), "KIBITZ_DB": str(db), "KIBITZ_OUT": str(Path(str(db)).parent / "out")}


def stored_moves(db: Path) -> list[str]:
    """Every game's moves (none while the database is still being made)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        try:
            return [row[0] for row in conn.execute("SELECT moves FROM games")]
        except sqlite3.OperationalError:   # no table yet
            return []


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_console_with_0_and_the_move_in_the_main_file(tmp_path, number):
    db = tmp_path / "k.sqlite3"
    console = subprocess.Popen([sys.executable, "-m", "bot", "console"], cwd=tmp_path, env=environment(db),
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert console.stdin is not None
        console.stdin.write(f"/puzzle kingswap 7\n/move {MOVE}\n")
        console.stdin.flush()
        for _ in range(6000):   # the move is saved; the console waits for the next line
            if db.exists() and any(MOVE in moves for moves in stored_moves(db)):
                break
            assert console.poll() is None
            time.sleep(0.01)
        else:
            raise AssertionError("the console never saved the move")
        console.send_signal(number)
        code = console.wait(10)
    finally:
        if console.poll() is None:
            console.kill()
            console.wait()
    assert code == 0, console.stderr.read() if console.stderr else ""
    assert "Traceback" not in (console.stderr.read() if console.stderr else "")
    wal = tmp_path / "k.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "alone.sqlite3"   # the main file by itself, as if the WAL had been lost
    shutil.copy(db, alone)
    assert any(MOVE in moves for moves in stored_moves(alone))


@pytest.mark.asyncio
async def test_backup_copies_a_database_in_use_while_games_are_written(tmp_path):
    db, copy = tmp_path / "kibitz.sqlite3", tmp_path / "backup.sqlite3"
    store = await SqliteStore.open(db)   # the running bot's store: it holds the file's lock
    service = GameService(store, renderer=fake_png)
    player = Player("1", "alice")
    try:
        for n in range(20):
            await service.start_puzzle(f"c{n}", player, "kingswap", seed=n)
            await service.move(f"c{n}", player, rules.new_game("kingswap", seed=n).legal_moves()[0])
        before = {r.id: (r.moves, r.version) for r in await store.all_games()}
        backup = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(copy), cwd=tmp_path, env=environment(db),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        written = 0
        while backup.returncode is None:   # the bot goes on writing meanwhile
            await service.start_puzzle(f"more{written}", player, "kingswap", seed=written)
            written += 1
            await asyncio.sleep(0)
        out, err = await backup.communicate()
    finally:
        await store.close()
    assert backup.returncode == 0, err.decode()
    assert written > 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == ["backup.sqlite3"]

    restored = await SqliteStore.open(copy)   # a copy opens as any database: restoring is putting it in place
    try:
        games = {r.id: (r.moves, r.version) for r in await restored.all_games()}
    finally:
        await restored.close()
    assert out.decode().strip() == f"Backed up {len(games)} game(s) to {copy}."
    assert {game_id: games[game_id] for game_id in before} == before   # every game, each as it was
    assert sorted(games) == list(range(1, len(games) + 1))   # a snapshot: no gap, nothing half-written


def run_backup(tmp_path: Path, db: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", "backup", *args], cwd=tmp_path, env=environment(db),
                          capture_output=True, text=True, timeout=60)


def test_backup_refuses_in_one_sentence_what_it_cannot_do(tmp_path):
    postgres = run_backup(tmp_path, "postgresql://kibitz@127.0.0.1:9/kibitz", "copy.sqlite3")
    assert postgres.returncode == 2
    assert postgres.stderr.strip() == ('kibitz: KIBITZ_DB is a PostgreSQL database: back it up with pg_dump '
                                       '(README, "Backups").')
    missing = run_backup(tmp_path, str(tmp_path / "none.sqlite3"), "copy.sqlite3")
    assert missing.returncode == 2 and "There is no database at" in missing.stderr
    (tmp_path / "taken.sqlite3").write_text("keep me")
    sqlite3.connect(tmp_path / "k.sqlite3").close()
    taken = run_backup(tmp_path, str(tmp_path / "k.sqlite3"), "taken.sqlite3")
    assert taken.returncode == 2 and "taken.sqlite3 already exists" in taken.stderr
    assert (tmp_path / "taken.sqlite3").read_text() == "keep me"
    usage = run_backup(tmp_path, str(tmp_path / "k.sqlite3"))
    assert usage.returncode == 2 and usage.stderr.startswith("usage: python -m bot backup FILE")
