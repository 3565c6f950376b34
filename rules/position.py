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
  FEN, draws) and either
    - its men as data: `men = {**FIDE_MEN, "q": Man("queen", "N")}` (letter -> Man, Betza-like, see
      rules.men), `royalty = Royalty("kq", uncapturable="q")`, `promotions = "rbn"`, `region`
      (half-boards), and gets one-part turns (`e2e4`, `a7a8n`) kept when no royal man of the
      mover is attacked afterwards, SAN spellings, per-part refusals and labels from the same
      data. No castling with men as data; en passant for men whose data say `en_passant=True`.
      Optional hooks: `allows(position, before, after, move)`, `follow_ups(position, move, after)`
      (parts that must follow a step: a placement), `drops(position)`, `after_step(...)` (hands),
      `place(...)`, `why_refused(position, move)` / `own_reason(position, move)` (its own refusal
      reasons: for a candidate, and for any step of the mover's man; rules.refusals words the rest;
      `why_not_step` before whose man it is, `why_not_later` for a part after a legal first part);
    - or, with no `men`, its own turn generator:
      turns(position) -> dict[text, Turn]     every complete legal turn, keyed by canonical text
      after(position, turn) -> Position       the position after a turn (pure: a new value)
      spell(position, text, turns)            other spellings a rules card allows (SAN, part order)
      explain(position, text, turns)          why a typed turn is refused, part by part
      label(before, turn, turns)              the turn as a player writes it
  and may override
      load / validate / fen / format_hands    set-up and FEN (hands default to crazyhouse `[Nb]`)
      judge_goal(seen)                        the variant's own goal (see "Judging the end")
      mated / stalemated                      what having no turn means, checked or not (data)
      checked(position) / caption / owners / view   what players see
      describe / said / part_said / drop_words   a turn in words ("Nxg7, then swaps a2 and b2"), its verb apart
* `PositionGame` plays any `PartsVariant`: it keeps the positions played (undo is a snapshot;
  repetition is counted on `key()`), caches each position's turns and outcome once per ply, and
  gives look-ahead `after(move)` without touching the game.

Positions and parts are values of `rules.parts`; men beyond FIDE and royalty are data in
`rules.men` (`MenTable`, `Royalty`).

Judging the end: the steps of `rules.endings.END_STEPS` are called in order as
`judge_<step>(seen)` (a `Judged`); the first Outcome ends the game. `judge_goal` is the variant's
own goal (none by default), `judge_no_move` ends the game as `mated` says when no turn exists and
`checked` marks a royal man, else as `stalemated` (checkmate loses, stalemate draws by default),
`judge_draws` applies the 75-move and fivefold rules (and FIDE's dead positions when
`insufficient_material`). `seen.turns` may be a `Listing` (turns listed part by part): a judge
reads only whether it is empty.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, cast

import chess

from . import endings
from .core import BLACK, LABEL_JOIN, PLAYS, WHITE, BoardView, Game, IllegalMove, Men, Outcome, Said, VariantInfo
from .endings import CHECKMATE, STALEMATE, NoMove
from .men import KING, Man, MenTable, Region, Royalty, whole_board
from .notation import normalise_san, san, spelled
from .refusals import ambiguous, refuse_spelling, refuse_step
from .spelling import placed
from .parts import (
    MAN_NAMES,
    PART_KINDS,
    SAN_SHAPE,
    Drop,
    FairyTurn,
    Listing,
    Mirror,
    Part,
    Pass,
    Position,
    RepetitionKey,
    Step,
    Swap,
    T,
    Turn,
    add_to_hand,
    colour_of,
    explain_by_prefix,
    format_crazyhouse_hands,
    label_text,
    parse_crazyhouse_hands,
    part_shape,
    sort_hand,
    split_hands,
    take_from_hand,
    turn_text,
    whole_turns,
)


# -- the variant base ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Judged:
    """What a judge step sees: the position, its legal turns and the game's past positions."""
    position: Position
    turns: Mapping[str, Turn] | Listing   # a Listing where turns are listed part by part: read whether any exists
    repeats: int                 # how often this position has stood (1 = first time)
    last: Turn | None            # the turn that reached it, if any
    before: Position | None      # the position before that turn


