"""The levels' ladder: each level against the one below, and the top level against a random mover,
on a few variants, each game once with each colour.

    python benchmarks/engine_ladder.py [--scale 0.2] [--plies 50] [slug ...]   (default: standard zoo)

Each level thinks its own time per move (engine/levels.py) times `--scale`, at least 0.05 s, so
the levels keep their ratios of time in a run short enough for a shared machine (the full times,
`--scale 1`, take about five times as long). Games are played by engine_strength.py's loop: one not
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


def level_player(level: int, scale: float):
    def play(game: rules.Game, _rng: object) -> str:
        return engine.choose(game, level=level, seconds=seconds(level, scale)).move
    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--scale", type=float, default=0.2)
    parser.add_argument("--plies", type=int, default=50)
    args = parser.parse_args()
    slugs = args.slugs or ["standard", "zoo"]
    matches = [(f"{upper} vs {upper - 1}", upper, level_player(upper - 1, args.scale))
               for upper in range(2, engine.MAX_LEVEL + 1)]
    matches.append((f"{engine.MAX_LEVEL} vs random", engine.MAX_LEVEL, "random"))
    started = time.monotonic()
    rows = []
    for name, upper, opponent in matches:
        play = argparse.Namespace(level=upper, seconds=seconds(upper, args.scale), plies=args.plies, opponent=opponent)
        scores = []
        for slug in slugs:
            for colour in (rules.WHITE, rules.BLACK):
                score, how = play_one(slug, colour, play, [])
                scores.append(score)
                print(f"{name:12} {slug:14} upper {colour:5} {score:3}  {how}", flush=True)
        rows.append((name, scores))
    print(f"\nlevels at their time x {args.scale} (at least 0.05 s), {args.plies} plies, "
          f"run {time.monotonic() - started:.0f} s; the upper level's score, each variant's two games:")
    print("| match | " + " | ".join(slugs) + " | in all |")
    print("|---" * (len(slugs) + 2) + "|")
    for name, scores in rows:
        pairs = [sum(scores[2 * i:2 * i + 2]) for i in range(len(slugs))]
        print(f"| {name} | " + " | ".join(f"{pair:g}/2" for pair in pairs) + f" | {sum(scores):g}/{len(scores)} |")


if __name__ == "__main__":
    main()
