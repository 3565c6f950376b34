"""The evaluation of each variant, as data keyed by slug: the value of each man, what men in hand
are worth, whether captures are searched to quiet positions, and the goal's own features.

Values are centipawns of a man of that kind to its owner. FIDE men keep the usual values (P 100,
N 300, B 320, R 500, Q 900). A royal man is worth 0: losing it ends the game, which the search sees
as the end, never as material. Where the goal is to capture a man (Junta's knights,
Decastellation's rooks, Clerical's bishops, the monarchs of Dynastic and Donnybrook, Entourage's
King), that man is worth more than any other, and `last_of` marks a side down to its last one.
Fairy men are valued by how they move, where nobody published values: a man's average number of
moves on an empty 8x8 board against the FIDE men's (a Knight 5.25, a Bishop 8.75, a Rook 14, a Queen
22.75, a King 6.6 -> 300/320/500/900/~300), so Separation's Knight that glides like a Queen is worth a
Queen, Counselor's short-range Queen (one or two squares along any line: ~11.4 moves) about a Rook,
Donnybrook's Queen that steps like a King ~300, a non-royal King (a commoner) ~300.
Tuning: the values were checked in self-play only against the material-greedy player of
benchmarks/engine_strength.py (see there); a variant's values change when a ladder shows a gain.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import features as f
from .features import Feature

FIDE = {"p": 100, "n": 300, "b": 320, "r": 500, "q": 900, "k": 0}
OTHER_MAN = 300          # a man of a kind no table names
GLORY_PAWNS = (0, 0, 5, 15, 40, 90, 260, 0)
PAWN_PUSH = (0, 0, 4, 10, 18, 30, 50, 0)   # a pawn's ranks advanced, where promotion is the usual prize


@dataclass(frozen=True)
class Profile:
    values: dict[str, int] = field(default_factory=lambda: dict(FIDE))
    in_hand: float = 0.0        # a man in hand, as a share of its value on the board
    quiescence: bool = True     # search captures to quiet positions (off where captures come back or checks are rationed)
    pawns: tuple[int, ...] = PAWN_PUSH
    features: tuple[Feature, ...] = ()
    mobility: int = 2           # centipawns per legal turn of the side to move (capped at 40 turns)


def _values(**changes: int) -> dict[str, int]:
    return {**FIDE, **changes}


PROFILES: dict[str, Profile] = {
    "standard": Profile(),
    "balanced-swap": Profile(quiescence=False, mobility=0),   # hundreds of turns: a swap undoes any capture count
    "blunder-mate": Profile(),
    "clerical": Profile(_values(b=900, k=300), features=(f.last_of("b", 300),)),
    "concurrent": Profile(_values(r=450, b=350, n=325, q=0, k=0)),    # both monarchs royal
    "contravention": Profile(),
    "counselor": Profile(_values(q=0)),   # the short-range Queen is royal
    "deadline": Profile(),
    "decastellation": Profile(_values(r=900, k=2000), features=(f.last_of("r", 400),)),
    "donnybrook": Profile(_values(k=1500, q=1500), in_hand=0.9, quiescence=False, features=(f.last_of("kq", 500),)),
    "dowager": Profile(_values(q=0, k=300)),   # the Queen is royal, the King a commoner
    "dynastic": Profile(_values(k=1500, q=1500), features=(f.last_of("kq", 500),)),
    "entourage": Profile(_values(k=2000), features=(f.escort,)),
    "glory": Profile(pawns=GLORY_PAWNS),
    "junta": Profile(_values(n=1000, k=800), features=(f.last_of("n", 400),)),
    "kingmaker": Profile(),
    "linkage": Profile(),
    "moderation": Profile(quiescence=False, features=(f.checks_left,)),
    "prop": Profile(),
    "reentrant": Profile(_values(q=0, k=0, n=300, r=500), in_hand=1.0, quiescence=False, pawns=(0,) * 8),
    "regent": Profile(_values(q=0, k=300)),   # the Queen is royal, the King a commoner
    "separation": Profile(_values(n=900, q=0)),   # the Knight glides like a Queen; the Queen is royal
    "series-helpmate": Profile(),
    "shrapnel": Profile(_values(k=300), features=(f.head_count(40),)),
    "society": Profile(_values(p=150, n=250, b=260, r=320, q=450)),   # only pawns are ever taken
    "spartan": Profile(features=(f.spartan_clock,)),
    "submission": Profile(),
    "triple-check": Profile(),
    "twilight": Profile(features=(f.last_of("p", 150), f.last_of("nb", 200), f.last_of("qr", 250))),
    "tyrant": Profile(_values(k=0, q=0, p=100, n=150, b=150, r=150), quiescence=False, features=(f.head_count(30),)),
    "ultimate": Profile(),
    "xenophobic": Profile(features=(f.back_rank,)),
    "zoo": Profile(_values(k=300), features=(f.zoo_kinds,)),
}

GENERIC = Profile()   # material and mobility: any two-player variant without a profile of its own


def profile(slug: str) -> Profile:
    return PROFILES.get(slug, GENERIC)
