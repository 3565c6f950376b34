"""Stockfish for standard games (bot/stockfish.py): finding the binary, the level map, legal moves
from real Stockfish (bounded by nodes, never by the clock), and errors that raise so the caller
can fall back to the built-in engine. Tests that need the binary are skipped only where it is not
installed (CI installs Debian's package: .ci/run)."""
import re
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

import engine
import rules
from bot import stockfish
from bot.config import ConfigError, load
from bot.opponent.workers import Job, think
from bot.stockfish import FIRST_LEVEL, find_stockfish, setting, stockfish_move
from engine.search import MATE

INSTALLED = find_stockfish()
needs_stockfish = pytest.mark.skipif(INSTALLED is None, reason="no Stockfish found "
                                     "(Debian: apt-get install stockfish; or KIBITZ_STOCKFISH names it, or is off)")
NO_DOTENV = Path("/nonexistent")

POSITIONS = [
    chess.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",      # black to move, castling rights
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",          # en passant available
    "8/P6k/8/8/8/8/6K1/8 w - - 0 1",                                          # a promotion
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",                                        # in check, one reply: Kxd2
    "r3k2r/pp3ppp/2n1bn2/q1bpp3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQkq - 4 9",     # a middlegame
]


def executable(folder: Path, name: str, text: str = "") -> Path:
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{text}", encoding="utf-8")
    path.chmod(0o755)
    return path


@needs_stockfish
@pytest.mark.parametrize("level", [FIRST_LEVEL, engine.MAX_LEVEL])
@pytest.mark.parametrize("fen", POSITIONS)
def test_stockfish_plays_a_legal_move(fen, level):
    move = stockfish_move(INSTALLED, fen, level, nodes=2000)
    assert chess.Move.from_uci(move) in chess.Board(fen).legal_moves


