"""Ultimate Chess through the public API: FIDE moves; what counts as mate depends on the checker."""
import chess
import pytest

import rules

from .support import shuffle_knights

SLUG = "ultimate"


def game_at(fen=None):
    return rules.new_game(SLUG, fen=fen)


def after(fen, *moves):
    game = game_at(fen)
    for move in moves:
        game.play(move)
    return game


def white_wins(reason):
    return rules.Outcome("1-0", reason)


# -- moves are FIDE ----------------------------------------------------------------------------

def test_moves_are_fide_from_the_start():
    game = game_at()
    assert game.fen() == chess.STARTING_FEN
    assert len(game.legal_moves()) == 20


@pytest.mark.parametrize("fen", [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
])
def test_legal_moves_are_python_chess_legal_moves(fen):
    board = chess.Board(fen)
    assert sorted(game_at(fen).legal_moves()) == sorted(m.uci() for m in board.legal_moves)


def test_moves_may_be_typed_in_long_notation():
    game = after(None, "e2-e4", "d7-d5", "e4xd5", "Ng8-f6")
    assert game.history == ["e2e4", "d7d5", "e4d5", "g8f6"]
    assert game.fen() == "rnbqkb1r/ppp1pppp/5n2/3P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 1 3"


def test_a_check_must_be_answered_as_in_fide():
    # Qa4+ checks along a4-e8: Kd7 stays on that line and is refused.
    game = after("4k3/8/8/8/8/8/8/Q6K w - - 0 1", "Qa4")
    with pytest.raises(rules.IllegalMove, match="check"):
        game.play("e8d7")
    assert game.history == ["a1a4"]


def test_ordinary_checkmate_wins():
    game = after(None, "f3", "e5", "g4", "Qh4")
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.last_move_label() == "Qh4#"


# -- (a) a pawn check is mate --------------------------------------------------------------------

def test_any_pawn_check_wins_even_when_the_pawn_can_be_taken():
    game = after("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d7")
    assert game.outcome == white_wins("pawn check")
    assert game.legal_moves() == []


def test_black_pawn_check_wins_for_black():
    game = after("4k3/8/8/8/8/3p4/8/4K3 b - - 0 1", "d2")
    assert game.outcome == rules.Outcome("0-1", "pawn check")


def test_a_pawn_move_that_uncovers_a_queen_check_is_not_a_pawn_check():
    # exd3 opens the e-file: the Queen checks (ruling 1), and the King has four squares.
    game = after("4k3/8/8/8/8/3p4/4P3/4Q2K w - - 0 1", "exd3")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["e8d7", "e8d8", "e8f7", "e8f8"]


# -- (b) a forcing Knight check ---------------------------------------------------------------------

def test_knight_check_with_one_legal_reply_wins():
    # Nc7+: a7 and b7 are covered by Kb6, so Kb8 is the only reply.
    game = after("k7/8/1K2N3/8/8/8/7P/8 w - - 0 1", "Nc7")
    assert game.outcome == white_wins("forcing Knight check")


def test_knight_check_with_several_replies_plays_on():
    game = after("k7/8/4N3/2K5/8/8/7P/8 w - - 0 1", "Nc7")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["a8a7", "a8b7", "a8b8"]


def test_the_single_reply_may_be_a_capture_of_the_knight():
    # Nb6+: the King is boxed in by its own men; axb6 is the only reply (ruling 5).
    game = after("kb6/pp6/8/3N4/8/8/8/K7 w - - 0 1", "Nb6")
    assert game.outcome == white_wins("forcing Knight check")


# -- (c) a Bishop check the King must walk away from ----------------------------------------------

def test_bishop_check_answered_only_by_king_moves_wins():
    game = after("4k3/8/8/8/8/3B4/7P/4K3 w - - 0 1", "Bb5")
    assert game.outcome == white_wins("Bishop check")


def test_bishop_check_that_can_be_blocked_plays_on():
    game = after("1n2k3/8/8/8/8/3B4/8/4K3 w - - 0 1", "Bb5")
    assert game.outcome is None
    assert {"b8c6", "b8d7"} <= set(game.legal_moves())


def test_bishop_check_the_king_can_take_back_plays_on():
    game = after("4k3/8/4B3/8/8/8/7P/4K3 w - - 0 1", "Bf7")
    assert game.outcome is None
    assert "e8f7" in game.legal_moves()


def test_bishop_check_another_man_can_capture_plays_on():
    game = after("4k3/8/8/8/8/n2B4/8/4K3 w - - 0 1", "Bb5")
    assert game.outcome is None
    assert "a3b5" in game.legal_moves()


