"""Dynastic Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): capture both enemy monarchs,
the King and the Queen; each moves like a Queen from next to its partner, else like a Knight, and
like a King once its partner is gone.

Rules card: data/rules/dynastic.md. No check: neither monarch is royal. The monarchs' pattern
is data (`PATTERNS`): which pattern a monarch has is decided by where it starts its move, next to
its partner of the same colour (8 squares), away from it, or alone. The other men are FIDE men
(python-chess's generator). No castling; pawns promote to Rook, Bishop or Knight.

A King's slide from e1 to g1 or c1 (e8 to g8 or c8) is not castling here: python-chess's `push`
would read it as castling, so those moves are played by hand (`push`), and written `Kg1`.
A plain FEN is enough; its castling field is ignored. A FEN in which a side has no monarch left
is refused (rules card): the game would be over.
"""
from __future__ import annotations

from typing import Iterator

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, captured_piece, colour_name, san
from ..core import Outcome
from ..men import NO_ROYALTY, Man, MenTable, man_at

MONARCHS = (chess.KING, chess.QUEEN)
# A monarch's pattern by its situation at the start of its move, as men keyed by the letter whose
# pattern it borrows.
MONARCH_MEN = {
    "q": Man("monarch next to its partner", "Q"),
    "n": Man("monarch apart from its partner", "N"),
    "k": Man("monarch whose partner is captured", "K"),
}
MONARCH_TABLE = MenTable(MONARCH_MEN)
PATTERNS = {"next to partner": chess.QUEEN, "apart": chess.KNIGHT, "alone": chess.KING}
PATTERN_WORDS = {chess.QUEEN: "like a Queen", chess.KNIGHT: "like a Knight", chess.KING: "like a King (one step)"}
NAMES = {chess.KING: "King", chess.QUEEN: "Queen"}
CASTLING_LIKE = {(chess.E1, chess.G1), (chess.E1, chess.C1), (chess.E8, chess.G8), (chess.E8, chess.C8)}


def partner_of(board: chess.Board, square: int) -> int | None:
    """The square of the other monarch of the same colour as the monarch on `square` (rules card)."""
    piece = man_at(board, square)
    other = chess.QUEEN if piece.piece_type == chess.KING else chess.KING
    mask = board.pieces_mask(other, piece.color)
    return chess.lsb(mask) if mask else None


def situation(board: chess.Board, square: int) -> str:
    partner = partner_of(board, square)
    if partner is None:
        return "alone"
    return "next to partner" if chess.square_distance(square, partner) == 1 else "apart"


def pattern(board: chess.Board, square: int) -> int:
    """The piece type whose pattern the monarch on `square` moves with now."""
    return PATTERNS[situation(board, square)]


def reach(board: chess.Board, kind: int, square: int) -> int:
    """Squares the monarch on `square` reaches with the pattern of `kind` (own men left out)."""
    colour = chess.WHITE if board.occupied_co[chess.WHITE] & chess.BB_SQUARES[square] else chess.BLACK
    moves, attacks = MONARCH_TABLE.reach(board, square, chess.Piece(kind, colour))
    return (moves | attacks) & ~board.occupied_co[colour]


def monarch_moves(board: chess.Board) -> Iterator[chess.Move]:
    colour = board.turn
    own = board.occupied_co[colour]
    for square in chess.scan_forward((board.kings | board.queens) & own):
        for target in chess.scan_forward(reach(board, pattern(board, square), square)):
            yield chess.Move(square, target)


def monarchs_left(board: chess.Board, colour: chess.Color) -> int:
    return chess.popcount((board.kings | board.queens) & board.occupied_co[colour])


def is_castling_like(board: chess.Board, move: chess.Move) -> bool:
    """A King's slide python-chess would mistake for castling."""
    return (move.from_square, move.to_square) in CASTLING_LIKE and bool(board.kings & chess.BB_SQUARES[move.from_square])


