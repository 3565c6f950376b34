"""Concurrent Chess through the public API: colour-bound men, two royal monarchs, mirrors."""
import random

import chess
import pytest

import rules
from bot.service import suggest

from .support import refusal
from tests.rules.variants.support import perft

SLUG = "concurrent"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- an independent slow reading of the rules, square by square ------------------------------------------
def _empty(board, squares):
    return all(board.piece_at(chess.square(f, r)) is None for f, r in squares)


def slow_can_reach(board, frm, to):
    """Could the man on `frm` move or capture to `to` (ignoring what stands on `to`)?"""
    piece = board.piece_at(frm)
    f0, r0 = chess.square_file(frm), chess.square_rank(frm)
    df, dr = chess.square_file(to) - f0, chess.square_rank(to) - r0
    kind = piece.piece_type
    if kind in (chess.KING, chess.QUEEN):
        return abs(df) == 1 and abs(dr) == 1
    if kind == chess.PAWN:
        return abs(df) == 1 and dr == (1 if piece.color == chess.WHITE else -1)
    if kind == chess.BISHOP:
        if abs(df) != abs(dr) or df == 0:
            return False
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        return _empty(board, [(f0 + sf * i, r0 + sr * i) for i in range(1, abs(df))])
    if kind == chess.ROOK:
        if abs(df) == 1 and abs(dr) == 1:
            return True
        if (df == 0) == (dr == 0):
            return False
        n = abs(df + dr)
        if n not in (2, 4, 6):
            return False
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        return _empty(board, [(f0 + sf * i, r0 + sr * i) for i in range(1, n)])
    if kind == chess.KNIGHT:
        if sorted((abs(df), abs(dr))) != [1, 3]:
            return False
        if abs(df) == 3:     # three along the rank, then one along the file
            sf = (df > 0) - (df < 0)
            return _empty(board, [(f0 + sf * i, r0) for i in range(1, 4)])
        sr = (dr > 0) - (dr < 0)
        return _empty(board, [(f0, r0 + sr * i) for i in range(1, 4)])
    raise AssertionError(kind)


def slow_in_check(board, colour):
    for sq in chess.SQUARES:
        piece = board.piece_at(sq)
        if piece and piece.color == colour and piece.piece_type in (chess.KING, chess.QUEEN):
            for frm in chess.SQUARES:
                other = board.piece_at(frm)
                if other and other.color != colour and slow_can_reach(board, frm, sq):
                    return True
    return False


def slow_moves(board):
    out = []
    for frm in chess.SQUARES:
        piece = board.piece_at(frm)
        if not piece or piece.color != board.turn:
            continue
        for to in chess.SQUARES:
            target = board.piece_at(to)
            if to == frm or (target and target.color == board.turn) or not slow_can_reach(board, frm, to):
                continue
            if piece.piece_type == chess.PAWN and chess.square_rank(to) in (0, 7):
                out += [(chess.Move(frm, to, p), f"{chess.square_name(frm)}{chess.square_name(to)}{chess.piece_symbol(p)}")
                        for p in (chess.ROOK, chess.BISHOP, chess.KNIGHT)]
            else:
                out.append((chess.Move(frm, to), chess.square_name(frm) + chess.square_name(to)))
    return out


def slow_turns(board):
    us = board.turn
    boards = [("", board)]
    for sq in chess.SQUARES:
        piece = board.piece_at(sq)
        mirror = chess.square(7 - chess.square_file(sq), chess.square_rank(sq))
        if piece and piece.color == us and piece.piece_type not in (chess.KING, chess.QUEEN) \
                and board.piece_at(mirror) is None:
            b = board.copy(stack=False)
            b.remove_piece_at(sq)
            b.set_piece_at(mirror, piece)
            if not slow_in_check(b, not us):
                boards.append((f"{chess.square_name(sq)}|{chess.square_name(mirror)} ", b))
    out = set()
    for head, b in boards:
        for move, text in slow_moves(b):
            c = b.copy(stack=False)
            c.remove_piece_at(move.from_square)
            c.set_piece_at(move.to_square, chess.Piece(move.promotion, us) if move.promotion else b.piece_at(move.from_square))
            if not slow_in_check(c, us):
                out.add(head + text)
    return out


def slow_perft(game, depth):
    if depth == 0:
        return 1
    total = 0
    turns = slow_turns(chess.Board(game.fen()))
    assert turns == set(game.legal_moves()), game.fen()
    for move in turns:
        game.play(move)
        total += slow_perft(game, depth - 1)
        game.undo()
    return total


