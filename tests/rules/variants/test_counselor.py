"""Counselor Chess through the public API: a two-square Queen, two royal monarchs, and the duty
to checkmate the enemy Queen (which hands the opponent the win)."""
import random

import chess
import pytest

import rules
from bot.service import suggest

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "counselor"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- an independent slow reading of the ruling -----------------------------------------------------

LINES = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def queen_reach(board, square):
    """Squares a Counselor Queen on `square` moves to or attacks: two steps at most, no jumping."""
    out = []
    f, r = chess.square_file(square), chess.square_rank(square)
    for df, dr in LINES:
        for n in (1, 2):
            nf, nr = f + df * n, r + dr * n
            if not (0 <= nf < 8 and 0 <= nr < 8):
                break
            to = chess.square(nf, nr)
            out.append(to)
            if board.piece_at(to) is not None:
                break
    return out


def slow_attacked(board, square, by):
    for sq, piece in board.piece_map().items():
        if piece.color != by:
            continue
        if piece.piece_type == chess.QUEEN:
            if square in queen_reach(board, sq):
                return True
        elif square in board.attacks(sq):
            return True
    return False


def slow_pseudo(board):
    board = board.copy()
    board.castling_rights = 0
    moves = [m for m in board.generate_pseudo_legal_moves()
             if board.piece_type_at(m.from_square) != chess.QUEEN and m.promotion != chess.QUEEN]
    for sq in board.pieces(chess.QUEEN, board.turn):
        for to in queen_reach(board, sq):
            target = board.piece_at(to)
            if target is None or target.color != board.turn:
                moves.append(chess.Move(sq, to))
    return moves


def slow_safe(board):
    out = []
    for move in slow_pseudo(board):
        after = board.copy()
        after.push(move)
        mine = [sq for sq, p in after.piece_map().items()
                if p.color == board.turn and p.piece_type in (chess.KING, chess.QUEEN)]
        if not any(slow_attacked(after, sq, not board.turn) for sq in mine):
            out.append(move)
    return out


def slow_legal(fen):
    board = chess.Board(fen)
    safe = slow_safe(board)
    mating = []
    for move in safe:
        after = board.copy()
        after.push(move)
        queens = after.pieces(chess.QUEEN, after.turn)
        if any(slow_attacked(after, q, board.turn) for q in queens) and not slow_safe(after):
            mating.append(move)
    return {m.uci() for m in (mating or safe)}


def slow_perft(fen, depth):
    if depth == 0:
        return 1
    moves = slow_legal(fen)
    if not moves:
        return 1
    total = 0
    for uci in moves:
        board = chess.Board(fen)
        board.push(chess.Move.from_uci(uci))
        total += slow_perft(board.fen(), depth - 1)
    return total


# -- the Queen ---------------------------------------------------------------------------------------

def test_the_queen_moves_one_or_two_squares_along_any_line():
    game = game_at("7k/8/8/8/3Q4/8/8/K7 w - - 0 1")
    queen = {m[2:] for m in game.legal_moves() if m.startswith("d4")}
    assert queen == {"d5", "d6", "d3", "d2", "c4", "b4", "e4", "f4",
                     "e5", "f6", "c3", "b2", "e3", "f2", "c5", "b6"}
    assert "d4d7" not in game.legal_moves()
    assert refusal(game, "d4d7") == "The Queen moves only one or two squares along a line."


def test_the_queen_cannot_jump_the_first_square():
    game = game_at("7k/8/8/3P4/3Q4/8/8/K7 w - - 0 1")
    assert "d4d5" not in game.legal_moves() and "d4d6" not in game.legal_moves()   # own pawn on d5
    assert refusal(game, "d4d6") == "The Queen cannot jump over d5."
    game = game_at("7k/8/8/3n4/3Q4/8/8/K7 w - - 0 1")
    assert "d4d5" in game.legal_moves() and "d4d6" not in game.legal_moves()


def test_the_queen_attacks_only_the_squares_she_could_move_to():
    # a full Queen on d4 would attack g7; the Counselor Queen reaches only f6
    game = game_at("7k/8/8/8/3Q4/8/8/K7 b - - 0 1")
    assert set(game.legal_moves()) == {"h8g8", "h8g7", "h8h7"}
    assert game.view().checks == ()


def test_the_other_men_move_as_in_chess():
    game = rules.new_game(SLUG)
    assert set(game.legal_moves()) == {m.uci() for m in chess.Board().legal_moves}
    game = game_at("4k3/8/8/8/8/2N5/1B6/R3K3 w - - 0 1")
    board = chess.Board("4k3/8/8/8/8/2N5/1B6/R3K3 w - - 0 1")
    board.castling_rights = 0
    assert set(game.legal_moves()) == {m.uci() for m in board.legal_moves}


