"""Kibitz rules core: pure game logic behind one API. No I/O.

    import rules
    rules.VARIANTS                                 # slug -> VariantInfo(.slug, .name, .players, .summary)
    game = rules.new_game(slug, seed=None, fen=None)
    game.turn, game.legal_moves(), game.play(m), game.undo(), game.outcome, game.fen(), game.history
    game.hint(seconds)                             # solo puzzles: Hint(move, reason, searched) or None
    rules.daily_deal(slug, day)                    # DailyDeal(slug, day, seed, fen, level, par, tried)

A move is one complete turn; its canonical text joins its parts with one space ("b8c6 f8/g7",
"d1d8 Q@a1", "N@e4"). Where things live:

    core.py           the contract (Game), Outcome (result, reason, score, kind, detail), BoardView
    chess_variant.py  ChessVariant/ChessGame: FIDE men, one python-chess move a turn (the fast path)
    position.py       Position (board, hands, extra state), parts, PartsVariant/PositionGame: turns
                      of several parts, men in hand ([Nb] in the FEN), after(move) for look-ahead
    men.py            men (Betza-like data) and royalty as data; attacks follow the data
    fairy.py          FairyVariant: a PartsVariant whose men, royalty and promotions are data
    lookahead.py      checks, mates in one, two moves in a row on python-chess boards
    daily.py          the daily deal of the solo puzzles: seeds hashed from date and slug
    solver.py         KingSwap!'s solver: fewest casualties within a budget of nodes
    hints.py          the hint searches of the three solo puzzles
    variants/         one module per variant, discovered automatically
"""
from .core import (BLACK, WHITE, BoardView, Game, Hint, IllegalMove, Outcome, PromotionChoice, VariantInfo,
                   describe_view)
from .registry import discover as _discover, new_game as _new_game

VARIANTS: dict[str, VariantInfo] = _discover()


def new_game(slug: str, *, seed: int | None = None, fen: str | None = None) -> Game:
    """A new game of `slug`. `seed` fixes random set-ups; `fen` starts from a position.

    Raises KeyError for an unknown slug and ValueError for a FEN the variant cannot read."""
    return _new_game(VARIANTS, slug, seed=seed, fen=fen)


from .daily import DAILY_SLUGS, DailyDeal, daily_deal  # noqa: E402  (needs new_game above)


__all__ = ["VARIANTS", "new_game", "Game", "IllegalMove", "PromotionChoice", "Outcome", "BoardView", "VariantInfo",
           "WHITE", "BLACK", "describe_view",
           "Hint", "DAILY_SLUGS", "DailyDeal", "daily_deal"]
