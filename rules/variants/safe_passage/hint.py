"""Safe Passage's hint: iterative deepening over both colours' moves towards the target level.

If no line reaches the level in the time, the move whose line brings the goal men nearest their
squares (a heuristic). The search works on a copy of the game's board (the game never changes) and
looks at a `time.monotonic()` deadline every few positions.
"""
from __future__ import annotations

import time

import chess

from ...core import Game, Hint, OutOfTime, stop_time
from ...chess_variant import ChessGame
from ...lookahead import after as board_after, pushed, scratch
from .game import FAR_RANK, KING_GOALS, QUEEN_GOALS, level

MAX_DEPTH = 6
CLOCK_EVERY = 16
FAR = 99


def passage_distances(board: chess.Board, target: int) -> tuple[int, int, int]:
    """How far the goal men of `target` are from their squares: (kings, queens, other pieces), in
    king steps for kings and queens and in ranks for the others (0 when not part of the target)."""
    def steps(goals: tuple[tuple[chess.Color, chess.PieceType, chess.Square], ...]) -> int:
        total = 0
        for colour, kind, square in goals:
            found = board.pieces(kind, colour)
            total += min((chess.square_distance(s, square) for s in found), default=FAR)
        return total

    kings = steps(KING_GOALS)
    queens = steps(QUEEN_GOALS) if target >= 2 else 0
    others = 0
    if target >= 3:
        for colour in chess.COLORS:
            goal_rank = 7 if colour == chess.WHITE else 0
            men = board.occupied_co[colour] & (board.rooks | board.bishops | board.knights) & ~FAR_RANK[colour]
            others += sum(abs(chess.square_rank(s) - goal_rank) for s in chess.scan_forward(men))
    return kings, queens, others


def passage_hint(game: Game, seconds: float, node_budget: int | None = None) -> Hint | None:
    assert isinstance(game, ChessGame)
    if game.outcome is not None:
        return None
    deadline = stop_time(seconds, node_budget)
    variant, state = game.variant, game.state
    target = int(state)
    board = scratch(game.board)
    nodes = 0

    def value(depth: int) -> tuple[int, int]:
        """(plies to the target or FAR, distance score) of the best line of at most `depth` plies."""
        nonlocal nodes
        if node_budget is not None and nodes >= node_budget:
            raise OutOfTime
        nodes += 1
        if nodes % CLOCK_EVERY == 0 and time.monotonic() >= deadline:
            raise OutOfTime
        if level(board) >= target:
            return 0, 0
        here = sum(passage_distances(board, target))
        if depth == 0:
            return FAR, here
        legal = variant.legal(board, state)
        if not legal:
            return FAR, 10 * FAR            # a dead end: no safe move
        best = (FAR, here)
        for move in legal:
            best = min(best, line_from(move, depth))
            if best[0] == 1:
                break
        return best

    def line_from(move: chess.Move, depth: int) -> tuple[int, int]:
        """value() of the line that starts with `move`, counting that ply."""
        with pushed(board, move):
            plies, score = value(depth - 1)
        return (plies + 1 if plies < FAR else FAR), score

    chosen: tuple[tuple[int, int], chess.Move, int] | None = None
    root = game.legal_chess_moves()
    if not root:
        return None
    try:
        for depth in range(1, MAX_DEPTH + 1):
            results = [(line_from(move, depth), move) for move in root]
            results.sort(key=lambda r: (r[0], root.index(r[1])))
            chosen = (results[0][0], results[0][1], depth)
            root = [m for _, m in results]          # search the best first next time
            if chosen[0][0] < FAR:
                break
    except OutOfTime:
        pass
    if chosen is None:
        return None
    (plies, score), move, depth = chosen
    uci = move.uci()
    if plies < FAR:
        return Hint(uci, f"Reaches level {target} in {plies} {'move' if plies == 1 else 'moves'} "
                         "(both colours), never leaving a piece attacked.", nodes)
    kings, queens, others = passage_distances(game.board, target)
    after = passage_distances(board_after(board, move), target)
    parts = [("kings", kings, after[0]), ("queens", queens, after[1]), ("pieces", others, after[2])]
    closer = [name for name, before, now in parts if now < before]
    if closer:
        what = f"Brings the {' and '.join(closer)} closer to their goal squares"
    else:
        what = "Keeps the best line found open"
    return Hint(uci, f"{what}; no piece is left attacked (a heuristic: no line to level {target} was "
                     f"found within {depth} moves).", nodes)
