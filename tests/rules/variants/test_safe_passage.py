"""Safe Passage: one test per rule sentence and per ruling (../shared/rulings/safe-passage.md)."""
import random

import chess
import pytest

import rules
from rules.variants.safe_passage.game import start_fen

SLUG = "safe-passage"
START = chess.STARTING_FEN


def game(fen=None, seed=None):
    return rules.new_game(SLUG, seed=seed, fen=fen)


def played(*moves, fen=None):
    g = game(fen)
    for move in moves:
        g.play(move)
    return g


def refused(g, move, *words):
    before, history = g.fen(), g.history
    with pytest.raises(rules.IllegalMove) as err:
        g.play(move)
    for word in words:
        assert word in str(err.value)
    assert (g.fen(), g.history) == (before, history)
    return str(err.value)


def perft(g, depth):
    if depth == 0:
        return 1
    total = 0
    for move in g.legal_moves():
        g.play(move)
        total += perft(g, depth - 1)
        g.undo()
    return total


# -- the registry entry ----------------------------------------------------------------------------------
def test_is_a_one_player_puzzle_scored_by_level_higher_better():
    info = rules.VARIANTS[SLUG]
    assert info.players == 1
    assert (info.score_name, info.score_better) == ("level", "higher")


# -- board, men, set-up -------------------------------------------------------------------------------------
def test_starts_from_the_fide_array_with_white_to_move_and_ignores_the_seed():
    assert game(seed=1).fen() == START
    assert game(seed=99).fen() == game().fen() == START
    assert game().turn == "white"


def test_the_colours_take_turns_one_person_moving_both():
    g = played("e2e4")
    assert g.turn == "black"
    g.play("e7e5")
    assert g.turn == "white"
    refused(g, "e5e4")


def test_fen_accepts_any_plain_six_field_fen():
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    assert game(fen).fen() == fen


# -- movement: FIDE moves, no en passant, no promotion ------------------------------------------------------
def test_perft_start_position_depth_one_is_fides_twenty():
    assert perft(game(), 1) == 20


def test_perft_start_position_depth_two_drops_the_eight_replies_that_attack_or_stand_attacked():
    # Refused: 1.e3/e4 Na6 and 1.d3/d4 Nh6 (the bishop now sees the knight); 1.Nh3 d5/d6 and
    # 1.Na3 e5/e6 (the black bishop now sees the knight). 400 - 8.
    assert perft(game(), 2) == 392


