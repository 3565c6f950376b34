"""Junta Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): capture both enemy Knights, or
the enemy King and one Knight.

No check, no castling, no promotion to a Knight. Kings are ordinary men: they may stand attacked
and be captured, and a side without its King plays on. What has been captured is read off the
board: each side starts with 2 Knights and 1 King and can never gain one, so a side has lost when
it has no Knight left, or no King and at most one Knight.

A plain FEN is enough (its castling field is ignored and written as `-`). A FEN in which a side
has already lost is refused, except the FEN of a finished game, which carries field 7 `goal`.
"""
from __future__ import annotations

from typing import Iterator

import chess

from ..castling import Castling, castling_tries, is_castling_try
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
    initial_state = None     # None while playing; FINISHED once the goal is met
    state_words = (FINISHED,)
    state_refusal = f"Junta Chess uses a plain six-field FEN (field 7 may only be '{FINISHED}')."
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some
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
    def generate(self, board: chess.Board, state: str | None) -> Iterator[chess.Move]:
        """Every pseudo-legal move, plus the Knight promotions and castling tries that `allows`
        refuses (so that a player typing one is told why)."""
        yield from board.generate_pseudo_legal_moves()
        yield from castling_tries(board)

    def allows(self, board: chess.Board, state: str | None, move: chess.Move) -> bool:
        if move.promotion == chess.KNIGHT:
            return False
        return not is_castling_try(board, move)

    def explain(self, board: chess.Board, state: str | None, move: chess.Move) -> str:
        if move.promotion == chess.KNIGHT:
            return "In Junta Chess a pawn promotes only to a Queen, Rook or Bishop, never to a Knight."
        return "There is no castling in Junta Chess."

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
