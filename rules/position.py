"""Turns of several parts over immutable positions: the second floor of the rules core.

The model
---------
* A `Position` is one immutable value: the men on a python-chess board (used as storage and for
  FIDE geometry; never changed once inside a Position), the men in hand, the variant's extra
  state (any immutable value) and the side to move (the board's `turn`). `key()` is what makes
  two positions "the same" for repetition.
* A *turn* (what the contract calls a move) is a tuple of *parts*, played in order:
  `Step` (`e2e4`, `e7e8q`), `Drop` (`N@e4`, also a placement), `Swap` (`f8/g7`, `a1/a4n` when the
  swap promotes), `Mirror` (`a2|h2`) and `Pass` (`pass`). Its canonical text is the parts' texts
  joined by one space (`turn_text`).
* A variant on this floor is a `PartsVariant` subclass, parametrised by the shape of its turns
  (`PartsVariant[tuple[Step] | tuple[Step, Swap]]`). It states its data (slug, name, start
  FEN, draws) and implements two hooks:
      turns(position) -> dict[text, Turn]     every complete legal turn, keyed by canonical text
      after(position, turn) -> Position       the position after a turn (pure: a new value)
  and may override
      load / validate / fen / format_hands    set-up and FEN (hands default to crazyhouse `[Nb]`)
      spell(position, text, turns)            other spellings a rules card allows (SAN, part order)
      explain(position, text, turns)          why a typed turn is refused, part by part
      judge_goal(seen)                        the variant's own goal (see "Judging the end")
      mated / stalemated                      what having no turn means, checked or not (data)
      checked(position) / label / caption / owners / view   what players see
      describe / drop_words                   a turn in words ("Nxg7, then swaps a2 and b2")
* `PositionGame` plays any `PartsVariant`: it keeps the positions played (undo is a snapshot;
  repetition is counted on `key()`), caches each position's turns and outcome once per ply, and
  gives look-ahead `after(move)` without touching the game.

Men beyond FIDE and royalty are data in `rules.men` (`MenTable`, `Royalty`); a variant that uses
them builds its `turns` from `MenTable.pseudo_moves` and `Royalty.is_safe`.

Judging the end: the steps of `rules.endings.END_STEPS` are called in order as
`judge_<step>(seen)` (a `Judged`); the first Outcome ends the game. `judge_goal` is the variant's
own goal (none by default), `judge_no_move` ends the game as `mated` says when no turn exists and
`checked` marks a royal man, else as `stalemated` (checkmate loses, stalemate draws by default),
`judge_draws` applies the 75-move and fivefold rules (and FIDE's dead positions when
`insufficient_material`).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, NamedTuple, TypeVar

import chess

from . import endings
from .core import BLACK, LABEL_JOIN, WHITE, BoardView, Game, IllegalMove, Outcome, VariantInfo
from .endings import CHECKMATE, STALEMATE, NoMove

HAND_ORDER = "QRBNP"
MAN_NAMES = {"k": "King", "q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight", "p": "pawn"}   # in words of turns


def colour_of(turn: bool) -> str:
    return WHITE if turn == chess.WHITE else BLACK


# What makes two positions the same: men, side to move, castling rights, en passant, hands, extra state.
RepetitionKey = tuple[str, chess.Color, chess.Bitboard, chess.Square | None, tuple[str, str], Hashable]


@dataclass(frozen=True)
class Position:
    """Board, hands, extra state and side to move, as one immutable value.

    hands: (white's hand, black's hand), each a string of letters in `HAND_ORDER` ("NPP"). The
    case of a letter is the colour of the man as it will be dropped (crazyhouse: always the
    owner's colour; Reentrant: either).
    """

    board: chess.Board
    hands: tuple[str, str] = ("", "")
    extra: Hashable = None   # the variant's extra state (a ChessVariant's state; None on this floor)

    @property
    def turn(self) -> str:
        return colour_of(self.board.turn)

    def hand(self, colour: bool) -> str:
        return self.hands[0 if colour == chess.WHITE else 1]

    def key(self) -> RepetitionKey:
        b = self.board
        return (b.board_fen(), b.turn, b.castling_rights, b.ep_square, self.hands, self.extra)

    def key_without_en_passant(self) -> RepetitionKey:
        b = self.board
        return (b.board_fen(), b.turn, b.castling_rights, None, self.hands, self.extra)

    def edit(self) -> chess.Board:
        """A fresh copy of the board (no move stack) to build the next position on."""
        return self.board.copy(stack=False)

    def but(self, **changes: Any) -> Position:
        return replace(self, **changes)


# -- parts --------------------------------------------------------------------------------------
# Parts are small named tuples: immutable, cheap to make by the thousand (Balanced Swap lists about
# a thousand turns in a middlegame), each with its canonical `text` and the `squares` it touches.
class Step(NamedTuple):
    """A man moves (or captures): `e2e4`, `e7e8q`, castling as the king's step `e1g1`."""
    move: chess.Move

    @property
    def text(self) -> str:
        return self.move.uci()

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.move.from_square), chess.square_name(self.move.to_square))


