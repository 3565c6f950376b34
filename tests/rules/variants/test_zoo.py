"""Zoo Chess through the public API: first to capture four different kinds of enemy men wins."""
import pytest

import rules

from .support import refusal

SLUG = "zoo"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def captured(game):
    return game.fen().split()[6]


# -- set-up and FEN ------------------------------------------------------------------------
def test_starts_from_the_fide_array_with_nothing_captured():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 -/-"
    # 16 pawn moves + 4 knight moves.
    assert len(game.legal_moves()) == 20


def test_plain_six_field_fen_means_nothing_captured():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert captured(game) == "-/-"


def test_seventh_field_lists_each_sides_captured_kinds_in_a_fixed_order():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1 nP/q")
    assert captured(game) == "pn/q"
    assert rules.new_game(SLUG, fen=game.fen()).fen() == game.fen()


@pytest.mark.parametrize("extra", ["pz/-", "pp/-", "p", "p/q/r", "-/- -"])
def test_bad_seventh_field_is_refused(extra):
    with pytest.raises(ValueError):
        game_at(f"4k3/8/8/8/8/8/8/4K3 w - - 0 1 {extra}")


def test_both_sides_with_four_kinds_is_refused():
    with pytest.raises(ValueError):
        game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1 pnbr/pnbq")


@pytest.mark.parametrize("fen", [
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",          # pawn on the last rank
    "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",          # en passant square with no pawn behind it
    "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",          # two white kings: no promotion can make one
])
def test_impossible_set_up_positions_are_refused(fen):
    with pytest.raises(ValueError):
        game_at(fen)


def test_a_side_without_a_king_is_a_valid_set_up():
    game = game_at("8/8/8/8/8/8/8/4K3 b - - 0 1 k/-")
    assert game.outcome is not None   # no black man can move: stalemate, a draw
    assert game.outcome.result == "1/2-1/2"


# -- no castling, no check -----------------------------------------------------------------
def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.fen().split()[2] == "-"
    assert "e1g1" not in game.legal_moves()
    assert "castling" in refusal(game, "O-O")


def test_king_may_step_onto_an_attacked_square_even_next_to_the_enemy_king():
    game = game_at("8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    # A lone king has all 8 steps, including d4, c4 and e4 next to the black king.
    assert len(game.legal_moves()) == 8
    assert "d3d4" in game.legal_moves()
    assert game.view().checks == ()


def test_a_king_may_be_captured_and_the_game_goes_on():
    game = game_at("4k3/8/8/8/8/8/7P/r3K3 b - - 0 1")
    game.play("Rxe1")
    assert game.outcome is None
    assert captured(game) == "-/k"
    assert game.legal_moves() == ["h2h3", "h2h4"]


def test_attacked_king_need_not_be_saved():
    game = game_at("4k3/8/8/8/8/8/P7/r3K3 w - - 0 1")
    game.play("a3")
    assert game.outcome is None


# -- captures and the win ------------------------------------------------------------------
def test_each_capture_records_the_kind_and_undo_restores_it():
    game = game_at("4k3/8/8/3p4/4N3/8/8/4K3 b - - 0 1")
    game.play("dxe4")
    assert captured(game) == "-/n"
    again = rules.new_game(SLUG, fen=game.fen())
    assert captured(again) == "-/n"
    game.undo()
    assert captured(game) == "-/-"


def test_fourth_kind_captured_wins_at_once():
    game = game_at("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1 pnb/-")
    game.play("Qxd5")
    assert game.outcome == rules.Outcome("1-0", "four kinds captured")
    assert game.legal_moves() == []


def test_black_wins_with_four_kinds_too():
    game = game_at("4k3/8/8/8/8/8/8/q3K3 b - - 0 1 -/pnb")
    game.play("Qxe1")
    assert game.outcome == rules.Outcome("0-1", "four kinds captured")


def test_the_king_counts_as_a_kind():
    game = game_at("4k3/8/8/8/8/8/8/r3K3 b - - 0 1 -/pnb")
    game.play("Rxe1")
    assert game.outcome.result == "0-1"


def test_capturing_a_kind_already_taken_counts_once():
    game = game_at("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1 pnb/-")
    game.play("Qxd5")
    assert captured(game) == "pnb/-"
    assert game.outcome is None


def test_three_kinds_do_not_win():
    game = game_at("4k3/8/8/3b4/8/8/8/3QK3 w - - 0 1 pn/-")
    game.play("Qxd5")
    assert captured(game) == "pnb/-" and game.outcome is None


def test_promoted_queen_counts_as_a_queen():
    game = game_at("4k3/8/8/8/8/8/p7/1R2K3 b - - 0 1 -/-")
    game.play("a1=Q")
    game.play("Rb1a1")   # the rook b1 takes the new queen along the first rank
    assert captured(game) == "q/-"


def test_en_passant_captures_a_pawn():
    game = game_at("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    game.play("d5")
    assert "e5d6" in game.legal_moves()
    game.play("exd6")
    assert captured(game) == "p/-"


def test_en_passant_right_survives_fen_even_when_it_exposes_the_king():
    game = game_at("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1")
    game.play("d5")
    assert game.fen().split()[3] == "d6"
    assert "e5d6" in rules.new_game(SLUG, fen=game.fen()).legal_moves()


def test_promotion_is_to_queen_rook_bishop_or_knight():
    game = game_at("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert sorted(m for m in game.legal_moves() if m.startswith("a7")) == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]


def test_fen_with_four_kinds_already_captured_is_decided():
    game = game_at("4k3/8/8/8/8/8/8/4K3 b - - 0 1 pnbr/q")
    assert game.outcome == rules.Outcome("1-0", "four kinds captured")


# -- draws ---------------------------------------------------------------------------------
def test_no_legal_move_is_a_draw():
    # Only two pawns, blocking each other: White cannot move.
    game = game_at("8/8/8/8/8/p7/P7/8 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "1/2-1/2" and "stalemate" in game.outcome.reason
    assert game.outcome.kind == rules.Ending.STALEMATE


def test_bare_kings_are_not_a_dead_position():
    assert game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome is None


def test_repetition_claim_and_fivefold_end():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    shuffle = ["Kd1", "Kd8", "Ke1", "Ke8"]
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome is None and game.claimable_draw() == "threefold repetition"
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome.reason == "fivefold repetition"


def test_fifty_moves_claimable_and_seventy_five_automatic():
    assert game_at("4k3/8/8/8/8/8/8/4K3 w - - 100 80").claimable_draw().startswith("50 moves")
    assert game_at("4k3/8/8/8/8/8/8/4K3 w - - 150 80").outcome.reason.startswith("75 moves")
