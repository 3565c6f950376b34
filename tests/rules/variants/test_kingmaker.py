"""Kingmaker Chess through the public API: your first promotion makes the enemy King."""
import pytest

import rules

START = "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1"


def game(fen=None):
    return rules.new_game("kingmaker", fen=fen)


def test_start_is_the_fide_array_without_kings():
    g = game()
    assert g.fen() == START
    assert "e1" not in g.view().pieces and "e8" not in g.view().pieces


def test_start_position_has_21_moves_each():
    g = game()
    # 16 pawn moves, 4 knight moves, and the queen may step to the empty e1.
    assert len(g.legal_moves()) == 21 and "d1e1" in g.legal_moves()
    g.play("e4")
    assert len(g.legal_moves()) == 21 and "d8e8" in g.legal_moves()


def test_first_promotion_makes_an_enemy_king():
    g = game("8/P7/8/8/8/8/7p/8 w - - 0 1")
    assert g.legal_moves() == ["a7a8k"]
    g.play("a7a8k")
    assert g.fen() == "k7/8/8/8/8/8/7p/8 b - - 0 1"
    assert g.view().pieces["a8"] == "k"


def test_black_first_promotion_makes_a_white_king_and_san_works():
    g = game("8/8/8/8/8/8/p7/7N b - - 0 1")
    assert g.play("a1=K") == "a2a1k"
    assert g.view().pieces["a1"] == "K"
    assert g.turn == "white"


def test_first_promotion_may_not_be_a_queen():
    g = game("8/P7/8/8/8/8/7p/8 w - - 0 1")
    with pytest.raises(rules.IllegalMove, match="King"):
        g.play("a7a8q")
    assert g.fen() == "8/P7/8/8/8/8/7p/8 w - - 0 1"


def test_new_king_may_not_be_made_in_check():
    g = game("1n6/P7/8/8/4B3/8/8/8 w - - 0 1")
    # Be4 sees a8, so only the capture on b8 may promote: 13 bishop moves + a7xb8=K.
    assert len(g.legal_moves()) == 14
    assert "a7b8k" in g.legal_moves() and "a7a8k" not in g.legal_moves()
    with pytest.raises(rules.IllegalMove, match="check"):
        g.play("a7a8k")


def test_first_pawn_to_arrive_by_capture_makes_the_king():
    g = game("1n6/P7/8/8/4B3/8/8/8 w - - 0 1")
    g.play("axb8=K")
    assert g.view().pieces["b8"] == "k"


def test_pawn_with_no_safe_square_cannot_promote_at_all():
    g = game("8/P7/8/8/4B3/8/8/8 w - - 0 1")
    assert len(g.legal_moves()) == 13   # the bishop's moves only
    assert not any(m.startswith("a7") for m in g.legal_moves())


def test_own_king_next_to_the_square_forbids_the_new_king():
    # White's king on b7 attacks a8, so the new Black king would stand in check there.
    g = game("8/PK6/8/8/8/8/8/7N w - - 0 1")
    assert len(g.legal_moves()) == 9   # 7 king moves + 2 knight moves
    assert "a7a8k" not in g.legal_moves()


def test_making_the_king_may_not_leave_your_own_king_in_check():
    # The b7 pawn is pinned by Ra7 against Kh7.
    g = game("8/rP5K/8/8/8/8/8/7N w - - 0 1")
    assert "b7b8k" not in g.legal_moves()
    assert len(g.legal_moves()) == 7   # Kh7: g8 h8 g7 g6 h6; Nh1: f2 g3
    with pytest.raises(rules.IllegalMove, match="check"):
        g.play("b7b8k")


def test_later_promotions_are_fide_and_never_a_king():
    g = game("4k3/P7/8/8/8/8/8/8 w - - 0 1")
    assert sorted(g.legal_moves()) == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    with pytest.raises(rules.IllegalMove, match="already"):
        g.play("a7a8k")


def test_a_player_with_a_king_may_not_move_into_check():
    g = game("4k3/7p/8/8/8/8/8/3R4 b - - 0 1")
    # Ke8: e7, f7, f8 (d7 and d8 are on Rd1's file); pawn h7: h6, h5.
    assert len(g.legal_moves()) == 5
    with pytest.raises(rules.IllegalMove, match="check"):
        g.play("e8d8")


