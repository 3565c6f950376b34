"""How a game ends: the one order of end steps every variant is judged by, what having no legal
move means (as data), and FIDE's automatic and claimable draws, written once for both bases
(`ChessVariant` in rules.chess_variant, `PartsVariant` in rules.position).

Each base runs `END_STEPS` in order, as its methods `judge_<step>`; the first Outcome ends the game:

    goal      the variant's own goal (none in FIDE chess). Where a rules card puts another ending
              first (a checkmate before the goal), the goal says so by returning None then.
    no_move   the side to move has no legal move: `mated` when it is in check, else `stalemated`
              (both `NoMove` data); a variant with a third case adds it in one small override.
    draws     FIDE's automatic draws where the variant keeps them (`fide_draws`): a dead position,
              75 moves without a capture or pawn move, fivefold repetition.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import chess

from .core import BLACK, WHITE, Ending, Outcome

END_STEPS: tuple[str, ...] = ("goal", "no_move", "draws")


@dataclass(frozen=True)
class NoMove:
    """What having no legal move means for the side to move.

    then:   "loses", "wins" or "draws" (said of the side to move), or WHITE / BLACK: that colour
            wins whoever is to move.
    reason: the words a player reads; kind: how the game ended.
    """

    then: Literal["loses", "wins", "draws", "white", "black"]
    reason: str
    kind: Ending

    def outcome(self, turn: str) -> Outcome:
        """The Outcome when `turn` ("white"/"black") is the side without a move."""
        if self.then == "draws":
            return Outcome.draw(self.reason, self.kind)
        if self.then in (WHITE, BLACK):
            return Outcome.win(self.then, self.reason, self.kind)
        other = BLACK if turn == WHITE else WHITE
        return Outcome.win(turn if self.then == "wins" else other, self.reason, self.kind)


CHECKMATE = NoMove("loses", "checkmate", Ending.CHECKMATE)
STALEMATE = NoMove("draws", "stalemate", Ending.STALEMATE)

DEAD_POSITION = Outcome.draw("insufficient material", Ending.MATERIAL)
SEVENTY_FIVE_MOVES = Outcome.draw("75 moves without a capture or pawn move", Ending.FIFTY_MOVES)
FIVEFOLD = Outcome.draw("fivefold repetition", Ending.REPETITION)
FIFTY_MOVES_CLAIM = Outcome.draw("50 moves without a capture or pawn move", Ending.FIFTY_MOVES)
THREEFOLD_CLAIM = Outcome.draw("threefold repetition", Ending.REPETITION)


def no_move(turn: str, checked: bool, mated: NoMove | None, stalemated: NoMove) -> Outcome:
    """The ending when `turn` has no legal move, `checked` or not (`mated` None: check plays no part)."""
    return mated.outcome(turn) if checked and mated is not None else stalemated.outcome(turn)


def automatic_draw(board: chess.Board, dead: Callable[[], bool], repeats: Callable[[], int]) -> Outcome | None:
    """FIDE's automatic draws, in FIDE's order: `dead()` (the variant's dead-position test), 75
    moves, then fivefold (`repeats()`: how often this position has stood). Each test runs only
    when the ones before it found nothing."""
    if dead():
        return DEAD_POSITION
    if board.halfmove_clock >= 150:
        return SEVENTY_FIVE_MOVES
    if repeats() >= 5:
        return FIVEFOLD
    return None


def claimable_draw(board: chess.Board, repeats: Callable[[], int]) -> Outcome | None:
    """The draw the side to move may claim under FIDE's rules (with its reason and kind), or None."""
    if board.halfmove_clock >= 100:
        return FIFTY_MOVES_CLAIM
    if repeats() >= 3:
        return THREEFOLD_CLAIM
    return None
