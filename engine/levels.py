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
    4      club          3        4,000    0.8 s     0              yes
    5      strong club   4        8,000    1.2 s     0              yes
    6      expert        5       16,000    2.0 s     0              yes
    7      strongest     64      32,000    5.0 s     0              yes

Level 1 searches one ply without following captures (it takes a defended man and does not see the
recapture) and picks at random among the moves within three pawns of its best: often a clearly
worse move. From level 4 up a level plays its best move, and each searches twice the positions of
the one below: the budget, not the depth, is what the upper levels reach first, so the budget
separates them. A node is one position searched (about 12,000 a second in standard chess on one
idle core, so there each budget takes about its level's time or less; fewer in variants whose turns
are costly to list, where the clock stops the upper levels first and their times, 1.5 to 2.5 times
the one below, separate them). benchmarks/engine_ladder.py measures each level against the one below.

There were eight levels. An eighth of 64,000 positions did not beat the seventh's 32,000 (24.5/48 = 51%
in the ladder, half of them with late quiet turns searched less deeply), so the top level is
the seventh, with the eighth's 5 s (where its budget takes longer than 3 s) and no depth limit.
Migration 009 files games and records kept from then under level 7, named "strongest" (a level-8
seat and the old "master" seventh alike; a record against level 8 joins the one against level 7);
a level-8 seat it could not see (written afterwards by a process still on eight levels) plays at
the top level (bot/service/seats.py), and such a record counts as the top level's in /profile.
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
    Level(4, "club", 3, 0.8, 0, True, 4_000),
    Level(5, "strong club", 4, 1.2, 0, True, 8_000),
    Level(6, "expert", 5, 2.0, 0, True, 16_000),
    Level(7, "strongest", 64, 5.0, 0, True, 32_000),
)
MAX_LEVEL = len(LEVELS)
DEFAULT_LEVEL = 3


def level(number: int) -> Level:
    if type(number) is not int or not 1 <= number <= MAX_LEVEL:
        raise ValueError(f"The level is a whole number from 1 to {MAX_LEVEL}.")
    return LEVELS[number - 1]
