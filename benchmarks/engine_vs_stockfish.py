"""The built-in engine's top level against Stockfish in standard chess: Stockfish at Skill Level 0,
and at UCI_LimitStrength with UCI_Elo 1350 (the weakest it allows).

    python benchmarks/engine_vs_stockfish.py [--games 4] [--seconds 0.2] [--stockfish-seconds 0.1]
    python benchmarks/engine_vs_stockfish.py --beginner [--games 4] [--plies 120]

`--games` per colour against each; the engine thinks `--seconds` a move, Stockfish
`--stockfish-seconds` (it sees the game's moves, so it knows repetitions). Games are played by
engine_strength.py's loop: one not decided in `--plies` plies is won by a side 9 or more points of
material ahead, else drawn. Prints each game, then per opponent the score and the Elo difference
with its 95% margin (the normal approximation of the mean score); when every game went one way,
only a bound: "beyond" what a half point more (or less) would give.
Stockfish's own calibration is for longer games: treat the 1350 as a name, not a rating.

With `--beginner`, engine_strength.py's beginner plays instead, against Stockfish as the bot's
lowest Stockfish level plays (bot/stockfish.py: level 4, Skill Level 0, the level's time) and
against the built-in engine's level 1; a game not decided in `--plies` plies is won by a side 3 or
more points of material ahead. This is why levels 1 to 3 stay the built-in engine's.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402
import chess.engine  # noqa: E402

import engine  # noqa: E402
import rules  # noqa: E402
from engine_strength import beginner, play_one, result  # noqa: E402  (this folder, beside this script)
from bot.stockfish import FIRST_LEVEL, find_stockfish, setting  # noqa: E402

OPPONENTS = {"Skill Level 0": {"Skill Level": 0},
             "UCI_Elo 1350": {"UCI_LimitStrength": True, "UCI_Elo": 1350}}


def elo(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The Elo difference a score implies, and its 95% margin. When every game went one way there is
    no estimate: the difference is then the bound a half point more or less would give, margin nan."""
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    if score in (0.0, 1.0):
        return math.copysign(400 * math.log10(2 * games - 1), score - 0.5), math.nan
    spread = math.sqrt((wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games)
    slope = 400 / (math.log(10) * score * (1 - score))   # d(Elo)/d(score)
    return 400 * math.log10(score / (1 - score)), 1.96 * spread / math.sqrt(games) * slope


def stockfish_player(stockfish: chess.engine.SimpleEngine, options: dict[str, int | bool], seconds: float):
    def play(game: rules.Game, _rng: object) -> str:
        board = chess.Board()
        for move in game.history:
            board.push_uci(move)
        played = stockfish.play(board, chess.engine.Limit(time=seconds), options=options)
        assert played.move is not None
        return played.move.uci()
    return play


def beginner_against(opponent, games: int, plies: int) -> list[float]:
    """The beginner's scores against `opponent` (game, rng) -> move, `games` games with each colour."""
    scores = []
    for colour in (rules.WHITE, rules.BLACK):
        for number in range(games):
            game, rng = rules.new_game("standard", seed=1), random.Random(f"beginner/{colour}/{number}")
            while game.outcome is None and len(game.history) < plies:
                game.play(beginner(game, rng) if game.turn == colour else opponent(game, rng))
            score, how = result(game, colour, 3, "beginner ")
            scores.append(score)
            print(f"beginner {colour:5} #{number + 1}  {scores[-1]:3}  {how}", flush=True)
    return scores


def beginners(stockfish: chess.engine.SimpleEngine, args: argparse.Namespace) -> None:
    skill, seconds = setting(FIRST_LEVEL)
    against = {f"Stockfish, level {FIRST_LEVEL} (Skill Level {skill}, {seconds} s)":
               stockfish_player(stockfish, {"Skill Level": skill}, seconds),
               "the built-in engine, level 1": lambda game, _rng: engine.choose(game, level=1).move}
    rows = [(name, beginner_against(play, args.games, args.plies)) for name, play in against.items()]
    print("\n| the beginner against | games | score |\n|---|---|---|")
    for name, scores in rows:
        print(f"| {name} | {len(scores)} | {sum(scores):g}/{len(scores)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games per colour against each opponent")
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--stockfish-seconds", type=float, default=0.1)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--beginner", action="store_true", help="the beginner against level 4 (Stockfish) and level 1")
    args = parser.parse_args()
    path = find_stockfish()
    if path is None:
        sys.exit("Stockfish is not installed (Debian: apt-get install stockfish, or set KIBITZ_STOCKFISH).")
    rows = []
    with chess.engine.SimpleEngine.popen_uci(path) as stockfish:
        if args.beginner:
            return beginners(stockfish, args)
        for name, options in OPPONENTS.items():
            play = argparse.Namespace(level=engine.MAX_LEVEL, seconds=args.seconds, plies=args.plies,
                                      opponent=stockfish_player(stockfish, options, args.stockfish_seconds))
            results = []
            for colour in (rules.WHITE, rules.BLACK):
                for number in range(args.games):
                    score, how = play_one("standard", colour, play, [])
                    results.append(score)
                    print(f"{name:14} engine {colour:5} #{number + 1}  {score:3}  {how}", flush=True)
            rows.append((name, results.count(1.0), results.count(0.5), results.count(0.0)))
    print(f"\nengine level {engine.MAX_LEVEL} at {args.seconds} s a move, Stockfish {args.stockfish_seconds} s a move")
    print("| Stockfish | games | +won =drawn -lost | score | Elo difference |\n|---|---|---|---|---|")
    for name, wins, draws, losses in rows:
        games = wins + draws + losses
        difference, margin = elo(wins, draws, losses)
        estimate = f"beyond {difference:+.0f}" if math.isnan(margin) else f"{difference:+.0f} ± {margin:.0f}"
        print(f"| {name} | {games} | +{wins} ={draws} -{losses} | {100 * (wins + draws / 2) / games:.0f}% "
              f"| {estimate} |")


if __name__ == "__main__":
    main()
