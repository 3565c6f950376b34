"""Clerical Chess (Tony Paletta): capture both enemy bishops to win.

The king is an ordinary man (no check, may be captured), there is no castling, pawns promote
to queen, rook, knight or king but never bishop, and a player's last bishop, when attacked at
the start of its owner's turn, moves only as a ferz (one square diagonally). Plain FEN; the
castling field is always `-`.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

import chess

from ..chess_variant import ChessGame, ChessVariant, colour_name
from ..core import Outcome, VariantInfo

NO_LEGAL_MOVE = "stalemate (no legal move)"
NO_BISHOP_PROMOTION = "Pawns may not promote to a bishop: choose a queen, rook, knight or king."


def restricted_bishop(board: chess.Board) -> chess.Square | None:
    """The mover's only bishop if it is attacked now (it may then only step one square)."""
    bishops = board.bishops & board.occupied_co[board.turn]
    if chess.popcount(bishops) != 1:
        return None
    square = chess.lsb(bishops)
    return square if board.is_attacked_by(not board.turn, square) else None


def automatic_draw(board: chess.Board) -> Outcome | None:
    """FIDE's automatic draws except insufficient material, which FIDE defines by checkmate."""
    if board.halfmove_clock >= 150:
        return Outcome.draw("75 moves without a capture or pawn move")
    if board.is_repetition(5):
        return Outcome.draw("fivefold repetition")
    return None


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


class NoCastlingGame(ChessGame):
    """Says "no castling" instead of "cannot move there" for a castling attempt."""

    def _why_not(self, text: str) -> str:
        if looks_like_castling(self.board, text):
            return f"There is no castling in {self.variant.name}."
        if re.fullmatch(r"[a-h]?x?[a-h][18]=?[Bb][+#]?", text):
            return NO_BISHOP_PROMOTION
        return super()._why_not(text)


class Clerical(ChessVariant):
    slug = "clerical"
    name = "Clerical Chess"
    summary = "Capture both enemy bishops. Kings are ordinary men; your last bishop, if attacked, steps."
    royal_king = False
    castling = False
    promotions = "qrnk"

    def load(self, fen: str) -> tuple[chess.Board, Any]:
        board, state = super().load(fen)
        board.castling_rights = chess.BB_EMPTY    # no castling, whatever the FEN says
        return board, state

    def fen(self, board: chess.Board, state: Any) -> str:
        # "xfen": write the en passant square whenever a capture there is possible; with no
        # royal king python-chess's "legal" test could hide a capture we allow.
        return board.fen(en_passant="xfen")

    def generate(self, board: chess.Board, state: Any) -> Iterator[chess.Move]:
        # Bishop promotions stay candidates so that `explain` can say why they are refused.
        for move in board.generate_pseudo_legal_moves():
            yield move
            if move.promotion == chess.KNIGHT:
                yield chess.Move(move.from_square, move.to_square, chess.KING)

    def allows(self, board: chess.Board, state: Any, move: chess.Move) -> bool:
        if move.promotion == chess.BISHOP:
            return False
        if board.bishops & chess.BB_SQUARES[move.from_square] and move.from_square == restricted_bishop(board):
            return chess.square_distance(move.from_square, move.to_square) == 1
        return True

    def explain(self, board: chess.Board, state: Any, move: chess.Move) -> str:
        if move.promotion == chess.BISHOP:
            return NO_BISHOP_PROMOTION
        if move.from_square == restricted_bishop(board):
            return "Your last bishop is attacked: it may only step one square diagonally."
        return super().explain(board, state, move)

    def judge(self, board: chess.Board, state: Any, legal: list[chess.Move]) -> Outcome | None:
        white_has = bool(board.bishops & board.occupied_co[chess.WHITE])
        black_has = bool(board.bishops & board.occupied_co[chess.BLACK])
        if not white_has and not black_has:
            return Outcome.draw("neither side has a bishop")
        if not white_has or not black_has:
            winner = chess.WHITE if white_has else chess.BLACK
            return Outcome.win(colour_name(winner), "both bishops captured")
        if not legal:
            return Outcome.draw(NO_LEGAL_MOVE)
        return automatic_draw(board)

    def info(self) -> VariantInfo:
        return VariantInfo(self.slug, self.name, self.players, self.summary, 8, 8,
                           create=lambda seed, fen: NoCastlingGame(self, seed=seed, fen=fen))


VARIANT = Clerical()
