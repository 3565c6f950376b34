"""Extra state kept for each side, White's then Black's, written as one FEN field (field 7), as data.

    Counts(top, refusal)   a count per side from 0 to `top` (one digit), written `+W+B` (`+2+0`);
                           any other field 7 is refused with the sentence `refusal`
    Kinds(name, what)      kinds of men per side, written `W/B` in lower-case letters in the order
                           `pnbrqk`, `-` for none (`pn/-`); refusals name the variant and `what`

A `ChessVariant` declares one as its `state_field`; it then reads and writes field 7 with it, and a
plain six-field FEN gives the variant's `initial_state`. `of(pair, colour)` is one side's value;
`Counts.add` and `Kinds.add` give the pair with one side's value grown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, TypeVar

import chess

S = TypeVar("S")
T = TypeVar("T")

_COUNTS = re.compile(r"\+([0-9])\+([0-9])")


class StateField(Protocol[S]):
    def parse(self, fields: list[str]) -> S: ...

    def format(self, state: S) -> list[str]: ...


def of(pair: tuple[T, T], colour: chess.Color) -> T:
    """`colour`'s value in a (white, black) pair."""
    return pair[0] if colour == chess.WHITE else pair[1]


def replaced(pair: tuple[T, T], colour: chess.Color, value: T) -> tuple[T, T]:
    """The (white, black) pair with `colour`'s value replaced by `value`."""
    return (value, pair[1]) if colour == chess.WHITE else (pair[0], value)


@dataclass(frozen=True)
class Counts:
    top: int
    refusal: str

    def parse(self, fields: list[str]) -> tuple[int, int]:
        match = _COUNTS.fullmatch(fields[0]) if len(fields) == 1 else None
        if match is None or max(int(match[1]), int(match[2])) > self.top:
            raise ValueError(self.refusal)
        return int(match[1]), int(match[2])

    def format(self, state: tuple[int, int]) -> list[str]:
        return [f"+{state[0]}+{state[1]}"]

    def add(self, state: tuple[int, int], colour: chess.Color) -> tuple[int, int]:
        """`state` with one more for `colour` (never above `top`)."""
        return replaced(state, colour, min(of(state, colour) + 1, self.top))


@dataclass(frozen=True)
class Kinds:
    name: str                 # the variant's name
    what: str                 # what the kinds are, e.g. "captured kinds"
    order: str = "pnbrqk"     # the kinds, in the order they are written

    def parse(self, fields: list[str]) -> tuple[str, str]:
        if len(fields) != 1:
            raise ValueError(f"{self.name} FEN has at most seven fields; the seventh is W/B, e.g. pn/-.")
        if fields[0] == "-":
            return "", ""
        parts = fields[0].split("/")
        if len(parts) != 2:
            raise ValueError(f"The seventh field lists {self.what} as W/B, e.g. pn/-, not {fields[0]!r}.")
        return self.kinds(parts[0]), self.kinds(parts[1])

    def kinds(self, text: str) -> str:
        text = text.lower()
        if text == "-":
            return ""
        if not text or any(c not in self.order for c in text) or len(set(text)) != len(text):
            raise ValueError(f"{self.what.capitalize()} must be letters from {self.order!r} or '-', not {text!r}.")
        return "".join(k for k in self.order if k in text)

    def format(self, state: tuple[str, str]) -> list[str]:
        return ["/".join(kinds or "-" for kinds in state)]

    def add(self, state: tuple[str, str], colour: chess.Color, piece_type: chess.PieceType) -> tuple[str, str]:
        """`state` with the kind `piece_type` among `colour`'s (once)."""
        letter, kinds = chess.piece_symbol(piece_type), of(state, colour)
        return replaced(state, colour, "".join(k for k in self.order if k in kinds or k == letter))
