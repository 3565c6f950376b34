"""Nodes per second of the engine's search per two-player variant, and standard chess's against
python-chess's own push/pop loop in the same run.

    python benchmarks/engine_speed.py [--seconds 1.0] [--nodes N] [slug ...]

For each variant: `engine.choose` at the top level for `--seconds` from the positions after 0, 12 and
24 turns of a seeded random game; nodes are the positions the search judged (each `play()` with its
`outcome`, `fen()` and, at the horizon, `view()`). The python-chess line is an alpha-beta-free
negamax to depth 3 over `board.legal_moves` with `push`/`pop` and `is_game_over()` per node (what a
node costs when the board is python-chess's alone). With `--nodes N`, each search is cut at N
positions instead and timed in CPU seconds (`time.process_time`), so a busy machine counts little.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402

import engine  # noqa: E402
import rules  # noqa: E402


def positions(slug: str) -> list[rules.Game]:
    """Games started from the positions after 0, 12 and 24 turns of one seeded random game."""
    walk, rng, fens = rules.new_game(slug, seed=1), random.Random(slug), []
    for ply in range(25):
        if walk.outcome is not None:
            break
        if ply % 12 == 0:
            fens.append(walk.fen())
        walk.play(rng.choice(walk.legal_moves()))
    return [rules.new_game(slug, fen=fen) for fen in fens]


def engine_rate(slug: str, seconds: float, budget: int | None = None) -> tuple[float, int]:
    nodes, spent, depth = 0, 0.0, 0
    clock = time.perf_counter if budget is None else time.process_time
    for game in positions(slug):
        start = clock()
        choice = engine.choose(game, level=engine.MAX_LEVEL, seconds=None if budget else seconds, nodes=budget)
        spent += clock() - start
        nodes += choice.nodes
        depth = max(depth, choice.depth)
    return nodes / spent if spent else 0.0, depth


def chess_rate(seconds: float) -> float:
    nodes = 0

    def walk(board: chess.Board, depth: int) -> None:
        nonlocal nodes
        nodes += 1
        if depth == 0 or board.is_game_over():
            return
        for move in board.legal_moves:
            board.push(move)
            walk(board, depth - 1)
            board.pop()

    start = time.perf_counter()
    for game in positions("standard"):
        board = chess.Board(game.fen())
        walk(board, 2)
        if time.perf_counter() - start > seconds * 3:
            break
    return nodes / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--nodes", type=int, help="cut each search at this many positions; CPU seconds")
    args = parser.parse_args()
    slugs = args.slugs or sorted(s for s, info in rules.VARIANTS.items() if info.players == 2)
    print(f"{'variant':18} {'nodes/s':>8} {'depth':>5}")
    for slug in slugs:
        rate, depth = engine_rate(slug, args.seconds, args.nodes)
        print(f"{slug:18} {rate:8.0f} {depth:5}", flush=True)
        if slug == "standard":
            raw = chess_rate(args.seconds)
            print(f"{'  python-chess':18} {raw:8.0f}   (push/pop loop; the engine reaches {rate / raw:.0%} of it)")


if __name__ == "__main__":
    main()
