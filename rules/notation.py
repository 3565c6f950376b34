"""Chess notation on python-chess boards, shared by both floors of the rules core.

    san(board, move, legal)   short algebraic notation without check marks ("Nbd2", "exd6", "e8=Q", "O-O")
    normalise_san(text)       what a player typed, without checks, captures, dashes and annotations
    spellings(board, moves)   every normalised spelling of each move (from-to, SAN, piece letter forms)
    spelled(board, text, moves)  the moves among `moves` that the typed part `text` spells
    numbered(board, text)     a move numbered as in a game score ("2 g4", "2...Qh4#")

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
        file = chess.square_file(move.from_square)
        prefix = chess.FILE_NAMES[file] + "x" if capture else ""
        if any(m.to_square == move.to_square and m.from_square != move.from_square and m.promotion == move.promotion
               and (not capture or chess.square_file(m.from_square) == file)
               and board.piece_type_at(m.from_square) in (chess.PAWN, None) for m in legal):
            # men whose pawns step sideways or back (Reentrant, Concurrent): the from-square says which
            return chess.square_name(move.from_square) + ("x" if capture else "") + to + promo
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


def numbered(board: chess.Board, text: str, *, last: bool = False) -> str:
    """The move `text` numbered as in a game score ("2 g4", "2...Qh4#"): a move of the side to
    move on `board`, or with `last` the move just played (by the other side, at the move number
    before the side to move's turn when that is White)."""
    white = board.turn == chess.WHITE
    if last:
        return f"{board.fullmove_number - 1}...{text}" if white else f"{board.fullmove_number} {text}"
    return f"{board.fullmove_number} {text}" if white else f"{board.fullmove_number}...{text}"


def spellings(board: chess.Board, moves: list[chess.Move]) -> dict[str, set[str]]:
    """Normalised spellings of each of `moves` (the legal moves of the men on `board`) -> their
    from-to texts: the from-to text itself, SAN, SAN as if no other man could go there ("e3" for
    two pawns that can: then ambiguous), and a piece letter with the target square, alone or after
    the from-square, its file or its rank ("Nf3", "Ng1f3", "Ngf3", "N1f3")."""
    found: dict[str, set[str]] = {}
    for move in moves:
        keys = {move.uci(), normalise_san(san(board, move, moves)), normalise_san(san(board, move, [move]))}
        piece = board.piece_type_at(move.from_square)
        if piece not in (chess.PAWN, None):
            letter = chess.piece_symbol(piece).upper()
            frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
            promo = PROMOTION_LETTERS[move.promotion].upper() if move.promotion else ""
            keys |= {letter + to + promo, letter + frm + to + promo, letter + frm[0] + to + promo,
                     letter + frm[1] + to + promo}
        for key in keys:
            found.setdefault(key, set()).add(move.uci())
    return found


_FROM_TO = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


def spelling_key(text: str) -> str:
    """The key of a typed part in `spellings`: a from-to text in lower case ("E2E4" -> "e2e4"; but
    "B1c2" is a bishop's SAN), else its normalised SAN."""
    lowered = text.lower()
    if _FROM_TO.fullmatch(lowered) and not (text[0] == "B" and text[1].isdigit()):
        return lowered
    return normalise_san(text)


def spelled(board: chess.Board, text: str, moves: list[chess.Move]) -> set[str]:
    """The from-to texts of the moves among `moves` that the typed part `text` spells."""
    return spellings(board, moves).get(spelling_key(text), set())


_SAN_NOISE = re.compile(r"[+#!?x:=\-\s]|e\.p\.")


def normalise_san(text: str) -> str:
    text = text.strip()
    if text.replace("0", "O").upper().replace("-", "") in ("OO", "OOO"):
        return text.replace("0", "O").upper().replace("-", "")
    text = _SAN_NOISE.sub("", text)
    if len(text) >= 3 and text[-1] in "qrbnk" and text[-2].isdigit():
        text = text[:-1] + text[-1].upper()   # e8q -> e8Q
    return text
