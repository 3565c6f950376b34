"""Xenophobic Chess through the public API: intrusion on c-f of the enemy back rank is a
check that only a capture answers."""
import pytest

import rules

SLUG = "xenophobic"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def test_start_position_has_the_twenty_fide_moves():
    assert len(rules.new_game(SLUG).legal_moves()) == 20


def test_intruder_must_be_captured():
    # Nc6-d8 intrudes; Black's only reply is Rxd8 (Kg8-f8 and pawn moves do not capture).
    game = game_at("r5k1/5ppp/2N5/8/8/8/8/4K3 w - - 0 1")
    game.play("c6d8")
    assert game.legal_moves() == ["a8d8"]
    assert game.view().checks == ("g8",)
    with pytest.raises(rules.IllegalMove, match="d8"):
        game.play("g8f8")
    assert game.history == ["c6d8"]


def test_intruder_that_cannot_be_captured_wins():
    game = game_at("6k1/5ppp/2N5/8/8/8/8/4K3 w - - 0 1")
    game.play("c6d8")
    assert game.outcome == rules.Outcome("1-0", "xenophobic checkmate")
    assert game.legal_moves() == []


def test_capture_of_a_checking_intruder_must_leave_the_king_safe():
    # Bb6-d8 intrudes and checks Ke7. Kxd8 walks into Rd1, Nxd8 is pinned by Re1: only Rxd8.
    game = game_at("r7/4k3/1B2n3/8/8/8/8/3RR2K w - - 0 1")
    game.play("b6d8")
    assert game.legal_moves() == ["a8d8"]


def test_checking_intruder_with_no_safe_capture_is_xenophobic_checkmate():
    # Rd1-d8 intrudes and checks Kg8 along the rank; nothing can take it.
    game = game_at("6k1/5ppp/8/8/8/8/8/3RK3 w - - 0 1")
    game.play("d1d8")
    assert game.outcome == rules.Outcome("1-0", "xenophobic checkmate")


def test_king_intrusion_always_wins():
    game = game_at("8/7p/8/8/8/8/2k4P/K7 b - - 0 1")
    game.play("c2d1")
    assert game.outcome == rules.Outcome("0-1", "xenophobic checkmate")


def test_promotion_on_an_intrusion_square_intrudes():
    game = game_at("r5k1/3P1ppp/8/8/8/8/8/4K3 w - - 0 1")
    game.play("d7d8q")
    assert game.legal_moves() == ["a8d8"]


def test_squares_outside_c_to_f_do_not_intrude():
    # Nc6-b8 lands on the back rank but not on c-f: Black moves freely.
    game = game_at("r5k1/5ppp/2N5/8/8/8/8/4K3 w - - 0 1")
    game.play("c6b8")
    assert "g8f8" in game.legal_moves()


def test_castling_never_intrudes():
    game = game_at("r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w Qq - 0 1")
    game.play("O-O-O")
    assert game.outcome is None
    assert "e7e5" in game.legal_moves()


def test_intrusion_is_read_from_the_position_and_round_trips():
    fen = "4k3/8/8/8/8/8/8/R1n1K3 w - - 0 1"
    game = game_at(fen)
    assert game.legal_moves() == ["a1c1"]
    assert game.fen() == fen


def test_with_several_intruders_capturing_any_one_is_enough():
    assert sorted(game_at("4k3/8/8/8/8/8/8/R1nbK3 w - - 0 1").legal_moves()) == ["a1c1", "e1d1"]


def test_intrusion_already_on_the_board_beats_insufficient_material():
    game = game_at("3K4/8/8/8/8/8/8/k7 b - - 0 1")
    assert game.outcome == rules.Outcome("1-0", "xenophobic checkmate")


def test_bare_kings_are_not_dead_because_a_king_can_intrude():
    # Ruling 2: a King intrusion always wins, "e.g. a King walking to d1 in the endgame", so
    # FIDE's material test (which calls bare kings dead) does not apply.
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome is None
    game = game_at("8/8/8/8/8/8/4k3/7K b - - 0 1")
    assert game.outcome is None
    game.play("e2d1")
    assert game.outcome == rules.Outcome("0-1", "xenophobic checkmate")


def test_knight_against_bare_king_plays_on_and_can_win_by_intrusion():
    # K+N v K is "insufficient material" in FIDE; here Nc6-d8 wins (Kf5 cannot reach d8).
    game = game_at("8/8/2N5/5k2/8/8/8/7K w - - 0 1")
    assert game.outcome is None
    game.play("c6d8")
    assert game.outcome == rules.Outcome("1-0", "xenophobic checkmate")


def test_ordinary_checkmate_wins():
    game = rules.new_game(SLUG)
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        game.play(move)
    assert game.outcome == rules.Outcome("0-1", "checkmate")


def test_stalemate_is_a_draw():
    game = game_at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_undo_after_an_intrusion_restores_free_play():
    game = game_at("6k1/5ppp/2N5/8/8/8/8/4K3 w - - 0 1")
    game.play("c6d8")
    game.undo()
    assert game.outcome is None
    assert game.fen() == "6k1/5ppp/2N5/8/8/8/8/4K3 w - - 0 1"
