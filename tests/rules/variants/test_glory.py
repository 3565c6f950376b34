"""Glory Chess through the public API: checkmate, or a pawn on the enemy's second rank that
survives the reply. No pawn double step."""
import chess

import rules

from .support import refusal, shuffle_knights

SLUG = "glory"
AT_ONCE = "pawn reached the second rank and could not be taken"
AFTER_REPLY = "pawn reached the second rank and was not captured"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- set-up and moves ----------------------------------------------------------------------
def test_starts_from_the_fide_array():
    game = rules.new_game(SLUG)
    assert game.fen() == chess.STARTING_FEN
    # 8 single pawn steps + 4 knight moves; no double steps.
    assert len(game.legal_moves()) == 12


def test_pawns_never_double_step():
    game = rules.new_game(SLUG)
    assert "e2e4" not in game.legal_moves() and "e2e3" in game.legal_moves()
    assert "double-step" in refusal(game, "e2e4")
    assert "double-step" in refusal(game, "e4")


def test_perft_two_from_the_start():
    # 12 x 12: neither side's first moves interfere (knights and single steps only).
    game = rules.new_game(SLUG)
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += len(game.legal_moves())
        game.undo()
    assert total == 144


def test_en_passant_field_is_ignored_and_written_as_dash():
    # As if Black had just played d7-d5: in Glory Chess no e.p. capture exists.
    game = game_at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert "e5d6" not in game.legal_moves()
    assert game.fen() == "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"


def test_castling_is_as_in_fide():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.play("O-O") == "e1g1"
    assert game.play("O-O-O") == "e8c8"


def test_moving_into_check_is_refused():
    game = game_at("k7/8/8/8/8/8/1r6/K7 w - - 0 1")
    assert "check" in refusal(game, "a1b1")


# -- checkmate -----------------------------------------------------------------------------
def test_checkmate_wins():
    game = game_at("k2r4/8/8/8/8/8/5PPP/6K1 b - - 0 1")
    game.play("Rd1")
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.view().checks == ("g1",)


def test_check_a_double_step_would_block_is_checkmate():
    # Rook a5 checks the king on h5 along the fifth rank. In FIDE chess e7-e5 would block it;
    # here that move does not exist, so Black is mated.
    fen = "5B1N/4p3/8/R6k/8/6K1/8/8 b - - 0 1"
    assert [m.uci() for m in chess.Board(fen).legal_moves] == ["e7e5"]
    game = game_at(fen)
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("1-0", "checkmate")


