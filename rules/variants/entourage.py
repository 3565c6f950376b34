"""Entourage Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): capture the enemy King, or a Queen,
Rook, Bishop or Knight next to it; no check. The rules card: data/rules/entourage.md."""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import Ending, Outcome
from ..men import NO_ROYALTY

REASONS = {"king": "captured the king", "escort": "captured a man next to the king"}
ESCORTS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


class Entourage(ChessVariant[str | None]):
    slug = "entourage"
    name = "Entourage Chess"
    family = "GOAL"
    summary = "Capture the enemy King, or any enemy piece (not a pawn) standing next to it. No check."
    insufficient_material = False
    royalty = NO_ROYALTY
    castling = Castling.NO_CHECK
    castling_refusal = ("You may castle only if your King and that Rook have not moved and every square between "
                        "them is empty (attacked squares do not matter in Entourage Chess).")
    faults = BOARD_FAULTS | chess.STATUS_TOO_MANY_KINGS | chess.STATUS_BAD_CASTLING_RIGHTS
    initial_state = None     # None while playing; "king" or "escort" after the winning capture
    state_words = tuple(REASONS)
    state_refusal = "Entourage Chess uses a plain six-field FEN (field 7 may only be 'king' or 'escort')."
    after_effects = True      # `after_move`/`push` change more than the move

    # -- FEN ---------------------------------------------------------------------------------
    def validate(self, board: chess.Board, state: str | None) -> None:
        super().validate(board, state)
        kingless = [c for c in chess.COLORS if board.king(c) is None]
        if state == "king":
            if kingless != [board.turn]:
                raise ValueError("FEN field 7 says 'king', but the side to move still has its King.")
        elif kingless:
            raise ValueError(f"An Entourage Chess position needs one King per side; {colour_name(kingless[0])} has none.")

    # -- moves -------------------------------------------------------------------------------
    def after_move(self, board: chess.Board, state: str | None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> str | None:
        if captured is None:
            return None
        if captured.piece_type == chess.KING:
            return "king"
        king = board.king(captured.color)    # the loser did not move: its King is where it stood
        if captured.piece_type in ESCORTS and king is not None \
                and chess.square_distance(king, move.to_square) == 1:
            return "escort"
        return None

    # -- the end -------------------------------------------------------------------------------
    def judge_goal(self, board: chess.Board, state: str | None, legal: list[chess.Move]) -> Outcome | None:
        return Outcome.win(colour_name(not board.turn), REASONS[state], Ending.GOAL) if state else None


VARIANT = Entourage()
