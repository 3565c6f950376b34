"""KingSwap!: one test per rule sentence and ruling, positions by FEN (`<board> <leg> <casualties>`)."""
import pytest

import rules

SLUG = "kingswap"


def game(fen):
    return rules.new_game(SLUG, fen=fen)


def board_of(g):
    return g.fen().split()[0]


# -- set-up (rulings 1, 2) ----------------------------------------------------------------------
def test_random_setup_has_king_on_e1_and_24_random_men():
    g = rules.new_game(SLUG, seed=123)
    pieces = g.view().pieces
    assert pieces["e1"] == "K"
    assert len(pieces) == 25
    assert set(pieces.values()) - {"K"} <= set("QRBNP")
    assert list(pieces.values()).count("K") == 1


def test_same_seed_same_deal_and_different_seeds_differ():
    assert rules.new_game(SLUG, seed=9).fen() == rules.new_game(SLUG, seed=9).fen()
    assert len({rules.new_game(SLUG, seed=s).fen() for s in range(10)}) == 10


def test_start_fen_has_leg_one_and_no_casualties():
    assert rules.new_game(SLUG, seed=1).fen().endswith(" 1 0")


def test_turn_is_always_white():
    g = game("5/5/5/5/R3K 1 0")
    g.play("a1a2")
    assert g.turn == "white"


# -- moves (section 4) ----------------------------------------------------------------------------
def test_rook_slides_over_empty_squares_and_into_the_first_man():
    # Rook a1: a2-a5 (4) and b1, c1, d1, e1 = the king (4).
    g = game("5/5/5/5/R3K 1 0")
    assert sorted(g.legal_moves()) == sorted(["a1a2", "a1a3", "a1a4", "a1a5", "a1b1", "a1c1", "a1d1", "a1e1"])


def test_slider_stops_at_the_first_occupied_square():
    # Rook a1: b1, then c1 holds a knight (swap), never d1/e1; up a2-a5: 6. Knight c1: a2, b3, d3, e2: 4.
    g = game("5/5/5/5/R1N1K 1 0")
    moves = g.legal_moves()
    assert len(moves) == 10
    assert "a1c1" in moves and "a1d1" not in moves and "a1e1" not in moves


def test_pawn_steps_straight_or_diagonally_towards_rank_five_only():
    g = game("5/5/5/2P2/N3K 1 0")
    pawn = sorted(m for m in g.legal_moves() if m.startswith("c2"))
    assert pawn == ["c2b3", "c2c3", "c2d3"]


def test_pawn_has_no_double_step_and_on_rank_five_cannot_move():
    g = game("2P2/5/5/5/N2PK 1 0")
    assert not any(m.startswith("c5") for m in g.legal_moves())
    assert "d1d3" not in g.legal_moves()


def test_pawn_on_the_edge_has_two_steps():
    g = game("5/5/5/5/P2NK 1 0")
    assert sorted(m for m in g.legal_moves() if m.startswith("a1")) == ["a1a2", "a1b2"]


def test_knight_jumps_to_empty_or_occupied_squares():
    g = game("5/5/1Q3/5/N3K 1 0")
    assert sorted(m for m in g.legal_moves() if m.startswith("a1")) == ["a1b3", "a1c2"]


def test_move_into_a_man_swaps_the_two():
    g = game("5/5/5/5/R1N1K 1 0")
    g.play("a1c1")
    assert board_of(g) == "5/5/5/5/N1R1K"
    assert g.fen().endswith(" 1 0")


def test_swapping_identical_men_is_legal_and_changes_only_history():
    g = game("5/5/P4/P4/N3K 1 0")
    before = g.fen()
    assert "a2a3" in g.legal_moves()
    g.play("a2a3")
    assert g.fen() == before
    assert g.history == ["a2a3"]


