"""Decastellation Chess through the public API: no check; capturing the king or the last rook
wins; castling without the attack conditions."""
import pytest

import rules

SLUG = "decastellation"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def moves_at(fen):
    return sorted(game_at(fen).legal_moves())


def test_start_position_has_the_twenty_fide_moves():
    assert len(rules.new_game(SLUG).legal_moves()) == 20


def test_king_may_move_onto_an_attacked_square():
    # Ra1: a2 (capture), b1, c1, d1 = 4; Ke1: d1, d2, e2, f1, f2 = 5, although Ra2 attacks
    # d2, e2 and f2. No castling right. 9 moves.
    moves = moves_at("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1")
    assert len(moves) == 9
    assert {"e1d2", "e1e2", "e1f2"} <= set(moves)


def test_kings_may_stand_side_by_side():
    assert "e1d2" in moves_at("r7/8/8/8/8/3k4/8/R3K2R w - - 0 1")


def test_a_king_under_attack_need_not_be_saved():
    # Black's queen attacks e1, yet every man may move, e.g. the a-rook.
    game = game_at("r3k2r/8/8/8/8/8/8/R3K1qR w - - 0 1")
    game.play("a1a7")
    assert game.outcome is None
    assert game.view().checks == ()


def test_capturing_the_king_wins():
    game = game_at("r7/8/8/8/8/8/3k4/R3K2R w - - 0 1")
    game.play("e1d2")
    assert game.outcome == rules.Outcome("1-0", "king captured")
    assert game.legal_moves() == []
    with pytest.raises(rules.IllegalMove):
        game.play("a8a1")


def test_capturing_the_last_rook_wins():
    game = game_at("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    game.play("a1a8")
    assert game.outcome.result == "1-0"
    assert "rook" in game.outcome.reason


def test_capturing_one_of_two_rooks_does_not_end_the_game():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
    game.play("a1a8")
    assert game.outcome is None


def test_black_wins_by_capturing_the_white_king():
    game = game_at("4k2r/8/8/8/8/8/8/R3K2r b - - 0 1")
    game.play("h1e1")
    assert game.outcome == rules.Outcome("0-1", "king captured")


def test_promoted_rook_keeps_its_side_alive():
    game = game_at("4k2r/8/8/8/8/8/p7/4K2R b - - 0 1")
    game.play("a2a1r")
    game.play("h1h8")
    assert game.outcome is None


def test_promoted_queen_does_not_count_as_a_rook():
    game = game_at("4k2r/8/8/8/8/8/p7/4K2R b - - 0 1")
    game.play("a2a1q")
    game.play("h1h8")
    assert game.outcome == rules.Outcome("1-0", "last rook captured")


def test_promotion_offers_queen_rook_bishop_knight_only():
    moves = moves_at("r3k3/1P6/8/8/8/8/8/R3K3 w - - 0 1")
    assert sorted(m for m in moves if m.startswith("b7b8")) == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]


def test_castling_through_an_attacked_square_is_allowed():
    # Bc4 attacks f1: FIDE forbids O-O, here it is legal. 26 moves: Ra1 10, Rh1 9, king 5, O-O, O-O-O.
    fen = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    moves = moves_at(fen)
    assert len(moves) == 26
    assert {"e1g1", "e1c1"} <= set(moves)
    game = game_at(fen)
    assert game.play("O-O") == "e1g1"
    assert game.fen().split()[:3] == ["r3k2r/8/8/8/2b5/8/8/R4RK1", "b", "kq"]


def test_castling_out_of_attack_is_allowed():
    assert {"e1g1", "e1c1"} <= set(moves_at("r3k2r/8/8/4q3/8/8/8/R3K2R w KQkq - 0 1"))


def test_castling_needs_the_right_and_empty_squares_between():
    assert "e1g1" not in moves_at("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1")
    assert "e1c1" not in moves_at("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1")
    assert not {"e1g1", "e1c1"} & set(moves_at("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1"))


def test_en_passant_may_uncover_ones_own_king_and_survives_fen():
    fen = "4k3/8/8/r2pP2K/8/8/8/7R w - d6 0 2"
    game = game_at(fen)
    assert "e5d6" in game.legal_moves()
    assert game.fen() == fen
    again = rules.new_game(SLUG, fen=game.fen())
    assert sorted(again.legal_moves()) == sorted(game.legal_moves())


def test_no_move_at_all_is_a_stalemate_draw():
    # Every black man is blocked by its own men or by white pawns.
    game = game_at("krb5/pb1p4/p1pP4/P1P5/8/8/8/4K2R b - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_position_without_a_rook_is_decided_at_once():
    game = game_at("r3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome.result == "0-1"
    assert "rook" in game.outcome.reason


def test_position_without_a_king_is_decided_at_once_and_still_round_trips():
    fen = "r7/8/8/8/8/8/8/R3K3 b - - 0 1"
    game = game_at(fen)
    assert game.outcome == rules.Outcome("1-0", "king captured")
    assert game.fen() == fen


def test_both_sides_lacking_is_a_draw_at_once():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome.result == "1/2-1/2"
    assert game.outcome.kind == rules.Ending.GOAL   # the goal met by both sides at once


def test_fifty_move_claim_and_seventy_five_move_draw():
    game = game_at("r3k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert game.claimable_draw() is None
    game.play("e1e2")
    assert game.claimable_draw() == "50 moves without a capture or pawn move"
    game = game_at("r3k3/8/8/8/8/8/8/R3K3 w - - 149 80")
    game.play("e1e2")
    assert game.outcome == rules.Outcome("1/2-1/2", "75 moves without a capture or pawn move")


def test_threefold_claim_and_fivefold_draw():
    game = game_at("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    shuffle = ["e1e2", "e8e7", "e2e1", "e7e8"]
    for move in shuffle * 2:
        game.play(move)
    assert game.claimable_draw() == "threefold repetition"
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_undo_after_the_winning_capture_resumes_play():
    game = game_at("r7/8/8/8/8/8/3k4/R3K2R w - - 0 1")
    game.play("e1d2")
    game.undo()
    assert game.outcome is None
    assert game.fen() == "r7/8/8/8/8/8/3k4/R3K2R w - - 0 1"
