"""Colours and geometry: what a board looks like, apart from what is on it."""
from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class Theme:
    """Board colours (lichess "brown" squares; highlight colours as lichess blends them)."""

    light: RGB = (240, 217, 181)
    dark: RGB = (181, 136, 99)
    frame: RGB = (48, 46, 43)
    coords: RGB = (200, 194, 186)
    last_move: RGBA = (155, 199, 0, 105)       # yellow-green wash on both squares
    mark: RGBA = (255, 196, 0, 120)            # golden wash on goal squares ...
    mark_ring: RGBA = (214, 150, 0, 255)       # ... plus an inner ring, so it reads apart from last move
    check_inner: RGB = (255, 0, 0)             # radial red under a king in check
    check_outer: RGB = (158, 0, 0)
    white_disc: RGB = (250, 250, 250)          # unknown men: a labelled disc
    black_disc: RGB = (34, 34, 34)
    disc_edge: RGB = (0, 0, 0)
    part: RGB = (40, 100, 190)                 # the parts of a turn of several: arrows, swap and drop marks


THEME = Theme()

BOARD_PX = 480      # an 8x8 board is 480 px of squares plus the frame: 520 px wide
MAX_SQUARE = 88     # small boards get bigger squares, up to this (5x5: 440 px + frame)
MIN_SQUARE = 16


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one board size: square size, frame width, the image size."""

    files: int
    ranks: int
    square: int

    @staticmethod
    def for_board(files: int, ranks: int, square: int | None = None) -> "Layout":
        if not (1 <= files <= 26 and 1 <= ranks <= 99):
            raise ValueError(f"Cannot draw a {files}x{ranks} board")
        if square is None:
            square = max(MIN_SQUARE, min(MAX_SQUARE, BOARD_PX // max(files, ranks)))
        if square < MIN_SQUARE:
            raise ValueError(f"Squares of {square} px are too small to draw")
        return Layout(files, ranks, square)

    @property
    def margin(self) -> int:
        """Width of the frame that carries the coordinates."""
        return max(12, round(8 + self.square * 0.24))

    @property
    def font_px(self) -> int:
        return max(9, round(self.margin * 0.66))

    @property
    def size(self) -> tuple[int, int]:
        return (self.files * self.square + 2 * self.margin, self.ranks * self.square + 2 * self.margin)

    def cell(self, file: int, rank: int, flipped: bool) -> tuple[int, int]:
        """Top-left pixel of square (file, rank), 0-based from a1. flipped: black at the bottom."""
        col = self.files - 1 - file if flipped else file
        row = rank if flipped else self.ranks - 1 - rank
        return (self.margin + col * self.square, self.margin + row * self.square)

    def box(self, square: str, orientation: str = "white") -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of a named square, right/bottom exclusive."""
        parsed = parse_square(square, self.files, self.ranks)
        if parsed is None:
            raise ValueError(f"{square!r} is not on a {self.files}x{self.ranks} board")
        x, y = self.cell(*parsed, orientation == "black")
        return (x, y, x + self.square, y + self.square)


_parsed: dict[tuple[str, int, int], tuple[int, int] | None] = {}


def parse_square(name: str, files: int, ranks: int) -> tuple[int, int] | None:
    """"e4" -> (4, 3); None for anything not on the board."""
    key = (name, files, ranks)
    try:
        return _parsed[key]
    except (KeyError, TypeError):   # TypeError: a name that cannot be a key is no square either
        pass
    found = _parse_square(name, files, ranks)
    if isinstance(name, str) and len(_parsed) < 100_000:   # square names are few; junk is not kept forever
        _parsed[key] = found
    return found


def _parse_square(name: str, files: int, ranks: int) -> tuple[int, int] | None:
    if not isinstance(name, str) or len(name) < 2 or not name[1:].isdigit():
        return None
    file, rank = ord(name[0].lower()) - ord("a"), int(name[1:]) - 1
    if 0 <= file < files and 0 <= rank < ranks:
        return file, rank
    return None
