"""Series Helpmate Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): FIDE moves, but
giving checkmate loses, and a player wins by showing that the opponent could mate him.

At the start of his turn (rules card), a player P not in check wins by **demonstration** if the
opponent O, moving while P passes, could checkmate P with one move, or with two moves in a row of
which the first does not give check. The series is FIDE-legal for O, with castling rights as they
stand and no en passant (each pass cancels it, rules card). A checkmated player wins too.

Order of judgement for the side to move (rules card): checkmated (wins), demonstration
(wins), stalemated (draw), then FIDE's automatic draws. Everything is read from the board: no
extra state, plain FEN.
"""
from __future__ import annotations

import chess

from ..chess_variant import ChessVariant, colour_name, san
from ..core import Ending, Outcome
from ..endings import NoMove
from ..lookahead import after, each_after, mate_in_one, may_check, passed, per_position

# The position after two moves of the opponent comes again with the two in the other order.
mate_after_first = per_position(keep=20_000)(mate_in_one)


@per_position(keep=10_000)
def demonstration(board: chess.Board) -> tuple[chess.Move, ...] | None:
    """The opponent's mating series against the side to move, if any: (mate,) or (first, mate),
    as moves in the passed positions. None while the side to move is in check (rules card)."""
    if board.is_check():
        return None
    series = passed(board)                           # P passes: O to move
    mate = mate_in_one(series)
    if mate is not None:
        return (mate,)
    # The first of two may not give check (rules card); P passes again after it.
    firsts = (m for m in list(series.legal_moves) if not (may_check(series, m) and series.gives_check(m)))
    for first, passed_again in each_after(series, firsts, again=True):
        mate = mate_after_first(passed_again)
        if mate is not None:
            return first, mate
    return None


def describe(board: chess.Board, moves: tuple[chess.Move, ...]) -> str:
    """E.g. "series-helpmate demonstration: Black could mate White with e5 then Qh4#"."""
    names, position = [], passed(board)
    for move in moves:
        names.append(san(position, move, list(position.legal_moves)))
        position = passed(after(position, move))
    names[-1] += "#"
    mover, victim = colour_name(not board.turn).capitalize(), colour_name(board.turn).capitalize()
    return f"series-helpmate demonstration: {mover} could mate {victim} with {' then '.join(names)}"


class SeriesHelpmate(ChessVariant[None]):
    slug = "series-helpmate"
    name = "Series Helpmate Chess"
    family = "GOAL"
    summary = ("Giving checkmate loses; win when your opponent could mate you with one move, or "
               "two in a row (the first not a check).")
    initial_state = None     # no extra state beyond the board

    mated = NoMove("wins", "checkmate: the mated player wins", Ending.CHECKMATE)

    def judge_goal(self, board: chess.Board, state: object, legal: list[chess.Move]) -> Outcome | None:
        if not legal and board.is_check():
            return None   # the mate comes first (the no-move step)
        series = demonstration(board)
        if series is None:
            return None
        return Outcome.win(colour_name(board.turn), describe(board, series), Ending.GOAL)


VARIANT = SeriesHelpmate()
