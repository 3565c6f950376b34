"""Safe Passage (Karen Robinson, 2019): a solitaire in which one player moves both colours.

FIDE men and moves, but no en passant and no promotion (a pawn never moves onto its last rank),
and no king, queen, rook, bishop or knight of either colour may ever stand attacked. Goals are
cumulative levels: 1 the kings change places, 2 the queens too, 3 every rook, bishop and knight
on its far rank. The target level is level 1 unless the FEN's seventh field says `g2` or `g3`.

Built on `ChessVariant` (python-chess): the moves are FIDE's legal moves, castling and the check
rule included (rules card: there a pawn on its seventh rank still gives check, as in
chess); the variant only filters them (no en passant, no promotion, the safety rule with the rules card's
pawn exception) and judges the goal. The safety test of a candidate
works on bitboards without pushing the move: the position before it is safe, so only the moved
man, the men it now attacks and the men first in line from its start square can be endangered.
"""
from __future__ import annotations

import dataclasses
from typing import Iterator

import chess

from ...castling import castling_moves
from ...chess_variant import ChessVariant, colour_name
from ...lookahead import after
from ...core import DailyDealer, Ending, HintSearch, Outcome, VariantInfo
from ...men import NO_ROYALTY

START = chess.STARTING_FEN
LEVELS = 3
GOAL_REASONS = {1: "kings exchanged", 2: "kings and queens exchanged", 3: "every piece across"}
REACHED = {1: "kings swapped", 2: "kings and queens swapped", 3: "every piece across"}    # the caption's words
NEXT_GOAL = {1: "swap the kings (e1, e8)", 2: "the queens (d1, d8)", 3: "every rook, bishop and knight across"}
NAMES = {chess.KING: "king", chess.QUEEN: "queen", chess.ROOK: "rook", chess.BISHOP: "bishop",
         chess.KNIGHT: "knight", chess.PAWN: "pawn"}

# The far rank of each colour: where its pieces go for level 3 and where its pawns may never step.
FAR_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
# Squares whose pieces belong on them for levels 1 and 2 (colour, piece type, square).
KING_GOALS = ((chess.WHITE, chess.KING, chess.E8), (chess.BLACK, chess.KING, chess.E1))
QUEEN_GOALS = ((chess.WHITE, chess.QUEEN, chess.D8), (chess.BLACK, chess.QUEEN, chess.D1))

# The seventh rank of each colour's pawns: from there a pawn attacks nothing (rules card).
_PAWN_SEVENTH = {chess.WHITE: chess.BB_RANK_7, chess.BLACK: chess.BB_RANK_2}


def start_fen(level: int = 1) -> str:
    """The start array with a target level: what `/puzzle safe-passage level:N` passes as `fen=`."""
    if level not in range(1, LEVELS + 1):
        raise ValueError(f"The target level is 1, 2 or 3, not {level}.")
    return START if level == 1 else f"{START} g{level}"


def _sliding(sq: int, occupied: int) -> tuple[int, int]:
    """(rank and file attacks, diagonal attacks) from `sq` over `occupied`."""
    straight = (chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
                | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied])
    return straight, chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]


def attackers(sq: int, colour: chess.Color, occupied: int, enemy: int, pawns: int, knights: int,
              bishops: int, rooks: int, queens: int, kings: int) -> int:
    """The enemy men attacking a man of `colour` on `sq` (rules card: FIDE attack, pinned men and the
    king included), except pawns onto their last rank, where they can never capture (rules card)."""
    straight, diagonal = _sliding(sq, occupied)
    found = ((chess.BB_KNIGHT_ATTACKS[sq] & knights) | (chess.BB_KING_ATTACKS[sq] & kings)
             | (straight & (rooks | queens)) | (diagonal & (bishops | queens)))
    if not chess.BB_SQUARES[sq] & FAR_RANK[not colour]:
        found |= chess.BB_PAWN_ATTACKS[colour][sq] & pawns
    return found & enemy


def board_attackers(board: chess.Board, sq: int, colour: chess.Color) -> int:
    return attackers(sq, colour, board.occupied, board.occupied_co[not colour], board.pawns, board.knights,
                     board.bishops, board.rooks, board.queens, board.kings)


