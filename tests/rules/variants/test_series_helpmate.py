"""Series Helpmate Chess through the public API: FIDE moves; the checkmated player wins; a
player also wins, at the start of his turn, when the opponent could mate him with one move or
two in a row (the first not a check)."""
import random

import chess
import pytest

import rules
from rules.lookahead import checking_candidates

from .support import refusal

SLUG = "series-helpmate"

BACK_RANK = "7k/6pp/8/8/8/8/8/R5K1 b - - 0 1"          # White could play Ra8#
BACK_RANK_IN_CHECK = "7k/5Npp/8/8/8/8/8/R5K1 b - - 0 1"  # the same, Black in check from Nf7
# White to move: Black's only series starts with a check, so it does not count.
FIRST_MOVE_CHECKS = "8/7n/4q3/4R3/1kq5/8/8/4K3 w - - 0 1"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def played(*moves, fen=None):
    game = rules.new_game(SLUG, fen=fen)
    for move in moves:
        game.play(move)
    return game


def random_boards(count, seed):
    rng = random.Random(seed)
    while count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 100)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        count -= 1
        yield board


# -- moves, set-up, check and legal moves are FIDE ------------------------------------------------

def test_set_up_and_first_moves_are_fide():
    game = rules.new_game(SLUG)
    assert game.fen() == chess.STARTING_FEN
    assert len(game.legal_moves()) == 20
    assert game.outcome is None


def test_legal_moves_match_python_chess_while_the_game_runs():
    rng = random.Random(8)
    for _ in range(6):
        game, board = rules.new_game(SLUG), chess.Board()
        while game.outcome is None:
            assert sorted(game.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
            move = rng.choice(game.legal_moves())
            game.play(move)
            board.push_uci(move)


def test_a_move_leaving_the_king_in_check_is_refused():
    game = game_at("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1")
    assert refusal(game, "e2c3") == "That leaves your king in check."


def test_the_check_candidates_contain_every_checking_move():
    for board in random_boards(150, seed=2):
        checks = {m for m in board.legal_moves if board.gives_check(m)}
        candidates = set(checking_candidates(board))
        assert checks <= candidates <= set(board.legal_moves), board.fen()


@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1",        # Knight uncovers the Rook
    "7k/8/8/8/8/2K5/8/B7 w - - 0 1",             # King uncovers the Bishop
    "k7/8/8/KPp4r/8/8/8/8 w - c6 0 1",           # en passant uncovers nothing for White here
    "7k/8/8/1K1Pp3/8/8/8/Q7 w - e6 0 1",         # en passant with a Queen behind the pawn
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",            # castling puts the Rook on the King's file
    "4k3/4p3/8/8/8/8/4N3/4R1K1 w - - 0 1",       # two men between: no discovered check
])
def test_the_check_candidates_contain_discovered_checks(fen):
    board = chess.Board(fen)
    checks = {m for m in board.legal_moves if board.gives_check(m)}
    assert checks <= set(checking_candidates(board)) <= set(board.legal_moves)


# -- delivering checkmate loses --------------------------------------------------------------

def test_the_checkmated_player_wins():
    game = played("f3", "e5", "g4", "Qh4")
    assert game.outcome == rules.Outcome("1-0", "checkmate: the mated player wins")
    assert game.outcome.kind == rules.Ending.CHECKMATE and game.last_move_label() == "Qh4#"


# -- demonstration wins ---------------------------------------------------------------------------

def test_a_mate_in_one_against_the_player_to_move_wins_for_him():
    game = played("f3", "e5", "g4", "a6")
    assert game.outcome == rules.Outcome(
        "1-0", "series-helpmate demonstration: Black could mate White with Qh4#")


def test_two_moves_in_a_row_with_a_quiet_first_move_win():
    game = played("f3", "a6", "g4", "a5")
    assert game.outcome == rules.Outcome(
        "1-0", "series-helpmate demonstration: Black could mate White with e6 then Qh4#")


def series_mates(board, *, first_may_check):
    """Brute force over python-chess: the opponent's mating series against the side to move."""
    found = []
    series = board.copy()
    series.push(chess.Move.null())
    for first in list(series.legal_moves):
        if series.gives_check(first) and not first_may_check:
            continue
        series.push(first)
        series.push(chess.Move.null())
        for second in list(series.legal_moves):
            series.push(second)
            if series.is_checkmate():
                found.append((first, second))
            series.pop()
        series.pop()
        series.pop()
    return found


