"""The console takes /leaderboard, /profile, /export, /replay and /rules like Discord does."""
from __future__ import annotations

import chess.pgn
from PIL import Image

from .test_console import run_bot


def test_console_rates_exports_replays_and_draws_the_rules_diagram(tmp_path):
    script = "\n".join([
        "/rules prop", "/challenge @bob standard colour:white", "/as bob", "/accept", "/as you", "/move f3", "/as bob",
        "/move e5", "/as you", "/move g4", "/as bob", "/move Qh4", "/leaderboard standard", "/profile you",
        "/export", "/replay", "/quit", ""])
    result = run_bot(tmp_path, script, "console")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Prop Chess\n\nHow to win. Leave" in out and (tmp_path / "out" / "rules-prop.png").read_bytes().startswith(b"\x89PNG")
    assert "1. bob" in out and "bob, you are #1" in out
    assert "0 wins, 0 draws, 1 loss" in out
    [pgn] = (tmp_path / "out").glob("*.pgn")
    with pgn.open() as handle:
        game = chess.pgn.read_game(handle)
    assert [m.uci() for m in game.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    [gif] = (tmp_path / "out").glob("*.gif")
    assert Image.open(gif).n_frames == 6   # the start, four moves, and the result (mate)
