"""What the evaluation reads off a position: its men by owner and square, from `Game.view()` and
`Game.fen()` (the public rules API), read once per position."""
from __future__ import annotations

from dataclasses import dataclass

import rules

WHITE, BLACK = rules.WHITE, rules.BLACK


@dataclass(frozen=True)
class Man:
    letter: str      # lower case kind ("p", "n", ... or a fairy man's letter)
    owner: str       # "white" or "black": who moves it (the view's owner where colour is not owner)
    file: int        # 0-based
    rank: int        # 0-based, from White's side
    advance: int     # ranks from its owner's first rank (0 .. ranks-1)


@dataclass(frozen=True)
class Seen:
    """One position as the evaluation sees it."""

    men: tuple[Man, ...]
    hands: dict[str, str]       # owner -> letters in hand (lower case kinds)
    files: int
    ranks: int
    fields: tuple[str, ...]     # the FEN's fields (extra state from the 7th on)
    turn: str
    checks: int                 # how many royal men of the side to move stand in check
    at: dict[str, Man]          # square name -> the man there

    def count(self, owner: str, letters: str) -> int:
        return sum(1 for man in self.men if man.owner == owner and man.letter in letters)

    def of(self, owner: str, letter: str) -> list[Man]:
        return [man for man in self.men if man.owner == owner and man.letter == letter]


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def square(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


def seen(game: rules.Game, fen: str) -> Seen:
    view = game.view()
    owners = view.owners
    men = []
    at = {}
    for name, letter in view.pieces.items():
        owner = owners.get(name) if owners else None
        if owner is None:
            owner = WHITE if letter.isupper() else BLACK
        file, rank = square(name)
        advance = rank if owner == WHITE else view.ranks - 1 - rank
        man = at[name] = Man(letter.lower(), owner, file, rank, advance)
        men.append(man)
    hands = {colour: letters.lower() for colour, letters in (view.hands or {}).items()}
    return Seen(tuple(men), hands, view.files, view.ranks, tuple(fen.split(" ")), view.turn, len(view.checks), at)
