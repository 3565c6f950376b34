"""Submission Chess through the public API: mating is forbidden; a check whose one permitted
answer is a non-capturing King move wins at once."""
import random

import chess
import pytest

import rules
from rules.variants.submission import VARIANT

from .support import refusal

SLUG = "submission"

EXAMPLE_2 = "7k/6p1/5p2/7K/2B3PR/8/8/8 b - - 0 1"
# White to move: every FIDE move (Kb1, Kc1, Kc2) uncovers Ba1 against h8 and mates.
ONLY_MATES = "6bk/7p/8/8/1p6/8/1K6/B7 w - - 0 1"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def played(*moves, fen=None):
    game = rules.new_game(SLUG, fen=fen)
    for move in moves:
        game.play(move)
    return game


def perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in VARIANT.legal(board, None):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def fide_perft_without_mates(board, depth):
    """python-chess perft that leaves out moves giving FIDE checkmate."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        if not board.is_checkmate():
            total += fide_perft_without_mates(board, depth - 1)
        board.pop()
    return total


# -- FIDE otherwise ---------------------------------------------------------------------------

def test_set_up_and_first_moves_are_fide():
    game = rules.new_game(SLUG)
    assert game.fen() == chess.STARTING_FEN
    assert len(game.legal_moves()) == 20


def test_perft_from_the_start_matches_chess_where_no_mate_is_possible():
    assert perft(chess.Board(), 3) == 8902


@pytest.mark.parametrize("moves, depth, expected", [
    (["f4", "e6", "g4"], 1, 29),       # 30 in chess, less Qh4#
    (["f4", "e6", "g4"], 2, 606),
    (["f3", "e5"], 2, 569),            # g4 Qh4# is left out
])
def test_perft_is_chess_less_the_mating_moves(moves, depth, expected):
    board = chess.Board()
    for san in moves:
        board.push_san(san)
    assert perft(board, depth) == fide_perft_without_mates(board, depth) == expected


def test_a_move_leaving_the_king_in_check_is_refused():
    game = game_at("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1")
    assert refusal(game, "e2c3") == "That leaves your king in check."


def test_checks_that_are_not_mate_stay_legal_in_random_games():
    rng = random.Random(12)
    for _ in range(4):
        game, board = rules.new_game(SLUG), chess.Board()
        while game.outcome is None:
            legal = set(game.legal_moves())
            for move in board.legal_moves:
                board.push(move)
                mate = board.is_checkmate()
                board.pop()
                if mate:
                    assert move.uci() not in legal
                elif not board.gives_check(move):
                    assert move.uci() in legal
            move = rng.choice(sorted(legal))
            game.play(move)
            board.push_uci(move)


# -- mating is forbidden ----------------------------------------------------------------------------

def test_the_usual_mate_qh4_is_not_permitted():
    game = played("f4", "e6", "g4")
    assert "d8h4" not in game.legal_moves()
    assert "checkmate" in refusal(game, "Qh4")


# -- how to win -----------------------------------------------------------------------------------

def test_check_answered_only_by_a_knight_capture_does_not_win():
    # Example 1: after 2...Nc6 3 Nf3 the check Qh4 just loses the Queen to Nxh4.
    game = played("f4", "e6", "g4", "Nc6", "Nf3", "Qh4")
    assert game.outcome is None
    assert game.legal_moves() == ["f3h4"]


def test_check_answered_only_by_a_quiet_king_move_wins():
    # Example 1: after 2...Nc6 3 e4, 3...Qh4+ leaves White only Ke2.
    game = played("f4", "e6", "g4", "Nc6", "e4", "Qh4")
    assert game.outcome == rules.Outcome("0-1", "submission: White's only answer to the check is Ke2")
    assert game.legal_moves() == []


def test_example_2_g6_wins_because_kxg6_would_mate():
    game = game_at(EXAMPLE_2)
    assert game.play("g6") == "g7g6"
    assert game.outcome == rules.Outcome("0-1", "submission: White's only answer to the check is Kh6")


# -- ruling 1: "checkmate" counts only permitted replies ------------------------------------------------

def test_a_reply_that_would_mate_is_not_a_reply():
    board = chess.Board(EXAMPLE_2)
    board.push_san("g6")
    assert sorted(m.uci() for m in board.legal_moves) == ["h5g6", "h5h6"]   # FIDE: two
    after_kxg6 = board.copy()
    after_kxg6.push_san("Kxg6")
    assert after_kxg6.is_checkmate()


def test_a_check_whose_every_fide_answer_would_mate_counts_as_mate_and_is_refused():
    # Qh4-d8+ is no mate in chess, but each of Black's answers mates White, so none is permitted.
    fen = "k6K/7R/7q/q7/7Q/8/7Q/8 w - - 0 1"
    board = chess.Board(fen)
    board.push_san("Qd8+")
    assert not board.is_checkmate()
    for reply in list(board.legal_moves):
        board.push(reply)
        assert board.is_checkmate(), reply
        board.pop()
    game = game_at(fen)
    assert "h4d8" not in game.legal_moves()
    assert "checkmate" in refusal(game, "Qd8")


# -- ruling 2: the win test counts every permitted reply ------------------------------------------

def test_only_reply_a_king_capture_does_not_win():
    game = played("Rg8", fen="7k/7p/8/8/8/8/8/K5R1 w - - 0 1")
    assert game.outcome is None
    assert game.legal_moves() == ["h8g8"]


def test_only_reply_an_interposition_does_not_win():
    game = played("Re8", fen="7k/6pp/3b4/8/8/8/8/4R2K w - - 0 1")
    assert game.outcome is None
    assert game.legal_moves() == ["d6f8"]


def test_check_with_several_replies_is_an_ordinary_check():
    game = played("Rh1", fen="7k/8/8/8/8/8/8/K5R1 w - - 0 1")   # Kg8 or Kg7 may answer
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["h8g7", "h8g8"]


# -- ruling 3: castling and en passant are ordinary moves -----------------------------------------

def test_castling_and_en_passant_are_ordinary_moves():
    game = played("e4", "Nf6", "e5", "d5", "Nf3", "Nc6", "Bc4", "Bf5")
    assert "e5d6" in played("e4", "Nf6", "e5", "d5").legal_moves()
    assert "e1g1" in game.legal_moves()


# -- ruling 4: no permitted move while not in check is stalemate ---------------------------------

def test_every_fide_move_mating_is_stalemate():
    game = game_at(ONLY_MATES)
    assert chess.Board(ONLY_MATES).legal_moves.count() == 3
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_a_mated_position_cannot_be_set_up():
    with pytest.raises(ValueError, match="checkmated"):
        game_at("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")


# -- draws: what is dead here ---------------------------------------------------------------------

def test_king_and_bishop_against_king_is_drawn_as_in_standard_chess():
    # The ruling: dead position as the project's standard slug (python-chess's material test),
    # although a lone Bishop could still force the winning check here (Be5+ Kh7).
    game = game_at("7k/2B2K2/8/8/8/8/8/8 w - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_capture_leaving_king_and_knight_against_king_is_drawn():
    game = played("Kxb2", fen="8/8/8/8/8/2N5/1r6/K6k w - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_bare_kings_are_drawn():
    game = played("Kxb2", fen="8/8/8/8/8/8/1r6/K6k w - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_fivefold_repetition_draws():
    game = rules.new_game(SLUG)
    for _ in range(4):
        for move in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            game.play(move)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_a_win_reloads_as_a_win_from_its_fen():
    game = played("f4", "e6", "g4", "Nc6", "e4", "Qh4")
    again = game_at(game.fen())
    assert len(game.fen().split()) == 6
    assert again.outcome == game.outcome
