"""What the evaluation reads of a position: its men by kind and owner as bitboards (`Game.men()`),
the hands, and the FEN's fields where a profile's features read them, read once per position.
Counting is popcounts over masks of the board's geometry (`Geometry`), never a walk over men."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

import rules

WHITE, BLACK = rules.WHITE, rules.BLACK
CENTRE = 4   # centipawns per step towards the centre, for men that are not pawns or worth nothing


@dataclass(frozen=True)
class Geometry:
    """Masks of one board size: bit `file + rank * files` is a square."""

    files: int
    ranks: int
    rank: tuple[int, ...]                    # each rank's squares, from White's side
    centre: tuple[tuple[int, int], ...]      # (centipawns, squares) of a man's closeness to the centre
    around: tuple[int, ...]                  # each square's neighbours (a king's step)


@lru_cache(maxsize=None)
def geometry(files: int, ranks: int) -> Geometry:
    def bit(f: int, r: int) -> int:
        return 1 << (f + r * files)

    ranks_masks = tuple(sum(bit(f, r) for f in range(files)) for r in range(ranks))
    mid_f, mid_r = (files - 1) / 2, (ranks - 1) / 2
    centre: dict[int, int] = {}
    for f in range(files):
        for r in range(ranks):
            value = int(CENTRE * (mid_f - max(abs(f - mid_f), abs(r - mid_r))))
            centre[value] = centre.get(value, 0) | bit(f, r)
    around = tuple(sum(bit(f + df, r + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)
                       if (df or dr) and 0 <= f + df < files and 0 <= r + dr < ranks)
                   for r in range(ranks) for f in range(files))
    return Geometry(files, ranks, ranks_masks, tuple((v, m) for v, m in centre.items() if v), around)


@dataclass(frozen=True)
class Seen:
    """One position as the evaluation sees it."""

    kinds: Mapping[str, tuple[int, int]]   # lower-case letter -> squares of (white's, black's) men
    hands: Mapping[str, str]               # owner -> letters in hand (lower case kinds)
    shape: Geometry
    fields: tuple[str, ...]                # the FEN's fields (extra state from the 7th on); () unless a feature reads them
    turn: str
    owned: tuple[int, int]                 # squares of (white's, black's) men

    def squares(self, owner: str, letters: str) -> int:
        side = owner != WHITE
        found = 0
        for letter in letters:
            pair = self.kinds.get(letter)
            if pair:
                found |= pair[side]
        return found

    def all(self, owner: str) -> int:
        return self.owned[owner != WHITE]

    def count(self, owner: str, letters: str) -> int:
        return self.squares(owner, letters).bit_count()

    def advanced(self, owner: str, squares: int, ranks_up: int) -> int:
        """How many of `squares` stand `ranks_up` ranks from `owner`'s first rank."""
        shape = self.shape
        return (squares & shape.rank[ranks_up if owner == WHITE else shape.ranks - 1 - ranks_up]).bit_count()

    def kind_at(self, bit: int) -> tuple[str, str] | None:
        """(letter, owner) of the man on the square of `bit` (1 << square), or None."""
        for letter, (white, black) in self.kinds.items():
            if white & bit:
                return letter, WHITE
            if black & bit:
                return letter, BLACK
        return None


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def square(name: str, files: int = 8) -> int:
    """The bit index of a square name ("e4" -> 28 on 8 files)."""
    return ord(name[0]) - 97 + (int(name[1:]) - 1) * files


def seen(game: rules.Game, fields: bool) -> Seen:
    men = game.men()
    hands = {WHITE: men.hands[0].lower(), BLACK: men.hands[1].lower()} if any(men.hands) else {}
    white = black = 0
    for mine, theirs in men.kinds.values():
        white, black = white | mine, black | theirs
    return Seen(men.kinds, hands, geometry(men.files, men.ranks),
                tuple(game.fen().split(" ")) if fields else (), game.turn, (white, black))
