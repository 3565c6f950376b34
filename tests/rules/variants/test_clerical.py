"""Clerical Chess through the public API: win by capturing both enemy bishops."""
import chess
import pytest

import rules

from .support import refusal

SLUG = "clerical"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- set-up ----------------------------------------------------------------------------------
def test_starts_from_the_fide_array_with_no_castling_field():
    game = rules.new_game(SLUG)
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    # 16 pawn moves + 4 knight moves, as in FIDE chess.
    assert len(game.legal_moves()) == 20
    assert game.outcome is None


def test_plain_fen_with_castling_rights_loads_and_writes_a_dash():
    game = game_at("r3k2r/pb6/8/8/8/8/PB6/R3K2R w KQkq - 0 1")
    assert game.fen() == "r3k2r/pb6/8/8/8/8/PB6/R3K2R w - - 0 1"


# -- the king is an ordinary man -----------------------------------------------------------
def test_there_is_no_castling():
    game = game_at("r3k2r/pb6/8/8/8/8/PB6/R3K2R w KQkq - 0 1")
    assert "e1g1" not in game.legal_moves() and "e1c1" not in game.legal_moves()
    assert "castling" in refusal(game, "O-O")
    assert "castling" in refusal(game, "e1c1")


def test_king_may_move_onto_an_attacked_square():
    # The black rook on d8 covers the whole d-file.
    game = game_at("3rk3/1b6/8/8/8/8/1B6/4K3 w - - 0 1")
    assert "e1d1" in game.legal_moves() and "e1d2" in game.legal_moves()
    assert game.view().checks == ()


def test_king_under_attack_need_not_be_saved():
    # The white king stands attacked by the rook on e8; White may ignore it.
    game = game_at("4r1k1/1b6/8/8/8/8/1B6/4K3 w - - 0 1")
    assert "b2c3" in game.legal_moves()
    game.play("Bc3")
    assert game.outcome is None


def test_capturing_the_king_does_not_end_the_game():
    game = game_at("4r1k1/1b6/8/8/8/8/1B6/4K3 b - - 0 1")
    game.play("Rxe1")
    assert game.outcome is None
    assert game.turn == "white" and game.legal_moves()


def test_a_fide_checkmate_is_not_the_end():
    # Back-rank "mate" on the white king: the game goes on and White may move the bishop.
    game = game_at("3r2k1/1b6/8/8/8/8/1B3PPP/6K1 b - - 0 1")
    game.play("Rd1")
    assert game.outcome is None
    assert "b2c3" in game.legal_moves()


def test_a_side_may_have_no_king():
    game = game_at("6k1/1b6/8/8/8/8/1B6/8 w - - 0 1")
    assert game.outcome is None
    # Bishop b2: a1, c1, a3, and c3..h8 (6 squares to h8, which is empty) = 9.
    assert len(game.legal_moves()) == 9


# -- winning -------------------------------------------------------------------------------
def test_capturing_the_last_enemy_bishop_wins():
    game = game_at("4k3/8/8/8/4b3/8/8/B3R1K1 w - - 0 1")
    game.play("Rxe4")
    assert game.outcome == rules.Outcome("1-0", "both bishops captured")
    assert game.legal_moves() == []


def test_black_wins_by_capturing_whites_last_bishop():
    game = game_at("4k1r1/1b6/8/8/8/8/6B1/2B1K3 b - - 0 1")
    game.play("Rxg2")
    assert game.outcome is None      # one of two bishops taken: not yet
    game = game_at("4k1r1/1b6/8/8/8/8/6B1/4K3 b - - 0 1")
    game.play("Rxg2")
    assert game.outcome.result == "0-1" and "bishop" in game.outcome.reason


def test_capturing_one_of_two_bishops_does_not_win():
    game = game_at("2b1kb2/8/8/8/8/8/8/B3KR2 w - - 0 1")
    game.play("Rxf8")
    assert game.outcome is None
    assert game.legal_moves()


def test_after_a_king_is_captured_the_bishops_still_decide():
    game = game_at("4k3/8/8/5b2/8/8/4r3/B3KR2 b - - 0 1")
    game.play("Rxe1")
    assert game.outcome is None
    game.play("Rxf5")
    assert game.outcome == rules.Outcome("1-0", "both bishops captured")


# -- the last bishop under attack --------------------------------------------------------
LONE_BISHOP = "1b5k/8/8/8/r2B4/8/8/7K w - - 0 1"


def test_last_bishop_under_attack_may_only_step_one_square():
    game = game_at(LONE_BISHOP)
    bishop = sorted(m for m in game.legal_moves() if m.startswith("d4"))
    assert bishop == ["d4c3", "d4c5", "d4e3", "d4e5"]
    # King h1: g1, g2, h2 (3) + bishop: 4 single steps = 7.
    assert len(game.legal_moves()) == 7


