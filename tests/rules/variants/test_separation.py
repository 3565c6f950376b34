"""Separation Chess through the public API: swapped Queen and Knight, two monarchs, quadrants."""
import pytest

import rules

from .support import refusal

SLUG = "separation"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- the swapped men ----------------------------------------------------------------------------

def test_the_queen_moves_as_a_knight():
    game = rules.new_game(SLUG)
    assert [m for m in game.legal_moves() if m.startswith("d1")] == ["d1c3"]   # d1e3: the King's quadrant
    assert game.play("Qc3") == "d1c3"
    assert game.last_move_label() == "Qc3"


def test_the_knight_moves_as_a_queen():
    game = game_at("4k3/8/8/8/8/Q7/8/1N2K3 w - - 0 1")
    knight = {m for m in game.legal_moves() if m.startswith("b1")}
    assert {"b1b8", "b1h7", "b1d1", "b1a1"} <= knight
    assert "b1c3" not in knight


def test_checks_follow_the_men_a_knight_checks_along_lines():
    game = game_at("4k3/8/8/8/8/Q7/8/1N2K3 w - - 0 1")
    game.play("b1b5")
    assert game.view().checks == ("e8",)
    assert game.last_move_label() == "Nb5+"


def test_checks_follow_the_men_a_queen_checks_as_a_knight():
    game = game_at("4k3/8/5Q2/8/8/8/8/4K3 b - - 0 1")
    assert game.view().checks == ("e8",)
    assert "e8e7" in game.legal_moves()        # a FIDE queen would guard e7; this one does not
    assert "e8d7" not in game.legal_moves()    # a knight's jump from f6


# -- two monarchs -----------------------------------------------------------------------------------

def test_the_queen_can_never_be_captured():
    game = game_at("4k3/8/8/3q4/8/Q7/8/3RK3 w - - 0 1")
    assert "d1d5" not in game.legal_moves()
    assert refusal(game, "d1d5") == "The Queen can never be captured."


def test_a_queen_in_check_must_be_answered():
    game = game_at("4k3/8/8/3q4/8/Q7/8/3RK3 b - - 0 1")
    assert game.view().checks == ("d5",)
    moves = game.legal_moves()
    assert moves and all(m.startswith("d5") for m in moves)


def test_a_monarch_may_not_move_into_its_partners_quadrant():
    game = rules.new_game(SLUG)
    assert "d1e3" not in game.legal_moves()
    assert "quadrant" in refusal(game, "d1e3")


def test_with_both_monarchs_in_check_only_the_kings_check_must_end():
    game = game_at("7k/8/8/8/8/8/8/Q1r1K3 w - - 0 1")
    assert sorted(game.view().checks) == ["a1", "e1"]
    assert {"e1e2", "e1f2"} <= set(game.legal_moves())
    assert "e1d2" not in game.legal_moves()     # the Queen's quadrant
    game.play("e1e2")
    assert game.outcome is None


def test_answering_one_check_may_not_expose_the_other_monarch():
    game = game_at("3rr2k/8/8/8/8/8/3R4/3QK3 w - - 0 1")
    assert "d2e2" not in game.legal_moves()
    assert "check" in refusal(game, "d2e2")
    assert "e1f1" in game.legal_moves()


# -- the end ---------------------------------------------------------------------------------------

def test_a_monarch_in_check_with_no_legal_move_is_checkmate():
    game = game_at("br5k/8/8/Q6r/8/8/7r/K7 w - - 0 1")
    assert game.outcome.result == "0-1"
    assert game.outcome.kind == "checkmate"


def test_no_move_but_into_one_quadrant_loses_by_separation():
    game = game_at("br5k/8/8/Q7/8/8/7r/K7 w - - 0 1")
    assert game.outcome.result == "0-1"
    assert "quadrant" in game.outcome.reason


def test_any_other_position_without_a_move_is_stalemate():
    game = game_at("br5k/8/8/Q2p4/8/8/7r/K7 w - - 0 1")
    assert game.outcome.result == "1/2-1/2"
    assert game.outcome.kind == "stalemate"


# -- other rules --------------------------------------------------------------------------------------

def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1")
    assert "e1g1" not in game.legal_moves()
    assert rules.new_game(SLUG).fen().split()[2] == "-"