def test_stalemate_is_a_draw():
    game = game_at("k7/8/1Q6/8/8/8/8/7K b - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


# -- glory ---------------------------------------------------------------------------------
def test_pawn_on_the_seventh_that_cannot_be_taken_wins_at_once():
    game = game_at("7k/8/1P6/8/8/8/8/K7 w - - 0 1")
    game.play("b7")
    assert game.outcome == rules.Outcome("1-0", AT_ONCE)
    assert game.legal_moves() == []


def test_black_pawn_on_the_second_rank_wins_for_black():
    game = game_at("k7/8/8/8/8/1p6/8/7K b - - 0 1")
    game.play("b2")
    assert game.outcome == rules.Outcome("0-1", AT_ONCE)


def test_pawn_may_arrive_by_capture():
    game = game_at("7k/p7/1P6/8/8/8/8/K7 w - - 0 1")
    game.play("bxa7")
    assert game.outcome == rules.Outcome("1-0", AT_ONCE)


def test_pawn_the_opponent_can_take_does_not_win_yet():
    game = game_at("2k5/8/1P6/8/8/8/8/K7 w - - 0 1")
    game.play("b7+")
    assert game.outcome is None
    # Black's king answers the check: b7 (capture), b8, c7, d7, d8 = 5.
    assert sorted(game.legal_moves()) == ["c8b7", "c8b8", "c8c7", "c8d7", "c8d8"]


def test_pawn_left_standing_by_the_reply_wins():
    game = game_at("2k5/8/1P6/8/8/8/8/K7 w - - 0 1")
    game.play("b7+")
    game.play("Kd7")
    assert game.outcome == rules.Outcome("1-0", AFTER_REPLY)
    assert game.legal_moves() == []


def test_pawn_taken_by_the_reply_does_not_win():
    game = game_at("2k5/8/1P6/8/8/8/8/K6R w - - 0 1")
    game.play("b7+")
    game.play("Kxb7")
    assert game.outcome is None


def test_a_reply_that_checkmates_wins_even_if_the_pawn_stands():
    # After b7 Black could take with the rook on b8, but mates on d1 instead.
    game = game_at("1r1r3k/8/1P6/8/8/8/6PP/7K w - - 0 1")
    game.play("b7")
    assert game.outcome is None
    game.play("Rd1")
    assert game.outcome == rules.Outcome("0-1", "checkmate")


def test_glory_beats_stalemate_when_the_pawn_arrives():
    # h7 is guarded by the king on g6 and covers g8: Black has no move, and cannot take h7.
    game = game_at("7k/8/6KP/8/8/8/8/8 w - - 0 1")
    game.play("h7")
    assert game.outcome == rules.Outcome("1-0", AT_ONCE)


def test_glory_beats_stalemate_when_the_reply_stalemates_the_pawns_owner():
    # Black could take b7 (rook b8 or queen c7) but plays Qc2, stalemating White: b7 stands.
    game = game_at("1r5k/1Pq5/8/8/8/8/8/K7 b - - 0 1")
    assert game.outcome is None
    game.play("Qc2")
    assert game.outcome == rules.Outcome("1-0", AFTER_REPLY)


def test_fen_pawn_on_the_seventh_with_its_owner_to_move_does_not_win_by_itself():
    game = game_at("7k/1P6/8/8/8/8/8/K7 w - - 0 1")
    assert game.outcome is None
    # Promotion stays as in FIDE for such positions: Q, R, B, N.
    assert {"b7b8q", "b7b8r", "b7b8b", "b7b8n"} <= set(game.legal_moves())


def test_fen_pawn_left_on_the_seventh_is_advanced_for_the_opponents_turn():
    game = game_at("7k/1P6/8/8/8/8/8/K7 w - - 0 1")
    game.play("Ka2")
    assert game.outcome == rules.Outcome("1-0", AT_ONCE)


def test_fen_with_the_opponent_to_move_reads_the_pawn_as_just_arrived():
    assert game_at("7k/1P6/8/8/8/8/8/K7 b - - 0 1").outcome == rules.Outcome("1-0", AT_ONCE)
    # ...and if Black can take it, the game goes on.
    assert game_at("1r5k/1P6/8/8/8/8/8/K7 b - - 0 1").outcome is None


def test_two_advanced_pawns_win_at_once_even_if_one_can_be_taken():
    game = game_at("1r5k/1PP5/8/8/8/8/8/K7 b - - 0 1")
    assert game.outcome == rules.Outcome("1-0", AT_ONCE)


def test_promotion_from_the_seventh_is_allowed_and_not_glory():
    game = game_at("7k/1P6/8/8/8/8/8/K7 w - - 0 1")
    game.play("b8=Q+")
    assert game.outcome is None


def test_glory_is_undone_by_undo():
    game = game_at("7k/8/1P6/8/8/8/8/K7 w - - 0 1")
    game.play("b7")
    game.undo()
    assert game.outcome is None and game.fen() == "7k/8/1P6/8/8/8/8/K7 w - - 0 1"


# -- draws ---------------------------------------------------------------------------------
def test_insufficient_material_is_a_draw():
    assert game_at("k7/8/8/8/8/8/8/6NK w - - 0 1").outcome.reason == "insufficient material"


def test_threefold_repetition_is_claimable():
    game = rules.new_game(SLUG)
    shuffle_knights(game, 2)
    assert game.outcome is None and game.claimable_draw() == "threefold repetition"


def test_en_passant_field_is_ignored_even_when_python_chess_would_call_it_invalid():
    # Ruling 7 / "Its en passant field is ignored": no pawn stands on e5, yet the FEN still loads.
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - e6 0 1")
    assert game.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
