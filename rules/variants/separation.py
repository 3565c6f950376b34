"""Separation Chess: the Queen moves as a Knight and the Knight as a Queen; King and Queen are both
royal, the Queen can never be captured, and the two may never share a quadrant.

Rules card: data/rules/separation.md. Men as data: only the two lines for `q` and `n` differ
from FIDE, and check follows the same data (a Queen checks as a knight, a Knight as a queen).
Royalty("kq", uncapturable="q"). The check rules of the rules card (both in check: answer the
King's; the Queen may not move into an attacked square) are `verdict`; a move failing only the
quadrant rule is remembered so that "no legal move" can be told apart: checkmate when in check,
separation (a loss) when only the quadrant rule stops every move, else stalemate.
"""
from __future__ import annotations

from collections.abc import Mapping

import chess

from ..core import Ending, Outcome
from ..lookahead import DIAGONAL, STRAIGHT, each_after, lone_blockers, scratch
from ..men import FIDE_MEN, Man, Royalty
from ..position import FairyTurn, Judged, PartsVariant, Position, Step, colour_of

OK, CHECK, QUADRANT = "ok", "check", "quadrant"


def quadrant(square: int) -> tuple[bool, bool]:
    """Files a-d / e-h and ranks 1-4 / 5-8 (rules card)."""
    return chess.square_file(square) >= 4, chess.square_rank(square) >= 4


def monarchs(board: chess.Board, colour: bool) -> tuple[int, int | None]:
    """The King's square (every Separation position has one: `validate`) and the Queen's, if any."""
    king = board.king(colour)
    if king is None:
        raise ValueError("a Separation position needs both Kings")
    queens = board.pieces_mask(chess.QUEEN, colour)
    return king, (chess.lsb(queens) if queens else None)


class Separation(PartsVariant[FairyTurn]):
    slug = "separation"
    name = "Separation Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = "Queens leap like knights, knights glide like queens; keep your King and Queen apart."
    men = {**FIDE_MEN, "q": Man("queen (moves as a knight)", "N"), "n": Man("knight (moves as a queen)", "Q")}
    royalty = Royalty("kq", uncapturable="q")
    promotions = "rbn"
    insufficient_material = False

    # -- set-up --------------------------------------------------------------------------------------
    def validate(self, position: Position) -> None:
        board = position.board
        bad = board.status() & (chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_TOO_MANY_KINGS
                                | chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_TOO_MANY_WHITE_PIECES
                                | chess.STATUS_TOO_MANY_BLACK_PIECES | chess.STATUS_INVALID_EP_SQUARE)
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")
        for colour in chess.COLORS:
            if len(board.pieces(chess.QUEEN, colour)) > 1:
                raise ValueError("Each side has at most one Queen (a second would break the two-monarch rules).")
            king, queen = monarchs(board, colour)
            if queen is not None and quadrant(king) == quadrant(queen):
                raise ValueError("A King and its Queen may not stand in one quadrant.")
        waiting = not board.turn
        if self.table.is_attacked(board, not waiting, monarchs(board, waiting)[0]):
            raise ValueError("The side not to move cannot have its King in check.")

    # -- turns ---------------------------------------------------------------------------------------
    def verdict(self, before: chess.Board, after: chess.Board, move: chess.Move,
                checks: tuple[bool, bool]) -> str:
        us = before.turn
        king, queen = monarchs(after, us)
        attacked = self.table.is_attacked
        if attacked(after, not us, king):
            return CHECK
        if queen is not None and attacked(after, not us, queen):
            king_checked, queen_checked = checks
            queen_moved = before.piece_type_at(move.from_square) == chess.QUEEN
            if not (king_checked and queen_checked and not queen_moved):
                return CHECK
        if queen is not None and quadrant(king) == quadrant(queen):
            return QUADRANT
        return OK

    def checks(self, board: chess.Board) -> tuple[bool, bool]:
        us = board.turn
        king, queen = monarchs(board, us)
        return (self.table.is_attacked(board, not us, king),
                queen is not None and self.table.is_attacked(board, not us, queen))

    def verdicts(self, position: Position) -> dict[chess.Move, str]:
        board = position.board
        checks, steps = self.checks(board), self.steps(position)
        plain = 0 if any(checks) else self.plain_men(board)
        tested = {move: self.verdict(board, now, move, checks) for move, now in each_after(
            scratch(board), [m for m in steps if not chess.BB_SQUARES[m.from_square] & plain or board.is_en_passant(m)])}
        return {move: tested.get(move, OK) for move in steps}

    def plain_men(self, board: chess.Board) -> int:
        """The men of the side to move whose moves need no test when neither King nor Queen is in
        check: all but the two and any man alone between one of them and an enemy Rook, Bishop
        or Knight (which moves as a queen) in line (such a move neither checks its own side nor
        moves a monarch into another quadrant)."""
        us, lines = board.turn, 0
        straight_movers = (board.rooks | board.knights) & board.occupied_co[not us]
        diagonal_movers = (board.bishops | board.knights) & board.occupied_co[not us]
        for royal in monarchs(board, us):
            if royal is not None:
                lines |= lone_blockers(board, royal, (straight_movers & STRAIGHT[royal])
                                       | (diagonal_movers & DIAGONAL[royal]))
        return board.occupied_co[us] & ~board.kings & ~board.queens & ~lines

    def turns(self, position: Position) -> dict[str, FairyTurn]:
        return {m.uci(): (Step(m),) for m, v in self.verdicts(position).items() if v == OK}

    def why_refused(self, position: Position, move: chess.Move) -> str:
        verdict = self.verdicts(position).get(move)
        if verdict == QUADRANT:
            return "Your King and Queen may never stand in the same quadrant."
        checks = self.checks(position.board)
        if checks[0] and checks[1]:
            return "You must end your King's check (your Queen may stay in check, but may not move into one)."
        return "That leaves your King or Queen in check."

    def why_not_first(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str:
        board = position.board
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            return super().why_not_first(position, text, turns)
        if board.piece_type_at(move.to_square) == chess.QUEEN and board.color_at(move.to_square) != board.turn \
                and board.color_at(move.from_square) == board.turn:
            return "The Queen can never be captured."
        if move.promotion == chess.QUEEN:
            return "A pawn promotes to a Knight, Rook or Bishop, never to a Queen."
        return super().why_not_first(position, text, turns)

    # -- the end ---------------------------------------------------------------------------------------
    def checked(self, position: Position) -> list[int]:
        board = position.board
        return [sq for sq in monarchs(board, board.turn)
                if sq is not None and self.table.is_attacked(board, not board.turn, sq)]

    def judge_no_move(self, seen: Judged) -> Outcome | None:
        position = seen.position
        if not seen.turns and not self.checked(position) and QUADRANT in self.verdicts(position).values():
            return Outcome.win(colour_of(not position.board.turn),
                               "separation: every move would bring King and Queen into one quadrant", Ending.GOAL)
        return super().judge_no_move(seen)


VARIANT = Separation()