def test_king_capturing_another_man_still_counts_as_walking_away():
    # Bb5+: Kxe7 takes the Knight, not the Bishop (ruling 3).
    game = after("4k3/4N3/8/8/8/3B4/8/4K3 w - - 0 1", "Bb5")
    assert game.outcome == white_wins("Bishop check")


def test_a_pinned_man_cannot_block_so_the_bishop_check_wins():
    # The Knight on e7 could block on d7 but is pinned by the Rook on e1: only King moves remain.
    game = after("4k3/4n3/8/8/8/3B4/8/4R2K w - - 0 1", "Bb5")
    assert game.outcome == white_wins("Bishop check")


# -- (d) a Rook check that drives the King away from its men ----------------------------------------

def test_rook_check_leaving_the_king_only_isolated_squares_wins():
    game = after("4k3/p7/8/8/8/8/8/R6K w - - 0 1", "Re1")
    assert game.outcome == white_wins("Rook check")


def test_rook_check_with_a_friendly_man_next_to_a_flight_square_plays_on():
    # Kd7 and Kd8 would stand next to the pawn on c7.
    game = after("4k3/2p5/8/8/8/8/8/R6K w - - 0 1", "Re1")
    assert game.outcome is None


def test_rook_check_that_can_be_blocked_plays_on():
    game = after("4k3/8/8/6n1/8/8/8/R6K w - - 0 1", "Re1")
    assert game.outcome is None
    assert {"g5e4", "g5e6"} <= set(game.legal_moves())


def test_king_taking_the_rook_is_a_king_move_and_must_also_be_isolated():
    # Re7+: Kxe7, Kd8 and Kf8 all land away from any black man (ruling 4).
    game = after("4k3/7R/8/8/8/8/8/7K w - - 0 1", "Re7")
    assert game.outcome == white_wins("Rook check")


def test_the_kings_own_square_is_not_a_neighbour_after_it_moves():
    # The pawn on a7 is far away; the empty e8 is next to every flight square.
    game = after("4k3/p7/8/8/8/8/8/R6K w - - 0 1", "Re1")
    assert game.outcome == white_wins("Rook check")


# -- the Queen and the promoted man -------------------------------------------------------------

def test_queen_check_is_mate_only_as_ordinary_checkmate():
    game = after("4k3/8/8/8/8/8/8/Q6K w - - 0 1", "Qa4")
    assert game.outcome is None


def test_a_promoted_man_checks_as_its_new_kind():
    # b8=Q+ leaves the King e7, d7, f7; b8=R+ checks as a Rook with only isolated flights.
    assert after("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q").outcome is None
    assert after("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=R").outcome == white_wins("Rook check")


# -- double check (ruling 2) ------------------------------------------------------------------------

def test_double_check_wins_if_any_checker_meets_its_condition():
    # Nb6+ uncovers the Rook on a1. Kb8 is the only reply (Knight condition holds); it lands next
    # to the Bishop on c8, so the Rook's condition alone would not.
    game = after("k1b5/8/2K5/8/N7/8/8/R7 w - - 0 1", "Nb6")
    assert game.outcome == white_wins("forcing Knight check")


def test_a_win_from_the_fen_alone_reloads_as_won():
    game = after("4k3/p7/8/8/8/8/8/R6K w - - 0 1", "Re1")
    assert game_at(game.fen()).outcome == game.outcome


# -- draws ----------------------------------------------------------------------------------------

def test_stalemate_is_a_draw():
    assert game_at("k7/8/1Q6/8/8/8/8/7K b - - 0 1").outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_bare_kings_are_a_dead_draw():
    game = after("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kxd2")
    assert game.outcome == rules.Outcome("1/2-1/2", "insufficient material")


@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/3B4/8/4K3 w - - 0 1", "k7/8/1K2N3/8/8/8/8/8 w - - 0 1",
                                 "4kb2/8/8/8/8/8/8/2B1K3 b - - 0 1"])
def test_dead_positions_are_drawn_as_in_standard_chess(fen):
    # The ruling keeps the standard slug's dead-position test (python-chess's material test).
    assert game_at(fen).outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_a_winning_check_is_judged_before_the_material_draw():
    # c8=B+ leaves K+B against K, but only King moves that do not take the Bishop.
    game = after("8/2PK4/k7/8/8/8/8/8 w - - 0 1", "c8=B")
    assert game.outcome == white_wins("Bishop check")


def test_a_pawn_is_material_enough_to_play_on():
    assert game_at("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").outcome is None


def test_fivefold_repetition_draws():
    game = game_at()
    shuffle_knights(game, 4)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")
