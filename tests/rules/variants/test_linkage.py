"""Linkage Chess through the public API: FIDE chess plus linkage-check, a threat to complete a line
of exactly four men through a King; checkmate or linkage-mate wins."""
import random

import chess
import pytest

import rules
from rules.variants.linkage import threats

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "linkage"


def game_at(fen=None):
    return rules.new_game(SLUG, fen=fen)


def play(*moves):
    game = game_at()
    for move in moves:
        game.play(move)
    return game


def fide_perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += fide_perft(board, depth - 1)
        board.pop()
    return total


# -- an independent, slow reading of the rule, for comparison ----------------------------------

def run_length_through(board, square, king):
    """Lengths of the unbroken runs through `square` on `board` that contain `king`."""
    lengths = []
    for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = [square]
        for sign in (1, -1):
            f, r = chess.square_file(square), chess.square_rank(square)
            while True:
                f, r = f + sign * df, r + sign * dr
                if not (0 <= f < 8 and 0 <= r < 8) or board.piece_at(chess.square(f, r)) is None:
                    break
                run.append(chess.square(f, r))
        if king in run:
            lengths.append(len(run))
    return lengths


def reference_legal(board):
    """FIDE legal moves after which no opposing pseudo-legal move (castling aside) lands where a run
    of exactly four holds the mover's King; every candidate is really pushed."""
    legal = []
    for move in board.legal_moves:
        position = board.copy(stack=False)
        position.push(move)
        king = position.king(board.turn)
        safe = True
        for reply in position.generate_pseudo_legal_moves():
            if position.is_castling(reply) or reply.to_square == king:
                continue
            probe = position.copy(stack=False)
            probe.push(reply)
            if 4 in run_length_through(probe, reply.to_square, king):
                safe = False
                break
        if safe:
            legal.append(move.uci())
    return sorted(legal)


def test_legal_moves_match_a_brute_force_reading_along_random_games():
    rng = random.Random(4)
    positions = narrowed = 0
    for _ in range(3):
        game = game_at()
        for _ in range(40):
            board = chess.Board(game.fen())
            expected = reference_legal(board)
            assert sorted(game.legal_moves()) == expected
            positions += 1
            narrowed += len(expected) < board.legal_moves.count()
            if game.outcome:
                break
            game.play(rng.choice(game.legal_moves()))
    assert positions > 60 and narrowed > 5   # the comparison met real linkage refusals