def test_the_king_never_moves_by_itself():
    g = game("5/5/5/5/R3K 1 0")
    assert not any(m.startswith("e1") for m in g.legal_moves())
    with pytest.raises(rules.IllegalMove, match="king"):
        g.play("e1d1")


def test_swap_with_the_king_moves_the_king_and_loses_the_man():
    g = game("5/5/5/5/R3K 1 0")
    g.play("a1e1")
    assert board_of(g) == "5/5/5/5/K4"
    assert g.fen().endswith(" 1 1")
    assert g.score == 1


def test_a_pawn_can_bring_the_king_down_onto_e1():
    g = game("5/5/5/4K/4P 2 0")
    g.play("e1e2")
    assert g.outcome.result == "solved"
    assert g.outcome.score == 1


def test_notation_is_a_plain_move_and_illegal_input_is_explained():
    g = game("5/5/5/5/R1N1K 1 0")
    for bad, reason in [("b2b3", "No piece"), ("a1e1", "cannot reach"), ("hello", "can't read")]:
        with pytest.raises(rules.IllegalMove, match=reason):
            g.play(bad)
    assert g.history == []


# -- goal and scoring (rulings 7, 8) ------------------------------------------------------------------
def test_reaching_a5_starts_the_second_leg():
    g = game("1K3/5/5/5/R3N 1 0")
    g.play("a1a5")
    g.play("a5b5")
    assert g.view().pieces["a5"] == "K"
    assert g.fen().split()[1:] == ["2", "1"]


def test_tour_is_complete_the_first_time_the_king_is_back_on_e1_after_a5():
    g = game("5/5/5/5/3KR 2 5")
    g.play("e1d1")
    assert g.outcome == rules.Outcome("solved", "tour complete", 6)
    assert g.legal_moves() == []


def test_passing_through_e1_before_a5_counts_for_nothing():
    g = game("N4/5/5/5/3KR 1 0")
    g.play("e1d1")
    assert g.view().pieces["e1"] == "K"
    assert g.outcome is None


def test_fen_with_the_king_on_a5_means_second_leg():
    assert game("K4/5/5/5/4R 1 0").fen().split()[1] == "2"


def test_fen_with_only_the_board_means_leg_one_no_casualties():
    assert game("5/5/5/5/R3K").fen() == "5/5/5/5/R3K 1 0"


def test_lower_case_men_are_accepted_in_fen():
    assert game("5/5/5/5/r3k 1 0").fen() == "5/5/5/5/R3K 1 0"


@pytest.mark.parametrize("bad", ["5/5/5/5/R3R 1 0", "5/5/5/5/K3K 1 0", "5/5/5/5/R3K 3 0", "5/5/5/R3K 1 0",
                                 "5/5/5/5/X3K 1 0", "5/5/5/5/R3K 1 -1"])
def test_bad_fen_is_refused(bad):
    with pytest.raises(ValueError):
        game(bad)


def test_failed_when_no_men_are_left():
    g = game("1K3/5/5/5/R4 1 0")
    g.play("a1a5")
    g.play("a5b5")
    assert g.outcome == rules.Outcome("failed", "king can no longer move", 1)


def test_failed_when_only_pawns_remain_below_nothing_that_can_reach():
    # A pawn only ever moves the king down: a king on rank 1 is out of reach for good.
    assert game("5/5/5/2P2/4K 1 0").outcome.result == "failed"


def test_failed_when_only_a_bishop_of_the_other_colour_remains():
    assert game("5/5/5/5/3BK 1 0").outcome.reason == "king can no longer move"


def test_not_failed_while_a_pawn_swap_can_change_the_bishops_colour():
    # Pawn a1 steps straight into the bishop on a2, which lands on a1: the king's colour.
    assert game("5/5/5/B4/P3K 1 0").outcome is None


def test_not_failed_while_a_knight_rook_or_queen_remains_even_far_away():
    for man in "NRQ":
        assert game(f"{man}4/5/5/5/4K 1 0").outcome is None


