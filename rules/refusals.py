"""Refusals, written once: how a typed part that names no legal move is answered.

A variant finds its turn's refused part (one step, or `rules.parts.explain_by_prefix` for turns of
several parts) and says only its own reasons; the walk and the words every variant shares are here:

    refuse_step(board, move, why, owner=...)     a part typed as from-to squares: "No piece on e3.",
                                                 "The piece on e3 is not yours; it is white to move.",
                                                 else the variant's own reason `why(move)`, else
                                                 "That piece cannot move to e5."
    refuse_spelling(text, named, why, help)      a part typed otherwise (SAN): the variant's reason
                                                 for the one refused move `text` spells, else "Nf3
                                                 is not a legal move here.", else "I can't read ..."
    refuse_placement(parts, man, board, allowed, why)   a placement typed after a legal capture: its
                                                 shape, one square, a square name, an empty square,
                                                 else the variant's sentence `why`
    whose(board, square, ...), cannot_reach(move), ambiguous(text, example)   the sentences alone
    counted(3, "part")                           "three parts": a count in words, and its noun
"""
from __future__ import annotations

import re
from typing import Callable, Collection, Sequence, TypeVar

import chess

from .core import BLACK, WHITE

SAN_SHAPE = re.compile(   # a one-part turn written in SAN (`Nf3`, `exd8=R`, `Kxe2+`)
    r"[KQRBNkqrbn]?[a-h]?[1-8]?[x:]?[a-h][1-8](=?[QRBNqrbn])?[+#!?]*")
FROM_TO_OR_SAN = "Use from-to squares like e2e4, or SAN like Nf3."   # how to type a move, after "I can't read"

M = TypeVar("M")

def whose(board: chess.Board, square: chess.Square, owner: Callable[[chess.Square], chess.Color | None] | None = None,
          say_turn: bool = True) -> str | None:
    """Why the man on `square` may not move for the side to move (none there, or not its own), or None.
    `owner` gives who owns a man where that is not its colour."""
    piece = board.piece_at(square)
    if piece is None:
        return f"No piece on {chess.square_name(square)}."
    if (piece.color if owner is None else owner(square)) != board.turn:
        turn = f"; it is {WHITE if board.turn == chess.WHITE else BLACK} to move" if say_turn else ""
        return f"The piece on {chess.square_name(square)} is not yours{turn}."
    return None


def cannot_reach(move: chess.Move) -> str:
    return f"That piece cannot move to {chess.square_name(move.to_square)}."


def refuse_step(board: chess.Board, move: chess.Move, why: Callable[[chess.Move], str | None],
                owner: Callable[[chess.Square], chess.Color | None] | None = None) -> str:
    """The refusal of the step `move`, typed as from-to squares: whose man it is, then the variant's
    own reason (`why`, None when it has none), then that the man cannot go there."""
    return whose(board, move.from_square, owner) or why(move) or cannot_reach(move)


def refuse_spelling(text: str, named: Sequence[M], why: Callable[[M], str], help: str = FROM_TO_OR_SAN,
                    shape: re.Pattern[str] = SAN_SHAPE) -> str:
    """The refusal of `text`, typed otherwise than from-to: the variant's reason for the one refused
    move in `named` (the candidates `text` spells), else "not a legal move" when `text` has the
    shape of a move, else how to type one (`help`)."""
    if len(named) == 1:
        return why(named[0])
    if shape.fullmatch(text):
        return f"{text} is not a legal move here."
    return f"I can't read {text!r} as a move. {help}"


def refuse_placement(parts: Sequence[str], man: chess.PieceType, board: chess.Board, allowed: Collection[str],
                     why: str) -> str | None:
    """The refusal of the placement `parts[1]` of the captured `man`, typed after the legal capture
    `parts[0]` (`board`: the position after it; `allowed`: the placements the rules allow, "Q@a1"):
    a placement of that man, on one square, a square's name, an empty square, else `why` (the
    variant's reason, said after "...is not a placement you can make:"). None for an allowed one."""
    letter, name = chess.piece_symbol(man).upper(), chess.piece_name(man).capitalize()
    head = f"{parts[0]} is fine, but {parts[1]} is not a placement you can make:"
    placed = parts[1].split("@")
    if len(placed) < 2 or placed[0].upper() != letter:
        return f"{head} you captured the {name}, so place it: {letter}@<square>."
    if len(placed) > 2:   # "Q@a1@b2": one man goes on one square
        return f"{parts[0]} is fine, but {parts[1]!r} is not a placement: place the {name} on one square, like {min(allowed)}."
    square = placed[1].lower()
    if square not in chess.SQUARE_NAMES:
        return f"{head} {square!r} is not a square."
    if board.piece_at(chess.parse_square(square)) is not None:
        return f"{head} {square} is not empty."
    if f"{letter}@{square}" in allowed:
        return None   # a placement the rules allow: the shared wording says what is wrong
    return f"{head} {why}"


_UNITS = ("no one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def counted(count: int, noun: str) -> str:
    """"no parts", "one part", "twenty-three parts": a count in words (digits from 100) and its noun."""
    if count >= 100:
        words = str(count)
    elif count >= 20:
        words = _TENS[count // 10 - 2] + (f"-{_UNITS[count % 10]}" if count % 10 else "")
    else:
        words = _UNITS[count]
    return f"{words} {noun}{'' if count == 1 else 's'}"


def ambiguous(text: str, example: str, man: str = "man") -> str:
    return f"{text} is ambiguous: say which {man}, e.g. {example}."
