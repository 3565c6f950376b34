"""Look-ahead on python-chess boards: the position after a move, checks, mates in one.

One place for the questions look-ahead variants ask ("could the opponent mate at once?",
"does this move allow a mate?"), and the one way variants look ahead: `after(board, move)` for a
copy, `pushed(board, move)` to play a move on the board itself and always take it back (and
`each_after` or the filter `kept` over many moves: one `scratch` copy, then a push per move, for
hot loops), `passed` for the same side moving again, and `earlier` to look back along the moves
played, and `per_position` to answer a costly question once per position. Every helper
leaves the board it is given as it found it.

The mate search is cheap because a mate needs a check, and a check needs a move that lands
where its man (or its promoted man) attacks the enemy king's square, or one that leaves a
line to that king: `may_check` is that prefilter, made of python-chess's attack tables, and
only the moves it passes are pushed. `mate_in_one` goes further for the variants that ask it of
every move (Series Helpmate, Blunder-Mate): it generates only the moves toward the squares that
attack the king (`checking_candidates`) and pushes and pops each on the board itself.
"""
from __future__ import annotations

from types import TracebackType
from typing import Callable, Iterable, Iterator, TypeVar

import chess

T = TypeVar("T")
# The squares in line with a square on an empty board: its rank and file, its diagonals, both.
STRAIGHT = [chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0] for sq in chess.SQUARES]
DIAGONAL = [chess.BB_DIAG_ATTACKS[sq][0] for sq in chess.SQUARES]
# Squares from which a man of each type could attack a king on a square (lines are superset
# masks: the squares between are checked by python-chess when the move is pushed).
_LINES = [STRAIGHT[sq] | DIAGONAL[sq] for sq in chess.SQUARES]


def after(board: chess.Board, move: chess.Move) -> chess.Board:
    """A copy of `board` with `move` played (no move stack: cheap)."""
    copy = board.copy(stack=False)
    copy.push(move)
    return copy


def scratch(board: chess.Board) -> chess.Board:
    """A copy of `board` without its move stack (cheap): a position to keep, or one to push and
    take back moves on with `pushed` while the original stays as it is."""
    return board.copy(stack=False)


class pushed:
    """`with pushed(board, move) as now:` plays `move` on `board` itself for the block and takes
    it back when the block ends, however it ends. `again=True`: the same side is to move again,
    with no en passant right (two moves in a row); taking back restores both."""

    __slots__ = ("board", "move", "again")

    def __init__(self, board: chess.Board, move: chess.Move, *, again: bool = False):
        self.board, self.move, self.again = board, move, again

    def __enter__(self) -> chess.Board:
        board = self.board
        board.push(self.move)
        if self.again:
            board.turn, board.ep_square = not board.turn, None
        return board

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.board.pop()


def each_after(board: chess.Board, moves: Iterable[chess.Move], *,
               again: bool = False) -> Iterator[tuple[chess.Move, chess.Board]]:
    """Each of `moves` with `board` after it: played on `board` itself and taken back before the
    next, and when the loop stops early (the iterator is closed as the loop lets it go). The
    loop form of `pushed` (`again` as there), for hot loops: it costs about a third of what a
    `with` per move does."""
    push, pop = board.push, board.pop
    for move in moves:
        push(move)
        if again:
            board.turn, board.ep_square = not board.turn, None
        try:
            yield move, board
        finally:
            pop()


def per_position(keep: int) -> Callable[[Callable[[chess.Board], T]], Callable[[chess.Board], T]]:
    """A decorator: `question` (a function of the men, side to move, castling and en passant
    alone) answered once per position, as a search meets the same positions again (deeper on
    each iteration, and two moves in either order). Keeps up to `keep` answers, then starts over."""
    def remembering(question: Callable[[chess.Board], T]) -> Callable[[chess.Board], T]:
        answers: dict[tuple[int | bool | None, ...], T] = {}

        def answer(board: chess.Board) -> T:
            key = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
                   board.occupied_co[chess.WHITE], board.turn, board.castling_rights, board.ep_square,
                   board.chess960)
            try:
                return answers[key]
            except KeyError:
                if len(answers) >= keep:
                    answers.clear()
                found = answers[key] = question(board)
                return found
        return answer
    return remembering


def earlier(board: chess.Board, plies: int) -> Iterator[chess.Board]:
    """The positions before each of the last `plies` moves of `board`'s move stack, newest first,
    taken back one by one on a single copy (each yielded board is good until the next: keep one
    with `scratch`). The n-th position yielded was left by `board.move_stack[-n]`."""
    probe = board.copy(stack=plies)
    for _ in range(plies):
        probe.pop()
        yield probe


def kept(board: chess.Board, moves: Iterable[chess.Move],
         keep: Callable[[chess.Board, chess.Color], bool]) -> Iterator[chess.Move]:
    """The moves among `moves` after which `keep(position after, side that moved)` holds, one by
    one: a lazy filter over `each_after` (each move played on `board` itself, yielded while still
    played, and taken back before the next, when the loop stops, or when `keep` raises)."""
    mover = board.turn
    for move, now in each_after(board, moves):
        if keep(now, mover):
            yield move


def defended(board: chess.Board, moves: Iterable[chess.Move]) -> list[chess.Move]:
    """The moves among `moves` after which another man of the mover could capture on the square
    the move lands on (played on `board` itself and taken back: Prop asks it of every move)."""
    return [move for move, now in each_after(board, moves) if now.is_attacked_by(not now.turn, move.to_square)]