def test_a_series_whose_first_move_gives_check_does_not_count():
    board = chess.Board(FIRST_MOVE_CHECKS)
    with_checks = series_mates(board, first_may_check=True)
    assert with_checks and series_mates(board, first_may_check=False) == []
    game = game_at(FIRST_MOVE_CHECKS)
    assert game.outcome is None
    assert game.legal_moves()


def test_demonstrations_match_brute_force_in_random_positions():
    verdicts = []
    for board in random_boards(40, seed=6):
        if board.is_game_over() or board.is_check():
            continue
        series = board.copy()
        series.push(chess.Move.null())
        mate_in_one = any(_mates(series, m) for m in series.legal_moves)
        expected = mate_in_one or bool(series_mates(board, first_may_check=False))
        outcome = game_at(board.fen()).outcome
        won = outcome is not None and outcome.reason.startswith("series-helpmate")
        assert won == expected, board.fen()
        verdicts.append(won)
    assert verdicts.count(True) >= 3 and verdicts.count(False) >= 3   # both kinds were tried


def _mates(board, move):
    copy = board.copy()
    copy.push(move)
    return copy.is_checkmate()


# -- ruling 1: only at the start of the demonstrator's turn ----------------------------------------

def test_weakening_ones_own_king_decides_nothing_yet():
    game = played("f3", "e5", "g4")
    assert game.outcome is None
    assert "d8h4" in game.legal_moves()        # the mate is legal, and would lose


def test_after_2_g4_every_black_move_but_g5_loses():
    # Black must take his own mate off the board: only ...g5 shuts the Queen's diagonal for good.
    game = played("f3", "e5", "g4")
    survivors = []
    for move in game.legal_moves():
        game.play(move)
        if game.outcome is None:
            survivors.append(move)
        else:
            assert game.outcome.result == "1-0", move
        game.undo()
    assert survivors == ["g7g5"]


# -- ruling 2: the pass ------------------------------------------------------------------------

def test_the_pass_cancels_en_passant_for_the_series():
    # Black to move may take e.p. on e3; the same position without that right decides the same.
    with_ep = game_at("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    without = game_at("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")
    assert "d4e3" in with_ep.legal_moves()
    assert with_ep.outcome == without.outcome is None


def test_castling_rights_stay_for_the_series():
    # White could castle long (quiet), then Rh1-e1 mates: the King has left the e-file.
    assert game_at("4k3/8/7n/8/8/8/5R2/R3K2R b KQ - 0 1").outcome == rules.Outcome(
        "0-1", "series-helpmate demonstration: White could mate Black with O-O-O then Rhe1#")
    assert game_at("4k3/8/7n/8/8/8/5R2/R3K2R b - - 0 1").outcome is None


# -- ruling 3: no demonstration while in check -----------------------------------------------------

def test_a_player_not_in_check_wins_by_demonstration():
    assert game_at(BACK_RANK).outcome == rules.Outcome(
        "0-1", "series-helpmate demonstration: White could mate Black with Ra8#")


def test_a_player_in_check_must_answer_it_instead():
    game = game_at(BACK_RANK_IN_CHECK)
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["h8g8"]


# -- ruling 5 and 6: precedence; stalemate is a draw ------------------------------------------------

def test_stalemate_is_a_draw():
    assert game_at("7k/8/6Q1/8/8/8/8/1K6 b - - 0 1").outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_demonstration_beats_stalemate():
    # Black is stalemated, but White could mate with Qg7 (covered by Kf7).
    assert game_at("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1").outcome == rules.Outcome(
        "0-1", "series-helpmate demonstration: White could mate Black with Qg7#")


# -- ruling 7 and fen() ---------------------------------------------------------------------------

def test_a_position_given_as_fen_is_judged_at_once():
    board = chess.Board()
    for san in ["f3", "e5", "g4", "a6"]:
        board.push_san(san)
    game = game_at(board.fen())
    assert game.outcome.result == "1-0"
    assert game.legal_moves() == []
    assert len(game.fen().split()) == 6


def test_undo_reopens_a_demonstrated_game():
    game = played("f3", "e5", "g4", "a6")
    game.undo()
    assert game.outcome is None
    assert refusal(played("f3", "e5", "g4", "a6"), "e2e3") == "The game is over."


def test_fivefold_repetition_draws():
    game = rules.new_game(SLUG)
    for _ in range(4):
        for move in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            game.play(move)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")