# -- royalty ------------------------------------------------------------------------------------------

def test_no_move_may_leave_the_king_attacked():
    game = game_at("4k3/8/8/8/8/8/4r3/Q3K3 w - - 0 1")
    assert game.view().checks == ("e1",)
    assert set(game.legal_moves()) == {"e1e2", "e1d1", "e1f1"}
    assert refusal(game, "e1d2") == ("That leaves your King on d2 attacked by the Rook on e2; "
                                    "both King and Queen are royal.")
    assert refusal(game, "a1a2").startswith("That leaves your King on e1 attacked by the Rook on e2")


def test_no_move_may_leave_the_queen_attacked():
    game = game_at("4k3/8/8/8/8/3b4/8/Q3K3 w - - 0 1")
    assert "a1b2" in game.legal_moves()        # the Bishop on d3 sees c2 and b1, not b2
    assert "a1b1" not in game.legal_moves()
    assert refusal(game, "a1b1") == ("That leaves your Queen on b1 attacked by the Bishop on d3; "
                                    "both King and Queen are royal.")


def test_a_man_shielding_the_queen_may_not_move_away():
    game = game_at("r3k3/8/8/8/8/8/N7/Q3K3 w - - 0 1")
    assert "a2c3" not in game.legal_moves()
    assert "Queen on a1 attacked by the Rook on a8" in refusal(game, "a2c3")


def test_a_monarch_may_never_step_next_to_the_enemy_king():
    game = game_at("8/8/8/3k4/8/3Q4/8/K7 w - - 0 1")
    assert "d3d4" not in game.legal_moves() and "d3c4" not in game.legal_moves()
    assert "d3d2" in game.legal_moves()


def test_a_queen_three_squares_from_the_enemy_queen_is_safe():
    game = game_at("k7/8/8/8/3q4/8/8/3Q3K w - - 0 1")
    assert "d1d2" not in game.legal_moves()  # d2 is two squares from d4, d3 empty: attacked
    game = game_at("k7/8/8/3q4/8/8/8/3Q3K w - - 0 1")
    assert "d1d2" in game.legal_moves()      # d2 is three squares from d5


def test_the_view_marks_every_attacked_monarch():
    game = game_at("7k/8/8/5QK1/8/4q2b/3n4/8 w - - 0 1")
    assert set(game.view().checks) == {"f5", "g5"}


# -- the duty to mate the enemy Queen ---------------------------------------------------------------

QUEEN_MATE_AVAILABLE = "1rr4k/4r3/8/8/8/8/8/Q6K b - - 0 1"


def test_a_player_able_to_checkmate_the_enemy_queen_must_do_so():
    game = game_at(QUEEN_MATE_AVAILABLE)
    assert set(game.legal_moves()) == {"e7a7", "e7e1"} == slow_legal(QUEEN_MATE_AVAILABLE)
    assert refusal(game, "h8g8") == "You can checkmate the enemy Queen with e7a7, so you must (your opponent then wins)."


def test_the_forced_queen_mate_is_not_a_result_until_it_is_played():
    game = game_at(QUEEN_MATE_AVAILABLE)
    assert game.outcome is None
    game.play("Ra7")
    assert game.outcome.result == "1-0"
    assert game.outcome.kind == "checkmate"
    assert "queen" in game.outcome.reason


