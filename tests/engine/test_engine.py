"""The computer opponent's contract, for every two-player variant. Every search here is bounded by
`nodes`, never by the clock, so verdicts do not depend on the machine."""
import random

import pytest

import engine
import engine.board
import engine.evaluate
import engine.profiles
import rules
from rules.variants.balanced_swap import BalancedSwap

DUELS = sorted(slug for slug, info in rules.VARIANTS.items() if info.players == 2)


def random_positions(slug, plies=(0, 9, 22), seed=7):
    """Games of `slug` stopped after each of `plies` seeded random turns (fewer where a game ends)."""
    games = []
    for stop in plies:
        game, rng = rules.new_game(slug, seed=1), random.Random(f"{seed}{slug}{stop}")
        for _ in range(stop):
            moves = game.legal_moves()
            if game.outcome is not None or not moves:
                break
            game.play(rng.choice(moves))
        if game.outcome is None:
            games.append(game)
    return games


@pytest.mark.parametrize("slug", DUELS)
def test_every_choice_is_a_legal_move_and_leaves_the_game_as_it_was(slug):
    games = random_positions(slug)
    for n, game in enumerate(games):
        fen, history, moves = game.fen(), game.history, game.legal_moves()
        # every level searches once, each position in turn (the start, the opening, the middlegame)
        for level in range(1 + n, engine.MAX_LEVEL + 1, len(games)):
            choice = engine.choose(game, level=level, nodes=40)
            assert choice.move in moves
            assert choice.nodes <= 41
            assert (game.fen(), game.history, game.outcome) == (fen, history, None)
        assert game.legal_moves() == moves   # listed afresh once: its searches left nothing behind
        game.play(choice.move)   # the move plays: it is a whole legal turn


def wins_at_once(game, move):
    game.play(move)
    try:
        return game.outcome is not None and game.outcome.winner != game.turn and game.outcome.winner is not None
    finally:
        game.undo()


