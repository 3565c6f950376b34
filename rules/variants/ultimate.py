"""Ultimate Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): FIDE chess where what counts
as checkmate depends on the man that gives check.

Besides ordinary checkmate, a check wins at once when a checking man (`board.checkers()`, rules card)
is
- a pawn: any pawn check;
- a Knight, and the checked side has exactly one legal reply;
- a Bishop, and every legal reply is a King move that does not capture that Bishop;
- a Rook, and every legal reply is a King move to a square none of whose eight neighbours holds
  another man of the King's side (judged after the King's move).
A Queen's check wins only as ordinary checkmate; a King never checks. In a double check one
fulfilled condition is enough (rules card).

Moves are FIDE; only the end differs, and it is read off the board (a plain six-field FEN). Dead
positions are drawn as in the standard slug (python-chess's material test), after the winning
checks are judged: the rules card keeps that test although a lone Bishop or Knight could give a
winning check.
"""
from __future__ import annotations

import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome

REASONS = {
    chess.PAWN: "pawn check",
    chess.KNIGHT: "forcing Knight check",
    chess.BISHOP: "Bishop check",
    chess.ROOK: "Rook check",
}


def decides(board: chess.Board, checker: chess.Square, replies: list[chess.Move]) -> bool:
    """Does the man on `checker`, checking the side to move, win under conditions (a)-(d)?"""
    kind = board.piece_type_at(checker)
    king = board.king(board.turn)
    if kind == chess.PAWN:
        return True
    if kind == chess.KNIGHT:
        return len(replies) == 1
    king_moves_only = all(m.from_square == king for m in replies)
    if kind == chess.BISHOP:
        return king_moves_only and all(m.to_square != checker for m in replies)
    if kind == chess.ROOK:
        # The King's own square is empty once it has moved, so it never counts as a neighbour.
        friends = board.occupied_co[board.turn] & ~board.kings
        return king_moves_only and all(not chess.BB_KING_ATTACKS[m.to_square] & friends for m in replies)
    return False


def winning_check(board: chess.Board, replies: list[chess.Move]) -> str | None:
    """The reason the check on the board wins, or None: ordinary mate first, then (a)-(d) in the
    order pawn, Knight, Bishop, Rook."""
    if not board.is_check():
        return None
    if not replies:
        return "checkmate"
    kinds = sorted((board.piece_type_at(sq) or 0, sq) for sq in board.checkers())
    for kind, square in kinds:
        if kind in REASONS and decides(board, square, replies):
            return REASONS[kind]
    return None


class Ultimate(ChessVariant[None]):
    slug = "ultimate"
    name = "Ultimate Chess"
    family = "GOAL"
    summary = "Checkmate, where any pawn check, a forcing Knight check, and some Bishop and Rook checks are mate."
    initial_state = None     # no extra state beyond the board
    refusal_text = "{move} is not a legal move: men move as in chess."

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        reason = winning_check(board, legal) if legal else None   # no reply at all: the no-move step
        return Outcome.win(colour_name(not board.turn), reason, Ending.GOAL) if reason else None


VARIANT = Ultimate()
