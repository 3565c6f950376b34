"""Dowager Chess through the public API: a royal Queen that moves like her side's highest man."""
import chess
import pytest

import rules
from bot.service import suggest

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "dowager"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def moves_from(game, square):
    return sorted(m for m in game.legal_moves() if m.startswith(square))


# -- an independent slow reading of the rules on plain python-chess boards ----------------------

ORDER = (chess.KING, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def slow_power(board, colour):
    return next((kind for kind in ORDER if board.pieces(kind, colour)), None)


def slow_in_check(board, colour):
    """Put a man of the enemy Queen's borrowed kind in her place, then ask python-chess."""
    queen = next(iter(board.pieces(chess.QUEEN, colour)))
    probe = board.copy(stack=False)
    for square in board.pieces(chess.QUEEN, not colour):
        kind = slow_power(board, not colour)
        probe.remove_piece_at(square)
        if kind is not None:
            probe.set_piece_at(square, chess.Piece(kind, not colour))
    return bool(probe.attackers_mask(not colour, queen))


def slow_moves(board):
    colour = board.turn
    queen = next(iter(board.pieces(chess.QUEEN, colour)))
    found = set()
    for move in board.pseudo_legal_moves:
        if move.from_square == queen:
            continue
        if move.promotion == chess.QUEEN:
            move = chess.Move(move.from_square, move.to_square, chess.KING)
        after = board.copy(stack=False)
        after.push(move)
        if not slow_in_check(after, colour):
            found.add(move)
    kind = slow_power(board, colour)
    if kind is None:
        return found
    probe = board.copy(stack=False)
    probe.set_piece_at(queen, chess.Piece(kind, colour))
    probe.ep_square = None
    for move in probe.pseudo_legal_moves:
        if move.from_square != queen or chess.square_distance(move.from_square, move.to_square) > 1 and kind == chess.PAWN:
            continue
        plain = chess.Move(queen, move.to_square)
        after = board.copy(stack=False)
        after.push(plain)
        if slow_in_check(after, colour):
            continue
        passed_ok = True
        for square in chess.SquareSet(chess.between(queen, move.to_square)):
            stop = board.copy(stack=False)
            stop.remove_piece_at(queen)
            stop.set_piece_at(square, chess.Piece(chess.QUEEN, colour))
            if slow_in_check(stop, colour):
                passed_ok = False
        if passed_ok:
            found.add(plain)
    return found


def slow_perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in slow_moves(board):
        board.push(move)
        total += slow_perft(board, depth - 1)
        board.pop()
    return total


# -- set-up, castling, promotion -------------------------------------------------------------------

def test_setup_is_the_fide_array_without_castling_rights():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    assert len(game.legal_moves()) == 20


def test_there_is_no_castling_and_fen_castling_rights_are_ignored():
    game = game_at("r2qk2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1")
    assert game.fen() == "r2qk2r/8/8/8/8/8/8/R2QK2R w - - 0 1"
    assert "e1g1" not in game.legal_moves()
    assert "no castling" in refusal(game, "e1g1")
    refusal(game, "O-O")


def test_pawns_promote_to_king_rook_bishop_or_knight_never_queen():
    game = game_at("3q3k/P7/8/8/8/8/8/3Q4 w - - 0 1")
    assert moves_from(game, "a7") == ["a7a8b", "a7a8k", "a7a8n", "a7a8r"]
    assert "never to a Queen" in refusal(game, "a7a8q")
    assert "never to a Queen" in refusal(game, "a8=Q")


def test_ruling_7_promotion_to_a_king_is_written_e7e8k_and_gives_king_steps():
    game = game_at("3q3k/P7/8/8/8/8/8/3Q4 w - - 0 1")
    assert game.label("a7a8k") == "a8=K"
    assert game.play("a8=K") == "a7a8k"
    assert game.view().caption.startswith("White Queen moves as a King")
    game.play("d8c8")
    assert moves_from(game, "d1") == ["d1c1", "d1c2", "d1d2", "d1e1", "d1e2"]


def test_ruling_7_several_kings_keep_king_power():
    game = game_at("3q3k/P7/8/8/8/8/8/K2Q4 w - - 0 1")
    game.play("a7a8k")
    game.play("d8c8")
    assert len(game.position.board.pieces(chess.KING, chess.WHITE)) == 2
    assert "d1d2" in game.legal_moves() and "d1d5" not in game.legal_moves()


# -- the Queen's borrowed power ------------------------------------------------------------------

def test_with_a_king_the_queen_steps_one_square():
    # Queen d1: c1, c2, d2, e2 (e1 is her King); King e1: d2, e2, f1, f2. 8 in all.
    game = game_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert moves_from(game, "d1") == ["d1c1", "d1c2", "d1d2", "d1e2"]
    assert len(game.legal_moves()) == 8


def test_without_a_king_but_a_rook_the_queen_slides_as_a_rook():
    # Queen d4: 7 on the rank + 7 on the file; Rook a1: a2-a8 and b1-g1 plus xh1. 28 in all.
    game = game_at("7q/8/8/8/3Q4/8/8/R6k w - - 0 1")
    assert len(moves_from(game, "d4")) == 14
    assert "d4e5" not in game.legal_moves()
    assert len(game.legal_moves()) == 28


def test_with_a_bishop_as_best_man_the_queen_slides_diagonally():
    # Queen d4: c3 b2 | e5 f6 g7 h8 | c5 b6 (a7 is next to the black Queen) | e3 f2 (g1 is next
    # to the black King). Bishop a1: b2, c3. 12 in all.
    game = game_at("q7/8/8/8/3Q4/8/8/B6k w - - 0 1")
    assert moves_from(game, "d4") == ["d4b2", "d4b6", "d4c3", "d4c5", "d4e3", "d4e5", "d4f2", "d4f6",
                                      "d4g7", "d4h8"]
    assert len(game.legal_moves()) == 12


def test_with_a_knight_as_best_man_the_queen_leaps():
    game = game_at("7q/8/8/8/3Q4/8/8/N6k w - - 0 1")
    assert moves_from(game, "d4") == ["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"]
    assert len(game.legal_moves()) == 10    # + Knight a1: b3, c2


def test_ruling_4_with_only_pawns_the_queen_steps_forward_or_captures_diagonally_forward():
    game = game_at("7q/8/8/2n5/3Q4/8/P7/7k w - - 0 1")
    assert moves_from(game, "d4") == ["d4c5", "d4d5"]
    assert len(game.legal_moves()) == 4     # + a3, a4
    checked = game_at("7q/8/8/2p5/3Q4/8/P7/7k w - - 0 1")    # the pawn c5 checks d4
    assert sorted(checked.legal_moves()) == ["d4c5", "d4d5"]


def test_ruling_4_a_pawn_power_queen_has_no_double_step_and_black_steps_down():
    game = game_at("K7/4q2p/8/8/8/8/3Q4/8 b - - 0 1")
    assert moves_from(game, "e7") == ["e7e6"]
    assert refusal(game, "e7e5") == "Your Queen moves like your highest man, now a pawn, so she cannot move to e5."
    game = game_at("K7/7p/8/8/8/8/Q7/4q3 b - - 0 1")
    assert moves_from(game, "e1") == []      # on her far rank she has no move
    assert game.legal_moves()


def test_ruling_4_the_pawn_power_queen_does_not_promote_but_steps_onto_the_last_rank():
    game = game_at("7q/3Q4/8/8/8/8/P7/7k w - - 0 1")
    assert moves_from(game, "d7") == ["d7d8"]


def test_ruling_10_en_passant_belongs_to_pawns_not_to_the_queen():
    game = game_at("7k/3p4/8/2P1Q3/8/8/8/q7 b - - 0 1")
    game.play("d7d5")
    assert game.fen().split()[3] == "d6"
    assert "c5d6" in game.legal_moves()
    assert moves_from(game, "e5") == ["e5e6"]


def test_the_power_is_worked_out_again_after_a_capture():
    # Taking the last black Rook leaves the black Queen only a Knight's leap.
    game = game_at("7q/8/8/8/8/2n5/r7/R5Q1 w - - 0 1")
    assert game.view().caption == "White Queen moves as a Rook; Black Queen moves as a Rook"
    game.play("a1a2")
    assert game.view().caption == "White Queen moves as a Rook; Black Queen moves as a Knight"


def test_ruling_1_other_queens_and_extra_men_of_the_top_type_change_nothing():
    game = game_at("7q/8/8/8/3Q4/8/8/RR5k w - - 0 1")
    assert len(moves_from(game, "d4")) == 14


# -- the slide restriction ---------------------------------------------------------------------

def test_a_sliding_queen_may_not_pass_a_square_where_she_would_be_in_check():
    # White Queen a4 slides as a Rook. The Bishop e6 covers c4 and a2: she stops short of both.
    game = game_at("6kq/8/4b3/8/Q7/8/8/1R6 w - - 0 1")
    assert moves_from(game, "a4") == ["a4a3", "a4a5", "a4a6", "a4a7", "a4a8", "a4b4"]
    assert refusal(game, "a4d4") == "The Queen may not slide through c4: she would be in check there from the Bishop on e6."
    assert refusal(game, "a4a1") == "The Queen may not slide through a2: she would be in check there from the Bishop on e6."
    assert refusal(game, "a4c4") == "The Queen would be in check on c4 from the Bishop on e6."


def test_ruling_3_she_may_not_slide_away_from_a_rook_along_its_line():
    # The Rook e8 gives check along the file; e3 lies on the same line behind her.
    game = game_at("4r1k1/7q/8/8/4Q3/8/8/R7 w - - 0 1")
    assert game.view().checks == ("e4",)
    assert sorted(game.legal_moves()) == ["e4a4", "e4b4", "e4c4", "e4d4", "e4f4", "e4g4", "e4h4"]
    assert refusal(game, "e4e2") == ("The Queen may not slide through e3: she would be in check there "
                                     "from the Rook on e8.")
    assert refusal(game, "e4e8") == ("The Queen may not slide through e5: she would be in check there "
                                     "from the Rook on e8.")


def test_a_queen_with_king_or_knight_power_has_nothing_to_pass():
    game = game_at("7q/8/8/3r4/8/4Q3/8/N6k w - - 0 1")
    assert "e3c4" in game.legal_moves() and "e3d5" in game.legal_moves()   # leaps over the d-file


# -- check ---------------------------------------------------------------------------------------

def test_a_move_may_not_leave_ones_own_queen_attacked():
    game = game_at("3rk3/8/8/8/8/8/3N4/3QK2q w - - 0 1")
    assert refusal(game, "d2f3") == "That leaves your Queen on d1 in check from the Rook on d8."


def test_the_enemy_queen_checks_with_her_current_power():
    # The black Queen d5 moves as a pawn (her only man is a pawn): she checks c4 and e4.
    game = game_at("8/8/8/3q4/4Q3/8/7p/N7 w - - 0 1")
    assert game.view().checks == ("e4",)
    assert sorted(game.legal_moves()) == ["e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6", "e4g3", "e4g5"]
    assert refusal(game, "a1b3").startswith("Your Queen is in check from the Queen on d5")


def test_ruling_2_an_enemy_queen_that_could_not_slide_there_still_gives_check():
    # The black Queen e8 slides as a Rook but would be in check on e5 (Rook h5): she still checks e1.
    game = game_at("4q3/r7/8/7R/8/8/8/K3Q3 w - - 0 1")
    assert game.view().checks == ("e1",)
    assert "a1b1" not in game.legal_moves()
    assert refusal(game, "a1b1").startswith("Your Queen is in check from the Queen on e8")


def test_ruling_2_a_pinned_man_still_gives_check():
    # The black Bishop b4 is pinned to its Queen c5 by the Bishop a3, yet it checks the Queen e1.
    game = game_at("8/8/8/2q5/1b6/B7/8/K3Q3 w - - 0 1")
    assert game.view().checks == ("e1",)
    assert "a3b4" in game.legal_moves()
    assert sorted(m for m in game.legal_moves() if m.startswith("e1")) == ["e1d1", "e1e2", "e1f1"]


def test_ruling_5_the_king_is_an_ordinary_man_it_may_step_onto_attacked_squares():
    game = game_at("1k5r/1R6/8/8/8/2q5/8/2Q4K w - - 0 1")
    assert moves_from(game, "h1") == ["h1g1", "h1g2", "h1h2"]     # h2 and h1 lie on the Rook's file


def test_ruling_5_capturing_the_king_is_illegal_when_the_grown_enemy_queen_then_attacks():
    # Rxb8 would leave Black a Rook as best man: the Queen c3 would then check c1 along the file.
    game = game_at("1k5r/1R6/8/8/8/2q5/8/2Q4K w - - 0 1")
    assert refusal(game, "b7b8") == "That leaves your Queen on c1 in check from the Queen on c3."
    assert "b7b6" in game.legal_moves()


def test_a_king_may_be_captured_and_play_goes_on():
    game = game_at("3q4/8/8/8/8/8/P4k2/Q3K3 b - - 0 1")
    game.play("f2e1")
    assert game.outcome is None
    assert game.view().caption == "White Queen moves as a pawn; Black Queen moves as a King"


# -- the end -----------------------------------------------------------------------------------

def test_checkmate_of_the_queen_loses_and_is_set_after_the_move():
    game = game_at("r7/K5r1/8/2q5/2k5/8/8/7Q b - - 0 1")
    assert game.outcome is None
    game.play("a8h8")
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.outcome.kind == "checkmate"
    assert game.last_move_label() == "Rh8#"


def test_ruling_6_stalemate_loses():
    game = game_at("8/3p1q2/3P4/5B2/8/8/8/Q7 b - - 0 1")
    assert game.outcome == rules.Outcome("1-0", "stalemate")
    assert game.outcome.kind == "stalemate"


def test_ruling_6_a_lone_queen_has_no_move_and_loses_by_stalemate():
    game = game_at("4k2q/8/8/8/8/3Q4/r7/N7 b - - 0 1")
    game.play("a2a1")
    assert game.outcome == rules.Outcome("0-1", "stalemate")
    assert game.legal_moves() == []


def test_ruling_8_no_insufficient_material_draw():
    game = game_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert game.outcome is None


def test_ruling_8_repetition_draws_as_in_standard_chess():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 2)
    assert game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_ruling_8_an_en_passant_capture_that_would_expose_the_queen_does_not_split_repetitions():
    # After d7d5, exd6 would open the fifth rank to the Rook on h5: no legal capture, so the
    # position is the same as when the Knights come back, as in standard chess.
    game = game_at("4q3/3p4/8/Q3P2r/8/8/8/1N2K1n1 b - - 0 1")
    game.play("d7d5")
    for move in ["b1c3", "g1f3", "c3b1", "f3g1"] * 2:
        assert game.claimable_draw() is None
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"


