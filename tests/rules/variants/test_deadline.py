"""Deadline Chess through the public API: in check, a safe King move or two moves by one other man."""
import chess
import pytest

import rules
from bot.service import suggest

from .support import refusal
from tests.rules.variants.support import perft

SLUG = "deadline"

BB5_CHECK = ["e3", "d6", "Bb5+"]          # the seed document's example
SIX_ANSWERS = {"a7a6 a6b5", "c8e6 e6d7", "c8f5 f5d7", "c8g4 g4d7", "c8h3 h3d7", "g8f6 f6d7"}
PROMOTION = "4r2k/1P6/8/8/8/8/8/4K3 w - - 0 1"      # White in check from e8; a pawn on b7
DOUBLE_CHECK = "4r2k/8/8/8/1b6/Q7/8/4K3 w - - 0 1"   # White checked by the rook and the bishop
EXPOSED = "8/7k/8/b7/8/2Q2n2/8/4K3 w - - 0 1"       # the Queen shields e1 from a5; Nf3 checks
DISCOVERY = "4r3/8/8/8/R1N4k/8/8/4K3 w - - 0 1"     # the knight on c4 shields h4 from a4


def game_at(fen=None, moves=()):
    game = rules.new_game(SLUG, fen=fen)
    for move in moves:
        game.play(move)
    return game


# -- an independent slow reading of the ruling, for perft -----------------------------------------

def slow_turns(fen):
    """Every legal turn of the FEN, read straight from the ruling with fresh boards from FENs."""
    board = chess.Board(fen)
    me = board.turn
    if board.is_insufficient_material():
        return {}   # a dead position is drawn at once (ruling 9)
    if not board.is_check():
        return {m.uci(): board_after(fen, [m]) for m in board.legal_moves}
    out = {}
    for first in board.pseudo_legal_moves:
        if board.piece_type_at(first.from_square) == chess.KING:
            if board.is_legal(first) and not board.is_castling(first):
                out[first.uci()] = board_after(fen, [first])
            continue
        mid = chess.Board(fen)
        mid.push(first)
        if not mid.attackers(not me, mid.king(me)) or mid.attackers(me, mid.king(not me)):
            continue
        mid.turn, mid.ep_square = me, None
        for second in list(mid.pseudo_legal_moves):
            if second.from_square != first.to_square:
                continue
            end = mid.copy()
            end.push(second)
            if not end.attackers(not me, end.king(me)):
                out[f"{first.uci()} {second.uci()}"] = board_after(fen, [first, second])
    return out


def board_after(fen, moves):
    board = chess.Board(fen)
    if len(moves) == 1:
        board.push(moves[0])
        return board.fen(en_passant="legal") if not board.is_check() else board.fen()
    clock, number, me = board.halfmove_clock, board.fullmove_number, board.turn
    zeroing = any(chess.Board(f).is_zeroing(m) for f, m in zip([fen, mid_fen(fen, moves[0])], moves))
    board.push(moves[0])
    board.turn, board.ep_square = me, None
    board.push(moves[1])
    board.ep_square = None
    board.halfmove_clock = 0 if zeroing else clock + 1
    board.fullmove_number = number + (me == chess.BLACK)
    return board.fen()


def mid_fen(fen, move):
    board = chess.Board(fen)
    me = board.turn
    board.push(move)
    board.turn, board.ep_square = me, None
    return board.fen()


def slow_perft(fen, depth):
    turns = slow_turns(fen)
    if depth == 1:
        return len(turns)
    return sum(slow_perft(after, depth - 1) for after in turns.values())


# -- the seed document's example ---------------------------------------------------------------

def test_the_documents_example_has_exactly_six_answers():
    game = game_at(moves=BB5_CHECK)
    assert set(game.legal_moves()) == SIX_ANSWERS
    assert sorted(game.label(m) for m in game.legal_moves()) == [
        "Be6, Bd7", "Bf5, Bd7", "Bg4, Bd7", "Bh3, Bd7", "Nf6, Nd7", "a6, axb5"]


def test_ruling_1_nf3_nd7_is_read_as_nf6_nd7():
    game = game_at(moves=BB5_CHECK)
    assert refusal(game, "Nf3 Nd7") == "Nf3 is not a legal move here."
    assert game.play("Nf6 Nd7") == "g8f6 f6d7"


def test_the_knight_on_b8_has_no_answer():
    game = game_at(moves=BB5_CHECK)
    assert not any(m.startswith("b8") for m in game.legal_moves())
    assert "may not block" in refusal(game, "Nc6")
    assert "must leave your King in check" in refusal(game, "Nc6 Nd4")


