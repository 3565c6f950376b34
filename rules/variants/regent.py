"""Regent Chess: the Queen is royal and a checked Queen is held by the line of her attackers.

Rules card: data/rules/regent.md. Men as data: FIDE men, Royalty("q"): the King is an ordinary
man (it may stand attacked and be captured; pawns may promote to one, `a7a8k`). A Queen in check
may not move diagonally when attacked along a diagonal, nor along a rank or file when attacked
along one, nor at all when a Knight attacks her (rules card: the direction is the line from the
Queen to each attacker; restrictions add up). No move may leave the mover's Queen attacked or
the two Queens facing each other. Checkmate of the Queen wins; no move otherwise is stalemate.
"""
from __future__ import annotations

from collections.abc import Iterator

import chess

from ..lookahead import DIAGONAL as DIAGONAL_LINES, STRAIGHT as STRAIGHT_LINES, after as board_after, each_after, lone_blockers, scratch
from ..men import FIDE_MEN, Royalty, man_at
from ..position import FairyTurn, PartsVariant, Position, Step

NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "Knight", chess.BISHOP: "Bishop", chess.ROOK: "Rook",
         chess.QUEEN: "Queen", chess.KING: "King"}
ORTHOGONAL, DIAGONAL, FROZEN = "orthogonal", "diagonal", "frozen"


def line_of(queen: int, attacker: int, piece_type: int) -> str:
    """How an attacker on `attacker` checks a Queen on `queen` (rules card)."""
    if piece_type == chess.KNIGHT:
        return FROZEN
    same_line = chess.square_file(queen) == chess.square_file(attacker) \
        or chess.square_rank(queen) == chess.square_rank(attacker)
    return ORTHOGONAL if same_line else DIAGONAL


def direction(move: chess.Move) -> str:
    same_line = chess.square_file(move.from_square) == chess.square_file(move.to_square) \
        or chess.square_rank(move.from_square) == chess.square_rank(move.to_square)
    return ORTHOGONAL if same_line else DIAGONAL


def is_restricted(move: chess.Move, barred: dict[int, set[str]]) -> bool:
    """Is `move` a checked Queen's move along a line her check bars (`barred`: `Regent.barred_all`)?"""
    lines = barred.get(move.from_square)
    return lines is not None and direction(move) in lines


