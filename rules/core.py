"""The shapes every variant shares: the game contract, outcomes, board views, errors.

`Game` keeps the contract (history, per-ply caches, the end of the game); subclasses give the
position. Two ready-made subclasses exist:

* `rules.chess_variant.ChessGame`: FIDE men on a python-chess board, one `chess.Move` per turn,
  driven by a `ChessVariant` (hooks `generate/allows/after_move/judge/...`). The fast path.
* `rules.position.PositionGame`: turns made of several parts (step, drop, swap, placement, ...),
  men in hand and fairy men, driven by a `PartsVariant` over immutable `Position` values.

Caches are kept per ply (a stack): `legal_moves()` and `outcome` of a position are worked out
once, and a parent's survive its children's play()/undo(), so a search or perft never judges a
position twice.
"""
from __future__ import annotations

import datetime
import re
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Hashable, Mapping, NamedTuple

from . import spelling

WHITE, BLACK = "white", "black"
LABEL_JOIN = ", "   # between the parts of a label ("Nxg7, a2/b2"): what players read, and may type
PLAYS = "plays"     # the verb of a turn whose words have none of their own


class Said(NamedTuple):
    """A turn in words, as a sentence takes it: its verb and what follows ("drops", "a pawn on a3");
    a turn whose words open with no verb of their own is played ("plays", "Nxg7, then swaps a2 and b2")."""
    verb: str
    words: str

    def text(self) -> str:
        """The turn in words alone: "drops a pawn on a3", "Nxg7, then swaps a2 and b2"."""
        return self.words if self.verb == PLAYS else f"{self.verb} {self.words}".rstrip()


class IllegalMove(ValueError):
    """A move the rules refuse. The message is written for the player."""


class PromotionChoice(IllegalMove):
    """A promotion typed without its piece ("e7e8", "e8") where the rules allow a choice.
    `moves`: the canonical turns to choose from, best-known piece first."""

    def __init__(self, message: str, moves: list[str]) -> None:
        super().__init__(message)
        self.moves = moves


