"""Contravention Chess through the public API: a player not in check may check his own King with
a piece; the opponent must remove that check at once or lose; no legal move loses."""
import chess
import pytest

import rules

from .support import refusal, shuffle_knights
from tests.rules.variants.support import perft

SLUG = "contravention"
EXAMPLE = ["d3", "d5", "e4", "dxe4", "dxe4", "Kd7"]


def game_at(fen=None):
    return rules.new_game(SLUG, fen=fen)


def after(fen, *moves):
    game = game_at(fen)
    for move in moves:
        game.play(move)
    return game


def sans(game):
    board = chess.Board(" ".join(game.fen().split()[:6]))
    return sorted(board.san(chess.Move.from_uci(m)) for m in game.legal_moves())


# -- the document's example ------------------------------------------------------------------

def test_document_example_kd7_checks_blacks_own_king():
    game = after(None, *EXAMPLE)
    assert game.outcome is None
    assert game.last_move_label() == "Kd7+"
    assert game.view().checks == ("d7",)


def test_document_example_white_has_exactly_seven_ways_to_remove_the_check():
    # Block on d2 (Nd2, Bd2, Kd2) or d3 (Bd3), or take the Queen off the d-file without
    # looking at d7 again (Qe2, Qf3, Qh5).
    assert sans(after(None, *EXAMPLE)) == ["Bd2", "Bd3", "Kd2", "Nd2", "Qe2", "Qf3", "Qh5"]


def test_a_move_that_leaves_the_self_check_in_place_is_refused():
    game = after(None, *EXAMPLE)
    assert "must leave it attacked by none of your men" in refusal(game, "a3")


# -- rule: self-check by a piece, when not in check (ruling 1) ----------------------------------

def test_king_may_step_into_the_line_of_a_rook():
    game = after("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", "Kd7")
    assert game.outcome is None
    assert game.view().checks == ("d7",)


def test_uncovering_a_line_to_ones_own_king_is_a_self_check():
    # Bd6 opens the e-file to the Rook on e1; White must then close it or leave it.
    game = after("4k3/4b3/8/8/8/8/8/4RK2 b - - 0 1", "Bd6")
    assert game.outcome is None
    assert "e1e2" not in game.legal_moves()      # still on the file
    assert {"e1a1", "e1d1", "f1e2"} <= set(game.legal_moves())


def test_an_en_passant_capture_may_uncover_a_self_check():
    # bxc6 e.p. clears b5 and c5: the Rook on h5 then attacks the King on a5 (python-chess
    # refuses this capture). The FEN keeps c6 because the capture is legal here.
    game = after("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1", "c5")
    assert game.fen().split()[3] == "c6"
    game.play("bxc6")
    assert sorted(game.legal_moves()) == ["h5h1", "h5h2", "h5h3", "h5h4", "h5h6", "h5h7", "h5h8"]


def test_self_check_by_a_pawn_is_refused():
    game = game_at("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1")
    assert "never by a pawn or King" in refusal(game, "Ke2")


def test_self_check_by_the_enemy_king_is_refused():
    game = game_at("8/8/8/8/8/4k3/8/4K3 w - - 0 1")
    assert "never by a pawn or King" in refusal(game, "Ke2")
    assert sorted(game.legal_moves()) == ["e1d1", "e1f1"]


# -- rule: the opponent must remove the check or lose (ruling 3) --------------------------------

def test_a_new_attack_by_the_same_man_on_another_line_is_no_removal():
    # Qg4 leaves the d-file but attacks d7 along the diagonal.
    game = after(None, *EXAMPLE)
    assert "must leave it attacked" in refusal(game, "Qg4")


def test_stepping_into_a_double_attack_wins_when_no_reply_cuts_both_lines():
    # Ke4 walks into the Rook on a4 and the Bishop on h7: no White move removes both.
    game = after("8/7B/8/4k3/R7/8/8/K7 b - - 0 1", "Ke4")
    assert game.outcome == rules.Outcome("0-1", "cannot remove the check")
    assert game.outcome.kind == rules.Ending.NO_MOVE   # no legal move loses (ruling 8): not a goal
    assert game.view().checks == ("e4",)


# -- rule: not on two turns in a row (ruling 2) ---------------------------------------------------

def test_no_second_self_check_on_the_next_turn():
    game = after("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", "Kd7", "Rc1")
    assert game.fen().endswith(" sc")
    assert "two turns in a row" in refusal(game, "Kc7")


def test_no_second_self_check_by_uncovering_a_line_either():
    game = game_at("4k3/4b3/8/8/8/8/8/4RK2 b - - 0 1 sc")
    assert "two turns in a row" in refusal(game, "Bd6")


def test_self_check_is_allowed_again_after_a_turn_without_one():
    game = after("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", "Kd7", "Rc1", "Kd6", "Kf2")
    assert not game.fen().endswith(" sc")
    game.play("Kc5")    # into the c-file again
    assert game.view().checks == ("c5",)


# -- castling (ruling 5) --------------------------------------------------------------------------

