"""Regent Chess through the public API: a royal Queen held by the line of her checks, an ordinary
King, Queens that never face each other, promotion to a King."""
import random

import chess
import pytest

import rules
from bot.service import suggest

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "regent"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- an independent slow reading of the ruling -----------------------------------------------------

def slow_checks(board, queen):
    """The set of lines ("diagonal", "straight", "knight") along which `queen` is attacked."""
    lines = set()
    for sq, piece in board.piece_map().items():
        if piece.color == board.color_at(queen) or queen not in board.attacks(sq):
            continue
        if piece.piece_type == chess.PAWN and queen in chess.SquareSet(chess.BB_PAWN_ATTACKS[piece.color][sq]):
            lines.add("diagonal")
        elif piece.piece_type == chess.KNIGHT:
            lines.add("knight")
        elif chess.square_file(sq) == chess.square_file(queen) or chess.square_rank(sq) == chess.square_rank(queen):
            lines.add("straight")
        else:
            lines.add("diagonal")
    return lines


def slow_legal(fen):
    board = chess.Board(fen)
    board.castling_rights = 0
    us = board.turn
    out = set()
    for move in board.generate_pseudo_legal_moves():
        if move.promotion == chess.QUEEN:
            move = chess.Move(move.from_square, move.to_square, chess.KING)
        target = board.piece_at(move.to_square)
        if target is not None and target.piece_type == chess.QUEEN:
            continue
        if board.piece_type_at(move.from_square) == chess.QUEEN:
            lines = slow_checks(board, move.from_square)
            straight = (chess.square_file(move.from_square) == chess.square_file(move.to_square)
                        or chess.square_rank(move.from_square) == chess.square_rank(move.to_square))
            if "knight" in lines or ("straight" if straight else "diagonal") in lines:
                continue
        after = board.copy()
        after.push(move)
        if any(slow_checks(after, q) for q in after.pieces(chess.QUEEN, us)):
            continue
        out.add(move.uci())
    return out


def slow_perft(fen, depth):
    if depth == 0:
        return 1
    moves = slow_legal(fen)
    if not moves:
        return 1
    total = 0
    for uci in moves:
        board = chess.Board(fen)
        board.castling_rights = 0
        board.push(chess.Move.from_uci(uci))
        total += slow_perft(board.fen(), depth - 1)
    return total


# -- the royal Queen -----------------------------------------------------------------------------------

def test_a_queen_not_attacked_moves_as_in_chess():
    game = game_at("7k/8/8/8/3Q4/8/8/K7 w - - 0 1")
    board = chess.Board("7k/8/8/8/3Q4/8/8/K7 w - - 0 1")
    expected = {m.uci() for m in board.legal_moves
                if m.from_square == chess.D4 and not board.is_attacked_by(chess.BLACK, m.to_square)}
    assert {m for m in game.legal_moves() if m.startswith("d4")} == expected
    assert len(expected) == 25     # 26 Queen moves (Qxh8 takes the ordinary King) less g7, next to it


def test_no_move_may_leave_the_queen_attacked():
    game = game_at("4k3/8/8/8/8/3b4/8/Q6K w - - 0 1")
    assert "a1b1" not in game.legal_moves()
    assert refusal(game, "a1b1") == "That leaves your Queen on b1 attacked by the Bishop on d3."


def test_a_man_shielding_the_queen_may_not_move_away():
    game = game_at("r3k3/8/8/8/8/8/N7/Q6K w - - 0 1")
    assert "a2c3" not in game.legal_moves()
    assert refusal(game, "a2c3") == "That leaves your Queen on a1 attacked by the Rook on a8."


def test_a_queen_attacked_along_a_diagonal_may_not_move_diagonally():
    game = game_at("4k3/8/8/8/b7/8/8/3Q3K w - - 0 1")
    assert game.view().checks == ("d1",)
    queen = {m[2:] for m in game.legal_moves() if m.startswith("d1")}
    assert queen == {"d2", "d3", "d4", "d5", "d6", "a1", "b1", "c1", "e1", "f1", "g1"}
    assert refusal(game, "d1e2") == ("That Queen move is not allowed: the Queen is attacked along the "
                                    "diagonal from a4, so she may not move diagonally.")


def test_a_queen_attacked_along_a_file_may_not_move_along_a_rank_or_file():
    game = game_at("3r3k/8/8/8/8/8/8/3Q3K w - - 0 1")
    queen = {m[2:] for m in game.legal_moves() if m.startswith("d1")}
    assert queen == {"c2", "b3", "a4", "e2", "f3", "g4", "h5"}
    assert refusal(game, "d1c1") == ("That Queen move is not allowed: the Queen is attacked along the "
                                    "file from d8, so she may not move along a rank or file.")


def test_a_queen_attacked_along_a_rank_may_not_move_along_a_rank_or_file():
    game = game_at("7k/8/8/8/8/8/8/r2Q3K w - - 0 1")
    assert "d1d2" not in game.legal_moves() and "d1c2" in game.legal_moves()
    assert refusal(game, "d1d2") == ("That Queen move is not allowed: the Queen is attacked along the "
                                    "rank from a1, so she may not move along a rank or file.")