class Drop(NamedTuple):
    """A man from hand, or a placement, onto an empty square: `N@e4`."""
    letter: str        # upper case, the kind of man
    square: int

    @property
    def text(self) -> str:
        return f"{self.letter.upper()}@{chess.square_name(self.square)}"

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.square),)


class Swap(NamedTuple):
    """Two men exchange squares: `f8/g7`; `a1/a4n` when the swap promotes a pawn to a knight."""
    first: int
    second: int
    promotion: int | None = None

    @property
    def text(self) -> str:
        promo = chess.piece_symbol(self.promotion) if self.promotion else ""
        return f"{chess.square_name(self.first)}/{chess.square_name(self.second)}{promo}"

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.first), chess.square_name(self.second))


class Mirror(NamedTuple):
    """A man copies another's move in mirror image: `a2|h2`."""
    first: int
    second: int

    @property
    def text(self) -> str:
        return f"{chess.square_name(self.first)}|{chess.square_name(self.second)}"

    @property
    def squares(self) -> tuple[str, ...]:
        return (chess.square_name(self.first), chess.square_name(self.second))


class Pass(NamedTuple):
    """The player passes this part: `pass`."""

    @property
    def text(self) -> str:
        return "pass"

    @property
    def squares(self) -> tuple[str, ...]:
        return ()


Part = Step | Drop | Swap | Mirror | Pass
PART_KINDS = {Step: "step", Drop: "drop", Swap: "swap", Mirror: "mirror", Pass: "pass"}   # BoardView.part_kinds
Turn = tuple[Part, ...]
# A variant's own shape of turn, e.g. `tuple[Step] | tuple[Step, Swap]`: what its hooks take and return.
T = TypeVar("T", bound=Turn)

_SQUARE = r"[a-h][1-8]"
PART_SHAPES = {
    "step": re.compile(rf"{_SQUARE}{_SQUARE}[qrbnk]?"),
    "drop": re.compile(rf"[PNBRQK]@{_SQUARE}"),
    "swap": re.compile(rf"{_SQUARE}/{_SQUARE}[qrbn]?"),
    "mirror": re.compile(rf"{_SQUARE}\|{_SQUARE}"),
    "pass": re.compile("pass"),
}


def turn_text(turn: Iterable[Part]) -> str:
    return " ".join(part.text for part in turn)


def label_text(parts: Iterable[str]) -> str:
    """A label from its parts as a player writes them: `["Nxg7", "a2/b2"]` -> "Nxg7, a2/b2"."""
    return LABEL_JOIN.join(parts)


def part_shape(text: str) -> str | None:
    """Which kind of part `text` is written as ("step", "drop", ...), or None."""
    for name, pattern in PART_SHAPES.items():
        if pattern.fullmatch(text):
            return name
    return None


# -- hands in FEN (crazyhouse convention) --------------------------------------------------------
def sort_hand(letters: str) -> str:
    return "".join(sorted(letters, key=lambda c: (HAND_ORDER.find(c.upper()), c.islower())))


