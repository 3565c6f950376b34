"""The static evaluation: material (men on the board and in hand), pawns' advance, a little
centralisation and mobility, then the variant's goal features (profiles.py). Centipawns for the
side to move."""
from __future__ import annotations

import rules

from .board import WHITE, Seen
from .profiles import OTHER_MAN, Profile

CENTRE = 4   # centipawns per step towards the centre, for men that are not pawns or worth nothing


def white_score(seen: Seen, profile: Profile) -> int:
    values = profile.values
    pawns = profile.pawns
    mid_f, mid_r = (seen.files - 1) / 2, (seen.ranks - 1) / 2
    total = 0
    for man in seen.men:
        value = values.get(man.letter, OTHER_MAN)
        if man.letter == "p":
            value += pawns[min(man.advance, len(pawns) - 1)]
        elif value:
            value += int(CENTRE * (mid_f - max(abs(man.file - mid_f), abs(man.rank - mid_r))))
        total += value if man.owner == WHITE else -value
    if profile.in_hand:
        for owner, letters in seen.hands.items():
            held = int(profile.in_hand * sum(values.get(letter, OTHER_MAN) for letter in letters))
            total += held if owner == WHITE else -held
    for feature in profile.features:
        total += feature(seen)
    return total


def evaluate(seen: Seen, profile: Profile, game: rules.Game) -> int:
    """The position for the side to move. `game` is at that position: its legal turns are already
    listed by the search (judging the position lists them), so mobility costs nothing more."""
    score = white_score(seen, profile)
    if seen.turn != WHITE:
        score = -score
    if profile.mobility:
        score += profile.mobility * min(len(game.legal_moves()), 40)
    return score
