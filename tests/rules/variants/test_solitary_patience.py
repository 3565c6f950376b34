"""Solitary Patience Chess: one test per rule sentence and ruling, positions by plain FEN.

The call follows from the FEN (ruling 2): k = 2*(fullmove-1) + (0 for w, 1 for b), colour by the
parity of k, type NBRQK[k mod 5]. So W-N is `w 1`, B-B `b 1`, W-R `w 2`, B-Q `b 2`, W-K `w 3`.
"""
import pytest

import rules
from rules.variants.solitary_patience.game import Analysis, parse_fen, sq_index

SLUG = "solitary-patience"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def game(fen):
    return rules.new_game(SLUG, fen=fen)


def refused(g, move, *words):
    before, history = g.fen(), g.history
    with pytest.raises(rules.IllegalMove) as err:
        g.play(move)
    assert g.fen() == before and g.history == history
    for word in words:
        assert word in str(err.value)
    return str(err.value)


def parse_board(fen):
    board = parse_fen(fen).board
    return {"abcdefgh"[i % 8] + str(i // 8 + 1): m for i, m in enumerate(board) if m}


# -- registry -----------------------------------------------------------------------------------
def test_variant_is_a_solo_puzzle_scored_by_men_not_home_lower_better():
    info = rules.VARIANTS[SLUG]
    assert info.players == 1
    assert info.score_name == "men not home"
    assert info.score_better == "lower"


# -- set-up (section 2, ruling 1) ---------------------------------------------------------------
SEEDS = range(60)


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_has_one_pawn_pair_per_file_black_above_white(seed):
    men = parse_board(rules.new_game(SLUG, seed=seed).fen())
    for f in "abcdefgh":
        white = [int(sq[1]) for sq, m in men.items() if m == "P" and sq[0] == f]
        black = [int(sq[1]) for sq, m in men.items() if m == "p" and sq[0] == f]
        assert len(white) == 1 and len(black) == 1
        assert 2 <= white[0] <= 6
        assert white[0] < black[0] <= 7


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_has_the_usual_32_men_no_piece_on_its_own_home(seed):
    g = rules.new_game(SLUG, seed=seed)
    men = parse_board(g.fen())
    letters = sorted(men.values())
    assert letters == sorted("KQRRBBNNPPPPPPPP" + "kqrrbbnnpppppppp")
    homes = {"K": "e1", "Q": "d1", "R": "a1 h1", "B": "c1 f1", "N": "b1 g1"}
    for sq, man in men.items():
        if man.upper() != "P":
            own = homes[man.upper()] if man.isupper() else homes[man.upper()].replace("1", "8")
            assert sq not in own.split()


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_puts_each_sides_bishops_on_different_colours(seed):
    men = parse_board(rules.new_game(SLUG, seed=seed).fen())
    for letter in "Bb":
        shades = {("abcdefgh".index(sq[0]) + int(sq[1])) % 2 for sq, m in men.items() if m == letter}
        assert len(shades) == 2


def test_deal_starts_white_to_move_fullmove_one_on_the_white_knight_call():
    g = rules.new_game(SLUG, seed=5)
    assert g.fen().endswith(" w - - 0 1")
    assert g.view().caption.startswith("called: white knight")
    assert g.turn == "white"


def test_same_seed_same_deal_and_different_seeds_differ():
    assert rules.new_game(SLUG, seed=9).fen() == rules.new_game(SLUG, seed=9).fen()
    assert len({rules.new_game(SLUG, seed=s).fen() for s in range(20)}) == 20


def test_deal_allows_other_mens_home_squares_and_the_back_ranks():
    seen = set()
    for seed in range(200):
        men = parse_board(rules.new_game(SLUG, seed=seed).fen())
        seen |= {m for sq, m in men.items() if m.isupper() and sq[1] == "8"}
    assert seen & set("KQRBN")


# -- the cycle of calls (ruling 2) --------------------------------------------------------------
def test_calls_follow_the_ten_turn_cycle_from_side_and_fullmove():
    expected = ["white knight", "black bishop", "white rook", "black queen", "white king",
                "black knight", "white bishop", "black rook", "white queen", "black king"]
    for k, call in enumerate(expected + expected[:2]):
        fen = f"8/4p3/8/8/8/8/8/8 {'wb'[k % 2]} - - 0 {k // 2 + 1}"
        assert game(fen).view().caption.startswith(f"called: {call} ·")


def test_a_pass_consumes_a_turn_and_advances_the_call():
    # White has nothing that can move; Black's a5 pawn can step back.
    g = game("8/8/8/p7/8/8/PPPPPPPP/1N4N1 w - - 0 1")
    assert g.legal_moves() == ["pass"]
    g.play("pass")
    assert g.turn == "black"
    assert g.view().caption.startswith("called: black bishop")
    assert g.fen() == "8/8/8/p7/8/8/PPPPPPPP/1N4N1 b - - 1 1"


def test_fen_counters_follow_plain_fen_pawn_steps_reset_the_clock():
    g = game("8/8/8/p7/8/8/PPPPPPPP/1N4N1 w - - 0 1")
    g.play("pass")
    g.play("a5a6")
    assert g.fen() == "8/8/p7/8/8/8/PPPPPPPP/1N4N1 w - - 0 2"


# -- piece moves (section 3 step 2, ruling 3) ---------------------------------------------------
def test_knight_jumps_only_to_empty_squares_nothing_is_captured():
    # Knight d4: b3 b5 c2 c6 e2 f3 f5 (7); e6 holds a black pawn.
    g = game("8/8/4p3/8/3N4/8/8/8 w - - 0 1")
    assert sorted(g.legal_moves()) == ["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4f3", "d4f5"]
    refused(g, "d4e6", "occupied")


def test_king_may_stand_next_to_the_other_king_no_check_exists():
    # W-K call. King e4 with the black king on e5: d3 d4 d5 e3 f3 f4 f5 (7), e5 occupied.
    g = game("8/8/8/4k3/4K3/8/8/1R6 w - - 0 3")
    assert sorted(g.legal_moves()) == ["e4d3", "e4d4", "e4d5", "e4e3", "e4f3", "e4f4", "e4f5"]


def test_sliders_stop_before_the_first_man_in_their_way():
    # W-R call. Rook c3: c1 c2 (down), a3 b3 (left), d3 (e3 holds a pawn), c4 c5 (c6 a pawn): 7.
    g = game("8/8/2p5/8/8/2R1P3/8/8 w - - 0 2")
    assert sorted(g.legal_moves()) == ["c3a3", "c3b3", "c3c1", "c3c2", "c3c4", "c3c5", "c3d3"]
    refused(g, "c3c7", "cannot reach", "pass over")


def test_bishop_on_light_squares_goes_home_to_f1():
    # W-B call (w 4). Bishop h3: g2, f1 (home), g4 f5 e6 d7 c8: 7.
    g = game("8/8/8/8/8/7B/8/8 w - - 0 4")
    assert sorted(g.legal_moves()) == ["h3c8", "h3d7", "h3e6", "h3f1", "h3f5", "h3g2", "h3g4"]


def test_either_piece_of_a_pair_may_move_when_called():
    # W-N call: knights a3 (b1 b5 c2 c4) and h8 (f7 g6): 6.
    g = game("7N/8/8/8/8/N7/8/8 w - - 0 1")
    assert sorted(g.legal_moves()) == ["a3b1", "a3b5", "a3c2", "a3c4", "h8f7", "h8g6"]


def test_one_man_per_turn_of_the_called_colour_and_type():
    g = game("8/8/8/8/8/N7/8/3Q1r2 w - - 0 1")
    refused(g, "d1d2", "white knight", "not the queen")
    refused(g, "f1f2", "white moves now")
    g.play("a3b5")
    assert g.turn == "black"


# -- placing (placing order, rulings 4 to 6) ----------------------------------------------------
def test_placing_waits_for_every_higher_piece():
    # W-R call. Rook b1 with the white king on e4 unplaced and able to get home: c1..g1 only.
    g = game("8/8/8/8/4K3/8/1P6/1R6 w - - 0 2")
    assert sorted(g.legal_moves()) == ["b1c1", "b1d1", "b1e1", "b1f1", "b1g1"]
    refused(g, "b1a1", "can't go home to a1", "king on e4")


def test_placing_is_allowed_once_the_higher_pieces_are_placed_and_is_optional():
    # Same, king on e1 (placed): a1 is open, and so are the other squares (ruling 5).
    g = game("8/8/8/8/8/8/1P6/1R2K3 w - - 0 2")
    assert sorted(g.legal_moves()) == ["b1a1", "b1c1", "b1d1"]


def test_a_piece_that_can_no_longer_be_placed_lets_lower_pieces_go_home():
    # Rank 2 full of home pawns walls the king out: he is dead, so the rook may place (a1, h1).
    g = game("8/8/8/8/4K3/8/PPPPPPPP/1R6 w - - 0 2")
    assert sorted(g.legal_moves()) == ["b1a1", "b1c1", "b1d1", "b1e1", "b1f1", "b1g1", "b1h1"]


def test_pawn_wall_shuts_out_king_and_queen_but_not_knights():
    # W-N call. King e4 and queen d5 are dead behind rank 2; knight c3 may go home to b1.
    g = game("8/8/8/3Q4/4K3/2N5/PPPPPPPP/8 w - - 0 1")
    assert sorted(g.legal_moves()) == ["c3a4", "c3b1", "c3b5", "c3d1"]


def test_temporary_obstacles_are_assumed_to_clear():
    # Pawns on rank 3 can still step back: they are not permanent, so the king is not dead.
    g = game("8/8/8/8/4K3/PPPPPPPP/8/1R6 w - - 0 2")
    assert "b1a1" not in g.legal_moves()


def test_permanent_men_build_up_from_home_pawns_and_stuck_men():
    # b3 pawn steps back onto b2 (home pawn): permanent. Knight a1 then has b3 and c2 only.
    a = Analysis(parse_fen("8/8/8/8/8/1P6/1PP5/N7 w - - 0 1").board)
    assert {sq_index(s) for s in ("b2", "c2", "b3", "a1")} <= a.permanent
    assert a.is_dead(sq_index("a1"))


def test_placed_piece_never_moves_and_fen_marks_it_placed_by_square():
    # W-R call. Rook h1 is home (ruling 6, however it got there); only b4 moves.
    g = game("8/8/8/8/1R6/8/8/7R w - - 0 2")
    assert all(m.startswith("b4") for m in g.legal_moves())
    refused(g, "h1h2", "placed", "never moves")


# -- pawn turns, passes (section 3 steps 3 and 4, ruling 7) ---------------------------------------
def test_pawn_steps_back_when_every_called_piece_is_placed():
    # W-N call, both knights home: pawns e4 (to e3) and h5 (to h4); a2 is home; c4 blocked by c3.
    g = game("8/8/8/7P/2P1P3/2n5/P7/1N4N1 w - - 0 1")
    assert sorted(g.legal_moves()) == ["e4e3", "h5h4"]
    refused(g, "c4c3", "occupied")
    refused(g, "e4e5", "one square back")
    refused(g, "a2a1", "home")


def test_black_pawns_step_back_up_towards_rank_seven():
    # B-B call, no black bishop: d4 to d5; h7 is home.
    g = game("7p/7p/8/8/3p4/8/8/8 b - - 0 1")
    assert g.legal_moves() == ["d4d5"]


def test_called_pieces_that_cannot_move_hand_the_turn_to_the_pawns():
    # W-N call. Knight a1 boxed in by black men on b3 and c2: pawn h4 steps back instead.
    g = game("8/8/8/8/7P/1n6/2n5/N7 w - - 0 1")
    assert g.legal_moves() == ["h4h3"]
    refused(g, "a1b3", "Not now")


def test_pawns_wait_while_a_called_piece_can_move():
    g = game("8/8/8/8/7P/8/8/N7 w - - 0 1")
    assert "h4h3" not in g.legal_moves()
    refused(g, "h4h3", "pawns step back only when")


def test_pass_is_the_only_turn_when_nothing_can_move_and_refused_otherwise():
    g = game("8/8/8/p7/8/8/PPPPPPPP/1N4N1 w - - 0 1")
    refused(g, "b1a3", "type pass")
    g2 = game("8/8/8/8/8/N7/8/8 w - - 0 1")
    refused(g2, "pass", "can't pass")


# -- end phase and the end (rulings 9, 10, section 4) -------------------------------------------
def test_dead_pieces_still_move_in_the_main_phase():
    # W-K call. King e4 is dead but the rook b1 is not: the king moves (7 squares, e5 taken).
    g = game("8/8/8/4p3/4K3/8/PPPPPPPP/1R6 w - - 0 3")
    assert sorted(g.legal_moves()) == ["e4d3", "e4d4", "e4d5", "e4e3", "e4f3", "e4f4", "e4f5"]


def test_in_the_end_phase_pieces_stop_and_pawns_step_back_alternately_until_frozen():
    # Only the dead king is away among the pieces: W-K passes, Black steps a5 back to a7.
    g = game("8/8/8/p7/4K3/8/PPPPPPPP/8 w - - 0 3")
    assert g.legal_moves() == ["pass"]
    refused(g, "e4e5", "type pass")
    g.play("pass")
    assert g.legal_moves() == ["a5a6"]
    g.play("a5a6")
    assert g.legal_moves() == ["pass"]
    g.play("pass")
    g.play("a6a7")
    assert g.outcome == rules.Outcome("failed", "no further progress", 1)
    assert g.legal_moves() == []


def test_game_created_frozen_ends_at_once_with_its_score():
    g = game("8/pppppppp/8/8/4K3/8/PPPPPPPP/8 w - - 0 1")
    assert g.outcome.result == "failed" and g.outcome.score == 1
    with pytest.raises(rules.IllegalMove):
        g.play("pass")


def test_one_side_complete_does_not_stop_the_game():
    # White is all home; Black's pawn still has work to do.
    g = game("8/8/8/p7/8/8/PPPPPPPP/RNBQKBNR b - - 0 1")
    assert g.outcome is None
    assert g.legal_moves() == ["a5a6"]


def test_all_men_home_is_solved_with_score_zero():
    g = game(START)
    assert g.outcome == rules.Outcome("solved", "all men home", 0)


def test_last_placement_solves_the_game():
    # B-K call (b 5): black king f8 steps to e8, the last man home.
    g = game("rnbq1knr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 5")
    assert g.outcome is None
    g.play("f8e8")
    assert g.outcome.result == "solved" and g.outcome.score == 0


# -- score and view (ruling 11, section 2 of the issue) -----------------------------------------
def test_score_counts_men_of_both_colours_not_on_a_home_square():
    # Away: white king e4, white pawn e3, black knight b3. Home: rook a1, pawn a2, pawn h7.
    g = game("8/7p/8/8/4K3/1n2P3/P7/R7 w - - 0 1")
    assert g.score == 3


def test_caption_names_the_call_and_the_men_not_home():
    g = game("8/7p/8/8/4K3/1n2P3/P7/R7 w - - 0 4")
    assert g.view().caption == "called: white bishop · 3 men not home"


def test_board_marks_the_home_squares_still_waiting_for_their_man():
    g = game("8/7p/8/8/4K3/1n2P3/P7/R7 w - - 0 1")
    marks = set(g.view().marks)
    assert "a1" not in marks and "a2" not in marks and "h7" not in marks
    assert {"e1", "h1", "b2", "e2", "a7", "e8"} <= marks
    assert len(marks) == 32 - 3


def test_unreadable_input_is_refused_with_an_example():
    g = game("8/8/8/8/8/N7/8/8 w - - 0 1")
    refused(g, "hello", "like c3b1")
    refused(g, "a4a5", "No man on a4")


def test_fen_is_plain_missing_fields_default_and_bad_fields_are_refused():
    assert game("8/8/8/8/8/N7/8/8").fen() == "8/8/8/8/8/N7/8/8 w - - 0 1"
    assert game("8/8/8/8/8/N7/8/8 w KQkq e3 0 1").fen() == "8/8/8/8/8/N7/8/8 w - - 0 1"
    for bad in ("8/8/8 w - - 0 1", "8/8/8/8/8/N7/8/8 x - - 0 1", "8/8/8/8/8/X7/8/8 w - - 0 1",
                "8/8/8/8/8/N7/8/8 w - - 0 0"):
        with pytest.raises(ValueError):
            game(bad)


def test_in_the_end_phase_a_dead_piece_is_refused_with_the_reason():
    # W-K call. Queen d1, bishop f1 and pawns d2 e2 f2 seal e1: the king is dead and the only
    # piece away, so the end phase has begun; the a3 pawn steps back instead.
    g = game("8/8/8/8/4K3/P7/3PPP2/3Q1B2 w - - 0 3")
    assert g.legal_moves() == ["a3a2"]
    refused(g, "e4e3", "Not now", "can no longer be placed")


def perft(g, depth):
    if depth == 0:
        return 1
    total = 0
    for move in g.legal_moves():
        g.play(move)
        total += perft(g, depth - 1)
        g.undo()
    return total


def test_perft_two_plies_knight_then_bishop():
    # W-N: knight a3 to b5, c2, c4 (b1 holds the black bishop): 3.
    # B-B: bishop b1 to a2 c2 d3 e4 f5 g6 h7 (7), except after a3c2 where only a2 is left: 7+1+7.
    g = game("8/8/8/8/8/N7/8/1b6 w - - 0 1")
    assert perft(g, 1) == 3
    assert perft(g, 2) == 15
    assert g.fen() == "8/8/8/8/8/N7/8/1b6 w - - 0 1"


# -- edges found by the audit (each passed already; kept as guards) -------------------------------
def test_undo_of_the_solving_placement_reopens_the_game_on_the_same_call():
    fen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB2 w - - 0 1"
    g = game(fen)
    g.play("f3g1")
    assert g.outcome.result == "solved"
    g.undo()
    assert g.fen() == fen and g.outcome is None and g.history == []
    assert sorted(g.legal_moves()) == ["f3d4", "f3e5", "f3g1", "f3g5", "f3h4"]


def test_a_stranger_on_a_home_square_is_not_home_and_still_moves():
    g = game("8/8/8/8/8/8/8/1n2K3 b - - 0 3")          # B-N call; black knight on White's b1
    assert g.score == 1
    assert sorted(g.legal_moves()) == ["b1a3", "b1c3", "b1d2"]


def test_a_pawn_behind_its_home_rank_never_moves_and_counts_as_not_home():
    g = game("8/8/8/8/8/8/8/P3K3 w - - 0 1")
    assert sq_index("a1") in Analysis(parse_fen(g.fen()).board).permanent
    assert g.outcome.result == "failed" and g.outcome.reason == "no further progress"
    assert g.outcome.score == 1
