"""Spartan Chess (Paletta): White plays without Ra1, Nb1 and Bc1; Black must mate by move 60.

Every ending other than Black mating White is a White win: White mating Black, Black running
out of moves (move 60 completed), stalemate of either side, repetition, 50 moves, dead position.
Moves are counted with the FEN full-move number, so a position set by FEN keeps its count.
"""
from __future__ import annotations


import chess

from ..chess_variant import ChessVariant
from ..core import WHITE, Ending, Outcome
from ..endings import NoMove

MOVE_LIMIT = 60


def black_failed(reason: str, kind: Ending) -> Outcome:
    return Outcome.win(WHITE, f"{reason}: Black failed to mate", kind)


class Spartan(ChessVariant[None]):
    slug = "spartan"
    name = "Spartan Chess"
    family = "GOAL"
    summary = "White lacks Ra1, Nb1, Bc1: Black must checkmate by move 60, or White wins."
    start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/3QKBNR w Kkq - 0 1"
    fide_draws = False   # no draws: every draw-like ending is Black's failure (rules card)
    initial_state = None     # no extra state beyond the board

    def caption(self, board: chess.Board, state: None) -> str:
        left = MOVE_LIMIT - board.fullmove_number + 1
        return f"Black must mate by move {MOVE_LIMIT}: {max(0, left)} move{'s' if left != 1 else ''} to go"

    stalemated = NoMove("white", "stalemate: Black failed to mate", Ending.STALEMATE)   # whoever is stalemated

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if board.fullmove_number <= MOVE_LIMIT:
            return None
        # Black's mate counts only on or before his 60th move: with White mated and to move,
        # Black's mating move was number fullmove_number - 1 (a FEN may be set up later).
        if not legal and board.is_check() and (board.turn == chess.BLACK or board.fullmove_number - 1 <= MOVE_LIMIT):
            return None   # a mate that counts: the no-move step
        return Outcome.win(WHITE, f"Black did not mate within {MOVE_LIMIT} moves", Ending.GOAL)

    def judge_draws(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        """No draws (`fide_draws` is off): every draw-like ending is Black's failure (rules card)."""
        if board.is_insufficient_material():
            return black_failed("dead position", Ending.MATERIAL)
        if board.halfmove_clock >= 100:
            return black_failed("50 moves without a capture or pawn move", Ending.FIFTY_MOVES)
        if self.count_repetitions(board, state) >= 3:
            return black_failed("threefold repetition", Ending.REPETITION)
        return None

    def claimable_draw(self, board: chess.Board, state: None) -> Outcome | None:
        return None   # nothing to claim: repetition and 50 moves end the game at once, 1-0


VARIANT = Spartan()