class Ending(StrEnum):
    """How a game ended, said by the rule that ended it (never read off the reason's words). The
    values are the strings code compared before there was an enum, so `kind == "checkmate"` holds."""

    CHECKMATE = "checkmate"        # no legal move while a royal man is attacked (the variant's own mates too)
    STALEMATE = "stalemate"        # no legal move, not in check (a draw, or a win or loss where the variant says)
    NO_MOVE = "no-move"            # no legal move, decided by a rule of the variant's own ("cannot move")
    GOAL = "goal"                  # the variant's own goal, met by one side (or by both: a draw)
    REPETITION = "repetition"      # the same position again (fivefold, or threefold claimed or ruled)
    FIFTY_MOVES = "fifty-moves"    # too many moves without progress (75 moves, 50 claimed, a variant's count)
    MATERIAL = "material"          # a dead position: no way left to win
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME = "time"
    SOLVED = "solved"              # a solo puzzle's goal reached
    FAILED = "failed"              # a solo puzzle lost (or given up)


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    result: "1-0", "0-1", "1/2-1/2" for two players; "solved" or "failed" for a solo puzzle.
    reason: short words for a player ("checkmate", "tour complete").
    score:  a number for puzzles (lower or higher is better per variant), else None.
    kind:   how the game ended (`Ending`), for code to decide on (never decide on `reason`). Every
            Outcome the rules make says it; None only where a caller outside the rules did not.
            A string is read as the `Ending` it names (an unknown one is refused).
    detail: optional structured data (e.g. {"move": "e2e4", "mate": "d8h4"}).
    Outcomes compare by result, reason and score: kind and detail are extra.
    """

    result: str
    reason: str
    score: int | None = None
    kind: Ending | None = field(default=None, compare=False)
    detail: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.kind is not None and type(self.kind) is not Ending:
            object.__setattr__(self, "kind", Ending(self.kind))

    @property
    def winner(self) -> str | None:
        return {"1-0": WHITE, "0-1": BLACK}.get(self.result)

    @staticmethod
    def win(colour: str, reason: str, kind: Ending | str | None = None, detail: Any = None) -> "Outcome":
        return Outcome("1-0" if colour == WHITE else "0-1", reason, None, Ending(kind) if kind else None, detail)

    @staticmethod
    def draw(reason: str, kind: Ending | str | None = None, detail: Any = None) -> "Outcome":
        return Outcome("1/2-1/2", reason, None, Ending(kind) if kind else None, detail)


KINDS_BY_REASON = {
    "checkmate": Ending.CHECKMATE, "stalemate": Ending.STALEMATE,
    "threefold repetition": Ending.REPETITION, "fivefold repetition": Ending.REPETITION,
    "75 moves without a capture or pawn move": Ending.FIFTY_MOVES,
    "50 moves without a capture or pawn move": Ending.FIFTY_MOVES,
    "insufficient material": Ending.MATERIAL, "resignation": Ending.RESIGNATION,
    "agreement": Ending.AGREEMENT, "draw agreed": Ending.AGREEMENT, "time": Ending.TIME, "timeout": Ending.TIME,
}


def kind_from_reason(result: str, reason: str) -> Ending:
    """The kind of a stored ending that was kept without one (result and reason only), read once
    from its words: the kind the rules give each reason they write, "resigned", "agreed", "claimed",
    "on time" for players' endings, else by result. Only for old records: the rules say their kinds."""
    text = reason.lower().strip()
    known = KINDS_BY_REASON.get(text)
    if known:
        return known
    if result in ("solved", "failed"):
        return Ending(result)
    for words, kind in (("checkmate", Ending.CHECKMATE), ("stalemate", Ending.STALEMATE),
                        ("repetition", Ending.REPETITION), ("moves without", Ending.FIFTY_MOVES),
                        ("dead position", Ending.MATERIAL), ("resign", Ending.RESIGNATION),
                        ("agreed", Ending.AGREEMENT), ("on time", Ending.TIME), ("no legal move", Ending.NO_MOVE),
                        ("cannot move", Ending.NO_MOVE), ("cannot remove the check", Ending.NO_MOVE),
                        ("forced capture", Ending.NO_MOVE), ("forced to give an illegal check", Ending.NO_MOVE)):
        if words in text:
            return kind
    return Ending.GOAL   # the variant's own goal, won or (met by both sides) drawn


@dataclass(frozen=True)
class BoardView:
    """A plain picture of a position, enough to draw it: no rules inside.

    pieces maps square names ("e4") to piece letters: upper case white ("K"), lower case
    black ("k"). Solo puzzles whose men have no colour use upper case.
    """

    files: int
    ranks: int
    pieces: Mapping[str, str]
    turn: str = WHITE
    last_move: tuple[str, ...] = ()  # squares of the last turn's first part (from, to)
    checks: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()      # goal squares to tint (a puzzle's target corner)
    caption: str = ""                # state that is not on the board, in words (drawn wrapped, never cut)
    hands: Mapping[str, str] = field(default_factory=dict)   # "white"/"black" -> letters in hand ("NPP")
    owners: Mapping[str, str] = field(default_factory=dict)  # square -> "white"/"black" when colour is not owner
    parts: tuple[tuple[str, ...], ...] = ()   # squares of each part of the last turn, in order
    arrows: tuple[tuple[str, str], ...] = ()  # (from, to) arrows to draw
    part_kinds: tuple[str, ...] = ()  # what each of `parts` is: "step", "swap", "mirror", "drop" (none: steps)
    split_file: int = 0               # a line between this many files and the rest (Reentrant's half-boards: 4)
    counts_moves: bool = False        # the caption says how many moves were played (a front end need not again)


HintSearch = Callable[["Game", float, "int | None"], "Hint | None"]   # (game, seconds, node_budget) -> a hint or None
DailyDealer = Callable[[datetime.date, int | None], "DailyDeal"]   # (day, solver budget) -> the day's deal


