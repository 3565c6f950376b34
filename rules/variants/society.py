"""Society Chess: only captures by a pawn or of a pawn are allowed. Check stays geometric
(FIDE), so a piece checks although it could never take the king. A player left with only
piece-takes-piece captures loses."""
from __future__ import annotations


import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import PIECE_NAMES, Ending, Outcome


def is_forbidden_capture(board: chess.Board, move: chess.Move) -> bool:
    """A non-pawn taking a non-pawn. En passant is always pawn takes pawn."""
    victim = board.piece_type_at(move.to_square)
    if victim is None or victim == chess.PAWN or board.color_at(move.to_square) == board.turn:
        return False
    return board.piece_type_at(move.from_square) != chess.PAWN


class Society(ChessVariant[None]):
    slug = "society"
    name = "Society Chess"
    family = "GOAL"
    summary = "Only pawns capture or get captured; checkmate, or leave a foe only piece-takes-piece captures."
    # FIDE's material test is wrong here: K+N or K+B against a bare king can still win by a
    # forced piece-takes-piece capture. Only bare kings are dead (no capture, no check possible).
    insufficient_material = False
    initial_state = None     # no extra state beyond the board
    filters_moves = True      # `allows` refuses some

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        return not is_forbidden_capture(board, move)

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        mover = PIECE_NAMES[chess.piece_symbol(board.piece_type_at(move.from_square) or chess.PAWN)]
        victim = PIECE_NAMES[chess.piece_symbol(board.piece_type_at(move.to_square) or chess.PAWN)]
        return (f"Your {mover} may not take the {victim} on {chess.square_name(move.to_square)}: "
                "only captures by a pawn or of a pawn are allowed.")

    def judge_no_move(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if not legal and not board.is_check() and any(board.generate_legal_moves()):
            return Outcome.win(colour_name(not board.turn), "forced capture", Ending.NO_MOVE)
        return super().judge_no_move(board, state, legal)

    def is_dead(self, board: chess.Board, state: None) -> bool:
        return board.occupied == board.kings   # bare kings: no capture, no check possible


VARIANT = Society()
