"""Kingmaker Chess (Paletta): no Kings at the start; your first promotion makes the enemy King.
Rules card: data/rules/kingmaker.md. No extra state: "my first promotion is used" is "the opponent has a King".
"""
from __future__ import annotations

from typing import Iterator

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import Ending, Outcome
from ..endings import NoMove
from ..lookahead import after as position_after

START = "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1"
_FATAL = BOARD_FAULTS | chess.STATUS_EMPTY | chess.STATUS_OPPOSITE_CHECK


def king_of(board: chess.Board, colour: chess.Color) -> chess.Square | None:
    mask = board.kings & board.occupied_co[colour]
    return chess.msb(mask) if mask else None


def makes_king(board: chess.Board, move: chess.Move) -> bool:
    """Is this the mover's first promotion, which must create the enemy King?"""
    return king_of(board, not board.turn) is None


class Kingmaker(ChessVariant[None]):
    slug = "kingmaker"
    name = "Kingmaker Chess"
    family = "GOAL"
    summary = "Promote a pawn into the enemy King, then force it to be the only man that can move."
    insufficient_material = False
    start_fen = START
    castling = Castling.NONE
    promotions = "qrbnk"
    initial_state = None     # no extra state beyond the board
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move`/`push` change more than the move

    def caption(self, board: chess.Board, state: None) -> str:
        said = []
        for colour, side, maker in ((chess.WHITE, "White", "Black"), (chess.BLACK, "Black", "White")):
            king = king_of(board, colour)
            said.append(f"{side}'s King on {chess.square_name(king)}" if king is not None
                        else f"{side} has no King yet ({maker}'s first promotion makes it)")
        return "; ".join(said)

    # -- set-up and FEN ----------------------------------------------------------------------
    def validate(self, board: chess.Board, state: None) -> None:
        for colour in chess.COLORS:
            if chess.popcount(board.kings & board.occupied_co[colour]) > 1:
                raise ValueError(f"Invalid position for {self.name}: {colour_name(colour)} has two kings.")
        if board.status() & _FATAL:
            raise ValueError(f"Invalid position for {self.name}: {board.status()!r}")

    # -- moves ---------------------------------------------------------------------------------
    def generate(self, board: chess.Board, state: None) -> Iterator[chess.Move]:
        yield from super().generate(board, state)
        # King promotions, which python-chess never makes: every pseudo-legal pawn step or capture
        # onto the last rank; `allows` then applies the whole safety test of the rules card.
        seventh = chess.BB_RANK_7 if board.turn == chess.WHITE else chess.BB_RANK_2
        for move in board.generate_pseudo_legal_moves(board.pawns & seventh):
            if move.promotion == chess.QUEEN:
                yield chess.Move(move.from_square, move.to_square, chess.KING)

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        if board.kings & chess.BB_SQUARES[move.to_square]:
            return False   # a King is never captured
        if not move.promotion:
            return True
        if makes_king(board, move):
            return move.promotion == chess.KING and self.king_is_safe(board, move)
        return move.promotion != chess.KING

    def king_is_safe(self, board: chess.Board, move: chess.Move) -> bool:
        """Rules card: the new King stands unattacked, and the mover's own King is not left in check."""
        mover = board.turn
        after = position_after(board, move)
        after.set_piece_at(move.to_square, chess.Piece(chess.KING, not mover))
        if after.attackers_mask(mover, move.to_square):
            return False
        own = king_of(after, mover)
        return own is None or not after.attackers_mask(not mover, own)

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        square = chess.square_name(move.to_square)
        if board.kings & chess.BB_SQUARES[move.to_square]:
            return "A King can never be captured."
        if move.promotion and makes_king(board, move):
            if move.promotion != chess.KING:
                as_king = chess.Move(move.from_square, move.to_square, chess.KING)
                if not self.king_is_safe(board, as_king):
                    return (f"Your first pawn to reach the last rank must become your opponent's King, "
                            f"and a King on {square} would stand in check (or leave yours in check): "
                            f"this pawn cannot promote there yet.")
                return (f"Your first pawn to reach the last rank must become your opponent's King: "
                        f"type {move.uci()[:4]}k.")
            return (f"The new King may not stand in check on {square}, and your own King may not be "
                    f"left in check.")
        if move.promotion == chess.KING:
            return "You have already made your opponent's King: promote to a queen, rook, bishop or knight."
        return super().explain(board, state, move)

    def after_move(self, board: chess.Board, state: None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> None:
        if move.promotion == chess.KING:
            # python-chess put a King of the mover's colour there; it belongs to the opponent.
            # BaseBoard.set_piece_at, unlike Board.set_piece_at, keeps the move stack for pop(); the
            # base counts repetitions by popping a copy (python-chess's `is_repetition` would replay
            # the moves with `push` and skip this fix).
            chess.BaseBoard.set_piece_at(board, move.to_square, chess.Piece(chess.KING, board.turn))
        return state

    # -- the end -------------------------------------------------------------------------------
    mated = None
    stalemated = NoMove("loses", "no legal moves", Ending.NO_MOVE)

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        king = king_of(board, board.turn)
        if legal and king is not None and all(m.from_square == king for m in legal):
            return Outcome.win(colour_name(not board.turn), "forced to move the king", Ending.GOAL)
        return None


VARIANT = Kingmaker()
