"""Castling for games without check, shared by the variants whose kings are ordinary men.

    castling_moves(board)              castling with the king and rook unmoved and the squares between
                                       empty; attacked squares do not matter
    pseudo_legal_moves(variant, board) every FIDE move ignoring check, with castling as above and the
                                       variant's castling and promotion switches
"""
from __future__ import annotations

from typing import Iterator

import chess

from .chess_variant import ChessVariant, S


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


def pseudo_legal_moves(variant: ChessVariant[S], board: chess.Board) -> Iterator[chess.Move]:
    """Every FIDE move ignoring check, with castling as `castling_moves` has it."""
    for move in board.generate_pseudo_legal_moves():
        if board.is_castling(move):
            continue
        if move.promotion and chess.piece_symbol(move.promotion) not in variant.promotions:
            continue
        yield move
    if variant.castling:
        yield from castling_moves(board)