def test_a_king_that_merely_cannot_move_now_has_not_failed():
    g = game("N4/5/5/5/4K 1 0")
    assert not any(m.endswith("e1") for m in g.legal_moves())
    assert g.outcome is None


def test_undo_restores_casualties_and_leg():
    g = game("1K3/5/5/5/R3N 1 0")
    g.play("a1a5")
    g.play("a5b5")
    g.undo()
    assert g.fen() == "RK3/5/5/5/4N 1 0"
    assert g.outcome is None


# -- ruling 8: the failed search is exact on pawn-and-bishop endings ---------------------------------
def test_pawns_alone_outside_the_kings_cone_fail_at_once():
    # Only pawns, none of them below the king within reach: they only climb, so the king is lost
    # for good. (Its speed is measured by benchmarks/rules_speed.py --kingswap-endings.)
    assert game("1PP2/3P1/1P3/PPPPP/2K1P 1 0").outcome.result == "failed"


def test_a_pawn_in_the_kings_cone_can_reach_him_and_one_outside_never_can():
    # King b2: a pawn on c1 steps into him; one on d1 only climbs away from him.
    assert game("5/5/5/1K3/2P2 1 0").outcome is None
    assert game("5/5/5/1K3/3P1 1 0").outcome.result == "failed"
    # The cone widens by a file per rank: king c4, pawn a1 climbs b2, then b3 or c3, then into him.
    assert game("5/2K2/5/5/P4 1 0").outcome is None


def test_top_rank_pawns_on_the_kings_colour_never_move_so_bishops_alone_fail():
    assert game("PB1BP/B1B1B/1B1B1/B1B1B/1B1BK 1 0").outcome.result == "failed"


def test_a_bishop_can_pull_a_top_rank_pawn_down_so_the_game_goes_on():
    # b5 is light like the bishop: the bishop swaps into it and the pawn, now low, can get under it.
    assert game("1P3/5/5/5/3BK 1 0").outcome is None


def _reference_can_reach(board):
    """Ruling 8 taken literally: search every position reachable without moving the king."""
    from rules.variants.kingswap.game import GRID, targets
    king = next(sq for sq, man in board.items() if man == "K")
    light = GRID.is_light(king)
    start = frozenset(board.items())
    seen, todo = {start}, [start]
    while todo:
        current = dict(todo.pop())
        for sq, man in current.items():
            if man in "NRQ" or (man == "B" and GRID.is_light(sq) == light):
                return True
            for t in targets(current, sq):
                if t == king:
                    return True
                nxt = dict(current)
                nxt[t], occupant = man, nxt.get(t)
                if occupant is None:
                    del nxt[sq]
                else:
                    nxt[sq] = occupant
                key = frozenset(nxt.items())
                if key not in seen:
                    seen.add(key)
                    todo.append(key)
    return False


def test_failed_detection_matches_the_plain_search_on_small_bishop_and_pawn_endings():
    import random
    from rules.variants.kingswap.game import GRID, king_can_still_move
    rng = random.Random(2024)
    squares = GRID.squares()
    for _ in range(200):
        king = rng.choice(squares)
        board = {king: "K"}
        for sq in rng.sample([s for s in squares if s != king], rng.randint(0, 4)):
            wrong = GRID.is_light(sq) != GRID.is_light(king)
            board[sq] = "B" if wrong and rng.random() < 0.5 else "P"
        assert king_can_still_move(board) == _reference_can_reach(board), GRID.placement(board)


def test_the_caption_counts_casualties_and_names_where_the_king_is_heading():
    assert game("RPPRB/PNPQP/QNBPR/RNPPN/NRRRK 1 0").view().caption == "casualties 0 · king heading for a5"
    back = game("KPPRB/PNPQP/QNBPR/RNPPN/NRRR1 2 2").view()
    assert back.caption == "casualties 2 · king heading back to e1" and back.marks == ("e1",)
