"""Hints for the solo puzzles: one good next move and why, from a time-bounded search.

Each search reads the game's position and works on copies: the game itself never changes. The
clock is a `time.monotonic()` deadline looked at every few positions (no threads, no I/O); given
a `node_budget`, a search stops after that many positions instead and never looks at the clock, so
it gives the same answer on any machine however busy (tests use this). Each returns a `Hint` or
None when it found nothing in time (or the game is over); a KingSwap! hint whose search proved
that no tour can be completed any more has no move and says so.

* KingSwap!: the solver (`rules.solver`); the hint is the first move of the best tour found.
* Solitary Patience: one greedy play-out per legal move (placements first, then moves that bring
  the called man nearer a free home square); the move whose play-out ends with the fewest men
  not home, ideally none.
* Safe Passage: iterative deepening over both colours' moves towards the target level; if no line
  reaches it, the move whose line brings the goal men nearest their squares (a heuristic).
"""
from __future__ import annotations

import time

import chess

from .core import Hint
from .solver import solve
from .variants import solitary_patience as sp
from .variants.kingswap import KingSwapGame
from .variants.safe_passage import FAR_RANK, KING_GOALS, QUEEN_GOALS, SafePassageGame, level
from .variants.solitary_patience import Position as PatiencePosition, SolitaryPatienceGame

HINT_NODES_PER_SECOND = 4_000  # KingSwap!: the solver's budget per second asked (the clock also stops it)


def stop_time(seconds: float, node_budget: int | None) -> float:
    """When a search stops by the clock: never when it has a budget of positions."""
    return float("inf") if node_budget is not None else time.monotonic() + seconds


# -- KingSwap! -----------------------------------------------------------------------------------
def kingswap_hint(game: KingSwapGame, seconds: float, node_budget: int | None = None) -> Hint | None:
    if game.outcome is not None:
        return None
    budget = max(200, int(seconds * HINT_NODES_PER_SECOND)) if node_budget is None else node_budget
    result = solve(game.position, budget, deadline=stop_time(seconds, node_budget))
    if result.solvable is False:   # the search was complete: a proof, not a budget spent
        return Hint(None, "The tour can no longer be completed from this position.", result.nodes)
    if not result.solvable or not result.line:
        return None
    n = result.best_score
    return Hint(result.line[0], f"Keeps a solution open: the tour can still be completed with {n} "
                                f"{'casualty' if n == 1 else 'casualties'}.", result.nodes)


# -- Solitary Patience ---------------------------------------------------------------------------
PLAYOUT_PLIES = 600           # a play-out longer than this stops and counts the men not home then
STALL_PLIES = 150             # ... and so does one that brought no man home for this many turns


def _home_distance(man: str, square: int, board: tuple[str, ...]) -> int:
    """Moves a piece needs at the fewest, on an empty board, to reach a home square not yet held
    by its own man (0 at home; 9 when none is free)."""
    if sp.is_home(man, square):
        return 0
    best = 9
    kind = man.upper()
    f, r = square % 8, square // 8
    for home in sp.HOMES[man]:
        if board[home] == man:
            continue
        hf, hr = home % 8, home // 8
        if kind == "K":
            d = max(abs(hf - f), abs(hr - r))
        elif kind == "N":
            d = knight_distance(square, home)
        else:
            straight = hf == f or hr == r
            diagonal = abs(hf - f) == abs(hr - r)
            line = {"R": straight, "B": diagonal, "Q": straight or diagonal}[kind]
            if kind == "B" and (hf + hr) % 2 != (f + r) % 2:
                continue
            d = 1 if line else 2
        best = min(best, d)
    return best


def _knight_distances(start: int) -> list[int]:
    dist = [99] * 64
    dist[start] = 0
    frontier = [start]
    while frontier:
        following = []
        for s in frontier:
            for t in sp.LEAPS["N"][s]:
                if dist[t] == 99:
                    dist[t] = dist[s] + 1
                    following.append(t)
        frontier = following
    return dist


KNIGHT_DISTANCES = [_knight_distances(start) for start in range(64)]


def knight_distance(a: int, b: int) -> int:
    """Knight moves from a to b on an empty 8x8 board."""
    return KNIGHT_DISTANCES[a][b]


def patience_order(pos: PatiencePosition, moves: list[str]) -> list[str]:
    """Moves by promise: placements, then those that bring the man nearest a free home square."""
    def key(move: str) -> tuple[int, int, str]:
        if move == "pass":
            return (0, 0, move)
        s, t = sp.sq_index(move[:2]), sp.sq_index(move[2:])
        man = pos.board[s]
        if man in "Pp":
            return (1, 0, move)
        after = _home_distance(man, t, pos.board)
        return (0 if after == 0 else 1, after - _home_distance(man, s, pos.board), move)

    return sorted(moves, key=key)


