"""Xenophobic Chess: a man on c-f of the enemy's first rank is a second kind of check, the
intrusion; it must be captured at once, else the intruder's side wins.

The intrusion is read from the position (an enemy man on the mover's own c1-f1 / c8-f8), so
the FEN needs no extra field.
"""
from __future__ import annotations


import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome

HOME_CENTRE = {
    chess.WHITE: chess.BB_C1 | chess.BB_D1 | chess.BB_E1 | chess.BB_F1,
    chess.BLACK: chess.BB_C8 | chess.BB_D8 | chess.BB_E8 | chess.BB_F8,
}


def intruders(board: chess.Board) -> chess.Bitboard:
    """Enemy men standing on the side to move's c-f back-rank squares."""
    return HOME_CENTRE[board.turn] & board.occupied_co[not board.turn]


class Xenophobic(ChessVariant[None]):
    slug = "xenophobic"
    name = "Xenophobic Chess"
    family = "GOAL"
    summary = "Checkmate the king, or land a man on c-f of the enemy back rank where it cannot be taken."
    # Not FIDE's material test: a bare king can still win by walking onto c-f of the enemy back
    # rank (rules card), so no position is dead for lack of mating material.
    insufficient_material = False
    initial_state = None     # no extra state beyond the board
    filters_moves = True      # `allows` refuses some

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        pending = intruders(board)
        return not pending or bool(chess.BB_SQUARES[move.to_square] & pending)

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        squares = " or ".join(chess.square_name(sq) for sq in chess.scan_forward(intruders(board)))
        return f"An enemy man has intruded on {squares}: your move must capture it."

    def checked_kings(self, board: chess.Board, state: None) -> list[chess.Square]:
        king = board.king(board.turn)
        if king is None or not (board.is_check() or intruders(board)):
            return []
        return [king]

    def judge_no_move(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if not legal and intruders(board):
            return Outcome.win(colour_name(not board.turn), "xenophobic checkmate", Ending.CHECKMATE)
        return super().judge_no_move(board, state, legal)


VARIANT = Xenophobic()