def test_castling_may_end_on_a_square_attacked_by_a_piece():
    game = after("4k3/b7/8/8/8/8/8/4K2R w K - 0 1", "O-O")
    assert game.fen().split()[0] == "4k3/b7/8/8/8/8/8/5RK1"
    assert game.legal_moves() == ["a7b8"]    # the Bishop leaves the diagonal (b8 only)


def test_castling_may_not_end_on_a_square_a_pawn_attacks():
    game = game_at("4k3/8/8/8/8/8/7p/4K2R w K - 0 1")
    assert "never by a pawn or King" in refusal(game, "O-O")


def test_castling_may_not_cross_an_attacked_square():
    assert "through f1" in refusal(game_at("5rk1/8/8/8/8/8/8/4K2R w K - 0 1"), "O-O")


def test_a_pawn_attack_on_the_crossed_square_also_stops_castling():
    assert "through f1" in refusal(game_at("4k3/8/8/8/8/8/6p1/4K2R w K - 0 1"), "e1g1")


def test_castling_out_of_check_is_refused():
    assert "in check" in refusal(game_at("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1"), "O-O-O")


def test_the_rook_may_cross_an_attacked_square():
    game = after("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O")
    assert game.fen().split()[0] == "1r2k3/8/8/8/8/8/8/2KR4"


def test_castling_needs_its_rights():
    game = game_at("4k3/b7/8/8/8/8/8/4K2R w - - 0 1")
    assert "e1g1" not in game.legal_moves()
    refusal(game, "O-O")


# -- a player in ordinary check (ruling 6) ----------------------------------------------------------

def test_a_king_in_check_may_not_flee_into_another_attack():
    # Ra8+ checks; Ke7 would escape the Rook but step into the Bishop on b4.
    game = game_at("R3k3/8/8/8/1B6/8/8/4K3 b - - 0 1")
    assert "get out of check" in refusal(game, "Ke7")
    assert sorted(game.legal_moves()) == ["e8d7", "e8f7"]


def test_ordinary_checkmate_loses():
    game = after(None, "f3", "e5", "g4", "Qh4")
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.last_move_label() == "Qh4#"


# -- a self-check that also checks (ruling 7) ---------------------------------------------------

def test_self_check_that_also_checks_must_be_answered_both_ways_at_once():
    # Bd4+ checks g1 and uncovers Re1 on e8: only Ne3 blocks both lines.
    game = after("4k3/8/8/4b3/8/8/8/3NR1K1 b - - 0 1", "Bd4")
    assert game.legal_moves() == ["d1e3"]
    assert set(game.view().checks) == {"g1", "e8"}


def test_self_check_that_also_checks_wins_when_no_reply_does_both():
    game = after("4k3/8/8/4b3/8/8/8/4R1K1 b - - 0 1", "Bd4")
    assert game.outcome == rules.Outcome("0-1", "checkmate")


# -- kings are never captured (ruling 4) --------------------------------------------------------

def test_capturing_the_self_checked_king_is_not_a_move():
    game = after(None, *EXAMPLE)
    assert "d1d7" not in game.legal_moves()
    assert "never captured" in refusal(game, "Qxd7")


# -- no legal move loses (ruling 8) ----------------------------------------------------------------

def test_a_player_without_a_legal_move_loses():
    # a7 is guarded by the King, b7 by the King, b8 by the pawn: no piece attacks any of them.
    game = game_at("k7/P7/1K6/8/8/8/8/8 b - - 0 1")
    assert game.outcome == rules.Outcome("1-0", "no legal move")


def test_a_chess_stalemate_is_no_stalemate_when_the_king_may_step_into_a_piece():
    game = game_at("k7/8/1Q6/8/8/8/8/7K b - - 0 1")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["a8a7", "a8b7", "a8b8"]


# -- FEN (ruling 9) ---------------------------------------------------------------------------------

def test_a_plain_fen_is_read_with_the_side_not_to_move_self_checked():
    fen = "rnbq1bnr/pppkpppp/8/8/4P3/8/PPP2PPP/RNBQKBNR w KQ - 1 4"
    game = game_at(fen)
    assert game.fen() == fen
    assert sans(game) == sans(after(None, *EXAMPLE))


def test_the_flag_is_written_as_field_seven_and_round_trips():
    game = after(None, *EXAMPLE, "Qh5")
    assert game.fen() == "rnbq1bnr/pppkpppp/8/7Q/4P3/8/PPP2PPP/RNB1KBNR b KQ - 2 4 sc"
    assert sorted(game_at(game.fen()).legal_moves()) == sorted(game.legal_moves())


def test_undo_restores_the_flag():
    game = after(None, *EXAMPLE, "Qh5")
    game.undo()
    assert game.fen() == "rnbq1bnr/pppkpppp/8/8/4P3/8/PPP2PPP/RNBQKBNR w KQ - 1 4"
    game.play("Qh5")
    assert game.fen().endswith(" sc")


@pytest.mark.parametrize("field", ["SC", "sc sc", "1"])
def test_bad_field_seven_is_refused(field):
    with pytest.raises(ValueError):
        game_at("4k3/8/8/8/8/8/8/3RK3 b - - 0 1 " + field)


