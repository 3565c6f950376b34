"""Time legal_moves() plus outcome per variant over the positions of random legal games.

    python benchmarks/rules_speed.py [--turns 300] [--seed 1] [slug ...]
    python benchmarks/rules_speed.py --kingswap-endings

Each position is loaded from its FEN into a fresh game (not timed), then `legal_moves()` and
`outcome` are timed together, so no cache helps. Prints median and worst milliseconds.
--kingswap-endings times KingSwap's "can the king still move" search on hand-made hard cases.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules  # noqa: E402


def positions(slug: str, turns: int, rng: random.Random) -> list[str]:
    fens: list[str] = []
    seed = 0
    while len(fens) < turns:
        game = rules.new_game(slug, seed=seed)
        seed += 1
        while len(fens) < turns:
            fens.append(game.fen())
            moves = game.legal_moves()
            if not moves or game.outcome is not None:
                break
            game.play(rng.choice(moves))
    return fens


def measure(slug: str, fens: list[str]) -> list[float]:
    times = []
    for fen in fens:
        game = rules.new_game(slug, fen=fen)
        start = time.perf_counter()
        game.legal_moves()
        game.outcome  # noqa: B018 - timed on purpose
        times.append((time.perf_counter() - start) * 1000)
    return times


# Pawn-and-bishop KingSwap endings where a naive search of ruling 8 explores every pawn shuffle.
KINGSWAP_ENDINGS = [
    "1PP2/3P1/1P3/PPPPP/2K1P 1 0",
    "PPPPP/PPPPP/PPPPP/PPPPP/PPPPK 1 0",
    "PBPBP/BPBPB/PBPBP/BPBPB/PBPBK 1 0",
    "BBBBB/BBBBB/BBBBB/BBBBB/BBBBK 1 0",
    "1P3/5/5/5/3BK 1 0",
]


def kingswap_endings() -> None:
    print(f"{'position':<36} {'outcome':>8} {'ms':>8}")
    for fen in KINGSWAP_ENDINGS:
        game = rules.new_game("kingswap", fen=fen)
        start = time.perf_counter()
        outcome = game.outcome
        elapsed = (time.perf_counter() - start) * 1000
        print(f"{fen:<36} {outcome.result if outcome else 'running':>8} {elapsed:>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kingswap-endings", action="store_true")
    parser.add_argument("slugs", nargs="*")
    args = parser.parse_args()
    if args.kingswap_endings:
        return kingswap_endings()
    slugs = args.slugs or sorted(rules.VARIANTS)
    print(f"{'variant':<16} {'positions':>9} {'median ms':>10} {'worst ms':>9}")
    for slug in slugs:
        times = measure(slug, positions(slug, args.turns, random.Random(args.seed)))
        print(f"{slug:<16} {len(times):>9} {statistics.median(times):>10.3f} {max(times):>9.3f}")


if __name__ == "__main__":
    main()
