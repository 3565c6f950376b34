"""kill -9 during a stream of moves: after a restart every acknowledged move, takeback and
resignation is stored, nothing beyond the one call in flight, and every stored game replays to
its stored position.

The bot stand-in is `tests/bot/move_stream_driver.py`, run as a separate process over one SQLite
file and killed with SIGKILL at seeded random moments, then started again on the same file.
"""
from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import rules
from bot.service import GameService, UserError
from bot.store import GameRecord, SqliteStore

from .move_stream_driver import BLACK_PLAYER, CHANNELS, WHITE_PLAYER, no_png

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 6
START_UP_LIMIT = 120.0   # seconds to wait for a driver's calls before killing it anyway (a hung driver)
CALLS = (5, 40)          # a driver not killed during start-up is killed after a random number of calls in this range

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def run_until_killed(path: Path, seed: int, rng: random.Random, early: bool) -> list[str]:
    """Start a driver and SIGKILL it at a random moment: during start-up when `early`, else once it
    has reported a random number of calls (CALLS; however busy the machine, so each round proves
    something), in the middle of a later one. Returns the complete lines it printed."""
    errors_file = path.with_name(f"driver-{seed}.err")
    with errors_file.open("w") as stderr:     # a file, not a pipe: a chatty driver never blocks on it
        proc = subprocess.Popen([sys.executable, "-m", "tests.bot.move_stream_driver", str(path), str(seed)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []

    assert proc.stdout is not None
    output = proc.stdout

    def read() -> None:
        for line in output:
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if early:
        time.sleep(rng.uniform(0.0, 0.4))
    else:
        calls, deadline = rng.randint(*CALLS), time.monotonic() + START_UP_LIMIT
        while (sum(not line.startswith("GAME ") for line in lines) < calls and proc.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    reader.join(timeout=60)
    errors = errors_file.read_text()
    output.close()
    assert proc.returncode == -signal.SIGKILL, f"the driver stopped on its own:\n{errors}"
    assert "Traceback" not in errors, errors
    # A line cut short by the kill has no newline: it was never fully acknowledged.
    return [line.rstrip("\n") for line in lines if line.endswith("\n")]


def follow(lines: list[str], acked: dict[int, list[str]], resigned: set[int]) -> int:
    """Apply the moves and takebacks acknowledged in `lines` to `acked` (game id -> moves) and the
    resignations to `resigned`. Returns how many calls were acknowledged."""
    current: dict[str, int] = {}
    count = 0
    for line in lines:
        kind, channel, *rest = line.split(" ")
        if kind == "GAME":
            game_id, plies = int(rest[0]), int(rest[1])
            history = acked.setdefault(game_id, [])
            assert plies == len(history), f"{line}: the game was known with {len(history)} moves"
            current[channel] = game_id
        elif kind == "ACK":
            ply, move = int(rest[0]), rest[1]
            history = acked[current[channel]]
            history.append(move)
            assert ply == len(history), f"{line}: expected turn {len(history)}"
            count += 1
        elif kind == "UNDO":
            history = acked[current[channel]]
            history.pop()
            assert int(rest[0]) == len(history), f"{line}: expected {len(history)} turns left"
            count += 1
        elif kind == "RESIGN":
            assert int(rest[0]) == current[channel]
            resigned.add(current[channel])
            count += 1
    return count


def replay(record: GameRecord) -> rules.Game:
    game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
    for move in record.moves:
        assert game.play(move) == move, f"game {record.id}: {move} is not stored in canonical form"
    return game


async def check_database(path: Path, acked: dict[int, list[str]], resigned: set[int]) -> None:
    """Compare the file with what was acknowledged, then adopt the stored games as the new truth."""
    store = await SqliteStore.open(path)
    try:
        records: dict[int, GameRecord] = {}
        game_id = 1
        while (record := await store.get(game_id)) is not None:
            records[game_id] = record
            game_id += 1
        missing = set(acked) - set(records)
        assert not missing, f"acknowledged games {sorted(missing)} are not in the database"
        unacknowledged = 0
        for game_id, record in records.items():
            history = acked.get(game_id)
            if history is None:            # created by the call in flight, never announced
                assert record.moves == [], f"game {record.id} has moves nobody was told of"
                unacknowledged += 1
                continue
            # Stored: exactly what was acknowledged, or one move more or one takeback more (in flight).
            in_flight = [history + record.moves[len(history):]] if len(record.moves) == len(history) + 1 else []
            in_flight += [history[:-1]] if history else []
            assert record.moves == history or record.moves in in_flight, (
                f"game {record.id}: acknowledged {history[-5:]} (of {len(history)}), "
                f"stored {record.moves[-5:]} (of {len(record.moves)})")
            unacknowledged += record.moves != history

        for game_id, record in records.items():
            game = replay(record)
            assert game.fen() == record.fen, f"game {game_id} replays to {game.fen()}, stored {record.fen}"
            if game_id in resigned:     # ended from outside the board: finished, yet the replay goes on
                assert record.status == "finished" and record.result and game.outcome is None, (
                    f"game {record.id} was resigned, but is stored as {record.status} ({record.reason})")
            elif record.status == "finished" and game.outcome is None:
                unacknowledged += 1        # a resignation in flight
                resigned.add(game_id)
            elif record.status == "finished":
                assert game.outcome is not None and game.outcome.result == record.result
            elif record.status == "active":
                assert game.outcome is None, f"game {record.id} is stored as active but replays finished"
        assert unacknowledged <= 1, "more than the one call in flight was stored without acknowledgement"

        service = GameService(store, renderer=no_png)
        open_games = {r.channel_id: r for r in records.values() if r.is_open}
        for channel in CHANNELS:
            record = open_games.get(channel)
            if record is None or record.status != "active":
                continue
            board = await service.board(channel)
            assert board.game_id == record.id and board.view is not None
            player = WHITE_PLAYER if record.solo or board.view.turn == "white" else BLACK_PLAYER
            suggestions = await service.move_suggestions(channel, player, limit=None)
            assert suggestions == sorted(replay(record).legal_moves())
        for channel in set(CHANNELS) - set(open_games):
            try:   # nothing in play: no game at all, or the final board of the channel's last game
                shown = await service.board(channel)
            except UserError:
                continue
            assert shown.finished and "This game is over." in shown.text
        for game_id, record in records.items():
            acked[game_id] = list(record.moves)
    finally:
        await store.close()


def test_acknowledged_moves_takebacks_and_resignations_survive_kill_9_and_games_replay(tmp_path: Path) -> None:
    path = tmp_path / "kibitz.sqlite3"
    rng = random.Random(20261123)
    acked: dict[int, list[str]] = {}
    resigned: set[int] = set()
    total = 0
    for round_number in range(ROUNDS):
        lines = run_until_killed(path, rng.randrange(2**31), rng, early=round_number in (0, 3))
        total += follow(lines, acked, resigned)
        asyncio.run(check_database(path, acked, resigned))
    assert total >= 20, f"only {total} calls were acknowledged in {ROUNDS} rounds: the test proved little"
