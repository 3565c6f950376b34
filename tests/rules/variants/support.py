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
