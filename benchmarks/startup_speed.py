"""Time the bot's own start-up work against a database with many open games.

    python benchmarks/startup_speed.py [--games 10000]

Writes a fresh SQLite file with N open standard games of 20 plies each, then times what the
bot does before it connects: open the store (lock, integrity check, migrations), build the
service, and restore(). Also times the first command in one channel (its game is revived then).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402

from bot.service import GameService  # noqa: E402
from bot.store import GameRecord, GameStatus, SqliteStore  # noqa: E402
from bot.store.rows import GAME_COLUMNS, to_row  # noqa: E402


def random_line(rng: random.Random, plies: int) -> tuple[list[str], str]:
    board = chess.Board()
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return [m.uci() for m in board.move_stack], board.fen()


async def fill(path: Path, games: int) -> None:
    store = await SqliteStore.open(path)
    rng = random.Random(1)
    lines = [random_line(rng, 20) for _ in range(50)]
    rows = []
    for index in range(games):
        moves, fen = lines[index % len(lines)]
        record = GameRecord("standard", f"channel-{index}", [("1", "alice"), ("2", "bob")], fen, GameStatus.ACTIVE,
                            start_fen=chess.STARTING_FEN, moves=moves, created_at="t", updated_at="t")
        rows.append(record)
    conn = store._conn   # bulk insert: filling is not what is measured
    await conn.execute("BEGIN")   # the store's connection is in autocommit mode: one transaction for all rows
    columns = ", ".join(GAME_COLUMNS)
    await conn.executemany(f"INSERT INTO games ({columns}) VALUES ({', '.join('?' for _ in GAME_COLUMNS)})",
                           [to_row(r) for r in rows])
    await conn.commit()
    await store.close()


async def measure(path: Path) -> tuple[float, float, int]:
    start = time.perf_counter()
    store = await SqliteStore.open(path)
    service = GameService(store, renderer=lambda view, orientation: b"")
    count = await service.restore()
    ready = time.perf_counter() - start
    start = time.perf_counter()
    await service.board("channel-7")
    first = time.perf_counter() - start
    await store.close()
    return ready, first, count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "kibitz.sqlite3"
        asyncio.run(fill(path, args.games))
        size = path.stat().st_size + sum(p.stat().st_size for p in Path(folder).glob("*-wal"))
        runs = [asyncio.run(measure(path)) for _ in range(5)]
    ready = sorted(r[0] for r in runs)[2] * 1000
    first = sorted(r[1] for r in runs)[2] * 1000
    print(f"{runs[0][2]} open games, database {size / 1e6:.1f} MB")
    print(f"start-up (open store, migrate, restore): median {ready:.1f} ms of 5 runs")
    print(f"first command in a channel (revives its game): median {first:.1f} ms")


if __name__ == "__main__":
    main()
