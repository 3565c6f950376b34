"""A small generic board model for variants python-chess cannot play (other sizes, other men).

Squares are names ("c3") at every boundary; (file, rank) integers from 0 only inside generators.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping

from .core import square_name

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
SLIDES = {"r": ORTHOGONAL, "b": DIAGONAL, "q": ORTHOGONAL + DIAGONAL}
LEAPS = {"n": KNIGHT, "k": ORTHOGONAL + DIAGONAL}


@dataclass(frozen=True)
class Grid:
    files: int
    ranks: int

    def squares(self) -> list[str]:
        """All squares, rank by rank from the top, files left to right (FEN order)."""
        return [square_name(f, r) for r in reversed(range(self.ranks)) for f in range(self.files)]

    def coords(self, square: str) -> tuple[int, int]:
        file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
        if not self.contains(file, rank):
            raise ValueError(f"{square} is not on the board")
        return file, rank

    def contains(self, file: int, rank: int) -> bool:
        return 0 <= file < self.files and 0 <= rank < self.ranks

    def is_square(self, text: str) -> bool:
        try:
            self.coords(text)
        except (ValueError, IndexError):
            return False
        return True

    def step(self, square: str, df: int, dr: int) -> str | None:
        f, r = self.coords(square)
        return square_name(f + df, r + dr) if self.contains(f + df, r + dr) else None

    def ray(self, square: str, df: int, dr: int) -> Iterator[str]:
        """Squares from `square` (exclusive) to the edge in one direction."""
        f, r = self.coords(square)
        f, r = f + df, r + dr
        while self.contains(f, r):
            yield square_name(f, r)
            f, r = f + df, r + dr

    def is_light(self, square: str) -> bool:
        f, r = self.coords(square)
        return (f + r) % 2 == 1

    def parse_placement(self, field: str, letters: str) -> dict[str, str]:
        """A FEN board field into {square: letter}; `letters` lists the allowed men."""
        rows = field.split("/")
        if len(rows) != self.ranks:
            raise ValueError(f"The board needs {self.ranks} ranks separated by '/'.")
        pieces: dict[str, str] = {}
        for index, row in enumerate(rows):
            rank, file = self.ranks - 1 - index, 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                elif ch in letters:
                    if file < self.files:
                        pieces[square_name(file, rank)] = ch
                    file += 1
                else:
                    raise ValueError(f"Unknown man {ch!r} in the board field.")
            if file != self.files:
                raise ValueError(f"Rank {rank + 1} must have {self.files} squares.")
        return pieces

    def placement(self, pieces: Mapping[str, str]) -> str:
        rows = []
        for rank in reversed(range(self.ranks)):
            row, empty = "", 0
            for file in range(self.files):
                man = pieces.get(square_name(file, rank))
                if man is None:
                    empty += 1
                else:
                    row += (str(empty) if empty else "") + man
                    empty = 0
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)
