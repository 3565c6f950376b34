"""Twilight Chess through the public API: five ways to win, FIDE moves and check otherwise."""
import pytest

import rules

from .support import shuffle_knights

SLUG = "twilight"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def test_setup_and_moves_are_fide():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert len(game.legal_moves()) == 20
    assert game.play("e4") == "e2e4" and game.play("Nf6") == "g8f6"


def test_legal_move_count_includes_fide_castling():
    game = game_at("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    # Rook a1: a2-a8 (7) + b1, c1, d1 (3) = 10; King e1: d1, d2, e2, f2, f1 (5); O-O-O (1) -> 16.
    assert len(game.legal_moves()) == 16
    assert "e1c1" in game.legal_moves()


def test_checks_must_be_answered_as_in_fide():
    game = game_at("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    # In check from e2: Kxe2 (e2 is not defended), Kd1, Kf1; d2 and f2 are on the rook's rank.
    assert sorted(game.legal_moves()) == ["e1d1", "e1e2", "e1f1"]
    with pytest.raises(rules.IllegalMove, match="check"):
        game.play("e1d2")


def test_checkmate_wins():
    game = rules.new_game(SLUG)
    for move in ["f3", "e5", "g4", "Qh4"]:
        game.play(move)
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.view().checks == ("e1",)
    assert game.legal_moves() == []


def test_stalemating_the_opponent_wins():
    game = game_at("k7/8/8/2Q5/8/8/8/7K w - - 0 1")
    game.play("Qb6")
    assert game.outcome == rules.Outcome("1-0", "stalemate")


def test_a_stalemated_position_from_a_fen_is_already_won_by_the_side_not_to_move():
    assert game_at("k7/8/1Q6/8/8/8/8/7K b - - 0 1").outcome == rules.Outcome("1-0", "stalemate")


def test_capturing_the_last_pawn_wins():
    game = game_at("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    game.play("exd5")
    assert game.outcome == rules.Outcome("1-0", "last pawn")
    assert game.legal_moves() == []


def test_capturing_a_pawn_that_is_not_the_last_does_not_win():
    game = game_at("4k3/7p/8/3p4/4P3/8/8/4K3 w - - 0 1")
    game.play("exd5")
    assert game.outcome is None


def test_en_passant_capture_of_the_last_pawn_wins():
    game = game_at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert game.play("exd6") == "e5d6"
    assert game.outcome == rules.Outcome("1-0", "last pawn")


def test_capturing_the_last_knight_or_bishop_wins():
    game = game_at("4k3/p7/8/3n4/8/8/P7/3RK3 w - - 0 1")
    game.play("Rxd5")
    assert game.outcome == rules.Outcome("1-0", "all Knights and Bishops")


def test_capturing_a_knight_while_a_bishop_remains_does_not_win():
    game = game_at("4k3/p4b2/8/3n4/8/8/P7/3RK3 w - - 0 1")
    game.play("Rxd5")
    assert game.outcome is None


def test_capturing_the_last_queen_or_rook_wins():
    game = game_at("3rk3/p7/8/8/8/8/P7/3QK3 w - - 0 1")
    game.play("Qxd8+")
    assert game.outcome == rules.Outcome("1-0", "all Queens and Rooks")


def test_answering_check_with_an_eliminating_capture_wins_for_the_checked_player():
    game = game_at("4k3/p7/2n5/4R3/8/8/P7/4K3 b - - 0 1")
    game.play("Nxe5")
    assert game.outcome == rules.Outcome("0-1", "all Queens and Rooks")


def test_king_taking_the_checking_last_rook_wins():
    game = game_at("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    game.play("Kxe2")
    assert game.outcome == rules.Outcome("1-0", "all Queens and Rooks")


def test_an_already_empty_group_in_a_fen_decides_nothing():
    # Black has no pawns and no Queen or Rook from the start: the game goes on.
    game = game_at("4k3/8/3n4/8/8/8/P7/R3K3 w - - 0 1")
    assert game.outcome is None
    game.play("a3")
    assert game.outcome is None


def test_promoting_ones_own_last_pawn_does_not_lose():
    game = game_at("4k3/1P6/8/8/8/8/8/4K2R w - - 0 1")
    game.play("b8=Q")
    assert game.outcome is None


def test_a_promoted_man_counts_in_its_new_group_and_refills_it():
    # White has no Queen or Rook until the promotion; taking the new Queen wins for Black.
    game = game_at("7r/1P2k3/8/8/8/8/7p/4K3 w - - 0 1")
    game.play("b8=Q")
    assert game.outcome is None
    game.play("Rxb8")
    assert game.outcome == rules.Outcome("0-1", "all Queens and Rooks")


def test_capture_and_checkmate_together_name_the_capture():
    game = game_at("3r2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    game.play("Rxd8")
    assert game.outcome == rules.Outcome("1-0", "all Queens and Rooks")


def test_no_draw_for_insufficient_material():
    game = game_at("k7/8/8/8/8/8/8/6NK w - - 0 1")
    assert game.outcome is None
    assert game.legal_moves()


def test_threefold_repetition_is_claimable_and_fivefold_ends_the_game():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 2)
    assert game.outcome is None and game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_fifty_moves_claimable_and_seventy_five_automatic():
    game = game_at("k7/p7/8/8/8/8/P7/KR6 w - - 100 80")
    assert game.outcome is None and game.claimable_draw().startswith("50 moves")
    assert game_at("k7/p7/8/8/8/8/P7/KR6 w - - 150 80").outcome.reason.startswith("75 moves")


def test_winning_capture_is_kept_in_the_fen_and_reloads_finished():
    game = game_at("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    game.play("exd5")
    assert game.fen() == "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1 last-pawn"
    again = game_at(game.fen())
    assert again.fen() == game.fen()
    assert again.outcome == rules.Outcome("1-0", "last pawn")


def test_undo_of_the_winning_capture_reopens_the_game():
    game = game_at("4k3/p7/8/3n4/8/8/P7/3RK3 w - - 0 1")
    game.play("Rxd5")
    game.undo()
    assert game.outcome is None
    assert game.fen() == "4k3/p7/8/3n4/8/8/P7/3RK3 w - - 0 1"
    assert "d1d5" in game.legal_moves()


def test_bad_extra_fen_field_is_refused():
    with pytest.raises(ValueError):
        game_at("4k3/8/8/3P4/8/8/8/4K3 b - - 0 1 nonsense")
    with pytest.raises(ValueError):   # Black still has a pawn: no last-pawn capture happened
        game_at("4k3/p7/8/3P4/8/8/8/4K3 b - - 0 1 last-pawn")