def test_refused_long_move_of_the_last_bishop_says_why():
    game = game_at(LONE_BISHOP)
    assert "last bishop is attacked" in refusal(game, "d4a7")
    assert "one square diagonally" in refusal(game, "Bg7")


def test_unattacked_last_bishop_moves_freely():
    # Same position without the rook: d4 reaches 3 + 4 (to h8, capturing) + 3 + 3 = 13 squares.
    game = game_at("1b5k/8/8/8/3B4/8/8/7K w - - 0 1")
    assert len([m for m in game.legal_moves() if m.startswith("d4")]) == 13


def test_restricted_bishop_may_capture_one_square_away():
    game = game_at("1b5k/8/8/4n3/r2B4/8/8/7K w - - 0 1")
    assert "d4e5" in game.legal_moves()
    game.play("Bxe5")
    assert game.outcome is None


def test_player_need_not_answer_the_threat_to_the_last_bishop():
    game = game_at(LONE_BISHOP)
    game.play("Kg2")
    assert game.outcome is None


def test_attack_by_a_pawn_restricts_the_last_bishop():
    game = game_at("1b5k/8/8/4p3/3B4/8/8/7K w - - 0 1")
    assert sorted(m for m in game.legal_moves() if m.startswith("d4")) == ["d4c3", "d4c5", "d4e3", "d4e5"]


def test_attack_by_a_king_restricts_the_last_bishop():
    game = game_at("1b6/8/8/3k4/8/3B4/8/7K w - - 0 1")   # black king d5 is two squares away
    assert "d3a6" in game.legal_moves()
    game = game_at("1b6/8/8/8/2k5/3B4/8/7K w - - 0 1")   # black king c4 touches d3
    assert sorted(m for m in game.legal_moves() if m.startswith("d3")) == ["d3c2", "d3c4", "d3e2", "d3e4"]


def test_attack_through_a_pinned_man_still_counts():
    # The black knight on c6 "shields" the black king from the white rook, but there is no check:
    # its attack on d4 restricts White's only bishop.
    game = game_at("2k3b1/8/2n5/8/3B4/8/8/2R4K w - - 0 1")
    assert "d4a7" not in game.legal_moves() and "d4c5" in game.legal_moves()


def test_with_two_bishops_neither_is_restricted_even_if_both_are_attacked():
    game = game_at("1b5k/8/8/8/r2B3r/8/8/B6K w - - 0 1")
    assert "d4a7" in game.legal_moves()
    assert "a1c3" in game.legal_moves()


def test_restricted_bishop_may_step_onto_another_attacked_square():
    # e5 is attacked by the black knight on f7; the bishop may still step there.
    game = game_at("1b5k/5n2/8/8/r2B4/8/8/7K w - - 0 1")
    assert "d4e5" in game.legal_moves()


def test_restriction_is_judged_at_the_start_of_the_turn_only():
    # Not attacked now: the bishop may run onto an attacked square far away.
    game = game_at("1b5k/8/8/8/3B4/8/r7/7K w - - 0 1")
    assert "d4b2" in game.legal_moves()                # b2 is on the rook's rank: attacked
    game.play("Bb2")
    # Now Black moves; next White turn the bishop on b2 is attacked by the rook on a2.
    game.play("h8g8")
    assert sorted(m for m in game.legal_moves() if m.startswith("b2")) == ["b2a1", "b2a3", "b2c1", "b2c3"]


def test_restriction_applies_to_black_too():
    game = game_at("7k/8/8/3b4/8/8/8/B2R3K b - - 0 1")
    assert sorted(m for m in game.legal_moves() if m.startswith("d5")) == ["d5c4", "d5c6", "d5e4", "d5e6"]


# -- promotion -----------------------------------------------------------------------------
PROMOTE = "4k3/1P5b/8/8/8/8/8/2B1K3 w - - 0 1"


def test_pawn_promotes_to_queen_rook_knight_or_king_but_not_bishop():
    game = game_at(PROMOTE)
    promos = sorted(m for m in game.legal_moves() if m.startswith("b7"))
    assert promos == ["b7b8k", "b7b8n", "b7b8q", "b7b8r"]


def test_bishop_promotion_is_refused_with_a_reason():
    game = game_at(PROMOTE)
    assert "bishop" in refusal(game, "b7b8b")
    assert "bishop" in refusal(game, "b8=B")


