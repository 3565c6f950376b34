"""Kibitz rules core: pure game logic behind one API. No I/O.

    import rules
    rules.VARIANTS                                 # slug -> VariantInfo(.slug, .name, .players, .summary)
    game = rules.new_game(slug, seed=None, fen=None)
    game.turn, game.legal_moves(), game.play(m), game.undo(), game.outcome, game.fen(), game.history
"""
from .core import BLACK, WHITE, BoardView, Game, IllegalMove, Outcome, VariantInfo, describe_view
from .registry import discover as _discover, new_game as _new_game

VARIANTS: dict[str, VariantInfo] = _discover()


def new_game(slug: str, *, seed: int | None = None, fen: str | None = None) -> Game:
    """A new game of `slug`. `seed` fixes random set-ups; `fen` starts from a position.

    Raises KeyError for an unknown slug and ValueError for a FEN the variant cannot read."""
    return _new_game(VARIANTS, slug, seed=seed, fen=fen)


__all__ = ["VARIANTS", "new_game", "Game", "IllegalMove", "Outcome", "BoardView", "VariantInfo",
           "WHITE", "BLACK", "describe_view"]