def test_perft_rook_and_king_with_queenside_castling():
    # King d1 d2 e2 f1 f2 (5), O-O-O (1), rook a2-a7 and b1-d1 (9); Ra8 would attack the king on e8.
    g = game("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert len(g.legal_moves()) == 15
    assert "e1c1" in g.legal_moves() and "a1a8" not in g.legal_moves()


def test_generator_agrees_with_pushing_each_move_and_testing_every_piece():
    """The fast safety test (no push) against a plain one: FIDE's legal moves without en passant or
    promotion (ruling section 3 steps 1-2), pushed, then every piece looked at (step 3)."""
    def reference(board):
        found = set()
        plain = [m for m in board.legal_moves if not (board.is_en_passant(m) or m.promotion)]
        for move in plain:
            board.push(move)
            bad = False
            for sq in chess.scan_forward(board.occupied & ~board.pawns):
                colour = board.color_at(sq)
                hits = board.attackers_mask(not colour, sq)
                if chess.square_rank(sq) == (7 if colour == chess.BLACK else 0):
                    hits &= ~board.pawns
                bad = bad or bool(hits)
            board.pop()
            if not bad:
                found.add(move.uci())
        return found

    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        g = game()
        for _ in range(100):
            if g.outcome:
                break
            assert set(g.legal_moves()) == reference(g.board), g.fen()
            checked += 1
            g.play(rng.choice(g.legal_moves()))
    assert checked > 300


def test_there_is_no_en_passant_and_the_fen_field_is_written_as_a_dash():
    g = played("e2e4", fen="4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    assert g.fen().split()[3] == "-"
    assert "d4e3" not in g.legal_moves()
    refused(g, "d4e3", "en passant")
    refused(g, "dxe3", "en passant")


def test_the_en_passant_field_of_a_fen_is_ignored():
    g = game("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    assert g.fen() == "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"
    assert "d4e3" not in g.legal_moves()


def test_no_promotion_a_pawn_never_steps_onto_its_last_rank():
    g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert not [m for m in g.legal_moves() if m.startswith("b7")]
    for move in ("b7b8q", "b7b8", "b8=Q", "b8"):
        refused(g, move, "promotion")


def test_no_promotion_a_pawn_never_captures_onto_its_last_rank():
    g = game("2n1k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1")
    refused(g, "g2g1", "promotion")
    g = game("2n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    refused(g, "b7c8", "promotion")


def test_castling_works_as_in_fide_chess():
    g = played("O-O", fen="r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1")
    assert g.fen() == "r3k2r/p6p/8/8/8/8/P6P/R4RK1 b kq - 1 1"
    g.play("O-O-O")
    assert g.fen() == "2kr3r/p6p/8/8/8/8/P6P/R4RK1 w - - 2 2"


def test_castling_needs_the_right_from_the_fen_and_empty_squares_between():
    refused(game("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), "O-O")
    refused(game("4k3/8/8/8/8/8/8/R2QK3 w Q - 0 1"), "O-O-O")


# -- the safety rule (rulings 1, 2, 3) -------------------------------------------------------------------
def test_a_piece_may_not_move_where_an_enemy_man_attacks_it():
    g = played("e2e4", "e7e5")
    msg = refused(g, "Bf1a6", "white bishop on a6", "pawn on b7")
    assert "attacked" in msg


def test_a_move_that_attacks_an_enemy_piece_is_refused_with_the_man_the_attacker_and_its_square():
    g = played("e4", "Nf6")
    assert "e4e5" not in g.legal_moves()
    refused(g, "e5", "black knight on f6", "attacked by the pawn on e5")


def test_a_man_is_in_danger_whoever_is_on_move():
    # 2.e5 would leave the knight attacked with Black to move; 2...Nd5 with White to move.
    refused(played("e4", "Nf6"), "e5", "black knight on f6")
    g = played("e4", "Nf6", "Nc3")
    refused(g, "Nd5", "black knight on d5", "knight on c3")


def test_uncovering_an_attack_on_an_enemy_piece_is_refused():
    g = played("Nh3")
    refused(g, "d6", "white knight on h3", "bishop on c8")


def test_uncovering_an_attack_on_ones_own_piece_is_refused():
    g = game("7k/8/8/b7/8/8/3P4/4K3 w - - 0 1")
    refused(g, "d2d3", "white king on e1", "bishop on a5")
    refused(g, "d2d4", "white king on e1", "bishop on a5")


def test_a_pinned_man_still_attacks():
    # The pawn on f7 is pinned against its king by the bishop on h5, yet it attacks e6.
    g = game("4k3/5p2/8/2N4B/8/8/8/4K3 w - - 0 1")
    refused(g, "c5e6", "white knight on e6", "pawn on f7")


def test_the_enemy_king_attacks_every_adjacent_square_even_a_defended_one():
    g = game("4k3/8/8/2N5/8/8/8/3RK3 w - - 0 1")
    refused(g, "c5d7", "white knight on d7", "king on e8")


def test_kings_never_stand_next_to_each_other():
    g = game("8/8/8/4k3/8/4K3/8/8 w - - 0 1")
    assert not {"e3d4", "e3e4", "e3f4"} & set(g.legal_moves())
    refused(g, "e3e4", "white king on e4", "king on e5")


def test_a_pawn_attacks_diagonally_forward():
    g = game("4k3/8/8/3p4/8/8/1N6/4K3 w - - 0 1")
    refused(g, "b2c4", "white knight on c4", "pawn on d5")
    assert "b2d3" in g.legal_moves()          # d5 attacks c4 and e4 only


def test_pawns_may_be_left_attacked_and_captured():
    g = played("e4", "d5")
    assert "e4d5" in g.legal_moves()
    g.play("exd5")
    g.play("Qxd5")                            # a piece may take a pawn where it stands safe (ruling 10)
    refused(g, "Nc3", "black queen on d5", "knight on c3")


def test_a_refused_move_is_never_listed_and_changes_nothing():
    g = played("e4", "Nf6")
    before = g.fen()
    assert "e4e5" not in g.legal_moves()
    refused(g, "e4e5")
    assert g.fen() == before and g.history == ["e2e4", "g8f6"]


def test_a_king_may_not_move_into_check_from_a_pawn_on_its_seventh_rank():
    # Ruling section 3 step 1: FIDE's legal moves first, so the pawn's chess check still counts for
    # the king, although ruling 5 keeps the pawn out of the safety rule.
    g = game("8/7k/8/8/8/8/4p3/4K3 w - - 0 1")
    assert sorted(g.legal_moves()) == ["e1d2", "e1e2", "e1f2"]
    refused(g, "Kd1", "white king in check", "pawn on e2")
    refused(g, "e1f1", "white king in check", "pawn on e2")


def test_a_king_in_check_from_a_pawn_on_its_seventh_rank_must_get_out_of_it():
    # The pawn may step beside the king (ruling 5: it endangers nothing), but it gives check as in
    # chess, and the reply must answer the check (ruling section 3 step 1).
    g = game("n2k4/8/4P3/8/8/8/8/4K3 w - - 0 1")
    g.play("e7")
    assert g.outcome is None
    assert sorted(g.legal_moves()) == ["d8c7", "d8c8", "d8d7", "d8e7", "d8e8"]
    refused(g, "Nb6", "black king is in check", "pawn on e7")


def test_a_pawn_check_is_marked_on_the_board_and_in_the_last_move():
    g = game("n2k4/8/4P3/8/8/8/8/4K3 w - - 0 1")
    assert g.view().checks == ()
    g.play("e7")
    assert g.view().checks == ("d8",)
    assert g.last_move_label() == "e7+"


def test_a_king_left_without_an_answer_to_a_pawn_check_has_no_safe_move():
    # Black's king h8 is in check from g7, which the white king guards; the king covers h7 and the
    # bishop g8. The knight could step out safely, but it does not answer the check: no legal move,
    # the puzzle is failed (ruling 4).
    g = game("n6k/6P1/6K1/8/8/8/B7/8 b - - 0 1")
    assert g.legal_moves() == []
    assert (g.outcome.result, g.outcome.reason) == ("failed", "no safe move")


# -- ruling 5: a pawn on its seventh rank attacks nothing -------------------------------------------------
def test_a_pawn_may_step_to_its_seventh_rank_beside_enemy_pieces_on_the_last_rank():
    g = game("4k1n1/8/5P2/8/8/8/8/4K3 w - - 0 1")
    assert "f6f7" in g.legal_moves()
    g.play("f6f7")
    assert g.outcome is None


def test_a_piece_may_stand_beside_a_pawn_on_its_seventh_rank():
    g = game("4k3/8/8/8/8/8/6p1/4K2R w - - 0 1")
    g.play("Rf1")
    assert g.board.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)


def test_castling_across_a_square_a_pawn_on_its_seventh_rank_attacks_is_refused_as_in_chess():
    # Ruling 11: FIDE's castling conditions apply, and FIDE's pawn on g2 attacks f1.
    g = game("4k3/8/8/8/8/8/6p1/4K2R w K - 0 1")
    assert "e1g1" not in g.legal_moves()
    refused(g, "O-O", "castle", "pawn on g2 attacks f1")


# -- ruling 11: castling passes the safety test too ----------------------------------------------------
def test_castling_is_refused_when_the_rook_would_attack_a_piece_up_an_open_file():
    g = game("4kn2/8/8/8/8/8/8/4K2R w K - 0 1")
    assert "e1g1" not in g.legal_moves()
    refused(g, "O-O", "black knight on f8", "rook on f1")
    refused(g, "e1g1", "black knight on f8")


def test_castling_is_refused_when_the_king_would_land_attacked():
    g = game("4k1r1/8/8/8/8/8/7P/4K2R w K - 0 1")
    refused(g, "O-O", "white king on g1", "rook on g8")


# -- goals and levels (rulings 7, 8) ---------------------------------------------------------------------
LEVEL_1 = "4K3/8/8/8/8/8/8/4k3 w - - 0 1"                            # kings swapped
LEVEL_2 = "3QK3/3p4/8/8/8/N7/3P4/3qk3 w - - 0 1"                      # and queens, a knight still home
LEVEL_3 = "RNBQKBNR/pppppppp/8/8/8/8/PPPPPPPP/rnbqkbnr w - - 0 1"   # every piece across


def test_kings_exchanged_solves_the_default_target_level_one():
    outcome = game("3K4/8/8/8/8/8/8/4k3 w - - 0 1").outcome
    assert outcome is None                       # the white king must stand on e8 itself
    outcome = game(LEVEL_1).outcome
    assert (outcome.result, outcome.reason, outcome.score) == ("solved", "kings exchanged", 1)


def test_the_game_stops_at_the_first_position_that_meets_the_target_after_either_colour():
    g = game("8/4K3/8/8/8/8/8/4k3 w - - 0 1")
    g.play("e7e8")
    assert g.outcome.result == "solved" and g.outcome.score == 1
    g = game("4K3/8/8/8/8/8/3k4/8 b - - 0 1")
    g.play("d2e1")
    assert g.outcome.result == "solved"


def test_score_is_the_highest_level_the_finishing_position_meets():
    assert game(LEVEL_2).outcome.score == 2
    assert game(LEVEL_2).outcome.reason == "kings and queens exchanged"
    assert game(LEVEL_3).outcome.score == 3
    assert game(LEVEL_3).outcome.reason == "every piece across"


def test_level_two_target_set_by_the_seventh_fen_field_needs_the_queens_too():
    assert game(LEVEL_1 + " g2").outcome is None
    assert game(LEVEL_2 + " g2").outcome.score == 2


def test_level_three_target_needs_every_rook_bishop_and_knight_on_its_far_rank():
    assert game(LEVEL_2 + " g3").outcome is None
    assert game(LEVEL_3 + " g3").outcome.result == "solved"
    # Any square of the far rank will do (ruling 8): the pieces need not be on their counterparts'.
    assert game("RNBKQBNR/pppppppp/8/8/8/8/PPPPPPPP/rnbkqbnr w - - 0 1 g3").outcome is None
    assert game("BRNQKNRB/pppppppp/8/8/8/8/PPPPPPPP/nrbqkbrn w - - 0 1 g3").outcome.score == 3


def test_a_level_whose_kings_or_queens_are_missing_cannot_be_met():
    g = game("8/8/8/8/8/8/8/R7 w - - 0 1")
    assert g.outcome is None and g.score == 0
    assert game("4K3/8/8/8/8/8/8/4k3 w - - 0 1 g2").outcome is None


def test_target_level_field_round_trips_and_level_one_is_not_written():
    assert game(START + " g2").fen() == START + " g2"
    assert game(START + " g3").fen() == START + " g3"
    assert game(START + " g1").fen() == START
    with pytest.raises(ValueError):
        game(START + " g4")
    with pytest.raises(ValueError):
        game(START + " level2")


def test_a_bare_target_field_starts_the_array_with_that_target():
    assert game("g2").fen() == START + " g2" == start_fen(2)
    assert start_fen(1) == START
    assert game(start_fen(3)).view().caption.endswith("target level 3")


def test_reaching_level_one_does_not_end_a_level_two_game():
    g = game("8/4K3/8/8/8/8/8/4k3 w - - 0 1 g2")
    g.play("e7e8")
    assert g.outcome is None
    assert g.score == 1


# -- the end: stuck, no draws, undo (rulings 4, 9, 13) -------------------------------------------------
def test_no_safe_move_fails_the_puzzle_with_no_score():
    g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")   # FIDE's stalemate pattern
    assert g.legal_moves() == []
    outcome = g.outcome
    assert (outcome.result, outcome.reason, outcome.score) == ("failed", "no safe move", None)


def test_every_move_endangering_something_fails_the_puzzle_too():
    # The knight's b3 is in the queen's line and c2 in the bishop's; the king is boxed in.
    g = game("7k/5Q2/6K1/8/4B3/8/8/n7 b - - 0 1")
    assert g.outcome is not None and g.outcome.reason == "no safe move"


def test_a_set_up_with_a_piece_in_danger_is_failed_at_once():
    outcome = game("4k3/8/8/8/8/5n2/8/4K1R1 w - - 0 1").outcome
    assert (outcome.result, outcome.reason, outcome.score) == ("failed", "piece in danger", None)
    assert game("4k3/8/8/8/8/5n2/8/4K1R1 w - - 0 1").legal_moves() == []


def test_a_set_up_already_meeting_the_target_is_solved_at_once():
    assert game(LEVEL_1).outcome.result == "solved"
    assert game(LEVEL_1).legal_moves() == []


def test_there_are_no_draws():
    g = game("4k3/8/8/8/8/8/8/4K3 w - - 149 90")  # bare kings, 75 moves, no draw
    assert g.outcome is None and g.legal_moves()
    g = game()
    for _ in range(3):
        for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
            g.play(move)
    assert g.outcome is None and g.claimable_draw() is None


def test_play_after_the_end_is_refused_and_undo_reopens_the_game():
    g = game("8/4K3/8/8/8/8/8/4k3 w - - 0 1")
    g.play("e7e8")
    refused(g, "e8d8", "over")
    g.undo()
    assert g.outcome is None and "e7e8" in g.legal_moves()


def test_a_fen_with_two_kings_of_one_colour_is_refused():
    with pytest.raises(ValueError):
        game("4k3/8/8/8/8/8/8/K3K3 w - - 0 1")


# -- what the player sees --------------------------------------------------------------------------------
def test_running_score_is_the_level_reached_so_far():
    g = game("8/4K3/8/8/8/8/8/4k3 w - - 0 1 g2")
    assert g.score == 0
    g.play("e7e8")
    assert g.score == 1


def test_caption_says_who_moves_what_is_reached_what_is_next_and_moves_played():
    g = game()
    assert g.view().caption == "White to move · next: swap the kings (e1, e8) · 0 moves"
    g.play("e4")
    assert g.view().caption == "Black to move · next: swap the kings (e1, e8) · 1 move"
    g = game("8/4K3/8/8/8/8/8/4k3 w - - 0 1")
    g.play("e7e8")
    assert g.view().caption == "Black to move · level 1 reached: kings swapped; target reached · 1 move"


def test_caption_names_a_target_above_level_one():
    assert game("g2").view().caption == "White to move · next: swap the kings (e1, e8) · 0 moves · target level 2"
    swapped = game("rnbqKbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQkBNR b - - 0 1 g2").view().caption
    assert swapped == "Black to move · level 1 reached: kings swapped; next: the queens (d1, d8) · 0 moves · target level 2"


def test_board_marks_the_goal_squares_of_the_next_level_still_to_meet():
    assert game().view().marks == ("e1", "e8")
    assert game("g2").view().marks == ("e1", "e8")
    assert game("rnbqKbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQkBNR b - - 0 1 g2").view().marks == ("d1", "d8")
    assert game("g3").view().marks == ("e1", "e8")   # never the whole far ranks
    assert game("8/4K3/8/8/8/8/8/4k3 w - - 0 1").view().marks == ("e8",)   # the black king is home already


def test_moves_are_read_in_san_and_from_to_squares():
    g = game()
    assert g.play("Nf3") == "g1f3"
    assert g.play("e7e5") == "e7e5"
    assert g.label("f3e5") == "Nxe5"
