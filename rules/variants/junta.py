"""Junta Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): capture both enemy Knights, or the
enemy King and one Knight; no check. The rules card: data/rules/junta.md."""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import Ending, Outcome
from ..men import NO_ROYALTY

FINISHED = "goal"


def defeat(board: chess.Board, colour: chess.Color) -> str | None:
    """The reason `colour` has lost (its opponent met the goal), or None."""
    knights = len(board.pieces(chess.KNIGHT, colour))
    if knights == 0:
        return "captured both knights"
    if board.king(colour) is None and knights <= 1:
        return "captured king and knight"
    return None


class Junta(ChessVariant[str | None]):
    slug = "junta"
    name = "Junta Chess"
    family = "GOAL"
    summary = "Capture both enemy Knights, or the enemy King and one Knight. No check, no castling."
    insufficient_material = False
    start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    royalty = NO_ROYALTY
    faults = BOARD_FAULTS | chess.STATUS_TOO_MANY_KINGS
    castling = Castling.NONE
    reads_castling_field = False      # rules card: castling rights are ignored
    promotions = "qrb"
    castling_refusal = "There is no castling in Junta Chess."
    promotion_refusal = "In Junta Chess a pawn promotes only to a Queen, Rook or Bishop, never to a Knight."
    initial_state = None     # None while playing; FINISHED once the goal is met
    state_words = (FINISHED,)
    state_refusal = f"Junta Chess uses a plain six-field FEN (field 7 may only be '{FINISHED}')."
    after_effects = True      # `after_move`/`push` change more than the move

    # -- FEN ---------------------------------------------------------------------------------
    def validate(self, board: chess.Board, state: str | None) -> None:
        super().validate(board, state)
        lost = [c for c in chess.COLORS if defeat(board, c)]
        if state == FINISHED:
            if lost != [board.turn]:
                raise ValueError(f"FEN field 7 says '{FINISHED}', but the side to move has not lost.")
        elif lost:
            side = colour_name(lost[0])
            raise ValueError(f"In this position {side} has already lost ({defeat(board, lost[0])}): "
                             "the game would be over.")

    # -- moves -------------------------------------------------------------------------------
    def after_move(self, board: chess.Board, state: str | None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> str | None:
        return FINISHED if captured is not None and defeat(board, captured.color) else None

    # -- the end -------------------------------------------------------------------------------
    def judge_goal(self, board: chess.Board, state: str | None, legal: list[chess.Move]) -> Outcome | None:
        for colour in chess.COLORS:
            reason = defeat(board, colour)
            if reason:
                return Outcome.win(colour_name(not colour), reason, Ending.GOAL)
        return None


VARIANT = Junta()
