"""Variants played with FIDE men on an 8x8 board, built on python-chess.

A variant is a `ChessVariant` subclass: class attributes are its data (what FIDE rules apply),
methods are hooks whose defaults are standard chess. Override only what the variant changes:

    caption(board, state)             one line of state that is not on the board, for the image
    marks(board, state)               squares to tint on the image (goal squares, a threatened line)
    score(board, state)               a solo puzzle's running score (default None)
    generate(board, state)            candidate moves (default: FIDE legal, or pseudo-legal when
                                      kings are not royal or castling is `Castling.NO_CHECK`), after
                                      the castling/promotion/double-step switches
    allows(board, state, move)        filter: is this candidate legal here?
    explain(board, state, move)       why a refused candidate is refused (for the player; default the
                                      sentence `refusal_text`, or by part: `castling_refusal` and
                                      `promotion_refusal`, data, which also make those tries candidates)
    after_move(board, state, move, mover, captured) -> state
                                      effects after python-chess has pushed the move: may change
                                      the board further and returns the new extra state
    judge_goal(board, state, legal)   the variant's own goal: Outcome or None (default none)
    mated / stalemated                what having no legal move means, in check or not (data,
                                      rules.endings.NoMove; default checkmate loses, stalemate draws)
    in_check(board, state)            check, for `mated` (default: a royal king attacked)
    is_dead(board, state)             a dead position, drawn with the automatic draws (default FIDE's)
                                      `judge` runs the steps of rules.endings in order: goal, no
                                      legal move, draws (`judge_no_move`, `judge_draws`)
    parse_state(fields) / format_state(state)
                                      extra state beyond the board, carried as FEN fields 7+ (or
                                      `state_field`, data: rules.side_fields)

Extra state is one immutable value (a tuple, a frozen dataclass); undo restores the previous one,
and `board.pop()` restores any board change made in `after_move`. Its type is the class's parameter,
`class Zoo(ChessVariant[tuple[str, str]])`, with `initial_state` its value at the start; a variant
without extra state is a `ChessVariant[None]` with `initial_state = None`.

Which hooks a variant uses is data: `fide_moves = False` with `generate`, `filters_moves = True` with
`allows`, `after_effects = True` with `after_move` or `push`. Speed comes from the same data: with
`fide_moves`, no filter and the FIDE switches, python-chess lists the legal moves itself; without
after-effects a move is a plain `push`.
`ChessGame.position` and `ChessGame.after(move)` give the same immutable `Position` values as
turns of several parts do (rules.position), for look-ahead without copying boards by hand.
"""
from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any, Callable, Generic, Iterable, Iterator, Literal, TypeVar, cast

import chess

from .core import BLACK, WHITE, BoardView, Game, IllegalMove, Men, Outcome, VariantInfo
from . import endings
from .castling import Castling, castling_tries, is_castling_try, no_check_moves
from .endings import CHECKMATE, STALEMATE, NoMove
from .men import KING, Royalty
from .notation import PROMOTION_LETTERS, normalise_san as normalise_san, san as san   # variants import these here
from .position import Position, board_men
from .refusals import ambiguous, refuse_spelling, refuse_step
from .side_fields import StateField

# Set-up faults python-chess reports that make no sense in any variant, royal kings or not.
BOARD_FAULTS = (chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_INVALID_EP_SQUARE
                | chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS
                | chess.STATUS_TOO_MANY_WHITE_PIECES | chess.STATUS_TOO_MANY_BLACK_PIECES)

# The variant's extra state beyond the board: one immutable value of the variant's own type
# (None for no extra state), hashable because positions are compared and counted by it.
S = TypeVar("S", bound=Hashable)


def colour_name(colour: chess.Color) -> str:
    return WHITE if colour == chess.WHITE else BLACK


