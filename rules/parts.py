"""Positions and the parts of a turn: the values every variant on the parts floor (rules.position) is
built from.

A `Position` is one immutable value (board, men in hand, extra state, side to move); a turn is a
tuple of parts (`Step`, `Drop`, `Swap`, `Mirror`, `Pass`) whose canonical text is the parts' texts
joined by one space. Hands are written in FEN as crazyhouse does (`[Nb]`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, TypeVar

import chess

from .core import BLACK, LABEL_JOIN, WHITE
from .refusals import SAN_SHAPE as SAN_SHAPE   # variants import it here
from .refusals import counted

HAND_ORDER = "QRBNP"
MAN_NAMES = {"k": "King", "q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight", "p": "pawn"}   # in words of turns


def colour_of(turn: bool) -> str:
    return WHITE if turn == chess.WHITE else BLACK


# What makes two positions the same: men, side to move, castling rights, en passant, hands, extra state.
# The men are their bitboards (pawns ... kings, then each colour's squares): equal exactly when the
# boards' FEN placement is, without writing it out on every turn.
Placement = tuple[chess.Bitboard, chess.Bitboard, chess.Bitboard, chess.Bitboard, chess.Bitboard, chess.Bitboard,
                  chess.Bitboard, chess.Bitboard]
RepetitionKey = tuple[Placement, chess.Color, chess.Bitboard, chess.Square | None, tuple[str, str], Hashable]


def placement(b: chess.Board) -> Placement:
    return (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings, b.occupied_co[chess.WHITE],
            b.occupied_co[chess.BLACK])


@dataclass(frozen=True)
class Position:
    """Board, hands, extra state and side to move, as one immutable value.

    hands: (white's hand, black's hand), each a string of letters in `HAND_ORDER` ("NPP"). The
    case of a letter is the colour of the man as it will be dropped (crazyhouse: always the
    owner's colour; Reentrant: either).
    """

    board: chess.Board
    hands: tuple[str, str] = ("", "")
    extra: Hashable = None   # the variant's extra state (a ChessVariant's state; None on this floor)

    @property
    def turn(self) -> str:
        return colour_of(self.board.turn)

    def hand(self, colour: bool) -> str:
        return self.hands[0 if colour == chess.WHITE else 1]

    def key(self) -> RepetitionKey:
        b = self.board
        return (placement(b), b.turn, b.castling_rights, b.ep_square, self.hands, self.extra)

    def key_without_en_passant(self) -> RepetitionKey:
        b = self.board
        return (placement(b), b.turn, b.castling_rights, None, self.hands, self.extra)

    def edit(self) -> chess.Board:
        """A fresh copy of the board (no move stack) to build the next position on."""
        return self.board.copy(stack=False)

    def but(self, **changes: Any) -> Position:
        return replace(self, **changes)


# -- parts --------------------------------------------------------------------------------------
# Parts are small named tuples: immutable, cheap to make by the thousand (Balanced Swap lists about
# a thousand turns in a middlegame), each with its canonical `text` and the `squares` it touches.
class Step(NamedTuple):
    """A man moves (or captures): `e2e4`, `e7e8q`, castling as the king's step `e1g1`."""
    move: chess.Move

    @property
    def text(self) -> str:
        return self.move.uci()

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.move.from_square), chess.square_name(self.move.to_square))


class Drop(NamedTuple):
    """A man from hand, or a placement, onto an empty square: `N@e4`."""
    letter: str        # upper case, the kind of man
    square: int

    @property
    def text(self) -> str:
        return f"{self.letter.upper()}@{chess.square_name(self.square)}"

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.square),)


class Swap(NamedTuple):
    """Two men exchange squares: `f8/g7`; `a1/a4n` when the swap promotes a pawn to a knight."""
    first: int
    second: int
    promotion: int | None = None

    @property
    def text(self) -> str:
        promo = chess.piece_symbol(self.promotion) if self.promotion else ""
        return f"{chess.square_name(self.first)}/{chess.square_name(self.second)}{promo}"

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.first), chess.square_name(self.second))


class Mirror(NamedTuple):
    """A man copies another's move in mirror image: `a2|h2`."""
    first: int
    second: int

    @property
    def text(self) -> str:
        return f"{chess.square_name(self.first)}|{chess.square_name(self.second)}"

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.first), chess.square_name(self.second))


class Pass(NamedTuple):
    """The player passes this part: `pass`."""

    @property
    def text(self) -> str:
        return "pass"

    @property
    def squares(self) -> tuple[str, ...]:
        return ()


Part = Step | Drop | Swap | Mirror | Pass
PART_KINDS = {Step: "step", Drop: "drop", Swap: "swap", Mirror: "mirror", Pass: "pass"}   # BoardView.part_kinds
Turn = tuple[Part, ...]
# A turn of a variant whose men are data: a step or a drop, then the parts that must follow it.
FairyTurn = tuple[Step | Drop, ...]
# A variant's own shape of turn, e.g. `tuple[Step] | tuple[Step, Swap]`: what its hooks take and return.
T = TypeVar("T", bound=Turn)
P = TypeVar("P", bound=Part)   # the shape of a variant's first parts (`Step`, `Step | Drop`)

_SQUARE = r"[a-h][1-8]"
PART_SHAPES = {
    "step": re.compile(rf"{_SQUARE}{_SQUARE}[qrbnk]?"),
    "drop": re.compile(rf"[PNBRQK]@{_SQUARE}"),
    "swap": re.compile(rf"{_SQUARE}/{_SQUARE}[qrbn]?"),
    "mirror": re.compile(rf"{_SQUARE}\|{_SQUARE}"),
    "pass": re.compile("pass"),
}


def turn_text(turn: Iterable[Part]) -> str:
    return " ".join(part.text for part in turn)