def split_hands(board_field: str) -> tuple[str, str | None]:
    """`rnbqkbnr/.../RNBQKBNR[Nb]` -> (board part, "Nb"); no bracket -> (field, None)."""
    match = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", board_field)
    if match:
        return match.group(1), match.group(2)
    if "[" in board_field or "]" in board_field:
        raise ValueError("Men in hand go in one bracket after the board, like [Nb].")
    return board_field, None


def parse_crazyhouse_hands(text: str) -> tuple[str, str]:
    """"NPb" -> ("NP", "B"): upper case is White's hand, lower case Black's."""
    for letter in text:
        if letter.upper() not in HAND_ORDER:
            raise ValueError(f"{letter!r} cannot be a man in hand.")
    white = sort_hand("".join(c for c in text if c.isupper()))
    black = sort_hand("".join(c.upper() for c in text if c.islower()))
    return white, black


def format_crazyhouse_hands(hands: tuple[str, str]) -> str:
    return sort_hand(hands[0].upper()) + sort_hand(hands[1].lower())


def add_to_hand(hands: tuple[str, str], colour: bool, letter: str) -> tuple[str, str]:
    i = 0 if colour == chess.WHITE else 1
    new = list(hands)
    new[i] = sort_hand(new[i] + letter)
    return new[0], new[1]


def take_from_hand(hands: tuple[str, str], colour: bool, letter: str) -> tuple[str, str]:
    i = 0 if colour == chess.WHITE else 1
    new = list(hands)
    if letter not in new[i]:
        raise ValueError(f"no {letter} in hand")
    new[i] = new[i].replace(letter, "", 1)
    return new[0], new[1]


# -- the variant base ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Judged:
    """What a judge step sees: the position, its legal turns and the game's past positions."""
    position: Position
    turns: Mapping[str, Turn]
    repeats: int                 # how often this position has stood (1 = first time)
    last: Turn | None            # the turn that reached it, if any
    before: Position | None      # the position before that turn