def random_crowded_board(rng):
    """A legal position with both Kings and 4-22 other men scattered at random: crowded enough
    that lines of four form all over the board, far from any opening."""
    while True:
        board = chess.Board(None)
        white_king, black_king = rng.sample(chess.SQUARES, 2)
        board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randint(4, 22)):
            square = rng.choice(chess.SQUARES)
            kind = rng.choice([chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
            if board.piece_at(square) or (kind == chess.PAWN and chess.square_rank(square) in (0, 7)):
                continue
            board.set_piece_at(square, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def reference_end(board, legal):
    """(result, reason) when the side to move has no legal move, from the brute-force reading."""
    if legal:
        return None
    winner = "0-1" if board.turn == chess.WHITE else "1-0"
    if board.is_check():
        return winner, "checkmate"
    passed = board.copy(stack=False)
    passed.turn, passed.ep_square = not board.turn, None
    king = board.king(board.turn)
    for reply in passed.generate_pseudo_legal_moves():
        if passed.is_castling(reply) or reply.to_square == king:
            continue
        probe = passed.copy(stack=False)
        probe.push(reply)
        if 4 in run_length_through(probe, reply.to_square, king):
            return winner, "linkage-mate"
    return "1/2-1/2", "stalemate"


def test_legal_moves_and_endings_match_the_brute_force_reading_in_crowded_positions():
    rng = random.Random(81)
    narrowed, endings = 0, set()
    for _ in range(120):
        board = random_crowded_board(rng)
        game = game_at(board.fen())
        expected = reference_legal(board)
        end = reference_end(board, expected)
        if end is not None:
            assert (game.outcome.result, game.outcome.reason) == end
            endings.add(end[1])
        elif chess.popcount(board.occupied) > 3:
            assert game.outcome is None
            assert sorted(game.legal_moves()) == expected
        narrowed += len(expected) < board.legal_moves.count()
    assert narrowed > 30 and {"checkmate", "linkage-mate"} <= endings


# -- men, set-up and moves are FIDE -------------------------------------------------------------

def test_start_position_and_first_moves_are_fide():
    game = game_at()
    assert game.fen() == chess.STARTING_FEN
    assert len(game.legal_moves()) == 20


@pytest.mark.parametrize("fen, counts", [
    # No line of four can form near either King within three plies: the FIDE counts.
    ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", (26, 112, 3189)),
    ("4k3/8/8/3q4/8/8/8/4K2R w K - 0 1", (13, 381, 4802)),
])
def test_perft_equals_python_chess_where_no_line_of_four_can_form(fen, counts):
    board = chess.Board(fen)
    for depth, expected in enumerate(counts, start=1):
        assert perft(game_at(fen), depth) == fide_perft(board, depth) == expected


def test_start_perft_two_loses_the_thirteen_replies_that_walk_into_a_line():
    # 400 FIDE replies minus 13: after 1 Nc3/Na3/b4, ...Nc6 and ...c6 let Nb5/b5 complete
    # e8-d7-c6-b5 (6); after 1 e3/e4 the same by Bb5 (4) and ...g6 lets Qh5 complete
    # e8-f7-g6-h5 (2); after 1 h4, ...g6 lets h5 complete it (1).
    assert perft(game_at(), 1) == 20
    assert perft(game_at(), 2) == 387
    assert fide_perft(chess.Board(), 2) == 400


def test_perft_three_from_the_start():
    assert perft(game_at(), 3) == 8171   # FIDE: 8902


# -- linkage-capture and linkage-check ----------------------------------------------------------

@pytest.mark.parametrize("fen, line", [
    ("r6k/8/8/8/8/8/7P/1BNK4 w - - 0 1", ("a1", "b1", "c1", "d1")),        # rank: Ra1
    ("7k/8/8/8/r7/7B/P6N/7K w - - 0 1", ("h1", "h2", "h3", "h4")),         # file: Rh4
    ("rnbqkbnr/pppp1ppp/4p3/8/8/6P1/PPPPPP1P/RNBQKBNR w KQkq - 0 2",
     ("e1", "f2", "g3", "h4")),                                             # diagonal: Qh4
    ("rnbqkbnr/pppp1ppp/4p3/8/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 2",
     ("b4", "c3", "d2", "e1")),                                             # diagonal: Bb4
])
def test_a_move_completing_a_line_of_four_through_the_king_is_a_linkage_check(fen, line):
    game = game_at(fen)
    assert game.view().marks == line
    assert "Linkage-check" in game.view().caption
    assert game.view().checks == ()    # linkage-check is not an ordinary check


def test_a_move_that_leaves_the_king_in_linkage_check_is_refused_with_the_line_named():
    game = play("g3", "e6")
    reason = refusal(game, "Nf3")
    assert "linkage-check" in reason and "h4-g3-f2-e1" in reason and "Qh4" in reason


def test_a_move_that_walks_into_a_linkage_check_is_refused():
    # 1 Nc3 Nc6?? would let Nb5 complete e8-d7-c6-b5.
    game = play("Nc3")
    reason = refusal(game, "Nc6")
    assert "linkage-capture" in reason and "Nb5" in reason and "b5-c6-d7-e8" in reason


def test_the_two_other_men_of_the_line_may_be_of_either_colour():
    # Black Bishop h3 and Knight h2 stand in White's h-file line: Rh4 still threatens.
    game = game_at("7k/8/8/8/r7/7b/P6n/7K w - - 0 1")
    assert game.view().marks == ("h1", "h2", "h3", "h4")
    assert sorted(game.legal_moves()) == ["h1g1", "h1h2"]


def test_a_king_may_stand_in_a_line_of_four_that_nobody_completed():
    # A Rook on e1 makes the rank five long; moving it away would leave a1-d1, which Ra1 then
    # completes. Nothing else is threatened: a quiet pawn move is fine.
    game = game_at("r6k/8/8/8/8/8/7P/1BNKR3 w - - 0 1")
    assert "h2h3" in game.legal_moves()
    assert "e1f1" not in game.legal_moves()


def test_the_mover_may_complete_a_line_through_its_own_king():
    # Only the King of the side that did not move can be linkage-captured: Nc3-b1 completes
    # a1(R)-b1(N)-c1(B)-d1(K), a line of four through White's own King, and is legal.
    game = game_at("4k3/8/8/8/8/2N5/8/R1BK4 w - - 0 1")
    game.play("Nb1")
    assert game.fen().startswith("4k3/8/8/8/8/8/8/RNBK4 b")
    assert game.outcome is None


def test_the_king_may_stand_inside_the_line():
    # Bg2-d5 would complete a8-b7-c6-d5 with the Black King third from a8 (the Bishop also
    # gives check now, along the same diagonal).
    game = game_at("rnbq1bnr/pp2p1pp/2kp1p2/8/P2p1PP1/2P5/1P1BP1BP/RN1QK1NR b KQ - 2 7")
    assert game.view().marks == ("a8", "b7", "c6", "d5")
    assert game.view().caption == "Linkage-check: Bd5 would complete the line a8-b7-c6-d5."


def test_a_move_may_give_check_and_linkage_check_at_once():
    # 5 Nd6+ checks e8 and threatens Nb5, completing b5-c6-d7-e8: only exd6 answers both.
    game = play("Na3", "g5", "Nc4", "Nh6", "Nh3", "b6", "g4", "c6", "Nd6")
    assert game.last_move_label() == "Nd6+"
    assert game.view().checks == ("e8",)
    assert game.view().marks == ("b5", "c6", "d7", "e8")
    assert game.legal_moves() == ["e7d6"]


def test_a_line_of_three_is_harmless():
    # The line is the King and three other men ("three other four units" is a typo): Rb1 would
    # make only b1-c1-d1.
    game = game_at("1r5k/8/8/8/8/8/7P/2NK4 w - - 0 1")
    assert game.view().marks == ()
    assert "h2h3" in game.legal_moves()


# -- ruling 1: only the moving man's destination counts -------------------------------------------

def test_a_line_formed_passively_by_a_man_leaving_is_harmless():
    # Black's Knight leaves e1; a1(r)-b1-c1-d1(K) is now a run of four, but no black man moved
    # into it, and none can: White is not in linkage-check and plays on freely.
    game = game_at("7k/8/8/8/8/8/7P/rBNKn3 b - - 0 1")
    game.play("Nf3")
    assert game.view().marks == ()
    assert "h2h3" in game.legal_moves()


def test_a_line_formed_passively_by_a_capture_elsewhere_is_harmless():
    # exd3 e.p. removes the d4 pawn from d4-d5-d6-d7-d8(K), leaving a run of four through the
    # White King; but the capturing pawn stands on d3, outside it. White is not in linkage-check.
    game = game_at("3K4/3n4/3b4/3r4/3Pp3/8/8/7k b - d3 0 1")
    game.play("exd3")
    assert game.fen().startswith("3K4/3n4/3b4/3r4/8/3p4/8/7k w")
    assert game.view().marks == ()
    assert sorted(game.legal_moves()) == sorted(m.uci() for m in chess.Board(game.fen()).legal_moves)


def test_uncovering_a_future_threat_is_allowed():
    # 1 g3 d5 2 c3 e6: the pawn move opens two lines; e6 itself is not in either.
    game = play("g3", "d5", "c3")
    assert "e7e6" in game.legal_moves()


# -- ruling 2: captures complete lines ------------------------------------------------------------

def test_a_capture_that_ends_in_a_line_of_four_completes_it():
    # After 1 g3 e6, 2 h4 fails: Qxh4 would stand on h4 in h4-g3-f2-e1.
    game = play("g3", "e6")
    reason = refusal(game, "h4")
    assert "Qxh4" in reason and "h4-g3-f2-e1" in reason


def test_after_1_g3_e6_white_has_exactly_f3_f4_and_g4():
    assert sorted(play("g3", "e6").legal_moves()) == ["f2f3", "f2f4", "g3g4"]


# -- ruling 3: which opposing moves threaten ------------------------------------------------------

def test_a_pinned_man_still_threatens():
    # The g6 Knight is pinned to its King by Rg1, yet Nh4 would complete h1-h2-h3-h4.
    game = game_at("6k1/8/6n1/8/8/7B/P6N/6RK w - - 0 1")
    assert game.view().marks == ("h1", "h2", "h3", "h4")
    assert "Nh4 would complete the line h4-h3-h2-h1" in refusal(game, "a3")


def test_an_en_passant_capture_threatens():
    # d2-d4 would let exd3 e.p. land on d3 in a3(K)-b3-c3-d3.
    game = game_at("k7/8/8/8/4p3/KNB5/3P4/8 w - - 0 1")
    reason = refusal(game, "d4")
    assert "exd3 would complete the line d3-c3-b3-a3" in reason


def test_a_double_step_threatens():
    # d7-d5 would complete d5-d4-d3-d2 (d6 is empty again behind it); d7-d6 would not reach.
    game = game_at("7k/3p4/8/8/3N4/3P4/3K3P/8 w - - 0 1")
    assert game.view().marks == ("d2", "d3", "d4", "d5")
    assert game.view().caption == "Linkage-check: d5 would complete the line d5-d4-d3-d2."
    assert "d5" in refusal(game, "h3")
    assert "d4c6" in game.legal_moves() and "d2e2" in game.legal_moves()


def test_a_promotion_threatens():
    game = game_at("7k/8/8/8/8/8/1p5P/2BNK3 w - - 0 1")
    assert game.view().marks == ("b1", "c1", "d1", "e1")
    assert game.view().caption == "Linkage-check: b1=Q would complete the line b1-c1-d1-e1."
    assert "h2h3" not in game.legal_moves()


def test_a_king_step_threatens_even_onto_an_attacked_square():
    # Kb1 would stand in Qb8's file, yet it completes b1-c1-d1-e1.
    game = game_at("1Q6/8/8/8/8/8/k6P/2BNK3 w - - 0 1")
    assert game.view().marks == ("b1", "c1", "d1", "e1")
    assert "Kb1" in game.view().caption
    assert "h2h3" not in game.legal_moves()


def test_castling_is_never_a_threat():
    # Black's O-O-O would put the King on c8 in c5(K)-c6-c7-c8; only the Rook's own Rc8 counts.
    board = chess.Board("r3k3/2p5/2P5/2K5/8/8/7P/8 b q - 0 1")
    moves = {t.move.uci() for t in threats(board)}
    assert "a8c8" in moves
    assert "e8c8" not in moves


# -- ruling 4: any man completes ------------------------------------------------------------------

def test_a_pawn_completes_a_line():
    # 1 h4 g6?? lets h5 complete e8-f7-g6-h5.
    game = play("h4")
    assert "h5" in refusal(game, "g6") and "g7g6" not in game.legal_moves()
    game = play("b4")
    assert "b5" in refusal(game, "Nc6")


# -- ruling 5: exactly four ------------------------------------------------------------------------

def test_a_run_of_five_is_harmless():
    # Same as the rank case but a Rook on e1 lengthens the run to five: no linkage-check.
    game = game_at("r6k/8/8/8/8/8/7P/1BNKR3 w - - 0 1")
    assert game.view().marks == ()


def test_landing_on_the_king_itself_is_an_ordinary_check_not_a_linkage():
    # Rxd1 would stand in a1-b1-c1-d1, but on the King's own square: a capture, so an ordinary
    # check and no linkage-check.
    game = game_at("3r3k/8/8/8/8/8/8/RBNK4 w - - 0 1")
    assert game.view().checks == ("d1",)
    assert game.view().marks == ()


# -- ruling 6: castling -----------------------------------------------------------------------------

def test_castling_into_a_linkage_check_is_refused():
    # After O-O, Ng4 would complete g1-g2-g3-g4.
    game = game_at("4k3/8/5n2/8/8/6P1/6P1/4K2R w K - 0 1")
    reason = refusal(game, "O-O")
    assert "Ng4" in reason and "g4-g3-g2-g1" in reason


def test_castling_out_of_a_linkage_check_is_allowed():
    game = game_at("4k3/8/5n2/8/8/4P3/4P3/4K2R w K - 0 1")
    assert game.view().marks == ("e1", "e2", "e3", "e4")
    assert game.play("O-O") == "e1g1"


def test_castling_keeps_the_fide_conditions():
    game = game_at("4kr2/8/8/8/8/8/8/4K2R w K - 0 1")
    assert "e1g1" not in game.legal_moves()
    assert refusal(game, "e1g1")


# -- how the game ends ------------------------------------------------------------------------------

def test_the_document_example_is_a_linkage_mate():
    # 1 g3 d5 2 c3 e6: Qh4 and Bb4 both threaten; every one of White's 22 FIDE moves leaves one.
    game = play("g3", "d5", "c3", "e6")
    assert len(list(chess.Board(game.fen()).legal_moves)) == 22
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("0-1", "linkage-mate")
    assert game.view().marks == ("b4", "c3", "d2", "e1", "f2", "g3", "h4")
    assert "Qh4" in game.view().caption and "Bb4" in game.view().caption
    assert refusal(game, "a3") == "The game is over."


def test_ordinary_checkmate_still_wins():
    game = play("f3", "e5", "g4", "Qh4")
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.last_move_label() == "Qh4#"


def test_check_and_linkage_check_without_a_move_is_called_checkmate():
    # Nf2 checks; FIDE allows Kg1, but Rd4 would then complete d4-e3-f2-g1; Rh4 threatens h1.
    fen = "k7/8/8/8/r7/4pp1B/5n1N/7K w - - 0 1"
    assert [m.uci() for m in chess.Board(fen).legal_moves] == ["h1g1"]
    game = game_at(fen)
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("0-1", "checkmate")


def test_no_move_and_no_check_of_either_kind_is_stalemate():
    # Kh1-h2 is White's only FIDE move, and Bf2-h4 would then complete h2-h3-h4-h5.
    fen = "k7/8/8/7n/8/7b/5b2/7K w - - 0 1"
    assert [m.uci() for m in chess.Board(fen).legal_moves] == ["h1h2"]
    game = game_at(fen)
    assert game.view().marks == ()
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


@pytest.mark.parametrize("fen", ["8/8/4k3/8/8/8/8/4K3 w - - 0 1",
                                 "8/8/4k3/8/8/8/8/2B1K3 w - - 0 1",
                                 "8/8/4k3/8/8/8/8/4K1n1 w - - 0 1"])
def test_three_men_or_fewer_without_rook_queen_or_pawn_are_dead(fen):
    assert game_at(fen).outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_bishops_of_one_colour_play_on():
    # python-chess calls this dead; four men can still form a line of four.
    fen = "8/8/4k3/8/8/8/1b6/2B1K3 w - - 0 1"
    assert chess.Board(fen).is_insufficient_material()
    game = game_at(fen)
    assert game.outcome is None


def test_repetition_is_drawn_as_in_standard_chess():
    game = game_at()
    shuffle_knights(game, 2)
    assert game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_seventy_five_moves_end_the_game_and_fifty_may_be_claimed():
    game = game_at("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")
    assert game.claimable_draw() == "50 moves without a capture or pawn move"
    game = game_at("4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
    game.play("Ra2")
    assert game.outcome == rules.Outcome("1/2-1/2", "75 moves without a capture or pawn move")


# -- notation and FEN ---------------------------------------------------------------------------

def test_fen_is_plain_and_a_seventh_field_is_refused():
    game = play("g3", "d5", "c3", "e6")
    again = game_at(game.fen())
    assert again.outcome == game.outcome
    assert len(game.fen().split()) == 6
    with pytest.raises(ValueError):
        game_at(chess.STARTING_FEN + " extra")


def test_fide_illegal_moves_keep_their_fide_reason():
    game = play("e4", "f5", "Qh5")
    assert refusal(game, "a7a6") == "You must get out of check."
