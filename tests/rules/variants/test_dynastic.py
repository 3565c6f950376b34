"""Dynastic Chess through the public API: take both monarchs; they move by their partner's place."""
import chess
import pytest

import rules
from bot.service import suggest

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "dynastic"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def moves_from(game, square):
    return sorted(m for m in game.legal_moves() if m.startswith(square))


# -- an independent slow reading on plain python-chess boards ------------------------------------

def slow_moves(board):
    colour = board.turn
    found = []
    for move in board.pseudo_legal_moves:
        if board.piece_type_at(move.from_square) in (chess.KING, chess.QUEEN) or move.promotion == chess.QUEEN:
            continue
        found.append(move)
    king, queen = board.king(colour), next(iter(board.pieces(chess.QUEEN, colour)), None)
    for square, partner in ((king, queen), (queen, king)):
        if square is None:
            continue
        if partner is None:
            kind = chess.KING
        elif max(abs(chess.square_file(square) - chess.square_file(partner)),
                 abs(chess.square_rank(square) - chess.square_rank(partner))) == 1:
            kind = chess.QUEEN
        else:
            kind = chess.KNIGHT
        probe = chess.Board(None)
        probe.set_piece_map({sq: p for sq, p in board.piece_map().items()})
        probe.set_piece_at(square, chess.Piece(kind, colour))
        probe.turn = colour
        found += [chess.Move(square, m.to_square) for m in probe.pseudo_legal_moves if m.from_square == square]
    return found


def slow_play(board, move):
    """A copy with `move` played, a monarch's move placed by hand (never castling)."""
    after = board.copy(stack=False)
    piece = board.piece_at(move.from_square)
    if piece.piece_type in (chess.KING, chess.QUEEN):
        after.remove_piece_at(move.from_square)
        after.set_piece_at(move.to_square, piece)
        after.turn = not board.turn
        after.ep_square = None
    else:
        after.push(move)
    return after


def slow_perft(board, depth):
    if depth == 0:
        return 1
    if any(not (board.pieces(chess.KING, c) or board.pieces(chess.QUEEN, c)) for c in chess.COLORS):
        return 1 if depth == 0 else 0
    return sum(slow_perft(slow_play(board, m), depth - 1) for m in slow_moves(board))


# -- set-up, castling, promotion -------------------------------------------------------------------

def test_setup_is_the_fide_array_without_castling_rights():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    assert len(game.legal_moves()) == 20


def test_in_the_start_position_both_monarchs_move_like_queens_once_freed():
    game = rules.new_game(SLUG)
    game.play("e2e4")
    game.play("e7e5")
    # The King e1 starts next to its Queen d1: it slides up the e-file to the own pawn e4.
    assert moves_from(game, "e1") == ["e1e2", "e1e3"]
    assert moves_from(game, "d1") == ["d1e2", "d1f3", "d1g4", "d1h5"]


