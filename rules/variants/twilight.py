"""Twilight Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): FIDE chess with five ways to win.

Right after his move a player wins if he checkmated, stalemated, or captured the opponent's last
pawn, last Knight-or-Bishop, or last Queen-or-Rook. The capture wins are events: a group that is
already empty (set-up position, promoted last pawn) decides nothing by itself.

Extra state: the winning capture, if the last move made one. It is written as FEN field 7
(`last-pawn`, `last-minor` or `last-major`) only in a finished game, so that a finished game's FEN
reloads finished; a plain six-field FEN means "no capture win yet".
"""
from __future__ import annotations


import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome
from ..endings import NoMove

# marker -> (the men of the group, the reason shown to players)
GROUPS: dict[str, tuple[tuple[chess.PieceType, ...], str]] = {
    "last-pawn": ((chess.PAWN,), "last pawn"),
    "last-minor": ((chess.KNIGHT, chess.BISHOP), "all Knights and Bishops"),
    "last-major": ((chess.QUEEN, chess.ROOK), "all Queens and Rooks"),
}


def group_of(piece_type: chess.PieceType) -> str | None:
    return next((marker for marker, (types, _) in GROUPS.items() if piece_type in types), None)


def group_count(board: chess.Board, marker: str, colour: chess.Color) -> int:
    return sum(len(board.pieces(t, colour)) for t in GROUPS[marker][0])


class Twilight(ChessVariant[str | None]):
    slug = "twilight"
    name = "Twilight Chess"
    family = "GOAL"
    summary = "Mate, stalemate, or take the foe's last pawn, last Knight/Bishop or last Queen/Rook."
    insufficient_material = False
    initial_state = None     # None, or the GROUPS marker of the capture that just won
    refusal_text = "{move} is not a legal move in Twilight Chess: men move and check as in chess."
    after_effects = True      # `after_move`/`push` change more than the move

    state_words = tuple(GROUPS)
    state_refusal = "Twilight Chess FEN field 7, if present, is last-pawn, last-minor or last-major."

    def validate(self, board: chess.Board, state: str | None) -> None:
        super().validate(board, state)
        if state and group_count(board, state, board.turn):
            raise ValueError(f"FEN field 7 says {state}, but the side to move still has men of that group.")

    def after_move(self, board: chess.Board, state: str | None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> str | None:
        if captured is None:
            return None
        marker = group_of(captured.piece_type)
        if marker and group_count(board, marker, captured.color) == 0:
            return marker
        return None

    stalemated = NoMove("loses", "stalemate", Ending.STALEMATE)   # checkmate or stalemate: the mover wins

    def judge_goal(self, board: chess.Board, state: str | None, legal: list[chess.Move]) -> Outcome | None:
        if state:                       # rules card: prefer the capture condition
            return Outcome.win(colour_name(not board.turn), GROUPS[state][1], Ending.GOAL)
        return None


VARIANT = Twilight()
