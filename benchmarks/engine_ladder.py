"""The levels' ladder: each level against the one below, and the top level against a random mover,
on a few variants, each game once with each colour.

    python benchmarks/engine_ladder.py [--scale 0.1] [--timed] [--plies 50] [slug ...]   (default: standard zoo)

Each level searches its own budget of positions (engine/levels.py) times `--scale`, at least 100 per
level number, and never looks at the clock: the same games on any machine, however busy (the full
budgets, `--scale 1`, take about ten times as long). With `--timed`, each level thinks its own time
per move times `--scale` instead (at least 0.05 s), as the bot does. Games are played by engine_strength.py's loop: one not
decided in `--plies` plies is won by a side 9 or more points of material ahead, else drawn. Prints
a table: the upper level's (or the top level's) score per variant and in all.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
import rules  # noqa: E402
from engine_strength import play_one  # noqa: E402  (this folder, beside this script)


def seconds(level: int, scale: float) -> float:
    return max(0.05, engine.LEVELS[level - 1].seconds * scale)


def nodes(level: int, scale: float) -> int:
    return max(100 * level, int(engine.LEVELS[level - 1].nodes * scale))


def level_player(level: int, scale: float, timed: bool):
    def play(game: rules.Game, _rng: object) -> str:
        if timed:
            return engine.choose(game, level=level, seconds=seconds(level, scale)).move
        return engine.choose(game, level=level, nodes=nodes(level, scale)).move
    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--timed", action="store_true", help="levels by their time, not their budget of positions")
    parser.add_argument("--plies", type=int, default=50)
    args = parser.parse_args()
    slugs = args.slugs or ["standard", "zoo"]
    matches = [(f"{upper} vs {upper - 1}", upper, level_player(upper - 1, args.scale, args.timed))
               for upper in range(2, engine.MAX_LEVEL + 1)]
    matches.append((f"{engine.MAX_LEVEL} vs random", engine.MAX_LEVEL, "random"))
    started = time.monotonic()
    rows = []
    for name, upper, opponent in matches:
        play = argparse.Namespace(level=upper, seconds=seconds(upper, args.scale), plies=args.plies, opponent=opponent,
                                  nodes=None if args.timed else nodes(upper, args.scale))
        scores = []
        for slug in slugs:
            for colour in (rules.WHITE, rules.BLACK):
                score, how = play_one(slug, colour, play, [])
                scores.append(score)
                print(f"{name:12} {slug:14} upper {colour:5} {score:3}  {how}", flush=True)
        rows.append((name, scores))
    budget = "time" if args.timed else "positions"
    print(f"\nlevels at their {budget} x {args.scale}, {args.plies} plies, "
          f"run {time.monotonic() - started:.0f} s; the upper level's score, each variant's two games:")
    print("| match | " + " | ".join(slugs) + " | in all |")
    print("|---" * (len(slugs) + 2) + "|")
    for name, scores in rows:
        pairs = [sum(scores[2 * i:2 * i + 2]) for i in range(len(slugs))]
        print(f"| {name} | " + " | ".join(f"{pair:g}/2" for pair in pairs) + f" | {sum(scores):g}/{len(scores)} |")


if __name__ == "__main__":
    main()
