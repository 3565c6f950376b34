"""Blunder-Mate Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): FIDE chess with one
extra way to win.

At the start of his turn a player wins by **blunder-mate** if he could take back the opponent's
last move, put a different legal move of the opponent's in its place, and then checkmate in one.
Nothing is played: the game ends in the real position. Checkmate and stalemate come first
(rules card); only moves played in this game can be taken back (rules card).

Extra state: the blunder-mate found right after the last move, or None. It is a `Verdict` of
three SAN strings (the move actually played, the substitute, the mate), computed when the move
is pushed, from the board's move stack. The FEN stays plain FIDE (six fields), even once a
blunder-mate has ended the game: it cannot hold the position before the last move, so a game
loaded from any FEN has nothing to take back until its first move (rules card).
"""
from __future__ import annotations

from functools import lru_cache
from dataclasses import dataclass

import chess

from ..chess_variant import ChessVariant, colour_name, san
from ..core import Ending, Outcome
from ..lookahead import after, mate_in_one


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
    board = chess.Board(fen)
    found: list[tuple[chess.Move, chess.Move]] = []
    for substitute in board.legal_moves:
        # A substitute that mates or stalemates the claimant leaves him no move, so no mate
        # (rules card).
        mate = mate_in_one(after(board, substitute))
        if mate is not None:
            found.append((substitute, mate))
            if len(found) == 2:
                break
    return tuple(found)


def find_blunder_mate(board: chess.Board) -> Verdict | None:
    """The side to move's blunder-mate, if it has one: needs the move stack (the last move)."""
    if not board.move_stack:
        return None          # nothing played in this game, nothing to take back (rules card)
    before = board.copy(stack=1)
    played = before.pop()
    pick = next(((s, m) for s, m in mating_substitutes(before.fen()) if s != played), None)
    if pick is None:
        return None
    substitute, mate = pick
    legal = list(before.legal_moves)
    instead = after(before, substitute)
    return Verdict(san(before, played, legal), san(before, substitute, legal),
                   san(instead, mate, list(instead.legal_moves)))


def numbered(colour: chess.Color, text: str, fullmove: int) -> str:
    return f"{fullmove} {text}" if colour == chess.WHITE else f"{fullmove}...{text}"


def describe(board: chess.Board, verdict: Verdict) -> str:
    """The reason a player reads, e.g. "blunder-mate: had White played 2 g4 instead of 2 Nf3,
    Black would mate with 2...Qh4#". `board` is the real position (claimant to move)."""
    claimant, blunderer = board.turn, not board.turn
    # The last move and its substitute were made at the move number before the claimant's turn.
    last_number = board.fullmove_number - (1 if claimant == chess.WHITE else 0)
    played = numbered(blunderer, verdict.played, last_number)
    substitute = numbered(blunderer, verdict.substitute, last_number)
    mate = numbered(claimant, verdict.mate + "#", board.fullmove_number)
    return (f"blunder-mate: had {colour_name(blunderer).capitalize()} played {substitute} instead "
            f"of {played}, {colour_name(claimant).capitalize()} would mate with {mate}")


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
