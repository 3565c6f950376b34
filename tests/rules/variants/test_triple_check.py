"""Triple Check Chess through the public API: a check must be safe, supported or non-capturing;
a check that is all three wins; a player forced to check illegally loses."""
import chess
import pytest

import rules

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "triple-check"


def game_at(fen=None):
    return rules.new_game(SLUG, fen=fen)


def after(fen, *moves):
    game = game_at(fen)
    for move in moves:
        game.play(move)
    return game


# -- the document's example ------------------------------------------------------------------

def test_document_example_bb5_is_a_winning_triple_check():
    game = after(None, "Nc3", "d5", "e4", "d4", "Bb5")
    assert game.outcome == rules.Outcome("1-0", "triple check")
    assert game.last_move_label() == "Bb5+"
    assert game.legal_moves() == []


def test_document_example_no_black_reply_reaches_b5():
    # Safe: Black's FIDE replies are c6, Nc6, Nd7, Bd7, Qd7; none captures on b5.
    board = chess.Board(after(None, "Nc3", "d5", "e4", "d4", "Bb5").fen())
    assert sorted(board.san(m) for m in board.legal_moves) == ["Bd7", "Nc6", "Nd7", "Qd7", "c6"]


def test_document_example_in_the_documents_notation():
    game = after(None, "Nc3", "d5", "e4", "d4", "Bb5+++")
    assert game.outcome == rules.Outcome("1-0", "triple check")
    game = after(None, "Nb1-c3", "d7-d5", "e2-e4", "d5-d4", "Bf1-b5+")
    assert game.outcome == rules.Outcome("1-0", "triple check")


def test_a_check_missing_one_condition_does_not_win():
    # 1 e4 d5 2 Bb5+: safe and non-capturing, but nothing defends b5.
    game = after(None, "e4", "d5", "Bb5")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["b8c6", "b8d7", "c7c6", "c8d7", "d8d7"]


def test_a_check_is_answered_as_in_fide():
    game = after(None, "e4", "d5", "Bb5")
    assert "get out of check" in refusal(game, "a7a6")


# -- which checks are allowed --------------------------------------------------------------------

def test_non_capturing_check_is_allowed_even_if_unsafe_and_unsupported():
    game = after("4k3/8/8/8/8/8/8/3R3K w - - 0 1", "Rd8")
    assert game.outcome is None
    assert "e8d8" in game.legal_moves()


def test_capturing_check_that_is_neither_safe_nor_supported_is_refused():
    # Rxe5+ can be answered by dxe5 and nothing of White's covers e5.
    game = game_at("4k3/8/3p4/4p3/8/8/8/K3R3 w - - 0 1")
    assert "e1e5" not in game.legal_moves()
    reason = refusal(game, "Rxe5")
    assert "Rook on e5" in reason and "defended" in reason


def test_capturing_check_that_is_supported_is_allowed_although_unsafe():
    game = after("4k3/8/3p4/4p3/5P2/8/8/K3R3 w - - 0 1", "Rxe5")
    assert game.outcome is None
    assert "d6e5" in game.legal_moves()


def test_capturing_check_that_is_safe_is_allowed_although_unsupported():
    game = after("4k3/8/8/4p3/8/8/8/K3R3 w - - 0 1", "Rxe5")
    assert game.outcome is None


def test_a_capturing_check_never_wins_outright():
    # Supported and safe, but a capture: the game goes on.
    game = after("4k3/8/8/4p3/5P2/8/8/K3R3 w - - 0 1", "Rxe5")
    assert game.outcome is None


def test_en_passant_is_a_capture_for_the_conditions():
    # exd6 e.p. checks e7; Kxd6 can take the pawn and nothing defends d6.
    game = after("8/3pk3/8/4P3/8/8/8/K7 b - - 0 1", "d5")
    assert "e5d6" not in game.legal_moves()
    assert "pawn on d6" in refusal(game, "exd6")
    supported = after("8/3pk3/8/4P3/8/8/8/K2R4 b - - 0 1", "d5")
    assert "e5d6" in supported.legal_moves()


def test_safe_counts_en_passant_captures_of_the_checker():
    # ...d5+ is defended by c6 and captures nothing; exd6 e.p. takes the checker, so it is not
    # safe and does not win. Without the e5 pawn the same check is a triple check.
    game = after("4k3/3p4/2p5/4P3/4K3/8/8/8 b - - 0 1", "d5")
    assert game.outcome is None
    assert "e5d6" in game.legal_moves()
    game = after("4k3/3p4/2p5/8/4K3/8/8/8 b - - 0 1", "d5")
    assert game.outcome == rules.Outcome("0-1", "triple check")


