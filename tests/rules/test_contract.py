"""The rules contract, checked for every registered variant (one test id per slug)."""
import random

import pytest

import rules

SLUGS = sorted(rules.VARIANTS)
# Variants whose win can depend on the move before the position, which their ruling keeps out of a
# plain FEN: a finished game's FEN reloads as a running game (Blunder-Mate, ruling 3).
HISTORY_WINS = {"blunder-mate"}
# Variants whose random play never (or rarely) ends within the budget: a start and the moves that
# finish it (their own tests: tests/rules/variants/test_<slug>.py).
ENDINGS = {
    "tyrant": ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", ["e1d2"]),   # Black left with its monarch alone
    "safe-passage": ("8/4K3/8/8/8/8/8/4k3 w - - 0 1", ["e7e8"]),                       # kings exchanged
    "solitary-patience": ("8/8/8/p7/4K3/8/PPPPPPPP/8 w - - 0 3", ["pass", "a5a6", "pass", "a6a7"]),   # stuck
}


def walk(game, plies, rng):
    """Play up to `plies` random legal turns; returns the positions' FENs seen on the way."""
    seen = [game.fen()]
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome:
            break
        game.play(rng.choice(moves))
        seen.append(game.fen())
    return seen


@pytest.mark.parametrize("slug", SLUGS)
def test_registry_entry_describes_the_variant(slug):
    info = rules.VARIANTS[slug]
    assert info.slug == slug
    assert info.name and info.summary
    assert info.players in (1, 2)


@pytest.mark.parametrize("slug", SLUGS)
def test_new_game_starts_running_with_moves(slug):
    game = rules.new_game(slug, seed=7)
    assert game.turn in ("white", "black")
    assert game.history == []
    assert game.outcome is None
    assert game.legal_moves(), "a fresh game must have a legal move"


@pytest.mark.parametrize("slug", SLUGS)
def test_fen_round_trips_along_a_random_game(slug):
    game = rules.new_game(slug, seed=11)
    rng = random.Random(slug)
    for _ in range(40):
        again = rules.new_game(slug, fen=game.fen())
        assert again.fen() == game.fen()
        assert again.turn == game.turn
        if game.outcome is None or slug not in HISTORY_WINS:
            assert sorted(again.legal_moves()) == sorted(game.legal_moves())
            assert again.outcome == game.outcome
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))


@pytest.mark.parametrize("slug", SLUGS)
def test_every_legal_move_plays_and_undoes_to_the_same_fen(slug):
    game = rules.new_game(slug, seed=3)
    rng = random.Random(slug + "undo")
    for _ in range(6):
        before, history = game.fen(), game.history
        for move in game.legal_moves():
            played = game.play(move)
            assert played == move, "legal_moves() must already be canonical"
            assert game.history == history + [move]
            game.undo()
            assert game.fen() == before
            assert game.history == history
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("bad", ["", "garbage", "z9z9", "a1a1", "pass pass pass", "N@z0"])
def test_illegal_move_raises_and_changes_nothing(slug, bad):
    game = rules.new_game(slug, seed=5)
    walk(game, 3, random.Random(1))
    before, history, turn = game.fen(), game.history, game.turn
    if bad in game.legal_moves():
        pytest.skip(f"{bad!r} happens to be legal here")
    with pytest.raises(rules.IllegalMove) as err:
        game.play(bad)
    assert str(err.value), "the refusal must say why"
    assert isinstance(err.value, ValueError)
    assert (game.fen(), game.history, game.turn) == (before, history, turn)


@pytest.mark.parametrize("slug", SLUGS)
def test_text_after_a_whole_one_part_turn_gets_a_plain_refusal(slug):
    game = rules.new_game(slug, seed=0)
    move = next(m for m in game.legal_moves() if " " not in m)
    with pytest.raises(rules.IllegalMove) as err:
        game.play(f"{move} {move}")
    assert "part(s)" not in str(err.value) and "e.g. ." not in str(err.value), str(err.value)


@pytest.mark.parametrize("slug", SLUGS)
def test_same_seed_same_setup(slug):
    assert rules.new_game(slug, seed=42).fen() == rules.new_game(slug, seed=42).fen()


def finished_game(slug):
    """A game played to its end: from ENDINGS, else the first random game that ends."""
    if slug in ENDINGS:
        fen, moves = ENDINGS[slug]
        game = rules.new_game(slug, fen=fen)
        for move in moves:
            assert game.outcome is None
            game.play(move)
        return game
    rng = random.Random(slug + "end")
    for attempt in range(30):
        game = rules.new_game(slug, seed=attempt)
        walk(game, 400, rng)
        if game.outcome is not None:
            return game
    raise AssertionError(f"no random game of {slug} ended within the budget: give it an entry in ENDINGS")


@pytest.mark.parametrize("slug", SLUGS)
def test_playing_after_the_end_is_refused(slug):
    game = finished_game(slug)
    assert game.legal_moves() == []
    before = game.fen()
    with pytest.raises(rules.IllegalMove):
        game.play("e2e4")
    assert game.fen() == before
    assert game.outcome.reason


@pytest.mark.parametrize("slug", SLUGS)
def test_undo_with_no_history_is_refused(slug):
    game = rules.new_game(slug, seed=1)
    with pytest.raises(rules.IllegalMove):
        game.undo()


@pytest.mark.parametrize("slug", SLUGS)
def test_view_matches_board_size_and_describes_position(slug):
    info = rules.VARIANTS[slug]
    game = rules.new_game(slug, seed=2)
    view = game.view()
    assert (view.files, view.ranks) == (info.files, info.ranks)
    assert game.describe()


@pytest.mark.parametrize("slug", ["standard", "zoo", "dowager", "moderation"])
def test_the_last_moves_label_is_the_same_from_the_cache_and_after_a_replay(slug):
    # The label reads the legal moves cached for the position before the move; a game replayed
    # from its moves (no cache) must label every move the same.
    rng, game = random.Random(3), rules.new_game(slug, seed=3)
    labels = []
    for _ in range(30):
        if game.outcome is not None:
            break
        game.play(rng.choice(game.legal_moves()))
        labels.append(game.last_move_label())
    for n in range(1, len(labels) + 1):
        fresh = rules.new_game(slug, seed=3)
        for move in game.history[:n - 1]:
            fresh.play(move)
        fresh._memo[-1].clear()   # nothing cached for the position before the move
        fresh.play(game.history[n - 1])
        fresh._memo[-2].clear()
        assert fresh.last_move_label() == labels[n - 1]
