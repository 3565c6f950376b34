"""Shrapnel Chess through the public API: FIDE moves without check or castling; a capture also
removes the first man on four rays from the capture square; remove every enemy man to win."""
import random

import chess
import pytest

import rules
from rules.chess_variant import BOARD_FAULTS

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "shrapnel"


def game_at(fen=None):
    return rules.new_game(SLUG, fen=fen)


def board_after(fen, move):
    game = game_at(fen)
    game.play(move)
    return game.fen().split()[0]


# -- an independent reading of the rule, for comparison ------------------------------------------

def reference_play(board, move):
    """The position after `move`, shrapnel worked out square by square with piece_at."""
    mover = board.piece_at(move.from_square)
    capture = board.is_capture(move)
    after = board.copy()
    after.push(move)
    if not capture or mover.piece_type == chess.KNIGHT:
        return after
    df = chess.square_file(move.to_square) - chess.square_file(move.from_square)
    dr = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
    diagonal = abs(df) == abs(dr)
    rays = [(1, 0), (-1, 0), (0, 1), (0, -1)] if diagonal else [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    for step_f, step_r in rays:
        f, r = chess.square_file(move.to_square), chess.square_rank(move.to_square)
        while True:
            f, r = f + step_f, r + step_r
            if not (0 <= f < 8 and 0 <= r < 8):
                break
            if after.piece_at(chess.square(f, r)) is not None:
                after.remove_piece_at(chess.square(f, r))
                break
    return after


def test_moves_and_shrapnel_match_an_independent_reading_along_random_games():
    rng = random.Random(9)
    captures = 0
    for _ in range(8):
        game = game_at()
        board = chess.Board(game.fen())
        while game.outcome is None and len(game.history) < 120:
            expected = sorted(m.uci() for m in board.generate_pseudo_legal_moves()
                              if not board.is_castling(m))
            assert sorted(game.legal_moves()) == expected
            move = rng.choice(game.legal_moves())
            captures += board.is_capture(chess.Move.from_uci(move))
            board = reference_play(board, chess.Move.from_uci(move))
            game.play(move)
            assert game.fen().split()[:4] == board.fen(en_passant="xfen").split()[:4]
    assert captures > 50


def random_scattered_board(rng):
    """A position with 1-26 men scattered at random, Kings optional (at most one a side), often
    with an en passant square: shrapnel meets every kind of neighbour, and promotions abound."""
    while True:
        board = chess.Board(None)
        for _ in range(rng.randint(1, 26)):
            square, colour = rng.choice(chess.SQUARES), rng.random() < 0.5
            kind = rng.choice([chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN,
                                                  chess.KING])
            if ((kind == chess.PAWN and chess.square_rank(square) in (0, 7))
                    or (kind == chess.KING and board.kings & board.occupied_co[colour])):
                continue
            board.set_piece_at(square, chess.Piece(kind, colour))
        board.turn = rng.random() < 0.5
        step = -8 if board.turn == chess.WHITE else 8
        rank = 4 if board.turn == chess.WHITE else 3   # where the enemy pawn stands after its double step
        for pawn in chess.scan_forward(board.pawns & board.occupied_co[not board.turn] & chess.BB_RANKS[rank]):
            if rng.random() < 0.7 and not board.occupied & (chess.BB_SQUARES[pawn - step] | chess.BB_SQUARES[pawn - 2 * step]):
                board.ep_square = pawn - step
                beside = [sq for sq in (pawn - 1, pawn + 1)
                          if chess.square_rank(sq) == rank and not board.piece_at(sq)]
                if beside:   # a pawn that can take en passant
                    board.set_piece_at(rng.choice(beside), chess.Piece(chess.PAWN, board.turn))
                break
        if board.occupied_co[not board.turn] and not board.status() & BOARD_FAULTS:
            return board


def test_moves_shrapnel_and_endings_match_an_independent_reading_in_scattered_positions():
    rng = random.Random(23)
    captures = en_passant = promotions = wins = 0
    for _ in range(150):
        board = random_scattered_board(rng)
        game = game_at(board.fen(en_passant="fen"))
        for _ in range(20):
            expected = sorted(m.uci() for m in board.generate_pseudo_legal_moves() if not board.is_castling(m))
            if not board.occupied_co[board.turn]:
                winner = "1-0" if board.turn == chess.BLACK else "0-1"
                assert game.outcome == rules.Outcome(winner, "all enemy men captured")
                wins += 1
                break
            if not expected:
                assert game.outcome == rules.Outcome("1/2-1/2", "no legal move")
                break
            assert game.outcome is None
            assert sorted(game.legal_moves()) == expected
            takes = [m for m in expected if board.is_capture(chess.Move.from_uci(m))]
            passing = [m for m in takes if board.is_en_passant(chess.Move.from_uci(m))]
            move = chess.Move.from_uci(passing[0] if passing else
                                       rng.choice(takes if takes and rng.random() < 0.7 else expected))
            captures += board.is_capture(move)
            en_passant += board.is_en_passant(move)
            promotions += bool(move.promotion)
            before = game.fen()
            game.play(move.uci())
            board = reference_play(board, move)
            assert game.fen().split()[:4] == board.fen(en_passant="xfen").split()[:4]
            game.undo()
            assert game.fen() == before
            game.play(move.uci())
    assert captures > 500 and en_passant > 10 and promotions > 50 and wins > 60


# -- men and moves -----------------------------------------------------------------------------

def test_start_position_is_fide_without_castling_rights():
    game = game_at()
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    assert len(game.legal_moves()) == 20


def test_perft_from_the_start_equals_python_chess():
    # No capture is possible in the first two plies, and nothing is pinned or in check, so the
    # counts are chess's.
    assert [perft(game_at(), depth) for depth in (1, 2, 3)] == [20, 400, 8902]


def test_perft_where_captures_throw_shrapnel():
    # White Bb2, Ke1; Black Rd8, Ke8, pawn d4. Depth 1: Bb2 a1, c1, a3, c3, xd4 and Ke1 d1, d2,
    # e2, f2, f1 = 10, the chess count without check. Depth 2: after Bxd4 the file ray from d4
    # blows away Rd8, so Black has the five King moves d8, d7, e7, f7, f8 instead of chess's
    # 7 Rook + 4 King moves: 111 - 6 = 105. Depth 3 is checked against the reading above.
    fen = "3rk3/8/8/8/3p4/8/1B6/4K3 w - - 0 1"

    def reference(board, depth):
        if depth == 0:
            return 1
        return sum(reference(reference_play(board, move), depth - 1)
                   for move in board.generate_pseudo_legal_moves() if not board.is_castling(move))

    assert [perft(game_at(fen), depth) for depth in (1, 2, 3)] == [10, 105, 1242]
    assert reference(chess.Board(fen), 3) == 1242


def test_capturing_is_optional():
    fen = "7k/8/8/8/3n4/4B3/8/7K w - - 0 1"
    game = game_at(fen)
    assert "e3d4" in game.legal_moves()
    game.play("Kg1")
    assert game.outcome is None


def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.fen().split()[2] == "-"
    assert "e1g1" not in game.legal_moves()
    assert refusal(game, "O-O") == "There is no castling in Shrapnel Chess."
    assert refusal(game, "e1g1") == "There is no castling in Shrapnel Chess."


def test_there_is_no_check_a_king_may_stay_attacked_or_walk_into_attack():
    game = game_at("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    assert sorted(game.legal_moves()) == ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    assert game.view().checks == ()
    game = game_at("4k3/p7/8/8/8/8/4r3/4K3 w - - 0 1")
    game.play("Kd1")
    game.play("a6")   # Black need not take anything
    assert game.outcome is None


def test_a_king_may_be_captured_and_its_side_plays_on():
    game = game_at("4k3/p7/8/8/8/8/4r2P/4K3 b - - 0 1")
    game.play("Rxe1")   # a file capture: the diagonals from e1 hold nothing
    assert game.fen().split()[0] == "4k3/p7/8/8/8/8/7P/4r3"
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["h2h3", "h2h4"]


# -- shrapnel ----------------------------------------------------------------------------------

# Men round a Black Knight on d4. Orthogonal rays: d6 (then d7), d2, b4, g4.
# Diagonal rays: f6, a7 (c5, b6 empty), b2, f2.
AROUND_D4 = "7k/p2p4/3p1b2/8/1p1n2P1/{rank3}/1P1P1P2/{rank1} w - - 0 1"
DIAGONAL_CAPTURE_LEAVES = "7k/p2p4/5b2/8/3{man}4/8/1P3P2/{rank1}"        # d6 d2 b4 g4 gone
STRAIGHT_CAPTURE_LEAVES = "7k/3p4/3p4/8/1p1{man}2P1/8/3P4/{rank1}"       # f6 a7 b2 f2 gone


@pytest.mark.parametrize("man, rank3, move", [
    ("B", "4B3", "e3d4"), ("P", "4P3", "e3d4"), ("Q", "4Q3", "e3d4")])
def test_a_diagonal_capture_removes_the_first_man_on_each_rank_and_file_ray(man, rank3, move):
    after = board_after(AROUND_D4.format(rank3=rank3, rank1="7K"), move)
    assert after == DIAGONAL_CAPTURE_LEAVES.format(man=man, rank1="7K")


@pytest.mark.parametrize("man, rank3", [("R", "3R4"), ("Q", "3Q4")])
def test_a_rank_or_file_capture_removes_the_first_man_on_each_diagonal_ray(man, rank3):
    after = board_after(AROUND_D4.format(rank3=rank3, rank1="7K"), "d3d4")
    assert after == STRAIGHT_CAPTURE_LEAVES.format(man=man, rank1="7K")


def test_a_king_capture_follows_the_direction_of_its_step():
    assert board_after(AROUND_D4.format(rank3="4K3", rank1="8"), "e3d4") == \
        DIAGONAL_CAPTURE_LEAVES.format(man="K", rank1="8")
    assert board_after(AROUND_D4.format(rank3="3K4", rank1="8"), "d3d4") == \
        STRAIGHT_CAPTURE_LEAVES.format(man="K", rank1="8")


def test_a_knight_capture_removes_nothing_more():
    assert board_after("7k/p2p4/3p1b2/8/1p1n2P1/8/1P1PNP2/7K w - - 0 1", "e2d4") == \
        "7k/p2p4/3p1b2/8/1p1N2P1/8/1P1P1P2/7K"


def test_only_the_first_man_on_each_ray_goes_whatever_its_colour_or_kind():
    # Rxd4 along the rank: diagonals from d4 hold the Black pawn c5 (b6 behind it stays), the
    # White pawn f6, the White Bishop c3 and, on e3-f2-g1, White's own King.
    after = board_after("4k3/8/1p3P2/2pp4/R2n4/2B5/8/6K1 w - - 0 1", "a4d4")
    assert after == "4k3/8/1p6/3p4/3R4/8/8/8"


def test_a_non_capturing_move_removes_nothing():
    assert board_after(AROUND_D4.format(rank3="4B3", rank1="7K"), "e3f4") == \
        "7k/p2p4/3p1b2/8/1p1n1BP1/8/1P1P1P2/7K"


def test_en_passant_clears_from_the_square_the_pawn_moves_to_after_the_taken_pawn_has_gone():
    # exd6 e.p.: the d5 pawn goes first, so the d-file rays from d6 reach d8 and d2.
    assert board_after("3qk3/8/8/3pP3/8/8/3P4/4K3 w - d6 0 1", "e5d6") == "4k3/8/3P4/8/8/8/8/4K3"


def test_a_capturing_promotion_stays_and_throws_diagonal_capture_shrapnel():
    # bxc8=Q: b8 and e8 (the King) and c3 go; the new Queen stays on c8.
    assert board_after("1nr1k3/1P5p/8/8/8/2P5/8/4K3 w - - 0 1", "b7c8q") == "2Q5/7p/8/8/8/8/8/4K3"


def test_undo_puts_the_blown_away_men_back():
    fen = AROUND_D4.format(rank3="4B3", rank1="7K")
    game = game_at(fen)
    game.play("Bxd4")
    game.undo()
    assert game.fen() == fen


# -- how the game ends ---------------------------------------------------------------------------

def test_capturing_the_last_enemy_man_wins():
    game = game_at("7k/8/8/8/8/8/8/1K5R w - - 0 1")
    game.play("Rxh8")
    assert game.outcome == rules.Outcome("1-0", "all enemy men captured")
    assert game.legal_moves() == []


def test_shrapnel_can_remove_the_last_enemy_man():
    # Bxd4 takes the Knight; the rank ray from d4 reaches the Black King on h4.
    game = game_at("8/8/8/8/3n3k/4B3/8/K7 w - - 0 1")
    game.play("Bxd4")
    assert game.fen().split()[0] == "8/8/8/8/3B4/8/8/K7"
    assert game.outcome == rules.Outcome("1-0", "all enemy men captured")


def test_black_wins_the_same_way():
    game = game_at("1k6/8/8/8/8/8/8/r6K b - - 0 1")
    game.play("Rxh1")
    assert game.outcome == rules.Outcome("0-1", "all enemy men captured")


def test_a_side_with_men_but_no_move_draws():
    # White's only man, the a2 pawn, is blocked and has nothing to take.
    game = game_at("7k/8/8/8/8/p7/P7/8 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1/2-1/2", "no legal move")


def test_losing_the_king_changes_nothing():
    game = game_at("7k/8/8/8/8/8/P7/8 w - - 0 1")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["a2a3", "a2a4"]


def test_two_bare_kings_play_on():
    game = game_at("8/8/4k3/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome is None


def test_repetition_is_drawn_as_in_standard_chess():
    game = game_at()
    shuffle_knights(game, 2)
    assert game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


# -- FEN -----------------------------------------------------------------------------------------

def test_a_fen_without_kings_loads_and_round_trips():
    fen = "8/3p4/8/8/8/8/4P3/8 w - - 0 1"
    assert game_at(fen).fen() == fen


def test_a_fen_where_the_side_that_just_moved_has_no_men_is_refused():
    with pytest.raises(ValueError, match="no men"):
        game_at("8/8/8/8/8/8/4P3/8 w - - 0 1")


def test_a_finished_game_reloads_finished():
    game = game_at("7k/8/8/8/8/8/8/K6R w - - 0 1")
    game.play("Rxh8")
    assert game_at(game.fen()).outcome == game.outcome
