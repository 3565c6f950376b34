"""Blunder-Mate Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): rules and decisions in
`data/rules/blunder-mate.md`. Extra state: the blunder-mate found when the last move was pushed
(from the move stack), or None; the FEN stays plain FIDE (it cannot hold the position before)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

import chess

from ..chess_variant import ChessVariant, colour_name, san
from ..core import Ending, Outcome
from ..lookahead import after, earlier, mates_allowed
from ..notation import numbered


@dataclass(frozen=True)
class Verdict:
    """A blunder-mate: the move played, the substitute put in its place, the mate that follows
    (SAN without check marks)."""
    played: str
    substitute: str
    mate: str


@lru_cache(maxsize=4096)
def mating_substitutes(fen: str) -> tuple[tuple[chess.Move, chess.Move], ...]:
    """In the position `fen`, up to two moves s (in python-chess's move order) after which the
    opponent has a checkmate m, as (s, m) pairs. Two are enough: whatever was really played,
    one of them is a different move. Keyed by FEN, so every move from one position shares it."""
    return tuple(islice(mates_allowed(chess.Board(fen)), 2))


def find_blunder_mate(board: chess.Board) -> Verdict | None:
    """The side to move's blunder-mate, if it has one: needs the move stack (the last move)."""
    if not board.move_stack:
        return None          # nothing played in this game, nothing to take back (rules card)
    before, played = next(earlier(board, 1)), board.peek()
    for substitute, mate in mating_substitutes(before.fen()):
        if substitute != played:
            legal = list(before.legal_moves)
            instead = after(before, substitute)
            return Verdict(san(before, played, legal), san(before, substitute, legal),
                           san(instead, mate, list(instead.legal_moves)))
    return None


def describe(board: chess.Board, verdict: Verdict) -> str:
    """The reason a player reads, e.g. "blunder-mate: had White played 2 g4 instead of 2 Nf3,
    Black would mate with 2...Qh4#". `board` is the real position (claimant to move)."""
    claimant, blunderer = colour_name(board.turn).capitalize(), colour_name(not board.turn).capitalize()
    played, substitute = (numbered(board, text, last=True) for text in (verdict.played, verdict.substitute))
    return (f"blunder-mate: had {blunderer} played {substitute} instead of {played}, "
            f"{claimant} would mate with {numbered(board, verdict.mate + '#')}")


class BlunderMate(ChessVariant[Verdict | None]):
    slug = "blunder-mate"
    name = "Blunder-Mate Chess"
    family = "GOAL"
    summary = ("Checkmate, or win at once when a different last move by your opponent would "
               "have let you mate in one.")
    initial_state = None      # None, or the Verdict that ended the game
    after_effects = True      # `after_move`/`push` change more than the move

    # -- the test, made once per move ----------------------------------------------------------
    def after_move(self, board: chess.Board, state: Verdict | None, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> Verdict | None:
        if board.is_checkmate() or board.is_stalemate():
            return None          # checkmate and stalemate come first (rules card)
        return find_blunder_mate(board)

    def judge_goal(self, board: chess.Board, state: Verdict | None, legal: list[chess.Move]) -> Outcome | None:
        if not legal or not state:
            return None   # no legal move: checkmate or stalemate come first; the draws only after (rules card)
        return Outcome.win(colour_name(board.turn), describe(board, state), Ending.GOAL)


VARIANT = BlunderMate()
