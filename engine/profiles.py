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
Goal features (features.py), one or more per variant, grouped below by the kind of goal: a mate
goal scores its royal men's shelter (`shelter`: own men next to them, enemy men not), turned round
where a side wants its own monarch open (Series-Helpmate, Counselor's Queen); a capture goal makes
the men to capture dear and a side's last one a danger (`last_of`, Zoo's kinds, Entourage's escort);
Glory's and Kingmaker's pawns count by ranks advanced; Moderation's checks left, Spartan's moves
towards move 60 and Xenophobic's landings are read from the position; where having no move loses
(Prop, Dowager, Separation, Kingmaker), mobility weighs more. The rules decide every goal itself.
Tuning: the values were derived as above, then checked by self-play: benchmarks/engine_tune.py
plays a variant's profile against the same profile with one change, both at one level's budget of
positions; a change is meant to stay only where it scores better over enough games (docs/engine.md
says what was run: so far too few games to decide, so the features stand on the reasoning above).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import features as f
from .features import Feature

FIDE = {"p": 100, "n": 300, "b": 320, "r": 500, "q": 900, "k": 0}
OTHER_MAN = 300          # a man of a kind no table names
GLORY_PAWNS = (0, 0, 5, 15, 40, 90, 260, 0)
PAWN_PUSH = (0, 0, 4, 10, 18, 30, 50, 0)   # a pawn's ranks advanced, where promotion is the usual prize
KINGMAKER_PAWNS = (0, 0, 8, 20, 40, 70, 120, 0)   # the first promotion makes the enemy's King
KING = f.shelter("k")   # the FIDE King's shelter, where mate is the goal


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
    # Checkmate goals: material, and the royal man's shelter (own men next to it, no enemy men).
    "standard": Profile(features=(KING,)),
    "blunder-mate": Profile(features=(KING,)),   # the look-ahead win is the rules' (a terminal node)
    "contravention": Profile(features=(KING,)),
    "deadline": Profile(features=(KING,)),
    "society": Profile(_values(p=150, n=250, b=260, r=320, q=450), features=(KING,)),   # only pawns are ever taken
    "submission": Profile(features=(KING,)),     # a check answered only by a quiet King move: an open King loses
    "triple-check": Profile(features=(f.shelter("k", 10, 30),)),   # a safe, defended, quiet check wins: men near the King
    "ultimate": Profile(features=(f.shelter("k", 15, 30),)),       # many checks are mate
    "linkage": Profile(features=(f.shelter("k", 0, 25),)),         # enemy men by the King complete lines of four
    "glory": Profile(pawns=GLORY_PAWNS, features=(KING,)),         # or the flag: a pawn on the enemy's 2nd rank
    "moderation": Profile(quiescence=False, features=(f.checks_left, KING)),   # three checks, a fourth must mate
    "spartan": Profile(features=(f.spartan_clock, KING)),          # Black must mate by move 60
    "xenophobic": Profile(features=(f.back_rank, KING)),           # or land on c-f of the enemy back rank
    "balanced-swap": Profile(quiescence=False, mobility=0, features=(KING,)),   # hundreds of turns: a swap undoes any capture count
    # Royal men other than (or beside) the King.
    "concurrent": Profile(_values(r=450, b=350, n=325, q=0, k=0), features=(f.shelter("kq"),)),   # both monarchs royal
    "counselor": Profile(_values(q=0), features=(KING, f.shelter("q", -10, -15))),   # your own Queen mated wins
    "dowager": Profile(_values(q=0, k=300), mobility=6, features=(f.shelter("q"),)),   # royal Queen; no move loses
    "regent": Profile(_values(q=0, k=300), features=(f.shelter("q"),)),   # the Queen is royal, the King a commoner
    "separation": Profile(_values(n=900, q=0), mobility=6, features=(f.shelter("kq"),)),   # no move but across quadrants loses
    "reentrant": Profile(_values(q=0, k=0, n=300, r=500), in_hand=1.0, quiescence=False, pawns=(0,) * 8,
                         features=(f.shelter("kq"),)),   # captured men come back: in hand as on the board
    "series-helpmate": Profile(features=(f.shelter("k", -10, -15),)),   # win when the opponent could mate you
    # Capture goals: the men to capture are worth most, and a side down to its last one is in danger.
    "clerical": Profile(_values(b=900, k=300), features=(f.last_of("b", 300),)),
    "decastellation": Profile(_values(r=900, k=2000), features=(f.last_of("r", 400),)),
    "donnybrook": Profile(_values(k=1500, q=1500), in_hand=0.9, quiescence=False, features=(f.last_of("kq", 500),)),
    "dynastic": Profile(_values(k=1500, q=1500), features=(f.last_of("kq", 500),)),
    "entourage": Profile(_values(k=2000), features=(f.escort,)),
    "junta": Profile(_values(n=1000, k=800), features=(f.last_of("n", 400),)),
    "twilight": Profile(features=(f.last_of("p", 150), f.last_of("nb", 200), f.last_of("qr", 250), KING)),
    "zoo": Profile(_values(k=300), features=(f.zoo_kinds,)),       # kinds captured by each side
    "shrapnel": Profile(_values(k=300), features=(f.head_count(40),)),   # remove every enemy man
    "tyrant": Profile(_values(k=0, q=0, p=100, n=150, b=150, r=150), quiescence=False, features=(f.head_count(30),)),
    # Moves as the goal.
    "kingmaker": Profile(pawns=KINGMAKER_PAWNS, mobility=6),   # promote first (it makes the enemy King); no move loses
    "prop": Profile(mobility=8),                                  # leave the opponent without a move
}

GENERIC = Profile()   # material and mobility: any two-player variant without a profile of its own


def profile(slug: str) -> Profile:
    return PROFILES.get(slug, GENERIC)
