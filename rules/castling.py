"""Castling as data: the three ways a variant may have it, and the moves each gives.

    Castling.FIDE       python-chess's castling: not out of, through or into check (the default)
    Castling.NO_CHECK   only the men's conditions (king and rook unmoved, every square between
                        them empty); attacked squares do not matter, for games without check
    Castling.NONE       no castling, whatever the FEN's castling field says

    castling_moves(board)   the NO_CHECK castlings of the side to move
    no_check_moves(board)   every move ignoring check, with castling as NO_CHECK has it
    castling_tries(board)   the king's two-square steps from e1/e8, legal or not: what a player
                            may type as castling, for a variant that explains its refusal
    is_castling_try(board, move)   a king stepping more than one file
"""
from __future__ import annotations

from enum import Enum
from typing import Iterator

import chess


class Castling(Enum):
    FIDE = "fide"
    NO_CHECK = "no check"
    NONE = "none"

    def __bool__(self) -> bool:
        return self is not Castling.NONE


def castling_moves(board: chess.Board) -> Iterator[chess.Move]:
    """Castling for a game without check: the king and rook are unmoved (castling right) and
    every square they cross or land on is empty apart from themselves. Attacks do not matter."""
    backrank = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
    king = board.occupied_co[board.turn] & board.kings & ~board.promoted & backrank
    if not king or king & (king - 1):
        return
    king_square = chess.msb(king)
    for rook_square in chess.scan_reversed(board.clean_castling_rights() & backrank):
        a_side = rook_square < king_square
        king_to = chess.square(2 if a_side else 6, chess.square_rank(king_square))
        rook_to = chess.square(3 if a_side else 5, chess.square_rank(king_square))
        path = (chess.between(king_square, king_to) | chess.between(rook_square, rook_to)
                | chess.BB_SQUARES[king_to] | chess.BB_SQUARES[rook_to])
        if not (board.occupied & ~chess.BB_SQUARES[king_square] & ~chess.BB_SQUARES[rook_square] & path):
            yield chess.Move(king_square, king_to)


def no_check_moves(board: chess.Board) -> Iterator[chess.Move]:
    """Every move ignoring check, castling as `castling_moves` has it (after the other moves)."""
    for move in board.generate_pseudo_legal_moves():
        if not board.is_castling(move):
            yield move
    yield from castling_moves(board)


def castling_tries(board: chess.Board) -> Iterator[chess.Move]:
    """The side to move's king stepping two files from e1 or e8, towards g then c: the castlings
    a player may try, legal or not."""
    king = board.king(board.turn)
    if king is not None and king in (chess.E1, chess.E8):
        yield chess.Move(king, king + 2)
        yield chess.Move(king, king - 2)


def is_castling_try(board: chess.Board, move: chess.Move) -> bool:
    """A king stepping more than one file: castling, legal or not."""
    return (bool(board.kings & chess.BB_SQUARES[move.from_square])
            and abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) > 1)
