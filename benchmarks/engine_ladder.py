"""The levels' ladder: each level against the one below, and a beginner against level 1, over a
sample of quick variants and seeded openings, each opening played once with each colour.

    python benchmarks/engine_ladder.py [--scale 1] [--openings 2] [--first-opening 0] [--plies 40] [--jobs 1]
                                       [--matches beginner:1,2:1,...,7:6] [--timed] [slug ...]
    (default variants: standard zoo junta glory moderation clerical)

A match `A:B` plays A (the side scored) against B, where each is a level number or a model player
of engine_strength.py (`beginner`, `greedy`, `random`). Each game starts from an opening of
`--opening-plies` seeded random turns (the seed is the variant and the opening's number), so games
differ, and each opening is played once with each colour (`--first-opening N`: openings N, N+1, ...,
for more games than a run before). Each level searches its own budget of
positions (engine/levels.py) times `--scale` (at least 50) and never looks at the clock: the same
games on any machine, however busy. Scaled down, the upper levels seldom finish a deeper iteration
than the level below, so only the full budgets (`--scale 1`, the default) show them as they play.
With `--timed`, each level thinks its own time per move times `--scale` instead, as the bot does.
A game not decided in `--plies` plies after the opening is won by a side `--ahead` or more points
of material ahead (P1 N3 B3 R5 Q9, other men 3), else drawn.
`--jobs N` plays N games at once in worker processes (run it `nice`: on a shared machine).

Prints each game, then a table: each match's score per variant, in all, as a share with its
rough error (two standard errors of the mean over the games: about 95%).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
import rules  # noqa: E402
from engine_strength import beginner, greedy, random_mover, result  # noqa: E402  (this folder, beside this script)

SLUGS = ["standard", "zoo", "junta", "glory", "moderation", "clerical"]
MODELS = {"beginner": beginner, "greedy": greedy, "random": random_mover}


def nodes(level: int, scale: float) -> int:
    return max(50, int(engine.LEVELS[level - 1].nodes * scale))


def move_of(player: str, game: rules.Game, rng: random.Random, args: argparse.Namespace) -> str:
    if player in MODELS:
        return MODELS[player](game, rng)
    level = int(player)
    if args.timed:
        return engine.choose(game, level=level, seconds=max(0.05, engine.LEVELS[level - 1].seconds * args.scale)).move
    return engine.choose(game, level=level, nodes=nodes(level, args.scale)).move


def play(task: tuple[str, str, str, int, str, argparse.Namespace]) -> tuple[float, str]:
    """One game: `scored` (with colour `colour`) against `other` from opening `opening` of `slug`;
    the scored side's score and how the game ended."""
    scored, other, slug, opening, colour, args = task
    game = rules.new_game(slug, seed=1)
    opening_rng = random.Random(f"{slug}/{opening}")
    for _ in range(args.opening_plies):
        if game.outcome is None:
            game.play(opening_rng.choice(game.legal_moves()))
    rng = random.Random(f"{slug}/{opening}/{colour}")
    start = len(game.history)
    while game.outcome is None and len(game.history) - start < args.plies:
        game.play(move_of(scored if game.turn == colour else other, game, rng, args))
    return result(game, colour, args.ahead)


def share(scores: list[float]) -> str:
    """The mean score as a percentage, with two standard errors of the mean."""
    n = len(scores)
    mean = sum(scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n) if n > 1 else 0.0
    return f"{100 * mean:.0f}% ± {200 * spread:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--timed", action="store_true", help="levels by their time, not their budget of positions")
    parser.add_argument("--openings", type=int, default=2)
    parser.add_argument("--first-opening", type=int, default=0, help="more games: openings from this number on")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--ahead", type=int, default=3, help="material points that win an unfinished game")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--matches", default="beginner:1," + ",".join(f"{n}:{n - 1}" for n in range(2, engine.MAX_LEVEL + 1)))
    args = parser.parse_args()
    slugs = args.slugs or SLUGS
    matches = [tuple(match.split(":")) for match in args.matches.split(",")]
    tasks = [(scored, other, slug, opening, colour, args) for scored, other in matches for slug in slugs
             for opening in range(args.first_opening, args.first_opening + args.openings) for colour in (rules.WHITE, rules.BLACK)]
    started = time.monotonic()
    results: dict[tuple[str, str, str], list[float]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for task, (score, how) in zip(tasks, pool.map(play, tasks) if args.jobs > 1 else map(play, tasks)):
            scored, other, slug, opening, colour, _ = task
            results.setdefault((scored, other, slug), []).append(score)
            print(f"{scored:>8} vs {other:<8} {slug:12} opening {opening} {colour:5} {score:3}  {how}", flush=True)
    budget = "their time" if args.timed else "their positions"
    print(f"\nlevels at {budget} x {args.scale}; {args.openings} openings (from #{args.first_opening}) of {args.opening_plies} random plies, "
          f"each colour; {args.plies} plies, then {args.ahead} points ahead wins; run {time.monotonic() - started:.0f} s."
          f"\nThe first side's score:")
    print("| match | " + " | ".join(slugs) + " | in all | share |")
    print("|---" * (len(slugs) + 3) + "|")
    for scored, other in matches:
        per = [results[(scored, other, slug)] for slug in slugs]
        every = [s for scores in per for s in scores]
        print(f"| {scored} vs {other} | " + " | ".join(f"{sum(s):g}/{len(s)}" for s in per)
              + f" | {sum(every):g}/{len(every)} | {share(every)} |")


if __name__ == "__main__":
    main()