@dataclass(frozen=True)
class VariantInfo:
    """What the registry knows of a variant. `create(seed, fen)` builds a Game."""

    slug: str
    name: str
    players: int
    summary: str
    files: int = 8
    ranks: int = 8
    create: Callable[[int | None, str | None], "Game"] | None = field(repr=False, compare=False,
                                                                        default=None)   # None: no game by slug
    score_name: str = "score"          # solo puzzles: what Outcome.score counts ("casualties", "level")
    score_better: str = "lower"        # solo puzzles: "lower" or "higher" scores are better
    levels: int = 0                    # puzzles with target levels 1..levels (0: none)
    level_start: Callable[[int], str] | None = field(repr=False, compare=False, default=None)  # level -> start FEN
    seeded: bool = True                # whether the seed changes the start (False: one fixed array)
    # Solo puzzles register their own searches (each in its package under rules/variants/):
    hint: HintSearch | None = field(repr=False, compare=False, default=None)     # what `rules.hint(game)` runs
    daily: DailyDealer | None = field(repr=False, compare=False, default=None)   # what `rules.daily_deal` runs
    family: str = ""                   # "GOAL": one of Tony Paletta's "Modest Proposals - GOAL Variants"

    @property
    def hints(self) -> bool:
        """Whether the variant's games answer `rules.hint(game)` with a searched move."""
        return self.hint is not None


def stop_time(seconds: float, node_budget: int | None) -> float:
    """When a hint search stops by the clock (a `time.monotonic()` deadline): never when it has a
    budget of positions."""
    return float("inf") if node_budget is not None else time.monotonic() + seconds


class OutOfTime(Exception):
    """A hint search's clock (or its budget of positions) ran out."""


@dataclass(frozen=True)
class Hint:
    """One good next move for a solo puzzle, from a search in the rules core.

    move:     the move in canonical notation, legal in the position the hint was asked in; None
              when the search proved that no move can still win the puzzle (`reason` says so).
    reason:   one short sentence for the player: why this move (or why none).
    searched: how many positions the search looked at.
    """

    move: str | None
    reason: str
    searched: int = 0


@dataclass(frozen=True)
class DailyDeal:
    """The same puzzle for everyone on one UTC day (see rules.daily)."""

    slug: str
    day: datetime.date
    seed: int | None         # pass to rules.new_game (None: the variant has one fixed start)
    fen: str                 # the start position, also to pass to rules.new_game
    level: int | None        # the target level (Safe Passage), else None
    par: int | None          # the best score the solver found (KingSwap!), else None
    tried: int               # seeds tried to find the deal


@dataclass(frozen=True)
class Men:
    """The men on the board as bitboards, for a search's evaluation (`Game.men()`): bit
    `file + rank * files` is a square (a1 = bit 0). `kinds` maps a lower-case letter to the squares
    of that kind's men owned by (white, black): who moves them, not their colour where the two differ."""

    files: int
    ranks: int
    kinds: Mapping[str, tuple[int, int]]
    hands: tuple[str, str] = ("", "")   # letters in hand (white's, black's), any case


MEMO_PLIES = 12   # positions whose legal turns and outcome stay cached (a search's whole line)