@pytest.mark.parametrize("slug, fen, winning", [
    ("standard", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"),                # mate in one
    ("zoo", "4k3/8/8/3r4/8/8/4p3/3RK3 w - - 0 1 pnb/-", "d1d5"),                # the fourth kind (a pawn is no new kind)
    ("decastellation", "4k3/8/8/3r4/8/8/4q3/3RK2R w - - 0 1", "d1d5"),          # the last rook, not the queen
    ("glory", "k7/8/4P3/8/8/3p4/8/4K3 w - - 0 1", "e6e7"),                     # the flag on the 7th, untakeable
])
def test_it_takes_an_immediate_win(slug, fen, winning):
    game = rules.new_game(slug, fen=fen)
    assert wins_at_once(game, winning)
    for level in (engine.DEFAULT_LEVEL, engine.MAX_LEVEL):
        choice = engine.choose(game, level=level, nodes=3000)
        assert wins_at_once(game, choice.move), (level, choice)
        assert choice.score > 90_000


def test_it_does_not_take_a_rook_that_lets_it_be_mated_at_once():
    # Qxa4 wins a rook, but takes the Queen off the back rank: Re1 mates.
    game = rules.new_game("standard", fen="4r1k1/5ppp/8/8/r7/8/5PPP/3Q2K1 w - - 0 1")
    game.play("d1a4")
    assert wins_at_once(game, "e8e1")
    game.undo()
    for level in (engine.DEFAULT_LEVEL, engine.MAX_LEVEL):
        choice = engine.choose(game, level=level, nodes=3000)
        game.play(choice.move)
        assert not any(wins_at_once(game, reply) for reply in game.legal_moves()), choice
        game.undo()


def test_levels_are_one_to_max_and_a_bad_level_or_budget_is_refused():
    assert (engine.MAX_LEVEL, engine.DEFAULT_LEVEL) == (7, 3)
    assert [lv.number for lv in engine.LEVELS] == list(range(1, 8))
    game = rules.new_game("standard")
    for bad in (0, 8, -1, "3", 2.5, None, True):
        with pytest.raises(ValueError):
            engine.choose(game, level=bad, nodes=10)
    for seconds, nodes in ((0, None), (-1.0, None), (None, 0), (None, 2.5)):
        with pytest.raises(ValueError):
            engine.choose(game, seconds=seconds, nodes=nodes)
    assert game.history == []


def test_a_finished_game_or_a_solo_puzzle_is_refused():
    game = rules.new_game("standard", fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    game.play("a1a8")
    with pytest.raises(ValueError):
        engine.choose(game, nodes=10)
    with pytest.raises(ValueError):
        engine.choose(rules.new_game("kingswap", seed=1), nodes=10)


def test_the_same_position_and_budget_give_the_same_move():
    for level in (1, engine.DEFAULT_LEVEL):
        game = random_positions("standard", plies=(8,))[0]
        first = engine.choose(game, level=level, nodes=500)
        assert engine.choose(game, level=level, nodes=500) == first
        again = rules.new_game("standard", seed=1)   # the same moves in another game: the same seeded choice
        for move in game.history:
            again.play(move)
        assert engine.choose(again, level=level, nodes=500) == first


def test_a_level_stops_at_its_own_budget_of_positions_not_the_clock():
    game = random_positions("standard", plies=(10,))[0]
    for number in (1, 4):
        budget = engine.LEVELS[number - 1].nodes
        choice = engine.choose(game, level=number, seconds=1000.0)
        assert choice.nodes <= budget + 1
        assert choice == engine.choose(game, level=number, nodes=budget)


def test_level_one_often_plays_a_clearly_worse_move_than_the_top_level():
    differs = 0
    for seed in range(10):
        for game in random_positions("standard", plies=(6, 14), seed=seed):
            best = engine.choose(game, level=engine.MAX_LEVEL, nodes=600).move   # 15 of 20 differ (16 at 1,500)
            differs += engine.choose(game, level=1).move != best
    assert differs >= 6   # of 20 positions


def test_a_balanced_swap_turn_is_a_whole_turn_of_the_busy_middlegame():
    game = random_positions("balanced-swap", plies=(24,), seed=2)[0]
    moves = game.legal_moves()
    assert len(moves) > 100   # hundreds of whole turns: not all are searched
    choice = engine.choose(game, level=engine.MAX_LEVEL, nodes=150)
    assert choice.move in moves and " " in choice.move


def test_balanced_swap_is_searched_part_by_part_and_every_choice_is_a_legal_whole_turn(monkeypatch):
    listings = []
    whole = BalancedSwap.turns
    monkeypatch.setattr(BalancedSwap, "turns", lambda self, position: listings.append(1) or whole(self, position))
    positions = [game for seed in (3, 4) for game in random_positions("balanced-swap", (1, 6, 12, 18, 26, 34), seed)]
    assert len(positions) >= 10
    for game in positions:
        fen, history, moves = game.fen(), game.history, game.legal_moves()
        for level, nodes in ((engine.MAX_LEVEL, 300), (4, 120)):
            listings.clear()
            choice = engine.choose(game, level=level, nodes=nodes)
            assert len(listings) <= 1   # the root's turns at most: no node below lists its whole turns
            assert choice.move in moves and " " in choice.move   # a regular move and its swap
            assert (game.fen(), game.history, game.outcome, game.legal_moves()) == (fen, history, None, moves)
        game.play(choice.move)


@pytest.mark.parametrize("level", [3, 4, 5])
def test_a_search_cut_mid_iteration_by_a_better_move_still_chooses_among_near_best_moves(level):
    # from the start, a budget of these sizes stops the second iteration after it has found a move
    # better than the first iteration's best by more than the level's margin
    game = rules.new_game("standard", seed=1)
    for nodes in (120, 200, 300):
        choice = engine.choose(game, level=level, nodes=nodes)
        assert choice.move in game.legal_moves()


@pytest.mark.parametrize("moves, nodes", [(("h2h3", "b7b5"), 250), (("b1c3", "g7g6", "f2f3"), 100)])
def test_a_search_cut_short_after_finding_a_better_move_still_chooses_among_near_best_moves(moves, nodes):
    """Level 3 picks among near-best moves; when the budget ran out in an iteration that had already
    found a better move than the last whole one, that move is the choice (there was none before)."""
    game = rules.new_game("standard")
    for move in moves:
        game.play(move)
    choice = engine.choose(game, level=3, nodes=nodes)
    assert choice.move in game.legal_moves()


def white_score(slug, fen):
    game = rules.new_game(slug, fen=fen)
    return engine.evaluate.white_score(engine.board.seen(game, True), engine.profiles.profile(slug))


def test_every_two_player_game_has_its_own_evaluation_with_its_goal_in_it():
    for slug in DUELS:
        own = engine.profiles.PROFILES.get(slug)
        assert own is not None, slug
        assert own.features or own.mobility != engine.profiles.GENERIC.mobility, slug


@pytest.mark.parametrize("slug, better, worse", [
    # a King behind its pawns rather than out among the enemy's men (the same men)
    ("standard", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/7K w - - 0 1"),
    ("ultimate", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "6k1/4Kppp/8/8/8/8/5PPP/8 w - - 0 1"),
    # Series-Helpmate: your own King open (the opponent could mate you: your win)
    ("series-helpmate", "6k1/5ppp/8/8/8/8/5PPP/7K w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"),
    # Regent: the royal Queen among her own men, not alone in a corner
    ("regent", "3qk3/8/8/8/8/8/3PPP2/4Q2K w - - 0 1", "3qk3/8/8/8/8/8/3PPP2/Q6K w - - 0 1"),
])
def test_goal_features_prefer_what_the_goal_prefers(slug, better, worse):
    assert white_score(slug, better) > white_score(slug, worse)
