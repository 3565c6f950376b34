"""Prop Chess: rules and decisions in `data/rules/prop.md`.

The FEN's half-move field counts half-moves since the last capture only (rules card). That count
is the extra state (an int), not `board.halfmove_clock`: python-chess's repetition test pops and
re-pushes moves, which recomputes the board clock with FIDE's pawn-move reset."""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import ChessVariant
from ..core import Ending, Outcome
from ..endings import FIVEFOLD, THREEFOLD_CLAIM, NoMove
from ..lookahead import defended
from ..men import NO_ROYALTY

CAPTURE_FREE_LIMIT = 50   # half-moves


def is_forward(board: chess.Board, move: chess.Move) -> bool:
    rise = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
    return rise > 0 if board.turn == chess.WHITE else rise < 0


class Prop(ChessVariant[int]):
    slug = "prop"
    name = "Prop Chess"
    family = "GOAL"
    summary = "Move only to defended squares, forward when you can; leave the opponent without a move."
    royalty = NO_ROYALTY
    fide_draws = False
    initial_state = 0         # half-moves since the last capture
    castling = Castling.NO_CHECK
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move` counts the half-moves since the last capture

    # -- FEN: the half-move field is the capture-free count -----------------------------------
    def load(self, fen: str) -> tuple[chess.Board, int]:
        board, _ = super().load(fen)
        return board, board.halfmove_clock

    def fen(self, board: chess.Board, state: int) -> str:
        fields = super().fen(board, state).split()
        fields[4] = str(state)
        return " ".join(fields)

    def legal(self, board: chess.Board, state: int) -> list[chess.Move]:
        safe = defended(board, self.generate(board, state))
        forward = [m for m in safe if is_forward(board, m)]
        return forward or safe

    def allows(self, board: chess.Board, state: int, move: chess.Move) -> bool:
        return move in self.legal(board, state)

    def explain(self, board: chess.Board, state: int, move: chess.Move) -> str:
        to = chess.square_name(move.to_square)
        if not defended(board, [move]):
            return (f"{to} would not be defended: a man may only move to a square another of "
                    f"your men could capture on after the move.")
        example = next((m.uci() for m in self.legal(board, state)), "")
        return f"You have a forward move to a defended square, so you must move forward (e.g. {example})."

    def after_move(self, board: chess.Board, state: int, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> int:
        return 0 if captured else state + 1

    stalemated = NoMove("loses", "cannot move", Ending.NO_MOVE)

    def judge_draws(self, board: chess.Board, state: int, legal: list[chess.Move]) -> Outcome | None:
        """Not FIDE's draws (`fide_draws` is off): 25 moves without a capture, and fivefold repetition."""
        if state >= CAPTURE_FREE_LIMIT:
            return Outcome.draw("25 moves without a capture", Ending.FIFTY_MOVES)
        return FIVEFOLD if self.count_repetitions(board, state) >= 5 else None

    def claimable_draw(self, board: chess.Board, state: int) -> Outcome | None:
        return THREEFOLD_CLAIM if self.count_repetitions(board, state) >= 3 else None


VARIANT = Prop()
