"""The levels, 1 (beginner) to MAX_LEVEL (strongest), as data: how deep and how long the search
goes, whether it looks at captures to the end, and how far below the best a move may score and
still be chosen (a seeded choice among those near-best moves, so that low levels err like people)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    depth: int          # the deepest iteration
    seconds: float      # the default time per move
    margin: int         # centipawns below the best that a chosen move may score
    quiescence: bool    # search captures to a quiet position at the horizon


LEVELS = (
    Level(1, "beginner", 1, 0.05, 250, False),
    Level(2, "novice", 1, 0.2, 120, True),
    Level(3, "casual", 2, 0.5, 50, True),
    Level(4, "club", 3, 1.0, 20, True),
    Level(5, "strong club", 4, 1.5, 8, True),
    Level(6, "expert", 5, 2.5, 0, True),
    Level(7, "master", 7, 3.5, 0, True),
    Level(8, "strongest", 64, 5.0, 0, True),
)
MAX_LEVEL = len(LEVELS)
DEFAULT_LEVEL = 3


def level(number: int) -> Level:
    if type(number) is not int or not 1 <= number <= MAX_LEVEL:
        raise ValueError(f"The level is a whole number from 1 to {MAX_LEVEL}.")
    return LEVELS[number - 1]