def test_a_legal_en_passant_capture_still_makes_the_position_different():
    game = game_at("4q3/3p4/8/Q3P3/8/8/8/1N2K1n1 b - - 0 1")
    game.play("d7d5")
    for move in ["b1c3", "g1f3", "c3b1", "f3g1"] * 2:
        game.play(move)
    assert game.claimable_draw() is None
    for move in ["b1c3", "g1f3", "c3b1", "f3g1"]:
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"


def test_a_queen_stepping_like_a_pawn_is_not_a_pawn_move_for_the_fifty_move_count():
    game = game_at("q5n1/8/8/8/8/7P/3Q4/8 w - - 7 30")
    game.play("Qd3")
    assert game.fen().split()[4] == "8"


# -- FEN ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "qq2k3/8/8/8/8/8/8/3QK3 w - - 0 1"])
def test_ruling_9_a_fen_needs_exactly_one_queen_per_side(fen):
    with pytest.raises(ValueError, match="exactly one Queen"):
        game_at(fen)


def test_ruling_9_the_side_not_to_move_may_not_be_in_check():
    with pytest.raises(ValueError, match="in check"):
        game_at("3qk2r/8/8/8/8/8/8/4K2Q b - - 0 1")


def test_the_en_passant_square_is_kept_only_when_a_legal_capture_exists():
    game = game_at("4k2q/3p4/8/4P3/8/8/8/Q3K3 b - - 0 1")
    game.play("d7d5")
    assert game.fen().split()[3] == "d6"
    pinned = game_at("4r2q/3p4/8/4P3/8/8/8/K3Q3 b - - 0 1")
    pinned.play("d7d5")
    assert "e5d6" not in pinned.legal_moves()
    assert pinned.fen().split()[3] == "-"


