"""Zoo Chess (Tony Paletta): be first to capture enemy men of four different kinds; no check, no
castling. The rules card: data/rules/zoo.md."""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import PIECE_NAMES, Ending, Outcome
from ..endings import NoMove
from ..men import NO_ROYALTY
from ..side_fields import Kinds

NEEDED = 4
FOUR_KINDS = "four kinds captured"
NO_LEGAL_MOVE = "stalemate (no legal move)"
CAPTURED = Kinds("Zoo Chess", "captured kinds")


class Zoo(ChessVariant[tuple[str, str]]):
    slug = "zoo"
    name = "Zoo Chess"
    family = "GOAL"
    summary = "Be first to capture enemy men of four different kinds (pawn, knight, bishop, rook, queen, king)."
    insufficient_material = False
    royalty = NO_ROYALTY
    faults = BOARD_FAULTS | chess.STATUS_TOO_MANY_KINGS   # a missing king is normal; two of one colour never arise
    castling = Castling.NONE
    initial_state = ("", "")     # kinds captured by White, by Black
    state_field = CAPTURED
    after_effects = True      # `after_move`/`push` change more than the move

    def validate(self, board: chess.Board, state: tuple[str, str]) -> None:
        if all(len(kinds) >= NEEDED for kinds in state):
            raise ValueError("Both sides cannot have captured four kinds: the game ends at the first.")
        super().validate(board, state)

    def caption(self, board: chess.Board, state: tuple[str, str]) -> str:
        said = [f"{side} has captured " + (", ".join(PIECE_NAMES[k] for k in kinds) if kinds else "nothing")
                for side, kinds in (("White", state[0]), ("Black", state[1]))]
        return "; ".join(said) + " (four kinds win)"

    def after_move(self, board: chess.Board, state: tuple[str, str], move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> tuple[str, str]:
        if captured is None or mover is None:
            return state
        return CAPTURED.add(state, mover.color, captured.piece_type)

    stalemated = NoMove("draws", NO_LEGAL_MOVE, Ending.STALEMATE)   # no dead-position rule here

    def judge_goal(self, board: chess.Board, state: tuple[str, str], legal: list[chess.Move]) -> Outcome | None:
        for colour, kinds in zip((chess.WHITE, chess.BLACK), state):
            if len(kinds) >= NEEDED:
                return Outcome.win(colour_name(colour), FOUR_KINDS, Ending.GOAL)
        return None


VARIANT = Zoo()
