"""Society Chess through the public API: only pawns capture or are captured; FIDE check;
a player left with only piece-takes-piece captures loses."""
import pytest

import rules

SLUG = "society"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def moves_at(fen):
    return sorted(game_at(fen).legal_moves())


def test_start_position_has_the_twenty_fide_moves():
    assert len(rules.new_game(SLUG).legal_moves()) == 20


def test_piece_may_not_capture_a_piece():
    # Qd1 has 14 FIDE moves (d2-d5, a1-c1, c2/b3/a4, e2/f3/g4/h5) minus the forbidden Qxd5 = 13;
    # Ke1 has d2, e2, f2, f1 = 4. 17 in all.
    fen = "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1"
    moves = moves_at(fen)
    assert "d1d5" not in moves
    assert len(moves) == 17
    game = game_at(fen)
    with pytest.raises(rules.IllegalMove, match="only captures by a pawn or of a pawn"):
        game.play("d1d5")
    assert game.history == []


def test_piece_may_capture_a_pawn():
    assert "d1d5" in moves_at("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1")


def test_pawn_may_capture_a_piece():
    assert "e4d5" in moves_at("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1")


def test_king_may_not_capture_a_piece_but_may_capture_a_pawn():
    assert "e1d2" not in moves_at("4k3/7p/8/8/8/8/3n4/4K3 w - - 0 1")
    assert "e1d2" in moves_at("4k3/7p/8/8/8/8/3p4/4K3 w - - 0 1")


def test_pieces_give_check_so_fools_mate_is_mate():
    game = rules.new_game(SLUG)
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        game.play(move)
    assert game.outcome == rules.Outcome("0-1", "checkmate")


def test_king_may_not_step_onto_a_square_a_piece_attacks():
    # Ra1 checks along the first rank: d1 and f1 stay attacked, so only Kd2, Ke2, Kf2.
    game = game_at("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")
    assert sorted(game.legal_moves()) == ["e1d2", "e1e2", "e1f2"]
    assert game.view().checks == ("e1",)


def test_check_whose_only_answer_is_taking_the_piece_is_checkmate():
    # Kxg1 would take an unprotected queen, but a king may not take a piece.
    game = game_at("k7/8/8/8/8/8/6PP/6qK w - - 0 1")
    assert game.outcome == rules.Outcome("0-1", "checkmate")


def test_forced_piece_takes_piece_capture_loses():
    # Not in check; Kg1 is covered by Ne2; Kxg2 and Kxh2 are the only FIDE moves.
    game = game_at("k7/8/8/8/8/8/4n1nn/7K w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("0-1", "forced capture")
    assert game.outcome.kind == rules.Ending.NO_MOVE


def test_no_fide_move_at_all_is_a_stalemate_draw():
    game = game_at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_en_passant_is_allowed():
    game = game_at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    game.play("e5d6")
    assert game.fen().split()[0] == "4k3/8/3P4/8/8/8/8/4K3"


def test_promotion_by_capturing_a_piece_is_allowed():
    # a7-a8 and a7xb8, four promotions each, plus five king moves: 13.
    moves = moves_at("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert len(moves) == 13
    assert "a7b8q" in moves


def test_castling_is_as_in_chess():
    game = game_at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    assert game.play("O-O") == "e1g1"


def test_bare_kings_are_a_dead_position():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_knight_against_bare_king_is_not_dead_it_can_force_a_forbidden_capture():
    # FIDE calls K+N v K dead, but "a player also loses if forced to capture a non-pawn with a
    # non-pawn": after Na6-b8, Kb6 covers a7 and b7, and Kxb8 is Black's only FIDE move.
    game = game_at("k7/8/NK6/8/8/8/8/8 w - - 0 1")
    assert game.outcome is None
    game.play("a6b8")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1-0", "forced capture")


def test_bishop_against_bare_king_plays_on():
    assert game_at("k7/8/1K6/8/8/8/8/4B3 w - - 0 1").outcome is None