# -- players' view --------------------------------------------------------------------------------

def test_a_queen_in_check_is_marked_and_the_move_written_with_a_plus():
    game = game_at("3rk3/8/8/8/8/8/8/2Q1K2q b - - 0 1")
    game.play("d8c8")
    assert game.view().checks == ("c1",)
    assert game.last_move_label() == "Rc8+"


def test_the_caption_says_how_each_queen_moves():
    assert rules.new_game(SLUG).view().caption == "White Queen moves as a King; Black Queen moves as a King"


def test_move_suggestions_narrow_by_the_typed_prefix():
    game = game_at("7q/8/8/8/3Q4/8/8/R6k w - - 0 1")
    values = [value for value, _ in suggest(game, "d4", None)]
    assert values == moves_from(game, "d4")
    assert [value for value, _ in suggest(game, "d4d", None)] == [m for m in values if m.startswith("d4d")]


# -- perft -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fen,depth1", [
    (chess.STARTING_FEN.replace("KQkq", "-"), 20),
    ("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", 8),
    ("7q/8/8/8/3Q4/8/8/R6k w - - 0 1", 28),
    ("q7/8/8/8/3Q4/8/8/B6k w - - 0 1", 12),
    ("7q/8/8/8/3Q4/8/8/N6k w - - 0 1", 10),
    ("7q/8/8/2n5/3Q4/8/P7/7k w - - 0 1", 4),
    ("r3k3/1p6/8/5q2/8/2B5/3Q4/4K2R w - - 0 1", None),
])
def test_perft_matches_an_independent_slow_reading(fen, depth1):
    game = game_at(fen)
    counts = [perft(game, d) for d in (1, 2, 3)]
    board = chess.Board(fen)
    assert counts == [slow_perft(board, d) for d in (1, 2, 3)]
    if depth1 is not None:
        assert counts[0] == depth1
