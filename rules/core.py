"""The shapes every variant shares: the game contract, outcomes, board views, errors."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Mapping

WHITE, BLACK = "white", "black"


class IllegalMove(ValueError):
    """A move the rules refuse. The message is written for the player."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    result: "1-0", "0-1", "1/2-1/2" for two players; "solved" or "failed" for a solo puzzle.
    reason: short words for a player ("checkmate", "tour complete").
    score:  a number for puzzles (lower or higher is better per variant), else None.
    """

    result: str
    reason: str
    score: int | None = None

    @property
    def winner(self) -> str | None:
        return {"1-0": WHITE, "0-1": BLACK}.get(self.result)

    @staticmethod
    def win(colour: str, reason: str) -> "Outcome":
        return Outcome("1-0" if colour == WHITE else "0-1", reason)

    @staticmethod
    def draw(reason: str) -> "Outcome":
        return Outcome("1/2-1/2", reason)


@dataclass(frozen=True)
class BoardView:
    """A plain picture of a position, enough to draw it: no rules inside.

    pieces maps square names ("e4") to piece letters: upper case white ("K"), lower case
    black ("k"). Solo puzzles whose men have no colour use upper case.
    """

    files: int
    ranks: int
    pieces: Mapping[str, str]
    turn: str = WHITE
    last_move: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()      # goal squares to tint (a puzzle's target corner)
    caption: str = ""


@dataclass(frozen=True)
class VariantInfo:
    """What the registry knows of a variant. `create(seed, fen)` builds a Game."""

    slug: str
    name: str
    players: int
    summary: str
    files: int = 8
    ranks: int = 8
    create: Callable[[int | None, str | None], "Game"] = field(repr=False, compare=False, default=None)


class Game(ABC):
    """One game in progress. Subclasses implement the position; this class keeps the contract.

    Subclasses provide: `turn`, `_moves()` (canonical strings), `_resolve(text)` (text to a
    canonical move or IllegalMove), `_apply(move)`, `_unapply()`, `_judge()` (Outcome or None),
    `fen()`, `view()`.
    """

    info: VariantInfo

    def __init__(self) -> None:
        self._history: list[str] = []
        self._legal_cache: list[str] | None = None
        self._outcome_cache: tuple[int, Outcome | None] | None = None
        self._final: Outcome | None = None

    # -- the public contract -------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> str: ...

    @property
    def history(self) -> list[str]:
        return list(self._history)

    def legal_moves(self) -> list[str]:
        if self.outcome is not None:
            return []
        if self._legal_cache is None:
            self._legal_cache = self._moves()
        return list(self._legal_cache)

    @property
    def outcome(self) -> Outcome | None:
        if self._final is not None:
            return self._final
        ply = len(self._history)
        if self._outcome_cache is None or self._outcome_cache[0] != ply:
            self._outcome_cache = (ply, self._judge())
        return self._outcome_cache[1]

    def play(self, move: str) -> str:
        """Play one complete turn; returns it in canonical notation."""
        if not isinstance(move, str) or not move.strip():
            raise IllegalMove("Type a move, for example e2e4.")
        if self.outcome is not None:
            raise IllegalMove("The game is over.")
        canonical = self._resolve(" ".join(move.split()))
        self._apply(canonical)
        self._history.append(canonical)
        self._legal_cache = None
        return canonical

    def undo(self) -> str:
        """Take back the last turn; returns it."""
        if not self._history:
            raise IllegalMove("There is no move to take back.")
        self._unapply()
        self._final = None
        self._legal_cache = None
        return self._history.pop()

    def finish(self, outcome: Outcome | None) -> None:
        """End the game from outside the board (resignation, agreed or claimed draw); None reopens it."""
        self._final = outcome

    def last_move_label(self) -> str:
        """The last turn as a player would write it (SAN where the variant has it), or ""."""
        return self._history[-1] if self._history else ""

    @property
    def score(self) -> int | None:
        """The running score of a solo puzzle (e.g. casualties so far); None for duels."""
        return None

    def claimable_draw(self) -> str | None:
        """A draw the player to move may claim now (reason), or None."""
        return None

    @abstractmethod
    def fen(self) -> str: ...

    @abstractmethod
    def view(self) -> BoardView: ...

    def describe(self) -> str:
        """Alt text: the position in words."""
        return describe_view(self.view(), self.info.name)

    # -- for subclasses --------------------------------------------------------------------
    @abstractmethod
    def _moves(self) -> list[str]: ...

    @abstractmethod
    def _resolve(self, text: str) -> str: ...

    @abstractmethod
    def _apply(self, move: str) -> None: ...

    @abstractmethod
    def _unapply(self) -> None: ...

    @abstractmethod
    def _judge(self) -> Outcome | None: ...


PIECE_NAMES = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}


def square_name(file: int, rank: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[file] + str(rank + 1)


def describe_view(view: BoardView, title: str = "") -> str:
    """A short sentence per side listing its men, for screen readers and alt text."""
    sides: dict[str, list[str]] = {}
    order = "kqrbnp"
    for square, letter in sorted(view.pieces.items(), key=lambda kv: (order.find(kv[1].lower()), kv[0])):
        side = "White" if letter.isupper() else "Black"
        name = PIECE_NAMES.get(letter.lower(), letter.lower())
        sides.setdefault(side, []).append(f"{name} {square}")
    parts = [f"{title} board {view.files}x{view.ranks}." if title else f"Board {view.files}x{view.ranks}."]
    for side in ("White", "Black"):
        if side in sides:
            parts.append(f"{side}: " + ", ".join(sides[side]) + ".")
    if not view.pieces:
        parts.append("The board is empty.")
    if view.last_move:
        parts.append("Last move " + "-".join(view.last_move) + ".")
    if view.checks:
        parts.append("Check on " + ", ".join(view.checks) + ".")
    if view.caption:
        parts.append(view.caption)
    return " ".join(parts)
