"""The levels, 1 (beginner) to MAX_LEVEL (strongest), as data: how deep, how many positions and how
long the search goes, whether it looks at captures to the end, and how far below the best a move
may score and still be chosen (a seeded choice among those near-best moves, so that low levels err
like people; the seed is the position and the move number, so the same position gives the same move).

A level is decided by its depth and its budget of positions (`nodes`), which do not depend on the
machine; its time is only the most a player waits (on a slow or busy machine the top levels stop
by the clock before their budget). `choose(..., nodes=)` replaces the budget; `seconds=` the time.

    level  name          depth  positions  time   near-best margin  captures to the end
    1      beginner      1          200    0.05 s  300 centipawns   no
    2      novice        1          600    0.2 s   120              yes
    3      casual        2        2,000    0.5 s    50              yes
    4      club          3        5,000    1.0 s    20              yes
    5      strong club   4       10,000    1.5 s     8              yes
    6      expert        5       20,000    2.5 s     0              yes
    7      master        7       40,000    3.5 s     0              yes
    8      strongest     64      80,000    5.0 s     0              yes

Level 1 searches one ply without following captures (it takes a defended man and does not see the
recapture) and picks at random among the moves within three pawns of its best: often a clearly
worse move. A node is one position searched (about 10,000 a second in standard chess on one idle
core; fewer in variants whose turns are costly to list).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    depth: int          # the deepest iteration
    seconds: float      # the default time per move (the most a player waits)
    margin: int         # centipawns below the best that a chosen move may score
    quiescence: bool    # search captures to a quiet position at the horizon
    nodes: int          # the default budget of positions searched


LEVELS = (
    Level(1, "beginner", 1, 0.05, 300, False, 200),
    Level(2, "novice", 1, 0.2, 120, True, 600),
    Level(3, "casual", 2, 0.5, 50, True, 2_000),
    Level(4, "club", 3, 1.0, 20, True, 5_000),
    Level(5, "strong club", 4, 1.5, 8, True, 10_000),
    Level(6, "expert", 5, 2.5, 0, True, 20_000),
    Level(7, "master", 7, 3.5, 0, True, 40_000),
    Level(8, "strongest", 64, 5.0, 0, True, 80_000),
)
MAX_LEVEL = len(LEVELS)
DEFAULT_LEVEL = 3


def level(number: int) -> Level:
    if type(number) is not int or not 1 <= number <= MAX_LEVEL:
        raise ValueError(f"The level is a whole number from 1 to {MAX_LEVEL}.")
    return LEVELS[number - 1]
