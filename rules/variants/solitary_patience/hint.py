"""Solitary Patience's hint: one greedy play-out per legal move.

Each play-out tries placements first, then moves that bring the called man nearer a free home
square; the hint is the move whose play-out ends with the fewest men not home, ideally none. The
play-outs work on positions (the game never changes) and look at a `time.monotonic()` deadline
every few turns.
"""
from __future__ import annotations

import time

from ...core import Game, Hint, stop_time
from . import game as sp
from .game import Position as PatiencePosition, SolitaryPatienceGame

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
    man has come home for STALL_PLIES turns: (men not home, plies), or None when the clock ran out."""
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


def patience_hint(game: Game, seconds: float, node_budget: int | None = None) -> Hint | None:
    assert isinstance(game, SolitaryPatienceGame)
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