def test_ruling_8_castling_rights_are_ignored_and_there_is_no_castling():
    game = game_at("r2qk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.fen().split()[2] == "-"
    assert "no castling" in refusal(game, "O-O")


def test_a_king_sliding_two_squares_on_its_home_rank_is_not_castling():
    game = game_at("4k3/8/8/8/8/8/8/3QK2R w - - 0 1")
    assert "e1g1" in game.legal_moves()
    assert game.label("e1g1") == "Kg1"
    assert game.play("Kg1") == "e1g1"
    assert game.fen() == "4k3/8/8/8/8/8/8/3Q2KR b - - 1 1"
    game.undo()
    assert game.fen() == "4k3/8/8/8/8/8/8/3QK2R w - - 0 1"


def test_a_king_leap_across_two_files_is_written_and_typed_as_a_king_move_not_castling():
    game = game_at("4k3/8/8/8/8/8/8/1K4Q1 w - - 0 1")
    assert game.label("b1d2") == "Kd2"
    assert game.label("b1a3") == "Ka3"
    assert game.play("Kd2") == "b1d2"
    capture = game_at("4k3/8/8/8/8/8/3r4/1K4Q1 w - - 0 1")
    assert capture.label("b1d2") == "Kxd2"
    assert capture.play("Kxd2") == "b1d2"


def test_a_long_king_slide_towards_the_queen_side_keeps_the_rook_in_place():
    game = game_at("3qk3/8/8/8/8/8/4Q3/R3K3 w - - 0 1")
    game.play("e1c1")
    assert game.fen().startswith("3qk3/8/8/8/8/8/4Q3/R1K5 b")


def test_pawns_promote_to_rook_bishop_or_knight_only():
    game = game_at("3qk3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert moves_from(game, "a7") == ["a7a8b", "a7a8n", "a7a8r"]
    assert refusal(game, "a7a8q") == "In Dynastic Chess a pawn promotes only to a Rook, Bishop or Knight."


# -- how the monarchs move ---------------------------------------------------------------------

def test_a_monarch_next_to_its_partner_moves_like_a_queen():
    # Queen g1 next to King h1: rank 6 + file 7 + diagonals 1 + 6 = 20; King h1: 7 + 7 = 14.
    game = game_at("3qk3/8/8/8/8/8/8/6QK w - - 0 1")
    assert len(moves_from(game, "g1")) == 20
    assert len(moves_from(game, "h1")) == 14
    assert len(game.legal_moves()) == 34


def test_a_monarch_away_from_its_partner_moves_like_a_knight():
    game = game_at("3qk3/8/8/8/8/8/8/Q6K w - - 0 1")
    assert moves_from(game, "a1") == ["a1b3", "a1c2"]
    assert moves_from(game, "h1") == ["h1f2", "h1g3"]
    assert refusal(game, "h1h2") == ("Your King moves like a Knight now, because it does not start next to "
                                     "your Queen, so it cannot move to h2.")


def test_once_the_partner_is_captured_the_survivor_moves_like_a_king():
    game = game_at("3qk3/8/8/8/8/8/8/7K w - - 0 1")
    assert moves_from(game, "h1") == ["h1g1", "h1g2", "h1h2"]
    assert refusal(game, "h1f2") == ("Your King moves like a King (one step) now, because your Queen has been "
                                     "captured, so it cannot move to f2.")


def test_the_queen_alone_also_moves_like_a_king():
    game = game_at("3qk3/8/8/8/8/8/8/3Q4 w - - 0 1")
    assert moves_from(game, "d1") == ["d1c1", "d1c2", "d1d2", "d1e1", "d1e2"]


def test_ruling_2_adjacency_is_measured_where_the_move_starts_diagonals_count():
    # The Queen d4 stands diagonally next to the King e5, so she slides (not through him).
    game = game_at("7k/7q/8/4K3/3Q4/8/8/8 w - - 0 1")
    assert "d4a1" in game.legal_moves() and "d4h8" not in game.legal_moves()
    assert refusal(game, "d4f5") == ("Your Queen moves like a Queen now, because it starts next to your King "
                                     "(on e5), so it cannot move to f5.")


def test_a_monarch_that_leaps_next_to_its_partner_moves_like_a_queen_next_turn():
    game = game_at("3qk3/8/8/8/8/8/8/Q6K w - - 0 1")
    game.play("h1g3")
    game.play("d8d7")
    assert moves_from(game, "a1") == ["a1b3", "a1c2"]
    game = game_at("3qk3/8/8/8/8/8/8/Q2K4 w - - 0 1")
    game.play("d1b2")      # a Knight's leap that lands next to the Queen
    game.play("d8d7")
    assert "b2b8" in game.legal_moves()


def test_a_monarch_that_slides_away_moves_like_a_knight_next_turn():
    game = game_at("3qk3/8/8/8/8/8/8/6QK w - - 0 1")
    game.play("g1g5")
    game.play("d8d7")
    assert moves_from(game, "g5") == ["g5e4", "g5e6", "g5f3", "g5f7", "g5h3", "g5h7"]


def test_ruling_1_enemy_monarchs_play_no_part():
    # The white King h1 stands next to the black Queen g2, not its own: it leaps (and may take her).
    game = game_at("4k3/8/8/8/8/8/6q1/Q6K w - - 0 1")
    assert moves_from(game, "h1") == ["h1f2", "h1g3"]


def test_ruling_3_only_the_side_that_lost_a_monarch_switches():
    # White has lost the Queen: the King steps. Black keeps both: the King e8 next to d8 slides.
    assert moves_from(game_at("3qk3/8/8/8/8/8/8/7K w - - 0 1"), "h1") == ["h1g1", "h1g2", "h1h2"]
    black = game_at("3qk3/8/8/8/8/8/8/7K b - - 0 1")
    assert "e8e2" in black.legal_moves() and "e8a4" in black.legal_moves()


def test_other_men_move_as_in_fide_chess():
    game = game_at("3qk3/8/8/8/8/8/8/RNB1K2Q w - - 0 1")
    assert moves_from(game, "b1") == ["b1a3", "b1c3", "b1d2"]
    assert moves_from(game, "c1") == ["c1a3", "c1b2", "c1d2", "c1e3", "c1f4", "c1g5", "c1h6"]


# -- no check -----------------------------------------------------------------------------------

def test_ruling_4_there_is_no_check_monarchs_may_move_onto_attacked_squares():
    # The King e1 starts next to its Queen d1 and slides to e7, next to both black monarchs.
    game = game_at("3qk2r/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert "e1e7" in game.legal_moves()
    game.play("e1e7")
    assert game.view().checks == ()
    assert game.last_move_label() == "Ke7"


def test_a_monarch_may_be_left_attacked_and_captured():
    game = game_at("3qk3/8/8/8/8/8/3r4/Q3K3 w - - 0 1")
    assert "e1d3" in game.legal_moves()       # a Knight's leap onto the Rook's file
    game = game_at("3qk3/8/8/8/8/8/4r3/Q3K3 b - - 0 1")
    game.play("e2e1")
    assert game.outcome is None
    assert game.view().caption == "Monarchs left: White: Queen; Black: King and Queen"


# -- the end -----------------------------------------------------------------------------------

def test_ruling_5_taking_the_last_monarch_wins_at_once():
    game = game_at("3qk3/8/8/8/8/8/4r3/4K3 b - - 0 1")
    game.play("e2e1")
    assert game.outcome == rules.Outcome("0-1", "captured king and queen")
    assert game.outcome.kind == "goal"
    assert game.legal_moves() == []


def test_taking_one_monarch_does_not_end_the_game():
    game = game_at("3qk3/8/8/8/8/8/4r3/3QK3 b - - 0 1")
    game.play("e2e1")
    assert game.outcome is None
    assert moves_from(game, "d1") == ["d1c1", "d1c2", "d1d2", "d1e1", "d1e2"]


def test_ruling_6_no_legal_move_is_a_stalemate_draw():
    # White's King a1 lost its Queen; every white man is boxed in by its own men or blocked.
    game = game_at("7k/8/8/8/p1pp4/P1P5/RB1P4/KRB5 b - - 0 1")
    game.play("d4d3")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_ruling_7_no_insufficient_material_draw():
    assert game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome is None


def test_repetition_draws_as_in_standard_chess():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 2)
    assert game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_ruling_8_en_passant_works_as_in_fide():
    game = game_at("3qk3/3p4/8/4P3/8/8/8/3QK3 b - - 0 1")
    game.play("d7d5")
    assert "e5d6" in game.legal_moves()
    game.play("e5d6")
    assert game.fen().startswith("3qk3/8/3P4/8/8/8/8/3QK3 b")


# -- FEN ----------------------------------------------------------------------------------------

def test_ruling_9_a_side_without_any_monarch_is_refused():
    with pytest.raises(ValueError, match="no King and no Queen"):
        game_at("3qk3/8/8/8/8/8/8/R7 w - - 0 1")


def test_a_side_with_two_queens_is_refused():
    with pytest.raises(ValueError, match="at most one King and one Queen"):
        game_at("3qk3/8/8/8/8/8/8/QQ2K3 w - - 0 1")


# -- players' view --------------------------------------------------------------------------------

def test_the_caption_shows_the_monarchs_each_side_has():
    assert rules.new_game(SLUG).view().caption == "Monarchs left: White: King and Queen; Black: King and Queen"


def test_move_suggestions_narrow_by_the_typed_prefix():
    game = game_at("3qk3/8/8/8/8/8/8/6QK w - - 0 1")
    values = [value for value, _ in suggest(game, "g1", None)]
    assert values == moves_from(game, "g1")
    assert [value for value, _ in suggest(game, "g1g", None)] == [m for m in values if m.startswith("g1g")]


# -- perft -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fen,depth1", [
    (chess.STARTING_FEN.replace("KQkq", "-"), 20),
    ("3qk3/8/8/8/8/8/8/6QK w - - 0 1", 34),
    ("3qk3/8/8/8/8/8/8/Q6K w - - 0 1", 4),
    ("3qk3/8/8/8/8/8/8/7K w - - 0 1", 3),
    ("r2qk3/1p6/8/2n5/8/5N2/3PQ3/R3K2R w - - 0 1", None),
])
def test_perft_matches_an_independent_slow_reading(fen, depth1):
    game = game_at(fen)
    counts = [perft(game, d) for d in (1, 2, 3)]
    assert counts == [slow_perft(chess.Board(fen), d) for d in (1, 2, 3)]
    if depth1 is not None:
        assert counts[0] == depth1


def test_perft_of_the_opening_matches_python_chess_while_rules_coincide():
    # Two plies from the start no monarch can move yet, so the counts are FIDE's.
    assert [perft(rules.new_game(SLUG), d) for d in (1, 2)] == [20, 400]
