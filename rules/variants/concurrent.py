"""Concurrent Chess: colour-bound men, two royal monarchs, an optional mirror before each move.

Rules card: data/rules/concurrent.md. Every man is colour-bound and moves differently from
FIDE; all capture as they move. King and Queen are both monarchs (`F`), both royal. A turn is an
optional mirror of a non-monarch to the empty square the same distance from the other edge
(`a2|h2`), which may not leave an opposing monarch in check, then one move: `d2|e2 c1h6`.

Men as data (`LEGS`): each man is a list of legs; a leg is a set of directions, the distances it
goes and whether it turns one square sideways at the end. Every square passed over must be
empty; the target may be empty or hold an enemy. The Betza-like names beside the data are for
readers (the core's `MenTable` has no dabbaba-rider nor orthogonal-first camel, so the legs are
tabled here once at import: (target, squares that must be empty) per man, square and colour).
Attacks come from the same tables, read backwards from the attacked square.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import chess

from ..core import IllegalMove, Outcome
from ..lookahead import after as board_after, scratch
from ..notation import san, spelled, spelling_key
from ..refusals import ambiguous, refuse_spelling, refuse_step
from ..position import (
    Judged,
    Mirror,
    PartsVariant,
    Position,
    Step,
    colour_of,
    explain_by_prefix,
    label_text,
)

ConcurrentTurn = tuple[Step] | tuple[Mirror, Step]   # a move, or a mirror then a move

DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Leg:
    directions: tuple[tuple[int, int], ...]   # (file step, rank step) for White; Black's mirrored in rank
    distances: tuple[int, ...]                # how many squares along the direction
    turn: bool = False                        # then one square at a right angle (either side)


# letter -> (name, Betza-like, legs)
MEN: dict[str, tuple[str, str, tuple[Leg, ...]]] = {
    "k": ("King", "F", (Leg(DIAG, (1,)),)),
    "q": ("Queen", "F", (Leg(DIAG, (1,)),)),
    "b": ("Bishop", "B", (Leg(DIAG, tuple(range(1, 8))),)),
    "r": ("Rook", "F + nDD (2, 4 or 6 along a line)", (Leg(DIAG, (1,)), Leg(ORTHO, (2, 4, 6)))),
    "n": ("Knight", "nC, orthogonal first", (Leg(ORTHO, (3,), turn=True),)),
    "p": ("pawn", "fF", (Leg(((1, 1), (-1, 1)), (1,)),)),
}
MONARCHS = "kq"
PROMOTIONS = (chess.ROOK, chess.BISHOP, chess.KNIGHT)
HOW = {
    "k": "A King moves one square diagonally.",
    "q": "The Queen moves one square diagonally.",
    "b": "A Bishop moves diagonally any distance over empty squares.",
    "r": "A Rook moves one square diagonally, or 2, 4 or 6 squares along a rank or file over empty squares.",
    "n": "A Knight moves 3 squares along a rank or file over empty squares, then 1 square sideways.",
    "p": "A pawn moves and captures one square diagonally forward, never straight.",
}


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _paths(legs: tuple[Leg, ...], square: int, colour: bool) -> list[tuple[int, int]]:
    """(target, mask of squares that must be empty) for a man on `square`."""
    sign = 1 if colour == chess.WHITE else -1
    f0, r0 = chess.square_file(square), chess.square_rank(square)
    out = []
    for leg in legs:
        for df, dr in leg.directions:
            dr *= sign
            for n in leg.distances:
                line = [(f0 + df * i, r0 + dr * i) for i in range(1, n + 1)]
                if not all(_on(f, r) for f, r in line):
                    continue
                if leg.turn:
                    path = 0
                    for f, r in line:
                        path |= chess.BB_SQUARES[chess.square(f, r)]
                    fn, rn = line[-1]
                    for sf, sr in ((dr, df), (-dr, -df)):
                        if _on(fn + sf, rn + sr):
                            out.append((chess.square(fn + sf, rn + sr), path))
                else:
                    path = 0
                    for f, r in line[:-1]:
                        path |= chess.BB_SQUARES[chess.square(f, r)]
                    out.append((chess.square(*line[-1]), path))
    return out


# PATHS[colour][letter][square] = [(target, must-be-empty mask)]
PATHS = {colour: {letter: [_paths(legs, sq, colour) for sq in chess.SQUARES] for letter, (_, _, legs) in MEN.items()}
         for colour in chess.COLORS}
# FROM[colour][letter][target]: mask of squares a man could capture `target` from (ignoring blockers);
# PATH_TO[colour][letter][(from, target)]: the squares between that must be empty.
FROM: dict[bool, dict[str, list[int]]] = {}
PATH_TO: dict[bool, dict[str, dict[tuple[int, int], int]]] = {}
for _colour in chess.COLORS:
    FROM[_colour] = {letter: [0] * 64 for letter in MEN}
    PATH_TO[_colour] = {letter: {} for letter in MEN}
    for _letter in MEN:
        for _sq in chess.SQUARES:
            for _to, _path in PATHS[_colour][_letter][_sq]:
                FROM[_colour][_letter][_to] |= chess.BB_SQUARES[_sq]
                PATH_TO[_colour][_letter][(_sq, _to)] = _path
TYPES = {letter: chess.PIECE_SYMBOLS.index(letter) for letter in MEN}
MIRROR = [chess.square(7 - chess.square_file(sq), chess.square_rank(sq)) for sq in chess.SQUARES]


def attackers(board: chess.Board, colour: bool, square: int, occupied: int | None = None,
              removed: int = 0) -> int:
    """Men of `colour` that could capture on `square` by their pattern (`occupied`: the board's
    occupancy after a move; `removed`: a square whose man has just been captured)."""
    occ = board.occupied if occupied is None else occupied
    found = 0
    from_table, path_table = FROM[colour], PATH_TO[colour]
    men = board.occupied_co[colour] & ~removed
    for letter, kind in TYPES.items():
        near = from_table[letter][square] & board.pieces_mask(kind, colour) & men
        if near:
            paths = path_table[letter]
            for sq in chess.scan_forward(near):
                if not paths[(sq, square)] & occ:
                    found |= chess.BB_SQUARES[sq]
    return found


def pinning_lines(board: chess.Board, colour: bool, square: int) -> int:
    """Squares whose emptying could open an attack of an actual man of `colour` on `square`."""
    mask = 0
    for letter in "brn":
        near = FROM[colour][letter][square] & board.pieces_mask(TYPES[letter], colour)
        paths = PATH_TO[colour][letter]
        for sq in chess.scan_forward(near):
            mask |= paths[(sq, square)]
    return mask


def monarchs(board: chess.Board, colour: bool) -> int:
    return (board.kings | board.queens) & board.occupied_co[colour]


def checked_monarchs(board: chess.Board, colour: bool) -> list[int]:
    return [sq for sq in chess.scan_forward(monarchs(board, colour)) if attackers(board, not colour, sq)]


def moves_of(board: chess.Board) -> list[chess.Move]:
    """Pseudo-legal moves of the side to move (no royalty test)."""
    us = board.turn
    own, occ = board.occupied_co[us], board.occupied
    last = chess.BB_RANK_8 if us == chess.WHITE else chess.BB_RANK_1
    table = PATHS[us]
    out: list[chess.Move] = []
    for square in chess.scan_forward(own):
        letter = chess.piece_symbol(board.piece_type_at(square) or chess.PAWN)
        for to, path in table[letter][square]:
            if path & occ or chess.BB_SQUARES[to] & own:
                continue
            if letter == "p" and chess.BB_SQUARES[to] & last:
                out.extend(chess.Move(square, to, p) for p in PROMOTIONS)
            else:
                out.append(chess.Move(square, to))
    return out


def play_mirror(board: chess.Board, first: int, second: int) -> None:
    piece = board.piece_at(first)
    chess.BaseBoard.remove_piece_at(board, first)
    chess.BaseBoard.set_piece_at(board, second, piece)


def after_mirror(board: chess.Board, first: int, second: int) -> chess.Board:
    """A copy of `board` with the man on `first` mirrored to `second`."""
    work = scratch(board)
    play_mirror(work, first, second)
    return work


class Concurrent(PartsVariant[ConcurrentTurn]):
    slug = "concurrent"
    name = "Concurrent Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = ("Every man is colour-bound and moves differently; King and Queen are both royal. "
               "Before a move you may mirror a man across the board (a2|h2).")

    # -- set-up and FEN --------------------------------------------------------------------------
    def load(self, fen: str) -> Position:
        fields = fen.split()
        if len(fields) >= 4:
            fields[3] = "-"     # pawns never double-step: the en passant field is ignored (rules card)
        position = super().load(" ".join(fields))
        position.board.castling_rights = chess.BB_EMPTY
        position.board.ep_square = None
        return position

    def validate(self, position: Position) -> None:
        super().validate(position)
        board = position.board
        if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
            raise ValueError("A pawn cannot stand on the first or last rank.")
        if checked_monarchs(board, not board.turn):
            raise ValueError("The player not to move cannot have a monarch in check.")

    def fen(self, position: Position) -> str:
        return position.board.fen(en_passant="fen")

    # -- turns -------------------------------------------------------------------------------------
    def mirrors(self, board: chess.Board) -> list[Mirror]:
        """Mirrors the side to move may make (before the check test of the rules card)."""
        us = board.turn
        out = []
        for square in chess.scan_forward(board.occupied_co[us] & ~(board.kings | board.queens)):
            other = MIRROR[square]
            if not board.occupied & chess.BB_SQUARES[other]:
                out.append(Mirror(square, other))
        return out

    def legal_steps(self, board: chess.Board) -> list[chess.Move]:
        """Moves after which no monarch of the side to move is attacked."""
        us = board.turn
        mine = monarchs(board, us)
        checked = any(attackers(board, not us, sq) for sq in chess.scan_forward(mine))
        danger = 0
        for sq in chess.scan_forward(mine):
            danger |= pinning_lines(board, not us, sq)
        out = []
        for move in moves_of(board):
            frm = chess.BB_SQUARES[move.from_square]
            if not checked and not frm & mine and not frm & danger:
                out.append(move)
            elif self.safe_after(board, move):
                out.append(move)
        return out

    def safe_after(self, board: chess.Board, move: chess.Move) -> bool:
        us = board.turn
        frm, to = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
        occ = (board.occupied & ~frm) | to
        mine = monarchs(board, us)
        if mine & frm:
            mine = (mine & ~frm) | to
        if not mine:
            return True
        removed = to & board.occupied_co[not us]
        return not any(attackers(board, not us, sq, occ, removed) for sq in chess.scan_forward(mine))

    def turns(self, position: Position) -> dict[str, ConcurrentTurn]:
        board = position.board
        out: dict[str, ConcurrentTurn] = {move.uci(): (Step(move),) for move in self.legal_steps(board)}
        work = scratch(board)
        them = not board.turn
        for mirror in self.mirrors(board):
            play_mirror(work, mirror.first, mirror.second)
            if not checked_monarchs(work, them):
                head = mirror.text + " "
                for move in self.legal_steps(work):
                    out[head + move.uci()] = (mirror, Step(move))
            play_mirror(work, mirror.second, mirror.first)
        return out

    def after(self, position: Position, turn: ConcurrentTurn) -> Position:
        board = position.edit()
        for part in turn:
            if isinstance(part, Mirror):
                play_mirror(board, part.first, part.second)
            else:
                board.push(part.move)
        board.ep_square = None
        board.castling_rights = chess.BB_EMPTY
        board.clear_stack()
        return Position(board)

    def checked(self, position: Position) -> list[int]:
        board = position.board
        return checked_monarchs(board, board.turn)

    def judge_goal(self, seen: Judged) -> Outcome | None:
        return None

    # -- notation: the mirror as typed (`d2|e2`), the move in SAN on the board after it --------------------
    def label(self, before: Position, turn: ConcurrentTurn, turns: Mapping[str, ConcurrentTurn]) -> str:
        board, moves = mirrored(before.board, turn[:-1], turns)
        return label_text([*(part.text for part in turn[:-1]), san(board, turn[-1].move, moves)])

    def spell(self, position: Position, text: str, turns: Mapping[str, ConcurrentTurn]) -> str | None:
        """A move as from-to or SAN (`Bh6`, `c1h6`), after a mirror in any letter case (`D2|E2 Bh6`)."""
        parts = text.split()
        if not 1 <= len(parts) <= 2:
            return None
        head = tuple(Mirror(chess.parse_square(a), chess.parse_square(b)) for a, b in
                     (p.lower().split("|") for p in parts[:-1] if p.count("|") == 1 and
                      all(s in chess.SQUARE_NAMES for s in p.lower().split("|"))))
        if len(head) != len(parts) - 1:
            return None
        board, moves = mirrored(position.board, head, turns)
        hits = spelled(board, parts[-1], moves)
        if len(hits) > 1:
            raise IllegalMove(ambiguous(parts[-1], min(hits)))
        return " ".join([*(part.text for part in head), *hits]) if hits else None

    # -- typed turns ---------------------------------------------------------------------------------
    def explain(self, position: Position, text: str, turns: Mapping[str, ConcurrentTurn]) -> str:
        parts = [p.lower() if "|" in p else p for p in text.split()]
        board = position.board
        if len(parts) > 2:
            return "A turn is at most one mirror and one move, e.g. d2|e2 c1h6."
        mirror_text = parts[0] if "|" in parts[0] else None
        if mirror_text is not None:
            reason = self.why_not_mirror(board, mirror_text)
            if reason:
                return reason
            if len(parts) == 1:
                return (f"{mirror_text} is only a mirror: a turn needs a move after it, "
                        f"e.g. {explain_example(mirror_text, turns)}.")
            a, b = mirror_text.split("|")
            reason = self.why_not_move(after_mirror(board, chess.parse_square(a), chess.parse_square(b)), parts[1])
            return f"{mirror_text} is fine, but {parts[1]} cannot follow it: {reason}"
        if len(parts) == 2:
            return "The mirror comes first and the move second, e.g. d2|e2 c1h6."
        return self.why_not_move(board, parts[0])

    def why_not_mirror(self, board: chess.Board, text: str) -> str | None:
        a, _, b = text.partition("|")
        if a not in chess.SQUARE_NAMES or b not in chess.SQUARE_NAMES:
            return f"I can't read {text!r} as a mirror. Write the two squares, like a2|h2."
        first, second = chess.parse_square(a), chess.parse_square(b)
        piece = board.piece_at(first)
        if piece is None:
            return f"No piece on {a} to mirror."
        if piece.color != board.turn:
            return f"The piece on {a} is not yours; it is {colour_of(board.turn)} to move."
        if piece.piece_type in (chess.KING, chess.QUEEN):
            return f"The {MEN[piece.symbol().lower()][0]} is a monarch and cannot mirror."
        if MIRROR[first] != second:
            return (f"A man mirrors along its rank to the square the same distance from the other edge: "
                    f"{a} mirrors to {chess.square_name(MIRROR[first])}.")
        if board.piece_at(second) is not None:
            return f"{b} is not empty, so the man on {a} cannot mirror there."
        work = after_mirror(board, first, second)
        for sq in checked_monarchs(work, not board.turn):
            name = MEN[chess.piece_symbol(work.piece_type_at(sq) or chess.KING)][0]
            return (f"Mirroring {a} to {b} would check {colour_of(not board.turn).capitalize()}'s {name} "
                    f"on {chess.square_name(sq)}; a mirror may not give check.")
        return None

    def why_not_move(self, board: chess.Board, text: str) -> str:
        try:
            move = chess.Move.from_uci(spelling_key(text))
        except ValueError:
            named = sorted(spelled(board, text, moves_of(board)))
            return refuse_spelling(text, named, lambda uci: self.why_not_move(board, uci),
                                   "Use SAN like Bh6 or from-to squares like e2d3, with a mirror first if you like: a2|h2, e2d3.")
        return refuse_step(board, move, lambda step: self.step_reason(board, step))

    def step_reason(self, board: chess.Board, move: chess.Move) -> str:
        piece = board.piece_at(move.from_square)
        assert piece is not None
        letter = piece.symbol().lower()
        plain = chess.Move(move.from_square, move.to_square)
        pseudo = moves_of(board)
        if plain not in pseudo and not any(m.from_square == move.from_square and m.to_square == move.to_square for m in pseudo):
            return HOW[letter] if board.color_at(move.to_square) != board.turn else \
                f"{chess.square_name(move.to_square)} holds one of your own men."
        if letter == "p" and move.promotion not in PROMOTIONS:
            return "A pawn reaching the last rank becomes a Rook, Bishop or Knight: add r, b or n, like b7a8r."
        if letter != "p" and move.promotion:
            return "Only a pawn promotes."
        work = board_after(board, move)
        for sq in checked_monarchs(work, board.turn):
            name = MEN[chess.piece_symbol(work.piece_type_at(sq) or chess.KING)][0]
            by = [chess.square_name(s) for s in chess.scan_forward(attackers(work, not board.turn, sq))]
            return f"That leaves your {name} on {chess.square_name(sq)} in check from {', '.join(by)}."
        return "That is not a legal move here."


def mirrored(board: chess.Board, head: tuple[Mirror, ...] | tuple[()],
             turns: Mapping[str, ConcurrentTurn]) -> tuple[chess.Board, list[chess.Move]]:
    """The board after the mirror `head` (if any) and the moves that may follow it (the legal ones
    SAN is disambiguated against)."""
    if not head:
        return board, [t[0].move for t in turns.values() if len(t) == 1]
    work = after_mirror(board, head[0].first, head[0].second)
    return work, [t[-1].move for t in turns.values() if len(t) == 2 and t[0] == head[0]]


def explain_example(head: str, turns: Mapping[str, ConcurrentTurn]) -> str:
    options = sorted(t for t in turns if t.startswith(head + " "))
    return options[0] if options else head + " e2d3"


VARIANT = Concurrent()
__all__ = ["MEN", "VARIANT", "Concurrent", "attackers", "explain_by_prefix", "moves_of"]
