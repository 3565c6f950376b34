"""Submission Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): mating is forbidden; a
player wins by giving a check whose only answer is a King move that captures nothing.

Permitted moves (= legal moves) are the FIDE-legal moves after which the opponent is not mated,
"mated" meaning in check with no permitted move. The definition recurses (rules card), but only
through replies that give check, since a reply that does not check is always permitted; past
`MATE_DEPTH` plies a check is taken as not mate. The same permitted moves decide the win
(rules card): right after a check that leaves exactly one permitted reply, a non-capturing King
move, the checker wins at once. Draws (repetition, 50/75 moves, dead position by python-chess's
material test) are the standard slug's. No extra state: plain FEN.
"""
from __future__ import annotations

import chess

from ..chess_variant import ChessVariant, colour_name, san
from ..core import Ending, Outcome
from ..lookahead import after, gives_check, has_move

MATE_DEPTH = 8   # plies of check answered by check looked through before calling a check "not mate"


def is_mated(board: chess.Board, depth: int = MATE_DEPTH) -> bool:
    """In check with no permitted move (a legal move that does not mate the opponent): the
    variant's checkmate, which no move may give."""
    return board.is_check() and not has_move(board, lambda move, depth: not is_mated(after(board, move), depth - 1), depth)


def is_permitted(board: chess.Board, move: chess.Move, depth: int = MATE_DEPTH) -> bool:
    """A FIDE-legal `move` is permitted unless it mates the opponent."""
    return not gives_check(board, move) or not is_mated(after(board, move), depth - 1)


def is_submission(board: chess.Board, legal: list[chess.Move]) -> bool:
    """The side to move is in check and its one permitted reply is a King move to an empty square."""
    if not board.is_check() or len(legal) != 1:
        return False
    (reply,) = legal
    return board.kings & chess.BB_SQUARES[reply.from_square] != 0 and not board.is_capture(reply)


class Submission(ChessVariant[None]):
    slug = "submission"
    name = "Submission Chess"
    family = "GOAL"
    summary = ("Checkmate is forbidden: win by a check whose only answer is a King move that "
               "captures nothing.")
    initial_state = None     # no extra state beyond the board
    filters_moves = True      # `allows` refuses some
    refusal_text = ("That move would checkmate, and checkmating is not allowed in Submission Chess. "
                    "Win by a check whose only answer is a King move to an empty square.")

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        return is_permitted(board, move)

    def validate(self, board: chess.Board, state: None) -> None:
        super().validate(board, state)
        if is_mated(board):
            raise ValueError("Invalid position for Submission Chess: the side to move is "
                             "checkmated, which no permitted move can bring about.")

    mated = None   # never mate: a mating move is not permitted, so no legal move is a stalemate

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if not is_submission(board, legal):
            return None
        reply = san(board, legal[0], legal)
        side = colour_name(board.turn).capitalize()
        return Outcome.win(colour_name(not board.turn), f"submission: {side}'s only answer to the check is {reply}",
                           Ending.GOAL)


VARIANT = Submission()
