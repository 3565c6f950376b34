"""The built-in engine's top level against Stockfish in standard chess: Stockfish at Skill Level 0,
and at UCI_LimitStrength with UCI_Elo 1350 (the weakest it allows).

    python benchmarks/engine_vs_stockfish.py [--games 4] [--seconds 0.2] [--stockfish-seconds 0.1]

`--games` per colour against each; the engine thinks `--seconds` a move, Stockfish
`--stockfish-seconds` (it sees the game's moves, so it knows repetitions). Games are played by
engine_strength.py's loop: one not decided in `--plies` plies is won by a side 9 or more points of
material ahead, else drawn. Prints each game, then per opponent the score and the Elo difference
with its 95% margin (the normal approximation of the mean score); when every game went one way,
only a bound: "beyond" what a half point more (or less) would give.
Stockfish's own calibration is for longer games: treat the 1350 as a name, not a rating.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402
import chess.engine  # noqa: E402

import engine  # noqa: E402
import rules  # noqa: E402
from engine_strength import play_one  # noqa: E402  (this folder, beside this script)
from bot.stockfish import find_stockfish  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games per colour against each opponent")
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--stockfish-seconds", type=float, default=0.1)
    parser.add_argument("--plies", type=int, default=100)
    args = parser.parse_args()
    path = find_stockfish()
    if path is None:
        sys.exit("Stockfish is not installed (Debian: apt-get install stockfish, or set KIBITZ_STOCKFISH).")
    rows = []
    with chess.engine.SimpleEngine.popen_uci(path) as stockfish:
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
