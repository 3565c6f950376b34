"""Kibitz's computer opponent: a search over the rules core, for every two-player variant. Pure, like
`rules` (no I/O); it depends on `rules` only.

    import engine
    choice = engine.choose(game, level=engine.DEFAULT_LEVEL, seconds=None, nodes=None)
    choice.move, choice.score, choice.depth, choice.nodes
    engine.MAX_LEVEL, engine.DEFAULT_LEVEL, engine.LEVELS   # 7, 3, (Level(number, name, ...), ...)

Where things live:

    levels.py    the levels as data (depth, positions, time, the margin of the seeded near-best choice)
    profiles.py  each variant's evaluation as data: values of men, men in hand, quiescence, goal features
    features.py  the goal features (Zoo's kinds captured, Moderation's checks left, ...)
    board.py     what the evaluation reads of a position (men by owner and square, hands, FEN fields)
    evaluate.py  the static evaluation
    search.py    negamax with alpha-beta, transposition table, ordering, quiescence
    root.py      iterative deepening at the root and the final choice
"""
from __future__ import annotations

import gc
import math
import time

import rules

from .levels import DEFAULT_LEVEL, LEVELS, MAX_LEVEL, Level, level as level_of
from .profiles import profile
from .root import Choice, answer
from .search import Search

SAFETY = 0.92   # the search stops by this share of its time, leaving room to take its moves back


def choose(game: rules.Game, level: int = DEFAULT_LEVEL, seconds: float | None = None,
           nodes: int | None = None) -> Choice:
    """The computer's move in `game` at `level` (1 to MAX_LEVEL), within `seconds` (default: the
    level's; the time includes any set-up) and at most `nodes` positions (default: the level's; when
    given without `seconds`, the clock is not looked at: the same answer on any machine). Leaves
    `game` as it found it.

    Raises ValueError for a bad level or budget, a finished game or a solo puzzle."""
    started = time.monotonic()
    chosen = level_of(level)
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0 and not math.isnan(seconds)):
        raise ValueError("seconds must be a positive number.")
    if nodes is not None and not (type(nodes) is int and nodes > 0):
        raise ValueError("nodes must be a positive whole number.")
    if game.info.players != 2:
        raise ValueError(f"{game.info.name} is not a two-player game.")
    if game.outcome is not None:
        raise ValueError("The game is over.")
    if seconds is None:
        seconds = math.inf if nodes is not None else chosen.seconds
    deadline = started + seconds * SAFETY
    search = Search(game, profile(game.info.slug), chosen, deadline, chosen.nodes if nodes is None else nodes)
    collecting = gc.isenabled()
    gc.disable()   # a full collection over the search's tables can take a tenth of a second: none mid-search
    try:
        return answer(game, search)
    finally:
        if collecting:
            gc.enable()


__all__ = ["choose", "Choice", "Level", "LEVELS", "MAX_LEVEL", "DEFAULT_LEVEL"]
