"""Entourage Chess through the public API: capture the King, or a piece standing next to it."""
import pytest

import rules

from .support import shuffle_knights

SLUG = "entourage"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def test_setup_and_first_moves_are_fide():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert len(game.legal_moves()) == 20


def test_legal_move_count_with_both_castlings():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    # Ra1: a2-a8 (7) + b1-d1 (3) = 10; Rh1: h2-h8 (7) + g1, f1 = 9; Ke1: d1, d2, e2, f2, f1 = 5;
    # O-O and O-O-O = 2 -> 26 (the same as FIDE here, nothing is attacked).
    assert len(game.legal_moves()) == 26


def test_there_is_no_check_a_king_may_be_left_attacked():
    game = game_at("4k3/p7/8/8/8/8/4R3/3K4 b - - 0 1")
    # Black King e8 is attacked by the Rook, yet any move is allowed:
    # a7: a6, a5 (2); Ke8: d8, f8, d7, e7, f7 (5) -> 7.
    assert len(game.legal_moves()) == 7
    assert "a7a6" in game.legal_moves()


def test_a_king_may_step_onto_an_attacked_square_and_next_to_the_enemy_king():
    game = game_at("8/8/4k3/8/4K3/8/8/r7 w - - 0 1")
    king_moves = {m for m in game.legal_moves() if m.startswith("e4")}
    assert king_moves == {"e4d3", "e4e3", "e4f3", "e4d4", "e4f4", "e4d5", "e4e5", "e4f5"}


def test_capturing_the_king_wins():
    game = game_at("4k3/p7/8/8/8/8/4R3/3K4 w - - 0 1")
    game.play("Rxe8")
    assert game.outcome == rules.Outcome("1-0", "captured the king")
    assert game.legal_moves() == []


def test_capturing_a_piece_next_to_its_king_wins():
    game = game_at("4k3/3n4/8/1B6/8/8/8/4K3 w - - 0 1")
    game.play("Bxd7")
    assert game.outcome == rules.Outcome("1-0", "captured a man next to the king")


@pytest.mark.parametrize("letter", ["q", "r", "b", "n"])
def test_queen_rook_bishop_and_knight_all_count(letter):
    game = game_at(f"4k3/4{letter}3/8/8/8/8/8/4RK2 w - - 0 1")
    game.play("e1e7")
    assert game.outcome == rules.Outcome("1-0", "captured a man next to the king")


def test_a_pawn_next_to_the_king_never_counts():
    game = game_at("4k3/3p4/8/1B6/8/8/8/4K3 w - - 0 1")
    game.play("Bxd7")
    assert game.outcome is None


def test_a_piece_two_squares_from_its_king_does_not_count():
    game = game_at("4k3/8/2n5/1B6/8/8/8/4K3 w - - 0 1")
    game.play("Bxc6")
    assert game.outcome is None


def test_only_the_victims_own_king_matters_not_the_capturers():
    # The black Knight on d2 stands next to the white King, not its own: taking it does not win.
    game = game_at("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1")
    game.play("Kxd2")
    assert game.outcome is None


def test_the_capturing_king_itself_may_win():
    game = game_at("8/8/8/8/8/3k4/3nK3/8 w - - 0 1")
    game.play("Kxd2")
    assert game.outcome == rules.Outcome("1-0", "captured a man next to the king")


def test_a_promoted_piece_counts():
    game = game_at("8/8/8/8/8/8/3pk3/R6K b - - 0 1")
    game.play("d1=Q")
    assert game.outcome is None
    game.play("Rxd1")
    assert game.outcome == rules.Outcome("1-0", "captured a man next to the king")


def test_black_wins_the_same_way():
    game = game_at("4k3/8/8/6b1/8/8/3Q4/4K3 b - - 0 1")
    game.play("Bxd2+")
    assert game.outcome == rules.Outcome("0-1", "captured a man next to the king")


def test_castling_out_of_through_and_into_attack_is_allowed():
    game = game_at("4k3/8/8/4r3/8/8/5rr1/R3K2R w KQ - 0 1")
    # e1 is attacked by the e5 Rook, f1 and g1 by the f2 and g2 Rooks: castling is still legal.
    assert {"e1g1", "e1c1"} <= set(game.legal_moves())
    assert game.play("O-O") == "e1g1"
    assert game.fen() == "4k3/8/8/4r3/8/8/5rr1/R4RK1 b - - 1 1"


def test_castling_needs_unmoved_king_and_rook_and_empty_squares_between():
    game = game_at("4k3/8/8/8/8/8/8/R3K1NR w K - 0 1")
    assert "e1g1" not in game.legal_moves()          # g1 is occupied
    assert "e1c1" not in game.legal_moves()          # no queen-side right
    with pytest.raises(rules.IllegalMove, match="castle only if"):
        game.play("e1g1")
    with pytest.raises(rules.IllegalMove, match="castle only if"):
        game.play("e1c1")


def test_en_passant_and_promotion_to_any_piece_work():
    game = game_at("4k3/P7/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "e5d6"} <= set(game.legal_moves())
    game.play("exd6")
    assert game.fen() == "4k3/P7/3P4/8/8/8/8/4K3 b - - 0 1"


def test_no_legal_move_is_a_stalemate_draw():
    # White's King, Rook, Bishop and pawns are all blocked by their own men.
    game = game_at("4k3/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


def test_bare_kings_play_on():
    game = game_at("8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    assert game.outcome is None
    game.play("Kd4")
    game.play("Kxd4")
    assert game.outcome == rules.Outcome("0-1", "captured the king")


def test_threefold_repetition_is_claimable_and_fivefold_ends_the_game():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 2)
    assert game.outcome is None and game.claimable_draw() == "threefold repetition"
    shuffle_knights(game, 2)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_fifty_moves_claimable_and_seventy_five_automatic():
    fen = "k7/8/8/8/8/8/8/KR6 w - - {} 80"
    game = game_at(fen.format(100))
    assert game.outcome is None and game.claimable_draw().startswith("50 moves")
    assert game_at(fen.format(150)).outcome.reason.startswith("75 moves")


def test_a_fen_without_one_king_per_side_is_refused():
    with pytest.raises(ValueError):
        game_at("8/8/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(ValueError):
        game_at("4k3/8/8/8/8/8/8/3KK3 w - - 0 1")


def test_finished_game_fen_reloads_finished_and_undo_reopens():
    game = game_at("4k3/p7/8/8/8/8/4R3/3K4 w - - 0 1")
    game.play("Rxe8")
    assert game.fen() == "4R3/p7/8/8/8/8/8/3K4 b - - 0 1 king"
    assert game_at(game.fen()).outcome == rules.Outcome("1-0", "captured the king")
    game.undo()
    assert game.fen() == "4k3/p7/8/8/8/8/4R3/3K4 w - - 0 1" and game.outcome is None

    game = game_at("4k3/3n4/8/1B6/8/8/8/4K3 w - - 0 1")
    game.play("Bxd7")
    assert game.fen().endswith(" escort")
    assert game_at(game.fen()).outcome == rules.Outcome("1-0", "captured a man next to the king")