class Game(ABC):
    """One game in progress. Subclasses implement the position; this class keeps the contract.

    Subclasses provide: `turn`, `_moves()` (canonical strings), `_resolve(text)` (text to a
    canonical move or IllegalMove), `_apply(move)`, `_unapply()`, `_judge()` (Outcome or None),
    `fen()`, `view()`.
    """

    info: VariantInfo

    def __init__(self) -> None:
        self._history: list[str] = []
        self._memo: list[dict[str, Any]] = [{}]   # per ply: what is known of that position
        self._final: Outcome | None = None

    # -- the public contract -------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> str: ...

    @property
    def history(self) -> list[str]:
        return list(self._history)

    def legal_moves(self) -> list[str]:
        if self.outcome is not None:
            return []
        memo = self._memo[-1]
        moves: list[str] | None = memo.get("moves")
        if moves is None:
            moves = memo["moves"] = self._moves()
        return list(moves)

    @property
    def outcome(self) -> Outcome | None:
        if self._final is not None:
            return self._final
        memo = self._memo[-1]
        if "outcome" not in memo:
            memo["outcome"] = self._judge()
        outcome: Outcome | None = memo["outcome"]
        return outcome

    @property
    def memo(self) -> dict[str, Any]:
        """What subclasses cache about the current position; dropped when the position changes."""
        return self._memo[-1]

    def play(self, move: str) -> str:
        """Play one complete turn; returns it in canonical notation."""
        text = move.strip() if isinstance(move, str) else ""
        if not text:
            raise IllegalMove("Type a move, for example e2e4.")
        if self.outcome is not None:
            raise IllegalMove("The game is over.")
        if " " in text or "\t" in text or "\n" in text:
            text = " ".join(text.split())   # parts are separated by exactly one space
        canonical = self._read(text)
        self._apply(canonical)
        self._history.append(canonical)
        self._memo.append({})
        if len(self._memo) > MEMO_PLIES:
            self._memo[-MEMO_PLIES - 1].clear()   # a long game keeps only recent positions' caches
        return canonical

    def undo(self) -> str:
        """Take back the last turn; returns it."""
        if not self._history:
            raise IllegalMove("There is no move to take back.")
        self._unapply()
        self._final = None
        self._memo.pop()
        return self._history.pop()

    # -- for searches (engine/): fast paths that change no behaviour ------------------------------
    def play_listed(self, move: str) -> None:
        """Play `move`, a turn exactly as `legal_moves()` lists it here, without reading text (a
        search's play). A turn not listed raises KeyError and changes nothing."""
        self._apply(move)
        self._history.append(move)
        self._memo.append({})
        if len(self._memo) > MEMO_PLIES:
            self._memo[-MEMO_PLIES - 1].clear()

    def first_parts(self) -> list[str] | None:
        """For searches, where the rules list turns part by part (a move, then a swap): the first
        parts of the legal turns here, as text, without listing the whole turns (a first part may
        have no legal completion); None where turns are listed only whole (search `legal_moves()`)."""
        return None

    def completions(self, first: str) -> list[str]:
        """The legal turns beginning with the first part `first`, as `legal_moves()` lists them
        (`play_listed` plays them)."""
        return [move for move in self.legal_moves() if move == first or move.startswith(first + " ")]

    def key(self) -> tuple[Hashable, int, int]:
        """A cheap hashable key of the position: (what the rules tell apart: men, side to move, hands,
        castling, en passant, extra state; the halfmove clock; the fullmove number). Equal FENs give
        equal keys; the first item alone is the position for repetition. Default: read off the FEN."""
        fields = self.fen().split(" ")
        counters = [int(f) if f.isdigit() else 0 for f in fields[4:6]] + [0, 0]
        return " ".join(fields[:4] + fields[6:]), counters[0], counters[1]

    def men(self) -> Men:
        """The men by kind and owner as bitboards, and the hands (default: read off `view()`)."""
        view = self.view()
        kinds: dict[str, list[int]] = {}
        for name, letter in view.pieces.items():
            owner = (view.owners or {}).get(name) or (WHITE if letter.isupper() else BLACK)
            bit = 1 << (ord(name[0]) - 97 + (int(name[1:]) - 1) * view.files)
            kinds.setdefault(letter.lower(), [0, 0])[owner != WHITE] |= bit
        hands = (view.hands or {}).get(WHITE, ""), (view.hands or {}).get(BLACK, "")
        return Men(view.files, view.ranks, {k: (w, b) for k, (w, b) in kinds.items()}, hands)

    def finish(self, outcome: Outcome | None) -> None:
        """End the game from outside the board (resignation, agreed or claimed draw); None reopens it."""
        self._final = outcome

    def label(self, move: str) -> str:
        """How a player writes the legal turn `move` here (SAN where the variant has it)."""
        return move

    def last_move_label(self) -> str:
        """The last turn as a player would write it (SAN where the variant has it), or ""."""
        return self._history[-1] if self._history else ""

    def describe_move(self, move: str) -> str:
        """The legal turn `move` in words, for messages and buttons: each part as a player reads
        it ("Nxg7, then swaps a2 and b2", "mirrors e2 to d2, then Bb6", "places the Queen on c7");
        a turn of one move is its label. (`label` stays the short notation that `play` accepts.)"""
        return self.label(move)

    def last_move_description(self) -> str:
        """The last turn in words (as `describe_move` said it before it was played), with check, or ""."""
        return self.last_move_label()

    def said_move(self, move: str) -> Said:
        """`describe_move` as a verb and what follows it, for a sentence ("swaps", "a2 and b2, then Nxg7")."""
        return Said(PLAYS, self.describe_move(move))

    def last_move_said(self) -> Said:
        """`last_move_description` as a verb and what follows it (words "" before the first turn)."""
        return Said(PLAYS, self.last_move_description())

    @property
    def score(self) -> int | None:
        """The running score of a solo puzzle (e.g. casualties so far); None for duels."""
        return None

    def claimable_draw(self) -> str | None:
        """A draw the player to move may claim now (reason), or None."""
        claim = self.claimable_outcome()
        return None if claim is None else claim.reason

    def claimable_outcome(self) -> Outcome | None:
        """A draw the player to move may claim now, as the rules decide it (reason and kind), or None."""
        return None

    @abstractmethod
    def fen(self) -> str: ...

    @abstractmethod
    def view(self) -> BoardView: ...

    def describe(self) -> str:
        """Alt text: the position in words."""
        return describe_view(self.view(), self.info.name)

    # -- reading what people type -----------------------------------------------------------
    def _read(self, text: str) -> str:
        """The canonical turn `text` names, read as people type it (see rules/spelling.py):
        "nf3", "1...e5", "e2-e4", "O-O+", "E4" (only where it names no piece's move); a promotion
        without its piece asks which."""
        memo = self._memo[-1]
        known: frozenset[str] | None = memo.get("move_set")
        if known is None:
            known = memo["move_set"] = frozenset(self.legal_moves())
        if text in known:
            return text
        plain = spelling.normalise(text)
        if not plain:
            raise IllegalMove("Type a move, for example e2e4.")
        try:
            found: str | None = self._resolve(plain)
            refusal: IllegalMove | None = None
        except IllegalMove as exc:
            found, refusal = None, exc
        # A lower-case piece letter read as the piece ("nf3"), but never before SAN's own reading: a
        # lower-case b is the b-file ("bxc4" is a pawn's capture), so "b" parts are made a bishop's last.
        capital = spelling.capitalised(plain)
        for reading in dict.fromkeys([spelling.capitalised(plain, bishops=False), capital]):
            if found is not None:
                break
            if reading is None:
                continue
            try:
                found = self._resolve(reading)
            except IllegalMove as exc:
                if reading == capital and not plain.startswith("b"):
                    refusal = exc   # "nf3" means Nf3: say why Nf3 is not legal
        lowered = spelling.lowered(plain)   # "E4", "Exd5", "E2-e4": a phone's capital on a pawn's file
        if found is None and lowered is not None:
            try:
                found = self._resolve(lowered)
            except IllegalMove as exc:
                refusal = exc if capital is None else refusal
        if found is not None:
            return found
        choices = self._promotions(lowered or plain)
        if len(choices) == 1:
            return choices[0]
        if choices:
            names = [self.label(m) for m in choices]
            question = "Promote to which piece?"
            if any(name == move for name, move in zip(names, choices)):   # no SAN here: name the men
                men = [PIECE_NAMES.get(m[-1].lower(), m[-1]).capitalize() for m in choices]
                question = f"Promote to which piece: {_either(men)}?"
            raise PromotionChoice(f"{question} {_either(names)}", choices)
        assert refusal is not None
        raise refusal

    def _promotions(self, text: str) -> list[str]:
        """The legal promotions that `text` names but for the piece: from-to ("e7e8") or SAN
        ("e8", "exd8"), in the order queen, rook, bishop, knight, then others."""
        if " " in text:
            return []
        hits = []
        for move in self.legal_moves():
            if not _PROMOTION.fullmatch(move):
                continue
            if move[:-1] == text.lower():
                hits.append(move)
                continue
            written = _PROMOTED.sub("", self.label(move).rstrip("+#"))
            if written == text and written != self.label(move):
                hits.append(move)
        return sorted(hits, key=lambda m: ("qrbn".find(m[-1].lower()) % 5, m))

    # -- for subclasses --------------------------------------------------------------------
    @abstractmethod
    def _moves(self) -> list[str]: ...

    @abstractmethod
    def _resolve(self, text: str) -> str: ...

    @abstractmethod
    def _apply(self, move: str) -> None: ...

    @abstractmethod
    def _unapply(self) -> None: ...

    @abstractmethod
    def _judge(self) -> Outcome | None: ...


