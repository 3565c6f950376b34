"""Spartan Chess through the public API: White lacks Ra1, Nb1, Bc1; Black must mate by move 60."""
import pytest

import rules

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/3QKBNR w Kkq - 0 1"


def game(fen=None):
    return rules.new_game("spartan", fen=fen)


def test_white_starts_without_the_a1_rook_b1_knight_and_c1_bishop():
    g = game()
    assert g.fen() == START
    assert {"a1", "b1", "c1"}.isdisjoint(g.view().pieces)
    assert g.view().pieces["d1"] == "Q"


def test_start_position_move_counts():
    g = game()
    # 16 pawn moves, Ng1 to f3/h3 (2), Qd1 to c1, b1, a1 along the empty rank (3).
    assert len(g.legal_moves()) == 21
    g.play("e4")
    # Black has the full FIDE army: 16 pawn moves and 4 knight moves.
    assert len(g.legal_moves()) == 20


def test_white_keeps_only_king_side_castling():
    assert game().fen().split()[2] == "Kkq"
    g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/3QK2R w Kkq - 0 1")
    assert g.play("O-O") == "e1g1"


def test_black_checkmating_white_wins():
    g = game()
    for move in ["f3", "e5", "g4", "Qh4"]:
        g.play(move)
    assert (g.outcome.result, g.outcome.reason) == ("0-1", "checkmate")


def test_white_checkmating_black_wins():
    g = game("k7/1Q6/1K6/8/8/8/8/8 b - - 0 5")
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "checkmate")


def test_black_not_mating_by_his_sixtieth_move_loses():
    g = game("4k3/8/8/8/8/8/4q3/K7 b - - 0 60")
    assert g.outcome is None
    g.play("Kd8")
    assert g.outcome.result == "1-0"
    assert g.outcome.reason == "Black did not mate within 60 moves"
    assert g.legal_moves() == []


def test_mate_on_blacks_sixtieth_move_still_counts():
    g = game("kr6/8/8/8/8/8/6PP/7K b - - 0 60")
    g.play("Rb1")
    assert (g.outcome.result, g.outcome.reason) == ("0-1", "checkmate")


def test_whites_sixtieth_move_does_not_end_the_game():
    g = game("4k3/8/8/8/8/8/4q3/K7 w - - 0 60")
    g.play("Kb1")
    assert g.outcome is None
    assert g.turn == "black"


def test_fen_keeps_the_full_move_number():
    fen = "4k3/8/8/8/8/8/4q3/K7 b - - 0 60"
    assert game(fen).fen() == fen
    over = game("4k3/8/8/8/8/8/4q3/K7 w - - 0 61")
    assert over.outcome.result == "1-0"
    with pytest.raises(rules.IllegalMove):
        over.play("Kb1")


def test_undo_after_the_move_limit_reopens_the_game():
    g = game("4k3/8/8/8/8/8/4q3/K7 b - - 0 60")
    g.play("Kd8")
    g.undo()
    assert g.outcome is None and g.fen() == "4k3/8/8/8/8/8/4q3/K7 b - - 0 60"


def test_stalemating_black_is_a_white_win():
    g = game("k7/8/1Q6/8/8/8/8/7K b - - 0 10")
    assert g.outcome.result == "1-0"
    assert "stalemate" in g.outcome.reason and g.outcome.kind == rules.Ending.STALEMATE


def test_stalemating_white_is_still_a_white_win():
    # Qf7 covers g8, g7 and h7 without checking h8: White has no move, and Black has not mated.
    g = game("7K/5q2/8/8/8/8/8/k7 w - - 0 10")
    assert g.outcome.result == "1-0"
    assert "stalemate" in g.outcome.reason


def test_threefold_repetition_is_a_white_win_at_once():
    g = game()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        g.play(move)
    assert g.outcome is None
    g.play("Ng8")
    assert g.outcome.result == "1-0"
    assert "repetition" in g.outcome.reason


def test_fifty_moves_without_capture_or_pawn_move_is_a_white_win():
    g = game("k7/8/8/8/8/8/8/KR6 w - - 99 30")
    assert g.outcome is None
    g.play("Rb2")
    assert g.outcome.result == "1-0"
    assert "50 moves" in g.outcome.reason


def test_dead_position_is_a_white_win():
    g = game("k7/8/8/8/8/8/8/K7 w - - 0 10")
    assert g.outcome.result == "1-0"
    assert "dead position" in g.outcome.reason and g.outcome.kind == rules.Ending.MATERIAL


def test_there_is_never_a_draw_to_claim():
    g = game()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        if g.outcome:
            break
        assert g.claimable_draw() is None
        g.play(move)


def test_fide_check_rules_apply():
    g = game("4k3/8/8/8/8/8/1r6/K7 w - - 0 1")
    with pytest.raises(rules.IllegalMove, match="check"):
        g.play("a1b1")
    assert sorted(g.legal_moves()) == ["a1b2"]


def test_a_mate_after_blacks_sixtieth_move_does_not_count():
    # "Black checkmates White (on or before his 60th move) | 0-1": White mated with full move 61
    # means Black mated with his 60th move; with 62, Black's mate came on move 61, too late.
    assert game("kr6/8/8/8/8/8/6PP/1r5K w - - 0 61").outcome == rules.Outcome("0-1", "checkmate")
    late = game("kr6/8/8/8/8/8/6PP/1r5K w - - 0 62").outcome
    assert late == rules.Outcome("1-0", "Black did not mate within 60 moves")
