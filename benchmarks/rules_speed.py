"""Time legal_moves() plus outcome per variant over the positions of random legal games.

    python benchmarks/rules_speed.py [--turns 300] [--seed 1] [slug ...]
    python benchmarks/rules_speed.py --kingswap-endings
    python benchmarks/rules_speed.py --min-turns 500 balanced-swap     # busy middlegames only

`legal_moves()` and `outcome` are timed together right after each move, when nothing is cached
yet and the game's history (repetitions) is in place. Prints median and worst milliseconds.
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


def measure(slug: str, turns: int, rng: random.Random, counts: list[int] | None = None,
            min_turns: int = 0) -> list[float]:
    """Milliseconds for legal_moves() plus outcome at each position of random games, timed right
    after the move that reached it (caches empty, the game's history in place). `counts`, when
    given, receives the number of legal turns of each position."""
    times: list[float] = []
    seed = 0
    while len(times) < turns:
        game = rules.new_game(slug, seed=seed)
        seed += 1
        while len(times) < turns:
            start = time.perf_counter()
            moves = game.legal_moves()
            outcome = game.outcome
            if len(moves) >= min_turns:
                times.append((time.perf_counter() - start) * 1000)
                if counts is not None:
                    counts.append(len(moves))
            if not moves or outcome is not None:
                break
            game.play(rng.choice(moves))
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
    parser.add_argument("--min-turns", type=int, default=0,
                        help="time only positions with at least this many legal turns (busy middlegames)")
    parser.add_argument("slugs", nargs="*")
    args = parser.parse_args()
    if args.kingswap_endings:
        return kingswap_endings()
    slugs = args.slugs or sorted(rules.VARIANTS)
    print(f"{'variant':<16} {'positions':>9} {'median ms':>10} {'worst ms':>9} {'turns (median/max)':>19}")
    for slug in slugs:
        counts: list[int] = []
        times = measure(slug, args.turns, random.Random(args.seed), counts, args.min_turns)
        print(f"{slug:<16} {len(times):>9} {statistics.median(times):>10.3f} {max(times):>9.3f} "
              f"{statistics.median(counts):>12.0f}/{max(counts)}")


if __name__ == "__main__":
    main()