class ChessVariant(Generic[S]):
    # -- data -----------------------------------------------------------------------------
    slug: str = "standard"
    name: str = "Standard chess"
    summary: str = "FIDE chess."
    players: int = 2
    family: str = ""   # VariantInfo.family
    start_fen: str = chess.STARTING_FEN
    royalty: Royalty = KING          # royal men (rules.men): KING (no move may leave it attacked) or
                                     # NO_ROYALTY; a variant with another royal man tests check itself
    castling: Castling = Castling.FIDE   # FIDE, NO_CHECK (attacks do not matter) or NONE (rules.castling)
    reads_castling_field: bool = True    # False: a FEN's castling field is not even read (anything goes there)
    promotions: str = "qrbn"         # piece letters a pawn may promote to
    double_step: bool = True         # pawns may advance two squares from their start rank
    fide_draws: bool = True          # 75 moves and fivefold end the game; threefold and 50 claimable
    insufficient_material: bool = True   # with fide_draws: a dead position (FIDE's material test) draws
    initial_state: S                 # extra state beyond the board at the start (None: no extra state)
    faults: int = BOARD_FAULTS       # without royal kings: the python-chess statuses a FEN may not have
    # Which hooks the variant uses, as data (they choose the fast paths; tests/rules check them):
    fide_moves: bool = True          # False: `generate` lists the candidate moves itself
    filters_moves: bool = False      # True: `allows` refuses some candidates
    after_effects: bool = False      # True: `push`/`after_move` change the board or state after the move

    royal_king: bool = True          # worked out from `royalty`: a royal FIDE king, python-chess's check

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "royal_king" in vars(cls):
            raise TypeError(f"{cls.__name__}: royal men are data, e.g. `royalty = NO_ROYALTY` (rules.men)")
        cls.royal_king = cls.royalty == KING
        # The flags choose the fast paths, so they must say which hooks the class has: a hook
        # without its flag would be skipped silently (and still run in look-ahead).
        for flag, hooks, wanted in (("fide_moves", ("generate",), False), ("filters_moves", ("allows",), True),
                                    ("after_effects", ("after_move", "push"), True)):
            overridden = [hook for hook in hooks if getattr(cls, hook) is not getattr(ChessVariant, hook)]
            if bool(overridden) != (getattr(cls, flag) == wanted):
                said = f"overrides `{overridden[0]}`" if overridden else f"has no `{'` or `'.join(hooks)}`"
                raise TypeError(f"{cls.__name__} {said}: declare `{flag} = {wanted if overridden else not wanted}`")

    # -- set-up and FEN ---------------------------------------------------------------------
    def setup(self, seed: int | None) -> str:
        return self.start_fen

    # Extra state that is one optional word (None without it), carried as FEN field 7: the words it
    # may be, and the sentence refusing any other field 7 ("": "... uses a plain six-field FEN.").
    state_words: tuple[str, ...] = ()
    state_refusal: str = ""
    state_field: StateField[S] | None = None   # or extra state kept per side as field 7 (rules.side_fields)

    def parse_state(self, fields: list[str]) -> S:
        if not fields:
            return self.initial_state
        if self.state_field is not None:
            return self.state_field.parse(fields)
        if len(fields) == 1 and fields[0] in self.state_words:
            return cast(S, fields[0])
        raise ValueError(self.state_refusal or f"{self.name} uses a plain six-field FEN.")

    def format_state(self, state: S) -> list[str]:
        if self.state_field is not None:
            return self.state_field.format(state)
        return [cast(str, state)] if self.state_words and state else []

    def load(self, fen: str) -> tuple[chess.Board, S]:
        fields = fen.split()
        if not fields:
            raise ValueError("Empty FEN.")
        if not self.reads_castling_field and len(fields) >= 3:
            fields[2] = "-"
        try:
            board = chess.Board(" ".join(fields[:6]))
        except ValueError as exc:
            raise ValueError(f"Invalid FEN: {exc}") from None
        if not self.castling:
            board.castling_rights = chess.BB_EMPTY   # no castling, whatever the FEN says
        state = self.parse_state(fields[6:])
        self.validate(board, state)
        return board, state

    def validate(self, board: chess.Board, state: S) -> None:
        bad = board.status() if self.royal_king else board.status() & self.faults
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")

    def fen(self, board: chess.Board, state: S) -> str:
        # Without royal kings, keep the en passant square whenever a pawn could take there (python-chess
        # "xfen"); its "legal" test would drop a capture that merely exposes the king.
        en_passant: Literal["legal", "xfen"] = "legal" if self.royal_king else "xfen"
        return " ".join([board.fen(en_passant=en_passant), *self.format_state(state)])

    # -- moves --------------------------------------------------------------------------------
    def generate(self, board: chess.Board, state: S) -> Iterator[chess.Move]:
        moves: Iterable[chess.Move] = board.legal_moves if self.royal_king else board.pseudo_legal_moves
        if self.castling is Castling.NO_CHECK:
            moves = no_check_moves(board)
        promotions = None if set(self.promotions) == set("qrbn") else self.promotions
        # python-chess castles only with castling rights, and a variant without castling has none
        no_castling = self.castling is Castling.NONE and board.castling_rights != chess.BB_EMPTY
        if promotions is None and not no_castling and self.double_step:
            return iter(moves)   # nothing to leave out
        return self._switched(board, moves, promotions, no_castling)

    def _switched(self, board: chess.Board, moves: Iterable[chess.Move], promotions: str | None,
                  no_castling: bool) -> Iterator[chess.Move]:
        """`moves` less those the castling, promotion and double-step switches leave out."""
        single_step = not self.double_step
        for move in moves:
            if promotions is not None and move.promotion and PROMOTION_LETTERS[move.promotion] not in promotions:
                continue
            if no_castling and board.is_castling(move):
                continue
            if (single_step and board.pawns & chess.BB_SQUARES[move.from_square]
                    and abs(move.to_square - move.from_square) == 16):
                continue
            yield move

    def allows(self, board: chess.Board, state: S, move: chess.Move) -> bool:
        return True

    refusal_text: str = "{move} is not allowed in {name}."   # a refused candidate's sentence ({move}: from-to)
    # Refusal wording by part: with a sentence, the castling tries (king steps of two files from e1/e8) and
    # the promotions outside `promotions` that the rules refuse are candidates, refused with it.
    castling_refusal: str = ""
    promotion_refusal: str = ""

    def explain(self, board: chess.Board, state: S, move: chess.Move) -> str:
        if self.castling_refusal and is_castling_try(board, move):
            return self.castling_refusal
        if self.promotion_refusal and move.promotion and PROMOTION_LETTERS[move.promotion] not in self.promotions:
            return self.promotion_refusal
        return self.refusal_text.format(move=move.uci(), name=self.name)

    def tries(self, board: chess.Board, state: S) -> list[chess.Move]:
        """What a player may try here, for refusals: `generate`'s candidates, plus the castling tries and
        promotions the variant words a refusal for (`castling_refusal`, `promotion_refusal`)."""
        moves = list(self.generate(board, state))
        if self.promotion_refusal:
            men = board.generate_legal_moves if self.royal_king else board.generate_pseudo_legal_moves
            moves += [m for m in men(board.pawns)
                      if m.promotion and PROMOTION_LETTERS[m.promotion] not in self.promotions]
        if self.castling_refusal:
            moves += [m for m in castling_tries(board) if m not in moves]
        return moves

    def legal(self, board: chess.Board, state: S) -> list[chess.Move]:
        if not self.filters_moves:
            if self.fide_moves and self._is_fide_generation():
                return list(board.legal_moves)   # the fast path: FIDE men, FIDE rules
            return list(self.generate(board, state))
        return [m for m in self.generate(board, state) if self.allows(board, state, m)]

    def _is_fide_generation(self) -> bool:
        return (self.royal_king and self.castling is Castling.FIDE and self.double_step
                and set(self.promotions) == set("qrbn"))

    def push(self, board: chess.Board, state: S, move: chess.Move) -> S:
        """Play `move` on `board` in place and return the new extra state. `board.pop()` undoes
        the board side of it."""
        mover = board.piece_at(move.from_square)
        captured = captured_piece(board, move)
        board.push(move)
        return self.after_move(board, state, move, mover, captured)

    def after_move(self, board: chess.Board, state: S, move: chess.Move,
                   mover: chess.Piece | None, captured: chess.Piece | None) -> S:
        return state

    # -- check and the end ----------------------------------------------------------------------
    def checked_kings(self, board: chess.Board, state: S) -> list[chess.Square]:
        """Squares to mark as "in check" on the board image."""
        if not self.royal_king:
            return []
        king = board.king(board.turn)
        return [king] if king is not None and board.is_check() else []

    # The end: `rules.endings.END_STEPS` in order ("goal", "no_move", "draws"), each a method
    # `judge_<step>` returning an Outcome or None; the first Outcome ends the game.
    mated: NoMove | None = CHECKMATE   # no legal move while `in_check`: how it ends (None: as if not in check)
    stalemated: NoMove = STALEMATE     # no legal move otherwise

    def judge(self, board: chess.Board, state: S, legal: list[chess.Move]) -> Outcome | None:
        for step in endings.END_STEPS:
            outcome: Outcome | None = getattr(self, "judge_" + step)(board, state, legal)
            if outcome is not None:
                return outcome
        return None

    def judge_goal(self, board: chess.Board, state: S, legal: list[chess.Move]) -> Outcome | None:
        """The variant's own win or draw condition (none in FIDE chess)."""
        return None

    def judge_no_move(self, board: chess.Board, state: S, legal: list[chess.Move]) -> Outcome | None:
        if legal:
            return None
        return endings.no_move(colour_name(board.turn), self.in_check(board, state), self.mated, self.stalemated)

    def in_check(self, board: chess.Board, state: S) -> bool:
        """Whether the side to move is in check, for `mated` (default: a royal king attacked)."""
        return self.royal_king and board.is_check()

    def judge_draws(self, board: chess.Board, state: S, legal: list[chess.Move]) -> Outcome | None:
        if not self.fide_draws:
            return None
        return endings.automatic_draw(board, lambda: self.is_dead(board, state),
                                      lambda: self.count_repetitions(board, state))

    def is_dead(self, board: chess.Board, state: S) -> bool:
        """A dead position, drawn at once with `fide_draws` (default: FIDE's material test, where
        `insufficient_material`)."""
        return self.insufficient_material and board.is_insufficient_material()

    def count_repetitions(self, board: chess.Board, state: S) -> int:
        """How often this position has occurred; override when extra state is part of a position."""
        return repetitions(board, royal=self.royal_king)

    def claimable_draw(self, board: chess.Board, state: S) -> Outcome | None:
        if not self.fide_draws:
            return None
        return endings.claimable_draw(board, lambda: self.count_repetitions(board, state))

    # -- what players see ------------------------------------------------------------------------
    def caption(self, board: chess.Board, state: S) -> str:
        """One line of state that is not on the board (checks left, kinds captured, ...)."""
        return ""

    caption_counts_moves = False   # the caption says how many moves were played ("· 37 moves")

    def marks(self, board: chess.Board, state: S) -> tuple[str, ...]:
        """Squares to tint on the board image (a puzzle's goal squares, a threatened line)."""
        return ()

    def score(self, board: chess.Board, state: S) -> int | None:
        """A solo puzzle's running score here (None for duels)."""
        return None

    # -- notation ------------------------------------------------------------------------------
    def san(self, board: chess.Board, move: chess.Move, legal: list[chess.Move]) -> str:
        return san(board, move, legal)

    def info(self) -> VariantInfo:
        return VariantInfo(self.slug, self.name, self.players, self.summary, 8, 8, family=self.family,
                           create=lambda seed, fen: ChessGame(self, seed=seed, fen=fen))