def dangers(board: chess.Board) -> list[tuple[int, int]]:
    """Every non-pawn man standing attacked, with its attackers: (square, attackers mask)."""
    found = []
    for sq in chess.scan_forward(board.occupied & ~board.pawns):
        colour = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq])
        mask = board_attackers(board, sq, colour)
        if mask:
            found.append((sq, mask))
    return found


def is_safe_after(board: chess.Board, move: chess.Move) -> bool:
    """Does the ordinary move (no castling, en passant or promotion) leave every non-pawn man
    unattacked? `board` must be safe before it: only the moved man, the men it attacks and the
    men first in line from its start square can have come into danger."""
    f, t = move.from_square, move.to_square
    fb, tb = chess.BB_SQUARES[f], chess.BB_SQUARES[t]
    us = board.turn
    mover = board.piece_type_at(f)
    keep = ~fb & ~tb
    occupied = (board.occupied & ~fb) | tb
    ours = (board.occupied_co[us] & ~fb) | tb
    theirs = board.occupied_co[not us] & ~tb
    pawns, knights, bishops = board.pawns & keep, board.knights & keep, board.bishops & keep
    rooks, queens, kings = board.rooks & keep, board.queens & keep, board.kings & keep
    if mover == chess.PAWN:
        pawns |= tb
        reach = 0 if tb & _PAWN_SEVENTH[us] else chess.BB_PAWN_ATTACKS[us][t]
    elif mover == chess.KNIGHT:
        knights |= tb
        reach = chess.BB_KNIGHT_ATTACKS[t]
    elif mover == chess.KING:
        kings |= tb
        reach = chess.BB_KING_ATTACKS[t]
    else:
        straight, diagonal = _sliding(t, occupied)
        if mover == chess.BISHOP:
            bishops |= tb
            reach = diagonal
        elif mover == chess.ROOK:
            rooks |= tb
            reach = straight
        else:
            queens |= tb
            reach = straight | diagonal
    pieces = occupied & ~pawns
    if reach & theirs & pieces:
        return False   # the move attacks an enemy piece
    if mover != chess.PAWN and attackers(t, us, occupied, theirs, pawns, knights, bishops, rooks, queens, kings):
        return False   # the moved piece stands attacked
    straight, diagonal = _sliding(f, occupied)
    for sq in chess.scan_forward((straight | diagonal) & pieces & ~tb):
        colour = us if ours & chess.BB_SQUARES[sq] else not us
        enemy = theirs if colour == us else ours
        if attackers(sq, colour, occupied, enemy, pawns, knights, bishops, rooks, queens, kings):
            return False   # an attack uncovered through the start square
    return True


def level(board: chess.Board) -> int:
    """The highest goal level the position meets (0 for none), the rules card's exact conditions."""
    for reached, goals in ((0, KING_GOALS), (1, QUEEN_GOALS)):
        if not all(board.piece_at(sq) == chess.Piece(kind, colour) for colour, kind, sq in goals):
            return reached
    for colour in chess.COLORS:
        minor = board.occupied_co[colour] & (board.rooks | board.bishops | board.knights)
        if minor & ~FAR_RANK[colour]:
            return 2
    return 3


def _parse_level(text: str) -> int:
    if len(text) == 2 and text[0] in "gG" and text[1] in "123":
        return int(text[1])
    raise ValueError("Safe Passage's seventh FEN field is the target level: g1, g2 or g3.")