class PartsVariant(Generic[T]):
    """A variant whose turns may have several parts (see the module docstring); `T` is the shape
    of its turns."""

    slug: str = ""
    name: str = ""
    summary: str = ""
    players: int = 2
    start_fen: str = chess.STARTING_FEN
    fide_draws: bool = True              # 75 moves and fivefold end the game; threefold and 50 claimable
    insufficient_material: bool = False  # with fide_draws: FIDE's dead-position test draws
    has_hands: bool = False              # FEN carries men in hand
    mated: NoMove | None = CHECKMATE     # no turn while `checked`: how it ends (None: as if not checked)
    stalemated: NoMove = STALEMATE       # no turn otherwise

    # -- set-up and FEN -------------------------------------------------------------------------
    def setup(self, seed: int | None) -> str:
        return self.start_fen

    def load(self, fen: str) -> Position:
        fields = fen.split()
        if not fields:
            raise ValueError("Empty FEN.")
        board_field, hand_text = split_hands(fields[0])
        if len(fields) > 6:
            raise ValueError(f"{self.name} uses a six-field FEN.")
        try:
            board = chess.Board(" ".join([board_field, *fields[1:6]]))
        except ValueError as exc:
            raise ValueError(f"Invalid FEN: {exc}") from None
        hands = self.parse_hands(hand_text or "") if hand_text is not None or self.has_hands else ("", "")
        if hand_text and not self.has_hands:
            raise ValueError(f"{self.name} has no men in hand.")
        position = Position(board, hands, self.parse_extra(board))
        self.validate(position)
        return position

    def parse_hands(self, text: str) -> tuple[str, str]:
        return parse_crazyhouse_hands(text)

    def format_hands(self, hands: tuple[str, str]) -> str:
        return format_crazyhouse_hands(hands)

    def parse_extra(self, board: chess.Board) -> Hashable:
        return None

    def validate(self, position: Position) -> None:
        """Refuse a set-up the rules card refuses (default: FIDE's board faults, kings not required)."""
        bad = position.board.status() & (chess.STATUS_TOO_MANY_WHITE_PIECES | chess.STATUS_TOO_MANY_BLACK_PIECES
                                           | chess.STATUS_INVALID_EP_SQUARE)
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")

    def fen(self, position: Position) -> str:
        text = position.board.fen(en_passant="legal")
        if self.has_hands:
            board_field, rest = text.split(" ", 1)
            text = f"{board_field}[{self.format_hands(position.hands)}] {rest}"
        return text

    # -- turns --------------------------------------------------------------------------------------
    def turns(self, position: Position) -> dict[str, T]:
        raise NotImplementedError

    def after(self, position: Position, turn: T) -> Position:
        raise NotImplementedError

    def spell(self, position: Position, text: str, turns: Mapping[str, T]) -> str | None:
        """The canonical turn `text` spells, if the rules card allows that spelling (default: none
        but the canonical text itself, in any letter case for squares)."""
        lowered = " ".join(p if "@" in p else p.lower() for p in text.split())
        return lowered if lowered in turns else None

    def explain(self, position: Position, text: str, turns: Mapping[str, T]) -> str:
        """Why `text` is not a legal turn here, naming the part that is wrong."""
        parts = text.split()
        bad = [p for p in parts if part_shape(p if "@" in p else p.lower()) is None]
        if bad:
            return (f"I can't read {bad[0]!r} as part of a turn. Parts look like e2e4, N@e4 or "
                    f"f8/g7, separated by spaces.")
        return explain_by_prefix(parts, turns)

    # -- the end: `rules.endings.END_STEPS` in order, as `judge_<step>(seen)` -------------------------
    def judge(self, seen: Judged) -> Outcome | None:
        for step in endings.END_STEPS:
            outcome: Outcome | None = getattr(self, "judge_" + step)(seen)
            if outcome is not None:
                return outcome
        return None

    def judge_goal(self, seen: Judged) -> Outcome | None:
        return None

    def judge_no_move(self, seen: Judged) -> Outcome | None:
        if seen.turns:
            return None
        position = seen.position
        return endings.no_move(position.turn, bool(self.checked(position)), self.mated, self.stalemated)

    def judge_draws(self, seen: Judged) -> Outcome | None:
        if not self.fide_draws:
            return None
        board = seen.position.board
        return endings.automatic_draw(board, lambda: self.insufficient_material and board.is_insufficient_material(),
                                      lambda: seen.repeats)

    def claimable_draw(self, position: Position, repeats: int) -> str | None:
        if not self.fide_draws:
            return None
        return endings.claimable_draw(position.board, lambda: repeats)

    # -- what players see ------------------------------------------------------------------------------
    def checked(self, position: Position) -> list[int]:
        """Squares of the side to move's royal men that stand attacked (default: a FIDE king)."""
        board = position.board
        king = board.king(board.turn)
        return [king] if king is not None and board.is_attacked_by(not board.turn, king) else []

    def label(self, before: Position, turn: T, turns: Mapping[str, T]) -> str:
        """The turn as a player writes it, its parts joined by ", " (default: the canonical parts)."""
        return label_text(part.text for part in turn)

    drop_words = "drops a {man} on {square}"   # a drop or placement in words ("places the {man} on {square}")

    def describe(self, before: Position, turn: T, turns: Mapping[str, T]) -> str:
        """The turn in words: a move as its label writes it, a swap, mirror or drop said in words,
        the parts joined by ", then " ("Nxg7, then swaps a2 and b2")."""
        written = self.label(before, turn, turns).split(LABEL_JOIN)
        return ", then ".join(self.part_words(part, text) for part, text in zip(turn, written))

    def part_words(self, part: Part, written: str) -> str:
        if isinstance(part, Swap):
            a, b = part.squares
            promotes = f", the pawn becoming a {MAN_NAMES[chess.piece_symbol(part.promotion)]}" if part.promotion else ""
            return f"swaps {a} and {b}{promotes}"
        if isinstance(part, Mirror):
            return "mirrors {} to {}".format(*part.squares)
        if isinstance(part, Drop):
            return self.drop_words.format(man=MAN_NAMES[part.letter.lower()], square=part.squares[0])
        if isinstance(part, Pass):
            return "passes"
        return written

    def caption(self, position: Position) -> str:
        return ""

    def owners(self, position: Position) -> dict[str, str]:
        return {}

    def arrows(self, position: Position) -> tuple[tuple[str, str], ...]:
        return ()

    def view(self, position: Position, last: T | None) -> BoardView:
        pieces = {chess.square_name(sq): p.symbol() for sq, p in position.board.piece_map().items()}
        parts = tuple(part.squares for part in last or () if part.squares)
        kinds = tuple(PART_KINDS[type(part)] for part in last or () if part.squares)
        first = parts[0] if parts else ()
        hands = {WHITE: position.hands[0], BLACK: position.hands[1]} if self.has_hands else {}
        return BoardView(8, 8, pieces, position.turn, first,
                         tuple(chess.square_name(sq) for sq in self.checked(position)),
                         caption=self.caption(position), hands=hands, owners=self.owners(position),
                         parts=parts, arrows=self.arrows(position), part_kinds=kinds)

    def info(self) -> VariantInfo:
        return VariantInfo(self.slug, self.name, self.players, self.summary, 8, 8,
                           create=lambda seed, fen: PositionGame(self, seed=seed, fen=fen))