_PROMOTION = re.compile(r"[a-z]\d{1,2}[a-z]\d{1,2}[A-Za-z]")   # a one-part from-to turn naming a piece
_PROMOTED = re.compile(r"=?[A-Z]$")                             # "e8=Q" -> "e8"


def _either(words: list[str]) -> str:
    """["a", "b", "c"] -> "a, b or c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


PIECE_NAMES = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}


def square_name(file: int, rank: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[file] + str(rank + 1)


def hand_words(letters: str) -> str:
    """"NPp" -> "white knight, white pawn, black pawn": each man's colour always named (in
    Reentrant a player holds men of the other colour)."""
    counts: dict[str, int] = {}
    for letter in letters:
        counts[letter] = counts.get(letter, 0) + 1
    words = []
    for letter, n in counts.items():
        name = PIECE_NAMES.get(letter.lower(), letter.lower())
        colour = "white " if letter.isupper() else "black "
        words.append(f"{n} {colour}{name}s" if n > 1 else f"{colour}{name}")
    return ", ".join(words)


PART_WORDS = {"step": "{}-{}", "swap": "swap {} and {}", "mirror": "mirror {} to {}", "drop": "a man put on {}"}


def describe_view(view: BoardView, title: str = "") -> str:
    """A short sentence per side listing its men, for screen readers and alt text."""
    sides: dict[str, list[str]] = {}
    order = "kqrbnp"
    for square, letter in sorted(view.pieces.items(), key=lambda kv: (order.find(kv[1].lower()), kv[0])):
        side = "White" if letter.isupper() else "Black"
        name = PIECE_NAMES.get(letter.lower(), letter.lower())
        sides.setdefault(side, []).append(f"{name} {square}")
    parts = [f"{title} board {view.files}x{view.ranks}." if title else f"Board {view.files}x{view.ranks}."]
    for side in ("White", "Black"):
        if side in sides:
            parts.append(f"{side}: " + ", ".join(sides[side]) + ".")
    if not view.pieces:
        parts.append("The board is empty.")
    for side, colour in (("White", WHITE), ("Black", BLACK)):
        held = view.hands.get(colour, "") if view.hands else ""
        if view.hands:
            parts.append(f"{side} holds " + (hand_words(held) if held else "nothing") + " in hand.")
    if view.owners:
        mine = {c: sorted(sq for sq, o in view.owners.items() if o == c) for c in (WHITE, BLACK)}
        for side, colour in (("White", WHITE), ("Black", BLACK)):
            if mine[colour]:
                parts.append(f"{side} owns the men on " + ", ".join(mine[colour]) + ".")
    if view.parts:
        kinds = tuple(view.part_kinds) + ("step",) * (len(view.parts) - len(view.part_kinds))
        said = []
        for squares, kind in zip(view.parts, kinds):
            words = PART_WORDS.get(kind, "")
            man = view.pieces.get(squares[0], "") if kind == "drop" and squares else ""
            if man:   # the man put there, named: "a black knight put on e5"
                words = f"a {'white' if man.isupper() else 'black'} {PIECE_NAMES.get(man.lower(), man.lower())} put on {{}}"
            said.append(words.format(*squares) if words.count("{}") == len(squares) else "-".join(squares))
        parts.append("Last move " + ", then ".join(said) + ".")
    elif view.last_move:
        parts.append("Last move " + "-".join(view.last_move) + ".")
    if view.arrows:
        parts.append("Arrows " + ", ".join(f"{a} to {b}" for a, b in view.arrows) + ".")
    if view.checks:
        parts.append("Check on " + ", ".join(view.checks) + ".")
    if view.caption:
        parts.append(view.caption)
    return " ".join(parts)