PositionKey = tuple[str, chess.Color, chess.Bitboard, chess.Square | None]   # men, turn, castling, en passant


def position_key(board: chess.Board, royal: bool = True) -> PositionKey:
    """What makes two positions "the same" for repetition: men, side to move, castling, en passant
    (a capture there that is legal, or merely possible when kings are not royal)."""
    can_take = board.has_legal_en_passant() if royal else board.has_pseudo_legal_en_passant()
    ep = board.ep_square if can_take else None
    return board.board_fen(), board.turn, board.clean_castling_rights(), ep


def repetitions(board: chess.Board, stop: Callable[[chess.Board], bool] | None = None, *,
                royal: bool = True, key: Callable[[chess.Board], Hashable] | None = None) -> int:
    """How often the current position has stood on the board since the last capture or pawn move.

    Counted by popping a copy: python-chess's own `is_repetition` re-plays moves with a plain push,
    which would lose a variant's after-move effects. `stop(probe)` ends the walk early, for a variant
    whose extra state makes earlier positions different (e.g. a check budget spent since). `key`
    says what makes two positions the same (default `position_key`).
    """
    plies = min(board.halfmove_clock, len(board.move_stack))
    if plies < 4:
        return 1
    probe = board.copy(stack=plies)
    same = key or (lambda b: position_key(b, royal))
    now, count = None, 1
    for _ in range(plies):
        probe.pop()
        if stop is not None and stop(probe):
            break
        if probe.turn == board.turn and probe.occupied == board.occupied:
            now = now or same(board)
            if same(probe) == now:
                count += 1
    return count


