"""The core's fast paths for searches (`Game.key()`, `Game.men()`, `Game.play_listed()`): they
change no behaviour, for every two-player variant."""
import random

import pytest

import rules
from rules.core import Game
from rules.position import PartsVariant, PositionGame, takes_en_passant

DUELS = sorted(slug for slug, info in rules.VARIANTS.items() if info.players == 2)


def step_both(game: rules.Game, mirror: rules.Game, move: str) -> None:
    """Play `move` on `game` by `play_listed` and on `mirror` by `play`: the same position after."""
    game.play_listed(move)
    mirror.play(move)
    assert (game.fen(), game.history, game.outcome) == (mirror.fen(), mirror.history, mirror.outcome)


@pytest.mark.parametrize("slug", DUELS)
def test_key_men_and_play_listed_agree_with_fen_view_and_play(slug):
    game, mirror, rng = rules.new_game(slug, seed=1), rules.new_game(slug, seed=1), random.Random(slug)
    fens: dict[str, tuple] = {}
    for _ in range(40):
        assert game.men() == Game.men(game)                 # the bitboards say what the board view says
        key = game.key()
        assert fens.setdefault(game.fen(), key) == key      # the same position, the same key
        if game.outcome is not None:
            break
        step_both(game, mirror, rng.choice(game.legal_moves()))
    assert len(set(fens.values())) == len(fens)             # different positions, different keys
    game.undo()
    assert game.fen() == (mirror.undo() and mirror.fen())


@pytest.mark.parametrize("slug, one, other", [
    ("standard", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/4K2R b K - 0 1"),       # side to move
    ("standard", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"),       # castling
    ("zoo", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 pn/-", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 p/n"),      # extra state
    ("donnybrook", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[B] w - - 0 1"),  # hands
    ("spartan", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 59"),         # the move number
])
def test_the_key_tells_apart_what_the_rules_tell_apart(slug, one, other):
    first, second = rules.new_game(slug, fen=one), rules.new_game(slug, fen=other)
    assert first.key() != second.key()
    assert first.key() == rules.new_game(slug, fen=one).key()


def test_play_listed_refuses_an_unlisted_turn_and_changes_nothing():
    game = rules.new_game("balanced-swap", seed=1)
    fen = game.fen()
    with pytest.raises(KeyError):
        game.play_listed("e2e5")
    assert (game.fen(), game.history) == (fen, [])


@pytest.mark.parametrize("slug", DUELS)
def test_turns_listed_part_by_part_are_the_legal_turns_and_play_as_they_do(slug):
    game, mirror, rng = rules.new_game(slug, seed=1), rules.new_game(slug, seed=1), random.Random(slug)
    split = False
    for _ in range(30):
        firsts = game.first_parts()   # nothing has listed the whole turns here yet
        if firsts:
            split = True
            one = game.completions(rng.choice(firsts))
            if one:   # a turn played knowing only its own first part's completions
                game.play_listed(one[0])
                mirror.play(one[0])
                assert (game.fen(), game.outcome) == (mirror.fen(), mirror.outcome)
                game.undo()
                mirror.undo()
            parted = [move for first in firsts for move in game.completions(first)]
            assert parted == mirror.legal_moves()
            assert all(move.split(" ")[0] in firsts for move in parted)
        assert game.outcome == mirror.outcome       # judged without the whole listing where split
        if mirror.outcome is not None:
            break
        step_both(game, mirror, rng.choice(mirror.legal_moves()))
        if isinstance(game, PositionGame):
            assert game._keys[-1] == repetition_key(game)
    assert split == (slug in {"balanced-swap", "reentrant", "tyrant"})   # the variants that list turns part by part


def repetition_key(game):
    """FIDE's: the position, its en passant square only where a legal turn takes there (from the whole listing)."""
    position = game.position
    takes = takes_en_passant(position.board, game.variant.turns(position))
    return position.key() if takes else position.key_without_en_passant()


@pytest.mark.parametrize("fen, reason", [
    ("8/8/8/8/8/8/8/K6k b - - 0 2", "no legal move or swap"),            # king against king: nothing to swap
    ("7k/6Q1/5K2/8/8/8/8/8 b - - 0 2", "checkmate"),
])
def test_a_balanced_swap_side_with_no_whole_turn_loses_when_judged_part_by_part(fen, reason):
    game = rules.new_game("balanced-swap", fen=fen)
    assert game.first_parts() == []
    assert game.outcome is not None and (game.outcome.winner, game.outcome.reason) == (rules.WHITE, reason)


@pytest.mark.parametrize("fen, kept", [
    ("r3k3/3p4/8/4P3/8/8/8/6KR b - - 0 2", True),     # e5xd6 en passant, then a swap: a turn takes there
    ("r3k3/3p4/8/8/4P3/8/8/6KR b - - 0 2", False),    # no pawn beside d5
])
def test_a_double_step_keeps_its_en_passant_square_for_repetition_only_where_a_turn_takes_there(fen, kept):
    game = rules.new_game("balanced-swap", fen=fen)
    game.play_listed("d7d5 a8/e8")
    assert game.position.board.ep_square is not None
    assert (game._keys[-1][3] is not None, game._keys[-1]) == (kept, repetition_key(game))


def test_a_variant_of_parts_says_whether_it_lists_its_own_turns():
    # where a search's turns come from (`split`: from `men`, or None) follows `own_turns`, so the flag
    # must agree with the class: a `turns` of its own without it would be searched from `men`
    def turns(self, position):
        return {}

    with pytest.raises(TypeError, match="own_turns = True"):
        type("Unflagged", (PartsVariant,), {"turns": turns})
    with pytest.raises(TypeError, match="own_turns = False"):
        type("Flagged", (PartsVariant,), {"own_turns": True})
