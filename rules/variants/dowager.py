"""Dowager Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): the Queen is the royal man,
and she moves like the highest man her owner still has.

Rules card: data/rules/dowager.md. The Queen's power is data (`POWERS`: the men that lend it,
highest first, and the pattern each lends); it is worked out afresh for every position from the
men of her side on the board (other Queens left out). Check is a pattern attack on a Queen by any
enemy man, the enemy Queen with her own current power (pins and her slide restriction ignored).
A sliding Queen may not pass a square where she would be in check if she stopped there (tested
with her origin square empty). The King is an ordinary man. A player with no legal move loses
("checkmate" or "stalemate"). No castling; pawns promote to King, Rook, Bishop or Knight.

python-chess stores the position and generates the other men's moves; Queen moves and the check
test are bitboards here (`attackers`, `queen_targets`), so nothing asks python-chess about check.
A plain FEN is enough; its castling field is ignored.
"""
from __future__ import annotations

from typing import Iterator

import chess

from ..castling import Castling
from ..chess_variant import BOARD_FAULTS, ChessVariant, colour_name, repetitions
from ..core import Ending
from ..endings import NoMove
from ..lookahead import after as position_after
from ..men import Man, MenTable, Royalty

# The men that lend the Queen their power, highest first (keyed by the lender's letter), and the
# Queen each makes: the rules card's pawn-power Queen steps forward and captures forward diagonally only.
QUEEN_POWERS = {
    "k": Man("queen with a king's power", "K"),
    "r": Man("queen with a rook's power", "R"),
    "b": Man("queen with a bishop's power", "B"),
    "n": Man("queen with a knight's power", "N"),
    "p": Man("queen with a pawn's power", "fmWfcF"),
}
POWERS = tuple((chess.PIECE_SYMBOLS.index(letter), man.name) for letter, man in QUEEN_POWERS.items())
QUEEN_TABLE = MenTable(QUEEN_POWERS)
SLIDES = (chess.ROOK, chess.BISHOP)
PROMOTIONS = (chess.KING, chess.ROOK, chess.BISHOP, chess.KNIGHT)
NAMES = {chess.KING: "King", chess.QUEEN: "Queen", chess.ROOK: "Rook", chess.BISHOP: "Bishop",
         chess.KNIGHT: "Knight", chess.PAWN: "pawn"}


def power(board: chess.Board, colour: chess.Color, gone: int = 0) -> int | None:
    """The piece type whose pattern `colour`'s Queen has (None: no move at all); men on `gone`
    are left out (a capture being tested)."""
    men = board.occupied_co[colour] & ~gone
    for kind, _ in POWERS:
        if men & board.pieces_mask(kind, colour):
            return kind
    return None


def rook_attacks(square: int, occupied: int) -> int:
    return (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])


def bishop_attacks(square: int, occupied: int) -> int:
    return chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]


def pattern_attacks(kind: int | None, square: int, colour: chess.Color, occupied: int) -> int:
    """Squares a Queen of power `kind` standing on `square` attacks, for any occupancy (the check
    test, also of positions not on a board; the same patterns as `QUEEN_POWERS`)."""
    if kind == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    if kind == chess.ROOK:
        return rook_attacks(square, occupied)
    if kind == chess.BISHOP:
        return bishop_attacks(square, occupied)
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if kind == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[colour][square]
    return 0


def attackers(board: chess.Board, by: chess.Color, square: int, occupied: int, gone: int = 0) -> int:
    """The men of `by` that attack `square` by pattern when the board is occupied as `occupied`
    and the men on `gone` are captured (rules card: pins and the Queen's slide limit ignored)."""
    men = board.occupied_co[by] & ~gone
    found = men & ~board.queens & (
        (chess.BB_KNIGHT_ATTACKS[square] & board.knights)
        | (chess.BB_KING_ATTACKS[square] & board.kings)
        | (chess.BB_PAWN_ATTACKS[not by][square] & board.pawns)
        | (rook_attacks(square, occupied) & board.rooks)
        | (bishop_attacks(square, occupied) & board.bishops))
    queen = men & board.queens
    if queen:
        origin = chess.lsb(queen)
        if pattern_attacks(power(board, by, gone), origin, by, occupied) & chess.BB_SQUARES[square]:
            found |= queen
    return found


def queen_square(board: chess.Board, colour: chess.Color) -> int | None:
    queens = board.queens & board.occupied_co[colour]
    return chess.lsb(queens) if queens else None


def queen_checkers(board: chess.Board, colour: chess.Color) -> int:
    """The enemy men giving check to `colour`'s Queen (0 when she is safe or absent)."""
    square = queen_square(board, colour)
    return 0 if square is None else attackers(board, not colour, square, board.occupied)


