"""Goal features: what each variant's own goal makes good or bad beyond material, as functions of a
`Seen` position giving centipawns for White (positive: good for White). Named in `profiles.PROFILES`.

Each reads only what the rules show (men, hands, the FEN's extra fields): the rules decide the
goal itself (a won position is a terminal node of the search, never judged here). A feature that
reads the FEN's fields says so (`reads_fen`), so that only its variants pay for the FEN."""
from __future__ import annotations

from typing import Callable

from .board import BLACK, WHITE, Seen

Feature = Callable[[Seen], int]


def reads_fen(feature: Feature) -> Feature:
    feature.reads_fen = True   # type: ignore[attr-defined]
    return feature


def _both(score: Callable[[Seen, str], int]) -> Feature:
    """A feature scored per side, White's minus Black's."""
    return lambda seen: score(seen, WHITE) - score(seen, BLACK)


def last_of(letters: str, penalty: int) -> Feature:
    """A side down to its last man among `letters` (its loss when that one goes) is in danger."""
    return _both(lambda seen, side: -penalty if seen.count(side, letters) == 1 else 0)


@reads_fen
def zoo_kinds(seen: Seen) -> int:
    """Zoo: kinds captured by each side (7th FEN field `pn/-`); four kinds win."""
    table = (0, 60, 180, 420, 0)
    if len(seen.fields) < 7 or "/" not in seen.fields[6]:
        return 0
    white, black = (kinds.strip("-") for kinds in seen.fields[6].split("/"))
    return table[min(len(white), 4)] - table[min(len(black), 4)]


@reads_fen
def checks_left(seen: Seen) -> int:
    """Moderation: checks still allowed (7th field `+W+B` counts checks made, three allowed)."""
    field = seen.fields[6] if len(seen.fields) >= 7 else ""
    parts = field.split("+")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return 0
    return 15 * ((3 - int(parts[1])) - (3 - int(parts[2])))


@reads_fen
def spartan_clock(seen: Seen) -> int:
    """Spartan: White wins if Black has not mated by move 60: each move gone is White's."""
    move = int(seen.fields[5]) if len(seen.fields) >= 6 and seen.fields[5].isdigit() else 1
    return 12 * max(0, move - 20)


def escort(seen: Seen) -> int:
    """Entourage: a piece next to its own King is a target (its capture wins)."""
    def exposed(seen: Seen, side: str) -> int:
        kings = seen.squares(side, "k")
        if not kings:
            return 0
        near = seen.shape.around[(kings & -kings).bit_length() - 1]
        return -60 * (near & seen.all(side) & ~seen.squares(side, "pk")).bit_count()
    return _both(exposed)(seen)


def back_rank(seen: Seen) -> int:
    """Xenophobic: men landed on c-f of the enemy back rank (the goal squares)."""
    goal = 0b00111100   # files c-f of a rank

    def landed(seen: Seen, side: str) -> int:
        shape = seen.shape
        far = shape.rank[shape.ranks - 1 if side == WHITE else 0]
        files = far & (goal << (shape.files * (shape.ranks - 1) if side == WHITE else 0))
        return 40 * (files & seen.all(side) & ~seen.squares(side, "k")).bit_count()
    return _both(landed)(seen)


def head_count(per_man: int) -> Feature:
    """Every man counts (Shrapnel: remove them all; Tyrant: leave only monarchs)."""
    return _both(lambda seen, side: per_man * (seen.all(side) & ~seen.squares(side, "kq")).bit_count())


def uses_fen(features: tuple[Feature, ...]) -> bool:
    return any(getattr(feature, "reads_fen", False) for feature in features)



def shelter(royal: str, guard: int = 10, threat: int = 15) -> Feature:
    """Mate goals: each royal man among `royal` with its own men next to it (`guard` each) and no
    enemy men next to it (`threat` each). Negative weights where a side wants its own monarch open
    (Series-Helpmate wins when the opponent could mate; Counselor's own Queen mated wins)."""
    def score(seen: Seen, side: str) -> int:
        around = seen.shape.around
        own, enemy = seen.owned if side == WHITE else seen.owned[::-1]
        total = 0
        royals = seen.squares(side, royal)
        while royals:
            low = royals & -royals
            near = around[low.bit_length() - 1]
            total += guard * (near & own).bit_count() - threat * (near & enemy).bit_count()
            royals ^= low
        return total
    return _both(score)
