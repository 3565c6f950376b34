"""The static evaluation: material (men on the board and in hand), pawns' advance, a little
centralisation and mobility, then the variant's goal features (profiles.py). Centipawns for the
side to move. Counted by popcounts over the men's bitboards (board.py)."""
from __future__ import annotations

from .board import WHITE, Seen
from .profiles import OTHER_MAN, Profile


def white_score(seen: Seen, profile: Profile) -> int:
    values = profile.values
    pawns = profile.pawns
    shape = seen.shape
    total = 0
    for letter, (white, black) in seen.kinds.items():
        value = values.get(letter, OTHER_MAN)
        total += value * (white.bit_count() - black.bit_count())
        if letter == "p":
            last = shape.ranks - 1
            for ranks_up, mask in enumerate(shape.rank):
                bonus = pawns[min(ranks_up, len(pawns) - 1)]
                if bonus:
                    total += bonus * ((white & mask).bit_count() - (black & shape.rank[last - ranks_up]).bit_count())
        elif value:
            for bonus, mask in shape.centre:
                total += bonus * ((white & mask).bit_count() - (black & mask).bit_count())
    if profile.in_hand:
        for owner, letters in seen.hands.items():
            held = int(profile.in_hand * sum(values.get(letter, OTHER_MAN) for letter in letters))
            total += held if owner == WHITE else -held
    for feature in profile.features:
        total += feature(seen)
    return total


def evaluate(seen: Seen, profile: Profile, turns: int) -> int:
    """The position for the side to move, which has `turns` legal turns (the search lists them
    anyway to judge the position, so mobility costs nothing more)."""
    score = white_score(seen, profile)
    if seen.turn != WHITE:
        score = -score
    if profile.mobility:
        score += profile.mobility * min(turns, 40)
    return score
