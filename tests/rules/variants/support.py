"""Small helpers the variant tests share."""
import pytest

import rules

KNIGHT_SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]   # one cycle: back to the same position


def shuffle_knights(game, cycles):
    """Play the knight shuffle `cycles` times from the start position."""
    for move in KNIGHT_SHUFFLE * cycles:
        game.play(move)


def refusal(game, move):
    """The reason `move` is refused; fails unless it is refused and the game is left unchanged."""
    before, history = game.fen(), game.history
    with pytest.raises(rules.IllegalMove) as err:
        game.play(move)
    assert (game.fen(), game.history) == (before, history)
    return str(err.value)


def perft(game, depth, *, ends_count=False):
    """Leaf positions `depth` turns ahead through the public API, playing and undoing every turn.
    A position where the game has ended before `depth` is one leaf when `ends_count`, else none."""
    if depth == 0 or (ends_count and game.outcome):
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.play(move)
        total += perft(game, depth - 1, ends_count=ends_count)
        game.undo()
    return total
