"""Counselor Chess: a short-range Queen; King and Queen are both royal; mate your own Queen to win.

Rules card: data/rules/counselor.md. Men as data: only the Queen's line differs from FIDE
(`WFnDnA`: one or two squares along any line, never jumping). Royalty("kq"): no move may leave
the mover's King or Queen attacked (a *safe* move). Rule (4) of the source, "checkmate the
opposing Queen if you can", filters the safe moves: when some safe move leaves the enemy Queen
attacked with no safe reply, only those moves are legal (rules card: the game goes on until one is
played). With no safe move the side to move wins if its Queen is attacked, loses if only its
King is, and draws otherwise (rules card).

Speed: the FIDE men's moves and attacks come from python-chess (`attackers_mask` is right for
every man but the Queen), the Queen's from the data; the queen-mate look-ahead only pushes the
moves that leave an enemy Queen attacked, and stops at the opponent's first safe reply.
"""
from __future__ import annotations

from collections.abc import Iterator

import chess

from ..core import Ending, Outcome
from ..lookahead import DIAGONAL, STRAIGHT, after as board_after, each_after, kept, lone_blockers, scratch
from ..men import FIDE_MEN, Man, MenTable, Royalty, man_at
from ..position import FairyTurn, Judged, PartsVariant, Position, Step, colour_of

QUEEN = Man("counselor queen", "WFnDnA")
NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "Knight", chess.BISHOP: "Bishop", chess.ROOK: "Rook",
         chess.QUEEN: "Queen", chess.KING: "King"}


