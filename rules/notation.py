"""Chess notation on python-chess boards, shared by both floors of the rules core.

    san(board, move, legal)   short algebraic notation without check marks ("Nbd2", "exd6", "e8=Q", "O-O")
    normalise_san(text)       what a player typed, without checks, captures, dashes and annotations

Depends on python-chess alone, so `rules.chess_variant` and `rules.fairy` both build on it.
"""
from __future__ import annotations

import re

import chess

PROMOTION_LETTERS = {chess.QUEEN: "q", chess.ROOK: "r", chess.BISHOP: "b", chess.KNIGHT: "n", chess.KING: "k"}


def san(board: chess.Board, move: chess.Move, legal: list[chess.Move]) -> str:
    """Short algebraic notation without check marks, disambiguated against `legal`."""
    piece = board.piece_type_at(move.from_square)
    if piece == chess.KING and board.is_castling(move):
        return "O-O" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "O-O-O"
    to = chess.square_name(move.to_square)
    capture = board.is_capture(move)
    promo = "=" + PROMOTION_LETTERS[move.promotion].upper() if move.promotion else ""
    if piece == chess.PAWN or piece is None:
        prefix = chess.FILE_NAMES[chess.square_file(move.from_square)] + "x" if capture else ""
        return prefix + to + promo
    rivals = [m.from_square for m in legal
              if m.to_square == move.to_square and m.from_square != move.from_square
              and board.piece_type_at(m.from_square) == piece]
    dis = ""
    if rivals:
        file, rank = chess.square_file(move.from_square), chess.square_rank(move.from_square)
        if all(chess.square_file(r) != file for r in rivals):
            dis = chess.FILE_NAMES[file]
        elif all(chess.square_rank(r) != rank for r in rivals):
            dis = chess.RANK_NAMES[rank]
        else:
            dis = chess.square_name(move.from_square)
    return chess.piece_symbol(piece).upper() + dis + ("x" if capture else "") + to + promo


_SAN_NOISE = re.compile(r"[+#!?x:=\-\s]|e\.p\.")


def normalise_san(text: str) -> str:
    text = text.strip()
    if text.replace("0", "O").upper().replace("-", "") in ("OO", "OOO"):
        return text.replace("0", "O").upper().replace("-", "")
    text = _SAN_NOISE.sub("", text)
    if len(text) >= 3 and text[-1] in "qrbnk" and text[-2].isdigit():
        text = text[:-1] + text[-1].upper()   # e8q -> e8Q
    return text
