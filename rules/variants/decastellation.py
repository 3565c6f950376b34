"""Decastellation Chess: no check; capture the enemy king or the last enemy rook to win.

Kings are ordinary men here, so moves are python-chess's pseudo-legal moves, with castling
rebuilt without the attacked-square conditions (ruling 1). The end is state-based: a side with
no king or no rook on the board has lost.
"""
from __future__ import annotations

from typing import Any, Iterator

import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Outcome


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


def pseudo_legal_moves(variant: ChessVariant, board: chess.Board) -> Iterator[chess.Move]:
    """Every FIDE move ignoring check, with castling as `castling_moves` has it."""
    for move in board.generate_pseudo_legal_moves():
        if board.is_castling(move):
            continue
        if move.promotion and chess.piece_symbol(move.promotion) not in variant.promotions:
            continue
        yield move
    if variant.castling:
        yield from castling_moves(board)


class Decastellation(ChessVariant):
    slug = "decastellation"
    name = "Decastellation Chess"
    summary = "No check: capture the enemy king, or capture every enemy rook, to win."
    insufficient_material = False
    royal_king = False


    def generate(self, board: chess.Board, state: Any) -> Iterator[chess.Move]:
        return pseudo_legal_moves(self, board)

    def explain(self, board: chess.Board, state: Any, move: chess.Move) -> str:
        return f"{move.uci()} is not a legal move here."

    def judge(self, board: chess.Board, state: Any, legal: list[chess.Move]) -> Outcome | None:
        lost = {colour: self.loss_reason(board, colour) for colour in chess.COLORS}
        if lost[chess.WHITE] and lost[chess.BLACK]:
            return Outcome.draw("both sides have lost their king or rooks")
        for colour, reason in lost.items():
            if reason:
                return Outcome.win(colour_name(not colour), reason)
        if not legal:
            return Outcome.draw("stalemate")
        return self.automatic_draw(board, state)

    @staticmethod
    def loss_reason(board: chess.Board, colour: chess.Color) -> str | None:
        if not board.kings & board.occupied_co[colour]:
            return "king captured"
        if not board.rooks & board.occupied_co[colour]:
            return "last rook captured"
        return None


VARIANT = Decastellation()
