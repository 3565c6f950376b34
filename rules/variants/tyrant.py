"""Tyrant Chess: only Kings and Queens capture; a captured monarch is placed back at once.

Rules card: data/rules/tyrant.md. Men as data: King `K` and Queen `Q` move and capture, the
others only move (`mR`, `mB`, `mN`, pawn `fmW` + initial double step). No royalty: no check, no
castling, no en passant (pawns never capture). A capture of a monarch is a turn of two parts,
the capture then the placement of the captured monarch (it stays the opponent's) on an empty
square the capturer's King and Queen do not attack: `d1d8 Q@a1`. The mover wins when the
opponent has nothing left but his monarchs.
"""
from __future__ import annotations

from collections.abc import Mapping

import chess

from ..core import Outcome
from ..lookahead import after as position_after
from ..men import NO_ROYALTY, Man, man_at
from ..position import Drop, FairyTurn, Judged, PartsVariant, Position, Step, colour_of


class Tyrant(PartsVariant[FairyTurn]):
    slug = "tyrant"
    name = "Tyrant Chess"
    family = "GOAL"
    summary = "Only kings and queens capture; captured monarchs come back. Leave him only his monarchs."
    men = {"k": Man("king", "K"), "q": Man("queen", "Q"), "r": Man("rook", "mR"), "b": Man("bishop", "mB"),
           "n": Man("knight", "mN"), "p": Man("pawn", "fmWifmnD")}
    royalty = NO_ROYALTY
    promotions = "rbn"
    clear_en_passant = True
    back_rank_pawns = False
    drop_words = "places the {man} on {square}"

    def validate(self, position: Position) -> None:
        super().validate(position)
        board = position.board
        for colour in chess.COLORS:
            for kind in (chess.KING, chess.QUEEN):
                if len(board.pieces(kind, colour)) > 1:
                    raise ValueError("Each side has at most one King and one Queen.")

    def follow_ups(self, position: Position, move: chess.Move, after: chess.Board) -> list[tuple[Step | Drop, ...]]:
        captured = position.board.piece_type_at(move.to_square)
        if captured not in (chess.KING, chess.QUEEN):
            return [()]
        return [(Drop(chess.piece_symbol(captured).upper(), sq),) for sq in placements(after, not after.turn)]

    def explain(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str:
        parts = text.split()
        first = self.spell_first(position, parts[0], turns)
        if first is None or len(parts) != 2 or not any(t.startswith(first + " ") for t in turns):
            return super().explain(position, text, turns)
        board = position.board
        move = chess.Move.from_uci(first)
        letter = man_at(board, move.to_square).symbol().upper()
        placed = parts[1]
        head = f"{parts[0]} is fine, but {placed} is not a placement you can make:"
        if "@" not in placed or placed.split("@")[0].upper() != letter:
            return f"{head} you captured the {chess.piece_name(chess.PIECE_SYMBOLS.index(letter.lower())).capitalize()}, so place it: {letter}@<square>."
        square = placed.split("@")[1].lower()
        if square not in chess.SQUARE_NAMES:
            return f"{head} {square!r} is not a square."
        if position_after(board, move).piece_at(chess.parse_square(square)) is not None:
            return f"{head} {square} is not empty."
        return f"{head} your King or Queen could capture it there at once."

    def drop_colour(self, position: Position, board: chess.Board, part: Drop) -> bool:
        return board.turn   # the placed monarch stays the opponent's (now to move)

    def why_refused(self, position: Position, move: chess.Move) -> str:
        return "Only Kings and Queens capture in Tyrant Chess."

    def why_not_first(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str:
        board = position.board
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            return super().why_not_first(position, text, turns)
        piece = board.piece_at(move.from_square)
        target = board.piece_at(move.to_square)
        if (piece is not None and piece.color == board.turn and target is not None and target.color != board.turn
                and piece.piece_type not in (chess.KING, chess.QUEEN)):
            return "Only Kings and Queens capture in Tyrant Chess."
        if piece is not None and piece.piece_type == chess.PAWN and move.promotion == chess.QUEEN:
            return "A pawn promotes only to a Rook, Bishop or Knight."
        return super().why_not_first(position, text, turns)

    def judge_goal(self, seen: Judged) -> Outcome | None:
        if seen.last is None:
            return None   # judged after a turn only (rules card)
        board = seen.position.board
        loser = board.turn
        if not board.occupied_co[loser] & ~(board.kings | board.queens):
            return Outcome.win(colour_of(not loser), "all men except the monarchs eliminated", "goal")
        return None

    def checked(self, position: Position) -> list[int]:
        return []


def placements(board: chess.Board, capturer: bool) -> list[int]:
    """Empty squares where the capturer's King and Queen could not capture at once (rules card);
    every empty square if there is none."""
    attacked = 0
    for square in chess.scan_forward((board.kings | board.queens) & board.occupied_co[capturer]):
        attacked |= board.attacks_mask(square)
    empty = ~board.occupied & chess.BB_ALL
    safe = empty & ~attacked
    return list(chess.scan_forward(safe or empty))


VARIANT = Tyrant()
