"""Tyrant Chess: only Kings and Queens capture; captured monarchs come back. Rules card: data/rules/tyrant.md."""
from __future__ import annotations

from collections.abc import Mapping

import chess

from ..core import Outcome
from ..lookahead import after as position_after
from ..men import NO_ROYALTY, Man, man_at
from ..position import Drop, FairyTurn, Judged, PartsVariant, Position, Step, Turn, colour_of
from ..refusals import refuse_placement


class Tyrant(PartsVariant[FairyTurn]):
    slug = "tyrant"
    name = "Tyrant Chess"
    family = "GOAL"
    summary = "Only kings and queens capture; captured monarchs come back. Leave him only his monarchs."
    men = {"k": Man("king", "K"), "q": Man("queen", "Q"), "r": Man("rook", "mR"), "b": Man("bishop", "mB"),
           "n": Man("knight", "mN"), "p": Man("pawn", "fmWifmnD")}
    royalty = NO_ROYALTY
    promotions = "rbn"
    promotion_refusal = "A pawn promotes only to a Rook, Bishop or Knight."
    clear_en_passant = True
    back_rank_pawns = False
    drop_words = "places the {man} on {square}"
    one_each = "kq"
    refusal_text = "Only Kings and Queens capture in Tyrant Chess."

    def follow_ups(self, position: Position, move: chess.Move, after: chess.Board) -> list[tuple[Step | Drop, ...]]:
        captured = position.board.piece_type_at(move.to_square)
        if captured not in (chess.KING, chess.QUEEN):
            return [()]
        return [(Drop(chess.piece_symbol(captured).upper(), sq),) for sq in placements(after, not after.turn)]

    def why_not_later(self, position: Position, parts: list[str], first: str, turns: Mapping[str, Turn]) -> str | None:
        allowed = [t.split(" ")[1] for t in turns if t.startswith(first + " ")]
        if len(parts) != 2 or not allowed:
            return None   # not a capture and a placement
        move = chess.Move.from_uci(first)
        return refuse_placement(parts, man_at(position.board, move.to_square).piece_type,
                                position_after(position.board, move), allowed,
                                "your King or Queen could capture it there at once.")

    def drop_colour(self, position: Position, board: chess.Board, part: Drop) -> bool:
        return board.turn   # the placed monarch stays the opponent's (now to move)

    def why_not_step(self, position: Position, move: chess.Move) -> str | None:
        board = position.board
        never_capture = board.occupied_co[board.turn] & ~(board.kings | board.queens)
        if never_capture & chess.BB_SQUARES[move.from_square] and board.color_at(move.to_square) == (not board.turn):
            return self.why_refused(position, move)
        return None

    def judge_goal(self, seen: Judged) -> Outcome | None:
        board = seen.position.board
        if seen.last is None or board.occupied_co[board.turn] & ~(board.kings | board.queens):
            return None   # judged after a turn only (rules card)
        return Outcome.win(colour_of(not board.turn), "all men except the monarchs eliminated", "goal")


def placements(board: chess.Board, capturer: bool) -> list[int]:
    """Empty squares the capturer's King and Queen do not attack (rules card), else every empty square."""
    attacked = 0
    for square in chess.scan_forward((board.kings | board.queens) & board.occupied_co[capturer]):
        attacked |= board.attacks_mask(square)
    empty = ~board.occupied & chess.BB_ALL
    return list(chess.scan_forward(empty & ~attacked or empty))


VARIANT = Tyrant()