def test_a_queen_attacked_by_a_knight_may_not_move_at_all():
    game = game_at("4k3/8/8/4R3/8/4n3/8/3Q3K w - - 0 1")
    assert game.legal_moves() == ["e5e3"]
    assert refusal(game, "d1d2") == ("That Queen move is not allowed: the Queen is attacked by the "
                                    "Knight on e3, so she may not move at all.")


def test_a_queen_never_captures_a_man_that_attacks_her():
    game = game_at("4k3/8/8/8/8/8/2b5/3Q3K w - - 0 1")
    assert "d1c2" not in game.legal_moves()
    assert "along the diagonal from c2" in refusal(game, "d1c2")
    game = game_at("4k3/8/8/8/8/8/3r4/3Q3K w - - 0 1")
    assert "d1d2" not in game.legal_moves()


def test_other_men_may_capture_the_attacker_or_block_the_line():
    game = game_at("4k3/8/8/8/b7/8/1N6/3Q3K w - - 0 1")
    moves = set(game.legal_moves())
    assert "b2a4" in moves                                   # capture
    game = game_at("4k3/8/8/8/b7/8/8/1R1Q3K w - - 0 1")
    assert "b1b3" in game.legal_moves()                      # block on b3


def test_checks_add_up_a_rook_and_a_bishop_freeze_the_queen():
    game = game_at("3r3k/8/8/8/b7/8/8/3Q3K w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "0-1" and game.outcome.reason == "checkmate"


def test_a_pawn_checks_along_a_diagonal():
    game = game_at("4k3/8/8/8/8/8/4p3/3Q3K w - - 0 1")
    queen = {m[2:] for m in game.legal_moves() if m.startswith("d1")}
    assert "e2" not in queen and "d2" in queen and "c1" in queen
    assert "along the diagonal from e2" in refusal(game, "d1e2")


def test_an_adjacent_king_checks_along_the_line_it_stands_on():
    game = game_at("8/8/8/8/8/8/3k4/3Q3K w - - 0 1")
    queen = {m[2:] for m in game.legal_moves() if m.startswith("d1")}
    assert queen == {"b3", "a4", "f3", "g4", "h5"}
    assert "along the file from d2" in refusal(game, "d1d2")


def test_a_pinned_man_still_checks_the_queen():
    game = game_at("q6k/8/8/n7/8/1Q6/8/R6K w - - 0 1")
    assert game.view().checks == ("b3",)
    assert game.legal_moves() == ["a1a5"]


def test_the_queens_may_not_face_each_other():
    game = game_at("3q3k/8/8/8/8/8/8/4Q2K w - - 0 1")
    assert "e1d1" not in game.legal_moves() and "e1d2" not in game.legal_moves()
    assert refusal(game, "e1d1") == "The two Queens may not face each other on an open line."


def test_a_queen_is_never_captured():
    game = game_at("7k/8/8/8/8/8/8/q2QK3 w - - 0 1")
    assert "d1a1" not in game.legal_moves()


# -- the ordinary King -----------------------------------------------------------------------------------

def test_the_king_may_stand_attacked_and_is_no_check():
    game = game_at("4k3/8/8/8/8/7Q/8/r3K3 w - - 0 1")
    assert game.view().checks == ()
    assert "h3h5" in game.legal_moves()
    assert {"e1d1", "e1d2", "e1f1"} <= set(game.legal_moves())


def test_the_king_may_step_next_to_the_enemy_king():
    game = game_at("8/q7/8/8/8/3k4/8/3K3Q w - - 0 1")
    assert "d1d2" in game.legal_moves()


def test_a_king_may_be_captured_and_the_game_goes_on():
    game = game_at("4k3/8/8/8/8/8/8/r3K1Q1 b - - 0 1")
    assert "a1e1" in game.legal_moves()
    game.play("Rxe1")
    assert game.outcome is None
    assert "K" not in game.fen().split()[0]
    assert game.view().checks == ("g1",)


# -- promotion, castling, en passant, the end -----------------------------------------------------------------

def test_pawns_promote_to_rook_knight_bishop_or_king():
    game = game_at("7k/P7/8/8/8/8/8/7Q w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("a7")} == {"a7a8r", "a7a8n", "a7a8b", "a7a8k"}
    for typed in ("a7a8q", "a8=Q"):
        assert refusal(game, typed) == "A pawn promotes to a Rook, Knight, Bishop or King, never to a Queen.", typed
    game.play("a7a8k")
    assert game.fen().startswith("K6k/")
    assert game.last_move_label() == "a8=K"


def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" not in game.legal_moves()
    assert game.fen().split()[2] == "-"
    assert refusal(game, "e1g1") == "There is no castling in Regent Chess."


def test_en_passant_as_in_chess():
    game = game_at("1q5k/8/8/8/1p6/8/P7/7Q w - - 0 1")
    game.play("a2a4")
    assert "b4a3" in game.legal_moves()


def test_a_check_the_queen_can_step_out_of_is_not_mate():
    game = game_at("4k3/8/8/8/8/8/1r6/3Q3K b - - 0 1")
    game.play("b2b1")
    assert game.outcome is None
    assert game.view().checks == ("d1",)
    assert {m for m in game.legal_moves() if m.startswith("d1")} == {"d1c2", "d1a4", "d1e2", "d1f3", "d1g4", "d1h5"}   # b3: on the rook's file


def test_a_checkmated_queen_loses():
    game = game_at("4k3/8/8/5n2/8/8/8/3Q3K b - - 0 1")
    game.play("Ne3")
    assert game.outcome.result == "0-1" and game.outcome.reason == "checkmate"
    assert game.last_move_label() == "Ne3#"


def test_no_move_with_the_queen_not_attacked_is_stalemate():
    game = game_at("8/8/8/8/8/p1n1q3/P5b1/Q7 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "1/2-1/2" and game.outcome.kind == "stalemate"


def test_fivefold_repetition_draws():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 4)
    assert game.outcome.kind == "repetition"


def test_seventy_five_moves_without_capture_or_pawn_move_draw():
    game = game_at("q6k/8/8/8/8/8/8/K5Q1 w - - 149 100")
    game.play("g1g3")
    assert game.outcome.kind == "fifty-moves"


def test_a_pawn_may_not_stand_on_the_last_rank():
    with pytest.raises(ValueError):
        game_at("P6k/8/8/8/8/8/8/K6Q w - - 0 1")


# -- perft and typed turns ----------------------------------------------------------------------------------

PERFT_POSITIONS = [
    ("4k3/8/8/8/b7/8/8/3Q3K w - - 0 1", 11),          # diagonal check: 11 Queen moves; King moves leave it
    ("3r3k/8/8/8/8/8/8/3Q3K w - - 0 1", 7),           # file check: 7 diagonal Queen moves
    ("4k3/8/8/4R3/8/4n3/8/3Q3K w - - 0 1", 1),        # Knight check: only Rxe3
    ("q3k3/8/8/8/8/8/4P3/3QK3 w - - 0 1", None),
]


@pytest.mark.parametrize("fen,first", PERFT_POSITIONS)
def test_move_counts_to_depth_three_match_the_slow_reading(fen, first):
    game = game_at(fen)
    counts = [perft(game, d, ends_count=True) for d in (1, 2, 3)]
    assert counts == [slow_perft(fen, d) for d in (1, 2, 3)]
    if first is not None:
        assert counts[0] == first


def test_turns_match_the_slow_reading_over_random_games():
    rng = random.Random(6)
    checked = 0
    for _ in range(3):
        game = rules.new_game(SLUG)
        for _ in range(60):
            if game.outcome:
                break
            assert set(game.legal_moves()) == slow_legal(game.fen()), game.fen()
            checked += 1
            game.play(rng.choice(game.legal_moves()))
    assert checked > 60


def test_typed_moves_are_narrowed_by_the_move_suggestions():
    game = rules.new_game(SLUG)
    game.play("e4")
    game.play("e5")
    assert [value for value, _ in suggest(game, "d1", 25)] == ["d1e2", "d1f3", "d1g4", "d1h5"]
    assert game.play("Qh5") == "d1h5"


def test_a_move_of_another_man_that_leaves_the_check_is_illegal():
    game = game_at("4k3/8/8/8/b7/8/8/3Q3K w - - 0 1")
    assert not any(m.startswith("h1") for m in game.legal_moves())
    assert refusal(game, "h1g1") == "That leaves your Queen on d1 attacked by the Bishop on a4."


def test_an_enemy_queen_held_by_a_check_still_attacks_along_her_lines():
    game = game_at("q6k/8/1N6/8/8/8/8/4Q2K w - - 0 1")
    assert "e1e4" not in game.legal_moves() and "e1e3" in game.legal_moves()
    assert refusal(game, "e1e4") == "The two Queens may not face each other on an open line."


def test_a_promoted_king_is_an_ordinary_man():
    game = game_at("7r/P6k/8/8/8/8/8/7Q w - - 0 1")
    game.play("a8=K")
    assert game.view().checks == ()
    assert "h8a8" in game.legal_moves()
    game.play("Rxa8")
    assert game.outcome is None


def test_the_caption_says_how_a_checked_queen_is_held():
    assert game_at("4k3/8/8/8/b7/8/8/3Q3K w - - 0 1").view().caption == \
        "The Queen on d1 is in check and may not move diagonally."
    assert game_at("3r3k/8/8/8/8/8/8/3Q3K w - - 0 1").view().caption == \
        "The Queen on d1 is in check and may not move along a rank or file."
    assert game_at("4k3/8/8/4R3/8/4n3/8/3Q3K w - - 0 1").view().caption == \
        "The Queen on d1 is in check and may not move."
    assert rules.new_game(SLUG).view().caption == ""