def test_after_f3_e5_g4_qh4_white_is_not_mated_and_has_one_turn():
    game = game_at(moves=["f3", "e5", "g4", "Qh4+"])
    assert game.outcome is None
    assert game.legal_moves() == ["g1h3 h3f2"]
    assert game.play("Nh3 Nf2") == "g1h3 h3f2"


# -- rule: not in check, one ordinary FIDE move ------------------------------------------------

def test_not_in_check_the_moves_are_fides():
    game = game_at(moves=["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"])
    board = chess.Board()
    for move in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"]:
        board.push_san(move)
    assert sorted(game.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
    assert "e1g1" in game.legal_moves()


def test_perft_from_the_start_matches_python_chess_to_depth_3():
    game = game_at()
    assert [perft(game, d) for d in (1, 2, 3)] == [20, 400, 8902]


# -- rule: in check, a King move to a square that is not attacked -------------------------------

def test_in_check_the_king_may_step_to_a_safe_square():
    game = game_at(PROMOTION)
    kings = sorted(m for m in game.legal_moves() if m.startswith("e1"))
    assert kings == ["e1d1", "e1d2", "e1f1", "e1f2"]
    assert refusal(game, "Ke2") == "Your King would be attacked on e2."


# -- rule: or two moves in a row by one man other than the King --------------------------------

def test_a_single_block_or_capture_of_the_checker_is_refused():
    game = game_at(moves=BB5_CHECK)
    for typed in ("c6", "Bd7", "Qd7", "Nd7"):
        assert "a single move may not block the check or capture the checking man" in refusal(game, typed)
    capture = game_at("R3r3/7k/8/8/8/8/8/4K3 w - - 0 1")
    assert "may not block" in refusal(capture, "Rxe8")


def test_the_first_move_must_keep_the_check():
    game = game_at(moves=BB5_CHECK)
    assert refusal(game, "c6 c5") == "c6 cannot start your answer: the first of two moves must leave your King in check."


def test_the_first_move_may_not_give_check_not_even_by_discovery():
    game = game_at(DISCOVERY)
    assert not any(m.startswith("c4") for m in game.legal_moves())
    assert refusal(game, "c4d2 d2e4") == "c4d2 cannot start your answer: the first of two moves may not give check."
    assert refusal(game, "Nd2") == ("You are in check and Nd2 does not end it; it cannot start a two-move answer "
                                    "either: the first of two moves may not give check.")


def test_the_second_move_must_end_the_check():
    game = game_at(moves=BB5_CHECK)
    assert refusal(game, "a6 a5") == "a6 is fine, but after a5 your King would still be in check."


def test_both_moves_must_be_made_by_the_same_man():
    game = game_at(moves=BB5_CHECK)
    reason = refusal(game, "a6 c6")
    assert "same man" in reason and "a6" in reason


def test_a_first_move_alone_asks_for_its_second_move():
    game = game_at(moves=BB5_CHECK)
    assert refusal(game, "a6") == "a6 keeps the check, so it needs a second move by the same man that ends it, e.g. a7a6 a6b5."


def test_the_king_may_not_be_the_man_that_moves_twice():
    game = game_at(PROMOTION)
    assert "one move only" in refusal(game, "e1d1 d1c1")


# -- rule: checkmate and stalemate -------------------------------------------------------------

def test_in_check_with_no_answer_of_either_kind_is_checkmate():
    game = game_at("6k1/8/8/8/8/8/5PPP/4r1K1 w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("0-1", "checkmate")
    assert game.outcome.kind == "checkmate"


def test_a_fide_mate_can_be_answered_by_two_moves():
    game = game_at(moves=["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7+"])
    assert game.outcome is None
    assert "d8e7 e7f7" in game.legal_moves()


def test_not_in_check_with_no_move_is_stalemate():
    game = game_at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert game.outcome == rules.Outcome("1/2-1/2", "stalemate")


# -- rule: a pawn that moved as part of an answer to check cannot be taken en passant -------------

def test_a_pawn_that_went_two_three_four_in_an_answer_cannot_be_taken_en_passant():
    game = game_at("7k/7b/8/8/5p2/8/4P3/1K6 w - - 0 1")
    assert game.play("e3 e4") == "e2e3 e3e4"
    assert game.fen().split()[3] == "-"
    assert "f4e3" not in game.legal_moves()


# -- ruling 2: the first move ----------------------------------------------------------------------

def test_ruling_2_the_first_move_may_capture_and_may_promote():
    game = game_at(PROMOTION)
    assert {"b7b8q b8e8", "b7b8q b8e5", "b7b8r b8e8", "b7b8b b8e5"} <= set(game.legal_moves())
    assert not any(m.startswith("b7b8n") for m in game.legal_moves())


def test_ruling_2_the_first_move_may_expose_the_king_to_another_attacker():
    game = game_at(EXPOSED)
    assert "c3f3 f3c3" in game.legal_moves()     # Qxf3 ends the knight's check, opens a5-e1, Qc3 shuts it
    assert game.label("c3f3 f3c3") == "Qxf3, Qc3"


# -- ruling 3: the second move ---------------------------------------------------------------------

def test_ruling_3_a_promoted_pawn_moves_on_as_its_new_man_and_may_give_check():
    game = game_at(PROMOTION)
    assert game.play("b8=Q Qxe8+") == "b7b8q b8e8"
    assert game.fen().startswith("4Q2k/8/8/8/8/8/8/4K3 b")
    assert game.view().checks == ("h8",)
    assert game.last_move_label() == "b8=Q, Qxe8+"


# -- ruling 4: en passant ------------------------------------------------------------------------

def test_ruling_4_en_passant_may_open_a_two_move_answer_but_not_stand_alone():
    game = game_at("1b5k/2p5/8/3P4/5K2/8/8/8 b - - 0 1", ["c7c5"])
    assert game.fen().split()[3] == "c6"
    assert "d5c6 c6c7" in game.legal_moves()      # dxc6 e.p. keeps the bishop's check, c7 blocks it
    assert "may not block the check or capture" not in refusal(game, "d5c6")
    assert "d5c6" not in game.legal_moves()


def test_ruling_4_en_passant_is_never_the_second_move():
    game = game_at("7k/2p5/8/8/1P1K4/8/8/8 b - - 0 1", ["c7c5"])
    assert game.view().checks == ("d4",)
    assert not any(m.startswith("b4b5") for m in game.legal_moves())


def test_ruling_4_after_a_two_move_turn_there_is_no_en_passant_right():
    game = game_at(moves=BB5_CHECK)
    game.play("a6 axb5")
    assert game.fen().split()[3] == "-"


# -- ruling 5: King answers ----------------------------------------------------------------------

def test_ruling_5_no_castling_out_of_check():
    game = game_at("4k3/8/8/8/1b6/8/8/4K2R w K - 0 1")
    assert refusal(game, "e1g1") == "You may not castle out of check."
    assert refusal(game, "O-O") == "You may not castle out of check."
    assert "one move only" in refusal(game, "Kf1 Kg1")


# -- ruling 6: two moves only in check -------------------------------------------------------------

def test_ruling_6_no_two_moves_when_not_in_check():
    game = game_at()
    assert refusal(game, "e2e3 e3e4") == "You are not in check, so a turn is a single move: only a player in check may move twice."


# -- ruling 7: double check ------------------------------------------------------------------------

def test_ruling_7_a_double_check_may_be_answered_by_taking_one_checker_then_blocking():
    game = game_at(DOUBLE_CHECK)
    # hand count: Kd1, Kf1, Kf2; Qxb4 then Qe4 or Qe7 (no single move can end both checks)
    assert sorted(game.legal_moves()) == ["a3b4 b4e4", "a3b4 b4e7", "e1d1", "e1f1", "e1f2"]


# -- ruling 8: one turn ------------------------------------------------------------------------------

def test_ruling_8_a_two_move_answer_is_one_turn_for_history_undo_and_clocks():
    game = game_at(moves=BB5_CHECK)
    before = game.fen()
    game.play("Nf6 Nd7")
    assert game.history[-1] == "g8f6 f6d7" and len(game.history) == 4
    assert game.fen().split()[4:] == ["2", "3"]      # one more half-move, Black's full move done
    assert game.undo() == "g8f6 f6d7" and game.fen() == before
    game.play("a6 axb5")
    assert game.fen().split()[4:] == ["0", "3"]      # a pawn move resets the count


def test_ruling_8_whites_two_move_turn_keeps_the_full_move_number():
    game = game_at(moves=["f3", "e5", "g4", "Qh4+", "Nh3 Nf2"])
    assert game.fen().split()[1:] == ["b", "KQkq", "-", "2", "3"]


def test_ruling_8_repetition_counts_positions_after_whole_turns():
    game = game_at("4k3/8/8/8/8/8/r7/1N2K3 w - - 0 1")
    cycle = ["Kd1", "Ra1", "Ke1", "Ra2"]
    for _ in range(4):
        for move in cycle:
            game.play(move)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


# -- ruling 9: draws are FIDE's ----------------------------------------------------------------------

def test_ruling_9_insufficient_material_and_75_moves_draw():
    assert game_at("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").outcome == rules.Outcome("1/2-1/2", "insufficient material")
    assert game_at("4k3/8/8/8/8/8/8/R3K3 w - - 150 90").outcome.kind == "fifty-moves"


# -- ruling 10: SAN per part ----------------------------------------------------------------------

def test_ruling_10_san_is_accepted_per_part_with_optional_check_marks():
    assert refusal(game_at(moves=BB5_CHECK), "a6 b5") == (
        "a6 is fine, but b5 cannot follow it: the second move is made by the same man, now on a6. "
        "It can end the check with a6b5.")
    for typed in ("a6 axb5", "a6 axb5+", "a7a6 a6b5", "A7A6 A6B5", "a6 a6b5", "a7a6 axb5"):
        game = game_at(moves=BB5_CHECK)
        assert game.play(typed) == "a7a6 a6b5"
        assert game.last_move_label() == "a6, axb5"


def test_ruling_10_san_parts_may_name_the_mans_file_rank_or_square_as_in_chess():
    for typed in ("Ngf6 Nfd7", "N8f6 N6d7", "Ng8f6 Nf6d7", "Ng8-f6 Nf6-d7", "Nf6 Nfd7"):
        game = game_at(moves=BB5_CHECK)
        assert game.play(typed) == "g8f6 f6d7"
    game = game_at(moves=BB5_CHECK)
    assert game.play("Bcg4 B4d7") == "c8g4 g4d7"


def test_a_capital_b_and_a_rank_reads_as_a_bishop_part():
    game = game_at("4k3/8/8/8/4r3/8/8/4KB2 w - - 0 1")   # the rook on e4 checks; a bishop on f1
    assert game.play("B1d3 Bxe4") == "f1d3 d3e4"         # not the from-to move b1d3


# -- what a player sees and types ------------------------------------------------------------------

def test_the_caption_says_how_to_answer_a_check():
    game = game_at(moves=BB5_CHECK)
    assert "move the King to a safe square, or move one other man twice" in game.view().caption
    game.play("a6 axb5")
    assert game.view().caption == ""
    assert game.view().parts == (("a7", "a6"), ("a6", "b5"))


def test_autocomplete_narrows_a_two_move_answer_part_by_part():
    game = game_at(moves=BB5_CHECK)
    firsts = suggest(game, "", 3)
    assert [value for value, _ in firsts] == ["a7a6", "c8e6", "c8f5"]
    assert firsts[1] == ("c8e6", "Be6 … (c8e6)")
    assert suggest(game, "c8g4 ", 3) == [("c8g4 g4d7", "Bg4, Bd7 (c8g4 g4d7)")]
    assert {value for value, _ in suggest(game, "", 25)} == SIX_ANSWERS


def test_a_fen_round_trip_keeps_the_en_passant_square_only_where_deadline_can_take():
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    assert game_at(fen).fen().split()[3] == "-"
    game = game_at("1b5k/2p5/8/3P4/5K2/8/8/8 b - - 0 1", ["c7c5"])
    assert game_at(game.fen()).legal_moves() == game.legal_moves()


# -- perft against the slow reading ------------------------------------------------------------------

@pytest.mark.parametrize("fen, counts", [
    ("rnbqkbnr/ppp1pppp/3p4/1B6/8/4P3/PPPP1PPP/RNBQK1NR b KQkq - 1 2", (6, None, None)),   # the document's six
    (PROMOTION, (8, None, None)),        # Kd1 Kd2 Kf1 Kf2; b8=Q then Qxe8/Qe5; =R Rxe8; =B Be5
    (DOUBLE_CHECK, (5, None, None)),     # Kd1 Kf1 Kf2; Qxb4 then Qe4 or Qe7
    (EXPOSED, (None, None, None)),
])
def test_perft_depth_1_to_3_matches_the_slow_reading(fen, counts):
    game = game_at(fen)
    for depth, hand in zip((1, 2, 3), counts):
        found = perft(game, depth)
        assert found == slow_perft(fen, depth)
        if hand is not None:
            assert found == hand


def test_a_set_up_must_be_valid_as_in_chess():
    with pytest.raises(ValueError):
        game_at("8/8/8/8/8/8/8/4K3 w - - 0 1")                 # no black King
    with pytest.raises(ValueError):
        game_at("k3r3/8/8/8/8/8/8/4K3 b - - 0 1")             # White, not to move, stands in check
