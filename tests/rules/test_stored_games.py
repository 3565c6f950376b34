"""Games stored before turns of parts existed still replay, move by move, to their stored FEN.

tests/rules/data/games_before_parts.sqlite was written by the bot's SQLite store at commit
20ccbf9 (three random games of each of the fifteen variants of that time)."""
import json
import shutil
import sqlite3
from pathlib import Path

import rules

DATABASE = Path(__file__).parent / "data" / "games_before_parts.sqlite"


def stored_games(tmp_path):
    copy = tmp_path / "games.sqlite"
    shutil.copy(DATABASE, copy)
    with sqlite3.connect(copy) as conn:
        return conn.execute("SELECT variant, seed, start_fen, moves, fen, result, reason FROM games").fetchall()


def test_every_stored_game_replays_to_its_stored_position_and_result(tmp_path):
    rows = stored_games(tmp_path)
    assert len({row[0] for row in rows}) == 15 and len(rows) == 45
    for variant, seed, start_fen, moves, fen, result, reason in rows:
        game = rules.new_game(variant, seed=seed, fen=start_fen)
        for move in json.loads(moves):
            assert game.play(move) == move, (variant, move)
        assert game.fen() == fen, variant
        outcome = game.outcome
        assert (outcome.result if outcome else None, outcome.reason if outcome else None) == (result, reason)