def queen_targets(board: chess.Board, colour: chess.Color, origin: int, kind: int | None) -> int:
    """Every square the pattern of `kind` reaches from `origin`, ignoring safety (for refusals)."""
    if kind is None:
        return 0
    moves, attacks = QUEEN_TABLE.reach(board, origin, chess.Piece(kind, colour))
    return moves | (attacks & board.occupied_co[not colour])


def safe_for_queen(board: chess.Board, colour: chess.Color, origin: int, target: int) -> bool:
    """Would `colour`'s Queen, moved from `origin` to `target` (capturing there), be unchecked?"""
    bit = chess.BB_SQUARES[target]
    occupied = (board.occupied & ~chess.BB_SQUARES[origin]) | bit
    gone = bit & board.occupied_co[not colour]
    return not attackers(board, not colour, target, occupied, gone)


def queen_moves(board: chess.Board, colour: chess.Color) -> Iterator[chess.Move]:
    """The Queen's legal moves: her power's pattern, each square she ends on or passes safe."""
    origin = queen_square(board, colour)
    if origin is None:
        return
    kind = power(board, colour)
    targets = queen_targets(board, colour, origin, kind)
    safe = {t: safe_for_queen(board, colour, origin, t) for t in chess.scan_forward(targets)}
    for target, ok in safe.items():
        # A slide passes only squares that are themselves targets (empty, on her line): each must
        # be safe too.
        if ok and (kind not in SLIDES or all(safe[s] for s in chess.scan_forward(chess.between(origin, target)))):
            yield chess.Move(origin, target)


def first_unsafe_passed(board: chess.Board, colour: chess.Color, move: chess.Move) -> int | None:
    """The first square a sliding Queen's `move` passes where she would be in check, if any."""
    for square in chess.scan_forward(chess.between(move.from_square, move.to_square)):
        if not safe_for_queen(board, colour, move.from_square, square):
            return square
    return None


def leaves_queen_safe(board: chess.Board, move: chess.Move) -> bool:
    """After the other man's pseudo-legal `move`, is the mover's Queen unchecked? (bitboards: the
    captured man, en passant included, is left out, so an enemy Queen's power may grow.)"""
    colour = board.turn
    queen = queen_square(board, colour)
    if queen is None:
        return True
    frm, to = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
    gone = to & board.occupied_co[not colour]
    if board.ep_square == move.to_square and board.pawns & frm:
        gone = chess.BB_SQUARES[move.to_square + (-8 if colour == chess.WHITE else 8)]
    occupied = ((board.occupied & ~frm) | to) & ~(gone & ~to)
    return not attackers(board, not colour, queen, occupied, gone)


def other_moves(board: chess.Board) -> Iterator[chess.Move]:
    """Pseudo-legal moves of every man but the Queen, a promotion to Queen made one to King."""
    for move in board.generate_pseudo_legal_moves(from_mask=~board.queens):
        if move.promotion == chess.QUEEN:
            yield chess.Move(move.from_square, move.to_square, chess.KING)
        else:
            yield move


def repetition_key(board: chess.Board) -> tuple[str, chess.Color, chess.Square | None]:
    """What makes two positions the same: men, side to move, and an en passant square only when
    a pawn may legally take there."""
    legal_ep = any(leaves_queen_safe(board, m) for m in board.generate_pseudo_legal_ep())
    return board.board_fen(), board.turn, board.ep_square if legal_ep else None


def describe(board: chess.Board, square: int) -> str:
    piece = board.piece_at(square)
    name = NAMES[piece.piece_type] if piece else "man"
    return f"the {name} on {chess.square_name(square)}"