class PartsVariant(Generic[T]):
    """A variant over immutable positions (see the module docstring); `T` is the shape of its turns.

    With `men` given, a turn is one step of those men (or a drop, then the parts `follow_ups`
    names), kept when no royal man of the mover stands attacked after it; spelling (SAN), refusals
    part by part, labels and check marks come from the same data. Without `men`, the variant lists
    its turns itself (`turns`, `after`, `spell`, `explain`, `label`)."""

    slug: str = ""
    name: str = ""
    summary: str = ""
    players: int = 2
    family: str = ""   # VariantInfo.family
    start_fen: str = chess.STARTING_FEN
    fide_draws: bool = True              # 75 moves and fivefold end the game; threefold and 50 claimable
    insufficient_material: bool = False  # with fide_draws: FIDE's dead-position test draws
    has_hands: bool = False              # FEN carries men in hand
    mated: NoMove | None = CHECKMATE     # no turn while `checked`: how it ends (None: as if not checked)
    stalemated: NoMove = STALEMATE       # no turn otherwise
    # Men as data (rules.men): letter -> Man (Betza-like); None: the variant lists its own turns.
    men: Mapping[str, Man] | None = None
    royalty: Royalty = KING               # royal men; men that may never be captured
    promotions: str = "qrbn"              # what a pawn becomes on its last rank ("" never)
    region: Region = staticmethod(whole_board)   # confinement of a man by its square (half-boards)
    clear_en_passant: bool = False        # no en passant at all: never keep the square in the FEN
    own_turns: bool = False               # the variant lists its turns itself (`turns`), not from `men`
    promotion_refusal: str = ""           # the sentence for a typed promotion outside `promotions` ("": generic)
    refusal_text: str = "That leaves a royal man of yours in check."   # a refused candidate step's sentence
    says_no_castling: bool = False        # a typed king step of two files on its rank: "There is no castling in ..."
    back_rank_pawns: bool = True          # False: a set-up with a pawn on the first or last rank is refused
    one_each: str = ""                    # men a side has at most one of, in a set-up too ("kq": King, Queen)
    table: MenTable                       # the men compiled, when `men` is given

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # `own_turns` chooses where a search's turns come from (`split`), so it must say whether the
        # class lists its own: a `turns` without the flag would be searched from `men` silently.
        if (cls.turns is not PartsVariant.turns) != cls.own_turns:
            said = "overrides `turns`" if cls.own_turns is False else "has no `turns`"
            raise TypeError(f"{cls.__name__} {said}: declare `own_turns = {not cls.own_turns}`")

    def __init__(self) -> None:
        if self.men is not None:
            self.table = MenTable(self.men, region=self.region)

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
        if self.men is not None:
            # Men as data: no castling, whatever the FEN says; the en passant square is kept only
            # where a pawn could take there (as after a move).
            board.castling_rights = chess.BB_EMPTY
            if board.ep_square is not None and (self.clear_en_passant or not board.has_pseudo_legal_en_passant()):
                board.ep_square = None
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
        if not self.back_rank_pawns and position.board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
            raise ValueError("A pawn cannot stand on the first or last rank.")
        board = position.board
        if any(chess.popcount(board.pieces_mask(chess.PIECE_SYMBOLS.index(letter), colour)) > 1
               for letter in self.one_each for colour in chess.COLORS):
            raise ValueError(f"Each side has at most one {' and one '.join(MAN_NAMES[k] for k in self.one_each)}.")

    def fen(self, position: Position) -> str:
        text = position.board.fen(en_passant="legal")
        if self.has_hands:
            board_field, rest = text.split(" ", 1)
            text = f"{board_field}[{self.format_hands(position.hands)}] {rest}"
        return text

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

    def claimable_draw(self, position: Position, repeats: int) -> Outcome | None:
        if not self.fide_draws:
            return None
        return endings.claimable_draw(position.board, lambda: repeats)

    # -- what players see ------------------------------------------------------------------------------
    def checked(self, position: Position) -> list[int]:
        """Squares of the side to move's royal men that stand attacked (default: a FIDE king, or the
        royal men of `royalty`)."""
        board = position.board
        if self.men is not None:
            return self.royalty.checked(board, board.turn, self.table)
        king = board.king(board.turn)
        return [king] if king is not None and board.is_attacked_by(not board.turn, king) else []

    drop_words = "drops a {man} on {square}"   # a drop or placement in words, its verb first ("places the {man} on {square}")

    def describe(self, before: Position, turn: T, turns: Mapping[str, T]) -> str:
        """The turn in words: a move as its label writes it, a swap, mirror or drop said in words,
        the parts joined by ", then " ("Nxg7, then swaps a2 and b2")."""
        return self.said(before, turn, turns).text()

    def said(self, before: Position, turn: T, turns: Mapping[str, T]) -> Said:
        """`describe` as a verb and what follows: the first part's own verb where it has one
        ("swaps", "a2 and b2, then Nxg7"), else "plays" and the whole ("plays", "Nxg7, then swaps a2 and b2")."""
        written = self.label(before, turn, turns).split(LABEL_JOIN)
        first, *rest = [self.part_said(part, text) for part, text in zip(turn, written)]
        if not first.words:   # a verb alone ("passes"): the turn is played
            first = Said(PLAYS, first.text())
        return Said(first.verb, ", then ".join([first.words, *(said.text() for said in rest)]))

    def part_said(self, part: Part, written: str) -> Said:
        """One part in words: its verb and what follows ("swaps", "a2 and b2"); a move is played as written."""
        if isinstance(part, Swap):
            a, b = part.squares
            promotes = f", the pawn becoming a {MAN_NAMES[chess.piece_symbol(part.promotion)]}" if part.promotion else ""
            return Said("swaps", f"{a} and {b}{promotes}")
        if isinstance(part, Mirror):
            return Said("mirrors", "{} to {}".format(*part.squares))
        if isinstance(part, Drop):
            verb, _, words = self.drop_words.partition(" ")
            return Said(verb, words.format(man=MAN_NAMES[part.letter.lower()], square=part.squares[0]))
        if isinstance(part, Pass):
            return Said("passes", "")
        return Said(PLAYS, written)

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
        return VariantInfo(self.slug, self.name, self.players, self.summary, 8, 8, family=self.family,
                           create=lambda seed, fen: PositionGame(self, seed=seed, fen=fen))


    # -- turns from the men (`men` given) ----------------------------------------------------------
    def steps(self, position: Position) -> list[chess.Move]:
        board = position.board
        uncapturable = self.royalty.uncapturable_mask(board, not board.turn)
        return list(self.table.pseudo_moves(board, uncapturable=uncapturable, promotions=self.promotions))

    def allows(self, position: Position, before: chess.Board, after: chess.Board, move: chess.Move) -> bool:
        return self.royalty.is_safe(after, before.turn, self.table)

    def follow_ups(self, position: Position, move: chess.Move, after: chess.Board) -> list[tuple[Step | Drop, ...]]:
        return [()]

    def drops(self, position: Position) -> list[Drop]:
        return []

    def split(self, position: Position) -> tuple[Iterable[Part], Callable[[Any], Mapping[str, T]]] | None:
        """The same turns as `turns`, part by part, for searches: (the first parts, in the listing's
        order, read only as far as needed; a function giving the whole turns that begin with one,
        as `turns` lists them), or None where the variant lists its turns only whole (the default
        where it lists its own; from `men`: the steps and drops, then each step's follow-ups)."""
        return self.from_men(position) if self.men is not None and not self.own_turns else None

    def turns(self, position: Position) -> dict[str, T]:
        """Every complete legal turn, keyed by canonical text (default: from `men`, part by part)."""
        return whole_turns(*self.from_men(position))

    def from_men(self, position: Position) -> tuple[list[Step | Drop], Callable[[Step | Drop], dict[str, T]]]:
        """The turns from `men`, part by part: the steps, then the drops; a step's turns are its
        follow-ups, where no royal man is left attacked (`allows`)."""
        board = position.board
        work = board.copy(stack=False)

        def complete(first: Step | Drop) -> dict[str, T]:
            if isinstance(first, Drop):
                return {first.text: cast(T, (first,))}
            out: dict[str, T] = {}
            work.push(first.move)
            if self.allows(position, board, work, first.move):
                for rest in self.follow_ups(position, first.move, work):
                    turn = (first, *rest)
                    out[turn_text(turn)] = cast(T, turn)
            work.pop()
            return out
        return [*(Step(move) for move in self.steps(position)), *self.drops(position)], complete

    def captured(self, board: chess.Board, move: chess.Move) -> chess.Piece | None:
        if board.is_en_passant(move):
            return chess.Piece(chess.PAWN, not board.turn)
        target = board.piece_at(move.to_square)
        return target if target is not None and target.color != board.turn else None

    def after(self, position: Position, turn: T) -> Position:
        """The position after a turn, a new value (default: a step or drop, then its placements)."""
        board = position.edit()
        first = turn[0]
        if isinstance(first, Step):
            captured = self.captured(board, first.move)
            board.push(first.move)
            result = self.after_step(position, first.move, board, captured)
        else:
            assert isinstance(first, Drop)
            result = self.play_drop(position, board, first)
        for part in turn[1:]:
            self.place(result, result.board, part)
        board = result.board
        if board.ep_square is not None and (self.clear_en_passant or not board.has_pseudo_legal_en_passant()):
            board.ep_square = None   # keep the square only where a pawn could take there
        result.board.clear_stack()
        return result

    def after_step(self, position: Position, move: chess.Move, board: chess.Board,
                   captured: chess.Piece | None) -> Position:
        return Position(board, position.hands, position.extra)

    def play_drop(self, position: Position, board: chess.Board, drop: Drop) -> Position:
        raise NotImplementedError

    def drop_colour(self, position: Position, board: chess.Board, part: Drop) -> bool:
        return not board.turn   # the mover's colour, the board having passed the turn on

    def place(self, position: Position, board: chess.Board, part: Part) -> None:
        if isinstance(part, Drop):
            piece = chess.Piece(chess.PIECE_SYMBOLS.index(part.letter.lower()), self.drop_colour(position, board, part))
            chess.BaseBoard.set_piece_at(board, part.square, piece)
        else:
            raise NotImplementedError(type(part).__name__)

    # -- typed turns ------------------------------------------------------------------------------
    # the last position's spellings: what a player types is read against the same listing again and again
    _spelt: tuple[Position, Mapping[str, Turn], dict[str, set[str]]] | None = None

    def step_spellings(self, position: Position, turns: Mapping[str, T]) -> dict[str, set[str]]:
        """Normalised spellings (SAN and piece-letter forms) -> canonical step texts."""
        last = self._spelt
        if last is not None and last[0] is position and last[1] is turns:
            return last[2]
        board = position.board
        moves = {t[0].move for t in turns.values() if isinstance(t[0], Step)}
        listed = list(moves)
        found: dict[str, set[str]] = {}
        for move in moves:
            keys = {normalise_san(san(board, move, listed))}
            piece = board.piece_type_at(move.from_square)
            if piece not in (chess.PAWN, None):
                letter = chess.piece_symbol(piece).upper()
                frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
                promo = chess.piece_symbol(move.promotion).upper() if move.promotion else ""
                keys |= {letter + to + promo, letter + frm + to + promo}
            for key in keys:
                found.setdefault(key, set()).add(move.uci())
        self._spelt = (position, turns, found)
        return found

    def spell(self, position: Position, text: str, turns: Mapping[str, T]) -> str | None:
        parts = text.split()
        rest = [placed(p) if "@" in p else p.lower() for p in parts[1:]]
        first = parts[0]
        candidates = {first.lower()} if "@" not in first else {placed(first)}
        if "@" not in first:
            candidates |= self.step_spellings(position, turns).get(normalise_san(first), set())
        hits = {" ".join([c, *rest]) for c in candidates} & set(turns)
        if len(hits) == 1:
            return hits.pop()
        if len(hits) > 1:
            raise IllegalMove(ambiguous(parts[0], min(hits).split()[0]))
        return None

    def explain(self, position: Position, text: str, turns: Mapping[str, T]) -> str:
        parts = text.split()
        firsts = {t.split(" ")[0] for t in turns}
        spelled = self.spell_first(position, parts[0], turns)
        if spelled is None:
            return self.why_not_first(position, parts[0], turns)
        if len(parts) == 1 and spelled not in turns:
            return explain_by_prefix([spelled], turns)
        if spelled in firsts:
            return self.why_not_later(position, parts, spelled, turns) or explain_by_prefix([spelled, *parts[1:]], turns)
        return f"{parts[0]} is not a legal move here."

    def why_not_later(self, position: Position, parts: list[str], first: str, turns: Mapping[str, T]) -> str | None:
        """The variant's own reason for refusing the typed `parts` after a legal first part (`first`,
        canonical), or None for the shared wording (`explain_by_prefix`)."""
        return None

    def spell_first(self, position: Position, text: str, turns: Mapping[str, T]) -> str | None:
        firsts = {t.split(" ")[0] for t in turns}
        if "@" in text:
            text = placed(text)
            return text if text in firsts else None
        if text.lower() in firsts:
            return text.lower()
        hits = self.step_spellings(position, turns).get(normalise_san(text), set())
        return next(iter(hits)) if len(hits) == 1 else None

    def why_not_first(self, position: Position, text: str, turns: Mapping[str, T]) -> str:
        board = position.board
        if "@" in text:
            return f"You cannot drop {text} here."
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            pseudo = self.steps(position) if SAN_SHAPE.fullmatch(text) else []
            key = normalise_san(text)
            hits = [m for m in pseudo if normalise_san(san(board, m, pseudo)) == key]
            # none of the variant's men can: a move FIDE men could make gets the variant's reason
            # (`why_not_step`, else the data's: `data_reason`)
            fide = spelled(board, text, list(board.generate_pseudo_legal_moves())) if pseudo and not hits else set()
            reasons = {self.why_not_step(position, m) or self.data_reason(position, m) for m in map(chess.Move.from_uci, fide)}
            reason = reasons.pop() if len(reasons) == 1 else None
            return reason or refuse_spelling(text, hits, lambda m: self.why_refused(position, m))
        return self.why_not_step(position, move) or refuse_step(board, move, lambda m: self.own_reason(position, m),
                                                               owner=lambda square: self.owner(position, square))

    def why_not_step(self, position: Position, move: chess.Move) -> str | None:
        """The variant's own reason for refusing a first part typed as from-to squares, asked before
        whose man it is (None: the shared refusals of `refuse_step`)."""
        return None

    def own_reason(self, position: Position, move: chess.Move) -> str | None:
        """The reason for refusing a step of the mover's own man: the data's (`data_reason`),
        or `why_refused` for a candidate; None when the man cannot go there at all."""
        reason = self.data_reason(position, move)
        if reason is None and (move in self.steps(position)
                               or chess.Move(move.from_square, move.to_square) in self.steps(position)):
            return self.why_refused(position, move)
        return reason

    def data_reason(self, position: Position, move: chess.Move) -> str | None:
        """The data's reason for refusing a step of the mover's own man, however it was typed
        (`promotion_refusal`, `says_no_castling`), or None."""
        piece = position.board.piece_at(move.from_square)
        assert piece is not None
        if (self.promotion_refusal and piece.piece_type == chess.PAWN and move.promotion
                and chess.piece_symbol(move.promotion) not in self.promotions):
            return self.promotion_refusal
        if (self.says_no_castling and piece.piece_type == chess.KING
                and abs(move.to_square - move.from_square) == 2
                and chess.square_rank(move.from_square) == chess.square_rank(move.to_square)):
            return f"There is no castling in {self.name}."
        return None

    def why_refused(self, position: Position, move: chess.Move) -> str:
        return self.refusal_text

    def owner(self, position: Position, square: int) -> bool | None:
        return position.board.color_at(square)

    def label(self, before: Position, turn: T, turns: Mapping[str, T]) -> str:
        first = turn[0]
        if isinstance(first, Step):
            moves = [t[0].move for t in turns.values() if isinstance(t[0], Step)]
            head = san(before.board, first.move, moves)
        else:
            head = first.text
        return label_text([head, *(p.text for p in turn[1:])])