def test_a_fen_where_the_last_mover_is_checked_by_a_pawn_is_refused():
    with pytest.raises(ValueError, match="pawn or King"):
        game_at("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1")


def test_the_flag_is_refused_when_the_side_to_move_is_in_check():
    with pytest.raises(ValueError, match="out of check"):
        game_at("4k3/8/8/8/8/8/8/R3K2r w - - 0 1 sc")


# -- draws (ruling 10) -----------------------------------------------------------------------------

@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1"])
def test_no_draw_for_lack_of_material(fen):
    assert game_at(fen).outcome is None


def test_fivefold_repetition_draws():
    game = game_at()
    shuffle_knights(game, 4)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_positions_differing_only_in_the_flag_are_not_repetitions():
    # After Kd7 Rc1 Black stands on d7 barred from a self-check (flag set); each later Ke7 Rb1
    # Kd7 Rc1 brings back the same men, but with the flag unset.
    game = after("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", "Kd7", "Rc1")
    assert game.fen().endswith(" sc")
    for move in ["Ke7", "Rb1", "Kd7", "Rc1"] * 2:
        game.play(move)
    assert game.fen() == "8/3k4/8/8/8/8/8/2R1K3 b - - 10 6"
    assert game.claimable_draw() is None          # twice, not three times
    for move in ["Ke7", "Rb1", "Kd7", "Rc1"]:
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"


def test_a_start_position_saved_with_the_flag_differs_from_its_return_without_it():
    # White starts barred from a self-check ("sc"); after Ra2 Kd8 Ra1 Ke8 the same men return
    # with White free to self-check: another position, so eight plies make only two repetitions.
    game = game_at("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 sc")
    for move in ["Ra2", "Kd8", "Ra1", "Ke8"] * 2:
        game.play(move)
    assert game.fen() == "4k3/8/8/8/8/8/8/R3K3 w - - 8 5"
    assert game.claimable_draw() is None
    for move in ["Ra2", "Kd8", "Ra1", "Ke8"]:
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"


def test_document_example_in_the_documents_own_long_notation():
    game = after(None, "d3", "d5", "e4", "d5xe4", "d3xe4", "Kd7+")
    assert game.history == ["d2d3", "d7d5", "e2e4", "d5e4", "d3e4", "e8d7"]
    assert sans(game) == ["Bd2", "Bd3", "Kd2", "Nd2", "Qe2", "Qf3", "Qh5"]


def test_an_en_passant_square_no_legal_capture_can_use_does_not_make_a_position_new():
    # d4 uncovers the Bishop on a5 against White's King (a self-check); ...exd3 e.p. would not
    # remove it, so it is no legal move and the position after d4 is the same as after each later
    # Bb6 Kf1 Ba5 Ke1: three times after eight more plies.
    game = after("7k/8/8/b7/4p3/8/3P4/4K3 w - - 0 1", "d4")
    assert "e4d3" not in game.legal_moves()
    for move in ["Bb6", "Kf1", "Ba5", "Ke1"]:
        game.play(move)
    assert game.claimable_draw() is None
    for move in ["Bb6", "Kf1", "Ba5", "Ke1"]:
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"


def test_an_en_passant_capture_that_is_legal_makes_the_position_new():
    # Without the Bishop's line, ...exd3 e.p. is legal after d4: that position never returns.
    game = after("7k/8/8/b7/4p3/8/3P4/5K2 w - - 0 1", "d4")
    assert "e4d3" in game.legal_moves()
    for move in ["Bb6", "Ke1", "Ba5", "Kf1"] * 2:
        game.play(move)
    assert game.claimable_draw() is None
    for move in ["Bb6", "Ke1", "Ba5", "Kf1"]:
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"


# -- move counts ------------------------------------------------------------------------------------

def test_perft_from_the_start_matches_python_chess():
    # No self-check is possible in the first three plies.
    assert [perft(game_at(), d) for d in (1, 2, 3)] == [20, 400, 8902]


def test_perft_adds_the_self_checks_to_python_chess_counts():
    # Kiwipete: python-chess 48, 2039. Six Black replies are added: Kd8 after Nf7 or Nc6, Kf8
    # after Nd7 or Ng6 (into the Knight), O-O-O onto c8 after Bxa6, and d6 after Bb5 (opens the
    # diagonal to e8).
    game = game_at("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert [perft(game, d) for d in (1, 2)] == [48, 2045]


def test_perft_in_a_rook_ending():
    # python-chess 14, 191. b6 uncovers the Rook on h5 against Ka5 (+1); Black must then move
    # the Rook off the fifth rank or block it (c5, d5, Kg5): 6 replies. Elsewhere Black gains 11
    # self-checks: pawn or King moves that open the fourth rank to the Rook on b4 (or the third
    # after Rb3), e.g. ...f3 after Ka6.
    game = game_at("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
    assert [perft(game, d) for d in (1, 2)] == [15, 208]