def explain_by_prefix(parts: list[str], turns: Mapping[str, Turn]) -> str:
    """A sentence naming the first part of `parts` that no legal turn continues with."""
    for i in range(len(parts)):
        head = " ".join(parts[: i + 1])
        if not any(t == head or t.startswith(head + " ") for t in turns):
            if i == 0:
                return f"{parts[0]} is not a legal first part of a turn here."
            return (f"{' '.join(parts[:i])} is fine, but {parts[i]} cannot follow it: "
                    f"{len(following(parts[:i], turns))} part(s) can, e.g. {example(parts[:i], turns)}.")
    nexts = following(parts, turns)
    if nexts:
        return (f"{' '.join(parts)} is not a whole turn: it needs one more part, "
                f"e.g. {example(parts, turns)}.")
    return f"{' '.join(parts)} is not a legal turn here."


def following(parts: list[str], turns: Mapping[str, Turn]) -> set[str]:
    head = " ".join(parts) + " "
    n = len(parts)
    return {t.split(" ")[n] for t in turns if t.startswith(head)}


def example(parts: list[str], turns: Mapping[str, Turn]) -> str:
    options = sorted(following(parts, turns))
    return " ".join([*parts, options[0]]) if options else ""


# -- the game ---------------------------------------------------------------------------------------
class PositionGame(Game, Generic[T]):
    """A game of any `PartsVariant`: a stack of immutable positions."""

    def __init__(self, variant: PartsVariant[T], *, seed: int | None = None, fen: str | None = None):
        super().__init__()
        self.variant = variant
        self.info = variant.info()
        self.position = variant.load(fen if fen is not None else variant.setup(seed))
        self._positions: list[Position] = []
        self._turns: list[T] = []
        self._keys: list[RepetitionKey] = [self._key(self.position)]   # repetition key of each position played through
        self._seen: Counter[RepetitionKey] = Counter(self._keys)

    @property
    def turn(self) -> str:
        return self.position.turn

    def _key(self, position: Position) -> RepetitionKey:
        """What makes two positions the same for repetition: `position.key()`, less an en passant
        square where no legal turn takes en passant (FIDE: the same position has the same moves).
        Only a position just after a double step pays for working out its turns here."""
        key = position.key()
        board = position.board
        if board.ep_square is None:
            return key
        if any(isinstance(t[0], Step) and board.is_en_passant(t[0].move) for t in self.variant.turns(position).values()):
            return key
        return position.key_without_en_passant()

    def turns(self) -> dict[str, T]:
        """Every legal turn here, canonical text -> parts (cached per position)."""
        memo = self._memo[-1]
        turns: dict[str, T] | None = memo.get("turns")
        if turns is None:
            turns = memo["turns"] = self.variant.turns(self.position)
        return turns

    def after(self, move: str) -> Position:
        """The position after the legal turn `move`, this game unchanged (for look-ahead)."""
        return self.variant.after(self.position, self.turns()[self._resolve(" ".join(move.split()))])

    def _moves(self) -> list[str]:
        return list(self.turns())

    def _resolve(self, text: str) -> str:
        turns = self.turns()
        if text in turns:
            return text
        spelled = self.variant.spell(self.position, text, turns)
        if spelled is not None and spelled in turns:
            return spelled
        raise IllegalMove(self.variant.explain(self.position, text, turns))

    def _apply(self, move: str) -> None:
        turn = self.turns()[move]
        self._positions.append(self.position)
        self._turns.append(turn)
        self.position = self.variant.after(self.position, turn)
        self._keys.append(self._key(self.position))
        self._seen[self._keys[-1]] += 1

    def _unapply(self) -> None:
        self._seen[self._keys.pop()] -= 1
        self.position = self._positions.pop()
        self._turns.pop()

    def _judge(self) -> Outcome | None:
        return self.variant.judge(Judged(self.position, self.turns(), self._seen[self._keys[-1]],
                                         self._turns[-1] if self._turns else None,
                                         self._positions[-1] if self._positions else None))

    def claimable_draw(self) -> str | None:
        if self.outcome:
            return None
        return self.variant.claimable_draw(self.position, self._seen[self._keys[-1]])

    def label(self, move: str) -> str:
        turns = self.turns()
        turn = turns.get(move)
        return move if turn is None else self.variant.label(self.position, turn, turns)

    def last_move_label(self) -> str:
        if not self._turns:
            return ""
        before = self._positions[-1]
        return self.variant.label(before, self._turns[-1], self.variant.turns(before)) + self._check_mark()

    def describe_move(self, move: str) -> str:
        turns = self.turns()
        turn = turns.get(move)
        return move if turn is None else self.variant.describe(self.position, turn, turns)

    def last_move_description(self) -> str:
        if not self._turns:
            return ""
        before, last = self._positions[-1], self._turns[-1]
        words, mark = self.variant.describe(before, last, self.variant.turns(before)), self._check_mark()
        if not mark or isinstance(last[-1], Step):
            return words + mark   # "Nf3+", "mirrors e2 to d2, then Bb6+"
        return words + (", checkmate" if mark == "#" else ", check")

    def _check_mark(self) -> str:
        """"+" when the last turn checked a royal man, "#" when it mated, else ""."""
        if not self.variant.checked(self.position):
            return ""
        return "#" if self.outcome and self.outcome.kind == "checkmate" else "+"

    def fen(self) -> str:
        """The variant's FEN, its en passant field written as FIDE's FEN does: the square only when
        a legal turn here takes en passant, by this variant's own rules (python-chess judges
        legality by FIDE men and the FIDE king, which a fairy variant's may not be)."""
        text = self.variant.fen(self.position)
        board = self.position.board
        if board.ep_square is None:
            return text
        fields = text.split(" ")
        if len(fields) < 4:
            return text
        takes = any(isinstance(turn[0], Step) and board.is_en_passant(turn[0].move) for turn in self.turns().values())
        fields[3] = chess.square_name(board.ep_square) if takes else "-"
        return " ".join(fields)

    def view(self) -> BoardView:
        return self.variant.view(self.position, self._turns[-1] if self._turns else None)


__all__ = [
    "Drop",
    "Judged",
    "Mirror",
    "Part",
    "PartsVariant",
    "Pass",
    "Position",
    "PositionGame",
    "Step",
    "Swap",
    "Turn",
    "add_to_hand",
    "explain_by_prefix",
    "format_crazyhouse_hands",
    "label_text",
    "parse_crazyhouse_hands",
    "part_shape",
    "sort_hand",
    "split_hands",
    "take_from_hand",
    "turn_text",
]