class Regent(PartsVariant[FairyTurn]):
    slug = "regent"
    name = "Regent Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = "The Queen is royal and a checked Queen is held by the line of the check; the King is a common man."
    men = FIDE_MEN
    royalty = Royalty("q", uncapturable="q")
    promotions = "rnbk"
    promotion_refusal = "A pawn promotes to a Rook, Knight, Bishop or King, never to a Queen."
    says_no_castling = True                # rules card: no castling (FairyVariant.load)
    back_rank_pawns = False
    insufficient_material = True

    # -- set-up --------------------------------------------------------------------------------------
    # -- checks --------------------------------------------------------------------------------------
    def attackers(self, board: chess.Board, by: bool, square: int) -> int:
        """Men of `by` attacking `square` by their capture geometry (pins ignored, rules card)."""
        return board.attackers_mask(by, square)

    def checks(self, board: chess.Board, colour: bool) -> list[tuple[int, int, str]]:
        """(Queen, attacker, line) for every check on `colour`'s Queens."""
        out = []
        for queen in chess.scan_forward(board.queens & board.occupied_co[colour]):
            for attacker in chess.scan_forward(self.attackers(board, not colour, queen)):
                out.append((queen, attacker, line_of(queen, attacker, man_at(board, attacker).piece_type)))
        return out

    def barred(self, board: chess.Board, queen: int) -> set[str]:
        """The directions the Queen on `queen` may not move in (empty when not in check)."""
        lines = {line for q, _, line in self.checks(board, board.turn) if q == queen}
        if FROZEN in lines or {ORTHOGONAL, DIAGONAL} <= lines:
            return {ORTHOGONAL, DIAGONAL}
        return lines

    def facing(self, board: chess.Board) -> bool:
        """Do two opposing Queens see each other along an open line?"""
        for queen in chess.scan_forward(board.queens & board.occupied_co[chess.WHITE]):
            if board.attacks_mask(queen) & board.queens & board.occupied_co[chess.BLACK]:
                return True
        return False

    def pseudo(self, board: chess.Board) -> Iterator[chess.Move]:
        """FIDE pseudo-legal moves (python-chess; no castling in any Regent position), a Queen
        promotion turned into a King promotion, captures of a Queen skipped (rules card)."""
        enemy_queens = board.queens & board.occupied_co[not board.turn]
        for move in board.generate_pseudo_legal_moves(chess.BB_ALL, ~enemy_queens & chess.BB_ALL):
            if move.promotion == chess.QUEEN:
                move = chess.Move(move.from_square, move.to_square, chess.KING)
            yield move

    def steps(self, position: Position) -> list[chess.Move]:
        return list(self.pseudo(position.board))

    def verdict(self, board: chess.Board, move: chess.Move, barred: dict[int, set[str]]) -> str | None:
        """None if `move` is legal; else why not, in words."""
        if is_restricted(move, barred):
            return self.restriction(board, move.from_square, direction(move))
        return self.fault(board.turn, board_after(board, move))

    def fault(self, us: bool, now: chess.Board) -> str | None:
        """Why the position `now`, just after a move of `us`, is not allowed; None if it is."""
        if self.facing(now):
            return "The two Queens may not face each other on an open line."
        for queen in chess.scan_forward(now.queens & now.occupied_co[us]):
            hits = self.attackers(now, not us, queen)
            if hits:
                attacker = chess.lsb(hits)
                return (f"That leaves your Queen on {chess.square_name(queen)} attacked by the "
                        f"{NAMES[man_at(now, attacker).piece_type]} on {chess.square_name(attacker)}.")
        return None

    def restriction(self, board: chess.Board, queen: int, way: str) -> str:
        checks = [(a, line) for q, a, line in self.checks(board, board.turn) if q == queen]
        for attacker, line in checks:
            if line == FROZEN:
                return (f"That Queen move is not allowed: the Queen is attacked by the Knight on "
                        f"{chess.square_name(attacker)}, so she may not move at all.")
        for attacker, line in checks:
            if line == way:
                if way == DIAGONAL:
                    return (f"That Queen move is not allowed: the Queen is attacked along the diagonal "
                            f"from {chess.square_name(attacker)}, so she may not move diagonally.")
                along = "rank" if chess.square_rank(attacker) == chess.square_rank(queen) else "file"
                return (f"That Queen move is not allowed: the Queen is attacked along the {along} from "
                        f"{chess.square_name(attacker)}, so she may not move along a rank or file.")
        return "That Queen move is not allowed while she is in check."

    def barred_all(self, board: chess.Board) -> dict[int, set[str]]:
        return {q: self.barred(board, q) for q in chess.scan_forward(board.queens & board.occupied_co[board.turn])}

    def turns(self, position: Position) -> dict[str, FairyTurn]:
        board = position.board
        barred, plain = self.barred_all(board), self.plain_men(board)
        free = [(m, bool(chess.BB_SQUARES[m.from_square] & plain) and not board.is_en_passant(m))
                for m in self.pseudo(board) if not is_restricted(m, barred)]
        tested = {m for m, now in each_after(scratch(board), [m for m, known in free if not known])
                  if self.fault(board.turn, now) is None}
        return {m.uci(): (Step(m),) for m, known in free if known or m in tested}

    def plain_men(self, board: chess.Board) -> int:
        """The men of the side to move whose moves need no test (they leave no fault): none while
        a Queen of its is attacked or the Queens face each other; else every man but its Queens
        and those alone between one of its Queens and an enemy Rook, Bishop or Queen in line."""
        us = board.turn
        queens = board.queens & board.occupied_co[us]
        # (Queens that face each other attack each other: `facing` is the cheap test, said for the reader)
        if self.facing(board) or any(self.attackers(board, not us, queen) for queen in chess.scan_forward(queens)):
            return 0
        lines = 0
        for queen in chess.scan_forward(queens):
            lines |= lone_blockers(board, queen, board.occupied_co[not us] & (
                (STRAIGHT_LINES[queen] & (board.rooks | board.queens)) | (DIAGONAL_LINES[queen] & (board.bishops | board.queens))))
        return board.occupied_co[us] & ~board.queens & ~lines

    # -- refusals ------------------------------------------------------------------------------------
    def why_refused(self, position: Position, move: chess.Move) -> str:
        board = position.board
        found = self.verdict(board, move, self.barred_all(board))
        return found or "That is not a legal move here."

    def own_reason(self, position: Position, move: chess.Move) -> str | None:
        board = position.board
        target = board.piece_at(move.to_square)
        if target is not None and target.color != board.turn and target.piece_type == chess.QUEEN:
            return "The enemy Queen is never captured: she is checkmated."
        return super().own_reason(position, move)

    def caption(self, position: Position) -> str:
        """How a checked Queen is held (the lines of her checks decide which moves she has)."""
        board = position.board
        held = []
        for queen, barred in self.barred_all(board).items():
            if barred == {ORTHOGONAL, DIAGONAL}:
                held.append(f"the Queen on {chess.square_name(queen)} is in check and may not move")
            elif barred:
                way = "diagonally" if DIAGONAL in barred else "along a rank or file"
                held.append(f"the Queen on {chess.square_name(queen)} is in check and may not move {way}")
        text = "; ".join(held)
        return text[:1].upper() + text[1:] + "." if text else ""

    # -- the end ---------------------------------------------------------------------------------------
    def checked(self, position: Position) -> list[int]:
        board = position.board
        return [sq for sq in chess.scan_forward(board.queens & board.occupied_co[board.turn])
                if self.attackers(board, not board.turn, sq)]


VARIANT = Regent()
