"""Junta Chess through the public API: capture both Knights, or the King and one Knight."""
import pytest

import rules

from .support import shuffle_knights

SLUG = "junta"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def test_setup_is_fide_without_castling_rights():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    assert len(game.legal_moves()) == 20


def test_legal_move_count_without_castling():
    game = game_at("r3k2r/1n4n1/8/8/8/8/1N4N1/R3K2R w KQkq - 0 1")
    # Ra1: a2-a8 (7) + b1-d1 (3) = 10; Rh1: h2-h8 (7) + g1, f1 = 9; Ke1: d1, d2, e2, f2, f1 = 5;
    # Nb2: a4, c4, d3, d1 = 4; Ng2: e3, f4, h4 = 3 (e1 is the own King). No castling -> 31.
    assert len(game.legal_moves()) == 31


def test_there_is_no_castling_and_fen_castling_rights_are_ignored():
    game = game_at("r3k2r/1n4n1/8/8/8/8/1N4N1/R3K2R w KQkq - 0 1")
    assert game.fen() == "r3k2r/1n4n1/8/8/8/8/1N4N1/R3K2R w - - 0 1"
    assert "e1g1" not in game.legal_moves() and "e1c1" not in game.legal_moves()
    with pytest.raises(rules.IllegalMove, match="no castling"):
        game.play("e1g1")
    with pytest.raises(rules.IllegalMove):
        game.play("O-O")


def test_pawns_promote_to_queen_rook_or_bishop_but_never_knight():
    game = game_at("1n2k1n1/P7/8/8/8/8/8/1N2K1N1 w - - 0 1")
    promotions = {m for m in game.legal_moves() if m.startswith("a7")}
    assert promotions == {"a7a8q", "a7a8r", "a7a8b", "a7b8q", "a7b8r", "a7b8b"}
    with pytest.raises(rules.IllegalMove, match="never to a Knight"):
        game.play("a7a8n")
    with pytest.raises(rules.IllegalMove):
        game.play("a8=N")
    assert game.play("a8=R") == "a7a8r"


def test_there_is_no_check_the_king_may_step_next_to_the_enemy_king():
    game = game_at("1n4n1/8/4k3/8/4K3/8/8/1N4N1 w - - 0 1")
    # White King e4 has all 8 steps, including d5, e5, f5 next to the black King on e6.
    king_moves = {m for m in game.legal_moves() if m.startswith("e4")}
    assert king_moves == {"e4d3", "e4e3", "e4f3", "e4d4", "e4f4", "e4d5", "e4e5", "e4f5"}


def test_a_king_may_be_left_attacked_and_captured():
    game = game_at("1n2k1n1/8/8/8/8/8/4r3/1N2K1N1 w - - 0 1")
    assert "b1c3" in game.legal_moves()     # ignoring the attack on e1 is allowed
    game.play("Nc3")
    assert game.play("Rxe1") == "e2e1"


def test_capturing_the_king_alone_does_not_win_and_the_kingless_side_plays_on():
    game = game_at("1n2k1n1/8/8/8/8/8/4r3/1N2K1N1 b - - 0 1")
    game.play("Rxe1")
    assert game.outcome is None
    assert game.turn == "white" and game.legal_moves()
    assert game.play("Nc3") == "b1c3"


def test_capturing_both_knights_wins():
    game = game_at("4k1n1/7Q/8/8/8/8/8/1N2K1N1 w - - 0 1")
    game.play("Qxg8")
    assert game.outcome == rules.Outcome("1-0", "captured both knights")
    assert game.legal_moves() == []


def test_capturing_the_king_after_a_knight_wins():
    game = game_at("4k1n1/8/8/8/8/8/4Q3/1N2K1N1 w - - 0 1")
    game.play("Qxe8")
    assert game.outcome == rules.Outcome("1-0", "captured king and knight")


def test_capturing_a_knight_after_the_king_wins():
    game = game_at("1n4n1/7Q/8/8/8/8/8/1N2K1N1 w - - 0 1")
    assert game.outcome is None
    game.play("Qxg8")
    assert game.outcome == rules.Outcome("1-0", "captured king and knight")


def test_a_kingless_side_can_still_win():
    game = game_at("6n1/8/8/8/8/8/3n4/1N2K3 b - - 0 1")
    # Black has no King and two Knights; taking White's last Knight wins for Black.
    game.play("Nxb1")
    assert game.outcome == rules.Outcome("0-1", "captured both knights")


def test_the_two_captures_may_be_made_by_different_men_on_different_moves():
    game = game_at("1n2k1n1/7B/8/8/8/8/4R3/1N2K3 w - - 0 1")
    game.play("Bxg8")          # a Knight, by the Bishop
    assert game.outcome is None
    game.play("Nc6")
    game.play("Rxe8")          # then the King, by the Rook
    assert game.outcome == rules.Outcome("1-0", "captured king and knight")


def test_no_legal_move_is_a_stalemate_draw():
    # Black has no King; its Knights in the corners and its pawns are all blocked by own men.
    game = game_at("n6n/2p2p2/1pP2Pp1/1P4P1/8/8/8/1N2K1N1 b - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_threefold_repetition_is_claimable_and_fivefold_ends_the_game():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 2)
    assert game.outcome is None and game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_fifty_moves_claimable_and_seventy_five_automatic():
    fen = "1n2k3/8/8/8/8/8/8/1N2K3 w - - {} 80"
    game = game_at(fen.format(100))
    assert game.outcome is None and game.claimable_draw().startswith("50 moves")
    assert game_at(fen.format(150)).outcome.reason.startswith("75 moves")


def test_en_passant_ignores_pins_on_the_king_and_is_kept_in_the_fen():
    game = game_at("1n2k3/3p4/8/K3P2r/8/8/8/1N6 b - - 0 1")
    game.play("d5")
    # In FIDE chess exd6 would expose the King on a5 to the rook; here it is legal.
    assert game.fen() == "1n2k3/8/8/K2pP2r/8/8/8/1N6 w - d6 0 2"
    assert "e5d6" in game.legal_moves()
    assert sorted(game_at(game.fen()).legal_moves()) == sorted(game.legal_moves())


def test_a_fen_where_a_side_has_already_lost_is_refused():
    with pytest.raises(ValueError, match="already lost"):
        game_at("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")        # Black has no Knight
    with pytest.raises(ValueError, match="already lost"):
        game_at("6n1/8/8/8/8/8/8/1N2K1N1 w - - 0 1")        # Black: no King and one Knight
    assert game_at("1n4n1/8/8/8/8/8/8/1N2K1N1 w - - 0 1").outcome is None  # no King, two Knights


def test_finished_game_fen_reloads_finished_and_undo_reopens():
    game = game_at("4k1n1/8/8/8/8/8/4Q3/1N2K1N1 w - - 0 1")
    game.play("Qxe8")
    assert game.fen() == "4Q1n1/8/8/8/8/8/8/1N2K1N1 b - - 0 1 goal"
    assert game_at(game.fen()).outcome == rules.Outcome("1-0", "captured king and knight")
    game.undo()
    assert game.fen() == "4k1n1/8/8/8/8/8/4Q3/1N2K1N1 w - - 0 1" and game.outcome is None
    with pytest.raises(ValueError):
        game_at("4k1n1/8/8/8/8/8/4Q3/1N2K1N1 w - - 0 1 goal")   # nobody has lost here