class Dynastic(ChessVariant[None]):
    slug = "dynastic"
    name = "Dynastic Chess"
    family = "GOAL"
    summary = ("Capture both the enemy King and Queen. No check. A monarch moves like a Queen from "
               "next to its partner, else like a Knight, and like a King once alone.")
    start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    royalty = NO_ROYALTY
    castling = Castling.NONE
    reads_castling_field = False      # rules card: castling rights are ignored
    promotions = "rbn"
    insufficient_material = False      # rules card
    initial_state = None     # no extra state beyond the board
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move`/`push` change more than the move

    # -- FEN -------------------------------------------------------------------------------------
    def validate(self, board: chess.Board, state: None) -> None:
        # A side that has lost its King is fine (the Queen moves on as a King); only the monarchs
        # are counted here.
        bad = board.status() & BOARD_FAULTS
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")
        for colour in chess.COLORS:
            for kind in MONARCHS:
                if len(board.pieces(kind, colour)) > 1:
                    raise ValueError(f"Each side has at most one King and one Queen in {self.name}.")
            if not monarchs_left(board, colour):
                raise ValueError(f"{colour_name(colour).capitalize()} has no King and no Queen: "
                                 "the game would be over.")

    # -- moves -----------------------------------------------------------------------------------
    def legal(self, board: chess.Board, state: None) -> list[chess.Move]:
        moves = [m for m in board.generate_pseudo_legal_moves(from_mask=~(board.kings | board.queens))
                 if m.promotion != chess.QUEEN]
        moves.extend(monarch_moves(board))
        return moves

    def generate(self, board: chess.Board, state: None) -> Iterator[chess.Move]:
        """Candidates a player may try, legal or not, so that a refusal can say why: every
        pseudo-legal FIDE move (queen promotions too) and every square a monarch could reach with
        any of its three patterns."""
        yield from board.generate_pseudo_legal_moves(from_mask=~(board.kings | board.queens))
        own = board.occupied_co[board.turn]
        for square in chess.scan_forward((board.kings | board.queens) & own):
            every = 0
            for kind in set(PATTERNS.values()):
                every |= reach(board, kind, square)
            for target in chess.scan_forward(every & ~own):
                yield chess.Move(square, target)

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        return move in self.legal(board, state)

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        if move.promotion == chess.QUEEN:
            return "In Dynastic Chess a pawn promotes only to a Rook, Bishop or Knight."
        piece = board.piece_at(move.from_square)
        partner_square = partner_of(board, move.from_square) if piece is not None and piece.piece_type in MONARCHS else None
        if piece is not None and piece.piece_type in MONARCHS:
            name = NAMES[piece.piece_type]
            partner = NAMES[chess.QUEEN if piece.piece_type == chess.KING else chess.KING]
            where = situation(board, move.from_square)
            how = PATTERN_WORDS[PATTERNS[where]]
            if where == "alone":
                why = f"your {partner} has been captured"
            elif where == "next to partner" and partner_square is not None:
                why = f"it starts next to your {partner} (on {chess.square_name(partner_square)})"
            else:
                why = f"it does not start next to your {partner}"
            return f"Your {name} moves {how} now, because {why}, so it cannot move to {chess.square_name(move.to_square)}."
        return f"{move.uci()} is not allowed in {self.name}."

    def push(self, board: chess.Board, state: None, move: chess.Move) -> None:
        if not is_castling_like(board, move):
            board.push(move)
            return state
        # A King sliding two squares along its home rank: python-chess would castle. Play it by
        # hand on top of a null move (which snapshots the board for `pop`, swaps the turn and keeps
        # the counters) and record the real move.
        colour = board.turn
        captured = captured_piece(board, move)
        board.push(chess.Move.null())
        board.move_stack[-1] = move
        chess.BaseBoard.remove_piece_at(board, move.from_square)
        chess.BaseBoard.set_piece_at(board, move.to_square, chess.Piece(chess.KING, colour))
        if captured is not None:
            board.halfmove_clock = 0
        return state

    def san(self, board: chess.Board, move: chess.Move, legal: list[chess.Move]) -> str:
        # Any King move that crosses two or more files (a leap such as b1d2, a slide such as e1g1)
        # reads as castling to python-chess; there is one King a side, so "K" + square is enough.
        if board.kings & chess.BB_SQUARES[move.from_square]:
            return "K" + ("x" if board.is_capture(move) else "") + chess.square_name(move.to_square)
        return san(board, move, legal)

    # -- the end ---------------------------------------------------------------------------------
    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        for colour in chess.COLORS:
            if not monarchs_left(board, colour):
                return Outcome.win(colour_name(not colour), "captured king and queen", "goal")
        return None   # no legal move: stalemate draws, the kings not being royal (rules card)

    def caption(self, board: chess.Board, state: None) -> str:
        parts = []
        for colour in chess.COLORS:
            left = [NAMES[k] for k in MONARCHS if board.pieces_mask(k, colour)]
            parts.append(f"{colour_name(colour).capitalize()}: {' and '.join(left) or 'no monarch'}")
        return "Monarchs left: " + "; ".join(parts)


VARIANT = Dynastic()
