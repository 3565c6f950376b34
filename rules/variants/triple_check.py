"""Triple Check Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): a check is allowed only
if every man giving it is safe, supported or non-capturing; one that is all three wins.
Rules card: data/rules/triple-check.md. Extra state: whether the last move was a winning triple check.
"""
from __future__ import annotations

import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome
from ..lookahead import after, may_check

WON = "triple-check"


def is_taken_by_a_legal_move(board: chess.Board, square: chess.Square) -> bool:
    """Can the side to move capture the man on `square` with a FIDE-legal move (en passant too)?"""
    targets = chess.BB_SQUARES[square]
    if board.ep_square is not None and board.ep_square + (-8 if board.turn == chess.WHITE else 8) == square:
        targets |= chess.BB_SQUARES[board.ep_square]   # an en passant capture lands behind the pawn it takes
    return any(True for _ in board.generate_legal_captures(to_mask=targets))


def conditions(position: chess.Board, checker: chess.Square, capturing: bool) -> dict[str, bool]:
    """The three conditions for the man on `checker`, in the position after the checking move."""
    mover = not position.turn
    return {
        "safe": not is_taken_by_a_legal_move(position, checker),
        "supported": position.is_attacked_by(mover, checker),
        "non-capturing": not capturing,
    }


def checker_faults(board: chess.Board, move: chess.Move) -> list[str]:
    """For a capturing check: the checking men that are neither safe nor supported, as words."""
    position = after(board, move)
    faults = []
    for checker in position.checkers():
        met = conditions(position, checker, capturing=True)
        if not any(met.values()):
            name = chess.piece_name(position.piece_type_at(checker) or chess.PAWN)
            name = name if name == "pawn" else name.capitalize()
            faults.append(f"the {name} on {chess.square_name(checker)}")
    return faults


def wins_as_it_stands(position: chess.Board, capturing: bool) -> bool:
    """Is the check on the board, made by a move that captured (or not), a winning triple check:
    does every checking man meet all three conditions? (A checkmate is named as such instead.)"""
    checkers = position.checkers()
    return (bool(checkers) and all(all(conditions(position, sq, capturing).values()) for sq in checkers)
            and not position.is_checkmate())


class TripleCheck(ChessVariant[str | None]):
    slug = "triple-check"
    name = "Triple Check Chess"
    family = "GOAL"
    summary = "Check only with a safe, defended or non-capturing man; a check that is all three wins."
    initial_state = None            # None, or WON after a winning triple check
    state_words = (WON,)
    state_refusal = f"Triple Check Chess FEN field 7, if present, is '{WON}'."
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move`/`push` change more than the move

    # -- FEN -----------------------------------------------------------------------------------
    def load(self, fen: str) -> tuple[chess.Board, str | None]:
        board, state = super().load(fen)
        if state is None and board.halfmove_clock > 0 and wins_as_it_stands(board, capturing=False):
            state = WON     # the last move captured nothing: the check on the board decides
        return board, state

    def validate(self, board: chess.Board, state: str | None) -> None:
        super().validate(board, state)
        if state and not board.is_check():
            raise ValueError(f"FEN field 7 says '{WON}', but the side to move is not in check.")

    def fen(self, board: chess.Board, state: str | None) -> str:
        # The field is needed only where the board cannot tell (clock at 0: capture or pawn move).
        marker = [WON] if state == WON and board.halfmove_clock == 0 else []
        return " ".join([board.fen(), *marker])

    # -- moves ---------------------------------------------------------------------------------
    def allows(self, board: chess.Board, state: str | None, move: chess.Move) -> bool:
        if not board.is_capture(move) or not may_check(board, move) or not board.gives_check(move):
            return True      # no check, or a non-capturing one: every checker qualifies
        return not checker_faults(board, move)

    def explain(self, board: chess.Board, state: str | None, move: chess.Move) -> str:
        who = " and ".join(checker_faults(board, move))
        return (f"That check is not allowed: it captures, and {who} could be taken and is not "
                "defended. A check must be safe, defended or non-capturing.")

    def after_move(self, board: chess.Board, state: str | None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> str | None:
        return WON if wins_as_it_stands(board, capturing=captured is not None) else None

    # -- the end -------------------------------------------------------------------------------
    def judge_goal(self, board: chess.Board, state: str | None, legal: list[chess.Move]) -> Outcome | None:
        if state != WON or board.is_checkmate():
            return None   # a checkmate comes first (the no-move step)
        return Outcome.win(colour_name(not board.turn), "triple check", Ending.GOAL)

    def judge_no_move(self, board: chess.Board, state: str | None, legal: list[chess.Move]) -> Outcome | None:
        if not legal and any(True for _ in board.generate_legal_moves()):   # rules card
            return Outcome.win(colour_name(not board.turn), "forced to give an illegal check", Ending.NO_MOVE)
        return super().judge_no_move(board, state, legal)


VARIANT = TripleCheck()