def label_text(parts: Iterable[str]) -> str:
    """A label from its parts as a player writes them: `["Nxg7", "a2/b2"]` -> "Nxg7, a2/b2"."""
    return LABEL_JOIN.join(parts)


def part_shape(text: str) -> str | None:
    """Which kind of part `text` is written as ("step", "drop", ...), or None."""
    for name, pattern in PART_SHAPES.items():
        if pattern.fullmatch(text):
            return name
    return None


class Listing:
    """A position's legal turns, worked out part by part on demand (for searches): `firsts`, the
    first parts by text (one may have no legal completion); `completions(first)`, the whole turns
    that begin with one, each first part completed once by the variant's own generator. Its truth
    is whether any turn exists, found by completing first parts in order until one has a turn.
    (All the turns at once are `whole_turns` over the same split.)"""

    def __init__(self, firsts: Iterable[Part], complete: Callable[[Part], Mapping[str, Turn]]) -> None:
        self._pending = iter(firsts)   # first parts not listed yet (judging a position needs only one)
        self._firsts: dict[str, Part] = {}
        self._complete = complete
        self._done: dict[str, Mapping[str, Turn]] = {}
        self.known: dict[str, Turn] = {}   # every turn completed so far

    @property
    def firsts(self) -> dict[str, Part]:
        for _ in self._each():
            pass
        return self._firsts

    def _each(self) -> Iterator[str]:
        """The first parts' texts in order, listing more only as they are asked for."""
        yield from list(self._firsts)
        for part in self._pending:
            self._firsts[part.text] = part
            yield part.text

    def completions(self, first: str) -> Mapping[str, Turn]:
        found = self._done.get(first)
        if found is None:
            found = self._done[first] = self._complete(self._firsts.get(first) or self.firsts[first])
            self.known.update(found)
        return found

    def any_begins(self, picked: Callable[[Part], bool]) -> bool:
        """Does a turn begin with a first part `picked` says yes to? (first parts listed only as far as needed)"""
        return any(picked(self._firsts[first]) and self.completions(first) for first in self._each())

    def __bool__(self) -> bool:
        return bool(self.known) or any(self.completions(first) for first in self._each())


def whole_turns(firsts: Iterable[P], complete: Callable[[P], Mapping[str, T]]) -> dict[str, T]:
    """Every turn of a split (`PartsVariant.split`) at once: each first part's completions, in order."""
    out: dict[str, T] = {}
    for first in firsts:
        out.update(complete(first))
    return out


# -- hands in FEN (crazyhouse convention) --------------------------------------------------------
def sort_hand(letters: str) -> str:
    return "".join(sorted(letters, key=lambda c: (HAND_ORDER.find(c.upper()), c.islower())))


def split_hands(board_field: str) -> tuple[str, str | None]:
    """`rnbqkbnr/.../RNBQKBNR[Nb]` -> (board part, "Nb"); no bracket -> (field, None)."""
    match = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", board_field)
    if match:
        return match.group(1), match.group(2)
    if "[" in board_field or "]" in board_field:
        raise ValueError("Men in hand go in one bracket after the board, like [Nb].")
    return board_field, None


def parse_crazyhouse_hands(text: str) -> tuple[str, str]:
    """"NPb" -> ("NP", "B"): upper case is White's hand, lower case Black's."""
    for letter in text:
        if letter.upper() not in HAND_ORDER:
            raise ValueError(f"{letter!r} cannot be a man in hand.")
    white = sort_hand("".join(c for c in text if c.isupper()))
    black = sort_hand("".join(c.upper() for c in text if c.islower()))
    return white, black


def format_crazyhouse_hands(hands: tuple[str, str]) -> str:
    return sort_hand(hands[0].upper()) + sort_hand(hands[1].lower())


def add_to_hand(hands: tuple[str, str], colour: bool, letter: str) -> tuple[str, str]:
    i = 0 if colour == chess.WHITE else 1
    new = list(hands)
    new[i] = sort_hand(new[i] + letter)
    return new[0], new[1]


def take_from_hand(hands: tuple[str, str], colour: bool, letter: str) -> tuple[str, str]:
    i = 0 if colour == chess.WHITE else 1
    new = list(hands)
    if letter not in new[i]:
        raise ValueError(f"no {letter} in hand")
    new[i] = new[i].replace(letter, "", 1)
    return new[0], new[1]


# -- refusals by part ---------------------------------------------------------------------------
def explain_by_prefix(parts: list[str], turns: Mapping[str, Turn]) -> str:
    """A sentence naming the first part of `parts` that no legal turn continues with."""
    for i in range(len(parts)):
        head = " ".join(parts[: i + 1])
        if not any(t == head or t.startswith(head + " ") for t in turns):
            if i == 0:
                return f"{parts[0]} is not a legal first part of a turn here."
            nexts = following(parts[:i], turns)
            if not nexts:
                return f"{' '.join(parts[:i])} is a whole turn: nothing follows it."
            return (f"{' '.join(parts[:i])} is fine, but {parts[i]} cannot follow it: "
                    f"{counted(len(nexts), 'part')} can, e.g. {example(parts[:i], turns)}.")
    nexts = following(parts, turns)
    if nexts:
        return (f"{' '.join(parts)} is not a whole turn: it needs one more part, "
                f"e.g. {example(parts, turns)}.")
    return f"{' '.join(parts)} is not a legal turn here."


def following(parts: list[str], turns: Mapping[str, Turn]) -> set[str]:
    head = " ".join(parts) + " "
    n = len(parts)
    return {t.split(" ")[n] for t in turns if t.startswith(head)}


def example(parts: list[str], turns: Mapping[str, Turn]) -> str:
    options = sorted(following(parts, turns))
    return " ".join([*parts, options[0]]) if options else ""
