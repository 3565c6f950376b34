"""The KingSwap! solver (rules.variants.kingswap.solver): hand-made positions with known answers, budgets, determinism.

KingSwap! FEN: `<rank5>/<rank4>/<rank3>/<rank2>/<rank1> <leg> <casualties>`.
"""
import rules
from rules.variants.kingswap.solver import solve

SLUG = "kingswap"
ONE_MOVE_LEFT = "5/5/5/4K/4R 2 3"          # the rook on e1 swaps into the king on e2: tour complete
TWO_QUEENS = "Q4/5/5/5/Q3K 1 0"            # a5 queen into e1, a1 queen to e1, then into a5: 2 casualties
LONE_KNIGHT = "5/5/5/5/3NK 1 0"            # one man, and the tour needs at least two king moves
TWO_KNIGHTS = "5/5/5/5/2NNK 1 0"           # two men, but knights cannot take the king to a5 in two moves
QUEEN_AND_KNIGHT = "Q4/5/5/5/3NK 1 0"      # the queen takes the king to a5; the knight cannot bring him back


def replay(fen, line):
    game = rules.new_game(SLUG, fen=fen)
    for move in line:
        game.play(move)
    return game


def test_position_one_move_from_completion_is_solved_with_one_more_casualty():
    result = solve(ONE_MOVE_LEFT, 1000)
    assert result.solvable is True
    assert result.best_score == 4
    assert result.line == ["e1e2"]


def test_two_queens_complete_the_tour_with_the_least_possible_two_casualties():
    result = solve(TWO_QUEENS, 5000)
    assert result.solvable is True and result.best_score == 2
    game = replay(TWO_QUEENS, result.line)
    assert game.outcome is not None and game.outcome.result == "solved" and game.outcome.score == 2


def test_fewer_men_than_king_moves_needed_is_unsolvable_without_search():
    result = solve(LONE_KNIGHT, 100_000)
    assert result.solvable is False and result.best_score is None and result.line == []


def test_two_knights_are_proved_unable_to_complete_the_tour_by_exhausting_the_search():
    result = solve(TWO_KNIGHTS, 100_000)
    assert result.solvable is False and result.best_score is None
    assert 1 < result.nodes < 100_000


def test_queen_reaching_a5_with_only_a_knight_to_bring_the_king_back_is_unsolvable():
    result = solve(QUEEN_AND_KNIGHT, 100_000)
    assert result.solvable is False and 1 < result.nodes < 100_000


def test_already_completed_tour_needs_no_move():
    result = solve("5/5/5/5/4K 2 3", 10)
    assert (result.solvable, result.best_score, result.line) == (True, 3, [])


def test_failed_position_is_unsolvable_without_search():
    result = solve("5/5/5/5/4K 1 0", 10)
    assert result.solvable is False and result.nodes == 0


def test_tiny_budget_on_a_full_deal_leaves_the_question_open():
    result = solve(rules.new_game(SLUG, seed=1), 1)
    assert result.solvable is None and result.best_score is None and result.nodes <= 1


def test_solver_accepts_a_game_a_position_or_a_fen_alike():
    game = rules.new_game(SLUG, fen=TWO_QUEENS)
    assert solve(game, 2000) == solve(game.position, 2000) == solve(TWO_QUEENS, 2000)


def test_tour_found_on_a_random_deal_replays_to_its_score():
    game = rules.new_game(SLUG, seed=7)
    result = solve(game, 3000)
    assert result.solvable is True
    start = game.fen()
    end = replay(start, result.line)
    assert end.outcome is not None and end.outcome.result == "solved"
    assert end.outcome.score == result.best_score


def test_same_position_and_budget_give_the_same_answer():
    game = rules.new_game(SLUG, seed=11)
    assert solve(game, 1500) == solve(game, 1500)


def test_solving_leaves_the_game_unchanged():
    game = rules.new_game(SLUG, seed=3)
    game.play(game.legal_moves()[0])
    fen, history = game.fen(), game.history
    solve(game, 500)
    assert game.fen() == fen and game.history == history