# -- move counts ---------------------------------------------------------------------------------------
def test_from_the_start_only_the_fourteen_diagonal_pawn_moves_exist():
    game = rules.new_game(SLUG)
    assert sorted(game.legal_moves()) == sorted(
        f"{f}2{g}3" for f in "abcdefgh" for g in "abcdefgh" if abs(ord(f) - ord(g)) == 1)
    assert perft(game, 2) == 196
    assert perft(game, 2) == slow_perft(game, 2)


@pytest.mark.parametrize("fen, depth1", [
    # Rook d4: 4 diagonal steps + d6 d8 d2 b4 f4 h4 = 10; mirrored to e4 it has 10 again; King h1: 1 (g2),
    # once with and once without the mirror (hand-counted)
    ("k7/8/8/8/3R4/8/8/7K w - - 0 1", 22),
    # Knight d4: c7 e7 c1 e1 a5 a3 g5 g3 = 8, mirrored to e4: 8; King h1: 1 + 1
    ("k7/8/8/8/3N4/8/8/7K w - - 0 1", 18),
    # Bishop d4: 13; mirrored to e4 it would check the King on a8 along e4-a8, so no mirror; King h1: 1
    ("k7/8/8/8/3B4/8/8/7K w - - 0 1", 14),
    # pawn d4: c5 e5, mirrored to e4: d5 f5; King h1: 1 + 1
    ("k7/8/8/8/3P4/8/8/7K w - - 0 1", 6),
    # Queen d4 (a monarch, no mirror): 4 steps; King h1: 1
    ("k7/8/8/8/3Q4/8/8/7K w - - 0 1", 5),
])
def test_move_counts_of_each_man_are_hand_checked_and_agree_with_a_slow_reading(fen, depth1):
    game = game_at(fen)
    assert len(game.legal_moves()) == depth1
    for depth in (1, 2, 3):
        assert perft(game, depth) == slow_perft(game, depth)


def test_a_busy_position_agrees_with_the_slow_reading():
    game = game_at("r1b1k2r/pp1n1ppp/2p5/3p1b2/1B1P4/2N2N2/PPP2PPP/R2QKB1R w - - 0 1")
    assert perft(game, 2) == slow_perft(game, 2)


def test_random_games_agree_with_the_slow_reading():
    rng = random.Random(4)
    game = rules.new_game(SLUG)
    for _ in range(60):
        moves = game.legal_moves()
        assert set(moves) == slow_turns(chess.Board(game.fen()))
        if game.outcome:
            break
        game.play(rng.choice(sorted(moves)))