# -- ruling 1: "legal" in "safe" is FIDE-legal ---------------------------------------------------

def test_safe_ignores_whether_the_capture_would_itself_be_a_permitted_check():
    # ...Re1+ is supported by Bh4 and captures nothing, but Rxe1 is FIDE-legal, so it is not safe
    # and not a triple check. White's only move Rxe1+ is then an illegal check: Black wins that way.
    game = after("4k3/8/8/8/7b/8/4r1PP/2R4K b - - 0 1", "Re1")
    assert game.outcome == rules.Outcome("0-1", "forced to give an illegal check")
    assert game.outcome.kind == rules.Ending.NO_MOVE   # no legal move loses (ruling 5)
    assert game.legal_moves() == []


# -- ruling 2: who gives check -------------------------------------------------------------------

def test_castling_checks_with_the_rook_and_can_be_a_triple_check():
    # O-O: the Rook on f1 checks f8, is defended by the King on g1 and cannot be taken.
    game = after("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O")
    assert game.outcome == rules.Outcome("1-0", "triple check")


def test_a_promotion_checks_with_the_new_piece():
    # bxa8=Q+ captures and the Knight on b6 can take the new Queen: refused. b8=Q+ is fine.
    game = game_at("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1")
    assert "Queen on a8" in refusal(game, "bxa8=Q")
    assert "b7a8n" in game.legal_moves()     # a Knight on a8 gives no check
    game.play("b8=Q")
    assert game.outcome is None


def test_a_discovered_check_is_judged_on_the_uncovered_man():
    # Bxf7+ uncovers the Rook on e1: the Rook is safe, but the capturing Bishop is undefended
    # and the King can take it, so the double check is refused.
    game = game_at("4k3/5p2/4B3/8/8/8/8/K3R3 w - - 0 1")
    assert "Bishop on f7" in refusal(game, "Bxf7")


# -- ruling 3: double check -----------------------------------------------------------------------

def test_double_check_is_allowed_when_each_checker_meets_a_condition():
    # As above, with the Knight on g5 defending f7.
    game = after("4k3/5p2/4B3/6N1/8/8/8/K3R3 w - - 0 1", "Bxf7")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["e8d7", "e8d8", "e8f8"]


# -- ruling 4: supported is geometric ------------------------------------------------------------

def test_the_king_counts_as_a_defender():
    game = after("4k3/8/3p1K2/4p3/8/8/8/4R3 w - - 0 1", "Rxe5")
    assert game.outcome is None


def test_a_pinned_man_still_defends():
    # The Knight on d3 is pinned to the King on b1 by the Bishop on g6; it still counts as
    # defending e5, so Rxe5+ (which dxe5 can answer) is allowed.
    game = after("4k3/8/3p2b1/4p3/8/3N4/8/1K2R3 w - - 0 1", "Rxe5")
    assert game.outcome is None
    assert "d6e5" in game.legal_moves()


# -- the end (ruling 5, 6) -------------------------------------------------------------------------

def test_player_in_check_whose_only_escape_is_an_illegal_check_loses():
    game = game_at("4k3/8/8/8/7b/8/6PP/2R1r2K w - - 0 1")
    assert game.outcome == rules.Outcome("0-1", "forced to give an illegal check")


def test_player_not_in_check_whose_only_moves_are_illegal_checks_loses():
    # gxf3+ is the pinned pawn's only move and the King is boxed in; f3 is unsupported and
    # Kxf3 is legal.
    game = game_at("8/8/8/8/6k1/5b2/4n1P1/5n1K w - - 0 1")
    assert chess.Board(game.fen()).legal_moves.count() == 1
    assert game.outcome == rules.Outcome("0-1", "forced to give an illegal check")


def test_checkmate_is_named_before_triple_check():
    # Ra8#: non-capturing, defended by Ra1, and mate.
    game = after("6k1/5ppp/8/8/8/8/R7/R5K1 w - - 0 1", "Ra8")
    assert game.outcome == rules.Outcome("1-0", "checkmate")
    assert game.last_move_label() == "Ra8#"