class SafePassage(ChessVariant[int]):
    slug = "safe-passage"
    name = "Safe Passage"
    summary = ("Solo puzzle: move both colours in turn and swap the kings (then the queens, then every "
               "piece) without ever leaving a piece attacked.")
    players = 1
    royalty = NO_ROYALTY       # no check: the safety rule covers the kings like every other piece
    promotions = ""
    fide_draws = False
    initial_state = 1          # the target level
    fide_moves = False        # `generate` lists the candidates
    filters_moves = True      # `allows` refuses some
    faults = ChessVariant.faults | chess.STATUS_TOO_MANY_KINGS
    caption_counts_moves = True   # "… · 37 moves"

    def __init__(self, hint: HintSearch | None = None, daily: DailyDealer | None = None) -> None:
        """`hint`, `daily`: the searches the package registers in the games' VariantInfo."""
        self.hint, self.daily = hint, daily

    # -- set-up and FEN ----------------------------------------------------------------------------
    def load(self, fen: str) -> tuple[chess.Board, int]:
        fields = fen.split()
        if len(fields) == 1 and fields[0][:1] in "gG":
            fields = START.split() + fields       # `g2`: the start array with a target level
        if len(fields) >= 4:
            fields[3] = "-"                       # the en passant field is ignored (rules card)
        if len(fields) > 7:
            raise ValueError("Safe Passage's FEN has six fields and an optional target level (g2 or g3).")
        return super().load(" ".join(fields))

    def parse_state(self, fields: list[str]) -> int:
        return _parse_level(fields[0]) if fields else 1

    def format_state(self, state: int) -> list[str]:
        return [] if state == 1 else [f"g{state}"]

    def fen(self, board: chess.Board, state: int) -> str:
        fields = board.fen(en_passant="fen").split()
        fields[3] = "-"                             # never en passant (rules card)
        return " ".join(fields + self.format_state(state))

    # -- moves ----------------------------------------------------------------------------------
    def generate(self, board: chess.Board, state: int) -> Iterator[chess.Move]:
        """Candidates for refusals: python-chess's pseudo-legal moves, castling by the FIDE rights and
        empty squares (so that castling past a pawn's check is explained), and a pawn's step onto its
        last rank without a promotion letter (so that it can be refused)."""
        for move in board.generate_pseudo_legal_moves():
            if board.is_castling(move):
                continue
            if move.promotion == chess.QUEEN:
                yield chess.Move(move.from_square, move.to_square)
            yield move
        yield from castling_moves(board)   # before the check test: for refusals only (rules card)

    def allows(self, board: chess.Board, state: int, move: chess.Move) -> bool:
        return self.refusal(board, move) is None

    def legal(self, board: chess.Board, state: int) -> list[chess.Move]:
        """Rules card: FIDE's legal moves (python-chess's, castling and the check rule with
        FIDE's pawn attack included), less en passant and every pawn move onto its last rank, less
        every move that leaves a piece attacked in the sense of the rules card."""
        if not board.move_stack and dangers(board):
            return []          # a set-up with a piece in danger is lost already (rules card)
        found = []
        last = FAR_RANK[board.turn]
        for move in board.generate_legal_moves():
            from_bb = chess.BB_SQUARES[move.from_square]
            if board.pawns & from_bb:
                if chess.BB_SQUARES[move.to_square] & last or board.is_en_passant(move):
                    continue
            elif board.kings & from_bb and board.is_castling(move):
                if self._castling_is_safe(board, move):
                    found.append(move)
                continue
            if is_safe_after(board, move):
                found.append(move)
        return found

    def _castling_is_safe(self, board: chess.Board, move: chess.Move) -> bool:
        return not dangers(after(board, move))

    def refusal(self, board: chess.Board, move: chess.Move) -> str | None:
        """Why a candidate move is refused, for the player, or None when it is legal."""
        piece = board.piece_at(move.from_square)
        if piece is None or piece.color != board.turn:
            return f"{move.uci()} is not a move here."
        if piece.piece_type == chess.PAWN:
            if board.is_en_passant(move):
                return "There is no en passant in Safe Passage."
            if chess.BB_SQUARES[move.to_square] & FAR_RANK[piece.color]:
                return ("There is no promotion in Safe Passage: a pawn may never move onto its last rank "
                        f"({chess.square_name(move.to_square)}).")
        mover = None if board.is_castling(move) else move.to_square
        later = after(board, move)
        danger = dangers(later)
        if danger:
            danger.sort(key=lambda hit: (hit[0] != mover, hit[0]))
            sq, mask = danger[0]
            victim = later.piece_at(sq)
            attacker = min(chess.SquareSet(mask))
            hit = later.piece_at(attacker)
            assert victim is not None and hit is not None
            return (f"would leave the {colour_name(victim.color)} {NAMES[victim.piece_type]} on "
                    f"{chess.square_name(sq)} attacked by the {NAMES[hit.piece_type]} on "
                    f"{chess.square_name(attacker)}")
        return None if board.is_legal(move) else self.check_refusal(board, move)

    def check_refusal(self, board: chess.Board, move: chess.Move) -> str:
        """Why a move that leaves no piece in danger is still not one of FIDE's legal moves (rules
        card): it castles out of, across or into check, or leaves the king in check,
        which only a pawn on its seventh rank can give (the rules card keeps it out of the safety rule)."""
        us, colour = board.turn, colour_name(board.turn)
        if board.is_castling(move):
            home, target = move.from_square, move.to_square
            for sq in (home, (home + target) // 2, target):
                hits = board.attackers(not us, sq)
                if hits:
                    return (f"As in chess, the king may not castle out of, across or into check: the pawn on "
                            f"{chess.square_name(min(hits))} attacks {chess.square_name(sq)}.")
        if board.is_check():
            hits = board.checkers()
            return (f"The {colour} king is in check from the pawn on {chess.square_name(min(hits))}, and as "
                    "in chess the move must get it out of check.")
        later = after(board, move)
        king = later.king(us)
        hits = later.attackers(not us, king) if king is not None else chess.SquareSet()
        where = f" from the pawn on {chess.square_name(min(hits))}" if hits else ""
        return f"would put the {colour} king in check{where}: as in chess, a king may not move into check."

    def explain(self, board: chess.Board, state: int, move: chess.Move) -> str:
        reason = self.refusal(board, move)
        if reason is None:
            return f"{move.uci()} is legal."
        if reason.startswith("would"):
            label = self.san(board, move, [move])
            if reason.startswith("would leave"):
                return f"{label} {reason}: no king, queen, rook, bishop or knight may ever stand attacked."
            return f"{label} {reason}"
        return reason

    def checked_kings(self, board: chess.Board, state: int) -> list[chess.Square]:
        """The king in check, marked on the board: only a pawn on its seventh rank can give it."""
        king = board.king(board.turn)
        return [king] if king is not None and board.is_check() else []

    # -- the end ----------------------------------------------------------------------------------
    def judge_danger(self, board: chess.Board, state: int, legal: list[chess.Move]) -> Outcome | None:
        """Only a set-up can have a piece in danger: legal play never leaves one (rules card)."""
        if board.move_stack:
            return None
        danger = dangers(board)
        if not danger:
            return None
        squares = [chess.square_name(sq) for sq, _ in danger]
        return Outcome("failed", "piece in danger", None, Ending.FAILED, detail={"squares": squares})

    def judge_goal(self, board: chess.Board, state: int, legal: list[chess.Move]) -> Outcome | None:
        danger = self.judge_danger(board, state, legal)   # a set-up with a piece in danger fails first
        if danger is not None:
            return danger
        reached = level(board)
        if reached < state:
            return None
        return Outcome("solved", GOAL_REASONS[reached], reached, Ending.SOLVED,
                       detail={"level": reached, "target": state})

    def judge_no_move(self, board: chess.Board, state: int, legal: list[chess.Move]) -> Outcome | None:
        return None if legal else Outcome("failed", "no safe move", None, Ending.FAILED)

    # -- the running score and the picture -------------------------------------------------------
    def score(self, board: chess.Board, state: int) -> int:
        """The highest goal level the position meets (0 before the kings have swapped)."""
        return level(board)

    def caption(self, board: chess.Board, state: int) -> str:
        """Who moves, what is reached and what is next, the moves played:
        "Black to move · level 1 reached: kings swapped; next: the queens (d1, d8) · 37 moves",
        and the target when it is not level 1."""
        played, reached = len(board.move_stack), level(board)
        done = f"level {reached} reached: {REACHED[reached]}; " if reached else ""
        goal = f"next: {NEXT_GOAL[reached + 1]}" if reached < state else "target reached"
        turn = "White" if board.turn == chess.WHITE else "Black"
        line = f"{turn} to move · {done}{goal} · {played} move{'' if played == 1 else 's'}"
        return line if state == 1 else f"{line} · target level {state}"

    def marks(self, board: chess.Board, state: int) -> tuple[str, ...]:
        """The goal squares of the next level still to meet (the kings' or the queens' squares;
        level 3's whole far ranks would mark nothing in particular)."""
        reached = level(board)
        goals = {1: KING_GOALS, 2: QUEEN_GOALS}.get(reached + 1, ()) if reached < state else ()
        return tuple(sorted(chess.square_name(sq) for colour, kind, sq in goals
                            if board.piece_at(sq) != chess.Piece(kind, colour)))

    def info(self) -> VariantInfo:
        return dataclasses.replace(super().info(), score_name="level", score_better="higher",
                                   levels=LEVELS, level_start=start_fen, hint=self.hint, daily=self.daily,
                                   seeded=False)
