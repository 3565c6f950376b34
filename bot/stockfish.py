"""Standard chess against Stockfish, where a binary is installed: the bot's engine workers call
`stockfish_move` for standard games and fall back to the built-in engine when it raises.

    path = find_stockfish()                       # KIBITZ_STOCKFISH, else `stockfish` on the PATH or in /usr/games
    plays(level)                                  # whether Stockfish plays this level (4 and up)
    stockfish_move(path, fen, level=4)            # a UCI move such as "e2e4", within the level's time
    stockfish_move(path, fen, 7, nodes=20_000)    # at most 20,000 nodes and no clock (tests)
    stockfish_play(path, fen, level=4)            # ("e2e4", 31): the move and Stockfish's score of it

Stockfish plays levels FIRST_LEVEL (4, club) to the top; the levels below it are the built-in
engine's in standard chess too. Even at Skill Level 0 Stockfish is no beginner's opponent: a
beginner (benchmarks/engine_strength.py's model) scored 0/8 against it at level 4's time and 8/8
against the built-in level 1 (`benchmarks/engine_vs_stockfish.py --beginner`), and it beat the
built-in top level 8/8 at 0.2 s a move. So levels 1 to 3 stay beatable, and level 4 is still
stronger than level 3. From level 4 up the levels map onto
Stockfish's "Skill Level" (0 to 20, evenly spread, the top level at full strength) and the
built-in engine's time per move at the same level (engine/levels.py):

    | level | Skill Level | seconds |
    |-------|-------------|---------|
    | 4     | 0           | 0.8     |
    | 5     | 7           | 1.2     |
    | 6     | 13          | 2.0     |
    | 7     | 20          | 5.0     |

Each process keeps one Stockfish per path, started at its first move and reused (start-up and
the network file are paid once), closed at exit; a worker killed outright leaves no Stockfish
behind either, as Stockfish quits when its input closes. An engine that fails is closed and
forgotten, so the next move starts a fresh one.
"""
from __future__ import annotations

import atexit
import os
import shutil
import threading
from collections.abc import Mapping

import chess
import chess.engine

import engine
from engine.search import MATE

SETTING = "KIBITZ_STOCKFISH"
NAME = "stockfish"
DEBIAN = "/usr/games"   # where Debian's package puts it, not on every PATH
MAX_SKILL = 20
FIRST_LEVEL = 4   # Stockfish plays from this level up; below, the built-in engine (module docstring)


def find_stockfish(environ: Mapping[str, str] = os.environ) -> str | None:
    """The Stockfish to run: KIBITZ_STOCKFISH (a path, or a name on the PATH) when set, `off` for
    none; else `stockfish` on the PATH or in /usr/games; None when there is none."""
    chosen = environ.get(SETTING, "").strip()
    if chosen.lower() == "off":
        return None
    if chosen:
        return shutil.which(chosen, path=environ.get("PATH")) or chosen
    return shutil.which(NAME, path=os.pathsep.join([environ.get("PATH", os.defpath), DEBIAN]))


def plays(level: int) -> bool:
    """Whether Stockfish plays standard chess at this Kibitz level (FIRST_LEVEL and up)."""
    return level >= FIRST_LEVEL


def setting(level: int) -> tuple[int, float]:
    """Stockfish's Skill Level and the seconds per move for a Kibitz level it plays (the table above)."""
    if type(level) is not int or not 1 <= level <= engine.MAX_LEVEL:
        raise ValueError(f"The level is a whole number from 1 to {engine.MAX_LEVEL}.")
    if not plays(level):
        raise ValueError(f"Stockfish plays levels {FIRST_LEVEL} to {engine.MAX_LEVEL}; the built-in engine plays level {level}.")
    skill = round(MAX_SKILL * (level - FIRST_LEVEL) / (engine.MAX_LEVEL - FIRST_LEVEL))
    return skill, engine.LEVELS[level - 1].seconds


def stockfish_move(path: str, fen: str, level: int, seconds: float | None = None, nodes: int | None = None) -> str:
    """Stockfish's move in the standard position `fen`, as UCI text, at `level` within `seconds`
    (default: the level's) and at most `nodes` nodes (then, without `seconds`, no clock: tests).

    Raises ValueError for a bad level or position, OSError when `path` cannot be run, and
    chess.engine.EngineError or TimeoutError when the engine fails."""
    return stockfish_play(path, fen, level, seconds, nodes)[0]


def stockfish_play(path: str, fen: str, level: int, seconds: float | None = None,
                   nodes: int | None = None) -> tuple[str, int | None]:
    """As `stockfish_move`, with Stockfish's score of the position for the side to move, on the
    built-in engine's scale (centipawns; a mate in n plies MATE - n, as engine/search.py scores
    it), so the draw and resignation policies read both alike. None when Stockfish gave none."""
    skill, level_seconds = setting(level)
    board = chess.Board(fen)
    if not board.is_valid():
        raise ValueError(f"Not a valid standard position: {fen}")
    if board.is_game_over():
        raise ValueError("The game is over.")
    if seconds is None and nodes is None:
        seconds = level_seconds
    stockfish = _engine(path)
    try:
        played = stockfish.play(board, chess.engine.Limit(time=seconds, nodes=nodes), options={"Skill Level": skill},
                                info=chess.engine.INFO_SCORE)
    except BaseException:
        _forget(path)
        raise
    if played.move is None or played.move not in board.legal_moves:
        _forget(path)
        raise chess.engine.EngineError(f"Stockfish gave no legal move in {fen}")
    return played.move.uci(), _score(played.info.get("score"), board.turn)


def _score(score: chess.engine.PovScore | None, turn: chess.Color) -> int | None:
    """A UCI score on the built-in engine's scale, for the side to move (see `stockfish_play`)."""
    if score is None:
        return None
    mine = score.pov(turn)
    mate = mine.mate()
    if mate is None:
        return mine.score()
    return MATE - (2 * mate - 1) if mate > 0 else -2 * mate - MATE   # plies: mating in m takes 2m - 1, mated in m 2m


_engines: dict[str, chess.engine.SimpleEngine] = {}
_owner = os.getpid()   # a forked worker starts its own engines, never its parent's


def _engine(path: str) -> chess.engine.SimpleEngine:
    global _owner
    if _owner != os.getpid():
        _engines.clear()
        _owner = os.getpid()
    if path not in _engines:
        _engines[path] = _start(path)
    return _engines[path]


def _start(path: str) -> chess.engine.SimpleEngine:
    """SimpleEngine.popen_uci, called from a daemon thread. The engine's event loop runs on a thread
    it starts, which takes the daemon flag of the thread starting it; the interpreter waits for
    every thread that is not a daemon before it runs atexit, so a process holding such an engine
    would never end (and `_close_all` never run)."""
    started: list[chess.engine.SimpleEngine | BaseException] = []

    def start() -> None:
        try:
            started.append(chess.engine.SimpleEngine.popen_uci(path))
        except BaseException as error:
            started.append(error)

    opener = threading.Thread(target=start, name="stockfish start", daemon=True)
    opener.start()
    opener.join()
    if isinstance(started[0], BaseException):
        raise started[0]
    return started[0]


def _forget(path: str) -> None:
    stockfish = _engines.pop(path, None)
    if stockfish is not None:
        stockfish.close()


@atexit.register
def _close_all() -> None:
    """Asks each engine to quit (it ends at once), and closes it whatever it answers."""
    if _owner != os.getpid():
        return
    for path, stockfish in list(_engines.items()):
        try:
            stockfish.quit()
        except Exception:
            pass
        _forget(path)
