"""`FairyVariant`: a `PartsVariant` whose men, royalty and hands are data.

A variant states:

    men = {**FIDE_MEN, "q": Man("queen", "N")}   # letter -> Man (Betza-like, see rules.men)
    royalty = Royalty("kq", uncapturable="q")    # royal men; men that may never be captured
    promotions = "rbn"                            # what a pawn becomes on its last rank ("" never)
    region = whole_board                          # confinement of a man by its square (half-boards)

and gets: one-part turns from the data (`e2e4`, `a7a8n`), kept when no royal man of the mover is
attacked afterwards; check marks and "checkmate"/"stalemate" from the same data; SAN for the
step part of a typed turn (`Nf3`, `Qxd8 Q@a1`); per-part refusal sentences.

Hooks, all optional:
    allows(position, before, after, move)   is this step legal? (default: royal men safe after it)
    follow_ups(position, move, after) -> list[tuple[Step | Drop, ...]]
                                            the parts that must follow a step (Tyrant's placement);
                                            [()] when the step is a whole turn
    drops(position) -> list[Drop]           drops from hand available now (default: none)
    after_step(position, move, board, captured) -> Position
                                            the position once the step is on `board` (hands)
    place(position, board, part)            play a later part on `board` (default: Drop places a
                                            man of the colour `drop_colour` says)
No castling on this floor (none of its variants has it); en passant works for men whose data
say `en_passant=True`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

import chess

from .core import (
    IllegalMove,
    Outcome,
)
from .men import FIDE_MEN, Man, MenTable, Region, Royalty, whole_board
from .notation import normalise_san, san
from .position import (
    Drop,
    Judged,
    PartsVariant,
    Position,
    Step,
    colour_of,
    explain_by_prefix,
    label_text,
    turn_text,
)

# A turn on this floor: a step or a drop, then the parts that must follow it (a placement).
FairyTurn = tuple[Step | Drop, ...]

SAN_SHAPE = re.compile(r"[KQRBNkqrbn]?[a-h]?[1-8]?[x:]?[a-h][1-8](=?[QRBNqrbn])?[+#!?]*")


class FairyVariant(PartsVariant[FairyTurn]):
    men: Mapping[str, Man] = FIDE_MEN
    royalty: Royalty = Royalty("k")
    promotions: str = "qrbn"
    region: Region = staticmethod(whole_board)
    clear_en_passant: bool = False        # no en passant at all: never keep the square in the FEN
    promotion_refusal: str = ""           # the sentence for a typed promotion outside `promotions` ("": generic)
    says_no_castling: bool = False        # a typed king step of two files on its rank: "There is no castling in ..."
    back_rank_pawns: bool = True          # False: a set-up with a pawn on the first or last rank is refused

    def __init__(self) -> None:
        self.table = MenTable(self.men, region=self.region)

    # -- set-up ----------------------------------------------------------------------------------
    def load(self, fen: str) -> Position:
        """No castling on this floor, whatever the FEN says; the en passant square is kept only
        where a pawn could take there (as after a move)."""
        position = super().load(fen)
        board = position.board
        board.castling_rights = chess.BB_EMPTY
        if board.ep_square is not None and (self.clear_en_passant or not board.has_pseudo_legal_en_passant()):
            board.ep_square = None
        return position

    def validate(self, position: Position) -> None:
        super().validate(position)
        if not self.back_rank_pawns and position.board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
            raise ValueError("A pawn cannot stand on the first or last rank.")

    # -- turns -----------------------------------------------------------------------------------
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

    def turns(self, position: Position) -> dict[str, FairyTurn]:
        board = position.board
        work = board.copy(stack=False)
        out: dict[str, FairyTurn] = {}
        for move in self.steps(position):
            work.push(move)
            if self.allows(position, board, work, move):
                step = (Step(move),)
                for rest in self.follow_ups(position, move, work):
                    turn = step + tuple(rest)
                    out[turn_text(turn)] = turn
            work.pop()
        for drop in self.drops(position):
            out[drop.text] = (drop,)
        return out

    def captured(self, board: chess.Board, move: chess.Move) -> chess.Piece | None:
        if board.is_en_passant(move):
            return chess.Piece(chess.PAWN, not board.turn)
        target = board.piece_at(move.to_square)
        return target if target is not None and target.color != board.turn else None

    def after(self, position: Position, turn: FairyTurn) -> Position:
        board = position.edit()
        first = turn[0]
        if isinstance(first, Step):
            captured = self.captured(board, first.move)
            board.push(first.move)
            result = self.after_step(position, first.move, board, captured)
        else:
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

    def place(self, position: Position, board: chess.Board, part: Step | Drop) -> None:
        if isinstance(part, Drop):
            piece = chess.Piece(chess.PIECE_SYMBOLS.index(part.letter.lower()), self.drop_colour(position, board, part))
            chess.BaseBoard.set_piece_at(board, part.square, piece)
        else:
            raise NotImplementedError(type(part).__name__)

    # -- typed turns ------------------------------------------------------------------------------
    def step_spellings(self, position: Position, turns: Mapping[str, FairyTurn]) -> dict[str, set[str]]:
        """Normalised spellings (SAN and piece-letter forms) -> canonical step texts."""
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
        return found

    def spell(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str | None:
        parts = text.split()
        rest = [p if "@" in p else p.lower() for p in parts[1:]]
        rest = [p[0].upper() + p[1:] if "@" in p else p for p in rest]
        first = parts[0]
        candidates = {first.lower()} if "@" not in first else {first[0].upper() + first[1:]}
        if "@" not in first:
            candidates |= self.step_spellings(position, turns).get(normalise_san(first), set())
        hits = {" ".join([c, *rest]) for c in candidates} & set(turns)
        if len(hits) == 1:
            return hits.pop()
        if len(hits) > 1:
            raise IllegalMove(f"{parts[0]} is ambiguous: say which man, e.g. {min(hits).split()[0]}.")
        return None

    def explain(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str:
        parts = text.split()
        firsts = {t.split(" ")[0] for t in turns}
        spelled = self.spell_first(position, parts[0], turns)
        if spelled is None:
            return self.why_not_first(position, parts[0], turns)
        if len(parts) == 1 and spelled not in turns:
            return explain_by_prefix([spelled], turns)
        if spelled in firsts:
            return explain_by_prefix([spelled, *parts[1:]], turns)
        return f"{parts[0]} is not a legal move here."

    def spell_first(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str | None:
        firsts = {t.split(" ")[0] for t in turns}
        if "@" in text:
            text = text[0].upper() + text[1:]
            return text if text in firsts else None
        if text.lower() in firsts:
            return text.lower()
        hits = self.step_spellings(position, turns).get(normalise_san(text), set())
        return next(iter(hits)) if len(hits) == 1 else None

    def why_not_first(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str:
        board = position.board
        if "@" in text:
            return f"You cannot drop {text} here."
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            if not SAN_SHAPE.fullmatch(text):
                return f"I can't read {text!r} as a move. Use from-to squares like e2e4, or SAN like Nf3."
            pseudo = self.steps(position)
            key = normalise_san(text)
            hits = [m for m in pseudo if normalise_san(san(board, m, pseudo)) == key]
            if len(hits) == 1:
                return self.why_refused(position, hits[0])
            return f"{text} is not a legal move here."
        piece = board.piece_at(move.from_square)
        if piece is None:
            return f"No piece on {chess.square_name(move.from_square)}."
        if self.owner(position, move.from_square) != board.turn:
            return f"The piece on {chess.square_name(move.from_square)} is not yours; it is {colour_of(board.turn)} to move."
        if (self.promotion_refusal and piece.piece_type == chess.PAWN and move.promotion
                and chess.piece_symbol(move.promotion) not in self.promotions):
            return self.promotion_refusal
        if (self.says_no_castling and piece.piece_type == chess.KING
                and abs(move.to_square - move.from_square) == 2
                and chess.square_rank(move.from_square) == chess.square_rank(move.to_square)):
            return f"There is no castling in {self.name}."
        if move in self.steps(position) or chess.Move(move.from_square, move.to_square) in self.steps(position):
            return self.why_refused(position, move)
        return f"That piece cannot move to {chess.square_name(move.to_square)}."

    def why_refused(self, position: Position, move: chess.Move) -> str:
        return "That leaves a royal man of yours in check."

    def owner(self, position: Position, square: int) -> bool | None:
        return position.board.color_at(square)

    # -- the end and the view -----------------------------------------------------------------------
    def checked(self, position: Position) -> list[int]:
        board = position.board
        return self.royalty.checked(board, board.turn, self.table)

    def label(self, before: Position, turn: FairyTurn, turns: Mapping[str, FairyTurn]) -> str:
        first = turn[0]
        if isinstance(first, Step):
            moves = [t[0].move for t in turns.values() if isinstance(t[0], Step)]
            head = san(before.board, first.move, moves)
        else:
            head = first.text
        return label_text([head, *(p.text for p in turn[1:])])


__all__ = ["FairyTurn", "FairyVariant", "Judged", "Outcome"]