def playout(pos: PatiencePosition, deadline: float, node_budget: int | None = None) -> tuple[int, int] | None:
    """Play the most promising move not leading back to a position seen, to the end or until no
    man has come home for STALL_PLIES turns: (men not home, plies), or None when the clock ran out
    (or the play-out would take more than `node_budget` plies)."""
    seen = {(pos.board, pos.k % 10)}
    plies = last_progress = 0
    out = sp.men_not_home(pos.board)
    while plies < PLAYOUT_PLIES and plies - last_progress < STALL_PLIES:
        analysis = sp.Analysis(pos.board)
        if out == 0 or analysis.is_frozen():
            break
        if plies % 32 == 0 and time.monotonic() >= deadline:
            return None
        if node_budget is not None and plies >= node_budget:
            return None
        moves = patience_order(pos, analysis.moves(*sp.call(pos.k)))
        following = [sp.apply(pos, m) for m in moves]
        fresh = [p for p in following if (p.board, p.k % 10) not in seen]
        pos = fresh[0] if fresh else following[0]
        seen.add((pos.board, pos.k % 10))
        plies += 1
        now = sp.men_not_home(pos.board)
        if now < out:
            out, last_progress = now, plies
    return out, plies


def patience_hint(game: SolitaryPatienceGame, seconds: float, node_budget: int | None = None) -> Hint | None:
    if game.outcome is not None:
        return None
    deadline = stop_time(seconds, node_budget)
    start = game.position
    moves = patience_order(start, game.legal_moves())
    best: tuple[int, int, str] | None = None
    tried = searched = 0
    for move in moves:
        result = playout(sp.apply(start, move), deadline, None if node_budget is None else node_budget - searched)
        if result is None:
            break
        tried += 1
        searched += result[1] + 1
        if best is None or (result[0], result[1]) < best[:2]:
            best = (result[0], result[1], move)
        if best[0] == 0:
            break
    if best is None:
        if not moves:
            return None
        score, plies, move = -1, 0, moves[0]      # no play-out finished in time: the most promising move
    else:
        score, plies, move = best
    colour, _ = game.called
    what = ""
    if move != "pass":
        s, t = sp.sq_index(move[:2]), sp.sq_index(move[2:])
        man = start.board[s]
        name = f"{colour} {sp.NAMES[man.upper()]}"
        if man not in "Pp" and sp.is_home(man, t):
            what = f"Sends the called {name} home to {move[2:]}"
        elif man in "Pp":
            what = f"Steps the {name} on {move[:2]} back towards home"
        else:
            what = f"Moves the called {name} from {move[:2]} to {move[2:]}"
    else:
        what = "Nothing can move, so pass"
    if score < 0:
        return Hint(move, f"{what}: the most promising move at a glance (no line was played out to the end "
                          "in the time).", searched)
    if score == 0:
        return Hint(move, f"{what}: the line found brings every man home in {plies + 1} more turns.", searched)
    return Hint(move, f"{what}: the best line found leaves {score} {'man' if score == 1 else 'men'} "
                      f"not home ({tried} of {len(moves)} moves tried).", searched)


# -- Safe Passage ----------------------------------------------------------------------------------
MAX_DEPTH = 6
CLOCK_EVERY = 16
FAR = 99


def passage_distances(board: chess.Board, target: int) -> tuple[int, int, int]:
    """How far the goal men of `target` are from their squares: (kings, queens, other pieces), in
    king steps for kings and queens and in ranks for the others (0 when not part of the target)."""
    def steps(goals) -> int:
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


class _Out(Exception):
    """The clock (or the budget of positions) ran out."""


def passage_hint(game: SafePassageGame, seconds: float, node_budget: int | None = None) -> Hint | None:
    if game.outcome is not None:
        return None
    deadline = stop_time(seconds, node_budget)
    variant, state, target = game.variant, game.state, game.target
    board = game.board.copy(stack=False)
    nodes = 0

    def value(depth: int) -> tuple[int, int]:
        """(plies to the target or FAR, distance score) of the best line of at most `depth` plies."""
        nonlocal nodes
        if node_budget is not None and nodes >= node_budget:
            raise _Out
        nodes += 1
        if nodes % CLOCK_EVERY == 0 and time.monotonic() >= deadline:
            raise _Out
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
        board.push(move)
        try:
            plies, score = value(depth - 1)
        finally:
            board.pop()
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
    except _Out:
        pass
    if chosen is None:
        return None
    (plies, score), move, depth = chosen
    uci = move.uci()
    if plies < FAR:
        return Hint(uci, f"Reaches level {target} in {plies} {'move' if plies == 1 else 'moves'} "
                         "(both colours), never leaving a piece attacked.", nodes)
    kings, queens, others = passage_distances(game.board, target)
    board.push(move)
    after = passage_distances(board, target)
    board.pop()
    parts = [("kings", kings, after[0]), ("queens", queens, after[1]), ("pieces", others, after[2])]
    closer = [name for name, before, now in parts if now < before]
    if closer:
        what = f"Brings the {' and '.join(closer)} closer to their goal squares"
    else:
        what = "Keeps the best line found open"
    return Hint(uci, f"{what}; no piece is left attacked (a heuristic: no line to level {target} was "
                     f"found within {depth} moves).", nodes)
