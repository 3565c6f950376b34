"""Glory Chess (Tony Paletta): checkmate, or put a pawn on the enemy's second rank and keep it.

FIDE chess without the pawn double step (hence without en passant). A pawn standing on its
opponent's second rank (White's 7th, Black's 2nd) when the opponent is to move is *advanced*;
it wins at once if no reply can take it, otherwise as soon as a reply leaves it standing.
Everything is read off the board, so the FEN is plain; its en passant field is ignored.
"""
from __future__ import annotations

from typing import Iterator

import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome

GLORY_AT_ONCE = "pawn reached the second rank and could not be taken"
GLORY_AFTER_REPLY = "pawn reached the second rank and was not captured"


def advanced_pawns(board: chess.Board, colour: chess.Color) -> chess.Bitboard:
    """`colour`'s pawns standing on the opponent's second rank."""
    rank = chess.BB_RANK_7 if colour == chess.WHITE else chess.BB_RANK_2
    return board.pawns & board.occupied_co[colour] & rank


def is_double_step(board: chess.Board, move: chess.Move) -> bool:
    return bool(board.pawns & chess.BB_SQUARES[move.from_square]) and abs(move.to_square - move.from_square) == 16


class Glory(ChessVariant[None]):
    slug = "glory"
    name = "Glory Chess"
    family = "GOAL"
    summary = "Checkmate, or get a pawn to the enemy's second rank and keep it there. No double step."
    double_step = False
    initial_state = None     # no extra state beyond the board
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some

    def load(self, fen: str) -> tuple[chess.Board, None]:
        # No double step, so no en passant, whatever the FEN says (rules card): blank the field before
        # parsing, so that even an e.p. square python-chess would call invalid is simply ignored.
        fields = fen.split()
        if len(fields) >= 4:
            fields[3] = "-"
        board, state = super().load(" ".join(fields))
        board.ep_square = None
        return board, state

    def generate(self, board: chess.Board, state: None) -> Iterator[chess.Move]:
        # Double steps stay candidates so that `explain` can say why they are refused.
        yield from board.legal_moves

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        return not is_double_step(board, move)

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        if is_double_step(board, move):
            return "Pawns never double-step in Glory Chess: a pawn always moves one square."
        return super().explain(board, state, move)

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if not legal and board.is_check():
            return None   # checkmate comes first (the no-move step)
        turn, last = board.turn, not board.turn
        # The mover's pawn stood advanced before the reply and the reply left it: glory.
        if board.move_stack and advanced_pawns(board, turn):
            return Outcome.win(colour_name(turn), GLORY_AFTER_REPLY, Ending.GOAL)
        advanced = advanced_pawns(board, last)
        if advanced:
            takeable = [m for m in legal if advanced & chess.BB_SQUARES[m.to_square]]
            if chess.popcount(advanced) > 1 or not takeable:
                return Outcome.win(colour_name(last), GLORY_AT_ONCE, Ending.GOAL)
        return None


VARIANT = Glory()