# -- the men ---------------------------------------------------------------------------------------------
def test_king_and_queen_move_one_square_diagonally():
    game = game_at("7k/8/8/8/3K4/8/8/Q7 w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("d4")} == {"d4c5", "d4e5", "d4c3", "d4e3"}
    assert {m for m in game.legal_moves() if m.startswith("a1")} == {"a1b2"}
    assert "one square diagonally" in refusal(game, "d4d5")


def test_every_man_is_colour_bound_and_only_a_mirror_changes_colour():
    rng = random.Random(7)
    game = rules.new_game(SLUG)
    for _ in range(80):
        if game.outcome:
            break
        move = rng.choice(sorted(game.legal_moves()))
        step = move.split()[-1]
        a, b = chess.parse_square(step[:2]), chess.parse_square(step[2:4])
        assert (chess.square_file(a) + chess.square_rank(a)) % 2 == (chess.square_file(b) + chess.square_rank(b)) % 2
        game.play(move)


def test_all_men_capture_the_way_they_move():
    game = game_at("k7/8/8/3r4/8/3R4/8/7K w - - 0 1")
    assert "d3d5" in game.legal_moves()
    pawn = game_at("k7/8/8/8/4p3/3P4/8/7K w - - 0 1")
    assert "d3e4" in pawn.legal_moves()


def test_the_knight_needs_three_empty_squares_along_its_line():     # ruling 1
    game = game_at("k7/8/8/8/3N4/8/3p4/7K w - - 0 1")
    assert "d4c1" not in game.legal_moves() and "d4e1" not in game.legal_moves()
    assert "d4c7" in game.legal_moves()
    turning = game_at("k7/3p4/8/8/3N4/8/8/7K w - - 0 1")
    assert "d4c7" not in turning.legal_moves()            # the third square, d7, is taken
    assert "3 squares along a rank or file" in refusal(game, "d4c1")


def test_the_rook_jumps_2_4_or_6_over_empty_squares_only():      # ruling 2
    game = game_at("k7/8/8/3p4/8/8/8/3R3K w - - 0 1")
    moves = {m for m in game.legal_moves() if m.startswith("d1")}
    assert {"d1d3", "d1d5", "d1b1", "d1f1", "d1c2", "d1e2"} <= moves
    assert "d1d7" not in moves and "d1d2" not in moves and "d1d4" not in moves
    assert "2, 4 or 6 squares" in refusal(game, "d1d4")


def test_pawns_move_only_diagonally_forward_with_no_double_step():     # ruling 3
    game = rules.new_game(SLUG)
    assert "never straight" in refusal(game, "e2e3")
    assert "e2e4" not in game.legal_moves()


def test_there_is_no_en_passant_and_the_field_is_written_as_a_dash():   # ruling 3
    game = game_at("k7/8/8/8/8/8/8/7K w - e3 0 1")
    assert game.fen().split()[3] == "-"


def test_there_is_no_castling():       # ruling 4
    game = game_at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    assert not any(m.startswith("e1") for m in game.legal_moves())
    assert game.fen().split()[2] == "-"


def test_pawns_promote_to_rook_bishop_or_knight():
    game = game_at("7k/1P6/8/8/8/8/8/K7 w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("b7")} == {"b7a8r", "b7a8b", "b7a8n", "b7c8r", "b7c8b", "b7c8n"}
    assert "Rook, Bishop or Knight" in refusal(game, "b7a8q")
    assert refusal(game, "b7a8") == "Promote to which piece? a8=R, a8=B or a8=N"


def test_a_mirrored_pawn_still_promotes():     # ruling 10
    game = game_at("3k4/1P6/8/8/8/8/8/K7 w - - 0 1")
    assert "b7|g7 g7f8r" in game.legal_moves()
    game.play("b7|g7 g7f8r")
    assert game.view().pieces["f8"] == "R"


# -- mirrors ---------------------------------------------------------------------------------------------
def test_a_mirror_puts_a_man_on_the_same_rank_the_same_distance_from_the_other_edge():
    game = game_at("k7/8/8/8/8/8/P7/7K w - - 0 1")
    game.play("a2|h2 h2g3")
    assert game.view().pieces.get("g3") == "P" and "a2" not in game.view().pieces
    other = game_at("k7/8/8/8/8/8/P7/7K w - - 0 1")
    assert "a2 mirrors to h2" in refusal(other, "a2|g2 b3c4")


def test_the_mirror_square_must_be_empty_so_a_mirror_never_captures():    # ruling 5
    game = game_at("k7/8/8/8/8/8/P6p/6K1 w - - 0 1")
    assert not any(m.startswith("a2|") for m in game.legal_moves())
    assert "h2 is not empty" in refusal(game, "a2|h2 g1f2")


def test_monarchs_never_mirror():
    game = game_at("k7/8/8/8/8/8/8/1Q5K w - - 0 1")
    assert not any("|" in m for m in game.legal_moves())
    assert "monarch and cannot mirror" in refusal(game, "b1|g1 h1g2")


def test_a_mirror_alone_is_not_a_turn_and_the_move_comes_after_it():   # ruling 5
    game = game_at("k7/8/8/8/8/8/P7/7K w - - 0 1")
    assert "only a mirror" in refusal(game, "a2|h2")
    assert "mirror comes first" in refusal(game, "h1g2 a2|h2")


def test_the_mirrored_man_may_make_the_move():     # ruling 5
    game = game_at("k7/8/8/8/8/8/8/B6K w - - 0 1")
    assert "a1|h1 h1g2" not in game.legal_moves()          # h1 holds the King
    game = game_at("1k6/8/8/8/8/8/8/B5K1 w - - 0 1")
    assert "a1|h1 h1c6" in game.legal_moves()


def test_a_mirror_may_not_check_an_opposing_monarch_directly():     # ruling 6
    # the Bishop h2 mirrored to a2 would see g8 along a2-g8
    game = game_at("6k1/8/8/8/8/8/7B/K7 w - - 0 1")
    assert not any(m.startswith("h2|a2") for m in game.legal_moves())
    message = refusal(game, "h2|a2 a1b2")
    assert "would check Black's King on g8" in message and "may not give check" in message


def test_a_mirror_may_not_uncover_a_check_either():     # ruling 6
    # the Knight on b2 shuts the long diagonal of the Bishop on a1; mirroring it to g2 would open it
    game = game_at("7k/8/8/8/8/8/1N6/B6K w - - 0 1")
    assert not any(m.startswith("b2|g2") for m in game.legal_moves())
    assert "would check Black's King on h8" in refusal(game, "b2|g2 h1g2")


def test_the_move_may_check_freely_also_by_uncovering_the_mirrored_man():     # ruling 6
    uncover = game_at("7k/8/8/8/8/8/1N6/B6K w - - 0 1")
    assert "b2c5" in uncover.legal_moves()
    uncover.play("b2c5")
    assert uncover.view().checks == ("h8",)
    # the Bishop g1 mirrors to b1 behind the Knight on e4 (no check yet), then the Knight uncovers it
    game = game_at("8/7k/8/8/4N3/8/8/K5B1 w - - 0 1")
    assert "g1|b1 e4d7" in game.legal_moves()
    game.play("g1|b1 e4d7")
    assert game.view().checks == ("h7",)


def test_a_mirror_may_expose_a_friendly_monarch_if_the_move_covers_it():     # ruling 7
    # the Bishop b2 shields the King c1 from a3; mirrored to g2 it exposes him, and the King steps away
    game = game_at("4k3/8/8/8/8/b7/1B6/2K5 w - - 0 1")
    assert "b2|g2 c1d2" in game.legal_moves()
    assert "b2|g2 g2h3" not in game.legal_moves()
    assert "your King on c1 in check from a3" in refusal(game, "b2|g2 g2h3")


def test_a_mirror_may_get_a_player_out_of_check():      # ruling 7
    # the Bishop on a3 checks the King on c1 through b2; mirroring the Rook g2 to b2 blocks it
    game = game_at("k7/8/8/8/8/b7/6R1/2K5 w - - 0 1")
    assert any(m.startswith("g2|b2 ") for m in game.legal_moves())
    assert game.view().checks == ("c1",)


# -- royalty and the end -------------------------------------------------------------------------------------
def test_both_monarchs_are_royal_the_queen_may_not_be_left_in_check():      # ruling 8
    game = game_at("k7/8/8/8/8/8/1b6/Q6K w - - 0 1")
    assert game.view().checks == ("a1",)
    assert all(m.startswith("a1") or m.endswith("b2") for m in game.legal_moves())
    message = refusal(game, "h1g2")
    assert "your Queen on a1 in check from b2" in message


def test_checkmating_the_queen_wins():      # ruling 8
    # the pawn b2 checks the Queen a1 and the Bishop c3 guards it: the Queen's only step is b2
    mate = game_at("k7/8/8/8/8/2b5/1p6/Q7 w - - 0 1")
    assert mate.legal_moves() == []
    assert (mate.outcome.result, mate.outcome.reason) == ("0-1", "checkmate")


def test_no_legal_turn_without_check_is_stalemate():
    # the King a1 may only step to b2, which the pawn c3 guards; a1 itself is not attacked
    game = game_at("k7/8/8/8/8/2p5/8/K7 w - - 0 1")
    assert game.legal_moves() == [] and game.view().checks == ()
    assert (game.outcome.result, game.outcome.reason) == ("1/2-1/2", "stalemate")


def test_repetition_and_fifty_moves_as_in_chess_and_a_mirror_does_not_reset_the_count():    # ruling 11
    game = game_at("k7/8/8/8/8/8/8/R5K1 w - - 10 1")
    game.play("a1|h1 g1f2")
    assert game.fen().split()[4:] == ["11", "1"]     # one move counted, no reset
    capture = game_at("k7/8/8/8/8/8/1p6/R5K1 w - - 10 1")
    capture.play("a1b2")
    assert capture.fen().split()[4] == "0"
    cycle = game_at("k7/8/8/8/8/8/8/B6K w - - 0 1")
    for move in ["a1b2", "a8b7", "b2a1", "b7a8"] * 2:
        cycle.play(move)
    assert cycle.claimable_draw() == "threefold repetition"


def test_there_is_no_draw_for_insufficient_material():     # ruling 11
    game = game_at("k7/8/8/8/8/8/8/7K w - - 0 1")
    assert game.outcome is None


def test_extra_queens_are_monarchs_and_a_single_monarch_is_accepted():    # ruling 9
    game = game_at("k7/8/8/8/8/8/1b6/Q5QK w - - 0 1")
    assert game.view().checks == ("a1",)
    single = game_at("k7/8/8/8/8/8/8/7Q w - - 0 1")
    assert single.legal_moves() == ["h1g2"]


def test_a_set_up_with_the_waiting_side_in_check_is_refused():
    with pytest.raises(ValueError):
        rules.new_game(SLUG, fen="k7/1B6/8/8/8/8/8/7K w - - 0 1")


def test_typed_turns_are_suggested_part_by_part():
    game = game_at("k7/8/8/8/3R4/8/8/7K w - - 0 1")
    firsts = {value for value, _ in suggest(game, "", 15)}
    assert "d4|e4" in firsts and "h1g2" in firsts
    after_mirror = {value for value, _ in suggest(game, "d4|e4 ", 25)}
    assert after_mirror == {m for m in game.legal_moves() if m.startswith("d4|e4 ")} and len(after_mirror) == 11
    assert game.play("D4|E4 e4e6") == "d4|e4 e4e6"
