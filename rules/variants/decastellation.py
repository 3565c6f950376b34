"""Decastellation Chess: no check; capture the enemy king or the last enemy rook to win.

Kings are ordinary men here, so moves are python-chess's pseudo-legal moves, with castling
without the attacked-square conditions (`Castling.NO_CHECK`, rules card). The end is state-based: a side with
no king or no rook on the board has lost.
"""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome
from ..men import NO_ROYALTY


class Decastellation(ChessVariant[None]):
    slug = "decastellation"
    name = "Decastellation Chess"
    family = "GOAL"
    summary = "No check: capture the enemy king, or capture every enemy rook, to win."
    insufficient_material = False
    royalty = NO_ROYALTY
    initial_state = None     # no extra state beyond the board
    castling = Castling.NO_CHECK
    refusal_text = "{move} is not a legal move here."

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        lost = {colour: self.loss_reason(board, colour) for colour in chess.COLORS}
        if lost[chess.WHITE] and lost[chess.BLACK]:
            return Outcome.draw("both sides have lost their king or rooks", Ending.GOAL)
        for colour, reason in lost.items():
            if reason:
                return Outcome.win(colour_name(not colour), reason, Ending.GOAL)
        return None

    @staticmethod
    def loss_reason(board: chess.Board, colour: chess.Color) -> str | None:
        if not board.kings & board.occupied_co[colour]:
            return "king captured"
        if not board.rooks & board.occupied_co[colour]:
            return "last rook captured"
        return None


VARIANT = Decastellation()
