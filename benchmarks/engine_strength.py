"""The engine against a greedy player (the gate), a random mover, or another level.

    python benchmarks/engine_strength.py [--seconds 0.2] [--level 7] [--opponent greedy] [slug ...]
    python benchmarks/engine_strength.py --opponent random standard zoo
    python benchmarks/engine_strength.py --opponent level:2 --level 3 standard zoo

Each two-player game is played twice, the engine once with each colour. The greedy player wins at
once when it can, else takes the most material (P1 N3 B3 R5 Q9, other men 3) among its turns after
which a sample of the opponent's replies holds no immediate win (ties by a seeded draw); it has no
time limit. It is worked out cheaply but exactly so: every turn is played once (an immediate win is
taken, the material after it counted), then turns are tried for safety best material first until
one passes. A game not decided in `--plies` plies is won by a side 9 or more points of material
ahead (men on the board and in hand), else drawn. Prints each game, the engine's score (the gate:
at least 90%), and the worst time taken over `--seconds` (the gate: never over 2x plus 0.5 s).
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
import rules  # noqa: E402

POINTS = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
OTHER = 3
SAMPLE = 8   # replies looked at for an immediate win


def material(game: rules.Game, colour: str) -> int:
    view = game.view()
    total = 0
    for square, letter in view.pieces.items():
        owner = (view.owners or {}).get(square) or (rules.WHITE if letter.isupper() else rules.BLACK)
        if owner == colour:
            total += POINTS.get(letter.lower(), OTHER)
    held = (view.hands or {}).get(colour, "")
    return total + sum(POINTS.get(letter.lower(), OTHER) for letter in held)


def lead(game: rules.Game, colour: str) -> int:
    other = rules.BLACK if colour == rules.WHITE else rules.WHITE
    return material(game, colour) - material(game, other)


def result(game: rules.Game, colour: str, ahead: int, who: str = "") -> tuple[float, str]:
    """`colour`'s score in a game played out (its outcome), or else adjudicated: a win for a side
    `ahead` or more points of material ahead, else a draw; and how it ended (`who` names `colour`)."""
    if game.outcome is not None:
        winner, how = game.outcome.winner, game.outcome.reason
    else:
        lead_now = lead(game, colour)
        winner = colour if lead_now >= ahead else "other" if lead_now <= -ahead else None
        how = f"adjudicated at {len(game.history)} plies, {who}{lead_now:+d}"
    return 0.5 if winner is None else 1.0 if winner == colour else 0.0, how


def greedy(game: rules.Game, rng: random.Random) -> str:
    mover = game.turn
    judged = []
    for move in game.legal_moves():
        game.play(move)
        outcome, gain = game.outcome, lead(game, mover)
        game.undo()
        if outcome is not None and outcome.winner == mover:
            return move
        judged.append((gain, rng.random(), move, outcome))
    judged.sort(reverse=True)
    for gain, _, move, outcome in judged:
        if outcome is not None:
            if outcome.winner is None:
                return move   # a draw now: safe, and the best material left
            continue          # loses at once
        game.play(move)
        replies = game.legal_moves()
        safe = True
        for reply in rng.sample(replies, min(SAMPLE, len(replies))):
            game.play(reply)
            outcome = game.outcome
            game.undo()
            if outcome is not None and outcome.winner not in (mover, None):
                safe = False
                break
        game.undo()
        if safe:
            return move
    return judged[0][2]


def random_mover(game: rules.Game, rng: random.Random) -> str:
    return rng.choice(game.legal_moves())


def beginner(game: rules.Game, rng: random.Random) -> str:
    """A beginner: wins at once when it can, else takes free material (a capture after which no
    reply wins back as much), the most first; else a random turn, developing a man (one other than
    a pawn or king leaving its own back rank) three times as likely as another."""
    mover, moves = game.turn, game.legal_moves()
    before = lead(game, mover)
    free: list[tuple[int, float, str]] = []
    for move in moves:
        game.play(move)
        outcome, gain = game.outcome, lead(game, mover) - before
        if outcome is None and gain > 0:
            kept = gain
            for reply in game.legal_moves():
                game.play(reply)
                kept = min(kept, lead(game, mover) - before)
                game.undo()
            if kept > 0:
                free.append((kept, rng.random(), move))
        game.undo()
        if outcome is not None and outcome.winner == mover:
            return move
    if free:
        return max(free)[2]
    view = game.view()
    home = "1" if mover == rules.WHITE else str(view.ranks)
    weights = []
    for move in moves:
        start = re.match(r"[a-z](\d+)", move)
        letter = view.pieces.get(start.group(0), "") if start and start.group(1) == home else ""
        weights.append(3 if letter and letter.lower() not in "pk" else 1)
    return rng.choices(moves, weights)[0]


def play_one(slug: str, engine_colour: str, args: argparse.Namespace, worst: list[float]) -> tuple[float, str]:
    game = rules.new_game(slug, seed=1)
    rng = random.Random(f"{slug}{engine_colour}")
    for _ in range(args.plies):
        if game.outcome is not None:
            break
        if game.turn == engine_colour:
            start = time.monotonic()
            nodes = getattr(args, "nodes", None)   # a budget of positions instead of the clock (the ladder)
            choice = engine.choose(game, level=args.level, seconds=None if nodes else args.seconds, nodes=nodes)
            worst.append(time.monotonic() - start)
            move = choice.move
        elif callable(args.opponent):   # another script's player: (game, rng) -> move
            move = args.opponent(game, rng)
        elif args.opponent == "greedy":
            move = greedy(game, rng)
        elif args.opponent == "random":
            move = random_mover(game, rng)
        else:
            level = int(args.opponent.split(":")[1])
            move = engine.choose(game, level=level, seconds=args.seconds if args.opponent_timed else None).move
        game.play(move)
    return result(game, engine_colour, 9, "engine ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--level", type=int, default=engine.MAX_LEVEL)
    parser.add_argument("--opponent", default="greedy", help="greedy, random or level:N")
    parser.add_argument("--opponent-timed", action="store_true", help="level:N thinks --seconds too (else its own time)")
    parser.add_argument("--plies", type=int, default=100)
    args = parser.parse_args()
    slugs = args.slugs or sorted(s for s, info in rules.VARIANTS.items() if info.players == 2)
    total, games, times = 0.0, 0, []
    started = time.monotonic()
    for slug in slugs:
        for colour in (rules.WHITE, rules.BLACK):
            worst: list[float] = []
            score, how = play_one(slug, colour, args, worst)
            total, games = total + score, games + 1
            times.extend(worst)
            slowest = max(worst, default=0.0)
            print(f"{slug:16} engine {colour:5} {score:3}  {how}  (slowest move {slowest:.3f} s)", flush=True)
    over = max(times, default=0.0) - args.seconds
    print(f"\nscore {total}/{games} = {100 * total / max(games, 1):.1f}%  (gate: 90%)")
    print(f"engine moves {len(times)}, worst over time {over:+.3f} s ({100 * over / args.seconds:+.0f}%; "
          f"gate: under {args.seconds + 0.5:.1f} s in all), run {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
