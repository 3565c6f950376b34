"""KingSwap!: a 5x5 solitaire. The king moves only by swapping with a man, who is then lost.

Tour: e1 -> a5 -> e1 with as few casualties as possible. FEN: `<board> <leg> <casualties>`.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from ...core import WHITE, BoardView, Ending, Game, IllegalMove, Outcome, VariantInfo
from ...grid import DIAGONAL, KNIGHT, SLIDES, Grid

GRID = Grid(5, 5)
HOME, TARGET = "e1", "a5"
MEN = "QRBNP"
NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
SEARCH_CAP = 100_000


@dataclass(frozen=True)
class Position:
    pieces: tuple[tuple[str, str], ...]   # sorted (square, man)
    leg: int = 1                          # 1 until the king has stood on a5, then 2
    casualties: int = 0

    @property
    def board(self) -> dict[str, str]:
        return dict(self.pieces)

    @property
    def king(self) -> str:
        return next(sq for sq, man in self.pieces if man == "K")


def targets(board: dict[str, str], square: str) -> list[str]:
    """Every square the man on `square` may move (or swap) to."""
    man = board[square]
    if man == "K":
        return []
    if man == "P":
        steps = [GRID.step(square, df, 1) for df in (-1, 0, 1)]
        return [t for t in steps if t]
    if man == "N":
        steps = [GRID.step(square, df, dr) for df, dr in KNIGHT]
        return [t for t in steps if t]
    found = []
    for df, dr in SLIDES[man.lower()]:
        for t in GRID.ray(square, df, dr):
            found.append(t)
            if t in board:
                break
    return found


def moves(board: dict[str, str]) -> list[str]:
    return [s + t for s in sorted(board) for t in targets(board, s)]


def apply(position: Position, move: str) -> Position:
    board = position.board
    s, t = move[:2], move[2:]
    mover, occupant = board[s], board.get(t)
    leg, casualties = position.leg, position.casualties
    if occupant is None:
        del board[s]
        board[t] = mover
    elif occupant == "K":
        del board[t]
        board[s] = "K"
        casualties += 1
        if s == TARGET:
            leg = 2
    else:
        board[s], board[t] = occupant, mover
    return Position(tuple(sorted(board.items())), leg, casualties)


# The rules card's failure test (can a man ever swap into the king again?) works on two 25-bit
# masks (bishops, pawns); bit = rank * 5 + file.
_INDEX = {sq: GRID.coords(sq)[1] * 5 + GRID.coords(sq)[0] for sq in GRID.squares()}
_PAWN_STEPS: list[list[int]] = [[] for _ in range(25)]
_BISHOP_RAYS: list[list[list[int]]] = [[] for _ in range(25)]
for _sq, _i in _INDEX.items():
    _PAWN_STEPS[_i] = [_INDEX[t] for t in targets({_sq: "P"}, _sq)]
    _BISHOP_RAYS[_i] = [[_INDEX[t] for t in GRID.ray(_sq, df, dr)] for df, dr in DIAGONAL]
_TOP_RANK = sum(1 << i for i in range(20, 25))
_LIGHT = sum(1 << i for sq, i in _INDEX.items() if GRID.is_light(sq))
_DARK = (1 << 25) - 1 - _LIGHT


def _cone(king: str) -> int:
    """Squares from which a pawn, climbing alone, could step into the king."""
    kf, kr = GRID.coords(king)
    return sum(1 << (r * 5 + f) for f in range(5) for r in range(kr) if abs(f - kf) <= kr - r)


_CONES = {sq: _cone(sq) for sq in _INDEX}
del _sq, _i


def king_can_still_move(board: dict[str, str]) -> bool | None:
    """Rules card: can any sequence of moves ever swap a man into the king? None if the search
    hit its cap (the game then goes on).

    Knights, rooks, queens and bishops on the king's colour always reach him. With only
    wrong-coloured bishops and pawns left, these shortcuts are exact and keep the search small:
    * a pawn in the king's cone (below him, at most one file further away per rank) reaches him:
      the highest such pawn climbs straight through the cone, swapping any bishop in its way;
    * a pawn right below a bishop steps into it and puts the bishop on the king's colour;
    * pawns alone only climb, so one outside the cone never enters it: without bishops, failed;
    * pawns on rank 5 on the king's colour never move again and no bishop can swap with them:
      if those are all the pawns, nothing can ever change the pawns, so failed.
    Otherwise search the positions reachable without moving the king (breadth first, with cap).
    """
    king = next(sq for sq, man in board.items() if man == "K")
    king_light = GRID.is_light(king)
    men = {sq: man for sq, man in board.items() if man != "K"}
    if any(man in "NRQ" for man in men.values()):
        return True
    if any(man == "B" and GRID.is_light(sq) == king_light for sq, man in men.items()):
        return True
    bishops = sum(1 << _INDEX[sq] for sq, man in men.items() if man == "B")
    pawns = sum(1 << _INDEX[sq] for sq, man in men.items() if man == "P")
    cone, king_bit = _CONES[king], 1 << _INDEX[king]
    inert = _TOP_RANK & (_LIGHT if king_light else _DARK)

    def reaches(b: int, p: int) -> bool:
        return bool(p & cone or p & (b >> 5))

    if reaches(bishops, pawns):
        return True
    if not bishops or not pawns & ~inert:
        return False
    start = (bishops, pawns)
    seen, frontier = {start}, deque([start])
    while frontier:
        b, p = frontier.popleft()
        occupied = b | p | king_bit
        following = []
        rest = p
        while rest:
            bit = rest & -rest
            rest ^= bit
            for t in _PAWN_STEPS[bit.bit_length() - 1]:
                tb = 1 << t
                if tb & b:
                    following.append((b ^ tb ^ bit, p ^ bit ^ tb))
                elif not tb & p:      # into a pawn changes nothing; the king is in the cone
                    following.append((b, p ^ bit ^ tb))
        rest = b
        while rest:
            bit = rest & -rest
            rest ^= bit
            for ray in _BISHOP_RAYS[bit.bit_length() - 1]:
                for t in ray:
                    tb = 1 << t
                    if tb & occupied:
                        if tb & p:
                            following.append((b ^ bit ^ tb, p ^ tb ^ bit))
                        break
                    following.append((b ^ bit ^ tb, p))
        for state in following:
            if state not in seen:
                if reaches(*state):
                    return True
                if len(seen) >= SEARCH_CAP:
                    return None
                seen.add(state)
                frontier.append(state)
    return False


def deal(seed: int | None) -> Position:
    rng = random.Random(seed)
    board = {sq: rng.choice(MEN) for sq in GRID.squares() if sq != HOME}
    board[HOME] = "K"
    return Position(tuple(sorted(board.items())))


def parse_fen(fen: str) -> Position:
    fields = fen.split()
    if not fields or len(fields) not in (1, 3):
        raise ValueError("KingSwap FEN is '<board> <leg> <casualties>', e.g. QRBNP/PPNBR/NBQRP/RNBPQ/PNBQK 1 0.")
    board = {sq: man.upper() for sq, man in GRID.parse_placement(fields[0], "KQRBNPkqrbnp").items()}
    if list(board.values()).count("K") != 1:
        raise ValueError("A KingSwap board has exactly one king.")
    leg, casualties = 1, 0
    if len(fields) == 3:
        if fields[1] not in ("1", "2") or not fields[2].isdigit():
            raise ValueError("Leg must be 1 or 2 and casualties a whole number.")
        leg, casualties = int(fields[1]), int(fields[2])
    if board.get(TARGET) == "K":
        leg = 2
    return Position(tuple(sorted(board.items())), leg, casualties)


class KingSwapGame(Game):
    def __init__(self, info: VariantInfo, *, seed: int | None = None, fen: str | None = None):
        super().__init__()
        self.info = info
        self.position = parse_fen(fen) if fen is not None else deal(seed)
        self._before: list[Position] = []

    @property
    def turn(self) -> str:
        return WHITE

    def _moves(self) -> list[str]:
        return moves(self.position.board)

    def _resolve(self, text: str) -> str:
        move = text.replace("-", "").replace(" ", "").lower()
        if move in self.legal_moves():
            return move
        s, t = move[:2], move[2:]
        if len(move) != 4 or not GRID.is_square(s) or not GRID.is_square(t):
            raise IllegalMove(f"I can't read {text!r} as a move. Give two squares, like d4d5.")
        board = self.position.board
        if s not in board:
            raise IllegalMove(f"No piece on {s}.")
        if board[s] == "K":
            raise IllegalMove("The king never moves by itself: move another man into it to swap.")
        if board[s] == "P":
            raise IllegalMove(f"A pawn steps one square towards rank 5 (straight or diagonal); it cannot reach {t}.")
        raise IllegalMove(f"The {NAMES[board[s]]} on {s} cannot reach {t}"
                          + (" (sliders stop at the first man in their way)." if board[s] in "QRB" else "."))

    def _apply(self, move: str) -> None:
        self._before.append(self.position)
        self.position = apply(self.position, move)

    def _unapply(self) -> None:
        self.position = self._before.pop()

    def _judge(self) -> Outcome | None:
        pos = self.position
        if pos.leg == 2 and pos.king == HOME:
            return Outcome("solved", "tour complete", pos.casualties, Ending.SOLVED)
        if king_can_still_move(pos.board) is False:
            return Outcome("failed", "king can no longer move", pos.casualties, Ending.FAILED)
        return None

    @property
    def score(self) -> int:
        return self.position.casualties

    def fen(self) -> str:
        pos = self.position
        return f"{GRID.placement(pos.board)} {pos.leg} {pos.casualties}"

    def view(self) -> BoardView:
        last = (self._history[-1][:2], self._history[-1][2:]) if self._history else ()
        pos = self.position
        goal = TARGET if pos.leg == 1 else HOME
        heading = f"king heading for {TARGET}" if pos.leg == 1 else f"king heading back to {HOME}"
        caption = f"casualties {pos.casualties} · {heading}"
        return BoardView(5, 5, pos.board, WHITE, last, (), (goal,), caption)