def test_triple_check_is_decided_before_the_replies_are_looked_at():
    # Qe1+ is defended by Nf3, cannot be taken and captures nothing. Black's one FIDE reply,
    # Kxf3, would uncover an illegal check by Rd2 (Qxd2 takes it), but the triple check wins first.
    game = after("8/6r1/4Q3/8/8/1r3N2/3r1k1K/8 w - - 0 1", "Qe1")
    assert game.outcome == rules.Outcome("1-0", "triple check")
    board = chess.Board(game.fen())
    assert [board.san(m) for m in board.legal_moves] == ["Kxf3+"]


def test_checkmate_wins_with_fewer_conditions():
    game = after(None, "f3", "e5", "g4", "Qh4")
    assert game.outcome == rules.Outcome("0-1", "checkmate")


def test_stalemate_is_a_draw():
    assert game_at("k7/8/1Q6/8/8/8/8/7K b - - 0 1").outcome == rules.Outcome("1/2-1/2", "stalemate")


@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/3B4/8/4K3 w - - 0 1",
                                 "k7/8/1K2N3/8/8/8/8/8 w - - 0 1"])
def test_dead_positions_are_drawn_as_in_standard_chess(fen):
    # The ruling keeps the standard slug's dead-position test (python-chess's material test).
    assert game_at(fen).outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_a_triple_check_is_judged_before_the_material_draw():
    # c8=B+ leaves K+B against K, but it is non-capturing, defended by Kd7 and out of reach.
    game = after("8/2PK4/k7/8/8/8/8/8 w - - 0 1", "c8=B")
    assert game.outcome == rules.Outcome("1-0", "triple check")


def test_fivefold_repetition_draws():
    game = game_at()
    shuffle_knights(game, 4)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


# -- FEN ------------------------------------------------------------------------------------------

def test_a_triple_check_by_a_piece_is_read_off_a_plain_fen():
    # The half-move clock (1) shows that Bb5 captured nothing, so the plain FEN is enough.
    game = after(None, "Nc3", "d5", "e4", "d4", "Bb5")
    assert game.fen() == "rnbqkbnr/ppp1pppp/8/1B6/3pP3/2N5/PPPP1PPP/R1BQK1NR b KQkq - 1 3"
    assert game_at(game.fen()).outcome == rules.Outcome("1-0", "triple check")


def test_a_triple_check_by_a_pawn_move_is_marked_in_field_seven():
    # After a pawn move the clock is 0, as after a capture: the FEN carries the win.
    game = after("4k3/3p4/2p5/8/4K3/8/8/8 b - - 0 1", "d5")
    assert game.fen() == "4k3/8/2p5/3p4/4K3/8/8/8 w - - 0 2 triple-check"
    assert game_at(game.fen()).outcome == rules.Outcome("0-1", "triple check")
    game.undo()
    assert game.fen() == "4k3/3p4/2p5/8/4K3/8/8/8 b - - 0 1"


def test_a_plain_fen_with_the_clock_at_zero_does_not_count_a_triple_check():
    assert game_at("4k3/8/2p5/3p4/4K3/8/8/8 w - - 0 2").outcome is None


def test_a_plain_fen_with_a_check_missing_a_condition_plays_on():
    fen = after(None, "e4", "d5", "Bb5").fen()
    assert fen == "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2"
    assert game_at(fen).outcome is None


@pytest.mark.parametrize("field", ["won", "triple-check extra"])
def test_bad_field_seven_is_refused(field):
    with pytest.raises(ValueError):
        game_at("rnbqkbnr/ppp1pppp/8/1B6/3pP3/2N5/PPPP1PPP/R1BQK1NR b KQkq - 1 3 " + field)


def test_triple_check_field_needs_a_king_in_check():
    with pytest.raises(ValueError, match="not in check"):
        game_at(chess.STARTING_FEN + " triple-check")


# -- move counts -----------------------------------------------------------------------------------

def test_perft_from_the_start_matches_python_chess():
    # No capturing check is possible in the first three plies.
    assert [perft(game_at(), d) for d in (1, 2, 3)] == [20, 400, 8902]


def test_perft_drops_exactly_the_illegal_checks():
    # Kiwipete: python-chess counts 48 and 2039. After Kf1, ...Bxe2+ (Nxe2 takes back, nothing
    # of Black's covers e2) and ...hxg2+ (Qxg2); after Kd1, ...Bxe2+: three refused replies.
    game = game_at("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert [perft(game, d) for d in (1, 2)] == [48, 2036]


def test_perft_in_a_rook_ending():
    # python-chess: 14, 191. Ten White moves let ...Rxb5+ be answered by Kxb5 with b5 undefended.
    game = game_at("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
    assert [perft(game, d) for d in (1, 2)] == [14, 181]
