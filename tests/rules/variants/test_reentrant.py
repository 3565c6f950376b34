"""Reentrant Chess through the public API: ownership by colour and half, confinement, re-entry."""
import pytest

import rules

from .support import refusal
from tests.rules.variants.support import perft

SLUG = "reentrant"
START = "RNQ2knr/PPPPpppp/8/8/8/8/ppppPPPP/rnq2KNR w - - 0 1"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def test_start_array_and_fen_follow_the_ruling():
    game = rules.new_game(SLUG)
    assert game.fen() == START
    assert game.turn == "white"


def test_the_first_player_owns_black_men_on_a_to_d_and_white_men_on_e_to_h():
    game = rules.new_game(SLUG)
    owners = game.view().owners
    assert owners["a1"] == owners["f1"] == owners["d2"] == owners["e2"] == "white"
    assert owners["a8"] == owners["f8"] == owners["d7"] == owners["e7"] == "black"
    starts = {m[:2] for m in game.legal_moves()}
    assert {"b1", "c1", "d2", "g1", "f1", "e2"} <= starts and not any(s[1] in "78" for s in starts)


def test_pawns_step_along_rank_or_file_in_any_direction_at_the_start():
    moves = rules.new_game(SLUG).legal_moves()
    assert {"d2d1", "e2e1", "d2d3", "e2e3"} <= set(moves)


def test_kings_and_queens_both_step_one_square():
    game = rules.new_game(SLUG)
    assert {"c1d1", "f1e1"} <= set(game.legal_moves())
    assert not any(m.startswith("c1") and m != "c1d1" for m in game.legal_moves())


def test_no_man_crosses_the_centre_line():
    game = game_at("4k3/8/8/8/3n4/8/8/r3K3 w - - 0 1")
    rook = {m for m in game.legal_moves() if m.startswith("a1")}
    assert {"a1b1", "a1c1", "a1d1", "a1a8"} <= rook and "a1e1" not in rook
    knight = {m[2:] for m in game.legal_moves() if m.startswith("d4")}
    assert knight == {"b3", "b5", "c2", "c6"}
    assert "centre line" in refusal(game, "a1e1")


def test_a_man_has_no_effect_on_the_other_half():
    # The second player's white rook on d1 (a-d half) does not reach e1 or f1 across the line.
    game = game_at("4k3/8/8/8/8/8/8/3R1K2 w - - 0 1")
    assert game.view().checks == ()
    assert "f1e1" in game.legal_moves()


def test_pawns_capture_diagonally_in_any_direction_never_step_two_and_never_promote():
    game = game_at("4k3/2p5/8/2R5/1p6/8/8/4K3 w - - 0 1")
    pawn = {m for m in game.legal_moves() if m.startswith("b4")}
    assert pawn == {"b4b5", "b4b3", "b4a4", "b4c4", "b4c5"}
    top = {m for m in game.legal_moves() if m.startswith("c7")}
    assert "c7c8" in top
    assert "never promote" in refusal(game, "c7c8q")


def test_a_captured_man_goes_to_the_capturers_hand_in_its_colour():
    game = game_at("4k3/7p/8/8/8/8/8/4K2R w - - 0 1")
    game.play("h1h7")
    assert game.fen() == "4k3/7R/8/8/8/8/8/4K3[p,] b - - 0 1"
    assert game.view().hands == {"white": "p", "black": ""}
    assert "holds black pawn" in game.describe() or "holds pawn" in game.describe()


def test_a_man_in_hand_re_enters_on_the_other_half_where_the_dropper_has_its_colour():
    game = game_at("RNQ2knr/PPPPpppp/8/8/8/8/ppppPPPP/rnq2KNR[Pn,r] w - - 0 5")
    moves = set(game.legal_moves())
    assert "P@e4" in moves and "P@a4" not in moves
    assert "N@a4" in moves and "N@e4" not in moves
    assert "re-enters only on files" in refusal(game, "P@a4")
    game.play("P@e4")
    assert game.fen().startswith("RNQ2knr/PPPPpppp/8/8/4P3/8/ppppPPPP/rnq2KNR[n,r] b")


def test_drops_land_on_any_vacant_square_of_that_half_even_the_last_rank():
    game = game_at("4k3/8/8/8/8/8/8/4K3[p,] w - - 0 1")
    squares = {m[2:] for m in game.legal_moves() if m.startswith("P@")}
    assert len(squares) == 32 and {"a8", "d1"} <= squares


def test_a_drop_may_give_check():
    game = game_at("4k3/8/8/8/8/8/8/4K3[N,] w - - 0 1")
    game.play("N@f6")
    assert game.view().checks == ("e8",)


def test_hands_round_trip_through_the_fen():
    fen = game_at("RNQ2knr/PPPPpppp/8/8/8/8/ppppPPPP/rnq2KNR[NPn,pr] w - - 0 5").fen()
    assert fen == "RNQ2knr/PPPPpppp/8/8/8/8/ppppPPPP/rnq2KNR[NnP,rp] w - - 0 5"   # rooks, knights, pawns
    assert game_at(fen).fen() == fen


def test_checkmating_either_monarch_wins():
    game = game_at("RR5k/8/8/8/8/8/8/q4K2 w - - 0 1")
    assert game.outcome.result == "0-1"
    assert game.outcome.kind == "checkmate"


def test_no_move_and_no_check_is_stalemate():
    game = game_at("4k1r1/8/8/8/8/8/4r3/7K w - - 0 1")
    assert game.outcome.result == "1/2-1/2"
    assert game.outcome.kind == "stalemate"


def test_a_move_may_not_leave_either_monarch_in_check():
    game = game_at("R6k/8/8/8/8/8/8/q4K2 w - - 0 1")
    assert all(m.startswith("a1") for m in game.legal_moves())
    assert "monarchs in check" in refusal(game, "f1e1")


def test_monarchs_are_never_captured_and_only_pawns_knights_and_rooks_enter_a_hand():
    with pytest.raises(ValueError):
        game_at("4k3/8/8/8/8/8/8/4K3[Q,] w - - 0 1")


def test_castling_and_en_passant_fields_are_always_empty():
    fen = game_at("4k3/8/8/8/8/8/8/4K3 w KQkq e3 0 1").fen()
    assert fen.split()[2:4] == ["-", "-"]


def test_there_are_no_bishops():
    with pytest.raises(ValueError):
        game_at("4kb2/8/8/8/8/8/8/4K3 w - - 0 1")


def test_perft_from_the_start_counts_sixteen_then_sixteen_squared():
    game = rules.new_game(SLUG)
    assert perft(game, 1) == 16
    assert perft(game, 2) == 256     # the two armies cannot touch each other yet
    assert game.fen() == START
