"""KingSwap! solver: the fewest casualties for the tour e1 -> a5 -> e1, within a budget of nodes.

    result = solve(game_or_position, node_budget)
    result.solvable    True (a tour was found), False (the search proved there is none), None (budget spent)
    result.best_score  the fewest casualties found (counting those already suffered), or None
    result.line        the moves of that tour from the position given
    result.nodes       positions expanded

Depth-first branch and bound over single moves, deterministic: the same position and budget give
the same answer on every machine (no clocks, no hashing of strings, no randomness in the order).
Every position reached is remembered (a transposition table): casualties follow from the board
alone (men only ever leave it through the king), so a position seen once never needs a second look.
Moves are tried in a fixed order of promise: king swaps that bring the king nearer its goal, then
moves that bring a man in reach of the king from a square nearer the goal, then the rest. A
position is cut when its casualties plus a lower bound on those still to come reach the best tour
found. The search is complete (so `solvable=False` and an optimal `best_score` are proofs) only
when it ends without spending its budget and without hitting the depth limit.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ...core import Game
from . import game as ks

SIZE = 5
SQUARES = ["abcde"[i % SIZE] + str(i // SIZE + 1) for i in range(SIZE * SIZE)]
INDEX = {name: i for i, name in enumerate(SQUARES)}
A5, E1 = INDEX[ks.TARGET], INDEX[ks.HOME]
MAX_PLIES = 20_000       # depth limit of one line (a cut there makes the search incomplete)
CLOCK_EVERY = 256        # nodes between two looks at the clock when a deadline is given
# Which man to give up first when several could swap into the king: the least mobile.
SACRIFICE_ORDER = {"P": 0, "B": 1, "N": 2, "R": 3, "Q": 4}


def _on(f: int, r: int) -> bool:
    return 0 <= f < SIZE and 0 <= r < SIZE


_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_DIRS: dict[str, tuple[tuple[int, int], ...]] = {"R": _ORTHOGONAL, "B": _DIAGONAL, "Q": _ORTHOGONAL + _DIAGONAL}
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
PAWN_STEPS: list[tuple[int, ...]] = []
KNIGHT_JUMPS: list[tuple[int, ...]] = []
RAYS: dict[str, list[tuple[tuple[int, ...], ...]]] = {"Q": [], "R": [], "B": []}
for _i in range(SIZE * SIZE):
    _f, _r = _i % SIZE, _i // SIZE
    PAWN_STEPS.append(tuple((_r + 1) * SIZE + _f + df for df in (-1, 0, 1) if _on(_f + df, _r + 1)))
    KNIGHT_JUMPS.append(tuple((_r + dr) * SIZE + _f + df for df, dr in _KNIGHT if _on(_f + df, _r + dr)))
    for _kind, _dirs in _DIRS.items():
        _rays = []
        for df, dr in _dirs:
            _squares, f, r = [], _f + df, _r + dr
            while _on(f, r):
                _squares.append(r * SIZE + f)
                f, r = f + df, r + dr
            if _squares:
                _rays.append(tuple(_squares))
        RAYS[_kind].append(tuple(_rays))

# PATHS[man][s][k]: the squares that must be empty for `man` on s to move to k (absent: never).
PATHS: dict[str, list[dict[int, tuple[int, ...]]]] = {man: [{} for _ in range(SIZE * SIZE)] for man in "QRBNP"}
for _i in range(SIZE * SIZE):
    for _t in PAWN_STEPS[_i]:
        PATHS["P"][_i][_t] = ()
    for _t in KNIGHT_JUMPS[_i]:
        PATHS["N"][_i][_t] = ()
    for _kind in "QRB":
        for _ray in RAYS[_kind][_i]:
            for _n, _t in enumerate(_ray):
                PATHS[_kind][_i][_t] = _ray[:_n]
# The squares from which some man could ever move into a king on k.
REACHERS: list[tuple[int, ...]] = [tuple(s for s in range(SIZE * SIZE) if any(k in PATHS[m][s] for m in "QN"))
                                   for k in range(SIZE * SIZE)]


def _jump(a: int, b: int) -> int:
    """King moves from a to b at the fewest: 0, 1 (a man on b could reach a), else 2."""
    if a == b:
        return 0
    return 1 if b in REACHERS[a] else 2


JUMPS = [[_jump(a, b) for b in range(SIZE * SIZE)] for a in range(SIZE * SIZE)]


def _chebyshev(a: int, b: int) -> int:
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


CHEBYSHEV = [[_chebyshev(a, b) for b in range(SIZE * SIZE)] for a in range(SIZE * SIZE)]


def still_needed(king: int, leg: int) -> int:
    """A lower bound on the casualties still to come: each king move costs one man."""
    if leg == 2:
        return JUMPS[king][E1]
    return JUMPS[king][A5] + JUMPS[A5][E1]


def distance(king: int, leg: int) -> int:
    """How far the king is from finishing, in king steps (orders moves; not a bound)."""
    return CHEBYSHEV[king][E1] if leg == 2 else CHEBYSHEV[king][A5] + CHEBYSHEV[A5][E1]


def targets(board: list[str], s: int) -> list[int]:
    man = board[s]
    if man == "P":
        return list(PAWN_STEPS[s])
    if man == "N":
        return list(KNIGHT_JUMPS[s])
    found = []
    for ray in RAYS[man][s]:
        for t in ray:
            found.append(t)
            if board[t]:
                break
    return found


def _reaches(board: list[str], man: str, s: int, k: int, moved: int, left: str) -> bool:
    """Could `man` on s move into k, on `board` where square `moved` now holds `left`?"""
    path = PATHS[man][s].get(k)
    if path is None:
        return False
    return all(not (left if b == moved else board[b]) for b in path)


def ordered_moves(board: list[str], king: int, leg: int) -> list[tuple[int, int]]:
    """Every move (from, to) in the order of promise (see the module text)."""
    here = distance(king, leg)
    keyed = []
    for s in range(SIZE * SIZE):
        man = board[s]
        if not man or man == "K":
            continue
        for t in targets(board, s):
            occupant = board[t]
            if occupant == "K":
                after = distance(s, 2 if s == A5 else leg)
                key: tuple[int, ...] = (0 if after < here else 2, after, SACRIFICE_ORDER[man])
            else:
                # After the move: the mover stands on t, the occupant (or nothing) on s.
                best = here
                if t != king and _reaches(board, man, t, king, s, occupant):
                    best = min(best, distance(t, 2 if t == A5 else leg))
                if occupant and _reaches(board, occupant, s, king, t, man):
                    best = min(best, distance(s, 2 if s == A5 else leg))
                key = (1, best) if best < here else (3, 0)
            keyed.append((key, s, t))
    keyed.sort()
    return [(s, t) for _, s, t in keyed]


def _dead(board: list[str]) -> bool:
    """Rules card (KingSwap's own test): no man can ever swap into the king again."""
    if any(man in "NRQ" for man in board):
        return False
    found = ks.king_can_still_move({SQUARES[i]: man for i, man in enumerate(board) if man})
    return found is False


@dataclass(frozen=True)
class SolveResult:
    solvable: bool | None            # None: the budget ran out before a tour was found or ruled out
    best_score: int | None           # fewest casualties of a tour found (those already suffered included)
    line: list[str] = field(default_factory=list)   # that tour's moves from the position solved
    nodes: int = 0                   # positions expanded


def _position(game_or_position: Game | ks.Position | str) -> ks.Position:
    if isinstance(game_or_position, ks.Position):
        return game_or_position
    if isinstance(game_or_position, str):
        return ks.parse_fen(game_or_position)
    position = getattr(game_or_position, "position", None)
    if not isinstance(position, ks.Position):
        raise ValueError("The solver only knows KingSwap! positions.")
    return position


@dataclass
class _Frame:
    board: list[str]
    king: int
    leg: int
    casualties: int
    moves: list[tuple[int, int]]
    next: int = 0


def solve(game_or_position: Game | ks.Position | str, node_budget: int, *,
          deadline: float | None = None) -> SolveResult:
    """Search for the tour with the fewest casualties from a KingSwap! game, Position or FEN.

    Expands at most `node_budget` positions (deterministic); `deadline` (a `time.monotonic()`
    value) also stops it, for hints, at the price of determinism.

    The search runs with a cap on casualties, raised one at a time from the lower bound, each run
    with a share of the budget (CAP_SHARE), so that no run sinks into losing man after man; once a
    tour is found, the rest of the budget looks for a shorter one. A run that ends within its
    share proves there is no tour within its cap; one at the cap of every man lost proves there is
    none at all."""
    position = _position(game_or_position)
    board = [""] * (SIZE * SIZE)
    for square, man in position.pieces:
        board[INDEX[square]] = man
    king, leg, casualties = board.index("K"), position.leg, position.casualties
    if leg == 2 and king == E1:
        return SolveResult(True, casualties, [], 0)
    if _dead(board):
        return SolveResult(False, None, [], 0)
    men = sum(1 for man in board if man and man != "K")
    most = casualties + men                      # every man lost
    cap = casualties + still_needed(king, leg)
    share = max(1, node_budget // CAP_SHARE)
    nodes = 0
    best: tuple[int, list[str]] | None = None
    improving = False                            # the last run spends what is left on a shorter tour
    if cap > most:
        return SolveResult(False, None, [], 0)   # more king moves needed than there are men
    while cap <= most and nodes < node_budget:
        run = _Run(board, king, leg, casualties, cap, node_budget - nodes if improving else
                   min(share, node_budget - nodes), deadline)
        found, used, complete = run.search()
        nodes += used
        if found is not None and (best is None or found[0] < best[0]):
            best = found
        if run.out_of_time or improving:
            break
        if best is None:
            if complete and cap == most:
                return SolveResult(False, None, [], nodes)   # no tour even losing every man
            cap += 1
            continue
        if complete:
            break                                # nothing shorter within the cap: best is the fewest
        cap, improving = best[0] - 1, True
    if best is not None:
        return SolveResult(True, best[0], best[1], nodes)
    return SolveResult(None, None, [], nodes)


CAP_SHARE = 8


class _Run:
    """One depth-first run with a cap on casualties and a budget of nodes."""

    def __init__(self, board: list[str], king: int, leg: int, casualties: int, cap: int, budget: int,
                 deadline: float | None):
        self.root = _Frame(board, king, leg, casualties, [])
        self.cap, self.budget, self.deadline = cap, budget, deadline
        self.out_of_time = False

    def search(self) -> tuple[tuple[int, list[str]] | None, int, bool]:
        """(best (casualties, line) found, nodes used, whether the run was complete)."""
        root = self.root
        root.moves = ordered_moves(root.board, root.king, root.leg)
        limit = self.cap + 1                     # tours must have fewer casualties than this
        best: tuple[int, list[str]] | None = None
        visited = {(tuple(root.board), root.leg)}
        stack = [root]
        line: list[str] = []
        nodes, complete = 1, True
        while stack:
            frame = stack[-1]
            if frame.next >= len(frame.moves) or frame.casualties + still_needed(frame.king, frame.leg) >= limit:
                stack.pop()
                if line:
                    line.pop()
                continue
            s, t = frame.moves[frame.next]
            frame.next += 1
            child = frame.board.copy()
            occupant, man = child[t], child[s]
            king, leg, casualties = frame.king, frame.leg, frame.casualties
            if occupant == "K":
                child[s], child[t] = "K", ""
                king, casualties = s, casualties + 1
                if s == A5:
                    leg = 2
            else:
                child[s], child[t] = occupant, man
            move = SQUARES[s] + SQUARES[t]
            if leg == 2 and king == E1:
                if casualties < limit:
                    best, limit = (casualties, line + [move]), casualties
                continue
            if casualties + still_needed(king, leg) >= limit:
                continue
            key = (tuple(child), leg)
            if key in visited:
                continue
            if len(stack) >= MAX_PLIES:
                complete = False
                continue
            if nodes >= self.budget:
                complete = False
                break
            if self.deadline is not None and nodes % CLOCK_EVERY == 0 and time.monotonic() >= self.deadline:
                complete, self.out_of_time = False, True
                break
            visited.add(key)
            nodes += 1
            moves = [] if occupant == "K" and _dead(child) else ordered_moves(child, king, leg)
            stack.append(_Frame(child, king, leg, casualties, moves))
            line.append(move)
        return best, nodes, complete
