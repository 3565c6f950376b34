"""Linkage Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): FIDE chess in which a King is
also lost to a "linkage-capture", a move that completes an unbroken line of exactly four men
through the King along a rank, file or diagonal.

A linkage-capture never really happens: like a King capture in FIDE chess it is only threatened.
A King is in *linkage-check* when the opponent has a move whose man lands on a square from which
one of the four lines through that square holds a run of exactly four men, the King among them
(rules card). No move may leave one's own King in check or in linkage-check; a player with no
legal move loses if in either kind of check ("checkmate", else "linkage-mate") and draws if in
neither.

A plain FEN holds everything (the outcome depends on the position only).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import chess

from ..chess_variant import ChessVariant, colour_name
from ..core import Ending, Outcome
from ..lookahead import DIAGONAL, STRAIGHT, after, passed, pushed

LINE_LENGTH = 4
# The four lines through a square, each as its two opposite directions (file step, rank step).
LINES = (((1, 0), (-1, 0)), ((0, 1), (0, -1)), ((1, 1), (-1, -1)), ((1, -1), (-1, 1)))


def _ray(square: chess.Square, step: tuple[int, int]) -> tuple[chess.Square, ...]:
    file, rank = chess.square_file(square), chess.square_rank(square)
    out: list[chess.Square] = []
    while True:
        file, rank = file + step[0], rank + step[1]
        if not (0 <= file < 8 and 0 <= rank < 8):
            return tuple(out)
        out.append(chess.square(file, rank))


# RAYS[square][line] = (squares one way, squares the other way), nearest first.
RAYS = [tuple((_ray(sq, ahead), _ray(sq, back)) for ahead, back in LINES) for sq in chess.SQUARES]
# Squares within three steps of a square along its lines: where a man must land to complete a line
# of four through a King standing on that square.
REACH = [0] * 64
for _sq in chess.SQUARES:
    for _ahead, _back in RAYS[_sq]:
        for _other in _ahead[:LINE_LENGTH - 1] + _back[:LINE_LENGTH - 1]:
            REACH[_sq] |= chess.BB_SQUARES[_other]


# LINE_OF[a][b]: the line (0-3) through squares a and b, -1 where they share none.
LINE_OF = [[-1] * 64 for _ in chess.SQUARES]
for _sq in chess.SQUARES:
    for _line, _sides in enumerate(RAYS[_sq]):
        for _side in _sides:
            for _other in _side:
                LINE_OF[_sq][_other] = _line


def landing_squares(king: chess.Square, occupied: int) -> int:
    """The squares where a man must land to complete a line of four through `king`: within three
    steps along a line, every square between them and the King full (a move only empties a
    square, and a line of four is unbroken)."""
    found = 0
    for sides in RAYS[king]:
        for side in sides:
            for other in side[:LINE_LENGTH - 1]:
                found |= chess.BB_SQUARES[other]
                if not occupied & chess.BB_SQUARES[other]:
                    break
    return found


@dataclasses.dataclass(frozen=True)
class Threat:
    """A move that would linkage-capture a King, and the four squares of the line it completes."""
    move: chess.Move
    line: tuple[chess.Square, ...]


def run_through(occupied: int, square: chess.Square, line: int) -> tuple[chess.Square, ...]:
    """The unbroken run of occupied squares through `square` along `line` (0-3), stopping once it
    is longer than a line of four (then it can no longer count)."""
    ahead, back = RAYS[square][line]
    run = [square]
    for side in (ahead, back):
        for other in side:
            if not occupied & chess.BB_SQUARES[other] or len(run) > LINE_LENGTH:
                break
            run.append(other)
    return tuple(sorted(run))


def completed_line(board: chess.Board, move: chess.Move) -> tuple[chess.Square, ...] | None:
    """The line of exactly four, through the mover's destination and holding the opposing King,
    that `move` (by the side to move on `board`) would complete; None if it completes none.

    Only the destination counts; a capture completes a line like any move; landing on the King
    itself is an ordinary capture (rules card)."""
    king = board.king(not board.turn)
    if king is None or move.to_square == king or not REACH[king] & chess.BB_SQUARES[move.to_square]:
        return None
    occupied = (board.occupied & ~chess.BB_SQUARES[move.from_square]) | chess.BB_SQUARES[move.to_square]
    if board.is_en_passant(move):
        occupied &= ~chess.BB_SQUARES[move.to_square + (-8 if board.turn == chess.WHITE else 8)]
    run = run_through(occupied, move.to_square, LINE_OF[move.to_square][king])   # the one line holding both
    return run if len(run) == LINE_LENGTH and king in run else None


def threats(board: chess.Board) -> Iterator[Threat]:
    """Every move of the side to move that would linkage-capture the opposing King: any move its
    men could make, pinned or not, en passant and promotions included, castling excluded
    (rules card)."""
    king = board.king(not board.turn)
    if king is None:
        return
    for move in board.generate_pseudo_legal_moves(chess.BB_ALL, landing_squares(king, board.occupied)):
        if board.is_castling(move):
            continue
        line = completed_line(board, move)
        if line is not None:
            yield Threat(move, line)


def linkage_checks(board: chess.Board) -> list[Threat]:
    """The linkage-captures threatened against the King of the side to move (turn passed to the
    opponent, en passant cleared: rules card)."""
    return list(threats(passed(board)))


def is_linkage_check(board: chess.Board) -> bool:
    return next(threats(passed(board)), None) is not None


# The King's square and every square on its rank, file and diagonals.
KING_LINES = [chess.BB_SQUARES[sq] | STRAIGHT[sq] | DIAGONAL[sq] for sq in chess.SQUARES]


def untested_squares(board: chess.Board) -> int:
    """Squares a move of the side to move may leave and land on without a linkage-capture test
    (0 while its King is in linkage-check). Off the King's lines, a move changes no line
    through the King; it only opens a way to a landing square when it leaves the first man in
    line from that square (a Rook's or a double-stepping pawn's way), so those squares are tested.
    The King's own moves, double steps and en passant (which change the en passant square or
    empty a third square) are always tested."""
    king = board.king(board.turn)
    if king is None or is_linkage_check(board):
        return 0
    occupied, first_in_line = board.occupied, 0
    for square in chess.scan_forward(landing_squares(king, occupied)):
        first_in_line |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                          | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
                          | chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied])
    return chess.BB_ALL & ~(KING_LINES[king] | (first_in_line & occupied))


def is_dead(board: chess.Board) -> bool:
    """King v King, King and Bishop v King, King and Knight v King: three men can neither mate
    nor form a line of four. Anything more plays on."""
    men = chess.popcount(board.occupied)
    if men == 2:
        return True
    return men == 3 and bool(board.knights | board.bishops)


def describe_threat(board: chess.Board, threat: Threat) -> str:
    """E.g. "Qh4 would complete the line h4-g3-f2-e1", the line written from its end farther
    from the King."""
    king = board.king(not board.turn)
    line = sorted(threat.line)   # square order is the order along any line
    if king is not None and chess.square_distance(line[0], king) < chess.square_distance(line[-1], king):
        line.reverse()
    name = board.san(threat.move).rstrip("+#")
    return f"{name} would complete the line {'-'.join(chess.square_name(sq) for sq in line)}"


class Linkage(ChessVariant[None]):
    slug = "linkage"
    name = "Linkage Chess"
    family = "GOAL"
    summary = "Checkmate, or linkage-mate: a King must not be left where a move makes a line of four men with it."
    insufficient_material = False   # replaced by `is_dead`: only K v K, KB v K and KN v K
    initial_state = None     # no extra state beyond the board
    filters_moves = True      # `allows` refuses some

    # -- moves ---------------------------------------------------------------------------------
    def legal(self, board: chess.Board, state: None) -> list[chess.Move]:
        untested = untested_squares(board)
        return [m for m in self.generate(board, state)
                if (chess.BB_SQUARES[m.from_square] & untested and chess.BB_SQUARES[m.to_square] & untested
                    and not (board.pawns & chess.BB_SQUARES[m.from_square]
                             and (abs(m.to_square - m.from_square) == 16 or m.to_square == board.ep_square)))
                or self.allows(board, state, m)]

    def allows(self, board: chess.Board, state: None, move: chess.Move) -> bool:
        with pushed(board, move) as now:   # on the board itself: no copy per candidate
            return next(threats(now), None) is None

    def explain(self, board: chess.Board, state: None, move: chess.Move) -> str:
        position = after(board, move)
        threat = next(threats(position), None)
        if threat is None:   # not refused by this variant
            return f"{move.uci()} is not a legal move here."
        detail = describe_threat(position, threat)
        if is_linkage_check(board):
            return (f"Your King is in linkage-check and that move does not end it: {detail} "
                    f"with your King in it.")
        return (f"That leaves your King open to a linkage-capture: {detail} with your King in it.")

    # -- the end -------------------------------------------------------------------------------
    def judge_no_move(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        if not legal and not board.is_check() and is_linkage_check(board):
            return Outcome.win(colour_name(not board.turn), "linkage-mate", Ending.GOAL)
        return super().judge_no_move(board, state, legal)

    def is_dead(self, board: chess.Board, state: None) -> bool:
        return is_dead(board)

    # -- the picture: the lines of a linkage-check ---------------------------------------------
    def threats_drawn(self, board: chess.Board) -> list[Threat]:
        """One threat per threatening move: a promotion is named once, as =Q."""
        return [t for t in linkage_checks(board) if t.move.promotion in (None, chess.QUEEN)]

    def marks(self, board: chess.Board, state: None) -> tuple[str, ...]:
        return tuple(sorted({chess.square_name(sq) for threat in self.threats_drawn(board) for sq in threat.line}))

    def caption(self, board: chess.Board, state: None) -> str:
        found = self.threats_drawn(board)
        if not found:
            return ""
        opponent = passed(board)
        return "Linkage-check: " + "; ".join(sorted({describe_threat(opponent, threat) for threat in found})) + "."


VARIANT = Linkage()
