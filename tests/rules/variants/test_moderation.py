"""Moderation Chess through the public API: at most three checks each; a fourth must mate."""
import chess
import pytest

import rules

from .support import shuffle_knights


def game(fen=None):
    return rules.new_game("moderation", fen=fen)


def counters(g):
    return g.fen().split()[6]


def test_start_is_fide_with_no_checks_used():
    g = game()
    assert g.fen() == chess.STARTING_FEN + " +0+0"
    assert len(g.legal_moves()) == 20


def test_plain_fen_means_no_checks_used():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert counters(g) == "+0+0"


def test_checks_field_round_trips():
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+1"
    assert game(fen).fen() == fen


@pytest.mark.parametrize("field", ["+4+0", "3+3", "+1", "x", "+1+1 extra"])
def test_bad_checks_field_is_refused(field):
    with pytest.raises(ValueError):
        game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 " + field)


def test_a_direct_check_uses_one_of_the_movers_checks():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +0+1")
    g.play("Ra8")
    assert counters(g) == "+1+1"


def test_a_discovered_check_counts_as_one():
    g = game("4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1")
    g.play("Bb7")
    assert counters(g) == "+1+0"


def test_a_double_check_counts_as_one():
    g = game("4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1")
    g.play("Bc6")
    assert counters(g) == "+1+0"


def test_checks_by_castling_and_by_promotion_count():
    g = game("5k2/8/8/8/8/8/8/4K2R w K - 0 1 +1+2")
    g.play("O-O")
    assert counters(g) == "+2+2"
    g = game("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    g.play("a8=Q")
    assert counters(g) == "+1+0"


def test_a_quiet_move_uses_no_check():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +1+0")
    g.play("Ra7")
    assert counters(g) == "+1+0"


def test_budgets_are_per_player():
    g = game("4k3/8/8/8/8/8/r7/4K3 b - - 0 1 +3+0")
    g.play("Ra1")   # Black's check: White's spent budget does not matter
    assert counters(g) == "+3+1"


def test_third_check_is_free_even_without_mate():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0")
    assert "a1a8" in g.legal_moves()
    g.play("a1a8")
    assert counters(g) == "+3+0"
    assert g.outcome is None


def test_fourth_check_is_refused_unless_it_mates():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +3+0")
    # Rook: a2-a7 (6) and b1-d1 (3); king: d1, d2, e2, f2, f1 (5). Ra8+ is gone: 14, not 15.
    assert len(g.legal_moves()) == 14
    assert "a1a8" not in g.legal_moves()
    with pytest.raises(rules.IllegalMove, match="checks"):
        g.play("a1a8")
    assert g.fen() == "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +3+0"


def test_fourth_check_that_mates_is_allowed_and_wins():
    g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 +3+0")
    g.play("Ra8")
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "checkmate")
    assert counters(g) == "+3+0"   # the count stops at three


def test_in_check_and_only_checking_replies_is_checkmate():
    # Ng6+ against Kh8: the only FIDE reply hxg6 checks Kh5, and Black has no checks left.
    g = game("6rk/6pp/6N1/7K/8/8/8/8 b - - 0 1 +0+3")
    assert g.legal_moves() == []
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "checkmate")


def test_the_same_reply_is_fine_while_checks_remain():
    g = game("6rk/6pp/6N1/7K/8/8/8/8 b - - 0 1 +0+2")
    assert g.legal_moves() == ["h7g6"]
    g.play("hxg6")
    assert counters(g) == "+0+3"


def test_fourth_check_whose_only_answers_are_forbidden_checks_is_mate():
    # Decision: Ng6+ is not a FIDE mate (hxg6+ answers it), but Black has no checks left, so
    # Black has no legal reply: the check is checkmate and White may give it.
    g = game("6rk/6pp/8/4N2K/8/8/8/8 w - - 0 1 +3+3")
    g.play("Ng6")
    assert (g.outcome.result, g.outcome.reason) == ("1-0", "checkmate")


def test_fourth_check_answerable_by_a_permitted_check_is_refused():
    g = game("6rk/6pp/8/4N2K/8/8/8/8 w - - 0 1 +3+2")
    assert "e5g6" not in g.legal_moves()
    assert "e5f7" in g.legal_moves()   # Nf7 is a smothered mate, so it stays legal


def test_not_in_check_and_only_checking_moves_is_stalemate():
    # White's king a1 cannot move (Rb8, Nc3); the only move e7+ would be a fourth check.
    g = game("1r3k2/8/4P3/8/8/2n5/8/K7 w - - 0 1 +3+0")
    assert g.legal_moves() == []
    assert (g.outcome.result, g.outcome.reason) == ("1/2-1/2", "stalemate")
    assert game("1r3k2/8/4P3/8/8/2n5/8/K7 w - - 0 1 +2+0").legal_moves() == ["e6e7"]


def test_ordinary_checkmate_wins():
    g = game()
    for move in ["f3", "e5", "g4", "Qh4"]:
        g.play(move)
    assert (g.outcome.result, g.outcome.reason) == ("0-1", "checkmate")
    assert counters(g) == "+0+1"


def test_insufficient_material_draws_as_in_standard_chess():
    g = game("k7/8/8/8/8/8/8/6NK w - - 0 1")
    assert (g.outcome.result, g.outcome.reason) == ("1/2-1/2", "insufficient material")


def test_repetition_draws_as_in_standard_chess():
    g = game()
    shuffle_knights(g, 2)
    assert g.outcome is None and g.claimable_draw() == "threefold repetition"
    shuffle_knights(g, 2)
    assert g.outcome.reason == "fivefold repetition"


def test_checks_survive_undo_and_reload():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0")
    g.play("Ra8")
    fen = g.fen()
    assert rules.new_game("moderation", fen=fen).fen() == fen
    g.undo()
    assert counters(g) == "+2+0"
    assert "a1a8" in g.legal_moves()


def test_repetition_counts_only_positions_with_the_same_budgets():
    # Board-wise the start position recurs after each Qa4+ Ke7 Qa1 Ke8 cycle, but every check
    # changes White's budget, so those are different positions (as in python-chess Three-check).
    g = game("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    for move in ["Qa4", "Ke7", "Qa1", "Ke8"] * 3:
        g.play(move)
    assert counters(g) == "+3+0"
    assert g.claimable_draw() is None
    for move in ["Qa2", "Kd8", "Qa1", "Ke8"] * 2:
        g.play(move)
    assert g.claimable_draw() == "threefold repetition"