def test_getting_your_own_queen_checkmated_wins():
    game = game_at("rrr4k/8/8/8/8/8/8/Q6K w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "1-0" and game.outcome.reason == "queen checkmated"
    assert game.view().checks == ("a1",)


def test_both_monarchs_in_check_with_no_answer_wins_for_the_checked_side():
    game = game_at("7k/8/8/5QK1/8/4q2b/3n4/8 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "1-0" and game.outcome.reason == "queen checkmated"


def test_a_queen_mate_that_also_checks_the_king_counts():
    # Nc3 forks the White King and Queen and White has no answer: Black must play it
    fen = "7q/4n3/8/8/8/8/n7/1Q1K3k b - - 0 1"
    game = game_at(fen)
    assert game.legal_moves() == ["a2c3"]
    assert slow_legal(fen) == {"a2c3"}
    game.play("Nc3")
    assert set(game.view().checks) == {"b1", "d1"}
    assert game.outcome.result == "1-0" and game.outcome.reason == "queen checkmated"


def test_checkmating_the_enemy_king_wins():
    game = game_at("6k1/5ppp/8/8/7q/8/8/R5K1 w - - 0 1")
    game.play("Ra8")
    assert game.outcome.result == "1-0"
    assert game.outcome.reason == "checkmate"
    assert game.last_move_label() == "Ra8#"


def test_a_king_whose_only_escape_exposes_the_queen_is_checkmated():
    game = game_at("R5k1/3q1ppp/8/8/8/8/8/6K1 b - - 1 1")
    assert game.view().checks == ("g8",)
    assert game.legal_moves() == []
    assert game.outcome.result == "1-0" and game.outcome.reason == "checkmate"


def test_no_move_and_nothing_attacked_is_stalemate():
    game = game_at("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "1/2-1/2" and game.outcome.kind == "stalemate"


# -- castling, promotion, en passant, set-up ----------------------------------------------------------

def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" not in game.legal_moves() and "e1c1" not in game.legal_moves()
    assert game.fen().split()[2] == "-"
    assert refusal(game, "e1g1") == "There is no castling in Counselor Chess."


def test_pawns_promote_only_to_rook_bishop_or_knight():
    game = game_at("7k/P7/8/8/8/8/8/K7 w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("a7")} == {"a7a8r", "a7a8b", "a7a8n"}
    for typed in ("a7a8q", "a8=Q"):
        assert refusal(game, typed) == "A pawn promotes only to a Rook, Bishop or Knight.", typed


def test_en_passant_as_in_chess():
    game = game_at("7k/8/8/8/1p6/8/P7/K7 w - - 0 1")
    game.play("a2a4")
    assert game.fen().split()[3] == "a3"
    assert "b4a3" in game.legal_moves()
    game.play("b4a3")
    assert game.fen().startswith("7k/8/8/8/8/p7/8/K7")


def test_a_side_without_a_queen_only_guards_its_king():
    game = game_at("7k/8/8/8/8/8/4r3/4K3 w - - 0 1")
    assert set(game.legal_moves()) == {"e1d1", "e1f1", "e1e2"}


def test_every_queen_of_a_side_is_royal():
    game = game_at("7k/8/8/8/8/8/r7/QQ2K3 w - - 0 1")
    moves = set(game.legal_moves())
    assert moves == slow_legal("7k/8/8/8/8/8/r7/QQ2K3 w - - 0 1")
    assert "a1a2" in moves and "b1c2" not in moves    # the a2 rook attacks both Queens


def test_a_pawn_may_not_stand_on_the_last_rank():
    with pytest.raises(ValueError):
        game_at("P6k/8/8/8/8/8/8/K7 w - - 0 1")


# -- draws ---------------------------------------------------------------------------------------------

def test_little_material_is_not_a_draw():
    game = game_at("7k/8/8/8/8/8/8/KB3q2 w - - 0 1")
    assert game.outcome is None


def test_fivefold_repetition_draws():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 4)
    assert game.outcome.kind == "repetition"


def test_seventy_five_moves_without_capture_or_pawn_move_draw():
    game = game_at("7k/8/8/8/8/8/8/K5R1 w - - 149 100")
    game.play("g1g2")
    assert game.outcome.kind == "fifty-moves"


# -- perft and typed turns ------------------------------------------------------------------------------

PERFT_POSITIONS = [
    ("7k/8/8/8/3Q4/8/8/K7 w - - 0 1", [19]),
    ("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", [12]),
    ("4k3/2q5/8/3p4/4P3/8/2Q5/4K3 w - - 0 1", [18]),   # Qc4 would stand attacked by the d5 pawn
]


@pytest.mark.parametrize("fen,first", PERFT_POSITIONS)
def test_move_counts_to_depth_three_match_the_slow_reading(fen, first):
    game = game_at(fen)
    counts = [perft(game, d, ends_count=True) for d in (1, 2, 3)]
    assert counts == [slow_perft(fen, d) for d in (1, 2, 3)]
    assert counts[0] == first[0]


def test_turns_match_the_slow_reading_over_random_games():
    rng = random.Random(4)
    checked = 0
    for _ in range(3):
        game = rules.new_game(SLUG)
        for _ in range(50):
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
    assert [value for value, _ in suggest(game, "d1", 25)] == ["d1e2", "d1f3"]
    assert game.play("Qf3") == "d1f3"


def test_the_caption_names_the_queen_mates_a_player_must_choose_from():
    assert game_at(QUEEN_MATE_AVAILABLE).view().caption == (
        "Black can checkmate the enemy Queen and must (e7a7, e7e1); that hands the opponent the win.")
    assert rules.new_game(SLUG).view().caption == ""
