"""Standard perft through the rules API against raw python-chess, timed in the same run.

    python benchmarks/perft.py [--depth 4] [--fen FEN]

Both sides make and unmake every move down to the leaves (no bulk counting at the last ply):
python-chess with `push`/`pop` over `board.legal_moves`, Kibitz with `legal_moves()`/`play()`/
`undo()` of a "standard" game. Prints node counts, seconds and the ratio (python-chess time over
Kibitz time: 1.0 means as fast, 0.5 twice as slow).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess

import rules


def raw_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += raw_perft(board, depth - 1)
        board.pop()
    return nodes


def game_perft(game, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in game.legal_moves():
        game.play(move)
        nodes += game_perft(game, depth - 1)
        game.undo()
    return nodes


def compare(depth: int, fen: str = chess.STARTING_FEN, repeat: int = 3) -> tuple[int, float, float]:
    """(nodes, python-chess seconds, Kibitz seconds): the best of `repeat` alternating runs, so a
    busy machine slows both sides alike."""
    raw_times, our_times = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        raw = raw_perft(chess.Board(fen), depth)
        raw_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        ours = game_perft(rules.new_game("standard", fen=fen), depth)
        our_times.append(time.perf_counter() - start)
        if raw != ours:
            raise SystemExit(f"node counts differ: python-chess {raw}, Kibitz {ours}")
    return raw, min(raw_times), min(our_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--fen", default=chess.STARTING_FEN)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    nodes, raw_time, our_time = compare(args.depth, args.fen, args.repeat)
    print(f"perft {args.depth}: {nodes} nodes; python-chess {raw_time:.2f} s, Kibitz {our_time:.2f} s, "
          f"ratio {raw_time / our_time:.2f}x")


if __name__ == "__main__":
    main()
