"""Kibitz rules core: pure game logic behind one API. No I/O.

    import rules
    rules.VARIANTS                                 # slug -> VariantInfo(.slug, .name, .players, .summary)
    game = rules.new_game(slug, seed=None, fen=None)
    game.turn, game.legal_moves(), game.play(m), game.undo(), game.outcome, game.fen(), game.history
    game.label(m), game.describe_move(m)           # "Nxg7, a2/b2" (plays as m), "Nxg7, then swaps a2 and b2"
    game.said_move(m), game.last_move_said()       # Said(verb, words): ("plays", "Nxg7, then …"), ("drops", "a pawn on a3")
    rules.hint(game, seconds)                      # solo puzzles: Hint(move, reason, searched) or None
    rules.daily_deal(slug, day)                    # DailyDeal(slug, day, seed, fen, level, par, tried)

A move is one complete turn; its canonical text joins its parts with one space ("b8c6 f8/g7",
"d1d8 Q@a1", "N@e4"). Its label, what players read, is SAN per part joined by ", " ("Nc6, f8/g7"),
and every label plays as its turn. Where things live:

    core.py           the contract (Game), Outcome (result, reason, score, kind, detail), Ending, BoardView
    endings.py        the one order of end steps, what "no legal move" means (data), FIDE's draws
    notation.py       SAN written and read on python-chess boards
    chess_variant.py  ChessVariant/ChessGame: FIDE men, one python-chess move a turn (the fast path)
    position.py       Position (board, hands, extra state), parts, PartsVariant/PositionGame: turns
                      of several parts, men in hand ([Nb] in the FEN), after(move) for look-ahead
    men.py            men (Betza-like data) and royalty as data; attacks follow the data
    fairy.py          FairyVariant: a PartsVariant whose men, royalty and promotions are data
    lookahead.py      checks, mates in one, two moves in a row on python-chess boards
    castling.py       castling in games without check
    daily.py          the daily deal of the solo puzzles: seeds hashed from date and slug
    variants/         one module per variant, discovered automatically; a solo puzzle is a package
                      (game, solver, hint) registering its hint and daily deal in its VariantInfo

Imports point down: variants use the shared modules, never another variant; nothing imports back up.
"""
import datetime

from .core import (BLACK, LABEL_JOIN, PLAYS, WHITE, BoardView, DailyDeal, Ending, Game, Hint, IllegalMove, Outcome,
                   PromotionChoice, Said, VariantInfo, describe_view, kind_from_reason)
from .daily import daily_deal as _daily_deal, daily_slugs as _daily_slugs
from .registry import discover as _discover, new_game as _new_game

VARIANTS: dict[str, VariantInfo] = _discover()
DAILY_SLUGS: tuple[str, ...] = _daily_slugs(VARIANTS)


def new_game(slug: str, *, seed: int | None = None, fen: str | None = None) -> Game:
    """A new game of `slug`. `seed` fixes random set-ups; `fen` starts from a position.

    Raises KeyError for an unknown slug and ValueError for a FEN the variant cannot read."""
    return _new_game(VARIANTS, slug, seed=seed, fen=fen)


def hint(game: Game, seconds: float = 2.0, node_budget: int | None = None) -> Hint | None:
    """A good next move and why, from the search the variant registers as `VariantInfo.hint`, of
    at most about `seconds`, or of at most `node_budget` positions when given (then the clock is not
    looked at: the same answer on any machine); None when the variant gives no hints, the game is
    over or the search found nothing in time. Leaves the game as it was."""
    search = game.info.hint
    return None if search is None else search(game, seconds, node_budget)


def daily_deal(slug: str, day: datetime.date, *, node_budget: int | None = None) -> DailyDeal:
    """The deal of `slug` for the UTC day `day` (see rules.daily). Raises ValueError for a puzzle
    without a daily deal; `node_budget` sets KingSwap!'s solver budget per seed."""
    return _daily_deal(VARIANTS, slug, day, node_budget=node_budget)


__all__ = ["VARIANTS", "new_game", "Game", "IllegalMove", "PromotionChoice", "Outcome", "BoardView", "VariantInfo",
           "WHITE", "BLACK", "LABEL_JOIN", "PLAYS", "Said", "describe_view",
           "Hint", "hint", "DAILY_SLUGS", "DailyDeal", "daily_deal", "Ending", "kind_from_reason"]
