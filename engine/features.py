"""Goal features: what each variant's own goal makes good or bad beyond material, as functions of a
`Seen` position giving centipawns for White (positive: good for White). Named in `profiles.PROFILES`.

Each reads only what the rules show (men, hands, the FEN's extra fields): the rules decide the
goal itself (a won position is a terminal node of the search, never judged here)."""
from __future__ import annotations

from typing import Callable

from .board import BLACK, WHITE, Seen

Feature = Callable[[Seen], int]


def _both(score: Callable[[Seen, str], int]) -> Feature:
    """A feature scored per side, White's minus Black's."""
    return lambda seen: score(seen, WHITE) - score(seen, BLACK)


def last_of(letters: str, penalty: int) -> Feature:
    """A side down to its last man among `letters` (its loss when that one goes) is in danger."""
    return _both(lambda seen, side: -penalty if seen.count(side, letters) == 1 else 0)


def pawn_race(table: tuple[int, ...]) -> Feature:
    """Pawns by ranks advanced (Glory's flag on the enemy's second rank, a promotion race)."""
    return _both(lambda seen, side: sum(table[min(m.advance, len(table) - 1)] for m in seen.men
                                        if m.owner == side and m.letter == "p"))


def zoo_kinds(seen: Seen) -> int:
    """Zoo: kinds captured by each side (7th FEN field `pn/-`); four kinds win."""
    table = (0, 60, 180, 420, 0)
    if len(seen.fields) < 7 or "/" not in seen.fields[6]:
        return 0
    white, black = (kinds.strip("-") for kinds in seen.fields[6].split("/"))
    return table[min(len(white), 4)] - table[min(len(black), 4)]


def checks_left(seen: Seen) -> int:
    """Moderation: checks still allowed (7th field `+W+B` counts checks made, three allowed)."""
    field = seen.fields[6] if len(seen.fields) >= 7 else ""
    parts = field.split("+")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return 0
    return 15 * ((3 - int(parts[1])) - (3 - int(parts[2])))


def spartan_clock(seen: Seen) -> int:
    """Spartan: White wins if Black has not mated by move 60: each move gone is White's."""
    move = int(seen.fields[5]) if len(seen.fields) >= 6 and seen.fields[5].isdigit() else 1
    return 12 * max(0, move - 20)


def escort(seen: Seen) -> int:
    """Entourage: a piece next to its own King is a target (its capture wins)."""
    def exposed(side: str) -> int:
        kings = seen.of(side, "k")
        if not kings:
            return 0
        king = kings[0]
        return -60 * sum(1 for m in seen.men if m.owner == side and m.letter not in "pk"
                         and max(abs(m.file - king.file), abs(m.rank - king.rank)) == 1)
    return _both(lambda s, side: exposed(side))(seen)


def back_rank(seen: Seen) -> int:
    """Xenophobic: men landed on c-f of the enemy back rank (the goal squares)."""
    return _both(lambda s, side: 40 * sum(1 for m in s.men if m.owner == side and m.advance == s.ranks - 1
                                          and 2 <= m.file <= 5 and m.letter != "k"))(seen)


def head_count(per_man: int) -> Feature:
    """Every man counts (Shrapnel: remove them all; Tyrant: leave only monarchs)."""
    return _both(lambda seen, side: per_man * sum(1 for m in seen.men if m.owner == side and m.letter not in "kq"))