@needs_stockfish
def test_the_only_legal_move_is_played_and_the_top_level_mates_in_one():
    assert stockfish_move(INSTALLED, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", FIRST_LEVEL, nodes=500) == "e1d2"
    assert stockfish_move(INSTALLED, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", engine.MAX_LEVEL, nodes=5000) == "a1a8"


@needs_stockfish
def test_one_engine_per_path_is_kept_and_sent_the_levels_skill_and_limit(monkeypatch):
    stockfish_move(INSTALLED, chess.STARTING_FEN, FIRST_LEVEL, nodes=100)
    kept = stockfish._engines[INSTALLED]
    searches = []
    real_play = kept.play

    def play(board, limit, **options):
        searches.append((limit, options["options"]))
        return real_play(board, limit, **options)

    monkeypatch.setattr(kept, "play", play)
    stockfish_move(INSTALLED, chess.STARTING_FEN, FIRST_LEVEL)
    stockfish_move(INSTALLED, chess.STARTING_FEN, engine.MAX_LEVEL, nodes=300)
    stockfish_move(INSTALLED, chess.STARTING_FEN, 6, seconds=0.01)
    assert stockfish._engines[INSTALLED] is kept
    assert searches == [
        (chess.engine.Limit(time=engine.LEVELS[FIRST_LEVEL - 1].seconds), {"Skill Level": 0}),
        (chess.engine.Limit(nodes=300), {"Skill Level": 20}),
        (chess.engine.Limit(time=0.01), {"Skill Level": 13}),
    ]


def test_levels_from_the_first_stockfish_level_map_onto_skill_level_and_the_levels_time_as_the_table_says():
    assert setting(FIRST_LEVEL) == (0, engine.LEVELS[FIRST_LEVEL - 1].seconds)
    assert setting(engine.MAX_LEVEL) == (20, engine.LEVELS[-1].seconds)
    skills = [setting(level)[0] for level in range(FIRST_LEVEL, engine.MAX_LEVEL + 1)]
    assert skills == sorted(set(skills))
    table = re.findall(r"^\s*\| (\d+)\s*\| (\d+)\s*\| ([\d.]+)\s*\|$", stockfish.__doc__, re.MULTILINE)
    assert [(int(level), int(skill), float(seconds)) for level, skill, seconds in table] == [
        (level, *setting(level)) for level in range(FIRST_LEVEL, engine.MAX_LEVEL + 1)]


@pytest.mark.parametrize("level", range(1, FIRST_LEVEL))
def test_stockfish_does_not_play_the_levels_a_beginner_must_be_able_to_beat(level):
    with pytest.raises(ValueError, match="the built-in engine plays level"):
        stockfish_move("/nonexistent/stockfish", chess.STARTING_FEN, level)


@pytest.mark.parametrize("level", range(1, FIRST_LEVEL))
def test_a_computer_worker_leaves_standard_chess_below_the_first_stockfish_level_to_the_built_in_engine(tmp_path, level):
    """Even at Skill Level 0 Stockfish beats a beginner every time: levels 1 to 3 are the built-in
    engine's, and the Stockfish named is never started for them."""
    ran = tmp_path / "ran"
    spy = executable(tmp_path, "spy-stockfish", f"open({str(ran)!r}, 'w').close()\n")
    answer = think(Job("standard", None, None, ("e2e4",), level=level, seconds=None, nodes=200, stockfish=str(spy)))
    assert answer.move in rules.new_game("standard", fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves()
    assert answer.nodes > 0 and not ran.exists()


@pytest.mark.parametrize("level", [0, engine.MAX_LEVEL + 1, 2.0, "3", True])
def test_a_bad_level_raises_before_any_engine_starts(level):
    with pytest.raises(ValueError, match="The level is a whole number"):
        stockfish_move("/nonexistent/stockfish", chess.STARTING_FEN, level)


@pytest.mark.parametrize("fen", ["not a position", "8/8/8/8/8/8/8/8 w - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"])
def test_a_bad_or_finished_position_raises_before_any_engine_starts(fen):
    with pytest.raises(ValueError):
        stockfish_move("/nonexistent/stockfish", fen, FIRST_LEVEL)


def test_a_missing_binary_raises_and_is_not_kept():
    with pytest.raises(OSError):
        stockfish_move("/nonexistent/stockfish", chess.STARTING_FEN, FIRST_LEVEL, nodes=100)
    assert "/nonexistent/stockfish" not in stockfish._engines


FAKE_UCI = """import sys
for line in sys.stdin:
    if line.startswith("uci"):
        print("id name Fake\\noption name Skill Level type spin default 20 min 0 max 20\\nuciok", flush=True)
    elif line.startswith("isready"):
        print("readyok", flush=True)
    elif line.startswith("go"):
        {go}
"""


@pytest.mark.parametrize("go, error", [
    ("sys.exit(1)", chess.engine.EngineTerminatedError),          # the engine dies while thinking
    ('print("bestmove a1a8", flush=True)', chess.engine.EngineError),   # it answers an illegal move
])
def test_an_engine_that_fails_raises_and_is_forgotten(tmp_path, go, error):
    fake = str(executable(tmp_path, "fake-engine", FAKE_UCI.format(go=go)))
    with pytest.raises(error):
        stockfish_move(fake, chess.STARTING_FEN, FIRST_LEVEL, nodes=100)
    assert fake not in stockfish._engines


def test_find_stockfish_honours_kibitz_stockfish(tmp_path):
    on_path = executable(tmp_path, "stockfish")
    chosen = executable(tmp_path, "my-stockfish")
    path = str(tmp_path)
    assert find_stockfish({"PATH": path, "KIBITZ_STOCKFISH": str(chosen)}) == str(chosen)
    assert find_stockfish({"PATH": path, "KIBITZ_STOCKFISH": "my-stockfish"}) == str(chosen)
    assert find_stockfish({"PATH": path, "KIBITZ_STOCKFISH": " "}) == str(on_path)
    assert find_stockfish({"PATH": path}) == str(on_path)
    assert find_stockfish({"PATH": path, "KIBITZ_STOCKFISH": "off"}) is None
    assert find_stockfish({"PATH": path, "KIBITZ_STOCKFISH": "/nonexistent/stockfish"}) == "/nonexistent/stockfish"


def test_the_stockfish_setting_is_read_once_and_a_path_that_cannot_run_stops_start_up(tmp_path):
    chosen = executable(tmp_path, "my-stockfish")
    assert load({"KIBITZ_STOCKFISH": str(chosen)}, dotenv=NO_DOTENV).stockfish == str(chosen)
    assert load({"KIBITZ_STOCKFISH": "OFF"}, dotenv=NO_DOTENV).stockfish is None
    for wrong in ("/nonexistent/stockfish", str(tmp_path)):
        with pytest.raises(ConfigError, match="KIBITZ_STOCKFISH names no program that can run"):
            load({"KIBITZ_STOCKFISH": wrong}, dotenv=NO_DOTENV)


@needs_stockfish
def test_a_process_that_used_stockfish_ends_by_itself_and_its_stockfish_with_it(tmp_path):
    script = ("import chess\nfrom bot import stockfish\n"
              f"print(stockfish.stockfish_move({INSTALLED!r}, chess.STARTING_FEN, {FIRST_LEVEL}, nodes=100))\n"
              f"print(stockfish._engines[{INSTALLED!r}].transport.get_pid())\n")
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                           cwd=Path(__file__).resolve().parents[2])
    assert ended.returncode == 0, ended.stderr
    move, pid = ended.stdout.split()
    assert chess.Move.from_uci(move) in chess.Board().legal_moves
    for _ in range(200):   # the orphan, if any, is reaped by init: wait for that, boundedly
        if not running(pid):
            break
        time.sleep(0.05)
    else:
        pytest.fail("Stockfish outlived the process that started it")


def running(pid: str) -> bool:
    try:
        return "stockfish" in Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return False


@needs_stockfish
def test_a_computer_worker_asks_stockfish_for_standard_chess_and_its_move_is_played():
    """The worker's search for a standard game goes to Stockfish (its answer carries no engine
    figures) and is a legal turn of the game as the store keeps it."""
    job = Job("standard", None, None, ("e2e4", "e7e5"), level=FIRST_LEVEL, seconds=None, nodes=2000, stockfish=INSTALLED)
    answer = think(job)
    game = rules.new_game("standard")
    for move in job.moves:
        game.play(move)
    assert answer.move in game.legal_moves() and (answer.depth, answer.nodes) == (0, 0)


@needs_stockfish
@pytest.mark.parametrize("fen, score", [
    ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", lambda s: s > 500),           # Black, to move, a queen up
    ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", lambda s: s < -500),          # White, to move, a queen down
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", lambda s: s == MATE - 1),  # mates in one: a1a8
    ("k7/8/1K6/8/8/8/8/7R b - - 0 1", lambda s: s == 2 - MATE),    # Black's only move Kb8, then Rh8 mates
], ids=["ahead", "behind", "mates", "mated"])
def test_a_computer_worker_gives_stockfishs_score_on_the_engines_scale(fen, score):
    """The draw and resignation policies read the score: Stockfish's, for the side to move, mates
    as the built-in engine scores them (a win in n plies MATE - n)."""
    answer = think(Job("standard", None, fen, (), level=engine.MAX_LEVEL, seconds=None, nodes=20_000,
                       stockfish=INSTALLED))
    assert answer.score is not None and score(answer.score), answer


def test_a_computer_worker_falls_back_to_the_built_in_engine_when_stockfish_fails(tmp_path):
    broken = executable(tmp_path, "broken-stockfish", "exit 3")
    job = Job("standard", None, None, ("e2e4",), level=FIRST_LEVEL, seconds=None, nodes=200, stockfish=str(broken))
    answer = think(job)
    game = rules.new_game("standard")
    game.play("e2e4")
    assert answer.move in game.legal_moves() and answer.nodes > 0   # the built-in engine's search


def test_a_computer_worker_leaves_other_games_to_the_built_in_engine(tmp_path):
    never = executable(tmp_path, "never-run", "exit 3")
    answer = think(Job("zoo", None, None, (), level=1, seconds=None, nodes=200, stockfish=str(never)))
    assert answer.move in rules.new_game("zoo").legal_moves() and answer.nodes > 0
