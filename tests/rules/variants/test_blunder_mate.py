"""Blunder-Mate Chess through the public API: FIDE chess, plus a win at the start of one's turn
when a different last move by the opponent would have allowed a mate in one."""
import random

import chess
import pytest

import rules

from .support import refusal

SLUG = "blunder-mate"

# White to move: Black threatens Ra1#. Only c8=Q and c8=R stop it; c8=B and c8=N do not.
PROMOTION = "8/2P5/8/k7/8/8/r5PP/7K w - - 0 1"
# White to move: Nxg7 takes Black's Queen and leaves a dead position (King and Knight against
# King), but another Knight move would have let the Queen mate.
CAPTURE_LEAVES_DEAD = "8/6q1/4N3/8/8/6k1/8/7K w - - 0 1"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def played(*moves, fen=None):
    game = rules.new_game(SLUG, fen=fen)
    for move in moves:
        game.play(move)
    return game


# -- men, moves, check and checkmate are FIDE ------------------------------------------------

def test_set_up_and_first_moves_are_fide():
    game = rules.new_game(SLUG)
    assert game.fen() == chess.STARTING_FEN
    assert len(game.legal_moves()) == 20
    assert game.outcome is None


def test_legal_moves_match_python_chess_along_random_games():
    rng = random.Random(4)
    for _ in range(6):
        game, board = rules.new_game(SLUG), chess.Board()
        while game.outcome is None:
            assert sorted(game.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
            move = rng.choice(game.legal_moves())
            game.play(move)
            board.push_uci(move)


def test_a_move_leaving_the_king_in_check_is_refused():
    game = game_at("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1")    # the Knight is pinned
    assert refusal(game, "e2c3") == "That leaves your king in check."


def test_checkmate_wins_as_in_chess():
    game = played("e3", "e5", "Qh5", "Ke7", "Qxe5")
    assert game.outcome == rules.Outcome("1-0", "checkmate")


# -- the document's first example: 1 f4 e6 --------------------------------------------------------

def test_after_1_f4_e6_nothing_is_decided_yet():
    assert played("f4", "e6").outcome is None


def test_after_1_f4_e6_every_white_move_but_g4_loses_to_a_blunder_mate():
    game = played("f4", "e6")
    losing = 0
    for move in game.legal_moves():
        game.play(move)
        if move == "g2g4":
            assert game.outcome is None
        else:
            assert game.outcome.result == "0-1", move
            assert "blunder-mate" in game.outcome.reason
            assert "2 g4 instead of" in game.outcome.reason
            assert "2...Qh4#" in game.outcome.reason
            losing += 1
        game.undo()
    assert losing == 19


def test_blunder_mate_reason_names_the_move_played_the_substitute_and_the_mate():
    game = played("f4", "e6", "Nf3")
    assert game.outcome == rules.Outcome(
        "0-1", "blunder-mate: had White played 2 g4 instead of 2 Nf3, Black would mate with 2...Qh4#")


def test_after_2_g4_itself_the_real_mate_decides():
    game = played("f4", "e6", "g4")
    assert game.outcome is None
    game.play("Qh4")
    assert game.outcome == rules.Outcome("0-1", "checkmate")


# -- the document's second example: 1 e3 e5 2 Qh5 ---------------------------------------------

def test_after_2_qh5_black_has_no_blunder_mate():
    assert played("e3", "e5", "Qh5").outcome is None


def test_after_2_qh5_every_black_reply_but_ke7_loses_to_a_blunder_mate():
    game = played("e3", "e5", "Qh5")
    losing = 0
    for move in game.legal_moves():
        game.play(move)
        if move == "e8e7":
            assert game.outcome is None
        else:
            assert game.outcome.result == "1-0", move
            assert "had Black played 2...Ke7 instead of" in game.outcome.reason
            assert game.outcome.reason.endswith("White would mate with 3 Qxe5#")
            losing += 1
        game.undo()
    assert losing == 26


# -- ruling 1: automatic, at the start of the claimant's turn -------------------------------------

def test_blunder_mate_ends_the_game_at_once_and_nothing_more_is_played():
    game = played("f4", "e6", "Nf3")
    assert game.legal_moves() == []
    assert refusal(game, "Qh4") == "The game is over."
    assert game.fen().split()[:6] == ["rnbqkbnr/pppp1ppp/4p3/8/5P2/5N2/PPPPP1PP/RNBQKB1R", "b", "KQkq", "-", "1", "2"]


# -- ruling 2: any other legal move of the opponent's, promotions included -------------------------

def test_a_different_promotion_piece_is_a_different_move():
    game = played("c8=N", fen=PROMOTION)
    assert game.outcome.result == "0-1"
    assert "had White played 1 c8=B instead of 1 c8=N" in game.outcome.reason


def test_the_first_substitute_in_move_order_is_named():
    game = played("c8=Q", fen=PROMOTION)
    assert "had White played 1 c8=B instead of 1 c8=Q, Black would mate with 1...Ra1#" in game.outcome.reason


def test_castling_rights_are_those_before_the_move_taken_back():
    # 1 Rb1 gives up the long castling, but 1 O-O-O was legal then, and Qc3 would mate after it.
    fen = "8/2k3q1/3p2q1/8/8/8/8/R3K2R w KQ - 0 1"
    assert played("Rb1", fen=fen).outcome == rules.Outcome(
        "0-1", "blunder-mate: had White played 1 O-O-O instead of 1 Rb1, Black would mate with 1...Qc3#")
    assert played("Rb1", fen=fen.replace("KQ", "K")).outcome is None


# -- ruling 3: only moves of this game can be taken back ------------------------------------------

def test_a_game_started_from_a_fen_has_nothing_to_take_back():
    # The position after 1 f4 e6 2 Nf3, given as a FEN: White's move cannot be retracted.
    game = game_at("rnbqkbnr/pppp1ppp/4p3/8/5P2/5N2/PPPPP1PP/RNBQKB1R b KQkq - 1 2")
    assert game.outcome is None
    assert game.legal_moves()


def test_the_first_move_of_a_fen_game_can_be_taken_back():
    game = played("Nf3", fen="rnbqkbnr/pppp1ppp/4p3/8/5P2/8/PPPPP1PP/RNBQKBNR w KQkq - 0 2")
    assert game.outcome.result == "0-1"
    assert "2 g4 instead of 2 Nf3" in game.outcome.reason


# -- ruling 4: checkmate and stalemate come first ---------------------------------------------------

def test_a_checkmated_player_cannot_blunder_mate():
    # Qg8 mates; had White played 1 Qg4 instead, Black would mate with Qb8.
    fen = "5K1k/3r4/8/8/8/8/1q6/1r4Q1 w - - 0 1"
    game = played("Qg8", fen=fen)
    assert game.outcome == rules.Outcome("1-0", "checkmate")
    other = played("Qh2", fen=fen)
    assert other.outcome == rules.Outcome(
        "0-1", "blunder-mate: had White played 1 Qg4 instead of 1 Qh2, Black would mate with 1...Qb8#")


def test_a_stalemated_player_cannot_blunder_mate():
    # Qxd6 stalemates Black; had White played 1 Qh7 instead, Black would mate with Qb8.
    fen = "K1k5/8/3q4/8/8/3Q4/8/8 w - - 0 1"
    assert played("Qxd6", fen=fen).outcome == rules.Outcome("1/2-1/2", "stalemate")
    assert played("Qd4", fen=fen).outcome == rules.Outcome(
        "0-1", "blunder-mate: had White played 1 Qh7 instead of 1 Qd4, Black would mate with 1...Qb8#")


# -- ruling 5: the mate in one must be a real move in the substituted position ---------------------

def test_a_substitute_that_mates_the_claimant_gives_him_nothing():
    # After 1 f3 e5 2 g4 a6, White could only point at 2...Qh4, which mates White himself.
    game = played("f3", "e5", "g4", "a6")
    assert game.outcome is None


# -- ruling 6: a real mate in one does not matter -----------------------------------------------

def test_blunder_mate_is_awarded_even_when_a_real_mate_is_on_the_board():
    game = played("c8=N", fen=PROMOTION)           # Black also has a real Ra1#
    assert game.outcome.result == "0-1"
    assert game.outcome.reason.startswith("blunder-mate")


def test_with_only_a_real_mate_the_player_must_play_it():
    game = played("e3", "e5", "Qh5", "Ke7")
    assert game.outcome is None
    assert "h5e5" in game.legal_moves()


# -- ruling 7: undo ------------------------------------------------------------------------------

def test_undo_after_a_blunder_mate_reopens_the_game():
    game = played("f4", "e6", "Nf3")
    game.undo()
    assert game.outcome is None
    assert "g2g4" in game.legal_moves()
    game.play("g4")
    assert game.outcome is None


# -- ruling 8: other draws only after the blunder-mate test -------------------------------------

def test_blunder_mate_beats_a_dead_position_left_by_the_last_move():
    game = played("Nxg7", fen=CAPTURE_LEAVES_DEAD)
    assert chess.Board(game.fen().split(" ", 6)[0] + " w - - 0 1").is_insufficient_material()
    assert game.outcome.result == "0-1"
    assert game.outcome.reason.startswith("blunder-mate: had White played 1 N")
    assert "instead of 1 Nxg7, Black would mate with 1...Q" in game.outcome.reason


def test_dead_position_without_a_blunder_mate_is_drawn():
    game = played("Kxb2", fen="8/8/8/8/8/8/1q6/K6k w - - 0 1")   # the only move
    assert game.outcome == rules.Outcome("1/2-1/2", "insufficient material")


def test_fivefold_repetition_still_draws():
    game = rules.new_game(SLUG)
    for _ in range(4):
        for move in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            game.play(move)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


# -- ruling 9: after the end --------------------------------------------------------------------

def test_playing_after_a_blunder_mate_is_refused_and_changes_nothing():
    game = played("e3", "e5", "Qh5", "a6")
    assert refusal(game, "Qxe5") == "The game is over."


# -- state and fen() ------------------------------------------------------------------------------

def test_running_game_fen_is_plain_six_fields():
    game = played("f4", "e6", "g4")
    assert len(game.fen().split()) == 6


def test_finished_blunder_mate_fen_is_the_plain_real_position():
    game = played("f4", "e6", "Nf3")
    assert game.outcome is not None
    assert game.fen() == "rnbqkbnr/pppp1ppp/4p3/8/5P2/5N2/PPPPP1PP/RNBQKB1R b KQkq - 1 2"


def test_fen_of_a_finished_blunder_mate_loads_with_nothing_to_take_back():
    # Ruling 3: a game started from a FEN has no retractable move until one is played.
    game = game_at(played("f4", "e6", "Nf3").fen())
    assert game.outcome is None
    assert "d8h4" in game.legal_moves()


def test_replaying_the_history_gives_the_same_outcome():
    game = played("e3", "e5", "Qh5", "Nc6")
    again = rules.new_game(SLUG)
    for move in game.history:
        again.play(move)
    assert again.outcome == game.outcome


@pytest.mark.parametrize("field", ["blunder-mate:Nf3:g4:Qh4", "blunder-mate", "x"])
def test_a_seventh_fen_field_is_refused(field):
    with pytest.raises(ValueError, match="six-field"):
        game_at(f"{chess.STARTING_FEN} {field}")
