"""Solitary Patience Chess: a solitaire that puts both armies back into the standard array.

Turns follow a fixed ten-turn cycle of calls (W-N, B-B, W-R, B-Q, W-K, B-N, W-B, B-R, W-Q, B-K).
The called side moves one of its unplaced men of the called type to an empty square; pieces go
home in the order K, Q, R, B, N unless a higher piece can no longer be placed (rules card); when
no called piece can move, a pawn steps one square back; else the side passes.

A plain standalone `Game` over a 64-entry board: nothing of chess move generation applies (no
captures, no check, pawns step backward), so neither python-chess nor the parts floor helps.
FEN: a plain 6-field FEN; the call follows from the side to move and the fullmove number.
"""
from __future__ import annotations

import random
from collections.abc import Container
from dataclasses import dataclass

from ...core import BLACK, WHITE, BoardView, Ending, Game, IllegalMove, Outcome, VariantInfo

FILES = "abcdefgh"
CYCLE = "NBRQK"          # called types in ascending order
RANKING = "KQRBN"        # placing order, highest first
NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
PIECES = "KQRRBBNN"


def sq_name(i: int) -> str:
    return FILES[i % 8] + str(i // 8 + 1)


def sq_index(name: str) -> int:
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(name)
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
LEAPS: dict[str, list[list[int]]] = {"N": [], "K": []}
RAYS: dict[str, list[list[list[int]]]] = {"R": [], "B": [], "Q": []}
for _i in range(64):
    _f, _r = _i % 8, _i // 8
    LEAPS["N"].append([(_r + dr) * 8 + _f + df for df, dr in _KNIGHT if _on(_f + df, _r + dr)])
    LEAPS["K"].append([(_r + dr) * 8 + _f + df for df, dr in _ORTH + _DIAG if _on(_f + df, _r + dr)])
    for _t, _dirs in (("R", _ORTH), ("B", _DIAG), ("Q", _ORTH + _DIAG)):
        _rays = []
        for df, dr in _dirs:
            ray, f, r = [], _f + df, _r + dr
            while _on(f, r):
                ray.append(r * 8 + f)
                f, r = f + df, r + dr
            if ray:
                _rays.append(ray)
        RAYS[_t].append(_rays)

# Home squares of each piece letter (upper case white, lower case black); pawns by rank.
HOMES: dict[str, frozenset[int]] = {}
for _letter, _files in (("K", "e"), ("Q", "d"), ("R", "ah"), ("B", "cf"), ("N", "bg")):
    HOMES[_letter] = frozenset(sq_index(f + "1") for f in _files)
    HOMES[_letter.lower()] = frozenset(sq_index(f + "8") for f in _files)
HOME_OWNER: dict[int, str] = {}
for _letter, _squares in HOMES.items():
    for _s in _squares:
        HOME_OWNER[_s] = _letter
for _f in range(8):
    HOME_OWNER[8 + _f] = "P"
    HOME_OWNER[48 + _f] = "p"


def is_home(man: str, square: int) -> bool:
    if man == "P":
        return square // 8 == 1
    if man == "p":
        return square // 8 == 6
    return square in HOMES[man]


def targets(man: str, square: int, blocked: Container[int]) -> list[int]:
    """Squares the piece on `square` reaches in one move when `blocked` (a container) holds men."""
    kind = man.upper()
    if kind in LEAPS:
        return [t for t in LEAPS[kind][square] if t not in blocked]
    found = []
    for ray in RAYS[kind][square]:
        for t in ray:
            if t in blocked:
                break
            found.append(t)
    return found


def pawn_back(man: str, square: int) -> int | None:
    """The square a pawn steps back to, ignoring occupancy; None on or behind its home rank."""
    rank = square // 8
    if man == "P":
        return square - 8 if rank > 1 else None
    return square + 8 if rank < 6 else None


def colour_of(man: str) -> str:
    return WHITE if man.isupper() else BLACK


def call(k: int) -> tuple[str, str]:
    """Rules card: turn k (from 0) calls White when k is even, and type NBRQK[k mod 5]."""
    return (WHITE if k % 2 == 0 else BLACK), CYCLE[k % 5]


@dataclass(frozen=True)
class Position:
    board: tuple[str, ...]   # 64 entries, "" for empty, FEN letters
    k: int = 0               # turns since the start of the cycle (rules card)
    halfmove: int = 0

    @property
    def turn(self) -> str:
        return WHITE if self.k % 2 == 0 else BLACK

    @property
    def fullmove(self) -> int:
        return self.k // 2 + 1


class Analysis:
    """What the rules card says of one position: placed pieces, permanent men, dead pieces."""

    def __init__(self, board: tuple[str, ...]):
        self.board = board
        men = {i: m for i, m in enumerate(board) if m}
        self.men = men
        self.placed = {i for i, m in men.items() if m not in "Pp" and i in HOMES[m]}
        perm = set(self.placed)
        for i, m in men.items():
            if m in "Pp" and pawn_back(m, i) is None:
                perm.add(i)          # home pawn (or a pawn behind its home rank: it never moves)
        changed = True
        while changed:
            changed = False
            for i, m in men.items():
                if i in perm:
                    continue
                if m in "Pp":
                    stuck = pawn_back(m, i) in perm
                elif m.upper() in LEAPS:
                    stuck = all(t in perm for t in LEAPS[m.upper()][i])
                else:
                    stuck = all(ray[0] in perm for ray in RAYS[m.upper()][i])
                if stuck:
                    perm.add(i)
                    changed = True
        self.permanent = perm
        self._dead: dict[int, bool] = {}

    def is_dead(self, square: int) -> bool:
        """Rules card: an unplaced piece that can never reach a home square not held by a permanent man."""
        cached = self._dead.get(square)
        if cached is not None:
            return cached
        man = self.board[square]
        goals = HOMES[man] - self.permanent
        seen, frontier, dead = {square}, [square], True
        if goals:
            while frontier and dead:
                nxt = []
                for s in frontier:
                    for t in targets(man, s, self.permanent):
                        if t not in seen:
                            if t in goals:
                                dead = False
                                break
                            seen.add(t)
                            nxt.append(t)
                    if not dead:
                        break
                frontier = nxt
        self._dead[square] = dead
        return dead

    def unplaced(self, colour: str | None = None) -> list[int]:
        return [i for i, m in self.men.items() if m not in "Pp" and i not in self.placed
                and (colour is None or colour_of(m) == colour)]

    def end_phase(self) -> bool:
        """Rules card: every piece away from home is dead."""
        return all(self.is_dead(i) for i in self.unplaced())

    def may_place(self, colour: str, kind: str) -> bool:
        """Every higher piece of `colour` is placed or dead."""
        higher = RANKING[:RANKING.index(kind)]
        return all(self.is_dead(i) for i in self.unplaced(colour) if self.men[i].upper() in higher)

    def blockers(self, colour: str, kind: str) -> list[str]:
        higher = RANKING[:RANKING.index(kind)]
        return [f"{NAMES[self.men[i].upper()]} on {sq_name(i)}" for i in sorted(self.unplaced(colour))
                if self.men[i].upper() in higher and not self.is_dead(i)]

    def piece_moves(self, colour: str, kind: str) -> list[str]:
        letter = kind if colour == WHITE else kind.lower()
        occupied = self.men
        found: list[str] = []
        placing: bool | None = None
        for i in sorted(self.men):
            if self.men[i] != letter or i in self.placed:
                continue
            for t in targets(letter, i, occupied):
                if t in HOMES[letter]:
                    if placing is None:
                        placing = self.may_place(colour, kind)
                    if not placing:
                        continue
                found.append(sq_name(i) + sq_name(t))
        return found

    def pawn_moves(self, colour: str) -> list[str]:
        letter = "P" if colour == WHITE else "p"
        found = []
        for i in sorted(self.men):
            if self.men[i] == letter:
                t = pawn_back(letter, i)
                if t is not None and not self.board[t]:
                    found.append(sq_name(i) + sq_name(t))
        return found

    def moves(self, colour: str, kind: str) -> list[str]:
        """Section 3: piece moves, else pawn steps back, else pass."""
        if not self.end_phase():
            found = self.piece_moves(colour, kind)
            if found:
                return found
        return self.pawn_moves(colour) or ["pass"]

    def is_frozen(self) -> bool:
        """Section 4: every call of either colour would produce `pass`."""
        if self.pawn_moves(WHITE) or self.pawn_moves(BLACK):
            return False
        if self.end_phase():
            return True
        return not any(self.piece_moves(colour, kind) for colour in (WHITE, BLACK) for kind in CYCLE)


def men_not_home(board: tuple[str, ...]) -> int:
    return sum(1 for i, m in enumerate(board) if m and not is_home(m, i))


def deal(seed: int | None) -> Position:
    """Section 2: pawns file by file, then the 16 pieces on random empty squares."""
    rng = random.Random(seed)
    board = [""] * 64
    for f in range(8):
        white = rng.randint(2, 6)
        black = rng.randint(white + 1, 7)
        board[(white - 1) * 8 + f] = "P"
        board[(black - 1) * 8 + f] = "p"
    for letters in (PIECES, PIECES.lower()):
        first_bishop: int | None = None
        for man in letters:
            free = [i for i in range(64) if not board[i] and i not in HOMES[man]]
            if man in "Bb" and first_bishop is not None:
                shade = (first_bishop % 8 + first_bishop // 8) % 2
                free = [i for i in free if (i % 8 + i // 8) % 2 != shade]
            square = rng.choice(free)
            board[square] = man
            if man in "Bb" and first_bishop is None:
                first_bishop = square
    return Position(tuple(board))


def parse_fen(fen: str) -> Position:
    fields = fen.split()
    if not 1 <= len(fields) <= 6:
        raise ValueError("A Solitary Patience FEN is a plain FEN, e.g. "
                         "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1'.")
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise ValueError("The board needs 8 ranks separated by '/'.")
    board = [""] * 64
    for index, row in enumerate(rows):
        rank, file = 7 - index, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            elif ch in "KQRBNPkqrbnp":
                if file < 8:
                    board[rank * 8 + file] = ch
                file += 1
            else:
                raise ValueError(f"Unknown man {ch!r} in the board field.")
        if file != 8:
            raise ValueError(f"Rank {rank + 1} must have 8 squares.")
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "b"):
        raise ValueError("The side to move is 'w' or 'b'.")
    try:
        halfmove = int(fields[4]) if len(fields) > 4 else 0
        fullmove = int(fields[5]) if len(fields) > 5 else 1
    except ValueError:
        raise ValueError("The move counters must be whole numbers.") from None
    if halfmove < 0 or fullmove < 1:
        raise ValueError("The halfmove clock must be 0 or more and the fullmove number 1 or more.")
    return Position(tuple(board), 2 * (fullmove - 1) + (0 if side == "w" else 1), halfmove)


def format_fen(pos: Position) -> str:
    rows = []
    for rank in reversed(range(8)):
        row, empty = "", 0
        for file in range(8):
            man = pos.board[rank * 8 + file]
            if not man:
                empty += 1
            else:
                row += (str(empty) if empty else "") + man
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    side = "w" if pos.turn == WHITE else "b"
    return f"{'/'.join(rows)} {side} - - {pos.halfmove} {pos.fullmove}"


def apply(pos: Position, move: str) -> Position:
    if move == "pass":
        return Position(pos.board, pos.k + 1, pos.halfmove + 1)
    s, t = sq_index(move[:2]), sq_index(move[2:])
    board = list(pos.board)
    man = board[s]
    board[s], board[t] = "", man
    return Position(tuple(board), pos.k + 1, 0 if man in "Pp" else pos.halfmove + 1)


class SolitaryPatienceGame(Game):
    def __init__(self, info: VariantInfo, *, seed: int | None = None, fen: str | None = None):
        super().__init__()
        self.info = info
        self.position = parse_fen(fen) if fen is not None else deal(seed)
        self._before: list[Position] = []

    @property
    def turn(self) -> str:
        return self.position.turn

    @property
    def called(self) -> tuple[str, str]:
        """The colour and piece type called this turn."""
        return call(self.position.k)

    def analysis(self) -> Analysis:
        found: Analysis | None = self.memo.get("analysis")
        if found is None:
            found = self.memo["analysis"] = Analysis(self.position.board)
        return found

    def _moves(self) -> list[str]:
        return self.analysis().moves(*self.called)

    def _resolve(self, text: str) -> str:
        move = text.replace("-", "").replace(" ", "").lower()
        legal = self.legal_moves()
        if move in legal:
            return move
        colour, kind = self.called
        who = f"{colour} {NAMES[kind]}"
        if move == "pass":
            raise IllegalMove(f"You can't pass while a move exists: the call is the {who}; try {legal[0]}.")
        try:
            s, t = sq_index(move[:2]), sq_index(move[2:])
            if len(move) != 4:
                raise ValueError(move)
        except ValueError:
            raise IllegalMove(f"I can't read {text!r} as a move. Give two squares, like c3b1, or pass.") from None
        if legal == ["pass"]:
            raise IllegalMove(f"Nothing can move on this call (the {who}): type pass.")
        board = self.position.board
        man = board[s]
        if not man:
            raise IllegalMove(f"No man on {sq_name(s)}.")
        name = f"{colour_of(man)} {NAMES[man.upper()]}"
        if colour_of(man) != colour:
            raise IllegalMove(f"The call is the {who}: {colour} moves now, not {colour_of(man)}.")
        pawn_turn = board[sq_index(legal[0][:2])] in "Pp"
        if man in "Pp":
            if not pawn_turn:
                raise IllegalMove(f"The call is the {who} and one can move: pawns step back only when no "
                                  f"called piece can move.")
            back = pawn_back(man, s)
            if back is None:
                raise IllegalMove(f"The {name} on {sq_name(s)} is home and never moves again.")
            if t != back:
                raise IllegalMove(f"A pawn only steps one square back towards its home rank: "
                                  f"the {name} on {sq_name(s)} may go to {sq_name(back)} only.")
            raise IllegalMove(f"{sq_name(t)} is occupied: men only move to empty squares.")
        if man.upper() != kind:
            raise IllegalMove(f"The call is the {who}, not the {NAMES[man.upper()]}.")
        if is_home(man, s):
            raise IllegalMove(f"The {name} on {sq_name(s)} is placed and never moves again.")
        if pawn_turn or self.analysis().end_phase():
            reason = ("every piece away from home can no longer be placed, so only pawns move"
                      if self.analysis().end_phase() else f"no {who} can move, so a pawn steps back")
            raise IllegalMove(f"Not now: {reason}.")
        if board[t]:
            raise IllegalMove(f"{sq_name(t)} is occupied: nothing is ever captured, men only move to empty squares.")
        if is_home(man, t) and t in targets(man, s, self.analysis().men):
            blocking = self.analysis().blockers(colour, kind)
            raise IllegalMove(f"The {name} can't go home to {sq_name(t)} yet: pieces go home in the order "
                              f"K, Q, R, B, N, and the {', '.join(blocking)} is still to be placed.")
        slide = " (it cannot pass over other men)" if kind in "QRB" else ""
        raise IllegalMove(f"The {name} on {sq_name(s)} cannot reach {sq_name(t)}{slide}.")

    def _apply(self, move: str) -> None:
        self._before.append(self.position)
        self.position = apply(self.position, move)

    def _unapply(self) -> None:
        self.position = self._before.pop()

    def _judge(self) -> Outcome | None:
        score = men_not_home(self.position.board)
        if score == 0:
            return Outcome("solved", "all men home", 0, Ending.SOLVED)
        if self.analysis().is_frozen():
            return Outcome("failed", "no further progress", score, Ending.FAILED)
        return None

    @property
    def score(self) -> int:
        return men_not_home(self.position.board)

    def fen(self) -> str:
        return format_fen(self.position)

    def caption(self) -> str:
        colour, kind = self.called
        n = self.score
        return f"called: {colour} {NAMES[kind]} · {n} {'man' if n == 1 else 'men'} not home"

    def view(self) -> BoardView:
        board = self.position.board
        last = self._history[-1] if self._history else "pass"
        last_move = () if last == "pass" else (last[:2], last[2:])
        pieces = {sq_name(i): m for i, m in enumerate(board) if m}
        marks = tuple(sq_name(i) for i, owner in sorted(HOME_OWNER.items()) if board[i] != owner)
        return BoardView(8, 8, pieces, self.turn, last_move, (), marks, self.caption())