def test_pawns_promote_to_knight_rook_or_bishop_never_queen():
    game = game_at("4k3/P7/8/8/8/Q7/8/4K3 w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("a7a8")} == {"a7a8n", "a7a8r", "a7a8b"}
    assert "never to a Queen" in refusal(game, "a7a8q")


def test_en_passant_is_kept():
    game = game_at("4k3/8/8/3Pp3/8/Q7/8/4K3 w - e6 0 2")
    assert "d5e6" in game.legal_moves()
    assert game.fen().split()[3] == "e6"


def test_a_fen_with_king_and_queen_in_one_quadrant_is_refused():
    with pytest.raises(ValueError):
        game_at("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")


# -- the generator agrees with the ruling's python-chess reading (Queen and Knight letters swapped) --

def swapped(board):
    """The same position with q and n exchanged, so python-chess's knights are Separation Queens."""
    import chess
    table = str.maketrans("qnQN", "nqNQ")
    fields = board.fen().split()
    return chess.Board(" ".join([fields[0].translate(table), *fields[1:]]))


def ruling_moves(fen):
    import chess
    board = swapped(chess.Board(fen))
    us = board.turn

    def monarchs(b):
        knights = b.pieces_mask(chess.KNIGHT, us)
        return b.king(us), (chess.lsb(knights) if knights else None)

    def quadrant(sq):
        return chess.square_file(sq) >= 4, chess.square_rank(sq) >= 4

    king, queen = monarchs(board)
    kc = board.is_attacked_by(not us, king)
    qc = queen is not None and board.is_attacked_by(not us, queen)
    found = set()
    for move in board.generate_pseudo_legal_moves():
        if board.is_castling(move) or move.promotion == chess.KNIGHT:
            continue   # no castling; a "Queen" (python-chess knight) promotion is not allowed
        target = board.piece_at(move.to_square)
        if target is not None and target.piece_type == chess.KNIGHT:
            continue   # the Queen is never captured
        after = board.copy()
        after.push(move)
        k, q = monarchs(after)
        if after.is_attacked_by(not us, k):
            continue
        if q is not None and after.is_attacked_by(not us, q):
            if not (kc and qc and move.from_square != queen):
                continue
        if q is not None and quadrant(k) == quadrant(q):
            continue
        uci = move.uci()
        if move.promotion == chess.QUEEN:
            uci = uci[:-1] + "n"   # python-chess's queen is the Separation Knight
        found.add(uci)
    return found


def test_legal_moves_match_the_rulings_letter_swap_reading_over_random_games():
    import random
    rng = random.Random(5)
    checked = 0
    for seed in range(8):
        game = rules.new_game(SLUG, seed=seed)
        for _ in range(60):
            moves = game.legal_moves()
            assert set(moves) == ruling_moves(game.fen()), game.fen()
            checked += 1
            if not moves:
                break
            game.play(rng.choice(moves))
    assert checked > 300


def test_the_fen_names_the_en_passant_square_only_when_the_capture_is_legal_here():
    # A Knight moves as a Queen: along the fifth rank it pins the b-pawn to its King, so b5xc6
    # en passant is no move and the FEN writes no square (a FIDE reading sees only a knight).
    pinned = rules.new_game("separation", fen="k7/2p5/8/KP5n/8/8/8/7Q b - - 0 1")
    pinned.play("c7c5")
    assert "b5c6" not in pinned.legal_moves()
    assert pinned.fen().split()[3] == "-"
    # A Queen jumps as a Knight: on the same square it pins nothing, so the capture stands and the
    # square is written (a FIDE reading would see a queen's pin and leave it out).
    free = rules.new_game("separation", fen="k7/2p5/8/KP5q/8/8/8/7Q b - - 0 1")
    free.play("c7c5")
    assert "b5c6" in free.legal_moves()
    assert free.fen().split()[3] == "c6"
    assert rules.new_game("separation", fen=free.fen()).legal_moves() == free.legal_moves()


def shuffled_twice(fen):
    game = rules.new_game("separation", fen=fen)
    game.play("c7c5")
    for _ in range(2):
        for move in ("a1b3", "a8b8", "b3a1", "b8a8"):
            game.play(move)
    return game


def test_repetition_counts_a_position_whose_en_passant_capture_is_illegal_as_the_same_position():
    # The pinned b-pawn can never take en passant: the position after c7c5 and the two after the
    # shuffles have the same turns, so the third is a threefold repetition.
    assert shuffled_twice("k7/2p5/8/KP5n/8/8/8/Q7 b - - 0 1").claimable_draw() == "threefold repetition"
    # Where b5xc6 was legal just after c7c5, that first position differs: only two repeats.
    assert shuffled_twice("k7/2p5/8/KP5q/8/8/8/Q7 b - - 0 1").claimable_draw() is None