def captured_piece(board: chess.Board, move: chess.Move) -> chess.Piece | None:
    if board.is_en_passant(move):
        return chess.Piece(chess.PAWN, not board.turn)
    target = board.piece_at(move.to_square)
    if target is not None and target.color != board.turn:
        return target
    return None


def san_keys(board: chess.Board, move: chess.Move, legal: list[chess.Move], variant: ChessVariant[S]) -> set[str]:
    """Every spelling of `move` a player may type, normalised."""
    keys = {normalise_san(variant.san(board, move, legal))}
    piece = board.piece_type_at(move.from_square)
    if piece not in (chess.PAWN, None) and not board.is_castling(move):
        letter = chess.piece_symbol(piece).upper()
        frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
        promo = PROMOTION_LETTERS[move.promotion].upper() if move.promotion else ""
        keys |= {letter + to + promo, letter + frm + to + promo, letter + frm[0] + to + promo,
                 letter + frm[1] + to + promo}
    return keys


def reads_as_bishop_san(text: str) -> bool:
    """"B1c2" is a bishop from the first rank (SAN), not the from-to move b1c2: a capital B
    followed by a rank digit is never a square."""
    return len(text) > 1 and text[0] == "B" and text[1].isdigit()


_SAN_OR_CASTLING = re.compile(r"[KQRBNkqrbn]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNKqrbnk])?[+#!?]*|[O0](-?[O0]){1,2}[+#]?")
_LONG_ALGEBRAIC = re.compile(r"([KQRBNP]?)([a-h][1-8])[-x:]?([a-h][1-8])=?([QRBNKqrbnk]?)[+#!?]*(?:e\.p\.)?")


