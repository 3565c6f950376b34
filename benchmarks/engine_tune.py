"""Self-play for tuning a variant's evaluation: its profile (engine/profiles.py) against the same
profile with one change, both at one level's budget of positions (no clock: the same games on any
machine), from seeded openings, each opening once with each colour.

    python benchmarks/engine_tune.py [--change no-goal] [--level 4] [--openings 4] [--plies 60] slug ...

Changes: `no-goal` drops the goal features (does the goal pay?), `mobility:N` sets the centipawns
per legal turn, `feature:NAME` drops one goal feature by its function's name. A game not decided
in `--plies` plies is won by a side 9 or more points of material ahead, else drawn (as in
engine_strength.py). Prints the profile's score against the changed one: above half, keep it.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
import engine.profiles as profiles  # noqa: E402
import rules  # noqa: E402
from engine_strength import lead  # noqa: E402  (this folder, beside this script)


def changed(profile: profiles.Profile, change: str) -> profiles.Profile:
    if change == "no-goal":
        return dataclasses.replace(profile, features=())
    kind, _, value = change.partition(":")
    if kind == "mobility":
        return dataclasses.replace(profile, mobility=int(value))
    if kind == "feature":
        kept = tuple(f for f in profile.features if getattr(f, "__qualname__", "").split(".")[0] != value)
        return dataclasses.replace(profile, features=kept)
    raise SystemExit(f"unknown change {change!r}")


def game_score(slug: str, opening: int, own_colour: str, other: profiles.Profile, args: argparse.Namespace) -> float:
    own = profiles.profile(slug)
    game, rng = rules.new_game(slug, seed=1), random.Random(f"{slug}{opening}")
    for _ in range(4):   # a seeded opening of four random turns
        if game.outcome is None:
            game.play(rng.choice(game.legal_moves()))
    while game.outcome is None and len(game.history) < args.plies:
        profiles.PROFILES[slug] = own if game.turn == own_colour else other
        try:
            game.play(engine.choose(game, level=args.level, nodes=engine.LEVELS[args.level - 1].nodes).move)
        finally:
            profiles.PROFILES[slug] = own
    winner = game.outcome.winner if game.outcome else None
    if game.outcome is None:
        ahead = lead(game, own_colour)
        winner = own_colour if ahead >= 9 else None if ahead > -9 else "other"
    return 0.5 if winner is None else 1.0 if winner == own_colour else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slugs", nargs="+")
    parser.add_argument("--change", default="no-goal")
    parser.add_argument("--level", type=int, default=4)
    parser.add_argument("--openings", type=int, default=4)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args()
    print("| variant | change | profile's score |\n|---|---|---|")
    for slug in args.slugs:
        other = changed(profiles.profile(slug), args.change)
        scores = [game_score(slug, opening, colour, other, args)
                  for opening in range(args.openings) for colour in (rules.WHITE, rules.BLACK)]
        print(f"| {slug} | {args.change} | {sum(scores):g}/{len(scores)} |", flush=True)


if __name__ == "__main__":
    main()