def test_a_player_without_a_king_may_check_freely():
    g = game("4k3/8/1b6/8/8/8/8/3R4 w - - 0 1")
    g.play("d1d8")   # an unprotected check is fine for a player without a king
    assert g.view().checks == ("e8",)
    assert g.outcome is None
    assert sorted(g.legal_moves()) == ["b6d8", "e8d8", "e8e7", "e8f7"]


def test_no_legal_moves_loses():
    g = game("8/8/8/8/8/p7/P7/8 w - - 0 1")
    assert (g.outcome.result, g.outcome.reason) == ("0-1", "no legal moves")


def test_king_with_no_move_loses_instead_of_stalemate():
    g = game("k7/8/1Q6/8/8/8/8/8 b - - 0 1")
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "no legal moves")


def test_check_only_the_king_can_answer_loses():
    g = game("4k3/8/8/8/8/8/8/4R3 b - - 0 1")
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "forced to move the king")
    assert g.legal_moves() == []


def test_forced_king_move_loss_is_set_right_after_the_move():
    g = game("k7/8/8/8/p7/8/P7/8 w - - 0 1")
    assert g.outcome is None and g.legal_moves() == ["a2a3"]
    g.play("a3")   # Black's a4 pawn is now blocked: only the king can move
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "forced to move the king")
    g.undo()
    assert g.outcome is None


def test_making_a_lone_king_wins_at_once():
    g = game("8/P7/8/8/8/8/8/8 w - - 0 1")
    g.play("a8=K")
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "forced to move the king")


def test_no_insufficient_material_draw():
    g = game("8/8/8/8/8/8/8/N6n w - - 0 1")
    assert g.outcome is None


def test_repetition_after_a_king_is_made_keeps_the_kings_colour():
    g = game("8/P7/8/8/8/8/8/N6n w - - 0 1")
    g.play("a8=K")
    for move in ["Ng3", "Nb3", "Nh1", "Na1"] * 2:
        g.play(move)
    assert g.claimable_draw() == "threefold repetition"
    assert g.fen().startswith("k7/")
    for move in ["Ng3", "Nb3", "Nh1", "Na1"] * 2:
        g.play(move)
    assert (g.outcome.result, g.outcome.reason) == ("1/2-1/2", "fivefold repetition")
    assert g.fen().startswith("k7/")


def test_fifty_move_rule_as_in_standard_chess():
    g = game("8/8/8/8/8/8/8/N6n w - - 100 80")
    assert g.outcome is None and g.claimable_draw().startswith("50 moves")
    g = game("8/8/8/8/8/8/8/N6n w - - 150 80")
    assert g.outcome.reason.startswith("75 moves")


def test_no_castling_and_castling_rights_are_dropped():
    g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert g.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"
    assert "e1g1" not in g.legal_moves() and "e1c1" not in g.legal_moves()


def test_two_kings_of_one_colour_are_refused():
    with pytest.raises(ValueError):
        game("k6k/8/8/8/8/8/8/8 w - - 0 1")


def test_king_in_check_on_the_side_not_to_move_is_refused():
    with pytest.raises(ValueError):
        game("4k3/8/8/8/8/8/8/4R3 w - - 0 1")


def test_undo_restores_the_pawn_and_reload_keeps_the_king():
    g = game("8/P7/8/8/8/8/7p/8 w - - 0 1")
    g.play("a8=K")
    fen = g.fen()
    again = rules.new_game("kingmaker", fen=fen)
    assert again.fen() == fen and sorted(again.legal_moves()) == sorted(g.legal_moves())
    assert "h2h1k" in g.legal_moves()   # Black has still to make White's King
    g.undo()
    assert g.fen() == "8/P7/8/8/8/8/7p/8 w - - 0 1"


def test_refusing_a_queen_where_no_king_may_stand_does_not_suggest_the_king():
    # Ruling 2: Ra1 would see a8 once the pawn leaves a7, so neither a8=Q nor a8=K is legal.
    g = game("8/P7/8/8/8/8/8/R7 w - - 0 1")
    assert not any(m.startswith("a7") for m in g.legal_moves())
    with pytest.raises(rules.IllegalMove, match="cannot promote"):
        g.play("a7a8q")
