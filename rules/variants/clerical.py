"""Clerical Chess (Tony Paletta): capture both enemy bishops to win.

The king is an ordinary man (no check, may be captured), there is no castling, pawns promote
to queen, rook, knight or king but never bishop, and a player's last bishop, when attacked at
the start of its owner's turn, moves only as a ferz (one square diagonally). Plain FEN; the
castling field is always `-`.
"""
from __future__ import annotations

from typing import Iterator

import chess

from ..castling import Castling
from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome
from ..endings import NoMove
from ..men import NO_ROYALTY

NO_LEGAL_MOVE = "stalemate (no legal move)"
NO_BISHOP_PROMOTION = "Pawns may not promote to a bishop: choose a queen, rook, knight or king."


def restricted_bishop(board: chess.Board) -> chess.Square | None:
    """The mover's only bishop if it is attacked now (it may then only step one square)."""
    bishops = board.bishops & board.occupied_co[board.turn]
    if chess.popcount(bishops) != 1:
        return None
    square = chess.lsb(bishops)
    return square if board.is_attacked_by(not board.turn, square) else None


class Clerical(ChessVariant[None]):
    slug = "clerical"
    name = "Clerical Chess"
    family = "GOAL"
    summary = "Capture both enemy bishops. Kings are ordinary men; your last bishop, if attacked, steps."
    insufficient_material = False
    royalty = NO_ROYALTY              # missing, extra or attacked kings are normal here (rules card)
    castling = Castling.NONE
    promotions = "qrnk"
    initial_state = None     # no extra state beyond the board
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some

    def generate(self, board: chess.Board, state: None) -> Iterator[chess.Move]:
        # Bishop promotions stay candidates so that `explain` can say why they are refused.
        for move in board.generate_pseudo_legal_moves():
            yield move
            if move.promotion == chess.KNIGHT:
                yield chess.Move(move.from_square, move.to_square, chess.KING)

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        if move.promotion == chess.BISHOP:
            return False
        if board.bishops & chess.BB_SQUARES[move.from_square] and move.from_square == restricted_bishop(board):
            return chess.square_distance(move.from_square, move.to_square) == 1
        return True

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        if move.promotion == chess.BISHOP:
            return NO_BISHOP_PROMOTION
        if move.from_square == restricted_bishop(board):
            return "Your last bishop is attacked: it may only step one square diagonally."
        return super().explain(board, state, move)

    stalemated = NoMove("draws", NO_LEGAL_MOVE, Ending.STALEMATE)

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        white_has = bool(board.bishops & board.occupied_co[chess.WHITE])
        black_has = bool(board.bishops & board.occupied_co[chess.BLACK])
        if not white_has and not black_has:
            return Outcome.draw("neither side has a bishop", Ending.GOAL)
        if not white_has or not black_has:
            winner = chess.WHITE if white_has else chess.BLACK
            return Outcome.win(colour_name(winner), "both bishops captured", Ending.GOAL)
        return None


VARIANT = Clerical()
