"""Contravention Chess (Tony Paletta, "Modest Proposals - GOAL Variants"): a player not in check may
put his own King in check by a piece; the opponent must then remove that check at once, or lose.

For the side to move S and the opponent O, a pseudo-legal move (never a capture of a King; castling
without python-chess's attack tests, `Castling.NO_CHECK`, rules card) is legal iff afterwards
1. if O's King stood attacked by S before the move (O "self-checked"), it is attacked by no man of
   S any more (rules card: removed, and no new check);
2. S's King is not attacked, or: S was not in check before the move, S did not self-check on its
   previous turn, and every attacker is a Queen, Rook, Bishop or Knight (rules card).
A player without a legal move loses, whatever the reason (rules card). No insufficient-material draw
(rules card).

Extra state (`Flags`): did the side to move self-check on its previous turn, and did the side to
move in the game's first position (for repetitions, whose flags are read off the board). The other side's
self-check is on the board: its King is attacked while it is not its turn. FEN field 7 is `sc`
when the flag is set and is left out otherwise (rules card). The en passant square is written when
an en passant capture is legal under these rules; repetitions compare the flag as well, and count
an en passant square whenever a pawn could take there.
"""
from __future__ import annotations

from dataclasses import dataclass

import chess

from ..castling import Castling
from ..chess_variant import ChessVariant, colour_name, position_key
from ..core import Ending, Outcome
from ..endings import NoMove
from ..lookahead import after, earlier, scratch

SELF_CHECKED = "sc"


@dataclass(frozen=True)
class Flags:
    barred: bool               # the side to move self-checked on its previous turn (rules card)
    barred_at_start: bool      # the same, for the game's first position (FEN field 7)


def king_attackers(board: chess.Board, colour: chess.Color) -> chess.Bitboard:
    """The men attacking `colour`'s King (empty if it has none)."""
    king = board.king(colour)
    return board.attackers_mask(not colour, king) if king is not None else chess.BB_EMPTY


def is_self_checked(board: chess.Board) -> bool:
    """Does the side that just moved stand in check (it must have done so itself)?"""
    return bool(king_attackers(board, not board.turn))


