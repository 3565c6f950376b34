"""Shrapnel Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): remove every enemy man;
captures throw shrapnel. Rules card: data/rules/shrapnel.md.
"""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import Ending, Outcome
from ..endings import NoMove
from ..men import NO_ROYALTY


def shrapnel(board: chess.Board, move: chess.Move, mover: chess.Piece) -> chess.Bitboard:
    """The men a capture by `move` blows away, on `board` after the move: the first man on each
    rank and file ray after a diagonal move, on each diagonal ray after a straight one (rules card)."""
    if mover.piece_type == chess.KNIGHT:
        return chess.BB_EMPTY
    to, occupied = move.to_square, board.occupied
    if chess.BB_DIAG_ATTACKS[move.from_square][0] & chess.BB_SQUARES[to]:   # the move's direction, whatever the man
        rays = (chess.BB_RANK_ATTACKS[to][chess.BB_RANK_MASKS[to] & occupied]
                | chess.BB_FILE_ATTACKS[to][chess.BB_FILE_MASKS[to] & occupied])
    else:
        rays = chess.BB_DIAG_ATTACKS[to][chess.BB_DIAG_MASKS[to] & occupied]
    return rays & occupied


class Shrapnel(ChessVariant[None]):
    slug = "shrapnel"
    name = "Shrapnel Chess"
    family = "GOAL"
    summary = "Remove every enemy man. Captures also blow away the nearest man on four rays. No check."
    start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    royalty = NO_ROYALTY
    castling = Castling.NONE
    insufficient_material = False
    faults = BOARD_FAULTS | chess.STATUS_TOO_MANY_KINGS
    initial_state = None     # no extra state: the outcome is read off the board (a plain FEN is enough)
    after_effects = True      # `after_move`/`push` change more than the move

    # -- FEN -----------------------------------------------------------------------------------
    def validate(self, board: chess.Board, state: None) -> None:
        super().validate(board, state)
        if not board.occupied_co[not board.turn]:
            side = colour_name(not board.turn)
            raise ValueError(f"The side that just moved ({side}) has no men: no Shrapnel Chess "
                             f"move leads there.")

    # -- moves ---------------------------------------------------------------------------------
    def after_move(self, board: chess.Board, state: None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> None:
        if captured is not None and mover is not None:
            for square in chess.scan_forward(shrapnel(board, move, mover)):
                # BaseBoard.remove_piece_at, unlike Board.remove_piece_at, keeps the move stack
                # for pop(), which restores the removed men.
                chess.BaseBoard.remove_piece_at(board, square)
        return state

    # -- the end -------------------------------------------------------------------------------
    stalemated = NoMove("draws", "no legal move", Ending.NO_MOVE)

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if board.occupied_co[board.turn]:
            return None
        return Outcome.win(colour_name(not board.turn), "all enemy men captured", Ending.GOAL)


VARIANT = Shrapnel()
