"""Zoo Chess (Tony Paletta): be first to capture enemy men of four different kinds.

The six kinds are pawn, knight, bishop, rook, queen and king. No check, no castling; kings are
ordinary men and may be captured. Extra state: the kinds each side has captured, written as a
seventh FEN field `W/B` in lower-case letters (`-` for none), e.g. `pn/-`.
"""
from __future__ import annotations

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name
from ..core import PIECE_NAMES, Ending, Outcome
from ..endings import NoMove
from ..men import NO_ROYALTY

KINDS = "pnbrqk"           # the canonical order the FEN field is written in
NEEDED = 4
FOUR_KINDS = "four kinds captured"
NO_LEGAL_MOVE = "stalemate (no legal move)"


def parse_kinds(text: str) -> str:
    text = text.lower()
    if text == "-":
        return ""
    if not text or any(c not in KINDS for c in text) or len(set(text)) != len(text):
        raise ValueError(f"Captured kinds must be letters from {KINDS!r} or '-', not {text!r}.")
    return "".join(k for k in KINDS if k in text)


def add_kind(kinds: str, piece_type: chess.PieceType) -> str:
    letter = chess.piece_symbol(piece_type)
    return "".join(k for k in KINDS if k in kinds or k == letter)


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
    after_effects = True      # `after_move`/`push` change more than the move

    def parse_state(self, fields: list[str]) -> tuple[str, str]:
        if not fields:
            return self.initial_state
        if len(fields) != 1:
            raise ValueError("Zoo Chess FEN has at most seven fields; the seventh is W/B, e.g. pn/-.")
        text = fields[0]
        if text == "-":
            return self.initial_state
        parts = text.split("/")
        if len(parts) != 2:
            raise ValueError(f"The seventh field lists captured kinds as W/B, e.g. pn/-, not {text!r}.")
        white, black = parse_kinds(parts[0]), parse_kinds(parts[1])
        if len(white) >= NEEDED and len(black) >= NEEDED:
            raise ValueError("Both sides cannot have captured four kinds: the game ends at the first.")
        return (white, black)

    def caption(self, board: chess.Board, state: tuple[str, str]) -> str:
        said = [f"{side} has captured " + (", ".join(PIECE_NAMES[k] for k in kinds) if kinds else "nothing")
                for side, kinds in (("White", state[0]), ("Black", state[1]))]
        return "; ".join(said) + " (four kinds win)"

    def format_state(self, state: tuple[str, str]) -> list[str]:
        return ["/".join(kinds or "-" for kinds in state)]

    def after_move(self, board: chess.Board, state: tuple[str, str], move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> tuple[str, str]:
        if captured is None or mover is None:
            return state
        white, black = state
        if mover.color == chess.WHITE:
            return (add_kind(white, captured.piece_type), black)
        return (white, add_kind(black, captured.piece_type))

    stalemated = NoMove("draws", NO_LEGAL_MOVE, Ending.STALEMATE)   # no dead-position rule here

    def judge_goal(self, board: chess.Board, state: tuple[str, str], legal: list[chess.Move]) -> Outcome | None:
        for colour, kinds in zip((chess.WHITE, chess.BLACK), state):
            if len(kinds) >= NEEDED:
                return Outcome.win(colour_name(colour), FOUR_KINDS, Ending.GOAL)
        return None


VARIANT = Zoo()