class Contravention(ChessVariant[Flags]):
    slug = "contravention"
    name = "Contravention Chess"
    family = "GOAL"
    summary = "You may check your own King with a piece; the opponent must undo that check at once or lose."
    insufficient_material = False
    castling = Castling.NO_CHECK   # candidates: pseudo-legal moves, King captures included (refused with a reason)
    initial_state = Flags(False, False)
    filters_moves = True      # `allows` refuses some
    after_effects = True      # `after_move`/`push` change more than the move

    # -- FEN -----------------------------------------------------------------------------------
    def parse_state(self, fields: list[str]) -> Flags:
        if not fields:
            return self.initial_state
        if fields == [SELF_CHECKED]:
            return Flags(True, True)
        raise ValueError(f"Contravention Chess FEN field 7, if present, is '{SELF_CHECKED}' (the side "
                         "to move put its own King in check on its previous turn).")

    def format_state(self, state: Flags) -> list[str]:
        return [SELF_CHECKED] if state.barred else []

    def validate(self, board: chess.Board, state: Flags) -> None:
        # The side not to move may stand in check: it has just checked itself.
        bad = board.status() & ~chess.STATUS_OPPOSITE_CHECK
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")
        if king_attackers(board, not board.turn) & (board.pawns | board.kings):
            raise ValueError("The side that just moved has its King attacked by a pawn or King: "
                             "nobody may check himself that way.")
        if state.barred and board.is_check():
            raise ValueError(f"FEN field 7 says '{SELF_CHECKED}', but then the last move had to "
                             "leave the side to move out of check.")

    def fen(self, board: chess.Board, state: Flags) -> str:
        fields = board.fen(en_passant="xfen").split()
        if fields[3] != "-" and not any(board.is_en_passant(m) for m in self.legal(board, state)):
            fields[3] = "-"
        return " ".join(fields + self.format_state(state))

    # -- moves ---------------------------------------------------------------------------------
    def allows(self, board: chess.Board, state: Flags, move: chess.Move) -> bool:
        return self.fault(board, state, move) is None

    def explain(self, board: chess.Board, state: Flags, move: chess.Move) -> str:
        return self.fault(board, state, move) or f"{move.uci()} is not allowed in {self.name}."

    def fault(self, board: chess.Board, state: Flags, move: chess.Move) -> str | None:
        """Why `move` (a generated candidate) is illegal, in words, or None if it is legal."""
        me = board.turn
        if board.kings & board.occupied_co[not me] & chess.BB_SQUARES[move.to_square]:
            return "A King is never captured in Contravention Chess."
        in_check = board.is_check()
        if board.is_castling(move):
            if in_check:
                return "You cannot castle while your King is in check."
            crossed = chess.msb(chess.between(move.from_square, move.to_square))
            if board.is_attacked_by(not me, crossed):
                return f"Your King may not castle through {chess.square_name(crossed)}: it is attacked there."
        they_self_checked = bool(king_attackers(board, not me))
        position = after(board, move)
        if they_self_checked and king_attackers(position, not me):
            their_king = chess.square_name(position.king(not me) or 0)
            return (f"The {colour_name(not me)} King on {their_king} checked itself: "
                    "your move must leave it attacked by none of your men.")
        attackers = king_attackers(position, me)
        if not attackers:
            return None
        if in_check:
            return "You must get out of check."
        if state.barred:
            return "You checked your own King on your last turn: you may not do it two turns in a row."
        if attackers & (position.pawns | position.kings):
            return "You may put your own King in check only by a Queen, Rook, Bishop or Knight, never by a pawn or King."
        return None

    def push(self, board: chess.Board, state: Flags, move: chess.Move) -> Flags:
        # The opponent's flag: did it stand self-checked before this move (its previous turn)?
        flag = is_self_checked(board)
        board.push(move)
        return Flags(flag, state.barred_at_start)

    # -- check and the end -----------------------------------------------------------------------
    def checked_kings(self, board: chess.Board, state: Flags) -> list[chess.Square]:
        kings = [board.king(colour) for colour in (board.turn, not board.turn) if king_attackers(board, colour)]
        return [king for king in kings if king is not None]

    stalemated = NoMove("loses", "no legal move", Ending.NO_MOVE)   # rules card: no legal move loses

    def judge_no_move(self, board: chess.Board, state: Flags, legal: list[chess.Move]) -> Outcome | None:
        if not legal and not board.is_check() and is_self_checked(board):
            return Outcome.win(colour_name(not board.turn), "cannot remove the check", Ending.NO_MOVE)
        return super().judge_no_move(board, state, legal)

    def count_repetitions(self, board: chess.Board, state: Flags) -> int:
        """Repetitions since the last capture or pawn move, the self-check flag included. A
        position's flag is read off the position before it (was its side to move then standing
        self-checked?); for the game's first position it is the one the game was loaded with. An
        en passant square counts only where an en passant capture is legal (FIDE): it can stand
        only in the oldest position walked, just after a pawn's double step."""
        plies = min(board.halfmove_clock, len(board.move_stack))
        if plies < 4:
            return 1
        depth = min(plies + 1, len(board.move_stack))
        key = position_key(board, royal=False)[:3]     # no en passant square after a piece move
        count, pending = 1, None
        for ply, probe in enumerate(earlier(board, depth), 1):
            if pending is not None:
                count += self.same_flags(pending, is_self_checked(probe), state)
                pending = None
            if (ply <= plies and probe.turn == board.turn and probe.occupied == board.occupied
                    and position_key(probe, royal=False)[:3] == key):
                pending = scratch(probe)
        if pending is not None:
            count += self.same_flags(pending, state.barred_at_start, state)
        return count

    def same_flags(self, earlier: chess.Board, barred: bool, state: Flags) -> bool:
        """Is `earlier` (same men as now), whose side to move was `barred` or not, the position
        that stands now? Its flag must match, and no legal en passant capture may be open there."""
        if barred != state.barred:
            return False
        flags = Flags(barred, state.barred_at_start)
        return not any(self.fault(earlier, flags, move) is None for move in earlier.generate_pseudo_legal_ep())


VARIANT = Contravention()