def long_algebraic(board: chess.Board, text: str) -> str | None:
    """The from-to move that long algebraic `d5xe4`, `e2-e4`, `Ng1-f3`, `e7-e8=Q` names, or None
    (also None when its piece letter is not the man on the from-square)."""
    found = _LONG_ALGEBRAIC.fullmatch(text)   # "e2 e4" is two parts, not a spelling of e2e4
    if not found:
        return None
    letter, frm, to, promo = found.groups()
    piece = board.piece_at(chess.parse_square(frm))
    if letter and (piece is None or piece.symbol().upper() != letter):
        return None
    return frm + to + promo.lower()


def looks_like_castling(board: chess.Board, text: str) -> bool:
    """O-O, O-O-O, or a king's two-square step along its home rank (e1g1)."""
    if text.replace("0", "O").upper().replace("-", "") in ("OO", "OOO"):
        return True
    try:
        move = chess.Move.from_uci(text.lower())
    except ValueError:
        return False
    return (board.kings & chess.BB_SQUARES[move.from_square] != 0
            and chess.square_rank(move.from_square) == chess.square_rank(move.to_square) in (0, 7)
            and abs(move.to_square - move.from_square) == 2)


class ChessGame(Game, Generic[S]):
    """A game of any `ChessVariant`: python-chess board plus the variant's extra state."""

    def __init__(self, variant: ChessVariant[S], *, seed: int | None = None, fen: str | None = None):
        super().__init__()
        self.variant = variant
        self.info = variant.info()
        self.board, self.state = variant.load(fen if fen is not None else variant.setup(seed))
        self._states: list[S] = []
        self._plain_push = not variant.after_effects

    @property
    def turn(self) -> str:
        return colour_name(self.board.turn)

    def legal_chess_moves(self) -> list[chess.Move]:
        """The variant's legal moves here, worked out once per position (kept while children are
        played and undone)."""
        memo = self._memo[-1]
        legal: list[chess.Move] | None = memo.get("legal")
        if legal is None:
            legal = memo["legal"] = self.variant.legal(self.board, self.state)
        return legal

    def _by_uci(self) -> dict[str, chess.Move]:
        memo = self._memo[-1]
        by_uci: dict[str, chess.Move] | None = memo.get("by_uci")
        if by_uci is None:
            by_uci = memo["by_uci"] = {m.uci(): m for m in self.legal_chess_moves()}
        return by_uci

    def _moves(self) -> list[str]:
        return list(self._by_uci())

    def _resolve(self, text: str) -> str:
        by_uci = self._by_uci()
        if text in by_uci:
            return text
        if text.lower() in by_uci and not reads_as_bishop_san(text):
            return text.lower()
        long = long_algebraic(self.board, text)
        if long in by_uci:
            return long
        legal = self.legal_chess_moves()
        matches = {m.uci() for m in self._spelled_by(text, legal)}
        if len(matches) == 1:
            return matches.pop()
        if len(matches) > 1:
            raise IllegalMove(ambiguous(text, sorted(matches)[0], "piece"))
        raise IllegalMove(self._why_not(long or text))

    def _why_not(self, text: str) -> str:
        if not self.variant.castling and looks_like_castling(self.board, text):
            return f"There is no castling in {self.variant.name}."
        try:
            if reads_as_bishop_san(text):
                raise ValueError(text)
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            named = self._spelled_by(text, self.variant.tries(self.board, self.state))
            return refuse_spelling(text, named, self._explain, shape=_SAN_OR_CASTLING)
        return refuse_step(self.board, move, self._own_reason)

    def _explain(self, move: chess.Move) -> str:
        return self.variant.explain(self.board, self.state, move)

    def _own_reason(self, move: chess.Move) -> str | None:
        """The variant's reason for refusing a step of the mover's man: its own for a candidate, else check."""
        if move in self.variant.tries(self.board, self.state):
            return self._explain(move)
        if self.variant.royal_king and self.board.is_pseudo_legal(move) and not self.board.is_legal(move):
            return "That leaves your king in check." if not self.board.is_check() else "You must get out of check."
        return None

    def _spelled_by(self, text: str, moves: list[chess.Move]) -> list[chess.Move]:
        """The moves among `moves` that `text` spells in SAN (disambiguated against `moves`)."""
        key = normalise_san(text)
        return [m for m in moves if key in san_keys(self.board, m, moves, self.variant)]

    def _apply(self, move: str) -> None:
        chosen: chess.Move = (self._memo[-1].get("by_uci") or self._by_uci())[move]
        self._states.append(self.state)
        if self._plain_push:
            self.board.push(chosen)   # no after-move effects: skip working out mover and capture
        else:
            self.state = self.variant.push(self.board, self.state, chosen)

    def _unapply(self) -> None:
        self.board.pop()
        self.state = self._states.pop()

    def _judge(self) -> Outcome | None:
        return self.variant.judge(self.board, self.state, self.legal_chess_moves())

    @property
    def position(self) -> "Position":
        """The current position as an immutable value (a copy: changing it changes nothing here)."""
        return Position(self.board.copy(stack=False), extra=self.state)

    def after(self, move: str) -> "Position":
        """The position after the legal turn `move` (canonical or SAN), this game unchanged."""
        chosen = self._by_uci()[self._resolve(" ".join(move.split()))]
        board = self.board.copy(stack=False)
        state = self.variant.push(board, self.state, chosen)
        return Position(board, extra=state)

    def label(self, move: str) -> str:
        chosen = self._by_uci().get(move)
        if chosen is None:
            return move
        return self.variant.san(self.board, chosen, self.legal_chess_moves())

    def last_move_label(self) -> str:
        """SAN of the last turn, worked out for display only (not on every play())."""
        if not self.board.move_stack:
            return ""
        before = self.board.copy(stack=1)
        move = before.pop()
        # the position before the move usually still has its legal moves cached (they judged the move)
        legal: list[chess.Move] | None = self._memo[-2].get("legal") if len(self._memo) >= 2 else None
        if legal is None:
            legal = self.variant.legal(before, self._states[-1])
        label = self.variant.san(before, move, legal)
        checks = self.variant.checked_kings(self.board, self.state)
        suffix = ("#" if self.outcome and self.outcome.kind == "checkmate" else "+") if checks else ""
        return label + suffix

    def claimable_outcome(self) -> Outcome | None:
        return None if self.outcome else self.variant.claimable_draw(self.board, self.state)

    @property
    def score(self) -> int | None:
        memo = self._memo[-1]
        if "score" not in memo:
            memo["score"] = self.variant.score(self.board, self.state)
        score: int | None = memo["score"]
        return score

    def fen(self) -> str:
        return self.variant.fen(self.board, self.state)

    def key(self) -> tuple[Hashable, int, int]:
        """See `Game.key`: the board's bitboards, turn, castling, en passant and extra state."""
        b = self.board
        return ((b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings, b.occupied_co[chess.WHITE],
                 b.turn, b.castling_rights, b.ep_square, self.state), b.halfmove_clock, b.fullmove_number)

    def men(self) -> Men:
        return board_men(self.board)

    def view(self) -> BoardView:
        pieces = {chess.square_name(sq): p.symbol() for sq, p in self.board.piece_map().items()}
        last: tuple[str, ...] = ()
        if self.board.move_stack:
            m = self.board.move_stack[-1]
            last = (chess.square_name(m.from_square), chess.square_name(m.to_square))
        checks = tuple(chess.square_name(sq) for sq in self.variant.checked_kings(self.board, self.state))
        return BoardView(8, 8, pieces, self.turn, last, checks, caption=self.variant.caption(self.board, self.state),
                         parts=(last,) if last else (), marks=self.variant.marks(self.board, self.state),
                         counts_moves=self.variant.caption_counts_moves)