class Dowager(ChessVariant[None]):
    slug = "dowager"
    name = "Dowager Chess"
    family = "GOAL"
    summary = ("The Queen is royal and moves like the highest man you still have; "
               "a player with no legal move loses; pawns may promote to a King.")
    start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    royalty = Royalty("q")   # the Queen is royal: check is tested here (`attackers`)
    castling = Castling.NONE
    reads_castling_field = False       # castling rights are ignored
    promotions = "krbn"
    insufficient_material = False      # rules card
    faults = BOARD_FAULTS
    initial_state = None     # no extra state beyond the board
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some

    # -- FEN -------------------------------------------------------------------------------------
    def validate(self, board: chess.Board, state: None) -> None:
        super().validate(board, state)
        for colour in chess.COLORS:
            if len(board.pieces(chess.QUEEN, colour)) != 1:
                raise ValueError(f"A Dowager Chess position needs exactly one Queen per side; "
                                 f"{colour_name(colour)} has {len(board.pieces(chess.QUEEN, colour))}.")
        if queen_checkers(board, not board.turn):
            raise ValueError(f"{colour_name(not board.turn).capitalize()}'s Queen is in check, "
                             "but it is not their turn.")

    def fen(self, board: chess.Board, state: None) -> str:
        fields = board.fen(en_passant="xfen").split()
        if fields[3] != "-" and not any(board.is_en_passant(m) for m in self.legal(board, state)):
            fields[3] = "-"            # keep the square only when a legal capture there exists
        return " ".join(fields)

    # -- moves -----------------------------------------------------------------------------------
    def legal(self, board: chess.Board, state: None) -> list[chess.Move]:
        moves = [m for m in other_moves(board) if leaves_queen_safe(board, m)]
        moves.extend(queen_moves(board, board.turn))
        return moves

    def generate(self, board: chess.Board, state: None) -> Iterator[chess.Move]:
        """Candidates a player may try, legal or not, so that a refusal can say why: the other
        men's pseudo-legal moves (queen promotions included) and every square a Queen of any
        power could reach."""
        for move in board.generate_pseudo_legal_moves(from_mask=~board.queens):
            yield move
            if move.promotion == chess.QUEEN:
                yield chess.Move(move.from_square, move.to_square, chess.KING)
        origin = queen_square(board, board.turn)
        if origin is not None:
            reach = chess.BB_EMPTY
            for kind in (chess.KING, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
                reach |= queen_targets(board, board.turn, origin, kind)
            for target in chess.scan_forward(reach):
                yield chess.Move(origin, target)

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        return move in self.legal(board, state)

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        colour = board.turn
        if move.promotion == chess.QUEEN:
            return ("A pawn promotes to a King, Rook, Bishop or Knight, never to a Queen: "
                    "the Queen is the royal man.")
        target = chess.square_name(move.to_square)
        if board.queens & chess.BB_SQUARES[move.from_square]:
            kind = power(board, colour)
            if kind is None:
                return ("Your Queen has no other man to borrow a move from, so she cannot move "
                        "(a lone Queen has no legal move).")
            lender = NAMES[kind]
            if not queen_targets(board, colour, move.from_square, kind) & chess.BB_SQUARES[move.to_square]:
                return (f"Your Queen moves like your highest man, now a {lender}, "
                        f"so she cannot move to {target}.")
            passed = first_unsafe_passed(board, colour, move) if kind in SLIDES else None
            if passed is not None:
                checker = self._first_checker(board, colour, move.from_square, passed)
                return (f"The Queen may not slide through {chess.square_name(passed)}: "
                        f"she would be in check there from {checker}.")
            checker = self._first_checker(board, colour, move.from_square, move.to_square)
            return f"The Queen would be in check on {target} from {checker}."
        queen = queen_square(board, colour)
        after = position_after(board, move)
        checkers = queen_checkers(after, colour)
        culprit = describe(after, chess.lsb(checkers)) if checkers else "an enemy man"
        if queen is None:
            return f"{move.uci()} is not allowed in {self.name}."
        if queen_checkers(board, colour):
            return f"Your Queen is in check from {culprit}; that move does not get her out of it."
        return f"That leaves your Queen on {chess.square_name(queen)} in check from {culprit}."

    def _first_checker(self, board: chess.Board, colour: chess.Color, origin: int, square: int) -> str:
        bit = chess.BB_SQUARES[square]
        occupied = (board.occupied & ~chess.BB_SQUARES[origin]) | bit
        gone = bit & board.occupied_co[not colour]
        found = attackers(board, not colour, square, occupied, gone)
        return describe(board, chess.lsb(found)) if found else "an enemy man"

    # -- repetition ------------------------------------------------------------------------------
    def count_repetitions(self, board: chess.Board, state: None) -> int:
        """Repetitions as in standard chess (rules card): an en passant square makes a position
        different only when a legal capture there exists, legal meaning the mover's Queen is safe
        (python-chess's own test would protect the King instead)."""
        return repetitions(board, key=repetition_key)

    # -- check and the end -----------------------------------------------------------------------
    def checked_kings(self, board: chess.Board, state: None) -> list[chess.Square]:
        """The side to move's Queen when she is in check (marked on the board image)."""
        queen = queen_square(board, board.turn)
        return [queen] if queen is not None and queen_checkers(board, board.turn) else []

    stalemated = NoMove("loses", "stalemate", Ending.STALEMATE)   # rules card: stalemate loses

    def in_check(self, board: chess.Board, state: None) -> bool:
        return bool(queen_checkers(board, board.turn))

    def caption(self, board: chess.Board, state: None) -> str:
        parts = []
        for colour in chess.COLORS:
            kind = power(board, colour)
            moves = f"moves as a {NAMES[kind]}" if kind is not None else "has no move"
            parts.append(f"{colour_name(colour).capitalize()} Queen {moves}")
        return "; ".join(parts)


VARIANT = Dowager()