def may_check(board: chess.Board, move: chess.Move) -> bool:
    """False only when `move` cannot give check to the side not moving (a cheap, exact-enough
    prefilter: a True still needs `board.gives_check`)."""
    king = board.king(not board.turn)
    if king is None:
        return False
    if move.promotion or board.is_castling(move) or board.is_en_passant(move):
        return True
    if _LINES[king] & chess.BB_SQUARES[move.from_square]:
        return True   # may uncover a line to the king
    piece = board.piece_type_at(move.from_square)
    to = chess.BB_SQUARES[move.to_square]
    if piece == chess.KNIGHT:
        return bool(chess.BB_KNIGHT_ATTACKS[king] & to)
    if piece == chess.PAWN:
        return bool(chess.BB_PAWN_ATTACKS[not board.turn][king] & to)
    if piece == chess.KING:
        return False   # a king never checks; its discovered checks are caught above
    return bool(_LINES[king] & to)


def checking_moves(board: chess.Board, moves: Iterable[chess.Move] | None = None) -> Iterator[chess.Move]:
    """The moves among `moves` (default: FIDE legal moves) that give check."""
    for move in board.legal_moves if moves is None else moves:
        if may_check(board, move) and board.gives_check(move):
            yield move


def gives_check(board: chess.Board, move: chess.Move) -> bool:
    return may_check(board, move) and board.gives_check(move)


def has_move(board: chess.Board, check_counts: Callable[[chess.Move, int], bool] | None, depth: int) -> bool:
    """Has the side to move a legal move, where a move giving check counts only when
    `check_counts(move, depth)` says so (None: every check counts)? For variants whose checks are
    barred unless they mate, or unless they do not: `check_counts` looks further ahead (with `depth`),
    and past depth 0 a check counts (too deep to tell)."""
    checking = []
    for move in board.legal_moves:
        if check_counts is None or not gives_check(board, move):
            return True
        checking.append(move)
    if depth <= 0:
        return bool(checking)
    return check_counts is not None and any(check_counts(move, depth) for move in checking)


def is_fide_mate(board: chess.Board) -> bool:
    return board.is_checkmate()


def mating_moves(board: chess.Board, moves: Iterable[chess.Move] | None = None, *,
                 is_mate: Callable[[chess.Board], bool] = is_fide_mate) -> Iterator[chess.Move]:
    """The moves among `moves` (default: FIDE legal) after which `is_mate` holds for the side then
    to move. `is_mate` is judged on a copy; it must need a check (the prefilter assumes so)."""
    for move in checking_moves(board, moves):
        if is_mate(after(board, move)):
            yield move


def passed(board: chess.Board) -> chess.Board:
    """A copy with the same men and the other side to move (no en passant): the position in
    which the side that just moved would move again, for "two moves in a row" tests."""
    copy = board.copy(stack=False)
    copy.turn = not copy.turn
    copy.ep_square = None
    return copy


# -- mate in one on the board itself ----------------------------------------------------------
# Where a castling Rook lands (d- or f-file, home rank): castling checks only a King in line with one.
_CASTLED_ROOKS = {chess.WHITE: chess.BB_D1 | chess.BB_F1, chess.BLACK: chess.BB_D8 | chess.BB_F8}


def discoverers(board: chess.Board, target: chess.Square) -> chess.Bitboard:
    """The side to move's men that may uncover a line to `target`: each the only man between
    `target` and one of its own Rooks, Bishops or Queens on that line."""
    us, occupied = board.occupied_co[board.turn], board.occupied
    snipers = us & ((STRAIGHT[target] & (board.rooks | board.queens))
                    | (DIAGONAL[target] & (board.bishops | board.queens)))
    found = chess.BB_EMPTY
    for sniper in chess.scan_reversed(snipers):
        blockers = chess.between(target, sniper) & occupied
        if blockers and not blockers & (blockers - 1) and blockers & us:
            found |= blockers
    return found


def lone_blockers(board: chess.Board, target: chess.Square, snipers: chess.Bitboard) -> chess.Bitboard:
    """The side to move's men that each stand alone between `target` and one of `snipers` (men
    in line with it): a move of such a man may open that line (a pin, for a royal `target`)."""
    found = chess.BB_EMPTY
    for sniper in chess.scan_reversed(snipers):
        blockers = chess.between(target, sniper) & board.occupied
        if blockers and not blockers & (blockers - 1):
            found |= blockers
    return found & board.occupied_co[board.turn]


def checking_candidates(board: chess.Board) -> Iterator[chess.Move]:
    """The legal moves that may check the enemy King: a superset of the checks, generated only
    toward the squares that attack the King (plus every move of a man that may uncover a line
    to it, promotions, castling where its Rook lands in line with the King, and en passant), so
    most moves are never made. For a position whose enemy King is not in check already."""
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
    if not own_king & uncover and STRAIGHT[target] & _CASTLED_ROOKS[board.turn]:
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


def mates_allowed(board: chess.Board) -> Iterator[tuple[chess.Move, chess.Move]]:
    """Each legal move (in python-chess's order) after which the opponent can checkmate at once,
    with such a mate. A move that itself mates or stalemates leaves no reply, so no mate."""
    for move in board.legal_moves:
        mate = mate_in_one(after(board, move))
        if mate is not None:
            yield move, mate
