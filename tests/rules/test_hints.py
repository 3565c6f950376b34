"""Hints (`rules.hint(game)`): a legal move and a reason from a bounded search; the game never changes.

Players' searches stop by the clock; these tests give a budget of positions instead (HINT_NODES),
so each verdict is the same however busy the machine."""
import re

import pytest

import rules
from rules.variants.solitary_patience.game import apply
from rules.variants.solitary_patience.hint import patience_order, playout
from tests.conftest import HINT_NODES

PUZZLES = ["kingswap", "safe-passage", "solitary-patience"]
PATIENCE_ONE_KNIGHT_OUT = "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR w - - 0 1"   # W-N call: a3b1 finishes
PASSAGE_ONE_STEP = "8/4K3/8/8/8/8/8/4k3 w - - 0 1"          # Ke7-e8 exchanges the kings


def unchanged_after_hint(game, node_budget=HINT_NODES):
    fen, history = game.fen(), game.history
    hint = rules.hint(game, node_budget=node_budget)
    assert game.fen() == fen and game.history == history
    return hint


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
def test_only_the_solo_puzzles_give_hints(slug):
    game = rules.new_game(slug, seed=1)
    if slug in PUZZLES:
        assert rules.VARIANTS[slug].hints
    else:
        assert not rules.VARIANTS[slug].hints
        assert rules.hint(game) is None


def test_hints_come_only_through_the_variants_registered_search():
    assert not hasattr(rules.Game, "hint")   # not in the contract every variant shares
    game = rules.new_game("kingswap", fen="5/5/5/4K/4R 2 3")
    assert rules.hint(game, 0.0, HINT_NODES) == rules.VARIANTS["kingswap"].hint(game, 0.0, HINT_NODES)


@pytest.mark.parametrize("slug", PUZZLES)
def test_hint_is_a_legal_move_with_a_reason_and_leaves_the_game_unchanged(slug):
    game = rules.new_game(slug, seed=4)
    game.play(game.legal_moves()[0])
    hint = unchanged_after_hint(game)
    assert hint is not None
    assert hint.move in game.legal_moves()
    assert hint.reason.endswith(".") and len(hint.reason) < 200
    assert hint.searched > 0


@pytest.mark.parametrize("slug, fen", [("kingswap", "5/5/5/5/4K 2 3"),
                                       ("solitary-patience", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
                                       ("safe-passage", "4K3/8/8/8/8/8/8/4k3 w - - 0 1")])
def test_no_hint_once_the_puzzle_is_over(slug, fen):
    game = rules.new_game(slug, fen=fen)
    assert game.outcome is not None
    assert unchanged_after_hint(game) is None


def test_kingswap_hint_plays_the_last_swap_and_counts_the_casualties():
    hint = unchanged_after_hint(rules.new_game("kingswap", fen="5/5/5/4K/4R 2 3"))
    assert hint is not None and hint.move == "e1e2"
    assert "completed with 4 casualties" in hint.reason


def test_kingswap_hint_says_when_the_tour_can_no_longer_be_completed():
    hint = unchanged_after_hint(rules.new_game("kingswap", fen="5/5/5/5/2N1K 1 0"))   # one man, two swaps needed
    assert hint is not None and hint.move is None
    assert hint.reason == "The tour can no longer be completed from this position."


def test_kingswap_hint_follows_a_tour_that_completes():
    game = rules.new_game("kingswap", fen="Q4/5/5/5/Q3K 1 0")
    for _ in range(10):
        if game.outcome is not None:
            break
        hint = unchanged_after_hint(game)
        assert hint is not None
        game.play(hint.move)
    assert game.outcome is not None and game.outcome.result == "solved" and game.outcome.score == 2


def test_solitary_patience_hint_sends_the_called_man_home_when_that_completes_the_deal():
    hint = unchanged_after_hint(rules.new_game("solitary-patience", fen=PATIENCE_ONE_KNIGHT_OUT))
    assert hint is not None and hint.move == "a3b1"
    assert "Sends the called white knight home to b1" in hint.reason
    assert "every man home" in hint.reason


def test_solitary_patience_hint_ends_no_worse_than_the_greedy_line_of_the_most_promising_move():
    game = rules.new_game("solitary-patience", seed=12)
    hint = unchanged_after_hint(game, node_budget=20_000)
    assert hint is not None and hint.move in game.legal_moves()
    first = patience_order(game.position, game.legal_moves())[0]
    greedy, _ = playout(apply(game.position, first), deadline=float("inf"))
    found = 0 if "every man home" in hint.reason else int(re.search(r"leaves (\d+) m", hint.reason).group(1))
    assert found <= greedy


def test_safe_passage_hint_finds_the_move_that_reaches_the_target():
    hint = unchanged_after_hint(rules.new_game("safe-passage", fen=PASSAGE_ONE_STEP))
    assert hint is not None and hint.move == "e7e8"
    assert hint.reason.startswith("Reaches level 1 in 1 move")


def test_safe_passage_hint_from_the_array_is_an_honest_heuristic():
    game = rules.new_game("safe-passage", fen="g3")
    hint = unchanged_after_hint(game)
    assert hint is not None and hint.move in game.legal_moves()
    assert "heuristic" in hint.reason and "level 3" in hint.reason


def test_safe_passage_hint_with_no_time_at_all_gives_no_answer():
    game = rules.new_game("safe-passage")
    assert rules.hint(game, 0.0) is None
    assert (game.fen(), game.history) == (rules.new_game("safe-passage").fen(), [])


@pytest.mark.parametrize("slug", PUZZLES)
def test_a_hint_with_a_budget_of_positions_never_looks_at_the_clock(slug):
    """No time at all, yet a budget of positions: the search runs to its budget, whatever the clock says."""
    game = rules.new_game(slug, seed=4)
    hint = rules.hint(game, 0.0, node_budget=HINT_NODES)
    assert hint is not None and hint.move in game.legal_moves()
    assert 0 < hint.searched <= HINT_NODES
    assert rules.hint(game, 0.0, node_budget=HINT_NODES) == hint   # the same search, the same answer


def test_hint_after_undo_matches_a_fresh_game_of_the_same_position():
    game = rules.new_game("kingswap", fen="Q4/5/5/5/Q3K 1 0")
    game.play(game.legal_moves()[0])
    game.undo()
    fresh = rules.new_game("kingswap", fen="Q4/5/5/5/Q3K 1 0")
    assert unchanged_after_hint(game) == unchanged_after_hint(fresh)
