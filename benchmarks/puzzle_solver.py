"""Measure the daily deals and the hints of the solo puzzles.

    python benchmarks/puzzle_solver.py [--days 60] [--start 2026-01-01] [--budget N] [--positions 20]

Daily KingSwap!: for each day, the seeds tried until one is proved, the share of seeds proved
within the node budget, the solver's time (median and worst ms per seed) and nodes, and par.
Hints: the time of `rules.hint(game)` (median and worst ms) over positions of random play.
"""
from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules  # noqa: E402
from rules.daily import daily_seed  # noqa: E402
from rules.variants.kingswap import DAILY_NODE_BUDGET  # noqa: E402
from rules.variants.kingswap.solver import solve  # noqa: E402


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values):7.1f} ms, worst {max(values):7.1f} ms" if values else "-"


def daily(days: int, start: datetime.date, budget: int) -> None:
    tried: list[int] = []
    pars: list[int] = []
    seed_times: list[float] = []
    seed_nodes: list[int] = []
    proved = seeds = 0
    day_times: list[float] = []
    slow_days: list[str] = []
    for n in range(days):
        day = start + datetime.timedelta(days=n)
        began = time.perf_counter()
        for k in range(64):
            game = rules.new_game("kingswap", seed=daily_seed("kingswap", day, k))
            t0 = time.perf_counter()
            result = solve(game, budget)
            seed_times.append((time.perf_counter() - t0) * 1000)
            seed_nodes.append(result.nodes)
            seeds += 1
            if result.solvable:
                proved += 1
                tried.append(k + 1)
                if k:
                    slow_days.append(f"{day} ({k + 1} seeds)")
                pars.append(result.best_score or 0)
                break
        day_times.append((time.perf_counter() - began) * 1000)
    print(f"KingSwap! daily deals, {days} days from {start}, node budget {budget}")
    print(f"  seeds tried per day: mean {statistics.mean(tried):.2f}, most {max(tried)}, "
          f"days needing more than one: {', '.join(slow_days) or 'none'}")
    print(f"  seeds proved solvable within the budget: {proved}/{seeds} = {proved / seeds:.0%}")
    print(f"  solve per seed: {ms(seed_times)}; nodes median {statistics.median(seed_nodes):.0f}, "
          f"most {max(seed_nodes)}")
    print(f"  daily deal per day: {ms(day_times)}")
    print(f"  par: min {min(pars)}, median {statistics.median(pars)}, max {max(pars)}; "
          f"counts {dict(sorted((p, pars.count(p)) for p in set(pars)))}")


def hints(positions: int, seconds: float, rng: random.Random) -> None:
    print(f"Hints ({seconds:g} s asked), {positions} positions of random play per puzzle")
    for slug in rules.DAILY_SLUGS:
        times: list[float] = []
        answered = 0
        seed = 0
        while len(times) < positions:
            game = rules.new_game(slug, seed=seed)
            seed += 1
            for _ in range(rng.randrange(0, 40)):
                if game.outcome is not None:
                    break
                game.play(rng.choice(game.legal_moves()))
            if game.outcome is not None:
                continue
            t0 = time.perf_counter()
            hint = rules.hint(game, seconds)
            times.append((time.perf_counter() - t0) * 1000)
            answered += hint is not None
        print(f"  {slug:18s} {ms(times)}; answered {answered}/{positions}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--start", type=datetime.date.fromisoformat, default=datetime.date(2026, 1, 1))
    parser.add_argument("--budget", type=int, default=DAILY_NODE_BUDGET)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.days:
        daily(args.days, args.start, args.budget)
    if args.positions:
        hints(args.positions, args.seconds, random.Random(args.seed))


if __name__ == "__main__":
    main()
