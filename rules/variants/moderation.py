"""Moderation Chess (Paletta): FIDE chess where each player may give only three checks; after them
only a checkmate may check. The rules card, with its own "checkmate": data/rules/moderation.md."""
from __future__ import annotations

import chess

from ..chess_variant import ChessVariant, repetitions
from ..lookahead import after, has_move
from ..side_fields import Counts, of

BUDGET = 3
MATE_DEPTH = 8   # plies of check-answered-by-check looked through before calling a check "not mate"
CHECKS = Counts(BUDGET, "Moderation Chess FEN field 7 counts checks made, as +W+B with 0-3 each, e.g. +1+0.")


class Moderation(ChessVariant[tuple[int, int]]):
    slug = "moderation"
    name = "Moderation Chess"
    family = "GOAL"
    summary = "Checkmate the king, but you may give only three checks; a fourth check must be mate."
    initial_state = (0, 0)   # checking moves made by (white, black)
    state_field = CHECKS
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move`/`push` change more than the move
    refusal_text = "You have used all three of your checks: you may give check again only if it is checkmate."

    def caption(self, board: chess.Board, state: tuple[int, int]) -> str:
        return f"Checks left: White {max(0, 3 - state[0])}, Black {max(0, 3 - state[1])}"

    # -- moves ---------------------------------------------------------------------------------
    def allows(self, board: chess.Board, state: tuple[int, int], move: chess.Move) -> bool:
        if of(state, board.turn) < BUDGET or not board.gives_check(move):
            return True
        return self.is_mating(board, state, move, MATE_DEPTH)

    def is_mating(self, board: chess.Board, state: tuple[int, int], move: chess.Move, depth: int) -> bool:
        """Does this checking move leave the opponent in check with no legal move (variant rules)?"""
        return not self.has_legal_move(after(board, move), CHECKS.add(state, board.turn), depth - 1)

    def has_legal_move(self, board: chess.Board, state: tuple[int, int], depth: int) -> bool:
        exhausted = of(state, board.turn) >= BUDGET   # then a check counts only if it mates
        return has_move(board, (lambda reply, depth: self.is_mating(board, state, reply, depth)) if exhausted else None, depth)

    def after_move(self, board: chess.Board, state: tuple[int, int], move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> tuple[int, int]:
        # The move checked exactly when the side now to move is in check (rules card).
        return CHECKS.add(state, not board.turn) if board.is_check() else state

    # -- the end -------------------------------------------------------------------------------
    def count_repetitions(self, board: chess.Board, state: tuple[int, int]) -> int:
        return repetitions_with_budgets(board)   # the budgets are part of the position


def repetitions_with_budgets(board: chess.Board) -> int:
    """How often the current position, check budgets included, has occurred in the game.

    The budgets only grow, and every checking move that does not end the game changes one of
    them, so a position can only repeat one that came after the last checking move. That move
    is the last one after which the side to move stood in check.
    """
    if board.is_check():
        return 1
    return repetitions(board, stop=lambda probe: probe.is_check())


VARIANT = Moderation()