def test_promotion_to_king_in_san_and_the_new_king_moves_as_a_king():
    game = game_at(PROMOTE)
    assert game.play("b8=K") == "b7b8k"
    assert game.fen() == "1K2k3/7b/8/8/8/8/8/2B1K3 b - - 0 1"
    game.play("Kd8")
    # Two white kings: b8 has a7, a8, b7, c7, c8 (5); e1 has d1, d2, e2, f1, f2 (5);
    # bishop c1 has b2, a3, d2, e3, f4, g5, h6 (7, d2 shared square but a different man) = 17.
    assert len(game.legal_moves()) == 17
    assert game.play("Kbc7") == "b8c7"


def test_several_kings_round_trip_through_fen():
    fen = "1K2k3/7b/8/8/8/8/8/2B1K3 b - - 0 1"
    game = game_at(fen)
    assert game.fen() == fen
    assert rules.new_game(SLUG, fen=game.fen()).legal_moves() == game.legal_moves()


@pytest.mark.parametrize("fen", [
    "P3k3/8/8/8/8/8/8/B3K2b w - - 0 1",        # pawn on the last rank
    "4k3/8/8/8/8/8/8/B3K2b w - e3 0 1",        # en passant square with no pawn behind it
    "4k3/pppppppp/p7/8/8/8/8/B3K2b w - - 0 1",  # nine black pawns
])
def test_impossible_set_up_positions_are_refused(fen):
    with pytest.raises(ValueError):
        game_at(fen)


def test_set_ups_with_no_king_or_many_kings_are_accepted():
    assert game_at("8/8/8/8/8/8/8/B6b w - - 0 1").outcome is None
    assert game_at("kkk5/8/8/8/8/8/8/BKK4b w - - 0 1").outcome is None


# -- other FIDE rules stay ------------------------------------------------------------------
def test_pawn_double_step_and_en_passant_stay():
    game = game_at("1b2k3/3p4/8/4P3/8/8/8/2B1K3 b - - 0 1")
    game.play("d5")
    assert game.fen().split()[3] == "d6"
    assert "e5d6" in game.legal_moves()
    game.play("exd6")
    assert game.fen() == "1b2k3/8/3P4/8/8/8/8/2B1K3 b - - 0 2"


def test_en_passant_survives_fen_even_when_it_exposes_the_king():
    # Capturing e.p. would "expose" the white king on a5 to the rook on h5: legal here.
    game = game_at("1b2k3/3p4/8/K3P2r/8/8/8/2B5 b - - 0 1")
    game.play("d5")
    again = rules.new_game(SLUG, fen=game.fen())
    assert "e5d6" in game.legal_moves() and "e5d6" in again.legal_moves()


# -- other ends ----------------------------------------------------------------------------
def test_a_side_without_a_bishop_in_the_fen_has_already_lost():
    game = game_at("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1")
    assert game.outcome == rules.Outcome("1-0", "both bishops captured")
    assert game.legal_moves() == []


def test_no_bishop_on_either_side_is_a_draw_at_start():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome.result == "1/2-1/2" and "bishop" in game.outcome.reason
    assert game.outcome.kind == rules.Ending.GOAL   # the goal met by both sides at once


def test_no_legal_move_is_a_draw():
    # White: bishop a1 shut in by its own pawn b2, which the black pawn on b3 blocks.
    game = game_at("7b/8/8/8/8/1p6/1P6/B7 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.result == "1/2-1/2" and "stalemate" in game.outcome.reason
    assert game.outcome.kind == rules.Ending.STALEMATE


def test_no_insufficient_material_draw():
    fen = "4k3/8/8/8/3b4/8/8/2B1K3 w - - 0 1"
    assert chess.Board(fen).is_insufficient_material()   # FIDE would call it dead
    assert game_at(fen).outcome is None


def test_threefold_repetition_is_claimable_and_fivefold_ends_the_game():
    game = game_at("4k3/1b6/8/8/8/8/1B6/4K3 w - - 0 1")
    shuffle = ["Kd1", "Kd8", "Ke1", "Ke8"]
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome is None and game.claimable_draw() == "threefold repetition"
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome.reason == "fivefold repetition"


def test_fifty_moves_claimable_and_seventy_five_automatic():
    assert game_at("4k3/1b6/8/8/8/8/1B6/4K3 w - - 100 80").claimable_draw().startswith("50 moves")
    assert game_at("4k3/1b6/8/8/8/8/1B6/4K3 w - - 150 80").outcome.reason.startswith("75 moves")


def test_undo_after_the_winning_capture_reopens_the_game():
    game = game_at("4k3/8/8/8/4b3/8/8/B3R1K1 w - - 0 1")
    game.play("Rxe4")
    assert game.outcome is not None
    game.undo()
    assert game.outcome is None
    assert game.fen() == "4k3/8/8/8/4b3/8/8/B3R1K1 w - - 0 1"
