"""The root of the search: iterative deepening over the root's turns, the choice among near-best
moves at low levels, and what is kept when the budget runs out mid-iteration."""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

import rules

from .search import INFINITY, MATE_BOUND, ROOT_WIDE, Search, Stop


@dataclass(frozen=True)
class Choice:
    """The computer's move: `move` is one of `game.legal_moves()`; `score` in centipawns for the
    side that moves (a win in n plies is 100000 - n, a loss its negative); `depth` the deepest
    iteration completed (0: none, the move came from ordering alone); `nodes` positions searched."""

    move: str
    score: int
    depth: int
    nodes: int


def think(search: Search) -> Choice:
    game = search.game
    moves = game.legal_moves()
    if len(moves) == 1:
        return Choice(moves[0], 0, 0, 0)
    order = search.ordered(moves, game.key(), None, 0, ROOT_WIDE)
    margin = search.level.margin
    scores: dict[str, int] = {}
    best_move, best, depth = order[0], 0, 0
    for target in range(1, search.level.depth + 1):
        found: dict[str, int] = {}
        alpha = -INFINITY
        try:
            for move in order:
                search.play(move)
                score = -search.negamax(target - 1, -INFINITY, -(alpha - margin if alpha > -INFINITY else alpha), 1)
                search.undo()
                found[move] = score
                alpha = max(alpha, score)
        except Stop:
            search.unwind()
            if order[0] in found:   # the previous best was searched again: the new iteration's best stands
                best_move = max(found, key=lambda m: found[m])
                if depth == 0 or found[best_move] > found[order[0]]:
                    best = found[best_move]
                    scores = found   # the near-best are chosen among its moves: scores of one depth, with the best
            break
        order = sorted(order, key=lambda m: found[m], reverse=True)
        scores, best_move, best, depth = found, order[0], found[order[0]], target
        if abs(best) > MATE_BOUND:
            break   # a forced win found (or every move loses): looking deeper changes nothing
    if margin and scores and best < MATE_BOUND:
        near = sorted(m for m, s in scores.items() if s >= best - margin)   # `best` is one of `scores`
        seed = zlib.crc32(f"{game.fen()}|{len(game.history)}".encode())
        best_move = random.Random(seed).choice(near)
        best = scores[best_move]
    return Choice(best_move, best, depth, search.stats.nodes)


def answer(game: rules.Game, search: Search) -> Choice:
    try:
        return think(search)
    finally:
        search.unwind()