# -- the game ---------------------------------------------------------------------------------------
def board_men(board: chess.Board, white: int | None = None, hands: tuple[str, str] = ("", "")) -> Men:
    """The men of a python-chess board by kind, owned by colour (or by the squares `white` owns)."""
    mine = board.occupied_co[chess.WHITE] if white is None else white
    theirs = board.occupied & ~mine
    kinds = {"p": board.pawns, "n": board.knights, "b": board.bishops, "r": board.rooks, "q": board.queens, "k": board.kings}
    return Men(8, 8, {letter: (squares & mine, squares & theirs) for letter, squares in kinds.items() if squares}, hands)


def takes_en_passant(board: chess.Board, turns: Mapping[str, Turn]) -> bool:
    """Does a legal turn here take en passant (a step onto the board's en passant square)?"""
    return any(isinstance(t[0], Step) and board.is_en_passant(t[0].move) for t in turns.values())


class PositionGame(Game, Generic[T]):
    """A game of any `PartsVariant`: a stack of immutable positions."""

    def __init__(self, variant: PartsVariant[T], *, seed: int | None = None, fen: str | None = None):
        super().__init__()
        self.variant = variant
        self.info = variant.info()
        self.position = variant.load(fen if fen is not None else variant.setup(seed))
        self._positions: list[Position] = []
        self._turns: list[T] = []
        self._listed: tuple[Position, dict[str, T]] | None = None   # turns `_key` worked out, for `turns()`
        self._parted: tuple[Position, Listing | None] | None = None   # the last position's `_split`
        self._keys: list[RepetitionKey] = [self._key(self.position)]   # repetition key of each position played through
        self._seen: Counter[RepetitionKey] = Counter(self._keys)

    @property
    def turn(self) -> str:
        return self.position.turn

    def _key(self, position: Position) -> RepetitionKey:
        """What makes two positions the same for repetition: `position.key()`, less an en passant
        square where no legal turn takes en passant (FIDE: the same position has the same moves).
        Only a position just after a double step pays for working out its turns here (where they are
        listed part by part: its first parts, and the turns of those that take en passant, kept in
        the position's Listing for its judge and the search)."""
        key = position.key()
        board = position.board
        if board.ep_square is None:
            return key
        listing = self._split(position)
        if listing is not None:   # only the turns that begin by taking en passant
            takes = listing.any_begins(lambda first: isinstance(first, Step) and board.is_en_passant(first.move))
            return key if takes else position.key_without_en_passant()
        self._listed = (position, self.variant.turns(position))
        return key if takes_en_passant(board, self._listed[1]) else position.key_without_en_passant()

    def turns(self) -> dict[str, T]:
        """Every legal turn here, canonical text -> parts (cached per position)."""
        memo = self._memo[-1]
        turns: dict[str, T] | None = memo.get("turns")
        if turns is None:
            listed = self._listed
            turns = memo["turns"] = (listed[1] if listed is not None and listed[0] is self.position
                                     else self.variant.turns(self.position))
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
        listing = self._memo[-1].get("listing")
        turn = listing.known.get(move) if listing is not None and "turns" not in self._memo[-1] else None
        turn = self.turns()[move] if turn is None else turn
        self._positions.append(self.position)
        self._turns.append(turn)
        self.position = self.variant.after(self.position, turn)
        self._keys.append(self._key(self.position))
        self._seen[self._keys[-1]] += 1

    def _unapply(self) -> None:
        self._seen[self._keys.pop()] -= 1
        self.position = self._positions.pop()
        self._turns.pop()

    def _listing(self) -> Listing | None:
        """This position's turns part by part (`PartsVariant.split`), or None where listed only whole."""
        memo = self._memo[-1]
        if "listing" not in memo:
            memo["listing"] = self._split(self.position)
        listing: Listing | None = memo["listing"]
        return listing

    def _split(self, position: Position) -> Listing | None:
        """`position`'s turns part by part, or None: made once for the position last asked about (a
        double step's repetition key and the search that goes on from there read one listing)."""
        last = self._parted
        if last is None or last[0] is not position:
            split = self.variant.split(position)
            listing = None if split is None else Listing(split[0], cast(Callable[[Part], Mapping[str, Turn]], split[1]))
            last = self._parted = (position, listing)
        return last[1]

    def first_parts(self) -> list[str] | None:
        listing = self._listing()
        return None if listing is None else [] if self.outcome is not None else list(listing.firsts)

    def completions(self, first: str) -> list[str]:
        listing = self._listing()
        return super().completions(first) if listing is None else list(listing.completions(first))

    def _judge(self) -> Outcome | None:
        listing = self._listing() if "turns" not in self._memo[-1] else None   # whether a turn exists, not all of them
        return self.variant.judge(Judged(self.position, self.turns() if listing is None else listing, self._seen[self._keys[-1]],
                                         self._turns[-1] if self._turns else None,
                                         self._positions[-1] if self._positions else None))

    def claimable_outcome(self) -> Outcome | None:
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
        return self.variant.label(before, self._turns[-1], self._turns_before()) + self._check_mark()

    def _turns_before(self) -> dict[str, T]:
        """The legal turns of the position before the last turn (usually still cached: they judged it)."""
        turns: dict[str, T] | None = self._memo[-2].get("turns") if len(self._memo) >= 2 else None
        return self.variant.turns(self._positions[-1]) if turns is None else turns

    def describe_move(self, move: str) -> str:
        return self.said_move(move).text()

    def said_move(self, move: str) -> Said:
        turns = self.turns()
        turn = turns.get(move)
        return Said(PLAYS, move) if turn is None else self.variant.said(self.position, turn, turns)

    def last_move_description(self) -> str:
        return self.last_move_said().text()

    def last_move_said(self) -> Said:
        if not self._turns:
            return Said(PLAYS, "")
        before, last = self._positions[-1], self._turns[-1]
        said, mark = self.variant.said(before, last, self._turns_before()), self._check_mark()
        if mark and not isinstance(last[-1], Step):   # "Nf3+", "mirrors e2 to d2, then Bb6+"; "drops a pawn on a3, check"
            mark = ", checkmate" if mark == "#" else ", check"
        return said._replace(words=said.words + mark)

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
        takes = self.memo.get("takes_ep")
        if takes is None:
            takes = self.memo["takes_ep"] = takes_en_passant(board, self.turns())
        fields[3] = chess.square_name(board.ep_square) if takes else "-"
        return " ".join(fields)

    def view(self) -> BoardView:
        return self.variant.view(self.position, self._turns[-1] if self._turns else None)

    def key(self) -> tuple[Hashable, int, int]:
        """See `Game.key`: the board's bitboards, turn, castling, en passant, hands and extra state."""
        position = self.position
        b = position.board
        return ((b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings, b.occupied_co[chess.WHITE], b.turn,
                 b.castling_rights, b.ep_square, position.hands, position.extra), b.halfmove_clock, b.fullmove_number)

    def men(self) -> Men:
        position = self.position
        white = None
        if type(self.variant).owners is not PartsVariant.owners:   # who moves a man is not its colour
            white = 0
            for name, owner in self.variant.owners(position).items():
                white |= (owner == WHITE) << chess.parse_square(name)
        return board_men(position.board, white, position.hands)


__all__ = [
    "Drop",
    "FairyTurn",
    "SAN_SHAPE",
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
    "colour_of",
    "explain_by_prefix",
    "format_crazyhouse_hands",
    "label_text",
    "parse_crazyhouse_hands",
    "part_shape",
    "sort_hand",
    "split_hands",
    "take_from_hand",
    "turn_text",
    "whole_turns",
]
