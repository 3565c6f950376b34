"""Look-ahead on python-chess boards: the position after a move, checks, mates in one.

One place for the questions look-ahead variants ask ("could the opponent mate at once?",
"does this move allow a mate?"). Every helper leaves the board it is given unchanged.

The mate search is cheap because a mate needs a check, and a check needs a move that lands
where its man (or its promoted man) attacks the enemy king's square, or one that leaves a
line to that king: `may_check` is that prefilter, made of python-chess's attack tables, and
only the moves it passes are pushed.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator

import chess

# Squares from which a man of each type could attack a king on a square (lines are superset
# masks: the squares between are checked by python-chess when the move is pushed).
_LINES = [chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0] | chess.BB_DIAG_ATTACKS[sq][0]
          for sq in chess.SQUARES]


def after(board: chess.Board, move: chess.Move) -> chess.Board:
    """A copy of `board` with `move` played (no move stack: cheap)."""
    copy = board.copy(stack=False)
    copy.push(move)
    return copy


def may_check(board: chess.Board, move: chess.Move) -> bool:
    """False only when `move` cannot give check to the side not moving (a cheap, exact-enough
    prefilter: a True still needs `board.gives_check`)."""
    king = board.king(not board.turn)
    if king is None:
        return False
    if move.promotion or board.is_castling(move) or board.is_en_passant(move):
        return True
    if _LINES[king] & chess.BB_SQUARES[move.from_square]:
        return True   # may uncover a line to the king
    piece = board.piece_type_at(move.from_square)
    to = chess.BB_SQUARES[move.to_square]
    if piece == chess.KNIGHT:
        return bool(chess.BB_KNIGHT_ATTACKS[king] & to)
    if piece == chess.PAWN:
        return bool(chess.BB_PAWN_ATTACKS[not board.turn][king] & to)
    if piece == chess.KING:
        return False   # a king never checks; its discovered checks are caught above
    return bool(_LINES[king] & to)


def checking_moves(board: chess.Board, moves: Iterable[chess.Move] | None = None) -> Iterator[chess.Move]:
    """The moves among `moves` (default: FIDE legal moves) that give check."""
    for move in board.legal_moves if moves is None else moves:
        if may_check(board, move) and board.gives_check(move):
            yield move


def is_fide_mate(board: chess.Board) -> bool:
    return board.is_checkmate()


def mating_moves(board: chess.Board, moves: Iterable[chess.Move] | None = None, *,
                 is_mate: Callable[[chess.Board], bool] = is_fide_mate) -> Iterator[chess.Move]:
    """The moves among `moves` (default: FIDE legal) after which `is_mate` holds for the side then
    to move. `is_mate` is judged on a copy; it must need a check (the prefilter assumes so)."""
    for move in checking_moves(board, moves):
        if is_mate(after(board, move)):
            yield move


def has_mate_in_one(board: chess.Board, moves: Iterable[chess.Move] | None = None, *,
                    is_mate: Callable[[chess.Board], bool] = is_fide_mate) -> bool:
    return next(mating_moves(board, moves, is_mate=is_mate), None) is not None


def passed(board: chess.Board) -> chess.Board:
    """A copy with the same men and the other side to move (no en passant): the position in
    which the side that just moved would move again, for "two moves in a row" tests."""
    copy = board.copy(stack=False)
    copy.turn = not copy.turn
    copy.ep_square = None
    return copy
