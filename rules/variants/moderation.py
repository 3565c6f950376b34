"""Moderation Chess (Paletta): FIDE chess where each player may give only three checks.

After three checking moves a player may check again only with a checkmate. Extra state: the
checking moves made so far, (white, black), written as FEN field 7 `+W+B` (e.g. `+2+0`).
"Checkmate" is the variant's own: in check with no legal move, which includes a player out of
checks whose only replies to a check would give check (rules card).
"""
from __future__ import annotations

import re

import chess

from ..chess_variant import ChessVariant, repetitions
from ..lookahead import after, has_move

BUDGET = 3
MATE_DEPTH = 8   # plies of check-answered-by-check looked through before calling a check "not mate"
_FIELD = re.compile(r"\+([0-3])\+([0-3])")


class Moderation(ChessVariant[tuple[int, int]]):
    slug = "moderation"
    name = "Moderation Chess"
    family = "GOAL"
    summary = "Checkmate the king, but you may give only three checks; a fourth check must be mate."
    initial_state = (0, 0)   # checking moves made by (white, black)
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move`/`push` change more than the move
    refusal_text = "You have used all three of your checks: you may give check again only if it is checkmate."

    # -- FEN -----------------------------------------------------------------------------------
    def parse_state(self, fields: list[str]) -> tuple[int, int]:
        if not fields:
            return self.initial_state
        match = _FIELD.fullmatch(fields[0]) if len(fields) == 1 else None
        if match is None:
            raise ValueError("Moderation Chess FEN field 7 counts checks made, as +W+B with 0-3 each, e.g. +1+0.")
        return int(match[1]), int(match[2])

    def caption(self, board: chess.Board, state: tuple[int, int]) -> str:
        return f"Checks left: White {max(0, 3 - state[0])}, Black {max(0, 3 - state[1])}"

    def format_state(self, state: tuple[int, int]) -> list[str]:
        return [f"+{state[0]}+{state[1]}"]

    # -- moves ---------------------------------------------------------------------------------
    @staticmethod
    def used(state: tuple[int, int], colour: chess.Color) -> int:
        return state[0] if colour == chess.WHITE else state[1]

    def allows(self, board: chess.Board, state: tuple[int, int], move: chess.Move) -> bool:
        if self.used(state, board.turn) < BUDGET or not board.gives_check(move):
            return True
        return self.is_mating(board, state, move, MATE_DEPTH)

    def is_mating(self, board: chess.Board, state: tuple[int, int], move: chess.Move, depth: int) -> bool:
        """Does this checking move leave the opponent in check with no legal move (variant rules)?"""
        return not self.has_legal_move(after(board, move), self.bump(state, board.turn), depth - 1)

    def has_legal_move(self, board: chess.Board, state: tuple[int, int], depth: int) -> bool:
        exhausted = self.used(state, board.turn) >= BUDGET   # then a check counts only if it mates
        return has_move(board, (lambda reply, depth: self.is_mating(board, state, reply, depth)) if exhausted else None, depth)

    @staticmethod
    def bump(state: tuple[int, int], colour: chess.Color) -> tuple[int, int]:
        white, black = state
        if colour == chess.WHITE:
            return min(white + 1, BUDGET), black
        return white, min(black + 1, BUDGET)

    def after_move(self, board: chess.Board, state: tuple[int, int], move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> tuple[int, int]:
        # The move checked exactly when the side now to move is in check (rules card).
        return self.bump(state, not board.turn) if board.is_check() else state

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
