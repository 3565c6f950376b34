"""Shrapnel Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): remove every enemy man;
captures throw shrapnel.

FIDE moves without check and without castling; the King is an ordinary man. After a capture
by a diagonal move (Bishop, pawn, Queen or King stepping diagonally) the first man on each of the
four orthogonal rays from the capture square is removed too, whatever its colour; after a capture
along a rank or file, the first man on each of the four diagonal rays. Knight captures remove
nothing more. The capturing man always stays.

The outcome is read off the board (a side with no men has lost), so a plain FEN is enough.
"""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import Ending, Outcome
from ..endings import NoMove
from ..men import NO_ROYALTY

ALL_CAPTURED = "all enemy men captured"
NO_LEGAL_MOVE = "no legal move"
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def is_diagonal(move: chess.Move) -> bool:
    """A move along a diagonal (rules card: the geometry of the move, whatever the man)."""
    files = abs(chess.square_file(move.to_square) - chess.square_file(move.from_square))
    ranks = abs(chess.square_rank(move.to_square) - chess.square_rank(move.from_square))
    return files == ranks


def first_men(occupied: int, square: chess.Square, steps: tuple[tuple[int, int], ...]) -> list[chess.Square]:
    """The first occupied square on each ray from `square` (rays with no man give none)."""
    found = []
    for df, dr in steps:
        file, rank = chess.square_file(square) + df, chess.square_rank(square) + dr
        while 0 <= file < 8 and 0 <= rank < 8:
            other = chess.square(file, rank)
            if occupied & chess.BB_SQUARES[other]:
                found.append(other)
                break
            file, rank = file + df, rank + dr
    return found


def shrapnel(board: chess.Board, move: chess.Move, mover: chess.Piece) -> list[chess.Square]:
    """The squares whose men a capture by `move` blows away, on `board` after the move."""
    if mover.piece_type == chess.KNIGHT:
        return []
    steps = ORTHOGONAL if is_diagonal(move) else DIAGONAL
    return first_men(board.occupied, move.to_square, steps)


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
    initial_state = None     # no extra state beyond the board
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
            for square in shrapnel(board, move, mover):
                # BaseBoard.remove_piece_at, unlike Board.remove_piece_at, keeps the move stack
                # for pop(), which restores the removed men.
                chess.BaseBoard.remove_piece_at(board, square)
        return state

    # -- the end -------------------------------------------------------------------------------
    stalemated = NoMove("draws", NO_LEGAL_MOVE, Ending.NO_MOVE)

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        return None if board.occupied_co[board.turn] else Outcome.win(colour_name(not board.turn), ALL_CAPTURED,
                                                                      Ending.GOAL)


VARIANT = Shrapnel()
