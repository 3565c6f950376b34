"""Series Helpmate Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): FIDE moves, but
giving checkmate loses, and a player wins by showing that the opponent could mate him.

At the start of his turn (ruling 1), a player P not in check wins by **demonstration** if the
opponent O, moving while P passes, could checkmate P with one move, or with two moves in a row of
which the first does not give check. The series is FIDE-legal for O, with castling rights as they
stand and no en passant (each pass cancels it, ruling 2). A checkmated player wins too.

Order of judgement for the side to move (rulings 5 and 6): checkmated (wins), demonstration
(wins), stalemated (draw), then FIDE's automatic draws. Everything is read from the board: no
extra state, plain FEN.
"""
from __future__ import annotations

from collections.abc import Iterator

import chess

from ..chess_variant import ChessVariant, colour_name, san
from ..core import Outcome
from ..lookahead import after, may_check, passed

_STRAIGHT = [chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0] for sq in chess.SQUARES]
_DIAGONAL = [chess.BB_DIAG_ATTACKS[sq][0] for sq in chess.SQUARES]


def discoverers(board: chess.Board, target: chess.Square) -> chess.Bitboard:
    """The side to move's men that may uncover a line to `target`: each the only man between
    `target` and one of its own Rooks, Bishops or Queens on that line."""
    us, occupied = board.occupied_co[board.turn], board.occupied
    snipers = us & ((_STRAIGHT[target] & (board.rooks | board.queens))
                    | (_DIAGONAL[target] & (board.bishops | board.queens)))
    found = chess.BB_EMPTY
    for sniper in chess.scan_reversed(snipers):
        blockers = chess.between(target, sniper) & occupied
        if blockers and not blockers & (blockers - 1) and blockers & us:
            found |= blockers
    return found


def checking_candidates(board: chess.Board) -> Iterator[chess.Move]:
    """The legal moves that may check the enemy King: a superset of the checks, generated only
    toward the squares that attack the King (plus every move of a man that may uncover a line
    to it, promotions, castling and en passant), so most moves are never made."""
    target = board.king(not board.turn)
    if target is None:
        return
    us, occupied = board.occupied_co[board.turn], board.occupied
    uncover = discoverers(board, target)
    lines = uncover & ~board.kings                       # may uncover a line: every move
    rest = us & ~lines & ~board.kings
    promoting = board.pawns & rest & (chess.BB_RANK_7 if board.turn == chess.WHITE else chess.BB_RANK_2)
    diagonal = chess.BB_DIAG_ATTACKS[target][chess.BB_DIAG_MASKS[target] & occupied]
    straight = (chess.BB_RANK_ATTACKS[target][chess.BB_RANK_MASKS[target] & occupied]
                | chess.BB_FILE_ATTACKS[target][chess.BB_FILE_MASKS[target] & occupied])
    groups = [
        (lines | promoting, chess.BB_ALL),
        (board.knights & rest, chess.BB_KNIGHT_ATTACKS[target]),
        ((board.bishops | board.queens) & rest, diagonal),
        ((board.rooks | board.queens) & rest, straight),
        (board.pawns & rest & ~promoting, chess.BB_PAWN_ATTACKS[not board.turn][target]),
    ]
    own_king = board.kings & us
    if own_king & uncover:
        groups.append((own_king, chess.BB_ALL))         # a King move may uncover a line
    candidates = [m for frm, to in groups if frm and to
                  for m in board.generate_pseudo_legal_moves(frm, to)]
    if not own_king & uncover:
        candidates += board.generate_castling_moves()   # the Rook may land on a checking square
    candidates += board.generate_pseudo_legal_ep()
    for move in candidates:
        if board.is_legal(move):
            yield move


def mate_in_one(board: chess.Board) -> chess.Move | None:
    """A legal move of the side to move that checkmates, if any. Made and taken back on `board`
    itself: one push per candidate is half the work of `lookahead.mating_moves` (which tests
    `gives_check` and then copies), and this runs for every first move of every series."""
    for move in list(checking_candidates(board)):
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move
    return None


def demonstration(board: chess.Board) -> tuple[chess.Move, ...] | None:
    """The opponent's mating series against the side to move, if any: (mate,) or (first, mate),
    as moves in the passed positions. None while the side to move is in check (ruling 3)."""
    if board.is_check():
        return None
    series = passed(board)                           # P passes: O to move
    mate = mate_in_one(series)
    if mate is not None:
        return (mate,)
    for first in list(series.legal_moves):
        if may_check(series, first) and series.gives_check(first):
            continue                                 # the first of two may not give check (ruling 4)
        series.push(first)
        series.push(chess.Move.null())               # P passes again
        mate = mate_in_one(series)
        series.pop()
        series.pop()
        if mate is not None:
            return first, mate
    return None


def describe(board: chess.Board, moves: tuple[chess.Move, ...]) -> str:
    """E.g. "series-helpmate demonstration: Black could mate White with e5 then Qh4#"."""
    names, position = [], passed(board)
    for move in moves:
        names.append(san(position, move, list(position.legal_moves)))
        position = passed(after(position, move))
    names[-1] += "#"
    mover, victim = colour_name(not board.turn).capitalize(), colour_name(board.turn).capitalize()
    return f"series-helpmate demonstration: {mover} could mate {victim} with {' then '.join(names)}"


class SeriesHelpmate(ChessVariant):
    slug = "series-helpmate"
    name = "Series Helpmate Chess"
    summary = ("Giving checkmate loses; win when your opponent could mate you with one move, or "
               "two in a row (the first not a check).")

    def judge(self, board: chess.Board, state: object, legal: list[chess.Move]) -> Outcome | None:
        if not legal and board.is_check():
            return Outcome.win(colour_name(board.turn), "checkmate: the mated player wins")
        series = demonstration(board)
        if series is not None:
            return Outcome.win(colour_name(board.turn), describe(board, series))
        if not legal:
            return Outcome.draw("stalemate")
        return self.automatic_draw(board, state)


VARIANT = SeriesHelpmate()