class Counselor(PartsVariant[FairyTurn]):
    slug = "counselor"
    name = "Counselor Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = "A short-range Queen, and both monarchs royal: mate the King, or get your own Queen mated."
    men = {**FIDE_MEN, "q": QUEEN}
    royalty = Royalty("kq")
    promotions = "rbn"
    promotion_refusal = "A pawn promotes only to a Rook, Bishop or Knight."
    says_no_castling = True                # rules card: no castling whatever the FEN says (FairyVariant.load)
    back_rank_pawns = False

    def __init__(self) -> None:
        super().__init__()
        self.queens = MenTable({"q": QUEEN})

    # -- set-up --------------------------------------------------------------------------------------
    # -- men and attacks -----------------------------------------------------------------------------
    def pseudo(self, board: chess.Board) -> Iterator[chess.Move]:
        """Pseudo-legal moves: FIDE men by python-chess (no castling in any Counselor position;
        no Queen promotions), the Queen by its data."""
        queens = board.queens & board.occupied_co[board.turn]
        for move in board.generate_pseudo_legal_moves(board.occupied_co[board.turn] & ~queens):
            if move.promotion != chess.QUEEN:
                yield move
        if queens:
            yield from self.queens.pseudo_moves(board, promotions="")

    def attackers(self, board: chess.Board, by: bool, square: int) -> int:
        """Men of `by` attacking `square`: python-chess for all but Queens, the data for Queens."""
        found = board.attackers_mask(by, square) & ~board.queens
        near = board.queens & board.occupied_co[by] & chess.BB_KING_ATTACKS[square]
        found |= near
        for queen in chess.scan_forward(board.queens & board.occupied_co[by] & ~near & TWO_AWAY[square]):
            if not board.occupied & chess.between(queen, square):
                found |= chess.BB_SQUARES[queen]
        return found

    def royals(self, board: chess.Board, colour: bool) -> int:
        return (board.kings | board.queens) & board.occupied_co[colour]

    def is_safe(self, board: chess.Board, colour: bool) -> bool:
        return not any(self.attackers(board, not colour, sq) for sq in chess.scan_forward(self.royals(board, colour)))

    def queen_attacked(self, board: chess.Board, colour: bool) -> bool:
        return any(self.attackers(board, not colour, sq)
                   for sq in chess.scan_forward(board.queens & board.occupied_co[colour]))

    def safe_moves(self, board: chess.Board) -> Iterator[chess.Move]:
        return kept(board, self.pseudo(board), self.is_safe)

    def mates_queen(self, board: chess.Board) -> bool:
        """After a move (the opponent to move): is the opponent's Queen attacked with no safe reply?"""
        return self.queen_attacked(board, board.turn) and next(self.safe_moves(board), None) is None

    def sorted_moves(self, board: chess.Board) -> tuple[list[chess.Move], list[chess.Move]]:
        """(safe moves, those of them that checkmate the enemy Queen)."""
        work, us = scratch(board), board.turn
        moves = list(self.pseudo(work))
        plain, zones = self.plain_men(board), self.queen_zones(board)
        # One push per move that needs one: is it safe, and does it attack the enemy Queen?
        tested = {move: (self.is_safe(now, us), bool(now.queens & now.occupied_co[now.turn])
                         and self.queen_attacked(now, now.turn))
                  for move, now in each_after(work, [m for m in moves if not self.is_plain(board, m, plain, zones)])}
        safe = [m for m in moves if tested.get(m, (True, False))[0]]
        threatening = [m for m in safe if tested.get(m, (True, False))[1]]
        mating = [move for move, now in each_after(work, threatening) if self.mates_queen(now)]
        return safe, mating

    def plain_men(self, board: chess.Board) -> int:
        """The men of the side to move whose moves are safe without a test: none while a royal man
        is attacked; else every man but the royal ones and those alone between a royal man and an
        enemy Rook, Bishop or Queen (the Queen two squares away), which would open its line."""
        us = board.turn
        if not self.is_safe(board, us):
            return 0
        lines = 0
        for royal in chess.scan_forward(self.royals(board, us)):
            lines |= lone_blockers(board, royal, board.occupied_co[not us] & (
                (board.rooks & STRAIGHT[royal]) | (board.bishops & DIAGONAL[royal]) | (board.queens & TWO_AWAY[royal])))
        return board.occupied_co[us] & ~self.royals(board, us) & ~lines

    def queen_zones(self, board: chess.Board) -> tuple[int, list[int]] | None:
        """Where a move must start or land to leave the enemy Queen attacked: (squares in line
        with it, squares from which each kind of man attacks it, by piece type); None when it is
        attacked already (every move is tested)."""
        us, zone, lands = board.turn, 0, [0] * 7
        for queen in chess.scan_forward(board.queens & board.occupied_co[not us]):
            if self.attackers(board, us, queen):
                return None
            zone |= STRAIGHT[queen] | DIAGONAL[queen]
            for kind, mask in ((chess.PAWN, chess.BB_PAWN_ATTACKS[not us][queen]),
                               (chess.KNIGHT, chess.BB_KNIGHT_ATTACKS[queen]), (chess.BISHOP, DIAGONAL[queen]),
                               (chess.ROOK, STRAIGHT[queen])):
                lands[kind] |= mask
        return zone, lands

    def is_plain(self, board: chess.Board, move: chess.Move, plain: int,
                 zones: tuple[int, list[int]] | None) -> bool:
        """Safe, and leaving the enemy Queen unattacked, by the masks above (no push)."""
        frm = chess.BB_SQUARES[move.from_square]
        if not frm & plain or move.promotion or board.is_en_passant(move) or zones is None:
            return False
        zone, lands = zones
        kind = board.piece_type_at(move.from_square)
        return not frm & zone and not chess.BB_SQUARES[move.to_square] & lands[kind or 0]

    def turns(self, position: Position) -> dict[str, FairyTurn]:
        safe, mating = self.sorted_moves(position.board)
        return {m.uci(): (Step(m),) for m in (mating or safe)}

    def steps(self, position: Position) -> list[chess.Move]:
        return list(self.pseudo(position.board))

    # -- refusals ------------------------------------------------------------------------------------
    def why_refused(self, position: Position, move: chess.Move) -> str:
        board = position.board
        after = board_after(board, move)
        us = board.turn
        for square in chess.scan_forward(self.royals(after, us)):
            hits = self.attackers(after, not us, square)
            if hits:
                attacker = chess.lsb(hits)
                who = "King" if after.piece_type_at(square) == chess.KING else "Queen"
                return (f"That leaves your {who} on {chess.square_name(square)} attacked by the "
                        f"{NAMES[man_at(after, attacker).piece_type]} on {chess.square_name(attacker)}; "
                        f"both King and Queen are royal.")
        mating = self.sorted_moves(board)[1]
        if mating:
            return (f"You can checkmate the enemy Queen with {min(m.uci() for m in mating)}, so you must "
                    f"(your opponent then wins).")
        return "That is not a legal move here."

    def own_reason(self, position: Position, move: chess.Move) -> str | None:
        board = position.board
        piece = board.piece_at(move.from_square)
        assert piece is not None   # the mover's own man (`refuse_step` checked)
        if piece.piece_type == chess.QUEEN and chess.square_distance(move.from_square, move.to_square) > 2:
            return "The Queen moves only one or two squares along a line."
        middle = chess.between(move.from_square, move.to_square)
        if piece.piece_type == chess.QUEEN and chess.popcount(middle) == 1 and board.occupied & middle:
            return f"The Queen cannot jump over {chess.square_name(chess.lsb(middle))}."
        return super().own_reason(position, move)

    def caption(self, position: Position) -> str:
        """The duty of rule (4), which the board alone does not show."""
        mating = self.sorted_moves(position.board)[1]
        if not mating:
            return ""
        mover = colour_of(position.board.turn).capitalize()
        moves = ", ".join(sorted(m.uci() for m in mating))
        return f"{mover} can checkmate the enemy Queen and must ({moves}); that hands the opponent the win."

    # -- the end ---------------------------------------------------------------------------------------
    def checked(self, position: Position) -> list[int]:
        board = position.board
        return [sq for sq in chess.scan_forward(self.royals(board, board.turn))
                if self.attackers(board, not board.turn, sq)]

    def judge_no_move(self, seen: Judged) -> Outcome | None:
        board = seen.position.board
        if not seen.turns and self.queen_attacked(board, board.turn):
            return Outcome.win(colour_of(board.turn), "queen checkmated", Ending.CHECKMATE)
        return super().judge_no_move(seen)


def _two_away(square: int) -> int:
    """Squares two steps away from `square` along a rank, file or diagonal."""
    mask = 0
    f, r = chess.square_file(square), chess.square_rank(square)
    for df in (-2, 0, 2):
        for dr in (-2, 0, 2):
            if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                mask |= chess.BB_SQUARES[chess.square(f + df, r + dr)]
    return mask


TWO_AWAY = [_two_away(sq) for sq in chess.SQUARES]

VARIANT = Counselor()
